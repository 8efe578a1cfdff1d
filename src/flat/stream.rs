//! Streaming a flat world: keys are region locations, distance is planar (x, z) distance from
//! the focus to the region's nearest edge, loading is `World::read_region`.

use std::sync::Arc;

use super::grid::{square_distance, squares_within};
use crate::flat::{FormatError, Region, RegionLocation, World};
use crate::stream::source::Source;

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

impl Source for RegionSource {
    type Key = RegionLocation;
    type Item = Region;
    type Error = FormatError;

    fn keys_within(&self, focus: [f64; 3], radius: f64, out: &mut Vec<(RegionLocation, f64)>) {
        let b = self.world.manifest().region_bounds;
        squares_within(
            self.world.region_extent(),
            focus[0],
            focus[2],
            radius,
            (b.min, b.max),
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
