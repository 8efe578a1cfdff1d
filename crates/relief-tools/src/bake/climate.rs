//! Climate on the eroded land: mean annual temperature from latitude (insolation follows the
//! second Legendre polynomial of the sine of latitude) and a lapse rate, and precipitation from
//! moist air marched along the prevailing wind: it rains where the wind climbs (orographic
//! lift), dries out as it goes, and leaves a rain shadow on the lee side.

use crate::bake::grid::Grid;
use crate::bake::seed::Rng;

/// Lapse rate, °C per metre of height.
pub const LAPSE: f64 = 0.0065;
const METRES_PER_DEGREE: f64 = 111_320.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClimateSetup {
    /// Latitude of the world's centre, degrees (north is −Z).
    pub latitude_deg: f64,
    /// Direction the wind blows towards, radians in the (x, z) plane.
    pub wind_angle: f64,
    /// Precipitation over open sea at the windward edge, mm/yr.
    pub base_precip: f64,
}

impl ClimateSetup {
    pub fn from_seed(seed: u64) -> ClimateSetup {
        let mut rng = Rng::new(seed, 3);
        ClimateSetup {
            latitude_deg: rng.range(18.0, 58.0),
            wind_angle: rng.range(0.0, std::f64::consts::TAU),
            base_precip: rng.range(450.0, 1900.0),
        }
    }

    /// Sea-level temperature at latitude φ: warmth = (1 − P₂(sin φ)) / 1.5 is 1 at the
    /// equator and 0 at the poles; mapped to 27 °C … −13 °C.
    pub fn sea_level_temperature(latitude_deg: f64) -> f64 {
        let y = libm::sin(latitude_deg.to_radians());
        let p2 = 0.5 * (3.0 * y * y - 1.0);
        let warmth = (1.0 - p2) / 1.5;
        27.0 - 40.0 * libm::pow(1.0 - warmth, 1.5)
    }

    /// Temperature at world position (x, z) and height h (metres; sea counts as 0).
    pub fn temperature(&self, z: f64, h: f64) -> f64 {
        Self::lapsed(self.sea_level_at(z), h)
    }

    /// Sea-level temperature along the row at z: the costly part of [`Self::temperature`]
    /// (a `pow`), the same for a whole row, so a bake computes it once per row.
    pub fn sea_level_at(&self, z: f64) -> f64 {
        Self::sea_level_temperature(self.latitude_deg - z / METRES_PER_DEGREE)
    }

    /// Temperature at height h (metres; sea counts as 0) where sea level is `sea_level` °C.
    pub fn lapsed(sea_level: f64, h: f64) -> f64 {
        sea_level - LAPSE * h.max(0.0)
    }
}

