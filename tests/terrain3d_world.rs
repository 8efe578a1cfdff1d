//! Terrain3D worlds in and out: the demo region (tests/fixtures/terrain3d-demo/, MIT) imports
//! as a world with rivers, lakes and biomes; a baked world exports to Terrain3D files and
//! imports back bit for bit; exported files keep Terrain3D's own layout, confirmed by a
//! reader written separately (tests/terrain3d/read_res.py).

mod common;

use std::path::{Path, PathBuf};

use relief::flat::mips;
use relief::{RegionLocation, World};
use relief_tools::bake::depressions::{Depressions, LakeRules};
use relief_tools::import::terrain3d as import;
use relief_tools::import::{write_world, ImportSettings, ImportedRegion};
use relief_tools::terrain3d::binres::Variant;
use relief_tools::terrain3d::export::{self, ExportError};
use relief_tools::terrain3d::{container, RegionFile};
use relief_tools::Silent;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/terrain3d-demo")
}

/// A Terrain3D data directory imported as a world in `out`, its basins kept as lakes
/// (`--depressions lakes`: hand-made ground, whose basins are meant).
fn import_dir(dir: &Path, out: &Path) -> World {
    let data = import::read_data_dir(dir, None, 0).unwrap();
    let mut s = ImportSettings::new("terrain3d:test", data.region_size, data.vertex_spacing);
    s.lakes = LakeRules::import(Depressions::Lakes);
    write_world(&data.regions, &s, out, &Silent).unwrap();
    World::open(out).unwrap()
}

fn bits(h: &[f32]) -> Vec<u32> {
    h.iter().map(|v| v.to_bits()).collect()
}

#[test]
fn the_demo_region_imports_with_its_own_figures_rivers_lakes_and_biomes() {
    let out = common::scratch("t3d-demo-world");
    let world = import_dir(&fixture_dir(), &out);
    let m = world.manifest();
    assert_eq!((m.region_size, m.vertex_spacing), (1024, 1.0));
    let r = world.read_region(RegionLocation::new(0, 0)).unwrap();
    // The figures tests/terrain3d.rs checks on the file, computed independently of relief
    // (Python's struct over the zstd CLI's output), now read through the imported world.
    let (min, max) = r
        .height
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
    assert_eq!((min, max), (-50.950928, 365.61664));
    let mean = r.height.iter().map(|&h| h as f64).sum::<f64>() / r.height.len() as f64;
    assert!((mean - 83.67837786232985).abs() < 1e-6, "{mean}");
    assert_eq!([r.height[0], r.height[512 * 1024 + 512]], [0.0, 228.94716]);
    let control = r.control.as_ref().unwrap();
    assert_eq!(control.iter().filter(|&&w| w & 4 != 0).count(), 905);
    assert_eq!(control.iter().filter(|&&w| w >> 27 == 1).count(), 17_310);
    assert_eq!(r.color.as_ref().unwrap()[0], [0xfe, 0xfe, 0xfe, 0x7f]);

    // Biomes: one per base texture in use, the layer the base id's class.
    let names: Vec<&str> = world.biomes().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["texture 0", "texture 1"]);
    let biome = r.biome.as_ref().unwrap();
    assert!(biome
        .iter()
        .zip(control.iter())
        .all(|(&b, &w)| b as u32 == w >> 27));

    // Hydrology on the imported heights: the demo's two basins hold lakes, each sample
    // marked as lake lies below its lake's level, and creeks run down to them or off the edge.
    assert_eq!(world.lakes().len(), 2, "{:?}", world.lakes());
    assert!(!world.reaches().is_empty());
    let lake = r.lake.as_ref().unwrap();
    let mut in_lake = 0;
    for (k, &id) in lake.iter().enumerate() {
        if id != 0 {
            in_lake += 1;
            assert!(
                r.height[k] < world.lakes()[id as usize - 1].level_m,
                "sample {k}"
            );
        }
    }
    assert!(in_lake > 10_000, "{in_lake} lake samples");
    for reach in world.reaches() {
        let ends = (reach.points.first().unwrap(), reach.points.last().unwrap());
        assert!(ends.0[2] > ends.1[2], "reach {} falls", reach.id);
    }
    // The overview is the heights' block means: finite, within the height range.
    let o = world.overview();
    assert!(o
        .heights
        .iter()
        .all(|h| h.is_finite() && (min..=max).contains(h)));
}

