//! The compact profile: a world rewritten in it (or baked in it) loads the very maps the fast
//! profile does, at a fraction of the bytes, and every damaged compact region is an error.

mod common;

use std::process::Command;

use relief::codec::Codec;
use relief::flat::region::{decode_region, read_header, LayerKind, Region};
use relief::flat::region_writer::{encode_region_derived, CodecProfile};
use relief::flat::tint::TintRecipe;
use relief::flat::{FormatError, RegionLocation, World};
use relief_tools::bake;
use relief_tools::Silent;

fn sorted_locations(w: &World) -> Vec<RegionLocation> {
    let mut locs: Vec<_> = w.region_locations().collect();
    locs.sort_by_key(|l| (l.z, l.x));
    locs
}

fn world_bytes(w: &World) -> u64 {
    w.manifest().files.values().map(|f| f.bytes).sum()
}

#[test]
fn a_recoded_world_loads_the_same_maps_from_a_fifth_of_the_bytes() {
    let fast = World::open(common::world_dir()).unwrap();
    let out = common::scratch("compact-recoded");
    let report = fast.write_recoded(&out, CodecProfile::Compact).unwrap();
    let compact = World::open(&out).unwrap();
    let locs = sorted_locations(&fast);
    assert_eq!(report.regions, locs.len());
    // A baked world: every color map is its recipe's.
    assert_eq!(report.derived_color, locs.len());
    assert_eq!(report.bytes_before, world_bytes(&fast));
    assert_eq!(report.bytes_after, world_bytes(&compact));
    let ratio = report.bytes_before as f64 / report.bytes_after as f64;
    assert!(ratio >= 4.5, "compact is only {ratio:.2}× smaller");
    for &loc in &locs {
        let file = std::fs::read(compact.region_path(loc)).unwrap();
        let header = read_header(&file).unwrap();
        let color = header.layers.iter().find(|l| l.kind == LayerKind::Color);
        assert_eq!(color.map(|l| l.codec), Some(Codec::DerivedTint), "{loc:?}");
        assert_eq!(
            compact.read_region(loc).unwrap(),
            fast.read_region(loc).unwrap()
        );
    }
    // Everything but the regions and the manifest is copied as it was.
    for name in ["overview.rlo", "rivers.json", "lakes.json", "biomes.json"] {
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(common::world_dir().join(name)).unwrap(),
            "{name}"
        );
    }
    // And back: the fast profile's files are the bake's, byte for byte.
    let back = common::scratch("compact-back");
    compact.write_recoded(&back, CodecProfile::Fast).unwrap();
    for &loc in locs.iter().step_by(5) {
        assert_eq!(
            std::fs::read(World::open(&back).unwrap().region_path(loc)).unwrap(),
            std::fs::read(fast.region_path(loc)).unwrap()
        );
    }
}

#[test]
fn a_compact_bake_is_the_fast_bake_recoded() {
    let mut cfg = common::small_config("compact");
    cfg.size = 2048.0;
    let fast_dir = common::scratch("compact-bake-fast");
    bake::bake(&cfg, &fast_dir, &Silent).unwrap();
    cfg.codecs = CodecProfile::Compact;
    let compact_dir = common::scratch("compact-bake-compact");
    bake::bake(&cfg, &compact_dir, &Silent).unwrap();
    let recoded = common::scratch("compact-bake-recoded");
    World::open(&fast_dir)
        .unwrap()
        .write_recoded(&recoded, CodecProfile::Compact)
        .unwrap();
    for name in common::walk(&compact_dir) {
        let rel = name.strip_prefix(&compact_dir).unwrap();
        assert_eq!(
            std::fs::read(&name).unwrap(),
            std::fs::read(recoded.join(rel)).unwrap(),
            "{}",
            rel.display()
        );
    }
}

#[test]
fn a_color_map_no_recipe_paints_is_stored() {
    let fast = World::open(common::world_dir()).unwrap();
    let loc = sorted_locations(&fast)[10];
    let mut region = fast.read_region(loc).unwrap();
    region.color.as_mut().unwrap()[7][0] ^= 1; // an edited map, as an import might bring
    let recipe = fast.tint_recipe().unwrap();
    let file = encode_region_derived(&region, CodecProfile::Compact, Some(&recipe));
    let header = read_header(&file).unwrap();
    let color = header
        .layers
        .iter()
        .find(|l| l.kind == LayerKind::Color)
        .unwrap();
    assert_eq!(color.codec, Codec::Lz4);
    assert_eq!(decode_region(&file, Some(loc)).unwrap(), region);
    // Version 1: readers that predate derived layers still read it.
    assert_eq!(u16::from_le_bytes([file[4], file[5]]), 1);
}

/// A small baked-looking region and its recipe: the color map painted from the biomes.
fn derived_region() -> (Region, Vec<u8>) {
    let n = 16usize;
    let recipe = TintRecipe {
        seed: 0x5eed,
        palette: (0..17u8).map(|i| [i * 9, 200 - i * 5, 40 + i]).collect(),
    };
    let biome: Vec<u8> = (0..n * n).map(|i| ((i / 5) % 17) as u8).collect();
    let mut color = vec![0u8; 4 * n * n];
    let loc = RegionLocation::new(-3, 2);
    recipe.paint(loc, n as u32, &biome, &mut color).unwrap();
    let region = Region {
        location: loc,
        size: n as u32,
        height: (0..n * n).map(|i| (i % 23) as f32 * 0.25 - 3.0).collect(),
        control: Some((0..n * n).map(|i| (i as u32 % 7) << 27).collect()),
        color: Some(
            color
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect(),
        ),
        biome: Some(biome.into()),
        lake: Some((0..n * n).map(|i| (i / 90) as u16).collect()),
        mips: Vec::new(),
    };
    let file = encode_region_derived(&region, CodecProfile::Compact, Some(&recipe));
    assert_eq!(
        u16::from_le_bytes([file[4], file[5]]),
        2,
        "a derived layer: version 2"
    );
    (region, file)
}

