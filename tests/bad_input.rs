//! Every corruption is a typed error, never a panic or a wrong answer.

mod common;

use proptest::prelude::*;
use relief::codec::Codec;
use relief::flat::region::{decode_region, LayerKind, Region};
use relief::flat::region_writer::{encode_region, encode_region_with, CodecProfile};
use relief::flat::{FormatError, Manifest, RegionLocation, World};

fn small_region(size: u32) -> Region {
    let n = (size * size) as usize;
    Region {
        location: RegionLocation::new(-3, 2),
        size,
        height: (0..n)
            .map(|i| 100.0 + (i as f32 * 0.37).sin() * 20.0)
            .collect(),
        control: Some(
            (0..n as u32)
                .map(|i| i.wrapping_mul(2_654_435_761))
                .collect(),
        ),
        color: Some((0..n).map(|i| [i as u8, (i / 3) as u8, 200, 128]).collect()),
        biome: Some((0..n).map(|i| (i % 17) as u8).collect()),
        lake: Some((0..n).map(|i| (i / 50) as u16).collect()),
        mips: Vec::new(),
    }
}

#[test]
fn every_flipped_byte_in_a_region_file_is_caught() {
    let bytes = encode_region(&small_region(32), CodecProfile::Small);
    for at in 0..bytes.len() {
        for mask in [0x01u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[at] ^= mask;
            assert!(
                decode_region(&bad, None).is_err(),
                "flipping byte {at} with {mask:#04x} went unnoticed"
            );
        }
    }
}

#[test]
fn every_truncation_of_a_region_file_is_caught() {
    let bytes = encode_region(&small_region(32), CodecProfile::Small);
    for len in 0..bytes.len() {
        let err = decode_region(&bytes[..len], None).expect_err("truncated file decoded");
        assert!(
            matches!(
                err,
                FormatError::Truncated { .. }
                    | FormatError::BadMagic { .. }
                    | FormatError::Checksum { .. }
            ),
            "truncation to {len}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        decode_region(&longer, None),
        Err(FormatError::TrailingBytes { extra: 1 })
    ));
}

