//! PLNT planets end to end: bake small planets, open them, read every tile; the v6 prefix;
//! the polar axis; damaged blobs.

mod common;

use relief::DVec3;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use relief::planet::cube;
use relief::planet::tables::PlanetCensus;
use relief::planet::{
    Blob, Planet, PlanetOrigin, PlanetTerrain, Projection, Samples, TileKey, TileSource,
};
use relief::stream::{Event, Loaders, StreamConfig, Streamer};
use relief_tools::bake::biomes::BiomeId;
use relief_tools::bake::planet::bake_planet;
use relief_tools::Silent;

use common::small_planet as small;

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

/// The direction of sample (i, j) of tile `key` on a face of `n`² in tiles of `t`².
fn sample_direction(p: Projection, n: u32, t: u32, key: TileKey, i: u32, j: u32) -> DVec3 {
    let (gi, gj) = (key.tx as u32 * t + i, key.ty as u32 * t + j);
    cube::direction(
        p,
        key.face as usize,
        cube::coord_of(gi as f64, n),
        cube::coord_of(gj as f64, n),
    )
}

/// Every sample's direction and biome, read from the blob.
fn biomes_by_direction(blob: &Blob) -> Vec<(DVec3, u8)> {
    let h = blob.header();
    let (n, t) = (h.face_resolution, h.tile_size);
    let mut out = Vec::new();
    for key in all_keys((n / t) as u16) {
        let Samples::U8(b) = blob.read_tile(1, key).unwrap() else {
            panic!()
        };
        for j in 0..t {
            for i in 0..t {
                let d = sample_direction(h.projection, n, t, key, i, j);
                out.push((d, b[(j * t + i) as usize]));
            }
        }
    }
    out
}

#[test]
fn latitude_follows_the_polar_axis_in_the_header() {
    let mut cfg = small("axis");
    cfg.polar_axis = DVec3::X;
    let path = common::scratch("planet-x").with_extension("plnt");
    bake_planet(&cfg, &path, &Silent).unwrap();
    let blob = Blob::open(&path).unwrap();
    assert_eq!(blob.header().polar_axis, DVec3::new(1.0, 0.0, 0.0));
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
    let mean_lat = |ids: &[u8], pole: DVec3| {
        let (mut s, mut n) = (0.0, 0);
        for (d, b) in biomes_by_direction(&blob) {
            if ids.contains(&b) {
                s += cube::lat_lon(d, pole).0.to_degrees().abs();
                n += 1;
            }
        }
        (s / n.max(1) as f64, n)
    };
    let (cold_x, nc) = mean_lat(&cold, DVec3::new(1.0, 0.0, 0.0));
    let (warm_x, nw) = mean_lat(&warm, DVec3::new(1.0, 0.0, 0.0));
    let (cold_y, _) = mean_lat(&cold, DVec3::new(0.0, 1.0, 0.0));
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
    common::planets::resident(&planet())
}