#[test]
fn a_baked_world_exports_to_terrain3d_and_imports_back_bit_for_bit() {
    let world = World::open(common::world_dir()).unwrap();
    let out = common::scratch("t3d-export-baked");
    let report = export::export(&world, &out, None, 0, &Silent).unwrap();
    assert_eq!(report.files, world.region_locations().count());
    let data = import::read_data_dir(&out, None, 0).unwrap();
    assert_eq!(data.region_size, world.manifest().region_size);
    assert_eq!(data.vertex_spacing, world.manifest().vertex_spacing);
    assert_eq!(data.regions.len(), report.files);
    for imported in &data.regions {
        let ours = world.read_region(imported.location).unwrap();
        assert_eq!(
            bits(&imported.height),
            bits(&ours.height),
            "{:?}",
            ours.location
        );
        assert_eq!(imported.control.as_deref(), ours.control.as_deref());
        assert_eq!(imported.color.as_deref(), ours.color.as_deref());
    }
    // And as a world again: the same maps.
    let again = common::scratch("t3d-export-baked-world");
    let s = ImportSettings::new("again", data.region_size, data.vertex_spacing);
    write_world(&data.regions, &s, &again, &Silent).unwrap();
    let back = World::open(&again).unwrap();
    for loc in world.region_locations().take(6) {
        let (a, b) = (
            world.read_region(loc).unwrap(),
            back.read_region(loc).unwrap(),
        );
        assert_eq!(bits(&a.height), bits(&b.height));
        assert_eq!((a.control, a.color), (b.control, b.color));
    }
}

#[test]
fn the_demo_region_goes_out_and_back_in_terrain3ds_own_layout() {
    let world = import_dir(&fixture_dir(), &common::scratch("t3d-demo-world-2"));
    let out = common::scratch("t3d-demo-export");
    export::export(&world, &out, Some("res://demo/data"), 1, &Silent).unwrap();
    let name = "terrain3d_00_00.res";
    let theirs = RegionFile::parse(&std::fs::read(fixture_dir().join(name)).unwrap()).unwrap();
    let ours_bytes = std::fs::read(out.join(name)).unwrap();
    assert!(
        container::is_compressed(&ours_bytes),
        "RSCC, as Terrain3D saves"
    );
    let fixture_bytes = std::fs::read(fixture_dir().join(name)).unwrap();
    assert_eq!(
        container::decompress(&ours_bytes).unwrap()[..8],
        container::decompress(&fixture_bytes).unwrap()[..8],
        "the stream inside starts at the header, no RSRC magic"
    );
    let ours = RegionFile::parse(&ours_bytes).unwrap();
    // The maps, bit for bit — the color map with its whole mip chain, which Godot made for
    // the demo and relief made for the export.
    let (a, b) = (theirs.region().unwrap(), ours.region().unwrap());
    assert_eq!(bits(&a.height), bits(&b.height));
    assert_eq!((&a.control, &a.color), (&b.control, &b.color));
    assert_eq!(b.vertex_spacing, Some(1.0));
    assert_eq!(a.height_range, [-50.950927734375, 365.61663818359375]);
    let chain = |f: &RegionFile| match f.resource.bodies[2].get("data").and_then(|d| d.get("data"))
    {
        Some(Variant::Bytes(b)) => b.clone(),
        _ => panic!("a color map"),
    };
    assert_eq!(chain(&ours), chain(&theirs), "the color map's mip chain");
    assert_eq!(chain(&theirs), mips::rgba8_with_mips(1024, &a.color));
    // The layout: header, string table, bodies, property order and the Images' fields.
    let (th, oh) = (&theirs.resource.header, &ours.resource.header);
    assert_eq!(
        (oh.engine, oh.format, &oh.class, oh.flags),
        (th.engine, th.format, &th.class, th.flags)
    );
    assert_eq!(&oh.strings[..th.strings.len()], &th.strings[..]);
    let props = |f: &RegionFile, k: usize| -> Vec<String> {
        f.resource.bodies[k]
            .properties
            .iter()
            .map(|p| p.0.clone())
            .collect()
    };
    for k in 0..3 {
        assert_eq!(props(&ours, k), props(&theirs, k));
        assert_eq!(ours.resource.bodies[k].class, "Image");
        let keys = |f: &RegionFile| match f.resource.bodies[k].get("data") {
            Some(Variant::Dictionary(d)) => d
                .iter()
                .map(|(key, v)| match key {
                    Variant::String(s) if s != "data" => format!("{s}={v:?}"),
                    Variant::String(s) => s.clone(),
                    _ => panic!("string keys"),
                })
                .collect::<Vec<_>>(),
            _ => panic!("an Image data dictionary"),
        };
        assert_eq!(keys(&ours), keys(&theirs), "Image {k}");
    }
    let mut theirs_main = props(&theirs, 3);
    theirs_main.insert(2, "vertex_spacing".into());
    assert_eq!(
        props(&ours, 3),
        theirs_main,
        "Terrain3D 1.0's property order"
    );
    assert_eq!(
        ours.resource.bodies[3].path,
        "res://demo/data/terrain3d_00_00.res"
    );

    // Imported again, the same region.
    let again = import_dir(&out, &common::scratch("t3d-demo-world-3"));
    let (x, y) = (
        world.read_region(RegionLocation::new(0, 0)).unwrap(),
        again.read_region(RegionLocation::new(0, 0)).unwrap(),
    );
    assert_eq!(bits(&x.height), bits(&y.height));
    assert_eq!((&x.control, &x.color), (&y.control, &y.color));
}

