//! When to hand regions to Terrain3D, and when to let it rebuild: the policy behind the
//! Terrain3D bridge, with no engine types.
//!
//! The cost model, from Terrain3D 1.0's `Terrain3DData` (`src/terrain_3d_data.cpp`):
//! `add_region(region, false)` and `remove_regionl(location, false)` only mark the region map
//! dirty. `update_maps()` (`TYPE_MAX`, all regions) then clears all three generated texture
//! arrays and re-creates each from **every** active region
//! (`RenderingServer.texture_2d_layered_create`): height (`FORMAT_RF`), control (`FORMAT_RF`)
//! and color (`FORMAT_RGBA8` with mipmaps), 3.33 MiB per 512² region, however few regions
//! changed. One `update_maps` costs in proportion to the regions Terrain3D holds; calling it
//! for each change, or each frame with a change, multiplies that by the changes.
//!
//! So [`Feed`] queues changes, applies at most `changes_per_frame` a frame (each an
//! `add_region`/`remove_regionl` with no update), and asks for one `update_maps` only when
//! `update_interval_s` has passed since the last and the estimated cost fits the budget: an
//! update runs when `cost ≤ update_share × time since the last`, with the cost estimated as
//! the last measured cost per held region times the regions held now. Terrain3D is never
//! asked to remove a region it was not given.

use std::collections::{HashMap, HashSet, VecDeque};

/// A region's location on Terrain3D's region map.
pub type Location = (i32, i32);

/// How the bridge paces Terrain3D.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeedConfig {
    /// Least time between two `update_maps` calls, seconds.
    pub update_interval_s: f64,
    /// Most of the main thread's time `update_maps` may take over time (0.1: a tenth).
    pub update_share: f64,
    /// Most `add_region`/`remove_regionl` calls a frame.
    pub changes_per_frame: usize,
}

impl Default for FeedConfig {
    fn default() -> FeedConfig {
        FeedConfig {
            update_interval_s: 0.25,
            update_share: 0.1,
            changes_per_frame: 4,
        }
    }
}

/// One call for the bridge to make on Terrain3D's data, with `update = false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `add_region` with the region's newest maps (replacing older ones if held).
    Add(Location),
    /// `remove_regionl`.
    Remove(Location),
}

/// What one frame does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// Call `update_maps()` after the steps, then [`Feed::updated`] with what it cost.
    pub update: bool,
}

/// The queue between a `ReliefTerrain`'s region signals and Terrain3D.
#[derive(Debug, Default)]
pub struct Feed {
    config: FeedConfig,
    /// What Terrain3D has been given and not asked to remove.
    held: HashSet<Location>,
    /// What each queued location should end as: true present (with newest maps), false gone.
    wanted: HashMap<Location, bool>,
    queue: VecDeque<Location>,
    /// Steps applied since the last `update_maps`.
    unshown: bool,
    last_update_s: Option<f64>,
    /// Measured seconds per held region of the last `update_maps`.
    cost_per_region_s: f64,
}

impl Feed {
    pub fn new(config: FeedConfig) -> Feed {
        Feed {
            config,
            ..Feed::default()
        }
    }

    /// Regions Terrain3D holds now.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// Changes waiting for a frame.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Whether the bridge still has work: queued changes, or applied ones not yet shown.
    pub fn busy(&self) -> bool {
        !self.queue.is_empty() || self.unshown
    }

    /// `region_loaded`: the region should be in Terrain3D with these maps.
    pub fn loaded(&mut self, at: Location) {
        self.want(at, true);
    }

    /// `region_unloaded`: the region should leave Terrain3D (if it ever got there).
    pub fn unloaded(&mut self, at: Location) {
        if !self.held.contains(&at) && !self.wanted.contains_key(&at) {
            return; // never handed over, nothing queued: nothing to do
        }
        self.want(at, false);
    }

    fn want(&mut self, at: Location, present: bool) {
        if self.wanted.insert(at, present).is_none() {
            self.queue.push_back(at);
        }
    }

