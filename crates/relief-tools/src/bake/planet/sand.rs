//! Wind-blown sand on a planet ([`aeolian`]), on the coarse grid the climate lives on: the
//! sand dry rivers drop and open shores throw up, blown along the prevailing winds. Then
//! the sand settles into the fine grid's ground ([`Sand::settle`]): it fills the lows of
//! each coarse cell as water would fill a bath, so a sand sea has flat floors between the
//! ridges that stand out of it, and it raises the ground it covers: the one ground class
//! that writes height. Tiles read a dry land sample's sediment as what plants hold of the
//! fine grid's plus the sand over it ([`Sand::sediment`]).

use crate::bake::aeolian;
use crate::bake::classify::FLOODPLAIN_AREA_KM2;
use crate::bake::ground;
use crate::bake::routing::{Graph, Routing};
use relief::glam::DVec3;
use relief::planet::cube::Stencil;

use super::climate;
use super::fine_grid::FineGrid;
use super::sphere::SphereGrid;
use super::water::{flood_reach_m, Water};

/// Per coarse node: the share of loose sand the wind moves and the sand it laid down (m).
pub struct Sand {
    pub mobile: Vec<f64>,
    pub blown: Vec<f64>,
}

impl Sand {
    /// The loose sediment of a dry land sample whose fine-grid sediment is `fine_m` and
    /// whose settled sand is `sand_m`: the share of the first that plants hold (through the
    /// coarse stencil `st`), plus the second.
    pub fn sediment(&self, g: &SphereGrid, st: &Stencil, fine_m: f64, sand_m: f64) -> f64 {
        let m = g.sample_at(st, &self.mobile).clamp(0.0, 1.0);
        fine_m * (1.0 - m) + sand_m.max(0.0)
    }

    /// Settles the blown sand into the fine grid's ground `water.height`; returns the sand's
    /// depth at every fine node (m). `coarse_h` is the coarse grid's height, which the fine
    /// ground is detail on. In each coarse cell the sand fills the lowest ground first, to
    /// the level that holds the cell's blown sand (so it is moved, not made); that level,
    /// taken relative to the coarse surface, is blended between cells, so a sand sea has no
    /// seams. Channels, lakes, the sea and the floodplains of rivers draining
    /// [`FLOODPLAIN_AREA_KM2`] or more (whose floods carry sand away) take none. Only where
    /// the fine grid's resolution is a multiple of the coarse grid's (every planet the
    /// baker makes); elsewhere nothing settles.
    pub fn settle(
        &self,
        g: &SphereGrid,
        coarse_h: &[f64],
        fine: &FineGrid,
        water: &mut Water,
        threads: usize,
    ) -> Vec<f32> {
        let n = fine.node_count();
        let mut depth = vec![0.0f32; n];
        if fine.m % g.m != 0 {
            return depth;
        }
        let open = open_ground(water);
        let regional = |k: usize| g.sample(coarse_h, fine.dir(k));
        let level = self.levels(g, fine, &water.height, &open, &regional, threads);
        let chunk = n.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for (c, (hs, ds)) in water
                .height
                .chunks_mut(chunk)
                .zip(depth.chunks_mut(chunk))
                .enumerate()
            {
                let (open, level) = (&open, &level);
                let g = &*g;
                s.spawn(move || {
                    for (i, (h, d)) in hs.iter_mut().zip(ds).enumerate() {
                        let k = c * chunk + i;
                        if !open[k] {
                            continue;
                        }
                        let st = g.stencil(fine.dir(k));
                        let top = g.sample_at(&st, coarse_h) + g.sample_at(&st, level);
                        if top > *h {
                            *d = (top - *h) as f32;
                            *h = top;
                        }
                    }
                });
            }
        });
        depth
    }

    /// Per coarse node, the level (relative to the coarse surface) its blown sand fills its
    /// fine cells' open ground to; below all of it where there is no sand, and for cells
    /// with no open ground the mean of their neighbours' levels.
    fn levels(
        &self,
        g: &SphereGrid,
        fine: &FineGrid,
        height: &[f64],
        open: &[bool],
        regional: &(impl Fn(usize) -> f64 + Sync),
        threads: usize,
    ) -> Vec<f64> {
        const NONE: f64 = f64::NEG_INFINITY;
        let b = (fine.m / g.m) as i64;
        let m = g.m as i64;
        let cells = g.node_count();
        let mut level = vec![NONE; cells];
        let chunk = cells.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for (c, part) in level.chunks_mut(chunk).enumerate() {
                s.spawn(move || {
                    let mut lows = Vec::with_capacity((b * b) as usize);
                    for (i, v) in part.iter_mut().enumerate() {
                        let k = c * chunk + i;
                        let (face, ci, cj) =
                            (k / (m * m) as usize, k as i64 % m, (k as i64 / m) % m);
                        lows.clear();
                        let mut land = 0usize;
                        for fj in cj * b..(cj + 1) * b {
                            for fi in ci * b..(ci + 1) * b {
                                let f = fine.index(face, fi, fj);
                                if height[f] >= 0.0 {
                                    land += 1;
                                }
                                if open[f] {
                                    lows.push(height[f] - regional(f));
                                }
                            }
                        }
                        if !lows.is_empty() {
                            *v = bath_level(&mut lows, self.blown[k].max(0.0) * land as f64);
                        }
                    }
                });
            }
        });
        // Cells without open ground take their neighbours' mean, so the blend at a coast or
        // a lake shore follows the land beside it.
        let filled: Vec<f64> = (0..cells)
            .map(|k| {
                if level[k] > NONE {
                    return level[k];
                }
                let (mut sum, mut count) = (0.0, 0);
                g.each_neighbour(k, |k2, _| {
                    if level[k2] > NONE {
                        sum += level[k2];
                        count += 1;
                    }
                });
                if count > 0 {
                    sum / count as f64
                } else {
                    -1e4
                }
            })
            .collect();
        filled
    }
}