/// Precipitation (mm/yr) at every grid node.
pub fn precipitation(grid: &Grid, h: &[f64], ocean: &[bool], c: &ClimateSetup) -> Vec<f64> {
    // Orographic lift responds to the regional slope, not to every gully: smooth first.
    let smooth = blur(grid, &blur(grid, h, 4), 4);
    let (wx, wz) = (libm::cos(c.wind_angle), libm::sin(c.wind_angle));
    // A wind-aligned grid covering the world's square: s runs downwind, t across.
    let size = grid.dx * (grid.nx - 1) as f64;
    let (cx, cz) = (grid.x0 + size / 2.0, grid.z0 + size / 2.0);
    let ds = grid.dx;
    let half = size * std::f64::consts::FRAC_1_SQRT_2 + ds;
    let m = (2.0 * half / ds).ceil() as usize + 1;
    let rot = Grid {
        nx: m,
        nz: m,
        dx: ds,
        x0: -half,
        z0: -half,
    };
    let world = |s: f64, t: f64| (cx + s * wx - t * wz, cz + s * wz + t * wx);
    let inside =
        |x: f64, z: f64| x >= grid.x0 && z >= grid.z0 && x <= grid.x0 + size && z <= grid.z0 + size;
    let ocean_f: Vec<f64> = ocean.iter().map(|&o| o as u8 as f64).collect();

    // Rain-out length over flat ground, and how strongly a climbing wind rains.
    const BACKGROUND: f64 = 60_000.0;
    const OROGRAPHIC: f64 = 10.0;
    const RECOVERY: f64 = 8_000.0;
    // Rain falls downwind of the ascent that condenses it: Smith & Barstad (2004) put the
    // condensation and fallout delays at some hundreds of seconds each: half a kilometre or
    // more of drift in a light wind. So the lee of a hill a few hundred metres across is as
    // wet as its windward side, and only a range's lee, kilometres deep, lies in its shadow.
    const FALLOUT: f64 = 500.0;
    let mut rain = vec![0.0; rot.len()];
    for j in 0..m {
        let t = rot.z0 + j as f64 * ds;
        let mut q = 1.0f64;
        let mut falling: Option<f64> = None;
        let mut last_h: Option<f64> = None;
        for i in 0..m {
            let s = rot.x0 + i as f64 * ds;
            let (x, z) = world(s, t);
            let (hh, sea) = if inside(x, z) {
                (
                    grid.sample(&smooth, x, z).max(0.0),
                    grid.sample(&ocean_f, x, z) > 0.5,
                )
            } else {
                (0.0, true)
            };
            let climb = last_h.map_or(0.0, |lh| (hh - lh) / ds);
            last_h = Some(hh);
            // Climbing air rains more, sinking air less (never below a fifth).
            let lift = (1.0 + OROGRAPHIC * climb).max(0.2);
            let r = q * lift;
            let f = falling.map_or(r, |f| f + (r - f) * (ds / FALLOUT).min(1.0));
            falling = Some(f);
            rain[rot.idx(i, j)] = f;
            q -= (q * lift * ds / BACKGROUND).min(q);
            if sea {
                q += (1.0 - q) * ds / RECOVERY;
            }
        }
    }
    let p: Vec<f64> = (0..grid.len())
        .map(|k| {
            let (x, z) = grid.pos(k);
            let (dx, dz) = (x - cx, z - cz);
            let (s, t) = (dx * wx + dz * wz, -dx * wz + dz * wx);
            c.base_precip * rot.sample(&rain, s, t)
        })
        .collect();
    blur(grid, &p, 2)
}

/// Box blur of radius `r` nodes, separable, clamped at the edges.
pub fn blur(grid: &Grid, v: &[f64], r: usize) -> Vec<f64> {
    let pass = |src: &[f64], horizontal: bool| -> Vec<f64> {
        let mut out = vec![0.0; src.len()];
        for j in 0..grid.nz {
            for i in 0..grid.nx {
                let mut sum = 0.0;
                let mut cnt = 0.0;
                for d in -(r as isize)..=r as isize {
                    let (ii, jj) = if horizontal {
                        (i as isize + d, j as isize)
                    } else {
                        (i as isize, j as isize + d)
                    };
                    if ii >= 0 && jj >= 0 && (ii as usize) < grid.nx && (jj as usize) < grid.nz {
                        sum += src[grid.idx(ii as usize, jj as usize)];
                        cnt += 1.0;
                    }
                }
                out[grid.idx(i, j)] = sum / cnt;
            }
        }
        out
    };
    pass(&pass(v, true), false)
}

/// The runoff erosion's `k` is set for, mm/yr: rivers in wetter ground cut faster, in
/// drier ground slower (see `planet::erode`).
pub const RUNOFF_REFERENCE_MM: f64 = 500.0;

/// Holdridge's potential evapotranspiration per degree of biotemperature, mm/yr/°C.
pub const PET_PER_DEGREE_MM: f64 = 58.93;
/// Fu's (1981) catchment parameter ω in Budyko's curve; 2.6 fits catchments worldwide
/// (Zhang et al. 2004).
pub const FU_OMEGA: f64 = 2.6;

/// The UNEP aridity index P / PET for precipitation `p` (mm/yr) and temperature `t` (°C),
/// with Holdridge's PET: below 0.05 hyper-arid, 0.2 arid, 0.5 semi-arid, 0.65 dry
/// sub-humid, humid above. Infinite where it is too cold for anything to evaporate.
pub fn aridity_index(p: f64, t: f64) -> f64 {
    let pet = PET_PER_DEGREE_MM * t.clamp(0.0, 30.0);
    if pet <= 0.0 {
        f64::INFINITY
    } else {
        p.max(0.0) / pet
    }
}