    /// The frame at `now_s` (seconds, any monotonic clock): the calls to make, and whether to
    /// update the maps after them.
    pub fn frame(&mut self, now_s: f64) -> Plan {
        let mut plan = Plan::default();
        while plan.steps.len() < self.config.changes_per_frame {
            let Some(at) = self.queue.pop_front() else {
                break;
            };
            let present = self
                .wanted
                .remove(&at)
                .expect("queued locations are wanted");
            let step = match (present, self.held.contains(&at)) {
                (true, _) => {
                    self.held.insert(at);
                    Step::Add(at)
                }
                (false, true) => {
                    self.held.remove(&at);
                    Step::Remove(at)
                }
                // Loaded and unloaded again before it was handed over: no call at all.
                (false, false) => continue,
            };
            plan.steps.push(step);
        }
        self.unshown |= !plan.steps.is_empty();
        plan.update = self.unshown && self.update_allowed(now_s);
        plan
    }

    /// The update's estimated cost: the last measured cost per region, times the regions
    /// Terrain3D will hold.
    pub fn estimated_cost_s(&self) -> f64 {
        self.cost_per_region_s * self.held.len() as f64
    }

    fn update_allowed(&self, now_s: f64) -> bool {
        let Some(last) = self.last_update_s else {
            return true;
        };
        let since = now_s - last;
        since >= self.config.update_interval_s
            && self.estimated_cost_s() <= self.config.update_share * since
    }