/// The level water of volume `volume` (m³ per unit cell area, summed over cells) would
/// stand at over ground `lows` (one height per cell, reordered): one metre below the lowest
/// where there is none.
pub fn bath_level(lows: &mut [f64], volume: f64) -> f64 {
    lows.sort_by(f64::total_cmp);
    if volume <= 0.0 {
        return lows[0] - 1.0;
    }
    // Filling the lowest i cells to lows[i] holds Σ (lows[i] − lows[j]) over j < i.
    let mut below = 0.0; // sum of the i lowest
    for i in 1..lows.len() {
        below += lows[i - 1];
        let held = i as f64 * lows[i] - below;
        if held >= volume {
            return (volume + below) / i as f64;
        }
    }
    below += lows[lows.len() - 1];
    (volume + below) / lows.len() as f64
}

/// Fine nodes sand may settle on: dry land off channels and lakes and out of the floods of
/// rivers draining [`FLOODPLAIN_AREA_KM2`] or more.
fn open_ground(w: &Water) -> Vec<bool> {
    let (above, gathers) = ground::drainage(&w.height, &w.routing, &w.area, &w.channel);
    (0..w.height.len())
        .map(|k| {
            if w.ocean[k] || w.channel[k] || w.lake[k] != 0 || w.height[k] < 0.0 {
                return false;
            }
            let floods = gathers[k] >= FLOODPLAIN_AREA_KM2 && above[k] < flood_reach_m(gathers[k]);
            !floods
        })
        .collect()
}

/// Blows the sand over the coarse grid's heights `h` (m, the sea below 0 where `ocean`),
/// with its `precipitation` (mm/yr) and shore `exposure`.
pub fn blow(
    g: &SphereGrid,
    h: &[f64],
    ocean: &[bool],
    precipitation: &[f64],
    exposure: &[f64],
    pole: DVec3,
) -> Sand {
    let temperature: Vec<f64> = (0..g.node_count())
        .map(|k| climate::temperature(g.dir(k), h[k], pole))
        .collect();
    let (mobile, blown) = aeolian::blow(
        &climate::winds(g, pole),
        &Routing::compute(g, h, ocean),
        &g.area,
        h,
        precipitation,
        &temperature,
        exposure,
        ocean,
    );
    Sand { mobile, blown }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The level holds exactly the volume poured, over any ground.
        #[test]
        fn a_bath_level_holds_the_volume_poured(
            ground in prop::collection::vec(-50.0f64..50.0, 1..80),
            volume in 0.0f64..5_000.0,
        ) {
            let mut lows = ground.clone();
            let level = bath_level(&mut lows, volume);
            let held: f64 = ground.iter().map(|&h| (level - h).max(0.0)).sum();
            if volume > 0.0 {
                prop_assert!((held - volume).abs() < 1e-6 * (1.0 + volume), "{held} vs {volume}");
            } else {
                prop_assert_eq!(held, 0.0);
            }
        }
    }
}
