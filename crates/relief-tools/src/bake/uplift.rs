//! The tectonic story a world is eroded from: an island outline from warped fBm, mountain
//! ranges along random spines (one flank steeper than the other, a harder core), and rock
//! types that set how fast each place erodes and how steep it can stand.

use crate::bake::grid::Grid;
use crate::bake::noise::Noise;
use crate::bake::seed::Rng;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rock {
    pub name: &'static str,
    /// Divides the erodibility K: harder rock erodes slower.
    pub hardness: f64,
    /// Angle of repose, degrees: the talus limit.
    pub repose_deg: f64,
}

/// Rock types by index (the `rock` field stores these indices).
pub const ROCKS: [Rock; 6] = [
    Rock {
        name: "granite",
        hardness: 2.4,
        repose_deg: 50.0,
    },
    Rock {
        name: "basalt",
        hardness: 1.8,
        repose_deg: 45.0,
    },
    Rock {
        name: "schist",
        hardness: 1.2,
        repose_deg: 40.0,
    },
    Rock {
        name: "limestone",
        hardness: 1.0,
        repose_deg: 38.0,
    },
    Rock {
        name: "sandstone",
        hardness: 0.8,
        repose_deg: 34.0,
    },
    Rock {
        name: "mudstone",
        hardness: 0.55,
        repose_deg: 30.0,
    },
];
const GRANITE: u8 = 0;
const BASALT: u8 = 1;
const MUDSTONE: u8 = 5;

/// One mountain range: a bent spine with a cross profile whose two flanks differ in width.
#[derive(Clone, Debug)]
pub struct Range {
    pub spine: Vec<(f64, f64)>,
    pub uplift: f64,
    pub half_width: f64,
    /// −1..1: negative steepens the left flank, positive the right.
    pub skew: f64,
    /// Fraction of the half width that is hard core rock.
    pub core_width: f64,
}

/// The shelf's depth far from the coast, and the floor at the world's edge, metres.
const SHELF_FLOOR_M: f64 = 72.0;
const EDGE_FLOOR_M: f64 = 600.0;

/// The seeded tectonic fields, as functions of world position.
#[derive(Clone, Debug)]
pub struct Tectonics {
    centre: (f64, f64),
    radius: f64,
    half: f64,
    warp: Noise,
    shape: Noise,
    rock_noise: Noise,
    uplift_noise: Noise,
    seed: u64,
    pub ranges: Vec<Range>,
    /// Basins that rise slower than the land around them (centre x, centre z, radius): where
    /// their rims outpace the outlet's incision, lakes stand.
    pub basins: Vec<(f64, f64, f64)>,
    pub base_uplift: f64,
    pub lowland_below: f64,
}

impl Tectonics {
    /// A world of side `size` metres whose minimum corner is (`x0`, `z0`).
    pub fn from_seed(seed: u64, size: f64, x0: f64, z0: f64) -> Tectonics {
        let mut rng = Rng::new(seed, 1);
        let half = size / 2.0;
        let centre = (
            x0 + half + rng.range(-0.04, 0.04) * size,
            z0 + half + rng.range(-0.04, 0.04) * size,
        );
        let radius = 0.41 * size;
        let count = 2 + rng.below(3) as usize;
        let ranges = (0..count)
            .map(|_| {
                let a = rng.range(0.0, std::f64::consts::TAU);
                let r = rng.range(0.0, 0.45) * radius;
                let start = (centre.0 + r * libm::cos(a), centre.1 + r * libm::sin(a));
                let mut heading = rng.range(0.0, std::f64::consts::TAU);
                let length = rng.range(0.5, 1.0) * radius;
                let steps = 4;
                let mut spine = vec![start];
                for _ in 0..steps {
                    heading += rng.range(-0.45, 0.45);
                    let last = *spine.last().unwrap();
                    let seg = length / steps as f64;
                    spine.push((
                        last.0 + seg * libm::cos(heading),
                        last.1 + seg * libm::sin(heading),
                    ));
                }
                Range {
                    spine,
                    uplift: rng.range(0.6, 1.0),
                    half_width: rng.range(0.18, 0.3) * radius,
                    skew: rng.range(-0.5, 0.5),
                    core_width: rng.range(0.2, 0.35),
                }
            })
            .collect();
        let mut basin_rng = Rng::new(seed, 2);
        let mut t = Tectonics {
            centre,
            radius,
            half,
            warp: Noise::new(seed, 11),
            shape: Noise::new(seed, 12),
            rock_noise: Noise::new(seed, 13),
            uplift_noise: Noise::new(seed, 14),
            seed,
            ranges,
            basins: Vec::new(),
            base_uplift: 0.12,
            lowland_below: 0.18,
        };
        let wanted = 2 + basin_rng.below(4) as usize;
        for _ in 0..40 {
            if t.basins.len() == wanted {
                break;
            }
            let a = basin_rng.range(0.0, std::f64::consts::TAU);
            let r = basin_rng.range(0.15, 0.75) * radius;
            let (x, z) = (centre.0 + r * libm::cos(a), centre.1 + r * libm::sin(a));
            if t.land(x, z) > 0.3 {
                t.basins.push((x, z, basin_rng.range(0.05, 0.1) * radius));
            }
        }
        t
    }

