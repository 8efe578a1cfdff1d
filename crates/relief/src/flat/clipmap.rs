//! A flat world's clipmap: the window logic of [`Clipmap`] filled from resident regions' height
//! pyramids, else the overview.

use super::{Region, RegionLocation, Terrain};
use crate::lod::{Clipmap, DirtyRect};
use crate::stream::PieceMap;
use glam::DVec3;

impl Clipmap {
    /// Moves every level's window to centre on `focus` and fills what became visible.
    /// Returns the storage rectangles rewritten (empty when nothing moved).
    pub fn update(&mut self, focus: DVec3, terrain: &Terrain) -> &[DirtyRect] {
        let map = terrain.resident().read();
        let mut cells = FlatCells::new(terrain, &map);
        self.update_with([focus[0], focus[2]], &mut |k, s, i, j| {
            cells.cell(k, s, i, j)
        })
    }

    /// Refills every visible cell over `loc` (call when a region loads), returning what changed.
    pub fn refresh_region(&mut self, loc: RegionLocation, terrain: &Terrain) -> &[DirtyRect] {
        let e = terrain.world().region_extent();
        let map = terrain.resident().read();
        let mut cells = FlatCells::new(terrain, &map);
        self.refill_with(
            [loc.x as f64 * e, loc.z as f64 * e],
            [(loc.x + 1) as f64 * e, (loc.z + 1) as f64 * e],
            &mut |k, s, i, j| cells.cell(k, s, i, j),
        )
    }
}

/// A flat world's clipmap cells: the mean height over each cell's square, from the resident
/// regions' box-filtered pyramids where the spacing matches one, else the overview at the
/// cell's centre.
struct FlatCells<'a> {
    terrain: &'a Terrain,
    map: &'a PieceMap<RegionLocation, Region>,
    /// The last region looked up (cells come in rows, mostly from one region).
    last: Option<(RegionLocation, Option<&'a Region>)>,
}

impl<'a> FlatCells<'a> {
    fn new(terrain: &'a Terrain, map: &'a PieceMap<RegionLocation, Region>) -> Self {
        FlatCells {
            terrain,
            map,
            last: None,
        }
    }

    fn cell(&mut self, _k: usize, s: f64, i: i64, j: i64) -> f32 {
        let world = self.terrain.world();
        let m = world.manifest();
        let (rs, sp) = (m.region_size as i64, m.vertex_spacing);
        // Which pyramid level matches this spacing: cells are 2^(mip+1) samples wide.
        let ratio = s / sp;
        let mip = (ratio.log2().round() as i64 - 1).max(-1);
        let exact = (2f64.powi((mip + 1) as i32) - ratio).abs() < 1e-9;
        // Cells per region side at that level; 0 when a cell is wider than a region (a world
        // of narrow regions, or a coarse level): no single pyramid holds it, the overview does.
        let per_region = match mip + 1 {
            shift @ 1..=62 => rs >> shift,
            _ => 0,
        };
        if exact && mip >= 0 && per_region > 0 {
            let loc = RegionLocation::new(
                i.div_euclid(per_region) as i32,
                j.div_euclid(per_region) as i32,
            );
            let region = match self.last {
                Some((l, r)) if l == loc => r,
                _ => {
                    let r = self
                        .map
                        .get(&loc)
                        .map(|r| &**r)
                        .filter(|r| r.mips.len() as i64 > mip);
                    self.last = Some((loc, r));
                    r
                }
            };
            if let Some(r) = region {
                let (ci, cj) = (i.rem_euclid(per_region), j.rem_euclid(per_region));
                return r.mips[mip as usize][(cj * per_region + ci) as usize];
            }
        }
        world
            .overview()
            .height((i as f64 + 0.5) * s, (j as f64 + 0.5) * s)
    }
}
