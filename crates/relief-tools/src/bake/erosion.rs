//! Uplift against stream-power erosion, dz/dt = U − K·A^m·S^n with n = 1, solved implicitly
//! receiver-first (Braun & Willett 2013): a node's new height uses its receiver's new height,
//! already solved, so the step is stable at any time step. After each step: a talus limit (no
//! node stands above its receiver by more than its rock's angle of repose) and linear hillslope
//! diffusion. Runs coarse to fine, each grid started from the last, with K rescaled as it goes
//! so the highest point lands on the requested top height.

use crate::bake::grid::Grid;
use crate::bake::routing::{Flow, Routing};
use crate::bake::uplift::{Fields, Tectonics};
use crate::progress::Progress;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepParams {
    /// Erodibility before rock hardness divides it.
    pub k: f64,
    /// Area exponent m (n = 1).
    pub m: f64,
    /// Uplift per step at the fastest-rising place, metres.
    pub uplift: f64,
    /// Hillslope diffusivity × time step, m² per step (0 = off).
    pub diffusion: f64,
    /// Apply the talus (angle-of-repose) limit.
    pub talus: bool,
    /// Land never erodes below this: the sea is its base level.
    pub sea_level: f64,
    /// How water picks its way down (see [`Flow`]).
    pub flow: Flow,
}

/// One implicit step. Returns the routing it used (on the heights before the step).
pub fn step(f: &Fields, h: &mut [f64], p: &StepParams) -> Routing {
    let g = &f.grid;
    let rt = Routing::compute_with(g, h, &f.ocean, p.flow);
    let area = rt.accumulate(&vec![g.dx * g.dx; g.len()]);
    let mut hn = h.to_vec();
    for &k in &rt.order {
        let k = k as usize;
        if f.ocean[k] {
            continue;
        }
        let r = rt.recv[k] as usize;
        let len = rt.dist[k];
        let base = h[k] + f.uplift[k] * p.uplift;
        if rt.filled[k] > h[k] + 1e-3 {
            // Under a lake: the detachment-limited law carries no sediment to fill it, so the
            // bed only moves with the rock. The lake drains when its outlet cuts down to it.
            hn[k] = base;
            continue;
        }
        // Streams grade to a lake's surface, not to its bed.
        let lake_surface = if rt.filled[r] > h[r] + 1e-3 {
            rt.filled[r]
        } else {
            f64::NEG_INFINITY
        };
        let mut below = hn[r].max(lake_surface);
        if f.ocean[r] {
            below = below.max(p.sea_level);
        }
        let pull = p.k / f.hardness[k] * libm::pow(area[k], p.m) / len;
        let mut v = (base + pull * below) / (1.0 + pull);
        if p.talus {
            v = v.min(below + f.tan_repose[k] * len);
        }
        hn[k] = v;
    }
    if p.diffusion > 0.0 {
        diffuse(g, &f.ocean, &mut hn, p.diffusion);
    }
    h.copy_from_slice(&hn);
    rt
}