    /// Signed land field: > 0 on the island, < 0 at sea; roughly −1..1.
    pub fn land(&self, x: f64, z: f64) -> f64 {
        // Keep a ring of open sea inside the world's edge whatever the noise does.
        let (ex, ez) = (
            (x - self.centre.0).abs() / self.half,
            (z - self.centre.1).abs() / self.half,
        );
        let edge = ((ex.max(ez) - 0.8) / 0.12).clamp(0.0, 1.0);
        self.open_land(x, z) - 1.5 * edge
    }

    /// The land field before the ring of sea at the world's edge.
    fn open_land(&self, x: f64, z: f64) -> f64 {
        let wl = self.radius * 0.9;
        let wx = x + 0.22 * self.radius * self.warp.fbm(x, z, wl, 3, 0.5);
        let wz = z + 0.22 * self.radius * self.warp.fbm(x + 913.0, z - 377.0, wl, 3, 0.5);
        let (dx, dz) = (wx - self.centre.0, wz - self.centre.1);
        let r = libm::sqrt(dx * dx + dz * dz) / self.radius;
        1.0 - r + 0.28 * self.shape.fbm(x, z, self.radius * 0.5, 5, 0.5)
    }

    /// Signed distance to a range's spine (negative on the left of its direction) and the
    /// position along it (0..1).
    fn spine_distance(range: &Range, x: f64, z: f64) -> (f64, f64) {
        let total: f64 = range
            .spine
            .windows(2)
            .map(|w| libm::hypot(w[1].0 - w[0].0, w[1].1 - w[0].1))
            .sum();
        let (mut best, mut best_sd, mut best_t, mut walked) = (f64::INFINITY, 0.0, 0.0, 0.0);
        for w in range.spine.windows(2) {
            let (ax, az, bx, bz) = (w[0].0, w[0].1, w[1].0, w[1].1);
            let (vx, vz) = (bx - ax, bz - az);
            let len2 = vx * vx + vz * vz;
            let t = (((x - ax) * vx + (z - az) * vz) / len2).clamp(0.0, 1.0);
            let (px, pz) = (ax + t * vx, az + t * vz);
            let d = libm::hypot(x - px, z - pz);
            let len = libm::sqrt(len2);
            if d < best {
                best = d;
                let side = vx * (z - az) - vz * (x - ax);
                best_sd = if side > 0.0 { -d } else { d };
                best_t = (walked + t * len) / total;
            }
            walked += len;
        }
        (best_sd, best_t)
    }