    /// `update_maps()` ran at `now_s` (when the frame began) and took `cost_s`.
    pub fn updated(&mut self, now_s: f64, cost_s: f64) {
        self.unshown = false;
        self.last_update_s = Some(now_s);
        // With nothing held the cost says nothing per region: keep the last estimate.
        if cost_s.is_finite() && cost_s >= 0.0 && !self.held.is_empty() {
            self.cost_per_region_s = cost_s / self.held.len() as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Terrain3D as the bridge drives it: what it holds, and an `update_maps` costing the
    /// same per held region (the cost model above).
    #[derive(Default)]
    struct Terrain3D {
        regions: HashSet<Location>,
        updates: usize,
        spent_s: f64,
    }

    fn run(feed: &mut Feed, t3d: &mut Terrain3D, now: f64, per_region_s: f64) -> Plan {
        let plan = feed.frame(now);
        for step in &plan.steps {
            match *step {
                Step::Add(at) => {
                    t3d.regions.insert(at);
                }
                Step::Remove(at) => assert!(t3d.regions.remove(&at), "removed {at:?} it never had"),
            }
        }
        if plan.update {
            let cost = per_region_s * t3d.regions.len() as f64;
            t3d.updates += 1;
            t3d.spent_s += cost;
            feed.updated(now, cost);
        }
        plan
    }

    #[derive(Clone, Debug)]
    enum Event {
        Loaded(Location),
        Unloaded(Location),
    }

    fn event() -> impl Strategy<Value = Event> {
        let at = (-3i32..3, -3i32..3);
        prop_oneof![
            at.clone().prop_map(Event::Loaded),
            at.prop_map(Event::Unloaded)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any stream of region signals, any frame times, any per-region cost: Terrain3D
        /// ends holding exactly the regions loaded and not unloaded; never removes one it
        /// lacks; gets at most `changes_per_frame` calls a frame and `update_maps` at most
        /// once per interval; and spends on updates at most `update_share` of the time
        /// since the first update, plus that first one.
        #[test]
        fn terrain3d_ends_right_within_its_budget(
            frames in proptest::collection::vec(
                (proptest::collection::vec(event(), 0..4), 0.001f64..0.05), 1..300),
            per_region_ms in 0.01f64..3.0,
            changes_per_frame in 1usize..6,
            update_interval_s in 0.0f64..0.5,
            update_share in 0.02f64..0.5,
        ) {
            let config = FeedConfig { update_interval_s, update_share, changes_per_frame };
            let mut feed = Feed::new(config);
            let mut t3d = Terrain3D::default();
            let mut relief = HashSet::new();
            let (mut now, mut first, mut last) = (0.0, None, None::<f64>);
            let per_region_s = per_region_ms / 1e3;
            let mut step = |feed: &mut Feed, t3d: &mut Terrain3D, now: f64| {
                let plan = run(feed, t3d, now, per_region_s);
                prop_assert!(plan.steps.len() <= changes_per_frame);
                if plan.update {
                    if let Some(l) = last {
                        prop_assert!(now - l >= update_interval_s - 1e-12);
                    }
                    // The first update that cost anything is the one the estimate learns from.
                    let cost = per_region_s * t3d.regions.len() as f64;
                    if cost > 0.0 {
                        first.get_or_insert(cost);
                    }
                    last = Some(now);
                }
                Ok(())
            };
            for (events, dt) in &frames {
                for e in events {
                    match *e {
                        Event::Loaded(at) => { relief.insert(at); feed.loaded(at) }
                        Event::Unloaded(at) => {
                            // relief unloads only what it loaded (the driver's promise).
                            if relief.remove(&at) { feed.unloaded(at) }
                        }
                    }
                }
                step(&mut feed, &mut t3d, now)?;
                now += dt;
            }
            // Quiet frames until everything is applied and shown.
            let mut quiet = 0;
            while feed.busy() {
                step(&mut feed, &mut t3d, now)?;
                now += 0.016;
                quiet += 1;
                prop_assert!(quiet < 100_000, "never settled");
            }
            prop_assert_eq!(&t3d.regions, &relief);
            prop_assert_eq!(feed.held(), relief.len());
            let budget = update_share * now + first.unwrap_or(0.0) + 1e-9;
            prop_assert!(t3d.spent_s <= budget, "spent {} of {budget}", t3d.spent_s);
        }
    }

    #[test]
    fn a_burst_of_regions_is_one_update_not_one_per_region() {
        let mut feed = Feed::new(FeedConfig {
            changes_per_frame: 9,
            ..FeedConfig::default()
        });
        let mut t3d = Terrain3D::default();
        for x in -1..2 {
            for z in -1..2 {
                feed.loaded((x, z));
            }
        }
        let plan = run(&mut feed, &mut t3d, 0.0, 0.001);
        assert_eq!(plan.steps.len(), 9);
        assert!(plan.update);
        assert_eq!(t3d.updates, 1);
        assert!(!feed.busy());
    }

    #[test]
    fn a_region_unloaded_before_it_was_handed_over_costs_no_call() {
        let mut feed = Feed::new(FeedConfig::default());
        feed.loaded((0, 0));
        feed.unloaded((0, 0));
        feed.unloaded((5, 5)); // never loaded at all
        let plan = feed.frame(0.0);
        assert!(plan.steps.is_empty() && !plan.update, "{plan:?}");
        assert!(!feed.busy());
    }

    #[test]
    fn an_expensive_update_waits_until_it_fits_the_share() {
        let config = FeedConfig {
            update_interval_s: 0.0,
            update_share: 0.1,
            changes_per_frame: 16,
        };
        let mut feed = Feed::new(config);
        let mut t3d = Terrain3D::default();
        for x in 0..10 {
            feed.loaded((x, 0));
        }
        // 10 regions at 2 ms: a 20 ms update, so the next may come 200 ms later.
        assert!(run(&mut feed, &mut t3d, 0.0, 0.002).update);
        feed.loaded((10, 0));
        assert!(!run(&mut feed, &mut t3d, 0.1, 0.002).update);
        assert!(
            !run(&mut feed, &mut t3d, 0.2, 0.002).update,
            "22 ms > 20 ms"
        );
        assert!(run(&mut feed, &mut t3d, 0.23, 0.002).update);
        assert_eq!(t3d.updates, 2);
    }
}
