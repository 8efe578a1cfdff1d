//! `relief import` and `relief export` as a person runs them: Terrain3D data directories
//! (compressed and plain resources) and heightmaps in, Terrain3D files out, with the world's
//! rivers, lakes and biomes, `relief info` and `relief preview` on what was imported.

mod common;

use common::relief;

use std::path::{Path, PathBuf};

use relief::{RegionLocation, World};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/terrain3d-demo/terrain3d_00_00.res")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_terrain3d_directory_of_compressed_and_plain_files_imports_with_named_biomes() {
    let data = common::scratch("cli-t3d-data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::copy(fixture(), data.join("terrain3d_00_00.res")).unwrap();
    // The same region as an uncompressed resource (`RSRC`, offsets counted from the file's
    // start, as Godot saves without compression), one region west.
    let stream =
        relief_tools::terrain3d::container::decompress(&std::fs::read(fixture()).unwrap()).unwrap();
    let resource = relief_tools::terrain3d::binres::parse(&stream).unwrap();
    let plain = relief_tools::terrain3d::binres::write(&resource, true);
    assert_eq!(&plain[..4], b"RSRC");
    std::fs::write(data.join("terrain3d-01_00.res"), &plain).unwrap();
    let biomes = data.with_extension("biomes.json");
    std::fs::write(&biomes, r#"{"0": "meadow", "1": "scree"}"#).unwrap();
    let world = common::scratch("cli-t3d-world");
    let pack = world.with_extension("rlpack");
    let (ok, out, err) = relief(&[
        "import",
        "terrain3d",
        s(&data),
        "--out",
        s(&world),
        "--pack",
        s(&pack),
        "--biomes",
        s(&biomes),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 Terrain3D region files") && out.contains("MB/s of maps"),
        "{out}"
    );

    let w = World::open(&world).unwrap();
    let (a, b) = (
        w.read_region(RegionLocation::new(0, 0)).unwrap(),
        w.read_region(RegionLocation::new(-1, 0)).unwrap(),
    );
    assert_eq!(a.height, b.height, "compressed and plain read alike");
    assert_eq!((&a.control, &a.color), (&b.control, &b.color));
    let from_pack = World::open(&pack).unwrap();
    assert_eq!(
        from_pack
            .read_region(RegionLocation::new(0, 0))
            .unwrap()
            .height,
        a.height
    );

    let (ok, info, err) = relief(&["info", s(&world), "--verify"]);
    assert!(ok, "{err}");
    for word in ["meadow", "scree", "lakes", "reaches", "verified 2 regions"] {
        assert!(info.contains(word), "`{word}` missing from:\n{info}");
    }
    let png = world.with_extension("png");
    let (ok, _, err) = relief(&["preview", s(&world), "--out", s(&png), "--pixels", "128"]);
    assert!(ok && std::fs::read(&png).unwrap()[1..4] == *b"PNG", "{err}");
}

/// An imported world gets placed things from a `--things` table keyed by its own biome names;
/// a table naming a biome it doesn't have is refused, naming the field, and nothing is
/// written.
#[test]
fn an_import_carries_the_placement_table_it_is_given() {
    let data = common::scratch("cli-t3d-things");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::copy(fixture(), data.join("terrain3d_00_00.res")).unwrap();
    let biomes = data.with_extension("biomes.json");
    std::fs::write(&biomes, r#"{"0": "meadow", "1": "scree"}"#).unwrap();
    let table = |biome: &str| {
        let path = data.with_extension(format!("{biome}.things.json"));
        let json = format!(
            r#"{{"version": 1, "kinds": [{{"name": "bush", "footprint_m": 0.5,
                "density": {{"{biome}": 0.05}}}}]}}"#
        );
        std::fs::write(&path, json).unwrap();
        path
    };
    let world = common::scratch("cli-t3d-things-world");
    let import = |things: &Path| {
        relief(&[
            "import",
            "terrain3d",
            s(&data),
            "--out",
            s(&world),
            "--biomes",
            s(&biomes),
            "--things",
            s(things),
        ])
    };
    let (ok, _, err) = import(&table("forest"));
    assert!(!ok && err.contains("kinds[0].density.forest"), "{err}");
    assert!(World::open(&world).is_err(), "nothing written");

    let (ok, _, err) = import(&table("meadow"));
    assert!(ok, "{err}");
    let w = std::sync::Arc::new(World::open(&world).unwrap());
    assert_eq!(w.things().kinds.len(), 1);
    assert_eq!(w.things().kinds[0].density, vec![0.05, 0.0]);
    let mut rt = relief::Runtime::new(w.clone(), Default::default()).unwrap();
    let side = w.region_extent();
    let middle = relief::DVec3::new(side / 2.0, 0.0, side / 2.0);
    assert!(rt
        .settle(middle, std::time::Duration::from_secs(60))
        .unwrap());
    let mut near = Vec::new();
    assert!(
        rt.thing_lookup().within(middle, 200.0, &mut near) > 0,
        "bushes placed"
    );
}

