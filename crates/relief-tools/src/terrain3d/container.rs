//! Godot's compressed file container, as Terrain3D's `.res` region files use it: magic
//! `RSCC`, a u32 compression mode (2 = zstd), a u32 block size, the u32 size of the whole
//! uncompressed stream, one u32 compressed size per block, the blocks, and `RSCC` again at
//! the end. Every block but the last holds `block size` bytes uncompressed; there are
//! `size / block size + 1` blocks, as Godot counts them, so the last may be empty.
//!
//! Read as untrusted input: the size table must fit the file, the blocks must add up to it,
//! each block must decompress to exactly its share, and nothing is allocated beyond what the
//! block count read from the file allows.

use super::ResError;

pub const MAGIC: &[u8; 4] = b"RSCC";
/// Godot's `Compression::Mode` numbers.
pub const MODE_ZSTD: u32 = 2;
/// The block size Godot writes (`FileAccessCompressed`'s default).
pub const BLOCK_SIZE: u32 = 4096;
/// Largest block size accepted: Godot's own is 4 KiB; anything far larger is a damaged file.
/// It also bounds how far one block's bytes can expand (a zstd frame of RLE blocks turns a
/// few bytes into a whole block of one value), so output grows only with real input.
const MAX_BLOCK_SIZE: u32 = 1 << 16;
/// Largest stream accepted: a 2048² region's three maps with the color mips are ~55 MiB.
pub const MAX_STREAM: u64 = 256 << 20;
/// The smallest zstd frame (magic, header, an empty block): a lower bound on a block's size,
/// so a file of n bytes can claim at most n / (4 + 9) blocks.
const MIN_FRAME: u64 = 9;

/// Whether `bytes` start like a compressed container.
pub fn is_compressed(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The uncompressed stream inside a compressed container.
pub fn decompress(bytes: &[u8]) -> Result<Vec<u8>, ResError> {
    let header = |at: usize| -> Result<u32, ResError> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
            .ok_or(ResError::Truncated {
                what: "container header",
                at: at as u64,
            })
    };
    if !is_compressed(bytes) {
        return Err(ResError::BadMagic {
            found: bytes.iter().take(4).copied().collect(),
        });
    }
    let mode = header(4)?;
    if mode != MODE_ZSTD {
        return Err(ResError::UnsupportedCompression(mode));
    }
    let block_size = header(8)?;
    let total = header(12)? as u64;
    if block_size == 0 || block_size > MAX_BLOCK_SIZE {
        return Err(ResError::Corrupt {
            at: 8,
            problem: format!("block size {block_size}"),
        });
    }
    // Godot's count: one block past the last whole one, so a stream that fills its blocks
    // exactly ends with an empty block.
    let blocks = total / block_size as u64 + 1;
    let table = 16u64;
    // Every block costs its table entry and a zstd frame: a count the file can't hold is a
    // damaged header, found before anything is allocated.
    if blocks * (4 + MIN_FRAME) > (bytes.len() as u64).saturating_sub(table) {
        return Err(ResError::Corrupt {
            at: 12,
            problem: format!(
                "{total} bytes in {blocks} blocks of {block_size} can't fit a {}-byte file",
                bytes.len()
            ),
        });
    }
    if total > MAX_STREAM {
        return Err(ResError::Unsupported(format!(
            "a {total}-byte resource (relief reads regions up to {MAX_STREAM} bytes)"
        )));
    }
    // Grown block by block, never to the size the header claims up front: a damaged header
    // costs only the blocks that really decompress.
    let mut out: Vec<u8> = Vec::new();
    let mut at = table + 4 * blocks;
    let mut decoder = zstd::bulk::Decompressor::new().map_err(|e| ResError::Decompress {
        block: 0,
        message: e.to_string(),
    })?;
    for k in 0..blocks as usize {
        let start = k * block_size as usize;
        out.resize((start + block_size as usize).min(total as usize), 0);
        let chunk = &mut out[start..];
        let size = header(table as usize + 4 * k)? as u64;
        let end = at + size;
        let src = bytes
            .get(at as usize..end as usize)
            .ok_or(ResError::Truncated {
                what: "compressed block",
                at,
            })?;
        let n = decoder
            .decompress_to_buffer(src, chunk)
            .map_err(|e| ResError::Decompress {
                block: k,
                message: e.to_string(),
            })?;
        if n != chunk.len() {
            return Err(ResError::Decompress {
                block: k,
                message: format!("{n} bytes, {} expected", chunk.len()),
            });
        }
        at = end;
    }
    match bytes.get(at as usize..) {
        Some(tail) if tail == MAGIC => Ok(out),
        Some(tail) if tail.len() < 4 => Err(ResError::Truncated {
            what: "container end magic",
            at,
        }),
        _ => Err(ResError::Corrupt {
            at,
            problem: "the blocks don't end at the closing RSCC".into(),
        }),
    }
}

