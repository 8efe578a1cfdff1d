//! Planet climate on the sphere grid. Latitude is measured from the blob's polar axis, never
//! assumed to be Y. Temperature: insolation following P₂(sin φ) and a lapse rate (the flat
//! baker's law). Precipitation: latitude bands (wet equator, dry subtropics, wet westerlies),
//! moisture carried along zonal winds from the sea, rained out where the wind climbs.

use crate::bake::aeolian::Wind;
use crate::bake::climate::{runoff, ClimateSetup, LAPSE};
use crate::bake::routing::Graph;
use relief::glam::DVec3;
use relief::planet::cube;

use super::sphere::SphereGrid;

pub fn latitude_deg(d: DVec3, pole: DVec3) -> f64 {
    cube::latitude(d, pole).to_degrees()
}

/// Mean annual temperature, °C, at direction `d` and height `h`.
pub fn temperature(d: DVec3, h: f64, pole: DVec3) -> f64 {
    ClimateSetup::sea_level_temperature(latitude_deg(d, pole)) - LAPSE * h.max(0.0)
}

/// Zonal-mean precipitation over the sea, mm/yr.
pub fn band(lat_deg: f64) -> f64 {
    let a = lat_deg.abs();
    250.0 + 2200.0 * (-(a / 12.0).powi(2)).exp() + 1000.0 * (-((a - 50.0) / 12.0).powi(2)).exp()
}

/// The prevailing wind's sign along the local east: trades and polar easterlies blow west
/// (−1), the mid-latitude westerlies east (+1).
fn wind_sign(lat_deg: f64) -> f64 {
    let a = lat_deg.abs();
    if (30.0..60.0).contains(&a) {
        1.0
    } else {
        -1.0
    }
}

/// The prevailing winds over the sphere grid: trades, westerlies and polar easterlies
/// along each node's local east ([`wind_sign`]), each node's upwind neighbour the one most
/// nearly against its wind, and the nodes ordered by longitude along the wind (the order
/// wraps round the planet).
pub fn winds(g: &SphereGrid, pole: DVec3) -> Wind {
    let n = g.node_count();
    let lat: Vec<f64> = (0..n).map(|k| latitude_deg(g.dir(k), pole)).collect();
    let mut upwind = vec![0u32; n];
    let mut dist = vec![0.0f64; n];
    for k in 0..n {
        let d = g.dir(k);
        let c = pole.cross(d);
        upwind[k] = k as u32;
        if c[0] * c[0] + c[1] * c[1] + c[2] * c[2] < 1e-18 {
            continue; // on the pole: no east, no wind to follow
        }
        let east = cube::normalize(c);
        let s = wind_sign(lat[k]);
        let mut best_dot = 0.0;
        g.each_neighbour(k, |k2, step_m| {
            let d2 = g.dir(k2);
            let step = [d2[0] - d[0], d2[1] - d[1], d2[2] - d[2]];
            let along = -(step[0] * east[0] + step[1] * east[1] + step[2] * east[2]) * s;
            let along = along / (step_m / g.radius);
            if along > best_dot {
                (upwind[k], best_dot, dist[k]) = (k2 as u32, along, step_m);
            }
        });
    }
    let along: Vec<f64> = (0..n)
        .map(|k| cube::lat_lon(g.dir(k), pole).1 * wind_sign(lat[k]))
        .collect();
    Wind::along(upwind, dist, &along, true)
}

