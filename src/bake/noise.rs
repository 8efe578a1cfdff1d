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

    #[inline]
    fn grad(&self, ix: i64, iz: i64, fx: f64, fz: f64) -> f64 {
        let h = mix(self.seed
            ^ (ix as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (iz as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f));
        let (gx, gz) = GRADIENTS[(h >> 60) as usize];
        gx * fx + gz * fz
    }

    /// Noise at (x, z) in lattice units, roughly in [-1, 1], zero at lattice points.
    pub fn at(&self, x: f64, z: f64) -> f64 {
        let (x0, z0) = (x.floor(), z.floor());
        let (fx, fz) = (x - x0, z - z0);
        let (ix, iz) = (x0 as i64, z0 as i64);
        let (u, v) = (fade(fx), fade(fz));
        let a = self.grad(ix, iz, fx, fz);
        let b = self.grad(ix + 1, iz, fx - 1.0, fz);
        let c = self.grad(ix, iz + 1, fx, fz - 1.0);
        let d = self.grad(ix + 1, iz + 1, fx - 1.0, fz - 1.0);
        let ab = a + (b - a) * u;
        let cd = c + (d - c) * u;
        (ab + (cd - ab) * v) * 1.414
    }

    /// Fractal sum: `octaves` layers, the first at `wavelength` metres, each next at half the
    /// wavelength and `gain` times the amplitude. Normalised to roughly [-1, 1].
    pub fn fbm(&self, x: f64, z: f64, wavelength: f64, octaves: u32, gain: f64) -> f64 {
        let (mut f, mut amp, mut sum, mut norm) = (1.0 / wavelength, 1.0, 0.0, 0.0);
        for o in 0..octaves {
            // Offsetting each octave keeps lattice zeros from lining up.
            let off = o as f64 * 17.31;
            sum += amp * self.at(x * f + off, z * f - off);
            norm += amp;
            amp *= gain;
            f *= 2.0;
        }
        sum / norm
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

    #[inline]
    fn grad(&self, i: [i64; 3], f: [f64; 3]) -> f64 {
        let h = mix(self.seed
            ^ (i[0] as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (i[1] as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (i[2] as u64).wrapping_mul(0x1656_67b1_9e37_79f9));
        let g = GRADIENTS3[(h >> 60) as usize];
        g.0 * f[0] + g.1 * f[1] + g.2 * f[2]
    }

    /// Noise at `p` in lattice units, roughly in [-1, 1].
    pub fn at(&self, p: [f64; 3]) -> f64 {
        let b = [p[0].floor(), p[1].floor(), p[2].floor()];
        let f = [p[0] - b[0], p[1] - b[1], p[2] - b[2]];
        let i = [b[0] as i64, b[1] as i64, b[2] as i64];
        let w = [fade(f[0]), fade(f[1]), fade(f[2])];
        let mut c = [0.0; 8];
        for (k, v) in c.iter_mut().enumerate() {
            let o = [(k & 1) as i64, (k >> 1 & 1) as i64, (k >> 2) as i64];
            *v = self.grad(
                [i[0] + o[0], i[1] + o[1], i[2] + o[2]],
                [f[0] - o[0] as f64, f[1] - o[1] as f64, f[2] - o[2] as f64],
            );
        }
        let x0 = c[0] + (c[1] - c[0]) * w[0];
        let x1 = c[2] + (c[3] - c[2]) * w[0];
        let x2 = c[4] + (c[5] - c[4]) * w[0];
        let x3 = c[6] + (c[7] - c[6]) * w[0];
        let y0 = x0 + (x1 - x0) * w[1];
        let y1 = x2 + (x3 - x2) * w[1];
        (y0 + (y1 - y0) * w[2]) * 0.95
    }

    /// Fractal sum at `p` (metres): `octaves` layers from `wavelength`, each next at half the
    /// wavelength and `gain` times the amplitude; roughly [-1, 1].
    pub fn fbm(&self, p: [f64; 3], wavelength: f64, octaves: u32, gain: f64) -> f64 {
        let (mut f, mut amp, mut sum, mut norm) = (1.0 / wavelength, 1.0, 0.0, 0.0);
        for o in 0..octaves {
            let off = o as f64 * 17.31;
            sum += amp * self.at([p[0] * f + off, p[1] * f - off, p[2] * f + 2.0 * off]);
            norm += amp;
            amp *= gain;
            f *= 2.0;
        }
        sum / norm
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
