//! PLNT planets end to end: bake small planets, open them, read every tile; the v6 prefix;
//! the polar axis; damaged blobs.

mod common;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use relief::bake::biomes::BiomeId;
use relief::bake::planet::{bake_planet, PlanetConfig};
use relief::bake::Silent;
use relief::planet::cube;
use relief::planet::tables::PlanetCensus;
use relief::planet::{
    Blob, Planet, PlanetOrigin, PlanetTerrain, Projection, Samples, TileKey, TileSource,
};
use relief::stream::{StreamConfig, Streamer};

/// A 128² face planet (tiles of 32², erosion on 64²): small enough to bake in seconds.
pub fn small(seed: &str) -> PlanetConfig {
    let mut c = PlanetConfig::new(seed);
    c.face_resolution = 128;
    c.tile_size = 32;
    c.erosion_resolution = 64;
    c
}

fn baked() -> &'static (PathBuf, PlanetCensus) {
    static P: OnceLock<(PathBuf, PlanetCensus)> = OnceLock::new();
    P.get_or_init(|| {
        let out = common::scratch("planet").with_extension("plnt");
        let census = bake_planet(&small("relief"), &out, &Silent).expect("bake");
        (out, census)
    })
}

#[test]
fn a_baked_planet_opens_and_every_tile_reads() {
    let (path, census) = baked();
    println!("{census:#?}");
    let blob = Blob::open(path).unwrap();
    let h = blob.header();
    assert_eq!((h.version, h.face_resolution, h.tile_size), (7, 128, 32));
    assert_eq!(blob.fields().len(), 5);
    let mut n = 0;
    for face in 0..6u8 {
        for ty in 0..4u16 {
            for tx in 0..4u16 {
                let key = TileKey { face, tx, ty };
                for f in 0..5 {
                    let s = blob.read_tile(f, key).unwrap();
                    assert_eq!(s.bytes() / blob.fields()[f].ty.size(), 32 * 32);
                    if let Samples::F32(v) = &s {
                        assert!(v.iter().all(|x| x.is_finite()));
                    }
                }
                n += 1;
            }
        }
    }
    assert_eq!(n, 96);
    assert!(
        census.ocean_share > 0.3 && census.ocean_share < 0.8,
        "{census:?}"
    );
    assert!(census.reaches > 0 && census.river_km + census.creek_km > 0.0);
    assert!(census.height_max > 1000.0 && census.height_min < -1000.0);
}

fn planet() -> Arc<Planet> {
    static P: OnceLock<Arc<Planet>> = OnceLock::new();
    P.get_or_init(|| Arc::new(Planet::open(&baked().0).unwrap()))
        .clone()
}

fn all_keys(n: u16) -> Vec<TileKey> {
    let mut v = Vec::new();
    for face in 0..6u8 {
        for ty in 0..n {
            for tx in 0..n {
                v.push(TileKey { face, tx, ty });
            }
        }
    }
    v
}

#[test]
fn a_v6_reader_reads_a_v7_blobs_prefix_unchanged() {
    let mut cfg = small("relief");
    cfg.version = 6;
    let v6_path = common::scratch("planet-v6").with_extension("plnt");
    bake_planet(&cfg, &v6_path, &Silent).unwrap();
    let v6 = Blob::open(&v6_path).unwrap();
    assert_eq!((v6.header().version, v6.fields().len()), (6, 3));
    let v7_bytes = std::fs::read(&baked().0).unwrap();
    // A reader that knows only the v6 fields, reading the v7 blob.
    let v6_names = ["height", "biome", "lake"];
    let reader =
        Blob::open_with_fields("<v7 as v6>", Box::new(v7_bytes.clone()), Some(&v6_names)).unwrap();
    assert_eq!(reader.fields(), v6.fields());
    assert_eq!(reader.header().version, 7);
    // The v7 field table begins with the v6 one, byte for byte.
    let v6_bytes = std::fs::read(&v6_path).unwrap();
    assert_eq!(v7_bytes[128..128 + 3 * 32], v6_bytes[128..128 + 3 * 32]);
    for key in all_keys(4) {
        for f in 0..3 {
            assert_eq!(
                reader.read_stored(f, key).unwrap(),
                v6.read_stored(f, key).unwrap()
            );
            assert_eq!(
                reader.read_tile(f, key).unwrap(),
                v6.read_tile(f, key).unwrap()
            );
        }
    }
    // Its tiles come first: every v6 field's data lies before any v7 field's.
    let full = Blob::open(&baked().0).unwrap();
    let last_v6 = all_keys(4)
        .iter()
        .map(|&k| full.entry(2, k).unwrap().offset)
        .max()
        .unwrap();
    let first_v7 = all_keys(4)
        .iter()
        .map(|&k| full.entry(3, k).unwrap().offset)
        .min()
        .unwrap();
    assert!(last_v6 < first_v7);
    // A reader that expects fields the blob does not start with refuses it.
    assert!(Blob::open_with_fields("<x>", Box::new(v7_bytes), Some(&["biome"])).is_err());
}

