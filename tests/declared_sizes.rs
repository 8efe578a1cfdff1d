//! Sizes a file, a header or a source declares never size an allocation (src/bounds.rs): each
//! hostile input here is refused with a typed error, and the largest single allocation the
//! process asked for while refusing it is measured by a global allocator that records it.
//! Without the bounds these inputs asked for a terabyte (an abort) or tens of gigabytes.

mod common;

use common::largest::{alone, largest_during};
use relief::io::ReadAt;
use relief::planet::format::{
    Header, FIELD_BYTES, HEADER_BYTES, INDEX_ENTRY_BYTES, MAX_TABLE_BYTES, SECTION_BYTES,
};
use relief::planet::Planet;
use relief::FormatError;

#[global_allocator]
static GLOBAL: common::largest::Largest = common::largest::Largest;

/// What a refused input may cost: the bounds' read step (8 MiB) and a little more. The
/// hostile inputs below declared 16 GiB to 1 TiB.
const REFUSAL_COST: usize = 24 << 20;

/// Bytes held in memory that claim to be `claimed` long (a server's Content-Range, a
/// caller's length): reads past what is held fail, as a lying server's would.
struct Claims {
    held: Vec<u8>,
    claimed: u64,
}

impl ReadAt for Claims {
    fn length(&self) -> u64 {
        self.claimed
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let end = offset + out.len() as u64;
        if end > self.held.len() as u64 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the source holds no more",
            ));
        }
        out.copy_from_slice(&self.held[offset as usize..end as usize]);
        Ok(())
    }
}

const TIB: u64 = 1 << 40;

/// A small real planet's bytes.
fn planet_bytes() -> Vec<u8> {
    let path = common::scratch("declared-planet").with_extension("plnt");
    common::planets::write_planet(&path, 10_000.0, 64, 16, |_| 0.0);
    std::fs::read(path).unwrap()
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
fn reseal_header(b: &mut [u8]) {
    let crc = crc32fast::hash(&b[..124]);
    put_u32(b, 124, crc);
}

fn open_claimed(held: Vec<u8>, claimed: u64) -> Result<Planet, FormatError> {
    Planet::open_bytes("hostile.plnt", Box::new(Claims { held, claimed }))
}

/// A header claiming a 1 TiB file whose data starts just before its end: the tables were
/// read up to the data's offset, a terabyte.
#[test]
fn a_planet_whose_data_starts_a_terabyte_in_is_refused_cheaply() {
    let _one = alone();
    let mut b = planet_bytes();
    put_u64(&mut b, 104, TIB - 16); // data offset
    put_u64(&mut b, 112, TIB); // file length
    reseal_header(&mut b);
    let (r, largest) = largest_during(|| open_claimed(b, TIB));
    println!("a 1 TiB data offset: largest allocation {largest} bytes");
    let Err(e) = r else { panic!("opened") };
    assert!(
        largest < REFUSAL_COST,
        "{e}: asked for {largest} bytes at once"
    );
    assert!(
        matches!(e, FormatError::TooLarge { .. } | FormatError::Corrupt(_)),
        "{e}"
    );
}

/// A 128-byte header that passes every check of the layout but declares 64 fields of tiles
/// of 8² over faces of 16,384²: a 25.8 GB index.
#[test]
fn a_header_declaring_a_25_gb_index_is_refused_before_reading_it() {
    let _one = alone();
    let mut b = planet_bytes()[..HEADER_BYTES].to_vec();
    let (fields, sections) = (64u64, 0u64);
    put_u32(&mut b, 24, 16_384); // face resolution
    put_u32(&mut b, 28, 8); // tile size
    put_u32(&mut b, 36, fields as u32);
    put_u32(&mut b, 76, sections as u32);
    let index_offset = HEADER_BYTES as u64 + fields * FIELD_BYTES as u64 + 4;
    let tiles = 6 * (16_384u64 / 8).pow(2);
    let index_bytes = fields * tiles * INDEX_ENTRY_BYTES as u64 + 4;
    let sections_offset = index_offset + index_bytes;
    let data_offset = sections_offset + sections * SECTION_BYTES as u64 + 4;
    put_u64(&mut b, 88, index_offset);
    put_u64(&mut b, 96, sections_offset);
    put_u64(&mut b, 104, data_offset);
    put_u64(&mut b, 112, TIB);
    reseal_header(&mut b);
    assert!(index_bytes > 25_000_000_000);
    let (r, largest) = largest_during(|| Header::decode(&b, TIB));
    match r {
        Err(FormatError::TooLarge {
            declared, limit, ..
        }) => {
            assert!(
                declared > 25_000_000_000 && limit == MAX_TABLE_BYTES,
                "{declared} {limit}"
            )
        }
        other => panic!("{other:?}"),
    }
    let (r, largest_open) = largest_during(|| open_claimed(b, TIB));
    println!("a 25.8 GB index: largest allocation {largest_open} bytes");
    assert!(matches!(r, Err(FormatError::TooLarge { .. })));
    assert!(
        largest.max(largest_open) < REFUSAL_COST,
        "asked for {largest_open} bytes at once"
    );
}

/// Index entries of a real planet rewritten to claim 4 GiB each, inside a file that claims a
/// terabyte: each tile's read sized its buffer by its entry (24 GB resident in seconds).
#[test]
fn tiles_claiming_more_than_their_codec_can_store_are_refused_at_open() {
    let _one = alone();
    let mut b = planet_bytes();
    let h = Header::decode(&b, b.len() as u64).unwrap();
    put_u64(&mut b, 112, TIB);
    reseal_header(&mut b);
    let (at, end) = (h.index_offset as usize, h.sections_offset as usize - 4);
    for e in b[at..end].chunks_exact_mut(INDEX_ENTRY_BYTES) {
        e[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    }
    let crc = crc32fast::hash(&b[at..end]);
    put_u32(&mut b, end, crc);
    let (r, largest) = largest_during(|| open_claimed(b, TIB));
    println!("4 GiB tile entries: largest allocation {largest} bytes");
    match r {
        Err(FormatError::TooLarge {
            what,
            declared,
            limit,
        }) => {
            assert_eq!(declared, u32::MAX as u64);
            // A 16² f32 height tile: 1,024 bytes, at most 1,044 stored by LZ4.
            assert!(limit < 2048, "{what}: limit {limit}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(largest < REFUSAL_COST, "asked for {largest} bytes at once");
}

/// The same planet, honest, opens through the same source: the bounds refuse only lies.
#[test]
fn an_honest_planet_opens_through_a_claiming_source() {
    let _one = alone();
    let b = planet_bytes();
    let len = b.len() as u64;
    let planet = open_claimed(b, len).unwrap();
    assert!(planet.radius() > 0.0);
}
