//! Stream-power erosion on the sphere grid: dz/dt = U − K·Q^m·S, solved implicitly receiver
//! first (as the flat baker does), with a talus limit and hillslope diffusion. Flow routing
//! crosses face seams because the grid's neighbours do.
//!
//! Q is the discharge: drained area weighted by runoff, the rain the climate leaves after
//! evaporation. So a desert's rivers barely cut, and a closed basin in a dry belt keeps its
//! sill (and becomes a lake or a salt flat) where a wet one is breached and drained.

use crate::bake::routing::{Flow, Graph, Routing};
use crate::progress::Progress;

use super::shape::Shape;
use super::sphere::SphereGrid;

/// Angle of repose as rise over run (≈ 35°).
const TAN_REPOSE: f64 = 0.7;

/// Steps between updates of the runoff as the relief changes.
const CLIMATE_EVERY: u32 = 8;

/// Share of a lake's depth its inflow's sediment fills per step where the inflow carries
/// the reference runoff (less where drier).
const LAKE_FILL: f64 = 0.25;

pub struct ErosionSetup {
    pub steps: u32,
    /// Uplift per step where the belts rise fastest, metres.
    pub uplift: f64,
    pub k: f64,
    pub m: f64,
    /// Diffusivity × step, m².
    pub diffusion: f64,
    /// How water picks its way down (see [`Flow`]).
    pub flow: Flow,
}

impl Default for ErosionSetup {
    /// Erosion strong enough to reach the steady state where incision balances uplift. A
    /// node closes `K·A^m / len` of its gap to its receiver each step: over 13 for a
    /// 100 km² river, about 0.14 for a single cell of granite, so every node settles within a
    /// dozen or so of the 48 steps. The valleys are then the rivers' own, organised by flow
    /// (Hack's law holds on them), rather than the continents' initial domes with shallow
    /// grooves. Only U/K sets the relief, and `rescale_land` rescales it anyway.
    fn default() -> Self {
        ErosionSetup {
            steps: 48,
            uplift: 20.0,
            k: 1.0,
            m: 0.45,
            diffusion: 4000.0,
            flow: Flow::Steepest,
        }
    }
}

/// Erodes `shape.height` in place. `runoff(shape)` gives each node's runoff relative to
/// the reference the erodibility `k` is set for (1 = as wet as that; 0 = nothing runs
/// off); it is called every [`CLIMATE_EVERY`] steps as the relief changes.
pub fn erode(
    g: &SphereGrid,
    shape: &mut Shape,
    setup: &ErosionSetup,
    runoff: &dyn Fn(&Shape) -> Vec<f64>,
    progress: &dyn Progress,
) {
    progress.start("erosion", setup.steps as u64);
    let n = g.node_count();
    let mut wet = Vec::new();
    for step in 0..setup.steps {
        if step % CLIMATE_EVERY == 0 {
            wet = runoff(shape);
            for (w, a) in wet.iter_mut().zip(&g.area) {
                *w = w.max(0.0) * a;
            }
        }
        let h = &shape.height;
        let rt = Routing::compute_with(g, h, &shape.ocean, setup.flow);
        let area = rt.accumulate(&g.area);
        let discharge = rt.accumulate(&wet);
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
                // Under a lake: the inflow's sediment settles, filling the basin towards its
                // spill level as fast as the inflow is wet, so a dry closed basin stays.
                let supply = LAKE_FILL * (discharge[k] / area[k]).min(1.0);
                hn[k] = base.max(h[k] + supply * (rt.filled[k] - h[k]));
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
            let pull = setup.k / shape.hardness[k] * discharge[k].powf(setup.m) / len;
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

/// The highest land, metres (0 if none stands above sea level).
pub fn land_top(shape: &Shape) -> f64 {
    shape
        .height
        .iter()
        .zip(&shape.ocean)
        .filter(|(_, o)| !**o)
        .fold(0.0f64, |m, (h, _)| m.max(*h))
}

/// Scales land heights so the highest point is `top` metres (sea floor untouched).
pub fn rescale_land(shape: &mut Shape, top: f64) {
    let max = land_top(shape);
    if max > 0.0 {
        for (h, o) in shape.height.iter_mut().zip(&shape.ocean) {
            if !*o {
                *h = (*h).max(0.5) * top / max;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use relief::planet::cube::Projection;

    /// At steady state uplift balances incision, U = K·A^m·S, so along channels
    /// S ∝ A^(−m/n) with n = 1: the fitted exponent must come back as −m.
    #[test]
    fn steady_state_slope_area_on_the_sphere_follows_the_stream_power_law() {
        let g = SphereGrid::new(24, 20_000.0, Projection::EquiAngular);
        let n = g.node_count();
        // One ocean cap; the rest uplifts evenly on uniform rock, no creep.
        let ocean: Vec<bool> = (0..n).map(|k| g.dir(k)[0] > 0.8).collect();
        for m in [0.4, 0.5] {
            let mut shape = Shape {
                height: (0..n)
                    .map(|k| {
                        if ocean[k] {
                            -100.0
                        } else {
                            1.0 + (k % 7) as f64 * 0.01
                        }
                    })
                    .collect(),
                uplift: vec![1.0; n],
                hardness: vec![1.0; n],
                ocean: ocean.clone(),
            };
            let setup = ErosionSetup {
                steps: 1000,
                uplift: 0.5,
                k: 0.5,
                m,
                diffusion: 0.0,
                flow: Flow::Steepest,
            };
            erode(
                &g,
                &mut shape,
                &setup,
                &|s| vec![1.0; s.height.len()],
                &Silent,
            );
            let h = &shape.height;
            let rt = Routing::compute(&g, h, &ocean);
            let area = rt.accumulate(&g.area);
            let cell = g.area.iter().sum::<f64>() / n as f64;
            let pts: Vec<(f64, f64)> = (0..n)
                .filter(|&k| !ocean[k] && area[k] >= 10.0 * cell && rt.filled[k] <= h[k] + 1e-3)
                .map(|k| {
                    // A river falls to sea level at its mouth, not to the sea floor.
                    let r = rt.recv[k] as usize;
                    let below = if ocean[r] { h[r].max(0.0) } else { h[r] };
                    ((area[k]).ln(), ((h[k] - below) / rt.dist[k]).ln())
                })
                .collect();
            assert!(pts.len() > 100, "{} channel nodes", pts.len());
            assert!(pts.iter().all(|p| p.1.is_finite()), "every channel falls");
            let slope = crate::bake::routing::fitted_slope(&pts);
            assert!(
                (slope + m).abs() <= 0.1,
                "m = {m}: fitted exponent {slope:.3}"
            );
        }
    }
}
