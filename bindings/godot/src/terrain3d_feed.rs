//! `ReliefTerrain3DFeed`: the [`Feed`] policy for GDScript, which the Terrain3D bridge
//! (`addons/relief/terrain3d_bridge.gd`) asks each frame what to hand Terrain3D.

use godot::prelude::*;

use crate::feed::{Feed, FeedConfig, Step};

/// Paces a Terrain3D node fed from `ReliefTerrain`'s region signals: changes are queued,
/// applied a few a frame, and shown with one `update_maps()` at most once per
/// `update_interval_s` and only while its measured cost stays within `update_share` of the
/// main thread's time (see the README's Terrain3D cost model).
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct ReliefTerrain3DFeed {
    /// Least time between two `update_maps()` calls, seconds.
    #[export]
    #[init(val = FeedConfig::default().update_interval_s)]
    update_interval_s: f64,
    /// Most of the main thread's time `update_maps()` may take over time.
    #[export]
    #[init(val = FeedConfig::default().update_share)]
    update_share: f64,
    /// Most `add_region`/`remove_regionl` calls a frame.
    #[export]
    #[init(val = FeedConfig::default().changes_per_frame as i64)]
    changes_per_frame: i64,
    /// Made from the properties at the first call.
    feed: Option<Feed>,
}

#[godot_api]
impl ReliefTerrain3DFeed {
    /// `region_loaded` at `location`: hand it over (its newest maps) in a coming frame.
    #[func]
    fn loaded(&mut self, location: Vector2i) {
        self.feed().loaded((location.x, location.y));
    }

    /// `region_unloaded` at `location`: take it back, if Terrain3D ever got it.
    #[func]
    fn unloaded(&mut self, location: Vector2i) {
        self.feed().unloaded((location.x, location.y));
    }

    /// This frame's calls: `{remove: Array[Vector2i], add: Array[Vector2i], update: bool}`.
    /// Make the removes and adds with `update = false`, then, if `update`, one
    /// `update_maps()`, timing it for `updated()`. `now_s`: a monotonic clock in seconds
    /// (`Time.get_ticks_usec() / 1e6`).
    #[func]
    fn frame(&mut self, now_s: f64) -> VarDictionary {
        let plan = self.feed().frame(now_s);
        let (mut add, mut remove) = (Array::<Vector2i>::new(), Array::<Vector2i>::new());
        for step in plan.steps {
            match step {
                Step::Add((x, z)) => add.push(Vector2i::new(x, z)),
                Step::Remove((x, z)) => remove.push(Vector2i::new(x, z)),
            }
        }
        vdict! { "remove" => &remove, "add" => &add, "update" => plan.update }
    }

    /// `update_maps()` ran in the frame that began at `now_s` and took `cost_s` seconds.
    #[func]
    fn updated(&mut self, now_s: f64, cost_s: f64) {
        self.feed().updated(now_s, cost_s);
    }

    /// Whether there is anything to do: queued changes, or applied ones not yet shown. The
    /// bridge asks this first, so a quiet frame builds no plan.
    #[func]
    fn busy(&mut self) -> bool {
        self.feed().busy()
    }

    /// Regions Terrain3D holds.
    #[func]
    fn held(&mut self) -> i64 {
        self.feed().held() as i64
    }

    /// Changes waiting for a frame.
    #[func]
    fn queued(&mut self) -> i64 {
        self.feed().queued() as i64
    }

    /// The next `update_maps()`'s estimated cost, milliseconds.
    #[func]
    fn estimated_update_ms(&mut self) -> f64 {
        self.feed().estimated_cost_s() * 1e3
    }
}

impl ReliefTerrain3DFeed {
    fn feed(&mut self) -> &mut Feed {
        let config = FeedConfig {
            update_interval_s: self.update_interval_s.max(0.0),
            update_share: self.update_share.clamp(1e-3, 1.0),
            changes_per_frame: self.changes_per_frame.clamp(1, 1024) as usize,
        };
        self.feed.get_or_insert_with(|| Feed::new(config))
    }
}
