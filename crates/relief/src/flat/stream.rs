//! Streaming a flat world: keys are region locations, distance is planar (x, z) distance from
//! the focus to the region's nearest edge, loading is `World::read_region_into` with maps from
//! a pool that evicted regions refill and idle loader threads keep faulted in.

use glam::DVec3;
use std::sync::Arc;

use super::grid::{planar_moved, square_distance, squares_within};
use crate::flat::{FormatError, Region, RegionLocation, World};
use crate::pool::BufferPool;
use crate::stream::source::Source;

/// Regions' worth of buffers idle loaders keep faulted in ahead of loads (within the budget's
/// spare room): about what one step into new ground asks for at the default load radius.
const RESERVE_REGIONS: usize = 12;

pub struct RegionSource {
    world: Arc<World>,
    /// The byte length of each of a region's maps, in file order.
    layer_lens: Vec<usize>,
    pool: Arc<BufferPool>,
}

impl RegionSource {
    pub fn new(world: Arc<World>) -> RegionSource {
        let n = (world.manifest().region_size as usize).pow(2);
        let layer_lens: Vec<usize> = world.manifest().layer_kinds().map_or(vec![4 * n], |ks| {
            ks.iter().map(|k| k.elem_size() * n).collect()
        });
        RegionSource {
            world,
            layer_lens,
            pool: Arc::new(BufferPool::new(0)),
        }
    }

    /// The buffers loads take their maps from.
    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.pool
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

    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(RegionLocation, f64)>) {
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

    fn distance(&self, key: RegionLocation, focus: DVec3) -> f64 {
        self.edge_distance(key, focus[0], focus[2])
    }

    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        planar_moved(from, to)
    }

    fn estimate_bytes(&self, _: RegionLocation) -> usize {
        self.layer_lens.iter().sum()
    }

    fn item_bytes(item: &Region) -> usize {
        item.resident_bytes()
    }

    /// Reads the region and builds its height pyramid (for clipmaps), here on the worker.
    fn load(&self, key: RegionLocation) -> Result<Region, FormatError> {
        let mut region = self.world.read_region_into(key, Some(&self.pool))?;
        region.build_mips();
        Ok(region)
    }

    fn spare_bytes(&self, bytes: usize) {
        self.pool.set_room(bytes);
    }

    /// Frees buffers beyond the room, else faults in one region's buffers while fewer than
    /// [`RESERVE_REGIONS`] are free: the next loads then take no page fault every 4 KiB.
    fn idle(&self) -> bool {
        self.pool.top_up(&self.layer_lens, RESERVE_REGIONS)
    }
}