#[test]
fn the_bake_is_byte_identical_at_any_thread_count() {
    let mut one = small("threads");
    one.threads = 1;
    let mut three = one.clone();
    three.threads = 3;
    let (a, b) = (common::scratch("planet-t1"), common::scratch("planet-t3"));
    bake_planet(&one, &a, &Silent).unwrap();
    bake_planet(&three, &b, &Silent).unwrap();
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
}

/// Every sample's direction and biome, read from the blob.
fn biomes_by_direction(blob: &Blob) -> Vec<([f64; 3], u8)> {
    let h = blob.header();
    let (n, t) = (h.face_resolution, h.tile_size);
    let mut out = Vec::new();
    for key in all_keys((n / t) as u16) {
        let Samples::U8(b) = blob.read_tile(1, key).unwrap() else {
            panic!()
        };
        for j in 0..t {
            for i in 0..t {
                let (gi, gj) = (key.tx as u32 * t + i, key.ty as u32 * t + j);
                let d = cube::direction(
                    h.projection,
                    key.face as usize,
                    cube::coord_of(gi as f64, n),
                    cube::coord_of(gj as f64, n),
                );
                out.push((d, b[(j * t + i) as usize]));
            }
        }
    }
    out
}

#[test]
fn latitude_follows_the_polar_axis_in_the_header() {
    let mut cfg = small("axis");
    cfg.polar_axis = [1.0, 0.0, 0.0];
    let path = common::scratch("planet-x").with_extension("plnt");
    bake_planet(&cfg, &path, &Silent).unwrap();
    let blob = Blob::open(&path).unwrap();
    assert_eq!(blob.header().polar_axis, [1.0, 0.0, 0.0]);
    let cold = [
        BiomeId::Snow as u8,
        BiomeId::Tundra as u8,
        BiomeId::Taiga as u8,
    ];
    let warm = [
        BiomeId::TropicalRainforest as u8,
        BiomeId::TropicalSeasonalForest as u8,
        BiomeId::Savanna as u8,
    ];
    let mean_lat = |ids: &[u8], pole: [f64; 3]| {
        let (mut s, mut n) = (0.0, 0);
        for (d, b) in biomes_by_direction(&blob) {
            if ids.contains(&b) {
                s += cube::lat_lon(d, pole).0.to_degrees().abs();
                n += 1;
            }
        }
        (s / n.max(1) as f64, n)
    };
    let (cold_x, nc) = mean_lat(&cold, [1.0, 0.0, 0.0]);
    let (warm_x, nw) = mean_lat(&warm, [1.0, 0.0, 0.0]);
    let (cold_y, _) = mean_lat(&cold, [0.0, 1.0, 0.0]);
    println!("cold biomes: mean |lat| {cold_x:.1}° about X, {cold_y:.1}° about Y; warm {warm_x:.1}° about X ({nc} cold, {nw} warm samples)");
    assert!(nc > 100 && nw > 100);
    assert!(cold_x > 50.0 && warm_x < 30.0, "{cold_x} {warm_x}");
    assert!(
        cold_y < cold_x - 15.0,
        "about the wrong axis the pattern washes out: {cold_y}"
    );
}

