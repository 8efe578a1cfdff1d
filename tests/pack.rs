//! Packs: a world's files in one, opened by path, from memory, or through a reader, with the
//! same answers as the directory; every damaged index is a typed error.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use relief::flat::{FormatError, ReadAt, World};

/// The test world packed once per test binary (tests run in parallel), and its bytes.
fn packed() -> (PathBuf, Vec<u8>) {
    static PACK: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    PACK.get_or_init(|| {
        let out = common::scratch("pack").with_extension("rlpack");
        let dir = World::open(common::world_dir()).unwrap();
        let len = dir.write_pack(&out).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes.len() as u64, len);
        (out, bytes)
    })
    .clone()
}

/// A caller's reader, standing in for an engine's file API: it serves at most 64 KiB per
/// call, as a chunked platform API might, and relief must still get every byte right.
struct Chunky(Vec<u8>);
impl ReadAt for Chunky {
    fn length(&self) -> u64 {
        self.0.len() as u64
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        for (i, piece) in out.chunks_mut(64 << 10).enumerate() {
            self.0.read_at(offset + (i as u64) * (64 << 10), piece)?;
        }
        Ok(())
    }
}

#[test]
fn a_pack_answers_like_its_directory_by_path_memory_and_reader() {
    let (path, bytes) = packed();
    let dir = World::open(common::world_dir()).unwrap();
    let by_path = World::open(&path).unwrap();
    let in_memory = World::open_pack("<memory>", Box::new(bytes.clone())).unwrap();
    let reader = World::open_pack("<reader>", Box::new(Chunky(bytes))).unwrap();
    let mut locs: Vec<_> = dir.region_locations().collect();
    locs.sort_by_key(|l| (l.x, l.z));
    assert!(locs.len() > 4);
    for w in [&by_path, &in_memory, &reader] {
        assert_eq!(w.manifest(), dir.manifest());
        assert_eq!(w.reaches().len(), dir.reaches().len());
        let mut theirs: Vec<_> = w.region_locations().collect();
        theirs.sort_by_key(|l| (l.x, l.z));
        assert_eq!(theirs, locs);
        for &loc in locs.iter().step_by(7) {
            assert_eq!(w.read_region(loc).unwrap(), dir.read_region(loc).unwrap());
        }
    }
    assert_eq!(reader.verify().unwrap(), locs.len());
    assert!(reader
        .region_path(locs[0])
        .to_string_lossy()
        .starts_with("<reader>!regions/"));
}

fn reseal(bytes: &mut [u8]) {
    // Recompute the index CRC so a test reaches the check after it.
    let index_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    if 20 + index_len > bytes.len() {
        return;
    }
    let crc = crc32fast::hash(&bytes[..16 + index_len]);
    bytes[16 + index_len..20 + index_len].copy_from_slice(&crc.to_le_bytes());
}

fn open(bytes: Vec<u8>) -> Result<World, FormatError> {
    World::open_pack("<test>", Box::new(bytes))
}

#[test]
fn damaged_pack_headers_and_indexes_are_typed_errors() {
    let (_, good) = packed();
    let mut b = good.clone();
    b[0] = b'X';
    assert!(matches!(open(b), Err(FormatError::BadMagic { .. })));
    let mut b = good.clone();
    b[4] = 9;
    assert!(matches!(
        open(b),
        Err(FormatError::UnsupportedVersion {
            what: "pack",
            found: 9,
            ..
        })
    ));
    let mut b = good.clone();
    b[20] ^= 1;
    assert!(matches!(open(b), Err(FormatError::Checksum { .. })));
    for cut in [0, 3, 15, 17, 100, good.len() / 2, good.len() - 1] {
        assert!(open(good[..cut].to_vec()).is_err(), "cut at {cut}");
    }
    // The first entry is world.json: its offset field starts after the u16 length and name.
    let at = 16 + 2 + "world.json".len();
    let mut b = good.clone();
    b[at..at + 8].copy_from_slice(&(good.len() as u64 - 4).to_le_bytes());
    reseal(&mut b);
    let e = open(b).expect_err("an entry past the end is refused");
    assert!(e.to_string().contains("outside the pack"), "{e}");
    // An entry inside the pack but at the wrong bytes: the manifest's CRC catches it.
    let mut b = good.clone();
    b[at + 8..at + 16].copy_from_slice(&3u64.to_le_bytes());
    reseal(&mut b);
    assert!(open(b).is_err());
    // One more file than the index holds.
    let mut b = good.clone();
    b[8] += 1;
    reseal(&mut b);
    assert!(matches!(open(b), Err(FormatError::Corrupt(_))));
}

#[test]
fn a_damaged_region_in_a_pack_fails_alone() {
    let (_, mut bytes) = packed();
    let w = open(bytes.clone()).unwrap();
    let loc = w.region_locations().next().unwrap();
    let name = relief::flat::Manifest::region_path(loc);
    let at = bytes
        .windows(name.len())
        .position(|win| win == name.as_bytes())
        .unwrap()
        + name.len();
    let offset = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    bytes[offset + 200] ^= 0x10;
    let w = open(bytes).unwrap();
    assert!(w.read_region(loc).is_err());
    let other = w.region_locations().find(|&l| l != loc).unwrap();
    assert!(w.read_region(other).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whatever the index says, opening never panics and never reads outside the bytes.
    #[test]
    fn any_resealed_index_opens_or_errs(
        flips in proptest::collection::vec((0usize..2048, any::<u8>()), 1..8)
    ) {
        static GOOD: OnceLock<Vec<u8>> = OnceLock::new();
        let good = GOOD.get_or_init(|| packed().1);
        let index_end = 16 + u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
        let mut b = good.clone();
        for (at, v) in flips {
            let at = 8 + at % (index_end - 8);
            b[at] = v;
        }
        reseal(&mut b);
        let _ = open(b);
    }
}