/// Mean annual runoff, mm/yr, from precipitation `p` (mm/yr) and temperature `t` (°C):
/// Budyko's water balance in Fu's form, ET/P = 1 + φ − (1 + φ^ω)^(1/ω) with the aridity φ =
/// PET/P, and Holdridge's PET (58.93 mm per degree of biotemperature, 0–30 °C). A wet coast
/// sheds most of its rain, a hot desert almost none of it: 2,000 mm at 25 °C gives about
/// 830 mm, 250 mm at 25 °C about 10 mm.
pub fn runoff(p: f64, t: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    let phi = PET_PER_DEGREE_MM * t.clamp(0.0, 30.0) / p;
    (p * ((1.0 + phi.powf(FU_OMEGA)).powf(1.0 / FU_OMEGA) - phi)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equator_is_warmer_than_the_poles_and_height_is_colder() {
        let eq = ClimateSetup::sea_level_temperature(0.0);
        let mid = ClimateSetup::sea_level_temperature(45.0);
        let pole = ClimateSetup::sea_level_temperature(90.0);
        assert!(eq > mid && mid > pole, "{eq} {mid} {pole}");
        assert!((eq - 27.0).abs() < 1e-9 && (pole + 13.0).abs() < 1e-9);
        let c = ClimateSetup {
            latitude_deg: 45.0,
            wind_angle: 0.0,
            base_precip: 1000.0,
        };
        assert!((c.temperature(0.0, 0.0) - c.temperature(0.0, 1000.0) - 6.5).abs() < 1e-9);
    }

    #[test]
    fn a_ridge_wets_its_windward_side_and_shadows_its_lee() {
        // A north–south ridge in the middle of a sea, wind blowing towards +x.
        let n = 121;
        let grid = Grid {
            nx: n,
            nz: n,
            dx: 100.0,
            x0: 0.0,
            z0: 0.0,
        };
        let h: Vec<f64> = (0..grid.len())
            .map(|k| {
                let (x, _) = grid.pos(k);
                let d = (x - 6000.0).abs();
                (1500.0 * (1.0 - d / 2500.0)).max(0.0)
            })
            .collect();
        let ocean: Vec<bool> = h.iter().map(|&v| v <= 0.0).collect();
        let c = ClimateSetup {
            latitude_deg: 45.0,
            wind_angle: 0.0,
            base_precip: 1000.0,
        };
        let p = precipitation(&grid, &h, &ocean, &c);
        let at = |x: f64| p[grid.idx((x / 100.0) as usize, 60)];
        let (windward, lee) = (at(5000.0), at(7000.0));
        assert!(
            windward > 1.5 * lee,
            "windward {windward:.0} mm vs lee {lee:.0} mm"
        );
        assert!(
            windward > at(2000.0),
            "the climb rains more than open sea upwind"
        );
    }

    /// Budyko's curve: runoff never exceeds the rain, rises with it, falls with warmth, and
    /// tends to the rain where it is cold and to nothing where it is hot and dry.
    #[test]
    fn runoff_follows_budykos_water_balance() {
        for p in [50.0, 250.0, 800.0, 2500.0] {
            for t in [-10.0, 0.0, 10.0, 25.0] {
                let q = runoff(p, t);
                assert!((0.0..=p).contains(&q), "P {p} T {t}: {q}");
                assert!(runoff(p * 1.5, t) > q, "more rain, more runoff at {p} {t}");
                assert!(runoff(p, t + 5.0) <= q, "warmer, less runoff at {p} {t}");
            }
        }
        assert_eq!(runoff(600.0, -5.0), 600.0, "frozen: nothing evaporates");
        assert!(
            runoff(250.0, 25.0) < 0.05 * 250.0,
            "a hot desert sheds almost nothing"
        );
        let wet = runoff(2000.0, 25.0);
        assert!(
            (0.3..0.5).contains(&(wet / 2000.0)),
            "a rainforest sheds {wet:.0} mm"
        );
    }
}
