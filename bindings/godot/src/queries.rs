//! `ReliefQueries`: the ground's answers for a game's own threads. A `ReliefTerrain` or
//! `ReliefPlanet` is a node, driven on the main thread; its `queries()` hands out this
//! `RefCounted`, whose calls are safe from any thread: they only take a shared borrow of an
//! object nobody ever borrows mutably (gdext's `experimental-threads` binding blocks, never
//! panics, on shared borrows), and read relief's queries, which are `Send + Sync`.

use godot::prelude::*;

use crate::ask;
use crate::shared::SharedQueries;

/// Height, normal, ground, river and lake queries, callable from any thread (a
/// `WorkerThreadPool` task, a `Thread`), answering for the node that made it while that node
/// streams: NaN, `Vector3.UP` or empty answers before it starts and after it leaves the tree.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct ReliefQueries {
    shared: SharedQueries,
}

impl ReliefQueries {
    pub fn create(shared: SharedQueries) -> Gd<ReliefQueries> {
        Gd::from_object(ReliefQueries { shared })
    }
}

#[godot_api]
impl ReliefQueries {
    /// Whether the node is streaming (answers come from its ground).
    #[func]
    fn is_streaming(&self) -> bool {
        self.shared.get().is_some()
    }

    /// As `ReliefTerrain.height()` / `ReliefPlanet.height()`.
    #[func]
    fn height(&self, position: Vector3) -> f32 {
        ask::height(self.shared.get().as_ref(), position)
    }

    #[func]
    fn heights(&self, positions: PackedVector3Array) -> PackedFloat32Array {
        ask::heights(self.shared.get().as_ref(), &positions)
    }

    #[func]
    fn normal(&self, position: Vector3) -> Vector3 {
        ask::normal(self.shared.get().as_ref(), position)
    }

    #[func]
    fn ground(&self, position: Vector3) -> VarDictionary {
        ask::ground(self.shared.get().as_ref(), position)
    }

    #[func]
    fn river(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::river(self.shared.get().as_ref(), position, radius)
    }

    #[func]
    fn lake(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::lake(self.shared.get().as_ref(), position, radius)
    }

    /// On a planet: the ground's point at latitude/longitude, degrees (zero on a flat world).
    #[func]
    fn position_at(&self, latitude: f64, longitude: f64) -> Vector3 {
        ask::position_at(self.shared.get().as_ref(), latitude, longitude)
    }

    #[func]
    fn lat_lon(&self, position: Vector3) -> Vector2 {
        ask::lat_lon(self.shared.get().as_ref(), position)
    }

    #[func]
    fn height_at_lat_lon(&self, latitude: f64, longitude: f64) -> f32 {
        ask::height_at_lat_lon(self.shared.get().as_ref(), latitude, longitude)
    }
}
