//! Where a tile's fields lie in a PLNT blob and how many reads a tile takes: relief writes a
//! tile's fields back to back, so a tile is one read (over HTTP, one request); a blob laid out
//! field-major (as bakes before this layout wrote) reads the same, one read per field.

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use relief::flat::FormatError;
use relief::io::ReadAt;
use relief::planet::format::{encode_index, TileEntry};
use relief::planet::{Blob, Planet, TileKey};
use relief_tools::bake::planet::bake_planet;
use relief_tools::Silent;

fn baked() -> &'static PathBuf {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let out = common::scratch("planet-layout").with_extension("plnt");
        bake_planet(&common::small_planet("layout"), &out, &Silent).expect("bake");
        out
    })
}

/// A blob in memory that counts its reads, remote or not.
struct Counted {
    bytes: Vec<u8>,
    reads: AtomicUsize,
    remote: bool,
}

impl ReadAt for Counted {
    fn length(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.bytes.read_at(offset, out)
    }
    fn is_remote(&self) -> bool {
        self.remote
    }
}

/// Opens `bytes` as a planet; the count of reads made after opening is `reads()`.
fn counted(bytes: Vec<u8>, remote: bool) -> (Planet, impl Fn() -> usize) {
    let reader = std::sync::Arc::new(Counted {
        bytes,
        reads: AtomicUsize::new(0),
        remote,
    });
    struct Shared(std::sync::Arc<Counted>);
    impl ReadAt for Shared {
        fn length(&self) -> u64 {
            self.0.length()
        }
        fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
            self.0.read_at(offset, out)
        }
        fn is_remote(&self) -> bool {
            self.0.remote
        }
    }
    let planet = Planet::open_bytes("<counted>", Box::new(Shared(reader.clone()))).unwrap();
    let at_open = reader.reads.load(Ordering::Relaxed);
    (planet, move || {
        reader.reads.load(Ordering::Relaxed) - at_open
    })
}

fn all_keys(blob: &Blob) -> Vec<TileKey> {
    let n = blob.header().tiles_per_side() as u16;
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

/// The same blob with its tiles rewritten field-major (every tile of field 0, then field 1,
/// …) and its index to match: the layout bakes wrote before tiles were kept together.
fn field_major(path: &PathBuf) -> Vec<u8> {
    let blob = Blob::open(path).unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    let h = blob.header().clone();
    let mut at = h.data_offset;
    let mut index = Vec::new();
    for f in 0..blob.fields().len() {
        for key in all_keys(&blob) {
            let stored = blob.read_stored(f, key).unwrap();
            let e = blob.entry(f, key).unwrap();
            bytes[at as usize..][..stored.len()].copy_from_slice(&stored);
            index.push(TileEntry { offset: at, ..e });
            at += stored.len() as u64;
        }
    }
    let table = encode_index(&index);
    bytes[h.index_offset as usize..][..table.len()].copy_from_slice(&table);
    bytes
}

#[test]
fn a_tiles_fields_lie_back_to_back_and_read_in_one_read() {
    let bytes = std::fs::read(baked()).unwrap();
    let blob = Blob::open(baked()).unwrap();
    let fields: Vec<usize> = (0..blob.fields().len()).collect();
    for remote in [false, true] {
        let (planet, reads) = counted(bytes.clone(), remote);
        for (k, key) in all_keys(&blob).into_iter().enumerate() {
            let span = blob
                .span(key, &fields)
                .expect("a tile's fields lie together");
            let stored: usize = fields
                .iter()
                .map(|&f| blob.entry(f, key).unwrap().length as usize)
                .sum();
            assert_eq!(span.length, stored, "{key:?}: no gap between its fields");

            let tile = planet.read_tile(key).unwrap();
            assert_eq!(reads(), 2 * k + 1, "{key:?}: one read for the whole tile");
            let heights = planet.read_heights(key).unwrap();
            assert_eq!(reads(), 2 * k + 2, "{key:?}: one read for its heights");
            assert_eq!(heights, tile.height);
        }
    }
}

#[test]
fn a_field_major_blob_reads_the_same_one_read_per_field() {
    let tile_major = Planet::open(baked()).unwrap();
    let fields: Vec<usize> = (0..tile_major.blob().fields().len()).collect();
    let keys = all_keys(tile_major.blob());
    for remote in [false, true] {
        let (planet, reads) = counted(field_major(baked()), remote);
        for (k, &key) in keys.iter().enumerate() {
            assert!(planet.blob().span(key, &fields).is_none(), "{key:?}");
            let tile = planet.read_tile(key).unwrap();
            assert_eq!(tile, tile_major.read_tile(key).unwrap(), "{key:?}");
            assert_eq!(reads(), (fields.len() + 1) * k + fields.len());
            assert_eq!(planet.read_heights(key).unwrap(), tile.height);
            assert_eq!(reads(), (fields.len() + 1) * (k + 1), "heights: one read");
        }
    }
}

#[test]
fn a_damaged_field_inside_a_tile_read_whole_fails_that_tile_alone() {
    let mut bytes = std::fs::read(baked()).unwrap();
    let blob = Blob::open(baked()).unwrap();
    let keys = all_keys(&blob);
    let (hit, lake) = (keys[7], blob.field_index("lake").unwrap());
    let e = blob.entry(lake, hit).unwrap();
    bytes[(e.offset + e.length as u64 / 2) as usize] ^= 0x5a;
    let (planet, _) = counted(bytes, true);
    for key in keys {
        let read = planet.read_tile(key);
        if key == hit {
            assert!(
                matches!(read, Err(FormatError::Checksum { ref what, .. }) if what.contains("lake")),
                "{read:?}"
            );
            // Its heights are intact and still read.
            assert!(planet.read_heights(key).is_ok());
        } else {
            read.unwrap();
        }
    }
}
