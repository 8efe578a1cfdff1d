//! Terrain3D's region files: the demo region (1024², from Terrain3D's MIT demo, in
//! tests/fixtures/terrain3d-demo/) reads with the figures computed independently from its
//! decompressed bytes, and damaged files fail with typed errors.

use relief_tools::terrain3d::{RegionFile, ResError};

fn fixture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/terrain3d-demo/terrain3d_00_00.res"
    ))
    .unwrap()
}

#[test]
fn the_demo_region_reads_with_its_own_figures() {
    let file = RegionFile::parse(&fixture()).unwrap();
    let h = &file.resource.header;
    assert_eq!(
        (h.engine, h.format, h.class.as_str()),
        ((4, 2), 5, "Terrain3DRegion")
    );
    let r = file.region().unwrap();
    assert_eq!(r.region_size, 1024);
    assert_eq!(r.vertex_spacing, None, "the demo's files don't store it");
    assert!((r.version - 0.93).abs() < 1e-6);
    // Figures worked out from the fixture's decompressed stream by a separate script
    // (Python's struct and zstd CLI), not by relief's reader.
    let (min, max) = r
        .height
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
    assert_eq!((min, max), (-50.950928, 365.61664));
    let mean = r.height.iter().map(|&h| h as f64).sum::<f64>() / r.height.len() as f64;
    assert!((mean - 83.67837786232985).abs() < 1e-6, "{mean}");
    assert_eq!([r.height[0], r.height[512 * 1024 + 512]], [0.0, 228.94716]);
    assert_eq!(
        r.control.iter().filter(|&&w| w & 4 != 0).count(),
        905,
        "holes"
    );
    let base1 = r.control.iter().filter(|&&w| w >> 27 == 1).count();
    assert_eq!(base1, 17_310, "samples on base texture 1");
    let overlay1 = r.control.iter().filter(|&&w| (w >> 22) & 31 == 1).count();
    assert_eq!(overlay1, 842_282);
    assert_eq!(
        [r.control[0], r.control[512 * 1024 + 512]],
        [0x1, 0x40_0001]
    );
    assert_eq!(r.color[0], [0xfe, 0xfe, 0xfe, 0x7f]);
    assert_eq!(r.height_range, [-50.950927734375, 365.61663818359375]);
}

#[test]
fn a_truncated_or_damaged_region_file_is_a_typed_error() {
    let bytes = fixture();
    for cut in [
        0,
        3,
        4,
        15,
        16,
        100,
        20_000,
        bytes.len() / 2,
        bytes.len() - 5,
    ] {
        let e = RegionFile::parse(&bytes[..cut]).err().expect("truncated");
        assert!(
            matches!(
                e,
                ResError::Truncated { .. } | ResError::Corrupt { .. } | ResError::BadMagic { .. }
            ),
            "cut at {cut}: {e}"
        );
    }
    let mut other = bytes.clone();
    other[4] = 3;
    assert!(matches!(
        RegionFile::parse(&other),
        Err(ResError::UnsupportedCompression(3))
    ));
}

/// The demo's decompressed stream with `patch` applied at byte `at`, parsed.
fn patched(at: usize, patch: &[u8]) -> Result<relief_tools::terrain3d::binres::Resource, ResError> {
    let mut stream = relief_tools::terrain3d::container::decompress(&fixture()).unwrap();
    stream[at..at + patch.len()].copy_from_slice(patch);
    relief_tools::terrain3d::binres::parse(&stream)
}

#[test]
fn lengths_counts_offsets_and_types_from_the_file_are_checked_before_use() {
    // Offsets in the demo's stream, read off its layout (header 0x00–0x67, string table at
    // 0x68, internal resources from 0x11c, the height Image's body at 0x1b0).
    let huge = u32::MAX.to_le_bytes();
    let e = patched(0x68, &huge).unwrap_err();
    assert!(e.to_string().contains("string table"), "{e}");
    let e = patched(0x14, &huge).unwrap_err(); // the class name's length
    assert!(matches!(e, ResError::Corrupt { .. }), "{e}");
    let e = patched(0x138, &u64::MAX.to_le_bytes()).unwrap_err(); // an internal offset
    assert!(e.to_string().contains("offset past the end"), "{e}");
    let e = patched(0x1c2, &99u32.to_le_bytes()).unwrap_err(); // the data property's type
    assert!(
        matches!(e, ResError::UnsupportedVariant { tag: 99, .. }),
        "{e}"
    );
    let e = patched(0x10, &9u32.to_le_bytes()).unwrap_err(); // format version
    assert!(matches!(e, ResError::Unsupported(_)), "{e}");
    let e = patched(0x0, &1u32.to_le_bytes()).unwrap_err(); // big-endian
    assert!(matches!(e, ResError::Unsupported(_)), "{e}");
    // A region whose map is the wrong size reads as a resource but not as a region.
    let file = relief_tools::terrain3d::RegionFile {
        resource: patched(0x1dc, &512u32.to_le_bytes()).unwrap(), // the height Image's width
    };
    let e = file.region().unwrap_err();
    assert!(e.to_string().contains("512×1024"), "{e}");
}

#[test]
fn the_demo_stream_written_back_is_byte_for_byte_what_terrain3d_wrote() {
    let stream = relief_tools::terrain3d::container::decompress(&fixture()).unwrap();
    let parsed = relief_tools::terrain3d::binres::parse(&stream).unwrap();
    let again = relief_tools::terrain3d::binres::write(&parsed, false);
    assert_eq!(again.len(), stream.len());
    let first = again.iter().zip(&stream).position(|(a, b)| a != b);
    assert_eq!(first, None, "first difference at byte {first:?}");
}

#[test]
fn the_demo_region_rebuilt_by_relief_has_terrain3ds_own_structure() {
    let stream = relief_tools::terrain3d::container::decompress(&fixture()).unwrap();
    let theirs = relief_tools::terrain3d::binres::parse(&stream).unwrap();
    let region = RegionFile {
        resource: theirs.clone(),
    }
    .region()
    .unwrap();
    // The color chain after the first level, as the demo stores it.
    let Some(relief_tools::terrain3d::binres::Variant::Bytes(chain)) = theirs.bodies[2]
        .get("data")
        .and_then(|d| d.get("data"))
        .cloned()
    else {
        panic!("the demo's color map has bytes")
    };
    let mips = &chain[4 * 1024 * 1024..];
    let ours = region.to_resource(mips, &theirs.bodies[3].path, theirs.header.uid);
    // Everything but the sub-resources' generated names is Terrain3D's file, byte for byte.
    let mut renamed = ours.clone();
    for (k, b) in renamed.bodies.iter_mut().enumerate().take(3) {
        b.path = theirs.bodies[k].path.clone();
    }
    assert_eq!(renamed, theirs);
    let written = relief_tools::terrain3d::binres::write(&renamed, false);
    assert_eq!(written, stream, "byte for byte");
    // And read back through the container, the region is the same region.
    let file = relief_tools::terrain3d::container::compress(
        &relief_tools::terrain3d::binres::write(&ours, false),
        3,
    )
    .unwrap();
    assert_eq!(RegionFile::parse(&file).unwrap().region().unwrap(), region);
}