#[test]
fn a_damaged_region_file_is_named_in_the_error_and_nothing_opens() {
    let data = common::scratch("cli-t3d-damaged");
    std::fs::create_dir_all(&data).unwrap();
    let bytes = std::fs::read(fixture()).unwrap();
    std::fs::write(data.join("terrain3d_00_00.res"), &bytes[..bytes.len() / 3]).unwrap();
    let world = common::scratch("cli-t3d-damaged-world");
    let (ok, _, err) = relief(&["import", "terrain3d", s(&data), "--out", s(&world)]);
    assert!(
        !ok && err.contains("terrain3d_00_00.res") && err.contains("truncated"),
        "{err}"
    );
    assert!(World::open(&world).is_err());
    let (ok, _, err) = relief(&[
        "import",
        "terrain3d",
        "/nonexistent-dir",
        "--out",
        s(&world),
    ]);
    assert!(!ok && err.contains("/nonexistent-dir"), "{err}");
}

#[test]
fn export_writes_terrain3d_files_and_refuses_a_world_outside_its_map() {
    let out = common::scratch("cli-export");
    let (ok, msg, err) = relief(&[
        "export",
        "terrain3d",
        s(common::world_dir()),
        "--out",
        s(&out),
    ]);
    assert!(ok, "{err}");
    assert!(msg.contains("exported 64 regions"), "{msg}");
    assert!(out.join("terrain3d-04-04.res").exists() && out.join("terrain3d_03_03.res").exists());

    // A heightmap 34 regions of 64 wide reaches location 16: outside Terrain3D's map.
    let raw = common::scratch("cli-wide").with_extension("r16");
    std::fs::write(&raw, vec![0u8; 2 * 34 * 64 * 64]).unwrap();
    let wide = common::scratch("cli-wide-world");
    let (ok, _, err) = relief(&[
        "import",
        "heightmap",
        s(&raw),
        "--out",
        s(&wide),
        "--size",
        "2176x64",
        "--scale",
        "0.01",
        "--region-size",
        "64",
    ]);
    assert!(ok, "{err}");
    let refused = common::scratch("cli-wide-export");
    let (ok, _, err) = relief(&["export", "terrain3d", s(&wide), "--out", s(&refused)]);
    assert!(
        !ok && err.contains("outside Terrain3D's 32×32 region map"),
        "{err}"
    );
    assert!(!refused.exists(), "nothing written");
}

/// A valley draining south: heights fall along +Z and rise away from the middle column.
fn valley(w: usize, d: usize) -> Vec<f64> {
    (0..w * d)
        .map(|k| {
            let (x, z) = ((k % w) as f64, (k / w) as f64);
            2000.0 - 1.5 * z + 3.0 * (x - w as f64 / 2.0).abs()
        })
        .collect()
}

