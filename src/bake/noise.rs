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
}
