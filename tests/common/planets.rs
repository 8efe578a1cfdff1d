//! Planets written sample by sample from a height function: any radius, face resolution and
//! ground, in a second (the baker's planets are one kind of ground at one radius).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use relief::planet::cube;
use relief::planet::format::{self, standard_fields};
use relief::planet::tables::{encode_lakes, encode_reaches};
use relief::planet::writer::{encode_tile, BlobSpec, BlobWriter};
use relief::planet::{Planet, PlanetTerrain, Projection, TileKey, TileSource};
use relief::stream::{Loaders, StreamConfig, Streamer};
use relief::DVec3;

/// Writes a planet of `radius` with faces of `n`² in tiles of `tile`², each sample's height
/// `height(direction)`; the other fields are zero.
pub fn write_planet(
    out: &Path,
    radius: f64,
    n: u32,
    tile: u32,
    height: impl Fn(DVec3) -> f32,
) -> std::path::PathBuf {
    write_planet_with(out, radius, n, tile, height, None)
}

/// [`write_planet`] with a placement table (`things.json`'s text) for its one biome,
/// `ground`.
pub fn write_planet_with(
    out: &Path,
    radius: f64,
    n: u32,
    tile: u32,
    height: impl Fn(DVec3) -> f32,
    things: Option<&str>,
) -> std::path::PathBuf {
    let fields = standard_fields();
    let spec = BlobSpec {
        version: 7,
        bake_version: 1,
        radius,
        face_resolution: n,
        tile_size: tile,
        projection: Projection::EquiAngular,
        polar_axis: DVec3::Y,
        height_range: [0.0, 0.0],
        sea_level: 0.0,
        seed: 1,
        fields: fields.clone(),
    };
    let mut w = BlobWriter::create(out, spec).unwrap();
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    let blank: Vec<Vec<u8>> = fields[1..]
        .iter()
        .map(|f| encode_tile(f, &vec![0u8; (tile * tile) as usize * f.ty.size()]))
        .collect();
    for face in 0..6u8 {
        for ty in 0..(n / tile) as u16 {
            for tx in 0..(n / tile) as u16 {
                let mut raw = Vec::with_capacity((tile * tile * 4) as usize);
                for j in 0..tile {
                    for i in 0..tile {
                        let (gi, gj) = (tx as u32 * tile + i, ty as u32 * tile + j);
                        let d = cube::direction(
                            Projection::EquiAngular,
                            face as usize,
                            cube::coord_of(gi as f64, n),
                            cube::coord_of(gj as f64, n),
                        );
                        let h = height(d);
                        lo = lo.min(h);
                        hi = hi.max(h);
                        raw.extend_from_slice(&h.to_le_bytes());
                    }
                }
                let mut stored = vec![encode_tile(&fields[0], &raw)];
                stored.extend(blank.iter().cloned());
                w.add_tile(TileKey { face, tx, ty }, &stored).unwrap();
            }
        }
    }
    w.set_height_range([lo, hi]);
    // No rivers or lakes, one biome.
    let mut sections = vec![
        (format::RIVERS, encode_reaches(&[])),
        (format::LAKES, encode_lakes(&[])),
        (format::BIOMES, b"[\"ground\"]".to_vec()),
    ];
    if let Some(json) = things {
        sections.push((format::THINGS, json.as_bytes().to_vec()));
    }
    w.finish(&sections).unwrap();
    out.to_path_buf()
}

/// Rolling ground: `waves` of (amplitude m, wavelength m, direction) summed, each a sine of
/// the distance along its direction.
pub fn rolling(radius: f64, waves: Vec<(f64, f64, DVec3)>) -> impl Fn(DVec3) -> f32 {
    move |d: DVec3| {
        waves
            .iter()
            .map(|(a, l, u)| a * (d.dot(*u) * radius * std::f64::consts::TAU / l).sin())
            .sum::<f64>() as f32
    }
}

/// A streamer holding every tile of `planet`, settled, and a query over them.
pub fn resident(planet: &Arc<Planet>) -> (Streamer<TileSource>, PlanetTerrain) {
    let cfg = StreamConfig {
        load_radius: 1e12,
        drop_radius: 1e12,
        budget_bytes: 1 << 34,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(
        Arc::new(TileSource::new(planet.clone())),
        cfg,
        &Loaders::new(0),
    )
    .unwrap();
    assert!(s.settle(DVec3::Y * planet.radius(), Duration::from_secs(120)));
    let t = PlanetTerrain::new(planet.clone(), s.resident()).unwrap();
    (s, t)
}