#[test]
fn heightmaps_import_as_metres_and_grow_rivers() {
    let (w, d) = (256usize, 320usize);
    let metres = valley(w, d);
    let (lo, hi) = (0.0, 3000.0);
    let units: Vec<u16> = metres
        .iter()
        .map(|m| ((m - lo) / (hi - lo) * 65535.0).round() as u16)
        .collect();
    let dir = common::scratch("cli-heightmap");
    std::fs::create_dir_all(&dir).unwrap();
    let r16 = dir.join("valley.r16");
    std::fs::write(
        &r16,
        units
            .iter()
            .flat_map(|u| u.to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let png = dir.join("valley.png");
    {
        let file = std::io::BufWriter::new(std::fs::File::create(&png).unwrap());
        let mut enc = png::Encoder::new(file, w as u32, d as u32);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(
            &units
                .iter()
                .flat_map(|u| u.to_be_bytes())
                .collect::<Vec<_>>(),
        )
        .unwrap();
    }
    let f32s = dir.join("valley.f32");
    std::fs::write(
        &f32s,
        metres
            .iter()
            .flat_map(|m| (*m as f32).to_le_bytes())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let range = format!("{lo},{hi}");
    let mut worlds = Vec::new();
    for (file, extra) in [
        (&r16, vec!["--size", "256x320", "--height-range", &range]),
        (&png, vec!["--height-range", &range]),
        (&f32s, vec!["--size", "256x320"]),
    ] {
        let world = dir.join(format!(
            "{}-world",
            file.extension().unwrap().to_str().unwrap()
        ));
        let mut args = vec![
            "import",
            "heightmap",
            s(file),
            "--out",
            s(&world),
            "--spacing",
            "8",
        ];
        args.extend(["--region-size", "128"]);
        args.extend(extra);
        let (ok, out, err) = relief(&args);
        assert!(ok, "{err}");
        assert!(out.contains("a 256×320 heightmap"), "{out}");
        worlds.push(World::open(&world).unwrap());
    }
    // 256 × 320 samples in regions of 128: 2 × 3, centred on the origin.
    let m = worlds[0].manifest();
    assert_eq!(
        (m.region_bounds.min, m.region_bounds.max),
        ([-1, -1], [0, 1])
    );
    // Sample (x, z) of the image is at sample (x % 128, z % 128) of region (x / 128 - 1,
    // z / 128 - 1); r16 and PNG agree bit for bit, and each is the range's share of the unit.
    for (x, z) in [(0usize, 0usize), (200, 17), (128, 255), (255, 319)] {
        let loc = RegionLocation::new(x as i32 / 128 - 1, z as i32 / 128 - 1);
        let k = (z % 128) * 128 + x % 128;
        let h: Vec<f32> = worlds
            .iter()
            .map(|w| w.read_region(loc).unwrap().height[k])
            .collect();
        let unit = units[z * w + x] as f64;
        assert_eq!(h[0], (lo + unit * (hi - lo) / 65535.0) as f32, "({x}, {z})");
        assert_eq!(h[0], h[1]);
        assert_eq!(h[2], metres[z * w + x] as f32);
    }
    // Past the image's last row (320 = 2.5 regions) the samples are holes.
    let last = worlds[2].read_region(RegionLocation::new(0, 1)).unwrap();
    assert!(last.height[127 * 128].is_nan());
    assert_ne!(last.control.as_ref().unwrap()[127 * 128] & 4, 0);
    // The valley's floor carries a river south down the middle column.
    let world = &worlds[2];
    let longest = world
        .reaches()
        .iter()
        .max_by(|a, b| a.length_m.total_cmp(&b.length_m))
        .expect("a river in the valley");
    assert!(longest.length_m > 1000.0, "{longest:?}");
    let middle = -1024.0 + 128.0 * 8.0; // world x of column 128
    for p in &longest.points {
        assert!(
            (p[0] as f64 - middle).abs() < 40.0,
            "{p:?} strays from the valley floor"
        );
    }
}

#[test]
fn heightmap_mistakes_are_explained() {
    let dir = common::scratch("cli-heightmap-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let raw = dir.join("h.r16");
    std::fs::write(&raw, vec![0u8; 2 * 100 * 50]).unwrap();
    let out = dir.join("w");
    for (args, words) in [
        (vec!["--scale", "1"], "not a square"),
        (vec!["--size", "100x50"], "--height-range"),
        (vec!["--size", "99x50", "--scale", "1"], "not the 5000"),
        (vec!["--size", "100x50", "--height-range", "1"], "MIN,MAX"),
    ] {
        let mut a = vec!["import", "heightmap", s(&raw), "--out", s(&out)];
        a.extend(args);
        let (ok, _, err) = relief(&a);
        assert!(!ok && err.contains(words), "{a:?}: {err}");
    }
    let (ok, _, err) = relief(&[
        "import",
        "heightmap",
        s(&dir.join("h.tif")),
        "--out",
        s(&out),
    ]);
    assert!(!ok && err.contains("--format"), "{err}");
}

/// Everything the reader checks of a world is checked before an import writes a byte: a sea
/// level that is not a number (which the manifest could not hold) and regions so far apart
/// that their overview is no grid the reader takes are refused, and nothing is written.
#[test]
fn an_import_the_reader_would_refuse_writes_nothing() {
    use relief_tools::import::{write_world, ImportError, ImportSettings, ImportedRegion};
    let region = |x: i32, z: i32| ImportedRegion {
        location: RegionLocation::new(x, z),
        height: vec![5.0; 64 * 64],
        control: None,
        color: None,
    };
    let mut nan = ImportSettings::new("nan", 64, 1.0);
    nan.sea_level = Some(f32::NAN);
    let apart = ImportSettings::new("apart", 64, 1.0);
    let far = [region(-65_536, 0), region(65_536, 0)];
    for (regions, settings, want) in [
        (&[region(0, 0)][..], &nan, "sea level NaN"),
        (&far[..], &apart, "overview"),
    ] {
        let out = common::scratch(&format!("import-refused-{}", settings.name));
        match write_world(regions, settings, &out, &relief_tools::Silent) {
            Err(ImportError::Settings(m)) => assert!(m.contains(want), "{m}"),
            other => panic!("{}: {:?}", settings.name, other.map(|_| ())),
        }
        assert!(!out.exists(), "{}: something was written", settings.name);
    }
    // The same far regions closer together import and read back.
    let near = [region(-2, 0), region(2, 0)];
    let out = common::scratch("import-near");
    write_world(&near, &apart, &out, &relief_tools::Silent).unwrap();
    World::open(&out).unwrap();
}

/// An export with one damaged region fails having written nothing (every region is read,
/// checked and encoded before any file takes its place), and an export never writes
/// through a symlink named like one of its files: the link is replaced, its target kept.
#[test]
fn an_export_is_all_or_nothing_and_never_writes_through_a_link() {
    let world = common::copy_world("export-damaged");
    let victim = world
        .join("regions")
        .join(RegionLocation::new(1, 1).file_name());
    let mut bytes = std::fs::read(&victim).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&victim, bytes).unwrap();
    let out = common::scratch("export-damaged-out");
    let (ok, _, err) = relief(&["export", "terrain3d", s(&world), "--out", s(&out)]);
    assert!(!ok && err.contains("region_01_01"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&out)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "written after a failed export: {left:?}");

    let out = common::scratch("export-link-out");
    std::fs::create_dir_all(&out).unwrap();
    let target = common::scratch("export-link-target");
    std::fs::write(&target, b"not yours").unwrap();
    let name = RegionLocation::new(0, 0).terrain3d_file_name();
    std::os::unix::fs::symlink(&target, out.join(&name)).unwrap();
    let (ok, _, err) = relief(&[
        "export",
        "terrain3d",
        s(common::world_dir()),
        "--out",
        s(&out),
    ]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), b"not yours");
    let meta = std::fs::symlink_metadata(out.join(&name)).unwrap();
    assert!(meta.is_file() && meta.len() > 1000, "{meta:?}");
}

/// Heights a float heightmap file holds, little-endian.
fn write_f32(path: &Path, heights: &[f32]) {
    let bytes: Vec<u8> = heights.iter().flat_map(|h| h.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

/// What real rasters bring: no-data values and NaN become holes (in no census share), a map
/// with no ground at all is refused, a flat map and a one-row map import with no lake
/// covering them, and oblong cells are resampled square.
#[test]
fn no_data_flat_and_thin_rasters_import_as_documented() {
    let dir = common::scratch("cli-rasters");
    std::fs::create_dir_all(&dir).unwrap();
    let import = |name: &str, heights: &[f32], extra: &[&str]| {
        let file = dir.join(format!("{name}.f32"));
        write_f32(&file, heights);
        let out = dir.join(name);
        let mut args = vec!["import", "heightmap", s(&file), "--out", s(&out)];
        args.extend(["--region-size", "64"]);
        args.extend(extra);
        let (ok, stdout, err) = relief(&args);
        (ok, stdout + &err, out)
    };
    // A slope with a 10 × 10 block of -9999 and one NaN sample.
    let mut slope: Vec<f32> = (0..64 * 64).map(|k| 100.0 + (k % 64) as f32).collect();
    for z in 20..30 {
        for x in 20..30 {
            slope[z * 64 + x] = -9999.0;
        }
    }
    slope[5] = f32::NAN;
    let (ok, log, out) = import("nodata", &slope, &["--size", "64x64", "--no-data", "-9999"]);
    assert!(ok, "{log}");
    let w = World::open(&out).unwrap();
    let c = &w.manifest().census;
    assert_eq!((c.samples, c.holes), (64 * 64 - 101, 101));
    let r = w.read_region(RegionLocation::new(0, 0)).unwrap();
    let control = r.control.as_ref().unwrap();
    for k in [5, 25 * 64 + 25] {
        assert!(
            r.height[k].is_nan() && control[k] & 4 != 0,
            "sample {k} is a hole"
        );
    }
    assert!(
        w.manifest().height_range[0] >= 100.0,
        "no-data is no height"
    );
    assert!(w.lakes().is_empty(), "{:?}", w.lakes());

    let (ok, log, _) = import("nothing", &[-9999.0; 64], &["--no-data", "-9999"]);
    assert!(!ok && log.contains("no ground"), "{log}");
    // A float file's lowest float as its no-data marker: refused unless named, then a hole.
    let mut marked = slope.clone();
    marked[64 * 10 + 10] = f32::MIN;
    let (ok, log, _) = import(
        "marked",
        &marked,
        &["--size", "64x64", "--no-data", "-9999"],
    );
    assert!(!ok && log.contains("no-data"), "{log}");
    let named = ["--size", "64x64", "--no-data", "-3.4028235e38"];
    let (ok, log, out) = import("named", &marked, &named);
    assert!(ok, "{log}");
    let c = World::open(&out).unwrap().manifest().census.clone();
    assert_eq!((c.samples, c.holes), (64 * 64 - 2, 2), "NaN and the marker");

    let (ok, log, out) = import("flat", &[7.0; 64 * 64], &[]);
    assert!(ok, "{log}");
    let w = World::open(&out).unwrap();
    assert!(w.lakes().is_empty() && w.manifest().census.lake_share == 0.0);

    let row: Vec<f32> = (0..300).map(|x| 50.0 - x as f32 * 0.1).collect();
    let (ok, log, out) = import("row", &row, &["--size", "300x1"]);
    assert!(ok, "{log}");
    let w = World::open(&out).unwrap();
    assert_eq!(w.manifest().census.samples, 300);
    assert!(w.lakes().is_empty());

    // 64 × 64 samples 2 m apart east–west and 3 m north–south: 64 × 95 square cells of 2 m.
    let (ok, log, out) = import("oblong", &slope, &["--size", "64x64", "--spacing", "2,3"]);
    assert!(ok, "{log}");
    assert!(log.contains("a 64×95 heightmap"), "{log}");
    let w = World::open(&out).unwrap();
    assert_eq!(w.manifest().vertex_spacing, 2.0);
    let (ok, log, _) = import(
        "bad-spacing",
        &slope,
        &["--size", "64x64", "--spacing", "2,x"],
    );
    assert!(!ok && log.contains("--spacing"), "{log}");
    let (ok, log, _) = import(
        "zero-spacing",
        &slope,
        &["--size", "64x64", "--spacing", "0,3"],
    );
    assert!(!ok && log.contains("positive"), "{log}");
}

/// `--depressions`: a 25 m deep bowl of 3 × 3 cells is breached by default and filled by
/// `fill` (no lake either way), and kept as a lake by `lakes`, whose thresholds are the
/// bake's; the thresholds can be given.
#[test]
fn depressions_are_breached_filled_or_kept_as_asked() {
    let dir = common::scratch("cli-depressions");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bowl.f32");
    let heights: Vec<f32> = (0..64 * 64)
        .map(|k| {
            let (x, z) = ((k % 64) as f32, (k / 64) as f32);
            let bowl = (x - 32.0).abs() <= 1.0 && (z - 32.0).abs() <= 1.0;
            if bowl {
                // Not one height: a flat the ground rises around would be water.
                90.0 + 0.1 * (x + z - 64.0)
            } else {
                100.0 + 0.5 * x
            }
        })
        .collect();
    write_f32(&file, &heights);
    let mut lakes = Vec::new();
    for (name, extra) in [
        ("breach", vec![]),
        ("fill", vec!["--depressions", "fill"]),
        ("lakes", vec!["--depressions", "lakes"]),
        (
            "lakes-deep",
            vec!["--depressions", "lakes", "--lake-depth", "30"],
        ),
        (
            "breach-low",
            vec![
                "--lake-depth",
                "5",
                "--lake-area",
                "10",
                "--lake-cells",
                "9",
            ],
        ),
    ] {
        let out = dir.join(name);
        let mut args = vec!["import", "heightmap", s(&file), "--out", s(&out)];
        args.extend(["--region-size", "64", "--spacing", "20"]);
        args.extend(extra);
        let (ok, stdout, err) = relief(&args);
        assert!(ok, "{name}: {err}");
        let w = World::open(&out).unwrap();
        lakes.push((name, w.lakes().len(), stdout));
    }
    let counts: Vec<usize> = lakes.iter().map(|l| l.1).collect();
    assert_eq!(counts, [0, 0, 1, 0, 1], "{lakes:#?}");
    assert!(lakes[0].2.contains("1 breached"), "{}", lakes[0].2);
    assert!(lakes[1].2.contains("1 filled"), "{}", lakes[1].2);
}
