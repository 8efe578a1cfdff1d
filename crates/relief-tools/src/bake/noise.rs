//! Gradient noise from an integer hash of lattice points: a value depends only on the seed and
//! the position, never on evaluation order, so regions can be generated in parallel and still
//! come out byte-identical. Only +, −, ×, floor: bit-identical on every IEEE-754 platform.

use crate::bake::seed::mix;

const GRADIENTS: [(f64, f64); 16] = [
    (1.0, 0.0),
    (0.923_879_532_511_286_7, 0.382_683_432_365_089_8),
    (0.707_106_781_186_547_5, 0.707_106_781_186_547_5),
    (0.382_683_432_365_089_8, 0.923_879_532_511_286_7),
    (0.0, 1.0),
    (-0.382_683_432_365_089_8, 0.923_879_532_511_286_7),
    (-0.707_106_781_186_547_5, 0.707_106_781_186_547_5),
    (-0.923_879_532_511_286_7, 0.382_683_432_365_089_8),
    (-1.0, 0.0),
    (-0.923_879_532_511_286_7, -0.382_683_432_365_089_8),
    (-0.707_106_781_186_547_5, -0.707_106_781_186_547_5),
    (-0.382_683_432_365_089_8, -0.923_879_532_511_286_7),
    (0.0, -1.0),
    (0.382_683_432_365_089_8, -0.923_879_532_511_286_7),
    (0.707_106_781_186_547_5, -0.707_106_781_186_547_5),
    (0.923_879_532_511_286_7, -0.382_683_432_365_089_8),
];

/// `x.floor()` without a libm call (baseline x86_64 has no SSE4.1 `roundsd`, and the call
/// was 4 % of a bake): the same value for every finite `x` under 2^62 in magnitude, the sign
/// of zero included, which is every lattice coordinate the baker makes.
#[inline]
fn floor(x: f64) -> f64 {
    debug_assert!(x.abs() < 4.6e18, "{x}");
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else if t == x {
        x
    } else {
        t
    }
}

/// Blends a cell's corner gradients at (fx, fz) within it.
#[inline]
fn blend(fx: f64, fz: f64, g: &[(f64, f64); 4]) -> f64 {
    let (u, v) = (fade(fx), fade(fz));
    let dot = |(gx, gz): (f64, f64), x: f64, z: f64| gx * x + gz * z;
    let a = dot(g[0], fx, fz);
    let b = dot(g[1], fx - 1.0, fz);
    let c = dot(g[2], fx, fz - 1.0);
    let d = dot(g[3], fx - 1.0, fz - 1.0);
    let ab = a + (b - a) * u;
    let cd = c + (d - c) * u;
    (ab + (cd - ab) * v) * 1.414
}

/// The cell [`Noise::at_in`] saw last and its corner gradients.
#[derive(Default)]
struct Cell {
    at: Option<(i64, i64)>,
    corners: [(f64, f64); 4],
}

/// A 2-D gradient-noise field for one seed.
#[derive(Clone, Copy, Debug)]
pub struct Noise {
    seed: u64,
}

#[inline]
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

impl Noise {
    pub fn new(seed: u64, stream: u64) -> Noise {
        Noise {
            seed: mix(seed ^ stream.wrapping_mul(0x2545_f491_4f6c_dd1d)),
        }
    }

