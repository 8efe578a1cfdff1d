//! Planet collision chunks lie on the ground the height query describes: every sample of
//! every chunk, placed by the documented formula (`origin + (corner_x + i·spacing)·axis_x +
//! height·up + (corner_z + j·spacing)·axis_z`), is R + the queried height from the centre,
//! within a centimetre — on planets of any radius, face resolution, chunk size and ground.

mod common;

use proptest::prelude::*;
use relief::planet::collision::{PlanetChunk, PlanetChunkKey, PlanetChunkSource};
use relief::planet::Planet;
use relief::stream::Source;
use relief::DVec3;
use std::sync::Arc;

use common::planets::{resident, rolling, write_planet};

/// Sample (i, j) where the documented formula puts it.
fn placed(c: &PlanetChunk, i: u32, j: u32) -> DVec3 {
    let f = c.frame;
    let (x, z) = (
        c.corner[0] + i as f64 * c.spacing,
        c.corner[1] + j as f64 * c.spacing,
    );
    let y = c.heights[(j * c.samples + i) as usize] as f64;
    f.origin + x * f.axis_x + y * f.up + z * f.axis_z
}

/// The worst distance, over every sample of every chunk of `cells` samples, between the
/// sample and the queried ground (R + height along the sample's own direction), with where.
fn worst_gap(planet: &Arc<Planet>, cells: u32) -> (f64, PlanetChunkKey, usize) {
    let (s, terrain) = resident(planet);
    let source = PlanetChunkSource::new(planet.clone(), s.resident(), cells).unwrap();
    let per = (planet.face_resolution() / cells) as u16;
    let r = planet.radius();
    // Faces shared out over two threads (the machine's cores).
    let sweep = |faces: &[u8]| {
        let mut worst = (
            0.0f64,
            PlanetChunkKey {
                face: 0,
                x: 0,
                z: 0,
            },
            0usize,
        );
        let mut count = 0usize;
        for &face in faces {
            for z in 0..per {
                for x in 0..per {
                    let key = PlanetChunkKey { face, x, z };
                    let c = source.load(key).unwrap();
                    for j in 0..c.samples {
                        for i in 0..c.samples {
                            let p = placed(&c, i, j);
                            let ground = r + terrain.height(p).height as f64;
                            // An f32 height is as exact as its own rounding: half a unit in
                            // the last place, under a centimetre below 131 km (the sphere's
                            // drop under the tangent plane 1,300 km out at R 6,400 km: chunks
                            // of any size a game uses). Only the property test's giant chunks
                            // go past it.
                            let y = c.heights[(j * c.samples + i) as usize];
                            let a = y.abs();
                            let rounding = (f32::from_bits(a.to_bits() + 1) - a) as f64 / 2.0;
                            let gap = ((p.length() - ground).abs() - rounding).max(0.0);
                            assert!(
                                gap.is_finite(),
                                "{key:?} ({i}, {j}): height {y} at {p}, ground {ground}"
                            );
                            if gap > worst.0 {
                                worst = (gap, key, (j * c.samples + i) as usize);
                            }
                            count += 1;
                        }
                    }
                }
            }
        }
        (worst, count)
    };
    let ((a, na), (b, nb)) = std::thread::scope(|s| {
        let other = s.spawn(|| sweep(&[3, 4, 5]));
        (sweep(&[0, 1, 2]), other.join().unwrap())
    });
    let (worst, count) = (if b.0 > a.0 { b } else { a }, na + nb);
    println!(
        "{count} samples of {} chunks of {cells} on a {}² planet of R {r} m: worst {:.4} m at \
         {:?} sample {}",
        6 * per as usize * per as usize,
        planet.face_resolution(),
        worst.0,
        worst.1,
        worst.2
    );
    worst
}

fn open(path: std::path::PathBuf) -> Arc<Planet> {
    Arc::new(Planet::open(path).unwrap())
}

/// The baked test planet (128², the baker's own ground), every chunk at the default size and
/// at the smallest.
#[test]
fn every_sample_of_the_baked_planet_is_on_the_ground() {
    let path = common::scratch("collision-baked").with_extension("plnt");
    std::fs::write(&path, common::planet_blob("relief")).unwrap();
    let planet = open(path);
    for cells in [64, 16, 2] {
        let (gap, key, k) = worst_gap(&planet, cells);
        assert!(gap <= 0.01, "{cells}: {gap} m at {key:?} sample {k}");
    }
}

/// A 512² planet of R 51 km (the issue's: 156 m samples, 10 km chunks) under steep dunes,
/// whose slopes far from a chunk's tangent point turn the sample's direction by as much as
/// its height changes: every sample of every default chunk is on the ground.
#[test]
fn every_sample_of_a_steep_small_planet_is_on_the_ground() {
    let r = 51_000.0;
    let dunes = rolling(
        r,
        vec![
            (900.0, 1_300.0, DVec3::new(0.6, 0.3, 0.74).normalize()),
            (400.0, 700.0, DVec3::new(-0.2, 0.9, 0.4).normalize()),
            (2_000.0, 9_000.0, DVec3::new(0.1, -0.5, 0.86).normalize()),
        ],
    );
    let path = common::scratch("collision-steep").with_extension("plnt");
    let planet = open(write_planet(&path, r, 512, 128, dunes));
    let (gap, key, k) = worst_gap(&planet, 64);
    assert!(gap <= 0.01, "{gap} m at {key:?} sample {k}");
}

/// A 2048² planet (R 100 km, 77 m samples) under the same kind of steep dunes: every sample
/// of every default chunk, 26 million of them, on the ground.
#[test]
fn every_sample_of_a_2048_planet_is_on_the_ground() {
    let r = 100_000.0;
    let dunes = rolling(
        r,
        vec![
            (300.0, 700.0, DVec3::new(0.3, 0.8, 0.52).normalize()),
            (1_500.0, 12_000.0, DVec3::new(-0.7, 0.1, 0.7).normalize()),
        ],
    );
    let path = common::scratch("collision-2048").with_extension("plnt");
    let planet = open(write_planet(&path, r, 2048, 512, dunes));
    let (gap, key, k) = worst_gap(&planet, 64);
    assert!(gap <= 0.01, "{gap} m at {key:?} sample {k}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random planets: radius 2 km to 7,000 km, faces of 16² to 64², chunks of any size that
    /// divides a face (2 samples to half a face), ground of up to three waves, gentle to cliff.
    #[test]
    fn every_sample_of_any_planet_is_on_the_ground(
        radius_log in 3.3..6.85f64,
        n_log in 4u32..=6,
        cells_log in 1u32..=5,
        waves in proptest::collection::vec(
            (0.0..1.0f64, 2.0..40.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), 1..=3),
    ) {
        let radius = 10f64.powf(radius_log);
        let n = 1u32 << n_log;
        let cells = 1u32 << cells_log.min(n_log - 1);
        let spacing = radius * std::f64::consts::FRAC_PI_2 / n as f64;
        // Amplitude up to 1/20 of R (8 km at most), wavelength 2–40 samples.
        let waves: Vec<_> = waves
            .into_iter()
            .map(|(a, l, x, y, z)| {
                let u = DVec3::new(x, y, z + 1e-3).normalize();
                ((a * radius / 20.0).min(8_000.0), l * spacing, u)
            })
            .collect();
        let path = common::scratch("collision-any").with_extension("plnt");
        let planet = open(write_planet(&path, radius, n, n / 2, rolling(radius, waves)));
        let (gap, key, k) = worst_gap(&planet, cells);
        prop_assert!(gap <= 0.01, "{} m at {:?} sample {}", gap, key, k);
    }
}