#[test]
fn every_flipped_byte_and_truncation_of_a_compact_region_is_caught() {
    let (region, file) = derived_region();
    assert_eq!(decode_region(&file, Some(region.location)).unwrap(), region);
    for at in 0..file.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut bad = file.clone();
            bad[at] ^= mask;
            assert!(
                decode_region(&bad, None).is_err(),
                "flipping byte {at} with {mask:#04x} went unnoticed"
            );
        }
    }
    for len in 0..file.len() {
        assert!(decode_region(&file[..len], None).is_err(), "cut at {len}");
    }
}

/// A region file with these layers and stored bytes, checksums right: what a writer with a
/// bug (or an attacker) could produce.
fn region_file(version: u16, size: u32, layers: &[(LayerKind, Codec, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"RLRG".to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(layers.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0; 8]); // location (0, 0)
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for (kind, codec, stored) in layers {
        out.extend_from_slice(&[*kind as u8, *codec as u8, 0, 0]);
        out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(stored).to_le_bytes());
    }
    let mut h = crc32fast::Hasher::new();
    h.update(&out[..20]);
    h.update(&out[24..]);
    let crc = h.finalize();
    out[20..24].copy_from_slice(&crc.to_le_bytes());
    for (_, _, stored) in layers {
        out.extend_from_slice(stored);
    }
    out
}

#[test]
fn a_derived_layer_must_be_a_version_2_color_layer_with_biomes_in_its_palette() {
    let size = 4u32;
    let height = vec![0u8; 64];
    let recipe = |palette: usize| {
        TintRecipe {
            seed: 1,
            palette: vec![[1, 2, 3]; palette],
        }
        .to_bytes()
    };
    let corrupt = |file: Vec<u8>, says: &str| match decode_region(&file, None) {
        Err(FormatError::Corrupt(why)) => assert!(why.contains(says), "{why}"),
        other => panic!("expected a corrupt-file error about {says}, got {other:?}"),
    };
    let h = (LayerKind::Height, Codec::Raw, height.clone());
    let biome = |id: u8| (LayerKind::Biome, Codec::Raw, vec![id; 16]);
    let derived = |palette| (LayerKind::Color, Codec::DerivedTint, recipe(palette));
    // The good file, then one wrong thing at a time.
    let good = region_file(2, size, &[h.clone(), derived(3), biome(2)]);
    assert!(decode_region(&good, None).unwrap().color.is_some());
    corrupt(
        region_file(1, size, &[h.clone(), derived(3), biome(2)]),
        "cannot be derived",
    );
    corrupt(
        region_file(
            2,
            size,
            &[
                h.clone(),
                (LayerKind::Control, Codec::DerivedTint, recipe(3)),
            ],
        ),
        "cannot be derived",
    );
    corrupt(
        region_file(2, size, &[h.clone(), derived(3)]),
        "needs a biome layer",
    );
    corrupt(
        region_file(2, size, &[h.clone(), derived(2), biome(2)]),
        "beyond the palette",
    );
    let mut bad_version = recipe(3);
    bad_version[0] = 1;
    corrupt(
        region_file(
            2,
            size,
            &[
                h.clone(),
                (LayerKind::Color, Codec::DerivedTint, bad_version),
                biome(0),
            ],
        ),
        "recipe version 1",
    );
    // A version this build does not know is named as such.
    assert!(matches!(
        decode_region(&region_file(3, size, &[h]), None),
        Err(FormatError::UnsupportedVersion {
            found: 3,
            supported: 2,
            ..
        })
    ));
}

/// Runs `relief pack [args] WORLD OUT`; returns what it printed.
fn pack(args: &[&str], out: &std::path::Path) -> String {
    let run = Command::new(common::relief_exe())
        .arg("pack")
        .args(args)
        .arg(common::world_dir())
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[test]
fn relief_pack_ships_the_compact_profile_unless_told_as_is() {
    let compact = common::scratch("compact-cli").with_extension("rlpack");
    let said = pack(&[], &compact);
    assert!(said.contains("compact profile"), "{said}");
    let as_is = common::scratch("as-is-cli").with_extension("rlpack");
    pack(&["--profile", "as-is"], &as_is);
    let (small, big) = (
        std::fs::metadata(&compact).unwrap().len(),
        std::fs::metadata(&as_is).unwrap().len(),
    );
    assert!(big as f64 / small as f64 >= 4.5, "{big} vs {small} bytes");
    let (a, b) = (World::open(&compact).unwrap(), World::open(&as_is).unwrap());
    for loc in sorted_locations(&b).into_iter().step_by(9) {
        assert_eq!(a.read_region(loc).unwrap(), b.read_region(loc).unwrap());
    }
    // No scratch directory is left beside the pack.
    assert!(!compact.with_extension("recode-tmp").exists());
}
