//! The ground on the fine grid before water shapes it: the eroded coarse surface sampled
//! across seams, plus detail from 3-D noise scaled to the local relief, down to the
//! smallest wavelength the fine grid can hold (two of its cells). Rivers and lakes are then
//! found on exactly this ground, so a tile never shows a valley the water did not see.

use parking_lot::Mutex;
use relief::glam::DVec3;

use crate::bake::noise::Noise3;
use crate::bake::routing::Graph;

use super::fine_grid::FineGrid;
use super::sphere::SphereGrid;

/// Detail's amplitude at height `base` (metres): a few metres on lowland and sea floor,
/// rising with height as mountains grow rougher, and fading towards sea level on both sides
/// so the shore follows the coast the continents made rather than the noise.
pub fn amplitude(base: f64) -> f64 {
    if base > 0.0 {
        (6.0 + 0.05 * base).min(1.0 + 0.5 * base)
    } else {
        3.0f64.min(1.0 - 0.1 * base)
    }
}

/// Heights at every fine node, on `threads` threads (same result on any number).
pub fn heights(
    coarse: &SphereGrid,
    coarse_height: &[f64],
    detail: &Noise3,
    fine: &FineGrid,
    threads: usize,
) -> Vec<f64> {
    let coarse_cell = coarse.radius * std::f64::consts::FRAC_PI_2 / coarse.m as f64;
    // Octaves from twice the coarse cell down to twice the fine cell.
    let ratio = (fine.m as f64 / coarse.m as f64).max(1.0);
    let octaves = (ratio.log2().floor() as u32 + 1).clamp(1, 6);
    let m = fine.m as usize;
    let mut out = vec![0.0; fine.node_count()];
    let rows = Mutex::new(out.chunks_mut(m).enumerate());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut dirs = vec![DVec3::ZERO; m];
                let (mut points, mut noise) = (vec![[0.0; 3]; m], vec![0.0; m]);
                let r = fine.radius;
                loop {
                    let Some((row, heights)) = rows.lock().next() else {
                        break;
                    };
                    for ((d, p), i) in dirs.iter_mut().zip(&mut points).zip(row * m..) {
                        *d = fine.dir(i);
                        *p = (*d * r).to_array();
                    }
                    detail.fbm_row(&points, 2.0 * coarse_cell, octaves, 0.55, &mut noise);
                    for ((h, d), n) in heights.iter_mut().zip(&dirs).zip(&noise) {
                        let base = coarse.sample(coarse_height, *d);
                        *h = base + amplitude(base) * n;
                    }
                }
            });
        }
    });
    out
}