    /// Rock uplift rate relative to the fastest place (0..1); zero at sea.
    pub fn uplift(&self, x: f64, z: f64) -> f64 {
        let land = self.land(x, z);
        if land <= 0.0 {
            return 0.0;
        }
        let mut u = self.base_uplift * (land * 4.0).min(1.0);
        for r in &self.ranges {
            let (sd, t) = Self::spine_distance(r, x, z);
            let hw = r.half_width * if sd < 0.0 { 1.0 + r.skew } else { 1.0 - r.skew };
            let along =
                libm::sqrt(libm::sin(std::f64::consts::PI * t.clamp(0.0, 1.0)).max(0.0)).max(0.0);
            u += r.uplift * along * libm::exp(-(sd / hw) * (sd / hw));
        }
        // Uplift is never uniform in nature; the variation seeds valleys and spurs.
        let vary = 1.0 + 0.3 * self.uplift_noise.fbm(x, z, self.radius * 0.35, 3, 0.5);
        let sink: f64 = self
            .basins
            .iter()
            .map(|&(bx, bz, br)| {
                let d2 = ((x - bx) * (x - bx) + (z - bz) * (z - bz)) / (br * br);
                1.0 - 0.97 * libm::exp(-d2)
            })
            .product();
        (u * vary * sink).min(1.0) * (land * 6.0).min(1.0)
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rock at a position, as an index into [`ROCKS`].
    pub fn rock(&self, x: f64, z: f64, uplift: f64) -> u8 {
        for r in &self.ranges {
            let (sd, t) = Self::spine_distance(r, x, z);
            if sd.abs() < r.core_width * r.half_width && t > 0.08 && t < 0.92 {
                return GRANITE;
            }
        }
        if uplift < self.lowland_below {
            return MUDSTONE;
        }
        let n = self.rock_noise.fbm(x, z, self.radius * 0.6, 3, 0.5);
        match n {
            n if n > 0.45 => BASALT,
            n if n > 0.1 => 2,
            n if n > -0.2 => 3,
            _ => 4,
        }
    }

    /// Sea-floor depth below sea level at a sea position (positive metres): a shelf deepening
    /// away from the coast, then a slope down to the world's edge that runs round the island,
    /// so the square the world is baked in never shows in the sea floor. (The ring of sea in
    /// [`Tectonics::land`] follows the square; the depth must not, or its corner shows.)
    pub fn sea_depth(&self, x: f64, z: f64) -> f64 {
        let shelf = 2.0 + (SHELF_FLOOR_M - 2.0) * (-self.open_land(x, z) * 2.5).clamp(0.0, 1.0);
        let r = libm::hypot(x - self.centre.0, z - self.centre.1) / self.half;
        let t = ((r - 0.8) / 0.3).clamp(0.0, 1.0);
        let slope = t * t * (3.0 - 2.0 * t);
        shelf + (EDGE_FLOOR_M - shelf) * slope
    }
}

/// The tectonic fields sampled on a grid.
#[derive(Clone, Debug)]
pub struct Fields {
    pub grid: Grid,
    pub ocean: Vec<bool>,
    pub uplift: Vec<f64>,
    pub rock: Vec<u8>,
    pub hardness: Vec<f64>,
    pub tan_repose: Vec<f64>,
    /// Sea-floor heights at ocean nodes (negative), 0 on land.
    pub floor: Vec<f64>,
}

impl Fields {
    pub fn sample(t: &Tectonics, grid: Grid) -> Fields {
        let n = grid.len();
        let (mut ocean, mut uplift, mut rock, mut floor) =
            (vec![false; n], vec![0.0; n], vec![0u8; n], vec![0.0; n]);
        for k in 0..n {
            let (x, z) = grid.pos(k);
            let land = t.land(x, z);
            ocean[k] = land <= 0.0 || grid.on_border(k);
            if ocean[k] {
                floor[k] = -t.sea_depth(x, z);
            } else {
                uplift[k] = t.uplift(x, z);
            }
            rock[k] = t.rock(x, z, uplift[k]);
        }
        let hardness = rock.iter().map(|&r| ROCKS[r as usize].hardness).collect();
        let tan_repose = rock
            .iter()
            .map(|&r| libm::tan(ROCKS[r as usize].repose_deg.to_radians()))
            .collect();
        Fields {
            grid,
            ocean,
            uplift,
            rock,
            hardness,
            tan_repose,
            floor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sea floor falls away round the island, not along the square the world is baked
    /// in: along 32 rays from the island's centre, the distance at which the sea first runs
    /// deeper than the shelf break (120 m) is much the same towards the world's corners as
    /// towards its sides, and every point of the world's edge is that deep.
    #[test]
    fn the_sea_floor_keeps_no_square_edge() {
        for seed in [1u64, 7, 42] {
            let size = 4096.0;
            let (x0, z0) = (-size / 2.0, -size / 2.0);
            let t = Tectonics::from_seed(seed, size, x0, z0);
            let depth = |x: f64, z: f64| {
                if t.land(x, z) > 0.0 {
                    0.0
                } else {
                    t.sea_depth(x, z)
                }
            };
            let reach = |angle: f64| {
                let (c, s) = (libm::cos(angle), libm::sin(angle));
                (0..4000)
                    .map(|i| i as f64 * 1.0)
                    .find(|&d| depth(t.centre.0 + c * d, t.centre.1 + s * d) > 120.0)
            };
            let rays = 32;
            let (mut sides, mut corners) = (Vec::new(), Vec::new());
            for r in 0..rays {
                let a = r as f64 * std::f64::consts::TAU / rays as f64;
                let d = reach(a).unwrap_or_else(|| panic!("seed {seed}: no deep sea at {a}"));
                match r % 8 {
                    0 => sides.push(d),
                    4 => corners.push(d),
                    _ => {}
                }
            }
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            let ratio = mean(&corners) / mean(&sides);
            assert!(
                ratio < 1.2,
                "seed {seed}: the deep sea starts {ratio:.2}× farther towards the corners"
            );
            for i in 0..=64 {
                let u = x0 + size * i as f64 / 64.0;
                for (x, z) in [(u, z0), (u, z0 + size), (x0, u), (x0 + size, u)] {
                    assert!(
                        depth(x, z) > 120.0,
                        "seed {seed}: shallow at the edge ({x}, {z})"
                    );
                }
            }
        }
    }
}