#[test]
fn wrong_magic_version_and_location_are_named() {
    let bytes = encode_region(&small_region(16), CodecProfile::Small);
    let mut magic = bytes.clone();
    magic[..4].copy_from_slice(b"RSCC");
    assert!(matches!(
        decode_region(&magic, None),
        Err(FormatError::BadMagic { .. })
    ));
    let mut version = bytes.clone();
    version[4] = 9;
    assert!(matches!(
        decode_region(&version, None),
        Err(FormatError::UnsupportedVersion {
            found: 9,
            supported: 2,
            ..
        })
    ));
    assert!(matches!(
        decode_region(&bytes, Some(RegionLocation::new(0, 0))),
        Err(FormatError::WrongLocation {
            want_x: 0,
            want_z: 0,
            found_x: -3,
            found_z: 2
        })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn regions_roundtrip_with_any_layer_set_and_codec(
        log_size in 1u32..6,
        layers in proptest::sample::subsequence(vec![LayerKind::Control, LayerKind::Color, LayerKind::Biome, LayerKind::Lake], 0..=4),
        codec_pick in proptest::collection::vec(0usize..4, 5),
        seed in any::<u32>(),
    ) {
        let size = 1 << log_size;
        let mut r = small_region(size);
        r.height.iter_mut().enumerate().for_each(|(i, h)| *h += (seed as f32) * 1e-3 + i as f32);
        if !layers.contains(&LayerKind::Control) { r.control = None; }
        if !layers.contains(&LayerKind::Color) { r.color = None; }
        if !layers.contains(&LayerKind::Biome) { r.biome = None; }
        if !layers.contains(&LayerKind::Lake) { r.lake = None; }
        let with: Vec<(LayerKind, Codec)> = r.layers().into_iter().zip(&codec_pick).map(|(k, &c)| {
            let codec = Codec::ALL[c];
            (k, if codec.supports(k.elem_size()) { codec } else { Codec::ShuffleLz4 })
        }).collect();
        let bytes = encode_region_with(&r, &with);
        prop_assert_eq!(decode_region(&bytes, Some(r.location)).unwrap(), r);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode_region(&bytes, None);
        let mut framed = b"RLRG\x01\x00".to_vec();
        framed.extend_from_slice(&bytes);
        let _ = decode_region(&framed, None);
    }
}

fn rewrite_manifest(dir: &std::path::Path, f: impl FnOnce(&mut Manifest)) {
    let path = dir.join("world.json");
    let mut m: Manifest = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    f(&mut m);
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

#[test]
fn a_missing_region_is_named_at_open_and_at_read() {
    let dir = common::copy_world("missing");
    let loc = RegionLocation::new(0, 0);
    let w = World::open(&dir).unwrap();
    std::fs::remove_file(dir.join(Manifest::region_path(loc))).unwrap();
    assert!(matches!(
        w.read_region(loc),
        Err(FormatError::Missing { .. })
    ));
    assert!(
        w.read_region(RegionLocation::new(1, 1)).is_ok(),
        "other regions still read"
    );
    assert!(matches!(
        w.read_region(RegionLocation::new(99, 0)),
        Err(FormatError::NoSuchRegion { x: 99, z: 0 })
    ));
    assert!(matches!(
        World::open(&dir),
        Err(FormatError::Missing { .. })
    ));
}

#[test]
fn a_region_file_that_does_not_match_the_manifest_is_caught() {
    let dir = common::copy_world("mismatch");
    let (a, b) = (RegionLocation::new(0, 0), RegionLocation::new(1, 0));
    let (pa, pb) = (
        dir.join(Manifest::region_path(a)),
        dir.join(Manifest::region_path(b)),
    );
    // Same length, different content: a bit flipped in place.
    let mut bytes = std::fs::read(&pa).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&pa, &bytes).unwrap();
    let w = World::open(&dir).unwrap();
    assert!(matches!(
        w.read_region(a),
        Err(FormatError::Checksum { .. })
    ));
    // An intact file that is not the one the manifest recorded.
    std::fs::copy(common::world_dir().join(Manifest::region_path(a)), &pa).unwrap();
    rewrite_manifest(&dir, |m| {
        m.files.get_mut(&Manifest::region_path(a)).unwrap().crc32 ^= 1
    });
    let w = World::open(&dir).unwrap();
    assert!(matches!(
        w.read_region(a),
        Err(FormatError::ManifestMismatch { .. })
    ));
    // A valid region under the wrong name, even with the manifest updated to match it.
    std::fs::copy(&pb, &pa).unwrap();
    let entry = relief::flat::FileEntry::of(&std::fs::read(&pa).unwrap());
    rewrite_manifest(&dir, |m| {
        m.files.insert(Manifest::region_path(a), entry);
    });
    let w = World::open(&dir).unwrap();
    assert!(matches!(
        w.read_region(a),
        Err(FormatError::WrongLocation { .. })
    ));
    // A truncated file changes its length: caught when the world opens.
    std::fs::write(&pa, &bytes[..100]).unwrap();
    assert!(matches!(
        World::open(&dir),
        Err(FormatError::ManifestMismatch { .. })
    ));
}

#[test]
fn a_bad_manifest_is_a_clear_error() {
    let dir = common::copy_world("bad-manifest");
    rewrite_manifest(&dir, |m| m.region_size = 500);
    assert!(
        matches!(World::open(&dir), Err(FormatError::Manifest(msg)) if msg.contains("power of two"))
    );
    rewrite_manifest(&dir, |m| {
        m.region_size = 256;
        m.format_version = 7;
    });
    assert!(matches!(
        World::open(&dir),
        Err(FormatError::UnsupportedVersion { found: 7, .. })
    ));
    rewrite_manifest(&dir, |m| {
        m.format_version = 1;
        m.layers.push("mystery".into());
    });
    assert!(
        matches!(World::open(&dir), Err(FormatError::Manifest(msg)) if msg.contains("mystery"))
    );
    std::fs::write(dir.join("world.json"), b"{ not json").unwrap();
    assert!(matches!(World::open(&dir), Err(FormatError::Json { .. })));
    std::fs::remove_file(dir.join("world.json")).unwrap();
    assert!(matches!(
        World::open(&dir),
        Err(FormatError::Missing { .. })
    ));
}

#[test]
fn damaged_tables_and_overview_are_caught_at_open() {
    for name in ["rivers.json", "lakes.json", "biomes.json", "overview.rlo"] {
        let dir = common::copy_world(&format!("bad-{name}"));
        let path = dir.join(name);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 2;
        bytes[last] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        assert!(
            matches!(World::open(&dir), Err(FormatError::ManifestMismatch { .. })),
            "{name}"
        );
    }
}

/// Rewrites a table through `f` and reseals its manifest entry, so only the table's meaning
/// is wrong: what a hostile (or buggy) tool could ship.
fn resealed_table<T: serde::Serialize + serde::de::DeserializeOwned>(
    name: &str,
    case: &str,
    f: impl FnOnce(&mut T),
) -> std::path::PathBuf {
    let dir = common::copy_world(&format!("table-{case}"));
    let path = dir.join(name);
    let mut table: T = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    f(&mut table);
    // JSON has no NaN or infinity, but a number past f32's range reads as infinity.
    let text = serde_json::to_string(&table).unwrap();
    let bytes = text.replace("3.4028235e+38", "1e39").into_bytes();
    std::fs::write(&path, &bytes).unwrap();
    rewrite_manifest(&dir, |m| {
        let e = m.files.get_mut(name).unwrap();
        e.bytes = bytes.len() as u64;
        e.crc32 = crc32fast::hash(&bytes);
    });
    dir
}

#[test]
fn tables_that_contradict_themselves_are_refused_at_open() {
    use relief::flat::tables::{LakesFile, RiversFile};
    use relief::flat::ReachEnd;
    // The untouched copy opens: the checks accept what the baker writes.
    let dir = resealed_table::<RiversFile>("rivers.json", "same", |_| {});
    World::open(&dir).unwrap();
    type Edit = Box<dyn FnOnce(&mut RiversFile)>;
    let rivers: [(&str, Edit); 5] = [
        ("id", Box::new(|r| r.reaches[3].id = 7)),
        // Reach 0 flowing into the last reach, which flows down to 0: a cycle.
        (
            "cycle",
            Box::new(|r| {
                let n = r.reaches.len() as u32 - 1;
                r.reaches[0].to = ReachEnd::Reach(n)
            }),
        ),
        (
            "dangling",
            Box::new(|r| r.reaches[1].from = ReachEnd::Reach(1 << 30)),
        ),
        ("lake", Box::new(|r| r.reaches[2].to = ReachEnd::Lake(0))),
        (
            "infinite",
            Box::new(|r| r.reaches[4].points[1][0] = f32::MAX),
        ),
    ];
    for (case, f) in rivers {
        let dir = resealed_table::<RiversFile>("rivers.json", case, f);
        match World::open(&dir) {
            Err(FormatError::Table {
                table: "rivers.json",
                problem,
            }) => {
                assert!(!problem.is_empty(), "{case}")
            }
            other => panic!("{case}: {:?}", other.map(|_| ())),
        }
    }
    let dir = resealed_table::<LakesFile>("lakes.json", "lake-id", |l| l.lakes[0].id = 9);
    assert!(matches!(
        World::open(&dir),
        Err(FormatError::Table {
            table: "lakes.json",
            ..
        })
    ));
}

/// Parameters that would make every planar loop unbounded are refused at open: a spacing of
/// a few atoms, bounds spanning the i32 range.
#[test]
fn manifests_past_the_documented_maxima_are_refused() {
    type Edit = fn(&mut Manifest);
    let edits: [(&str, Edit); 4] = [
        ("spacing-tiny", |m| m.vertex_spacing = 1e-300),
        ("spacing-huge", |m| m.vertex_spacing = 1e9),
        ("bounds-wide", |m| {
            m.region_bounds.min = [i32::MIN, i32::MIN];
            m.region_bounds.max = [i32::MAX, i32::MAX];
        }),
        ("bounds-far", |m| m.region_bounds.max[0] = 1 << 20),
    ];
    for (case, edit) in edits {
        let dir = common::copy_world(&format!("maxima-{case}"));
        rewrite_manifest(&dir, edit);
        assert!(
            matches!(World::open(&dir), Err(FormatError::Manifest(_))),
            "{case}"
        );
    }
}

/// A table that is (sparsely) 2 GiB, with a manifest that agrees, is refused by size before
/// anything reads or allocates it.
#[test]
fn a_file_too_large_to_read_whole_is_refused() {
    let dir = common::copy_world("sparse-table");
    let path = dir.join("lakes.json");
    let huge = 2u64 << 30;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(huge)
        .unwrap();
    rewrite_manifest(&dir, |m| {
        m.files.get_mut("lakes.json").unwrap().bytes = huge
    });
    match World::open(&dir) {
        Err(FormatError::TooLarge {
            what,
            declared,
            limit,
        }) => {
            assert!(what.ends_with("lakes.json"), "{what}");
            assert_eq!(
                (declared, limit),
                (huge, relief::flat::store::MAX_WHOLE_FILE)
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}