/// `stream` in a compressed container: zstd blocks of [`BLOCK_SIZE`] at `level`.
pub fn compress(stream: &[u8], level: i32) -> Result<Vec<u8>, ResError> {
    let mut encoder = zstd::bulk::Compressor::new(level).map_err(|e| ResError::Decompress {
        block: 0,
        message: e.to_string(),
    })?;
    // As many blocks as Godot writes: one past the last whole block (so possibly empty).
    let blocks: Vec<Vec<u8>> = (0..=stream.len() / BLOCK_SIZE as usize)
        .map(|k| {
            let start = k * BLOCK_SIZE as usize;
            let block = &stream[start..(start + BLOCK_SIZE as usize).min(stream.len())];
            encoder.compress(block).map_err(|e| ResError::Decompress {
                block: k,
                message: e.to_string(),
            })
        })
        .collect::<Result<_, _>>()?;
    let total = u32::try_from(stream.len()).map_err(|_| ResError::Corrupt {
        at: 0,
        problem: format!("{} bytes is more than a container holds", stream.len()),
    })?;
    let mut out =
        Vec::with_capacity(20 + 4 * blocks.len() + blocks.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(MAGIC);
    for v in [MODE_ZSTD, BLOCK_SIZE, total] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out.extend_from_slice(MAGIC);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn what_is_compressed_decompresses_to_itself(
            stream in prop::collection::vec(any::<u8>(), 0..20_000),
            zeros in 0usize..30_000,
        ) {
            let mut stream = stream;
            stream.extend(std::iter::repeat_n(0u8, zeros));
            let packed = compress(&stream, 3).unwrap();
            prop_assert_eq!(decompress(&packed).unwrap(), stream);
        }

        /// Any damage is an error or the same bytes, never a panic.
        #[test]
        fn damaged_containers_fail_cleanly(
            stream in prop::collection::vec(any::<u8>(), 1..9000),
            at in any::<prop::sample::Index>(),
            with in any::<u8>(),
            cut in any::<prop::sample::Index>(),
        ) {
            let packed = compress(&stream, 1).unwrap();
            let mut bad = packed.clone();
            let i = at.index(bad.len());
            bad[i] ^= with | 1;
            if let Ok(out) = decompress(&bad) {
                prop_assert_eq!(out.len(), stream.len());
            }
            let short = &packed[..cut.index(packed.len())];
            prop_assert!(decompress(short).is_err());
        }
    }

    #[test]
    fn a_stream_filling_its_blocks_ends_with_an_empty_block_as_godot_writes() {
        // Godot's FileAccessCompressed counts `total / block_size + 1` blocks both ways.
        for len in [0usize, 1, 4095, 4096, 8192, 8193] {
            let stream: Vec<u8> = (0..len).map(|k| (k * 7) as u8).collect();
            let packed = compress(&stream, 3).unwrap();
            let blocks = len / 4096 + 1;
            let sizes: Vec<u32> = (0..blocks)
                .map(|k| u32::from_le_bytes(packed[16 + 4 * k..20 + 4 * k].try_into().unwrap()))
                .collect();
            let body: u32 = sizes.iter().sum();
            assert_eq!(
                packed.len(),
                16 + 4 * blocks + body as usize + 4,
                "{len} bytes"
            );
            assert_eq!(decompress(&packed).unwrap(), stream);
        }
    }

    #[test]
    fn other_modes_and_impossible_headers_are_named() {
        let mut packed = compress(b"terrain", 1).unwrap();
        packed[4] = 1;
        assert!(matches!(
            decompress(&packed),
            Err(ResError::UnsupportedCompression(1))
        ));
        // 4 GiB claimed by a 40-byte file: refused before allocating.
        let mut huge = compress(b"terrain", 1).unwrap();
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = decompress(&huge).unwrap_err();
        assert!(e.to_string().contains("can't fit"), "{e}");
        assert!(matches!(
            decompress(b"RSRC...."),
            Err(ResError::BadMagic { .. })
        ));
    }
}