    /// The gradient at lattice point (ix, iz).
    #[inline]
    fn gradient(&self, ix: i64, iz: i64) -> (f64, f64) {
        let h = mix(self.seed
            ^ (ix as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (iz as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
        GRADIENTS[(h >> 60) as usize]
    }

    /// The gradients at the four corners of the cell whose low corner is (ix, iz).
    #[inline]
    fn corners(&self, ix: i64, iz: i64) -> [(f64, f64); 4] {
        [
            self.gradient(ix, iz),
            self.gradient(ix + 1, iz),
            self.gradient(ix, iz + 1),
            self.gradient(ix + 1, iz + 1),
        ]
    }

    /// Noise at (x, z) in lattice units, roughly in [-1, 1], zero at lattice points.
    pub fn at(&self, x: f64, z: f64) -> f64 {
        self.at_in(x, z, &mut Cell::default())
    }

    /// [`Noise::at`], with the last cell's corner gradients kept in `cell`: samples along a
    /// row fall in the same cell many times running, and hashing is most of the cost.
    #[inline]
    fn at_in(&self, x: f64, z: f64, cell: &mut Cell) -> f64 {
        let (x0, z0) = (floor(x), floor(z));
        let (ix, iz) = (x0 as i64, z0 as i64);
        if cell.at != Some((ix, iz)) {
            *cell = Cell {
                at: Some((ix, iz)),
                corners: self.corners(ix, iz),
            };
        }
        blend(x - x0, z - z0, &cell.corners)
    }

    /// [`Noise::fbm`] at `(xs[i], z)` into `out[i]` for every `i`, bit for bit the same
    /// values: a region's detail noise this way hashes each lattice cell's corners once per
    /// run of samples in it instead of once per sample.
    pub fn fbm_row(
        &self,
        xs: &[f64],
        z: f64,
        wavelength: f64,
        octaves: u32,
        gain: f64,
        out: &mut [f64],
    ) {
        assert_eq!(xs.len(), out.len(), "one output per position");
        out.fill(0.0);
        let (mut f, mut amp, mut norm) = (1.0 / wavelength, 1.0, 0.0);
        for o in 0..octaves {
            // Offsetting each octave keeps lattice zeros from lining up.
            let off = o as f64 * 17.31;
            let mut cell = Cell::default();
            for (sum, &x) in out.iter_mut().zip(xs) {
                *sum += amp * self.at_in(x * f + off, z * f - off, &mut cell);
            }
            norm += amp;
            amp *= gain;
            f *= 2.0;
        }
        out.iter_mut().for_each(|v| *v /= norm);
    }

    /// Fractal sum: `octaves` layers, the first at `wavelength` metres, each next at half the
    /// wavelength and `gain` times the amplitude. Normalised to roughly [-1, 1].
    pub fn fbm(&self, x: f64, z: f64, wavelength: f64, octaves: u32, gain: f64) -> f64 {
        let mut v = [0.0];
        self.fbm_row(&[x], z, wavelength, octaves, gain, &mut v);
        v[0]
    }
}

/// The 12 edge midpoints of a cube: Perlin's gradient set for 3-D noise.
const GRADIENTS3: [(f64, f64, f64); 16] = [
    (1.0, 1.0, 0.0),
    (-1.0, 1.0, 0.0),
    (1.0, -1.0, 0.0),
    (-1.0, -1.0, 0.0),
    (1.0, 0.0, 1.0),
    (-1.0, 0.0, 1.0),
    (1.0, 0.0, -1.0),
    (-1.0, 0.0, -1.0),
    (0.0, 1.0, 1.0),
    (0.0, -1.0, 1.0),
    (0.0, 1.0, -1.0),
    (0.0, -1.0, -1.0),
    (1.0, 1.0, 0.0),
    (-1.0, 1.0, 0.0),
    (0.0, -1.0, 1.0),
    (0.0, -1.0, -1.0),
];

/// Blends a 3-D cell's corner gradients at `f` within it.
#[inline]
fn blend3(f: [f64; 3], g: &[(f64, f64, f64); 8]) -> f64 {
    let w = [fade(f[0]), fade(f[1]), fade(f[2])];
    let c: [f64; 8] = std::array::from_fn(|k| {
        let o = [(k & 1) as f64, (k >> 1 & 1) as f64, (k >> 2) as f64];
        g[k].0 * (f[0] - o[0]) + g[k].1 * (f[1] - o[1]) + g[k].2 * (f[2] - o[2])
    });
    let x0 = c[0] + (c[1] - c[0]) * w[0];
    let x1 = c[2] + (c[3] - c[2]) * w[0];
    let x2 = c[4] + (c[5] - c[4]) * w[0];
    let x3 = c[6] + (c[7] - c[6]) * w[0];
    let y0 = x0 + (x1 - x0) * w[1];
    let y1 = x2 + (x3 - x2) * w[1];
    (y0 + (y1 - y0) * w[2]) * 0.95
}

/// The cell [`Noise3::at_in`] saw last and its corner gradients.
#[derive(Default)]
struct Cell3 {
    at: Option<[i64; 3]>,
    corners: [(f64, f64, f64); 8],
}

/// 3-D gradient noise: evaluated on points of a sphere it has no seams and no pole pinch,
/// which any 2-D parameterisation of the sphere would have.
#[derive(Clone, Copy, Debug)]
pub struct Noise3 {
    seed: u64,
}

impl Noise3 {
    pub fn new(seed: u64, stream: u64) -> Noise3 {
        Noise3 {
            seed: mix(seed ^ stream.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x3d3d),
        }
    }

    /// The gradient at lattice point `i`.
    #[inline]
    fn gradient(&self, i: [i64; 3]) -> (f64, f64, f64) {
        let h = mix(self.seed
            ^ (i[0] as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (i[1] as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (i[2] as u64).wrapping_mul(0x1656_67b1_9e37_79f9));
        GRADIENTS3[(h >> 60) as usize]
    }

    /// The gradients at the eight corners of the cell whose low corner is `i`, corner `k` at
    /// offset (k & 1, k >> 1 & 1, k >> 2).
    #[inline]
    fn corners(&self, i: [i64; 3]) -> [(f64, f64, f64); 8] {
        std::array::from_fn(|k| {
            let o = [(k & 1) as i64, (k >> 1 & 1) as i64, (k >> 2) as i64];
            self.gradient([i[0] + o[0], i[1] + o[1], i[2] + o[2]])
        })
    }

    /// Noise at `p` in lattice units, roughly in [-1, 1].
    pub fn at(&self, p: [f64; 3]) -> f64 {
        self.at_in(p, &mut Cell3::default())
    }

    /// [`Noise3::at`], with the last cell's corner gradients kept in `cell`.
    #[inline]
    fn at_in(&self, p: [f64; 3], cell: &mut Cell3) -> f64 {
        let b = [floor(p[0]), floor(p[1]), floor(p[2])];
        let i = [b[0] as i64, b[1] as i64, b[2] as i64];
        if cell.at != Some(i) {
            *cell = Cell3 {
                at: Some(i),
                corners: self.corners(i),
            };
        }
        blend3([p[0] - b[0], p[1] - b[1], p[2] - b[2]], &cell.corners)
    }

    /// [`Noise3::fbm`] at every point of `ps` into `out`, bit for bit the same values: points
    /// along a tile row fall in the same lattice cell many times running at the coarse
    /// octaves, and their eight corners are hashed once per run instead of once per point.
    pub fn fbm_row(
        &self,
        ps: &[[f64; 3]],
        wavelength: f64,
        octaves: u32,
        gain: f64,
        out: &mut [f64],
    ) {
        assert_eq!(ps.len(), out.len(), "one output per point");
        out.fill(0.0);
        let (mut f, mut amp, mut norm) = (1.0 / wavelength, 1.0, 0.0);
        for o in 0..octaves {
            let off = o as f64 * 17.31;
            let mut cell = Cell3::default();
            for (sum, p) in out.iter_mut().zip(ps) {
                let q = [p[0] * f + off, p[1] * f - off, p[2] * f + 2.0 * off];
                *sum += amp * self.at_in(q, &mut cell);
            }
            norm += amp;
            amp *= gain;
            f *= 2.0;
        }
        out.iter_mut().for_each(|v| *v /= norm);
    }

    /// Fractal sum at `p` (metres): `octaves` layers from `wavelength`, each next at half the
    /// wavelength and `gain` times the amplitude; roughly [-1, 1].
    pub fn fbm(&self, p: [f64; 3], wavelength: f64, octaves: u32, gain: f64) -> f64 {
        let mut v = [0.0];
        self.fbm_row(&[p], wavelength, octaves, gain, &mut v);
        v[0]
    }

    /// Ridged fractal: sharp crests where the noise crosses zero, for mountain ranges; [0, 1].
    pub fn ridged(&self, p: [f64; 3], wavelength: f64, octaves: u32) -> f64 {
        let (mut f, mut amp, mut sum, mut norm, mut weight) =
            (1.0 / wavelength, 1.0, 0.0, 0.0, 1.0);
        for o in 0..octaves {
            let off = o as f64 * 11.7;
            let r = 1.0 - self.at([p[0] * f - off, p[1] * f + off, p[2] * f]).abs();
            let r = r * r * weight;
            weight = r.clamp(0.0, 1.0);
            sum += amp * r;
            norm += amp;
            amp *= 0.5;
            f *= 2.0;
        }
        sum / norm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_bounded_continuous_and_seeded() {
        let n = Noise::new(42, 0);
        let m = Noise::new(43, 0);
        let mut differs = false;
        for k in 0..2000 {
            let (x, z) = (k as f64 * 0.137, k as f64 * 0.071 - 30.0);
            let v = n.at(x, z);
            assert!(v.abs() <= 1.5, "{v}");
            assert!((n.at(x + 1e-6, z) - v).abs() < 1e-4);
            differs |= (m.at(x, z) - v).abs() > 1e-3;
        }
        assert!(differs);
        assert_eq!(n.at(3.0, -7.0), 0.0);
    }

    #[test]
    fn the_fast_floor_is_floor_bit_for_bit() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.5,
            -2.5,
            1e15 + 0.5,
            -1e15 - 0.5,
            4e18,
        ];
        let steps = (0..20_000).map(|k| (k as f64 - 10_000.0) * 0.013_7);
        for x in edges.into_iter().chain(steps) {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x}");
        }
    }

    /// The fractal sum one point at a time, as `fbm` was written before rows: the reference
    /// the rows are held to. `at(f, off)` is the noise at the point scaled by `f`, offset by `off`.
    fn fbm_by_hand(octaves: u32, wavelength: f64, gain: f64, at: impl Fn(f64, f64) -> f64) -> f64 {
        let (mut f, mut amp, mut sum, mut norm) = (1.0 / wavelength, 1.0, 0.0, 0.0);
        for o in 0..octaves {
            sum += amp * at(f, o as f64 * 17.31);
            norm += amp;
            amp *= gain;
            f *= 2.0;
        }
        sum / norm
    }

    proptest::proptest! {
        #[test]
        fn a_row_of_fbm_is_fbm_sample_by_sample(x0 in -1e5f64..1e5, dx in 0.01f64..40.0, z in -1e5f64..1e5, wl in 2.0f64..500.0, octaves in 1u32..7) {
            let n = Noise::new(9, 21);
            let xs: Vec<f64> = (0..300).map(|i| x0 + i as f64 * dx).collect();
            let mut row = vec![0.0; xs.len()];
            n.fbm_row(&xs, z, wl, octaves, 0.5, &mut row);
            for (&x, &v) in xs.iter().zip(&row) {
                let one = fbm_by_hand(octaves, wl, 0.5, |f, off| n.at(x * f + off, z * f - off));
                proptest::prop_assert_eq!(v.to_bits(), one.to_bits());
                proptest::prop_assert_eq!(v.to_bits(), n.fbm(x, z, wl, octaves, 0.5).to_bits());
            }
        }

        #[test]
        fn a_row_of_3d_fbm_is_fbm_point_by_point(p0 in proptest::array::uniform3(-1e5f64..1e5), d in proptest::array::uniform3(-20.0f64..20.0), wl in 2.0f64..500.0, octaves in 1u32..7) {
            let n = Noise3::new(9, 21);
            let ps: Vec<[f64; 3]> = (0..300).map(|i| {
                let t = i as f64;
                [p0[0] + t * d[0], p0[1] + t * d[1], p0[2] + t * d[2]]
            }).collect();
            let mut row = vec![0.0; ps.len()];
            n.fbm_row(&ps, wl, octaves, 0.55, &mut row);
            for (p, &v) in ps.iter().zip(&row) {
                let one = fbm_by_hand(octaves, wl, 0.55, |f, off| {
                    n.at([p[0] * f + off, p[1] * f - off, p[2] * f + 2.0 * off])
                });
                proptest::prop_assert_eq!(v.to_bits(), one.to_bits());
                proptest::prop_assert_eq!(v.to_bits(), n.fbm(*p, wl, octaves, 0.55).to_bits());
            }
        }
    }

    #[test]
    fn noise3_is_bounded_continuous_and_zero_on_the_lattice() {
        let n = Noise3::new(7, 1);
        let mut spread = (f64::INFINITY, f64::NEG_INFINITY);
        for k in 0..5000 {
            let p = [k as f64 * 0.173, k as f64 * -0.071, k as f64 * 0.031 + 5.0];
            let v = n.at(p);
            assert!(v.abs() <= 1.2, "{v}");
            assert!((n.at([p[0] + 1e-6, p[1], p[2]]) - v).abs() < 1e-4);
            spread = (spread.0.min(v), spread.1.max(v));
        }
        assert!(spread.0 < -0.4 && spread.1 > 0.4, "{spread:?}");
        assert_eq!(n.at([2.0, -3.0, 9.0]), 0.0);
        let r = n.ridged([0.3, 0.2, 0.1], 1.0, 5);
        assert!((0.0..=1.0).contains(&r));
    }
}
