//! The planet before erosion: continents and ocean basins from low-frequency 3-D noise,
//! mountain belts from ridged noise where uplift is fastest, and rock hardness. Everything is
//! a function of the direction alone, so there is no seam and no pole.

use crate::bake::noise::Noise3;
use relief::glam::DVec3;

use super::sphere::SphereGrid;
use crate::bake::routing::Graph;

pub struct Shape {
    /// Heights before erosion, metres.
    pub height: Vec<f64>,
    /// Uplift rate, 0–1 (1 where the belts rise fastest); 0 at sea.
    pub uplift: Vec<f64>,
    /// Erodibility divisor: 1 soft sediment … 4 granite.
    pub hardness: Vec<f64>,
    pub ocean: Vec<bool>,
}

/// Share of the surface the continents cover.
pub const LAND_SHARE: f64 = 0.42;
/// Share of the sea floor that is continental shelf (Earth's: about a fifth).
pub const SHELF_SHARE: f64 = 0.2;
/// The shelf's outer edge, metres: just past the classifier's shelf break.
pub const SHELF_EDGE_M: f64 = 130.0;
/// The abyssal plain, metres.
pub const ABYSS_M: f64 = 4200.0;

/// Depth of the sea `offshore` continentality units from the coast (0 at the shore): the
/// shelf deepens evenly to [`SHELF_EDGE_M`] over `shelf` units, then the continental slope
/// falls towards the abyssal plain.
pub fn sea_depth(offshore: f64, shelf: f64) -> f64 {
    if offshore <= shelf {
        SHELF_EDGE_M * offshore / shelf
    } else {
        SHELF_EDGE_M + (ABYSS_M - SHELF_EDGE_M) * (1.0 - (-(offshore - shelf) * 8.0).exp())
    }
}

/// How far offshore (in continentality units) the shelf reaches so that it covers
/// [`SHELF_SHARE`] of the sea floor's area.
fn shelf_width(g: &SphereGrid, raw: &[f64], cut: f64, spread: f64) -> f64 {
    let mut sea: Vec<(f64, f64)> = (0..g.node_count())
        .filter(|&k| raw[k] <= cut)
        .map(|k| ((cut - raw[k]) / spread, g.area[k]))
        .collect();
    sea.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = sea.iter().map(|s| s.1).sum();
    let mut acc = 0.0;
    for (offshore, area) in &sea {
        acc += area;
        if acc >= SHELF_SHARE * total {
            return offshore.max(1e-6);
        }
    }
    1.0
}

pub fn build(g: &SphereGrid, seed: u64) -> Shape {
    let continents = Noise3::new(seed, 101);
    let belts = Noise3::new(seed, 102);
    let rocks = Noise3::new(seed, 103);
    let r = g.radius;
    let n = g.node_count();
    let at = |d: DVec3| [d[0] * r, d[1] * r, d[2] * r];
    // Continentality: low-frequency fBm, warped so coasts are not noise contours.
    let raw: Vec<f64> = (0..n)
        .map(|k| {
            let p = at(g.dir(k));
            let w = continents.fbm([p[2], p[0], p[1]], 0.9 * r, 3, 0.5) * 0.25 * r;
            continents.fbm([p[0] + w, p[1] - w, p[2] + w], 1.1 * r, 5, 0.5)
        })
        .collect();
    // Sea level at the LAND_SHARE quantile of the field, weighted by cell area.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| raw[b].total_cmp(&raw[a]));
    let total: f64 = g.area.iter().sum();
    let (mut acc, mut cut) = (0.0, raw[order[0]]);
    for &k in &order {
        acc += g.area[k];
        cut = raw[k];
        if acc >= LAND_SHARE * total {
            break;
        }
    }
    let spread = raw
        .iter()
        .fold(0.0f64, |m, v| m.max((v - cut).abs()))
        .max(1e-9);
    let mut height = vec![0.0; n];
    let mut uplift = vec![0.0; n];
    let mut hardness = vec![1.0; n];
    let mut ocean = vec![false; n];
    let shelf = shelf_width(g, &raw, cut, spread);
    for k in 0..n {
        let c = (raw[k] - cut) / spread; // −1 … 1, 0 at the coast
        let p = at(g.dir(k));
        if c <= 0.0 {
            ocean[k] = true;
            height[k] = -sea_depth(-c, shelf);
            continue;
        }
        let ridge = belts.ridged(p, 0.45 * r, 5);
        let inland = (c * 5.0).min(1.0);
        uplift[k] = inland * (0.15 + 0.85 * ridge * ridge);
        height[k] = 5.0 + 300.0 * c + 900.0 * uplift[k];
        hardness[k] = 1.0 + 3.0 * (0.5 + 0.5 * rocks.fbm(p, 0.2 * r, 3, 0.5)).clamp(0.0, 1.0);
    }
    // A node surrounded by sea is sea: no one-cell islands for the router to trip on.
    for k in 0..n {
        if !ocean[k] {
            let mut wet = 0;
            let mut all = 0;
            g.each_neighbour(k, |k2, _| {
                all += 1;
                wet += ocean[k2] as u32;
            });
            if wet == all {
                ocean[k] = true;
                height[k] = -20.0;
                uplift[k] = 0.0;
            }
        }
    }
    Shape {
        height,
        uplift,
        hardness,
        ocean,
    }
}