fn flat_region(x: i32, z: i32) -> ImportedRegion {
    ImportedRegion {
        location: RegionLocation::new(x, z),
        height: (0..64 * 64).map(|k| (k % 64) as f32).collect(),
        control: None,
        color: None,
    }
}

#[test]
fn a_world_outside_terrain3ds_region_map_fails_before_any_file_is_written() {
    let dir = common::scratch("t3d-outside");
    let regions = [flat_region(15, 0), flat_region(16, -16)];
    write_world(
        &regions,
        &ImportSettings::new("outside", 64, 1.0),
        &dir,
        &Silent,
    )
    .unwrap();
    let world = World::open(&dir).unwrap();
    let out = common::scratch("t3d-outside-export");
    let e = export::export(&world, &out, None, 0, &Silent).unwrap_err();
    assert!(matches!(e, ExportError::DoesNotFit(_)), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("(16, -16)") && text.contains("−16…15"),
        "{text}"
    );
    assert!(!out.exists(), "nothing written");

    // A directory already holding another world's regions is refused, not mixed.
    let fits = common::scratch("t3d-fits");
    write_world(
        &[flat_region(0, 0)],
        &ImportSettings::new("fits", 64, 1.0),
        &fits,
        &Silent,
    )
    .unwrap();
    let fits = World::open(&fits).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("terrain3d_03_03.res"), b"stray").unwrap();
    let e = export::export(&fits, &out, None, 0, &Silent).unwrap_err();
    assert!(e.to_string().contains("terrain3d_03_03.res"), "{e}");
    assert!(!out.join("terrain3d_00_00.res").exists());
    std::fs::remove_file(out.join("terrain3d_03_03.res")).unwrap();
    export::export(&fits, &out, None, 0, &Silent).unwrap();
    assert!(out.join("terrain3d_00_00.res").exists());
}

#[test]
fn an_exported_file_reads_in_a_separate_godot_resource_reader() {
    let world = World::open(common::world_dir()).unwrap();
    let out = common::scratch("t3d-python");
    export::export(&world, &out, Some("res://terrain"), 0, &Silent).unwrap();
    let loc = world.region_locations().min_by_key(|l| (l.z, l.x)).unwrap();
    let file = out.join(loc.terrain3d_file_name());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/terrain3d/read_res.py");
    let run = std::process::Command::new("python3")
        .arg(&script)
        .arg(&file)
        .output()
        .expect("python3 runs (.ci/deps installs it)");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&run.stderr)
    );
    let got: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let region = world.read_region(loc).unwrap();
    let n = region.size as usize;
    let (lo, hi) = region
        .height
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
    let expected = serde_json::json!({
        "compression": 2,
        "class": "Terrain3DRegion",
        "format": 5,
        "bodies": [
            {"class": "Image", "properties": ["data", "script"], "width": n, "height": n,
             "format": "RFloat", "mipmaps": false, "bytes": 4 * n * n},
            {"class": "Image", "properties": ["data", "script"], "width": n, "height": n,
             "format": "RFloat", "mipmaps": false, "bytes": 4 * n * n},
            {"class": "Image", "properties": ["data", "script"], "width": n, "height": n,
             "format": "RGBA8", "mipmaps": true, "bytes": mips::rgba8_chain_len(n as u32)},
            {"class": "Terrain3DRegion", "path": format!("res://terrain/{}", loc.terrain3d_file_name()),
             "properties": ["version", "region_size", "vertex_spacing", "height_range",
                            "height_map", "control_map", "color_map", "script"],
             "region_size": n, "vertex_spacing": world.manifest().vertex_spacing,
             "height_range": [lo as f64, hi as f64]},
        ],
        // The reader's own checksums of the maps' first bytes, compared with relief's maps.
        "height_0": region.height[0] as f64,
        "control_last": *region.control.as_ref().unwrap().last().unwrap(),
    });
    assert_eq!(got, expected, "{stdout}");
}

#[test]
fn a_damaged_container_is_a_typed_error() {
    let bytes = std::fs::read(fixture_dir().join("terrain3d_00_00.res")).unwrap();
    // The container's header: RSCC, mode, block size, total size; then each block's length.
    for (at, value) in [
        (8usize, 0u32),
        (8, u32::MAX),
        (12, u32::MAX),
        (12, 1),
        (16, u32::MAX),
        (16, 0),
        (20, 7),
    ] {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let e = RegionFile::parse(&b).err().expect("damaged");
        assert!(
            matches!(
                e,
                relief_tools::terrain3d::ResError::Corrupt { .. }
                    | relief_tools::terrain3d::ResError::Truncated { .. }
                    | relief_tools::terrain3d::ResError::Decompress { .. }
            ),
            "byte {at} = {value}: {e}"
        );
    }
}