pub fn precipitation(g: &SphereGrid, h: &[f64], ocean: &[bool], pole: DVec3) -> Vec<f64> {
    let n = g.node_count();
    let lat: Vec<f64> = (0..n).map(|k| latitude_deg(g.dir(k), pole)).collect();
    let wind = winds(g, pole);
    // The climb from each node's upwind neighbour.
    let climb: Vec<f64> = (0..n)
        .map(|k| {
            let u = wind.upwind[k] as usize;
            if u == k {
                0.0
            } else {
                ((h[k].max(0.0) - h[u].max(0.0)) / wind.dist[k]).max(0.0)
            }
        })
        .collect();
    // Moisture carried downwind: sweep in wind order (two passes cover the wrap-around).
    let decay = 0.5 * g.radius;
    let mut q = vec![1.0f64; n];
    for _ in 0..2 {
        for &k in &wind.order {
            let k = k as usize;
            if ocean[k] {
                q[k] = 1.0;
                continue;
            }
            let u = wind.upwind[k] as usize;
            if u == k {
                continue;
            }
            let rise = (h[k].max(0.0) - h[u].max(0.0)).max(0.0);
            q[k] = q[u] * (-wind.dist[k] / decay).exp() * (-rise / 1500.0).exp();
        }
    }
    (0..n)
        .map(|k| {
            let base = band(lat[k]);
            if ocean[k] {
                base
            } else {
                base * (0.3 + 0.7 * q[k]) * (1.0 + 12.0 * climb[k].min(0.5))
            }
        })
        .collect()
}

/// Runoff at every node of `g` (mm/yr), for heights `h` in metres: the precipitation the
/// winds bring ([`precipitation`]) less what the warmth evaporates ([`runoff`]).
pub fn runoff_field(g: &SphereGrid, h: &[f64], ocean: &[bool], pole: DVec3) -> Vec<f64> {
    let p = precipitation(g, h, ocean, pole);
    (0..g.node_count())
        .map(|k| runoff(p[k], temperature(g.dir(k), h[k], pole)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::planet::cube::Projection;

    /// A rain shadow falls on the side of a range the prevailing wind leaves: east of a
    /// north–south range in the westerlies, west of it in the trades.
    #[test]
    fn the_lee_of_a_range_is_drier_on_the_prevailing_winds_side() {
        let pole = DVec3::Y;
        let g = SphereGrid::new(48, 50_000.0, Projection::EquiAngular);
        let n = g.node_count();
        let lon_deg = |k: usize| cube::lat_lon(g.dir(k), pole).1.to_degrees();
        // One continent 80° wide, a ridge 2 km high down its middle.
        let ocean: Vec<bool> = (0..n).map(|k| lon_deg(k).abs() > 40.0).collect();
        let h: Vec<f64> = (0..n)
            .map(|k| {
                if ocean[k] {
                    -1000.0
                } else {
                    50.0 + 2000.0 * (-(lon_deg(k) / 8.0).powi(2)).exp()
                }
            })
            .collect();
        let p = precipitation(&g, &h, &ocean, pole);
        // Mean precipitation in a 10°-wide belt at `lat`, between longitudes.
        let mean = |lat: f64, lo: f64, hi: f64| {
            let v: Vec<f64> = (0..n)
                .filter(|&k| {
                    let l = latitude_deg(g.dir(k), pole);
                    (l - lat).abs() < 5.0 && (lo..hi).contains(&lon_deg(k))
                })
                .map(|k| p[k])
                .collect();
            assert!(!v.is_empty(), "no nodes at {lat}° between {lo}° and {hi}°");
            v.iter().sum::<f64>() / v.len() as f64
        };
        for lat in [45.0, -45.0] {
            // Westerlies: west is windward, east is the lee.
            let (windward, lee) = (mean(lat, -20.0, -10.0), mean(lat, 10.0, 20.0));
            assert!(
                lee < 0.7 * windward,
                "{lat}°: lee {lee:.0} vs windward {windward:.0} mm"
            );
        }
        for lat in [15.0, -15.0] {
            // Trades: east is windward, west is the lee.
            let (windward, lee) = (mean(lat, 10.0, 20.0), mean(lat, -20.0, -10.0));
            assert!(
                lee < 0.7 * windward,
                "{lat}°: lee {lee:.0} vs windward {windward:.0} mm"
            );
        }
    }
}
