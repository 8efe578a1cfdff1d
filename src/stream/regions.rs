//! Streaming a flat world: keys are region locations, distance is planar (x, z) distance from
//! the focus to the region's nearest edge, loading is `World::read_region`.

use std::sync::Arc;

use crate::stream::source::Source;
use crate::world::{FormatError, Region, RegionLocation, World};

pub struct RegionSource {
    world: Arc<World>,
    bytes_per_region: usize,
}

impl RegionSource {
    pub fn new(world: Arc<World>) -> RegionSource {
        let n = (world.manifest().region_size as usize).pow(2);
        let per_sample: usize = world
            .manifest()
            .layer_kinds()
            .map_or(4, |ks| ks.iter().map(|k| k.elem_size()).sum());
        RegionSource {
            world,
            bytes_per_region: n * per_sample,
        }
    }

    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// Planar distance from (x, z) to the nearest point of region `loc` (0 inside).
    pub fn edge_distance(&self, loc: RegionLocation, x: f64, z: f64) -> f64 {
        square_distance(loc.x, loc.z, self.world.region_extent(), x, z)
    }
}

/// Planar distance from (x, z) to grid square (cx, cz) of side `side` — the square
/// `[cx·side, (cx+1)·side] × [cz·side, (cz+1)·side]` — or 0 inside it. Regions and collision
/// chunks both stream by this distance.
pub fn square_distance(cx: i32, cz: i32, side: f64, x: f64, z: f64) -> f64 {
    let (x0, z0) = (cx as f64 * side, cz as f64 * side);
    let dx = (x0 - x).max(0.0).max(x - (x0 + side));
    let dz = (z0 - z).max(0.0).max(z - (z0 + side));
    (dx * dx + dz * dz).sqrt()
}

/// Calls `f(cx, cz, distance)` for every grid square of side `side` within `radius` of (x, z).
pub fn squares_within(side: f64, x: f64, z: f64, radius: f64, mut f: impl FnMut(i32, i32, f64)) {
    for cz in ((z - radius) / side).floor() as i32..=((z + radius) / side).floor() as i32 {
        for cx in ((x - radius) / side).floor() as i32..=((x + radius) / side).floor() as i32 {
            let d = square_distance(cx, cz, side, x, z);
            if d <= radius {
                f(cx, cz, d);
            }
        }
    }
}

impl Source for RegionSource {
    type Key = RegionLocation;
    type Item = Region;
    type Error = FormatError;

    fn keys_within(&self, focus: [f64; 3], radius: f64, out: &mut Vec<(RegionLocation, f64)>) {
        squares_within(
            self.world.region_extent(),
            focus[0],
            focus[2],
            radius,
            |lx, lz, d| {
                let loc = RegionLocation::new(lx, lz);
                if self.world.has_region(loc) {
                    out.push((loc, d));
                }
            },
        );
    }

    fn distance(&self, key: RegionLocation, focus: [f64; 3]) -> f64 {
        self.edge_distance(key, focus[0], focus[2])
    }

    fn estimate_bytes(&self, _: RegionLocation) -> usize {
        self.bytes_per_region
    }

    fn item_bytes(item: &Region) -> usize {
        item.resident_bytes()
    }

    /// Reads the region and builds its height pyramid (for clipmaps), here on the worker.
    fn load(&self, key: RegionLocation) -> Result<Region, FormatError> {
        let mut region = self.world.read_region(key)?;
        region.build_mips();
        Ok(region)
    }
}