#[test]
fn heights_are_continuous_across_seams_and_near_cube_corners() {
    let (_s, terrain) = everything_resident();
    let p = planet();
    let r = p.radius();
    let at = |d: DVec3| terrain.height(d * r);
    // Straight across every seam at many points along it, corners included.
    let mut worst: f64 = 0.0;
    for face in 0..6 {
        for k in 0..=64 {
            let t = -1.0 + 2.0 * k as f64 / 64.0;
            let on_edge = cube::direction(Projection::EquiAngular, face, 1.0, t * 0.999_999);
            let inside = cube::direction(Projection::EquiAngular, face, 1.0 - 1e-9, t * 0.999_999);
            let outside = 2.0 * on_edge - inside;
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
        let d = cube::normalize(DVec3::new(
            1.0,
            0.6 + 0.8 * u,
            1.0 - 0.002 * (u - 0.5).abs(),
        ));
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
    let pos = DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64) * r;
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
    let at_lake = DVec3::new(c[0] as f64, c[1] as f64, c[2] as f64) * r;
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

fn open_bytes(b: Vec<u8>) -> Result<Blob, relief::flat::FormatError> {
    Blob::open_bytes("<test>", Box::new(b))
}

/// Recomputes the header CRC after a test edits a header field.
fn reseal_header(b: &mut [u8]) {
    let crc = crc32fast::hash(&b[..124]);
    b[124..128].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn damaged_blobs_fail_at_open_with_a_typed_error() {
    use relief::flat::FormatError;
    let good = std::fs::read(&baked().0).unwrap();
    // Truncated anywhere: the header's length says so.
    for cut in [0, 3, 100, 127, 128, 5000, good.len() / 2, good.len() - 1] {
        assert!(open_bytes(good[..cut].to_vec()).is_err(), "cut at {cut}");
    }
    assert!(matches!(
        open_bytes(good[..good.len() - 1].to_vec()),
        Err(FormatError::Truncated { .. })
    ));
    // A wrong magic or version.
    let mut b = good.clone();
    b[0] = b'Q';
    assert!(matches!(open_bytes(b), Err(FormatError::BadMagic { .. })));
    let mut b = good.clone();
    b[4] = 9;
    reseal_header(&mut b);
    assert!(matches!(
        open_bytes(b),
        Err(FormatError::UnsupportedVersion {
            what: "PLNT",
            found: 9,
            ..
        })
    ));
    // A header bit flipped: its checksum.
    let mut b = good.clone();
    b[20] ^= 4;
    assert!(matches!(open_bytes(b), Err(FormatError::Checksum { .. })));
    // An index entry pointing outside the file, its table's CRC recomputed.
    let h = Blob::open(&baked().0).unwrap().header().clone();
    let at = h.index_offset as usize;
    let end = h.sections_offset as usize - 4;
    let mut b = good.clone();
    b[at..at + 8].copy_from_slice(&(good.len() as u64 + 10).to_le_bytes());
    let crc = crc32fast::hash(&b[at..end]);
    b[end..end + 4].copy_from_slice(&crc.to_le_bytes());
    let e = open_bytes(b).expect_err("an index entry past the end");
    assert!(e.to_string().contains("outside"), "{e}");
    // The same edit without resealing: the index checksum.
    let mut b = good.clone();
    b[at] ^= 1;
    assert!(matches!(open_bytes(b), Err(FormatError::Checksum { .. })));
    // A non-unit polar axis.
    let mut b = good.clone();
    b[40..48].copy_from_slice(&2.0f64.to_le_bytes());
    reseal_header(&mut b);
    assert!(open_bytes(b).is_err());
}

/// `good` with its `THNG` section edited by `edit` (tag and bytes, the length kept) and the
/// section's and the section table's checksums recomputed.
fn with_things_section(good: &[u8], edit: impl Fn(&mut [u8; 4], &mut [u8])) -> Vec<u8> {
    let h = Blob::open(&baked().0).unwrap().header().clone();
    let table = h.sections_offset as usize;
    let end = table + 24 * h.section_count as usize;
    let mut b = good.to_vec();
    let entry = (table..end)
        .step_by(24)
        .find(|&e| &b[e..e + 4] == b"THNG")
        .expect("a THNG section");
    let offset = u64::from_le_bytes(b[entry + 8..entry + 16].try_into().unwrap()) as usize;
    let length = u64::from_le_bytes(b[entry + 16..entry + 24].try_into().unwrap()) as usize;
    let mut tag = *b"THNG";
    edit(&mut tag, &mut b[offset..offset + length]);
    b[entry..entry + 4].copy_from_slice(&tag);
    let crc = crc32fast::hash(&b[offset..offset + length]);
    b[entry + 4..entry + 8].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32fast::hash(&b[table..end]);
    b[end..end + 4].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn a_baked_planet_carries_its_placement_table_and_a_bad_one_fails_alone() {
    use relief::things::Band;
    let rules = planet().things().unwrap().clone();
    let names: Vec<&str> = rules.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(
        names,
        ["conifer", "broadleaf", "shrub", "boulder", "grass", "reeds"]
    );
    assert!(Band::ALL.into_iter().all(|b| rules.has_band(b)));
    let good = std::fs::read(&baked().0).unwrap();
    let open = |b: Vec<u8>| Planet::open_bytes("<test>", Box::new(b)).unwrap();
    // A table naming a biome the planet lacks (same length, checksums right): the table
    // fails, naming its section and the biome; the rest of the planet serves.
    let renamed = with_things_section(&good, |_, json| {
        let text = String::from_utf8(json.to_vec()).unwrap();
        json.copy_from_slice(text.replacen("\"taiga\"", "\"tayga\"", 1).as_bytes());
    });
    let p = open(renamed);
    let e = p.things().expect_err("a biome the planet lacks");
    assert!(
        e.to_string().contains("PLNT THNG") && e.to_string().contains("tayga"),
        "{e}"
    );
    assert!(p.biome_names().is_ok() && p.reaches().is_ok());
    // A planet without the section (one baked before it, or by another tool) has no kinds.
    let without = with_things_section(&good, |tag, _| *tag = *b"XTRA");
    assert!(open(without).things().unwrap().kinds.is_empty());
}

#[test]
fn a_corrupt_tile_fails_alone_while_the_rest_serve() {
    let good = std::fs::read(&baked().0).unwrap();
    let blob = Blob::open(&baked().0).unwrap();
    let bad = TileKey {
        face: 2,
        tx: 1,
        ty: 3,
    };
    let e = blob.entry(0, bad).unwrap();
    let mut b = good.clone();
    b[e.offset as usize + e.length as usize / 2] ^= 0x20;
    let planet = Arc::new(Planet::open_bytes("<damaged>", Box::new(b)).unwrap());
    let err = planet.read_tile(bad).expect_err("the damaged tile");
    assert!(err.to_string().contains("height tile 2/1,3"), "{err}");
    // Streaming around it: that tile fails (and is retried, then given up), others load.
    let cfg = StreamConfig {
        load_radius: 1e9,
        drop_radius: 1e9,
        budget_bytes: 1 << 30,
        max_attempts: 2,
        retry_delay: Duration::from_millis(10),
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(
        Arc::new(TileSource::new(planet.clone())),
        cfg,
        &Loaders::new(0),
    )
    .unwrap();
    s.settle(DVec3::new(0.0, 1.0, 0.0), Duration::from_secs(60));
    let (mut loaded, mut failed) = (0, 0);
    while let Some(ev) = s.poll_event() {
        match ev {
            relief::stream::Event::Loaded { .. } => loaded += 1,
            relief::stream::Event::Failed { key, .. } => {
                assert_eq!(key, bad);
                failed += 1;
            }
            _ => {}
        }
    }
    assert_eq!(loaded, 95);
    assert!(failed >= 1, "the damaged tile reports its failure");
    let terrain = PlanetTerrain::new(planet, s.resident()).unwrap();
    let r = terrain.planet().radius();
    assert!(terrain.height(DVec3::new(0.0, r, 0.0)).height.is_finite());
}

#[test]
fn collision_chunks_sit_on_the_ground_in_their_own_frame() {
    use relief::planet::collision::PlanetChunkSource;
    let (s, terrain) = everything_resident();
    let p = planet();
    let source = PlanetChunkSource::new(p.clone(), s.resident(), 2).unwrap();
    let r = p.radius();
    // Near a cube corner, where cells are smallest and the frame most skewed.
    let pos = {
        let d = cube::normalize(DVec3::new(1.0, 0.97, 0.95));
        d * r
    };
    let key = source.key_at(pos);
    let chunk = relief::stream::Source::load(&source, key).unwrap();
    assert_eq!(chunk.samples, 3);
    let f = chunk.frame;
    assert!(f.axis_x.dot(f.up).abs() < 1e-12 && f.axis_z.dot(f.up).abs() < 1e-12);
    assert!(f.axis_x.dot(f.axis_z).abs() < 1e-12);
    let world = |c: &relief::planet::collision::PlanetChunk, i: u32, j: u32| {
        let (x, z) = (
            c.corner[0] + i as f64 * c.spacing,
            c.corner[1] + j as f64 * c.spacing,
        );
        let y = c.heights[(j * c.samples + i) as usize] as f64;
        let f = c.frame;
        f.origin + x * f.axis_x + y * f.up + z * f.axis_z
    };
    // Every sample is on the ground: its distance from the centre is R + the height there.
    for j in 0..chunk.samples {
        for i in 0..chunk.samples {
            let q = world(&chunk, i, j);
            let radial = q.length() - r;
            let ground = terrain.height(q).height as f64;
            assert!(
                (radial - ground).abs() < 0.05,
                "({i},{j}): {radial} vs {ground}"
            );
        }
    }
    // The chunk's square holds its whole footprint (so neighbours overlap, never gap): every
    // point on the footprint's edge projects inside it.
    let n = p.face_resolution() as f64;
    for k in 0..=20 {
        let t = k as f64 / 20.0 * 2.0;
        let (x0, z0) = (key.x as f64 * 2.0, key.z as f64 * 2.0);
        for (i, j) in [
            (x0 + t, z0),
            (x0 + t, z0 + 2.0),
            (x0, z0 + t),
            (x0 + 2.0, z0 + t),
        ] {
            let d = cube::direction(
                Projection::EquiAngular,
                key.face as usize,
                i * 2.0 / n - 1.0,
                j * 2.0 / n - 1.0,
            );
            let w = d.dot(f.up);
            let (x, z) = (r * d.dot(f.axis_x) / w, r * d.dot(f.axis_z) / w);
            let side = chunk.spacing * 2.0;
            assert!(
                x >= chunk.corner[0] - 1e-6 && x <= chunk.corner[0] + side + 1e-6,
                "{x}"
            );
            assert!(
                z >= chunk.corner[1] - 1e-6 && z <= chunk.corner[1] + side + 1e-6,
                "{z}"
            );
        }
    }
    // Streamed like any source: the chunk under the focus is built.
    let mut chunks = Streamer::new(
        Arc::new(source),
        StreamConfig {
            load_radius: 500.0,
            drop_radius: 600.0,
            ..StreamConfig::default()
        },
        &Loaders::new(0),
    )
    .unwrap();
    assert!(chunks.settle(pos, Duration::from_secs(30)));
    assert!(chunks.resident().read().contains_key(&key));
}

#[test]
fn lod_rings_follow_the_focus_incrementally_and_match_the_ground() {
    use relief::lod::ClipmapConfig;
    use relief::planet::rings::PlanetRings;
    let (_s, terrain) = everything_resident();
    let p = planet();
    let r = p.radius();
    let cfg = ClipmapConfig {
        levels: 4,
        size: 32,
        base_spacing: 400.0,
    };
    let mut rings = PlanetRings::new(cfg).unwrap();
    let at = |lat: f64, lon: f64| terrain.position_at(lat, lon);
    let full: u64 = rings
        .update(at(10.0, 20.0), &terrain)
        .iter()
        .map(|d| (d.width * d.depth) as u64)
        .sum();
    assert_eq!(full, 4 * 32 * 32);
    // A small step rewrites a strip per level, not everything.
    let step: u64 = rings
        .update(at(10.0, 20.5), &terrain)
        .iter()
        .map(|d| (d.width * d.depth) as u64)
        .sum();
    assert!(step > 0 && step < full / 4, "{step} of {full}");
    assert!(
        rings.update(at(10.0, 20.5), &terrain).is_empty(),
        "no move, no work"
    );
    // Every cell holds the ground under its centre.
    let frame = rings.frame().unwrap();
    let level = rings.clipmap().level(1);
    let o = level.origin().unwrap();
    for (i, j) in [(o[0], o[1]), (o[0] + 31, o[1] + 7), (o[0] + 16, o[1] + 16)] {
        let s = level.spacing;
        let d = frame.direction((i as f64 + 0.5) * s, (j as f64 + 0.5) * s);
        let want = terrain.height(d * r).height;
        assert_eq!(rings.clipmap().cell(1, i, j), Some(want));
    }
    // Walking 10° keeps the plane; a teleport re-lays it once.
    assert_eq!(rings.rebuilds(), 1);
    for k in 0..10 {
        rings.update(at(10.0, 21.0 + k as f64), &terrain);
    }
    assert_eq!(rings.rebuilds(), 1);
    rings.update(at(-60.0, 150.0), &terrain);
    assert_eq!(rings.rebuilds(), 2);
    // A tile loading refreshes only what it covers.
    let key = TileKey {
        face: 0,
        tx: 0,
        ty: 0,
    };
    let _ = rings.refresh_tile(key, &terrain);
}

/// Rings built on their worker thread show what rings built in the caller's thread show, once
/// caught up, along a path with strips, a re-anchoring and a teleport; and the rectangles they
/// report are every cell that changed: an engine copying only those rectangles ends with the
/// same levels, even when the worker coalesces frames it could not keep up with.
#[test]
fn rings_built_in_the_background_match_and_report_every_change() {
    use relief::lod::ClipmapConfig;
    use relief::planet::rings::PlanetRings;
    let (_s, terrain) = everything_resident();
    let cfg = ClipmapConfig {
        levels: 4,
        size: 32,
        base_spacing: 400.0,
    };
    let mut path: Vec<DVec3> = (0..60)
        .map(|k| terrain.position_at(10.0, 20.0 + k as f64 * 0.5))
        .collect();
    path.extend((0..20).map(|k| terrain.position_at(-60.0 + k as f64 * 1e-4, 150.0)));
    let wait = |rings: &mut PlanetRings, focus: DVec3, mirror: &mut Vec<Vec<f32>>| {
        let start = std::time::Instant::now();
        loop {
            let rects = rings.update(focus, &terrain).to_vec();
            copy_rects(rings, &rects, mirror);
            if rings.is_idle() {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the worker never caught up"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    // Step by step, waiting each time: the same levels, frames and rebuilds as built inline.
    let mut inline = PlanetRings::new(cfg).unwrap();
    let mut background = PlanetRings::in_background(cfg, &terrain).unwrap();
    assert!(background.is_background() && !inline.is_background());
    let mut mirror = vec![vec![0f32; 32 * 32]; 4];
    for &f in &path {
        inline.update(f, &terrain);
        wait(&mut background, f, &mut mirror);
        assert_eq!(background.frame(), inline.frame());
        for (k, copied) in mirror.iter().enumerate() {
            let (a, b) = (background.clipmap().level(k), inline.clipmap().level(k));
            assert_eq!(a.origin(), b.origin(), "level {k}");
            assert_eq!(a.storage(), b.storage(), "level {k}");
            assert_eq!(
                copied,
                a.storage(),
                "level {k}: the rectangles missed a change"
            );
        }
    }
    assert_eq!(background.rebuilds(), inline.rebuilds());
    assert!(inline.rebuilds() >= 3, "the path re-anchors and teleports");
    // Without waiting: frames pile up and coalesce; the rectangles still cover every change.
    let mut background = PlanetRings::in_background(cfg, &terrain).unwrap();
    let mut mirror = vec![vec![0f32; 32 * 32]; 4];
    for &f in path.iter().rev() {
        let rects = background.update(f, &terrain).to_vec();
        copy_rects(&background, &rects, &mut mirror);
    }
    wait(&mut background, path[0], &mut mirror);
    for (k, copied) in mirror.iter().enumerate() {
        assert_eq!(copied, background.clipmap().level(k).storage(), "level {k}");
    }
    // A tile refresh goes through the worker too, and is taken with a later update.
    assert!(background
        .refresh_tile(
            TileKey {
                face: 0,
                tx: 0,
                ty: 0
            },
            &terrain
        )
        .is_empty());
    wait(&mut background, path[0], &mut mirror);
}

/// What an engine does with a frame's rectangles: copy those cells of the shown levels.
fn copy_rects(
    rings: &relief::planet::rings::PlanetRings,
    rects: &[relief::lod::DirtyRect],
    mirror: &mut [Vec<f32>],
) {
    let n = rings.clipmap().config().size as usize;
    for r in rects {
        let level = rings.clipmap().level(r.level as usize).storage();
        for z in r.z as usize..(r.z + r.depth) as usize {
            let row = z * n + r.x as usize..z * n + (r.x + r.width) as usize;
            mirror[r.level as usize][row.clone()].copy_from_slice(&level[row]);
        }
    }
}

#[test]
fn a_nan_radius_or_position_finds_nothing() {
    let (_s, terrain) = everything_resident();
    let p = terrain.position_at(10.0, 20.0);
    assert!(terrain.river(p, 1e9).is_some(), "something to find");
    assert!(terrain.lake(p, 1e9).is_some(), "something to find");
    assert!(terrain.river(p, f64::NAN).is_none() && terrain.lake(p, f64::NAN).is_none());
    assert!(terrain.river(DVec3::new(f64::NAN, 1.0, 0.0), 1e9).is_none());
}

/// Headers past the documented maxima are corrupt, so nothing is sized from them: a tile as
/// large as a 65536² face (16 GiB a tile), a face of 2^20 (51 GB of chunk bounds), a radius
/// of 1e-300 (unbounded loops).
#[test]
fn headers_past_the_documented_maxima_are_refused() {
    use relief::flat::FormatError;
    let good = std::fs::read(&baked().0).unwrap();
    type Edit = fn(&mut Vec<u8>);
    let edits: [(&str, Edit); 4] = [
        ("tile as big as the face", |b| {
            b[24..28].copy_from_slice(&65536u32.to_le_bytes());
            b[28..32].copy_from_slice(&65536u32.to_le_bytes());
        }),
        ("face of 2^20", |b| {
            b[24..28].copy_from_slice(&(1u32 << 20).to_le_bytes())
        }),
        ("tiny radius", |b| {
            b[16..24].copy_from_slice(&1e-300f64.to_le_bytes())
        }),
        ("huge radius", |b| {
            b[16..24].copy_from_slice(&1e300f64.to_le_bytes())
        }),
    ];
    for (case, edit) in edits {
        let mut b = good.clone();
        edit(&mut b);
        reseal_header(&mut b);
        match open_bytes(b) {
            Err(FormatError::Corrupt(m)) => assert!(m.contains("PLNT header"), "{case}: {m}"),
            other => panic!("{case}: {:?}", other.map(|_| ())),
        }
    }
}

/// A blob cut short while streaming fails the tiles it can no longer give, as Failed events,
/// and nothing else: no SIGBUS (tiles are read, not mapped), nothing resident lost.
#[test]
fn a_blob_truncated_while_streaming_fails_only_what_it_lost() {
    let path = common::scratch("planet-truncated").with_extension("plnt");
    std::fs::copy(&baked().0, &path).unwrap();
    let planet = Arc::new(Planet::open(&path).unwrap());
    let cfg = StreamConfig {
        load_radius: 2000.0,
        drop_radius: 1e9, // keep everything once loaded
        max_attempts: 1,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(
        Arc::new(TileSource::new(planet.clone())),
        cfg,
        &Loaders::new(0),
    )
    .unwrap();
    let terrain = PlanetTerrain::new(planet.clone(), s.resident()).unwrap();
    let here = terrain.position_at(0.0, 0.0);
    assert!(s.settle(here, Duration::from_secs(30)));
    let before: Vec<TileKey> = s.resident().read().keys().copied().collect();
    assert!(!before.is_empty());
    while s.poll_event().is_some() {}
    // Cut the file to its first tenth: the far side's tiles are gone.
    let len = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len / 10)
        .unwrap();
    let there = terrain.position_at(0.0, 180.0);
    assert!(s.settle(there, Duration::from_secs(30)), "nothing hangs");
    let failed = std::iter::from_fn(|| s.poll_event())
        .filter(|e| matches!(e, Event::Failed { .. }))
        .count();
    assert!(failed > 0, "the lost tiles fail");
    let resident = s.resident();
    let resident = resident.read();
    assert!(
        before.iter().all(|k| resident.contains_key(k)),
        "nothing resident was lost"
    );
}

/// A tiny chunk on a big face is refused up front: chunk bounds are kept for every chunk
/// (6 · per-side²), so 2-sample chunks on a 1024² face (512 a side) would have reserved
/// 1.5 M entries — and on a 2²⁰ face 51 GB. A blank 1024² planet (one flat tile a face)
/// stands in for a baked one.
#[test]
fn planet_chunks_are_capped_per_face_side() {
    use relief::planet::collision::{PlanetChunkSource, MAX_CHUNKS_PER_SIDE};
    use relief::planet::format::standard_fields;
    use relief::planet::writer::{encode_tile, BlobSpec, BlobWriter};

    let n = 1024u32;
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("blank-1024.plnt");
    let fields = standard_fields();
    let spec = BlobSpec {
        version: 7,
        bake_version: 1,
        radius: 50_000.0,
        face_resolution: n,
        tile_size: n,
        projection: Projection::EquiAngular,
        polar_axis: DVec3::new(0.0, 1.0, 0.0),
        height_range: [0.0, 0.0],
        sea_level: 0.0,
        seed: 1,
        fields: fields.clone(),
    };
    let mut w = BlobWriter::create(&out, spec).unwrap();
    let stored: Vec<Vec<u8>> = fields
        .iter()
        .map(|f| encode_tile(f, &vec![0u8; (n * n) as usize * f.ty.size()]))
        .collect();
    for face in 0..6 {
        w.add_tile(TileKey { face, tx: 0, ty: 0 }, &stored).unwrap();
    }
    w.finish(&[]).unwrap();
    let planet = Arc::new(Planet::open(&out).unwrap());
    let resident = Streamer::new(
        Arc::new(TileSource::new(planet.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap()
    .resident();
    // 2-sample chunks: 512 a side.
    let e = PlanetChunkSource::new(planet.clone(), resident.clone(), 2)
        .err()
        .expect("512 chunks a side refused");
    assert!(e.to_string().contains("at most 256"), "{e}");
    let smallest = n / MAX_CHUNKS_PER_SIDE;
    assert!(PlanetChunkSource::new(planet.clone(), resident.clone(), smallest).is_ok());
    assert!(PlanetChunkSource::new(planet, resident, 64).is_ok());
}

/// A budget of a few tiles, the focus moved between two poles: evicted tiles' fields come
/// back out of the pool, and every streamed tile equals the same tile read fresh (a reused
/// buffer is overwritten whole, integer fields scaled the same).
#[test]
fn evicted_tiles_buffers_are_reused_and_reloads_read_the_same() {
    let p = planet();
    let per_tile: usize = p.tile_lens().iter().sum();
    let cfg = StreamConfig {
        load_radius: p.radius() * 0.3,
        drop_radius: p.radius() * 0.35,
        budget_bytes: 10 * per_tile,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(Arc::new(TileSource::new(p.clone())), cfg, &Loaders::new(0)).unwrap();
    let pool = s.source().pool().clone();
    let r = p.radius();
    for k in 0..6 {
        let at = if k % 2 == 0 {
            DVec3::new(0.0, r, 0.0)
        } else {
            DVec3::new(0.0, -r, 0.0)
        };
        assert!(s.settle(at, Duration::from_secs(60)));
        assert!(pool.stats().room_bytes <= 10 * per_tile);
        for (key, tile) in s.resident().read().iter() {
            assert_eq!(**tile, p.read_tile(*key).unwrap(), "{key:?}, pass {k}");
        }
    }
    let stats = pool.stats();
    assert!(stats.hits > 0, "no load took a pooled buffer: {stats:?}");
}

/// A field stored as integers comes out as its samples times the field's scale plus offset.
#[test]
fn integer_fields_are_scaled_into_f32() {
    let p = planet();
    let blob = p.blob();
    let (f, info) = blob
        .fields()
        .iter()
        .enumerate()
        .find(|(_, f)| f.name == "precipitation")
        .expect("a v7 planet has precipitation");
    for key in all_keys(4).into_iter().step_by(7) {
        let Samples::U16(raw) = blob.read_tile(f, key).unwrap() else {
            panic!("precipitation is stored as u16");
        };
        let tile = p.read_tile(key).unwrap();
        let got = tile.precipitation.as_ref().unwrap();
        for (k, &s) in raw.iter().enumerate() {
            assert_eq!(
                got[k],
                s as f32 * info.scale + info.offset,
                "{key:?} sample {k}"
            );
        }
    }
}

/// Every class on a baked planet carries the causes that can be checked from the blob alone:
/// temperature (recomputed from latitude and height), depth, lake membership and the stored
/// precipitation and sediment (reefs only in clear water, dunes only on sand). (The classifier's every law is checked against all its fields in
/// `bake::classify`'s tests.)
#[test]
fn every_class_on_the_baked_planet_carries_its_cause() {
    use relief_tools::bake::classify::*;
    use relief_tools::bake::planet::climate::temperature;
    let (path, _) = baked();
    let blob = Blob::open(path).unwrap();
    let h = blob.header();
    let (n, t) = (h.face_resolution, h.tile_size);
    let sediment_scale = blob.fields()[3].scale as f64;
    let mut seen = [0u64; BiomeId::COUNT];
    let mut wrong = Vec::new();
    for key in all_keys((n / t) as u16) {
        let Samples::F32(height) = blob.read_tile(0, key).unwrap() else {
            panic!("height is f32")
        };
        let Samples::U8(biome) = blob.read_tile(1, key).unwrap() else {
            panic!("biome is u8")
        };
        let Samples::U16(lake) = blob.read_tile(2, key).unwrap() else {
            panic!("lake is u16")
        };
        let Samples::U16(precip) = blob.read_tile(4, key).unwrap() else {
            panic!("precipitation is u16")
        };
        let Samples::U16(soil) = blob.read_tile(3, key).unwrap() else {
            panic!("sediment is u16")
        };
        for j in 0..t {
            for i in 0..t {
                let o = (j * t + i) as usize;
                let d = sample_direction(h.projection, n, t, key, i, j);
                let z = height[o] as f64;
                let temp = temperature(d, z, h.polar_axis);
                // Stored to half a millimetre a year: the thresholds are whole hundreds.
                let p = precip[o] as f64 * 0.5;
                // And sediment to 1/1024 m.
                let sediment = soil[o] as f64 * sediment_scale;
                let b = BiomeId::from_id(biome[o]).expect("a known class");
                seen[b as usize] += 1;
                let depth = -z;
                let in_lake = lake[o] != 0;
                // Heights are stored as f32: allow their rounding at each threshold.
                let e = 1e-3;
                let ok = match b {
                    BiomeId::Ice | BiomeId::Snow => temp < ICE_LINE_C + e,
                    BiomeId::Moraine => {
                        temp > ICE_LINE_C - e && temp < ICE_LINE_C + GLACIAL_COOLING_C + e
                    }
                    BiomeId::Reef | BiomeId::RockyReef => {
                        depth > REEF_MIN_DEPTH_M - e
                            && depth < REEF_MAX_DEPTH_M + e
                            && temp > REEF_MIN_SEA_C - e
                            && sediment < REEF_MAX_SEDIMENT_M + e
                    }
                    BiomeId::Seagrass => {
                        depth > TIDE_M - e
                            && depth < SEAGRASS_MAX_DEPTH_M + e
                            && sediment > SOFT_BOTTOM_M - e
                    }
                    BiomeId::SeaFloor => depth > SHELF_BREAK_M - e && !in_lake,
                    BiomeId::Shelf => depth > TIDE_M - e && depth < SHELF_BREAK_M + e,
                    BiomeId::LakeBed | BiomeId::LakeShore | BiomeId::SaltFlat => in_lake,
                    BiomeId::Dunes => {
                        temp > DUNE_MIN_C - e && p < DUNE_MAX_MM + 1.0 && sediment > DUNE_SAND_M - e
                    }
                    BiomeId::Wetland | BiomeId::Swamp => {
                        relief_tools::bake::climate::aridity_index(p + 1.0, temp + e)
                            >= WETLAND_MIN_AI
                            && !in_lake
                    }
                    BiomeId::Mangrove => temp > MANGROVE_MIN_C - e && depth.abs() < TIDE_M + e,
                    BiomeId::AlpineMeadow => temp < TREE_LINE_C + e && z > ALPINE_ABOVE_M - e,
                    BiomeId::TropicalRainforest | BiomeId::Savanna => temp > 20.0 - e && !in_lake,
                    _ => !in_lake,
                };
                if !ok && wrong.len() < 10 {
                    wrong.push(format!("{b:?} at {d:?}: {z:.1} m, {temp:.1} °C, {p} mm"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "classes without their cause: {wrong:#?}");
    let present = seen.iter().filter(|&&c| c > 0).count();
    println!("{present} classes present: {seen:?}");
    assert!(present >= 15, "only {present} classes on the planet");
}