/// A streamer over the whole planet, settled: every tile resident.
fn everything_resident() -> (Streamer<TileSource>, PlanetTerrain) {
    let p = planet();
    let cfg = StreamConfig {
        load_radius: 1e9,
        drop_radius: 1e9,
        budget_bytes: 1 << 30,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(Arc::new(TileSource::new(p.clone())), cfg);
    assert!(s.settle([0.0, 1.0, 0.0], Duration::from_secs(60)));
    let t = PlanetTerrain::new(p, s.resident()).unwrap();
    (s, t)
}

#[test]
fn heights_are_continuous_across_seams_and_near_cube_corners() {
    let (_s, terrain) = everything_resident();
    let p = planet();
    let r = p.radius();
    let at = |d: [f64; 3]| terrain.height([d[0] * r, d[1] * r, d[2] * r]);
    // Straight across every seam at many points along it, corners included.
    let mut worst: f64 = 0.0;
    for face in 0..6 {
        for k in 0..=64 {
            let t = -1.0 + 2.0 * k as f64 / 64.0;
            let on_edge = cube::direction(Projection::EquiAngular, face, 1.0, t * 0.999_999);
            let inside = cube::direction(Projection::EquiAngular, face, 1.0 - 1e-9, t * 0.999_999);
            let outside = [
                2.0 * on_edge[0] - inside[0],
                2.0 * on_edge[1] - inside[1],
                2.0 * on_edge[2] - inside[2],
            ];
            let (a, b) = (at(inside), at(cube::normalize(outside)));
            assert!(
                matches!(a.origin, PlanetOrigin::Tile(_))
                    && matches!(b.origin, PlanetOrigin::Tile(_))
            );
            worst = worst.max((a.height - b.height).abs() as f64);
        }
    }
    assert!(worst < 0.01, "a step of {worst} m across a seam");
    // Along a path through the neighbourhood of the (+X, +Y, +Z) corner, small steps never
    // jump more than the steepest ground allows.
    let steps = 40_000;
    let mut last: Option<f32> = None;
    let mut biggest = 0.0f32;
    for s in 0..=steps {
        let u = s as f64 / steps as f64;
        let d = cube::normalize([1.0, 0.6 + 0.8 * u, 1.0 - 0.002 * (u - 0.5).abs()]);
        let h = at(d).height;
        if let Some(l) = last {
            biggest = biggest.max((h - l).abs());
        }
        last = Some(h);
    }
    // One step is ≈ 0.7 m of ground; slopes on this planet stay under 3.
    assert!(
        biggest < 2.5,
        "a jump of {biggest} m in one step near a corner"
    );
}

#[test]
fn every_query_answers_from_resident_tiles() {
    let (_s, terrain) = everything_resident();
    let p = planet();
    let reach = &p.reaches().unwrap()[0];
    let q = reach.points[0];
    let r = p.radius();
    let pos = [q[0] as f64 * r, q[1] as f64 * r, q[2] as f64 * r];
    let h = terrain.height(pos);
    assert!(matches!(h.origin, PlanetOrigin::Tile(_)));
    let river = terrain.river(pos, 100.0).expect("a river at its own point");
    assert!(river.distance_m < 1.0, "{river:?}");
    assert!(terrain.biome(pos).is_some());
    assert!(terrain.sediment(pos).unwrap() >= 0.0);
    assert!(terrain.precipitation(pos).unwrap() > 0.0);
    let (n, _) = terrain.normal(pos);
    let up = cube::normalize(pos);
    assert!(n[0] as f64 * up[0] + n[1] as f64 * up[1] + n[2] as f64 * up[2] > 0.3);
    let lake = &p.lakes().unwrap()[0];
    let c = lake.centre;
    let at_lake = [c[0] as f64 * r, c[1] as f64 * r, c[2] as f64 * r];
    let l = terrain.lake(at_lake, 0.0).expect("inside its lake");
    assert!(l.inside && l.lake == lake.id, "{l:?}");
    // Latitude/longitude round trip through positions.
    let pos = terrain.position_at(35.0, -120.0);
    let (la, lo) = terrain.lat_lon(pos);
    assert!((la - 35.0).abs() < 1e-9 && (lo + 120.0).abs() < 1e-9);
    // Nothing resident: the overview answers heights, tiles' fields are None.
    let empty = PlanetTerrain::new(p.clone(), Default::default()).unwrap();
    assert_eq!(empty.height(pos).origin, PlanetOrigin::Overview);
    assert!(empty.biome(pos).is_none() && empty.sediment(pos).is_none());
    let far = (terrain.height(pos).height - empty.height(pos).height).abs();
    assert!(far < 400.0, "overview and tiles disagree by {far} m");
}
