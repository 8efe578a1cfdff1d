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
        let e = self.world.region_extent();
        let (x0, z0) = (loc.x as f64 * e, loc.z as f64 * e);
        let dx = (x0 - x).max(0.0).max(x - (x0 + e));
        let dz = (z0 - z).max(0.0).max(z - (z0 + e));
        (dx * dx + dz * dz).sqrt()
    }
}

impl Source for RegionSource {
    type Key = RegionLocation;
    type Item = Region;
    type Error = FormatError;

    fn keys_within(&self, focus: [f64; 3], radius: f64, out: &mut Vec<(RegionLocation, f64)>) {
        let e = self.world.region_extent();
        let (x, z) = (focus[0], focus[2]);
        let b = self.world.manifest().region_bounds;
        let (lx0, lx1) = (
            (((x - radius) / e).floor() as i32).max(b.min[0]),
            (((x + radius) / e).floor() as i32).min(b.max[0]),
        );
        let (lz0, lz1) = (
            (((z - radius) / e).floor() as i32).max(b.min[1]),
            (((z + radius) / e).floor() as i32).min(b.max[1]),
        );
        for lz in lz0..=lz1 {
            for lx in lx0..=lx1 {
                let loc = RegionLocation::new(lx, lz);
                let d = self.edge_distance(loc, x, z);
                if d <= radius && self.world.has_region(loc) {
                    out.push((loc, d));
                }
            }
        }
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