/// Explicit linear diffusion (soil creep), sub-stepped to stay stable.
fn diffuse(g: &Grid, ocean: &[bool], h: &mut [f64], kappa_m2: f64) {
    let kappa = kappa_m2 / (g.dx * g.dx);
    let substeps = (kappa / 0.2).ceil().max(1.0) as usize;
    let kappa = kappa / substeps as f64;
    let mut next = h.to_vec();
    for _ in 0..substeps {
        for j in 1..g.nz - 1 {
            for i in 1..g.nx - 1 {
                let k = g.idx(i, j);
                if ocean[k] {
                    continue;
                }
                let lap = h[k - 1] + h[k + 1] + h[k - g.nx] + h[k + g.nx] - 4.0 * h[k];
                next[k] = h[k] + kappa * lap;
            }
        }
        h.copy_from_slice(&next);
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ErosionConfig {
    /// Grid spacing of the finest erosion level, metres.
    pub finest_spacing: f64,
    /// Steps on each level, coarsest first; the level count is this list's length.
    pub steps: Vec<u32>,
    pub top_height: f64,
    pub m: f64,
    pub diffusion: f64,
    pub sea_level: f64,
}

impl Default for ErosionConfig {
    fn default() -> Self {
        ErosionConfig {
            finest_spacing: 16.0,
            steps: vec![90, 30, 12],
            top_height: 400.0,
            m: 0.5,
            diffusion: 12.0,
            sea_level: 0.0,
        }
    }
}

/// The result of erosion: the finest level's fields and heights.
pub struct Eroded {
    pub fields: Fields,
    pub height: Vec<f64>,
    pub k: f64,
}

/// Runs every level. The world spans `size` metres from (`x0`, `z0`).
pub fn erode(
    t: &Tectonics,
    x0: f64,
    z0: f64,
    size: f64,
    cfg: &ErosionConfig,
    progress: &dyn Progress,
) -> Eroded {
    // Ground sampled up from the coarser level is planar between its samples, where every
    // lower neighbour ties; a little roughness at the start of each level breaks the ties so
    // the flow's weights, not the grid's axes, decide where water goes.
    let roughen = |q: usize, level: usize| {
        let r = crate::bake::seed::mix(
            t.seed() ^ (q as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ level as u64,
        );
        ((r >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.002 * cfg.top_height
    };
    let levels = cfg.steps.len();
    let total: u64 = cfg.steps.iter().map(|&s| s as u64).sum();
    progress.start("erosion", total);
    let uplift = cfg.top_height / 30.0;
    // At steady state the highest point ∝ U/K; this first guess is refined every step.
    let mut k = uplift / 40.0;
    let mut prev: Option<(Grid, Vec<f64>)> = None;
    let mut out = None;
    for (level, &steps) in cfg.steps.iter().enumerate() {
        let dx = cfg.finest_spacing * (1u64 << (levels - 1 - level)) as f64;
        let n = (size / dx).round() as usize + 1;
        let grid = Grid {
            nx: n,
            nz: n,
            dx,
            x0,
            z0,
        };
        let fields = Fields::sample(t, grid);
        let mut h: Vec<f64> = (0..grid.len())
            .map(|q| {
                if fields.ocean[q] {
                    return fields.floor[q];
                }
                let (x, z) = grid.pos(q);
                let start = match &prev {
                    Some((pg, ph)) => pg.sample(ph, x, z),
                    None => 2.0 * fields.uplift[q],
                };
                (start + roughen(q, level)).max(cfg.sea_level + 0.5)
            })
            .collect();
        for _ in 0..steps {
            let p = StepParams {
                k,
                m: cfg.m,
                uplift,
                diffusion: cfg.diffusion,
                talus: true,
                sea_level: cfg.sea_level,
                flow: Flow::Spread { seed: t.seed() },
            };
            step(&fields, &mut h, &p);
            let hmax = h.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if hmax > 0.0 {
                k *= (hmax / cfg.top_height).clamp(0.85, 1.2);
            }
            progress.inc(1);
        }
        prev = Some((grid, h.clone()));
        out = Some(Eroded {
            fields,
            height: h,
            k,
        });
    }
    progress.finish();
    out.expect("at least one erosion level")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A uniform-uplift square draining to its border, uniform rock, no talus or diffusion.
    fn test_domain(n: usize, dx: f64) -> Fields {
        let grid = Grid {
            nx: n,
            nz: n,
            dx,
            x0: 0.0,
            z0: 0.0,
        };
        let ocean: Vec<bool> = (0..grid.len()).map(|k| grid.on_border(k)).collect();
        let uplift = ocean.iter().map(|&o| if o { 0.0 } else { 1.0 }).collect();
        Fields {
            grid,
            ocean,
            uplift,
            rock: vec![0; grid.len()],
            hardness: vec![1.0; grid.len()],
            tan_repose: vec![1e9; grid.len()],
            floor: vec![0.0; grid.len()],
        }
    }

    fn steady_state(m: f64) -> (Fields, Vec<f64>, Routing) {
        let f = test_domain(81, 50.0);
        let mut h: Vec<f64> = (0..f.grid.len())
            .map(|k| {
                if f.ocean[k] {
                    0.0
                } else {
                    1.0 + (k % 7) as f64 * 0.01
                }
            })
            .collect();
        let p = StepParams {
            k: 0.02,
            m,
            uplift: 1.0,
            diffusion: 0.0,
            talus: false,
            sea_level: 0.0,
            flow: Flow::Steepest,
        };
        let mut last = h.clone();
        for _ in 0..4000 {
            step(&f, &mut h, &p);
            let change = h
                .iter()
                .zip(&last)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            if change < 1e-9 {
                break;
            }
            last.copy_from_slice(&h);
        }
        let rt = Routing::compute(&f.grid, &h, &f.ocean);
        (f, h, rt)
    }

    /// Least-squares slope of log S against log A over channel nodes.
    fn fitted_exponent(f: &Fields, h: &[f64], rt: &Routing) -> f64 {
        let area = rt.accumulate(&vec![f.grid.dx * f.grid.dx; f.grid.len()]);
        let pts: Vec<(f64, f64)> = (0..f.grid.len())
            .filter(|&k| !f.ocean[k] && area[k] >= 20.0 * f.grid.dx * f.grid.dx)
            .map(|k| {
                let s = (h[k] - h[rt.recv[k] as usize]) / rt.dist[k];
                (area[k].ln(), s.ln())
            })
            .collect();
        assert!(pts.len() > 50, "too few channel nodes: {}", pts.len());
        let n = pts.len() as f64;
        let (mx, my) = (
            pts.iter().map(|p| p.0).sum::<f64>() / n,
            pts.iter().map(|p| p.1).sum::<f64>() / n,
        );
        let cov: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let var: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
        cov / var
    }

    #[test]
    fn steady_state_slope_area_follows_the_stream_power_law() {
        for m in [0.4, 0.5] {
            let (f, h, rt) = steady_state(m);
            let slope = fitted_exponent(&f, &h, &rt);
            // S ∝ A^(−m/n), n = 1.
            assert!(
                (slope + m).abs() <= 0.05,
                "m = {m}: fitted exponent {slope:.4}, expected {:.2}",
                -m
            );
        }
    }

    #[test]
    fn huge_time_steps_stay_stable() {
        let f = test_domain(41, 50.0);
        let mut h: Vec<f64> = (0..f.grid.len())
            .map(|k| {
                if f.ocean[k] {
                    0.0
                } else {
                    10.0 + (k % 5) as f64
                }
            })
            .collect();
        let p = StepParams {
            k: 50.0,
            m: 0.5,
            uplift: 1e4,
            diffusion: 0.0,
            talus: false,
            sea_level: 0.0,
            flow: Flow::Steepest,
        };
        for _ in 0..20 {
            step(&f, &mut h, &p);
        }
        assert!(
            h.iter().all(|v| v.is_finite() && *v >= 0.0),
            "an implicit step never oscillates below base level"
        );
    }
}
