//! Stream-power erosion on the sphere grid: dz/dt = U − K·A^m·S, solved implicitly receiver
//! first (as the flat baker does), with a talus limit and hillslope diffusion. Flow routing
//! crosses face seams because the grid's neighbours do.

use crate::bake::routing::{Graph, Routing};
use crate::bake::Progress;

use super::shape::Shape;
use super::sphere::SphereGrid;

/// Angle of repose as rise over run (≈ 35°).
const TAN_REPOSE: f64 = 0.7;

pub struct ErosionSetup {
    pub steps: u32,
    /// Uplift per step where the belts rise fastest, metres.
    pub uplift: f64,
    pub k: f64,
    pub m: f64,
    /// Diffusivity × step, m².
    pub diffusion: f64,
}

impl Default for ErosionSetup {
    fn default() -> Self {
        ErosionSetup {
            steps: 48,
            uplift: 40.0,
            k: 2.0e-4,
            m: 0.45,
            diffusion: 4000.0,
        }
    }
}

/// Erodes `shape.height` in place.
pub fn erode(g: &SphereGrid, shape: &mut Shape, setup: &ErosionSetup, progress: &dyn Progress) {
    progress.start("erosion", setup.steps as u64);
    let n = g.node_count();
    for _ in 0..setup.steps {
        let h = &shape.height;
        let rt = Routing::compute(g, h, &shape.ocean);
        let area = rt.accumulate(&g.area);
        let mut hn = h.clone();
        for &k in &rt.order {
            let k = k as usize;
            if shape.ocean[k] {
                continue;
            }
            let r = rt.recv[k] as usize;
            let len = rt.dist[k];
            let base = h[k] + shape.uplift[k] * setup.uplift;
            if rt.filled[k] > h[k] + 1e-3 {
                // Under a lake: sediment settles, filling the basin towards its spill level,
                // so only basins that keep sinking faster than they fill stay lakes.
                hn[k] = base.max(h[k] + 0.25 * (rt.filled[k] - h[k]));
                continue;
            }
            let below = if shape.ocean[r] {
                hn[r].max(0.0)
            } else {
                hn[r].max(if rt.filled[r] > h[r] + 1e-3 {
                    rt.filled[r]
                } else {
                    f64::MIN
                })
            };
            let pull = setup.k / shape.hardness[k] * area[k].powf(setup.m) / len;
            let v = (base + pull * below) / (1.0 + pull);
            hn[k] = v.min(below + TAN_REPOSE * len);
        }
        // Soil creep over the graph (land only), one explicit substep per step.
        let mut next = hn.clone();
        for k in 0..n {
            if shape.ocean[k] {
                continue;
            }
            let mut flux = 0.0;
            g.each_neighbour(k, |k2, d| {
                if !shape.ocean[k2] {
                    flux += (hn[k2] - hn[k]) / (d * d);
                }
            });
            next[k] = hn[k] + (setup.diffusion * flux / 8.0).clamp(-50.0, 50.0);
        }
        shape.height = next;
        progress.inc(1);
    }
    progress.finish();
}

/// Scales land heights so the highest point is `top` metres (sea floor untouched).
pub fn rescale_land(shape: &mut Shape, top: f64) {
    let max = shape
        .height
        .iter()
        .zip(&shape.ocean)
        .filter(|(_, o)| !**o)
        .fold(0.0f64, |m, (h, _)| m.max(*h));
    if max > 0.0 {
        for (h, o) in shape.height.iter_mut().zip(&shape.ocean) {
            if !*o {
                *h = (*h).max(0.5) * top / max;
            }
        }
    }
}
