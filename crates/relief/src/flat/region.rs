//! The region file (`*.rlr`): one Terrain3D-style region's maps, each layer compressed and
//! checksummed on its own. Byte layout in docs/formats.md; every byte of a file is covered by
//! a checksum or checked against a fixed value, so any damage is caught.

use crate::codec::{self, Codec};
use crate::error::FormatError;
use crate::flat::location::RegionLocation;
use crate::flat::tint::TintRecipe;
use crate::layer::{plain, Layer};
use crate::pool::{with_scratch, Buffer, BufferPool};
use std::sync::Arc;

pub const REGION_MAGIC: [u8; 4] = *b"RLRG";
/// The version a region file carries: 1, or 2 when a layer is derived from others
/// ([`Codec::DerivedTint`]), so readers that predate derived layers refuse it by its version.
pub const REGION_VERSION: u16 = 1;
pub const REGION_VERSION_DERIVED: u16 = 2;
pub(crate) const FIXED_HEADER: usize = 24;
pub(crate) const TABLE_ENTRY: usize = 12;
/// Bytes read (and then hashed, still in cache) per call: a whole layer of a 512² region,
/// so a region is a handful of reads (it was 39 when `read_to_end` restarted at 8 KiB).
const READ_PIECE: usize = 1 << 20;

/// A map a region can carry. The numeric values are the on-disk codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum LayerKind {
    /// f32, absolute metres (Terrain3D height map, FORMAT_RF).
    Height = 1,
    /// u32, Terrain3D control bits (see `crate::flat::control`).
    Control = 2,
    /// RGBA8 color map; alpha is a roughness modifier, 128 neutral.
    Color = 3,
    /// u8 biome id, an index into `biomes.json`.
    Biome = 4,
    /// u16 lake id from `lakes.json`; 0 where no lake covers the sample.
    Lake = 5,
}

impl LayerKind {
    pub const ALL: [LayerKind; 5] = [
        LayerKind::Height,
        LayerKind::Control,
        LayerKind::Color,
        LayerKind::Biome,
        LayerKind::Lake,
    ];

    pub fn from_code(code: u8) -> Result<LayerKind, FormatError> {
        LayerKind::ALL
            .into_iter()
            .find(|k| *k as u8 == code)
            .ok_or(FormatError::UnknownLayer(code))
    }

    pub fn name(self) -> &'static str {
        match self {
            LayerKind::Height => "height",
            LayerKind::Control => "control",
            LayerKind::Color => "color",
            LayerKind::Biome => "biome",
            LayerKind::Lake => "lake",
        }
    }

    pub fn from_name(name: &str) -> Option<LayerKind> {
        LayerKind::ALL.into_iter().find(|k| k.name() == name)
    }

    pub fn elem_size(self) -> usize {
        match self {
            LayerKind::Height | LayerKind::Control | LayerKind::Color => 4,
            LayerKind::Biome => 1,
            LayerKind::Lake => 2,
        }
    }

    /// The codec of the `Small` profile, chosen by the `region_decode` bench on a real 512²
    /// region: byte shuffle is the fastest height codec to decode (the delta codecs compress
    /// more but cut LZ4 into shorter matches); plain LZ4 beats shuffling for the control and
    /// color words.
    pub fn small_codec(self) -> Codec {
        match self {
            LayerKind::Height => Codec::ShuffleLz4,
            LayerKind::Lake => Codec::ShuffleLz4,
            LayerKind::Control | LayerKind::Color | LayerKind::Biome => Codec::Lz4,
        }
    }
}

/// One region's decoded maps, row-major with X fastest: sample (x, y) is at index
/// `y * size + x`. Optional layers are `None` when the file does not carry them.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    pub location: RegionLocation,
    pub size: u32,
    pub height: Layer<f32>,
    pub control: Option<Layer<u32>>,
    pub color: Option<Layer<[u8; 4]>>,
    pub biome: Option<Layer<u8>>,
    pub lake: Option<Layer<u16>>,
    /// Box-filtered height pyramid: `mips[k]` holds `(size >> (k+1))²` means of 2^(k+1)-sample
    /// squares. Not stored in files; built by [`Region::build_mips`] (the streamer's loader
    /// does it on its thread) for far LOD. Empty until built.
    pub mips: Vec<Vec<f32>>,
}

impl Region {
    /// Builds the height pyramid down to one sample. Holes (NaN) propagate.
    ///
    /// Row pairs at a time, eight samples of each row per step, so the loop has no bounds
    /// checks and vectorises; each mean is still `((a + b) + (c + d)) * 0.25` in that order, so the
    /// result is bit-identical to the sample-at-a-time version (tested; a NaN stays a NaN,
    /// though which NaN payload comes out of NaN + NaN is the compiler's choice).
    pub fn build_mips(&mut self) {
        self.mips.clear();
        let mut side = self.size as usize;
        while side > 1 {
            let half = side / 2;
            let src: &[f32] = self.mips.last().map_or(&self.height, |m| m);
            let mut next = Vec::with_capacity(half * half);
            for rows in src.chunks_exact(2 * side) {
                let (upper, lower) = rows.split_at(side);
                // Eight samples of each row at a time (four means): fixed-size arrays the
                // compiler turns into vector adds and shuffles.
                let (u8s, l8s) = (upper.chunks_exact(8), lower.chunks_exact(8));
                let (u_rest, l_rest) = (u8s.remainder(), l8s.remainder());
                for (u, l) in u8s.zip(l8s) {
                    let u: &[f32; 8] = u.try_into().unwrap();
                    let l: &[f32; 8] = l.try_into().unwrap();
                    next.extend_from_slice(&std::array::from_fn::<f32, 4, _>(|i| {
                        ((u[2 * i] + u[2 * i + 1]) + (l[2 * i] + l[2 * i + 1])) * 0.25
                    }));
                }
                next.extend(
                    u_rest
                        .chunks_exact(2)
                        .zip(l_rest.chunks_exact(2))
                        .map(|(u, l)| ((u[0] + u[1]) + (l[0] + l[1])) * 0.25),
                );
            }
            self.mips.push(next);
            side = half;
        }
    }

    /// The byte length of each map this region holds, in layer order (the mips aside): the
    /// buffers a [`BufferPool`] is faulted in with for the next load of its kind.
    pub fn layer_lens(&self) -> Vec<usize> {
        let n = (self.size as usize).pow(2);
        self.layers().iter().map(|k| k.elem_size() * n).collect()
    }

    /// Bytes of decoded map data this region holds in memory.
    pub fn resident_bytes(&self) -> usize {
        let n = (self.size as usize) * (self.size as usize);
        let per_sample = 4
            + self.control.as_ref().map_or(0, |_| 4)
            + self.color.as_ref().map_or(0, |_| 4)
            + self.biome.as_ref().map_or(0, |_| 1)
            + self.lake.as_ref().map_or(0, |_| 2);
        n * per_sample + self.mips.iter().map(|m| m.len() * 4).sum::<usize>()
    }

    pub fn layers(&self) -> Vec<LayerKind> {
        let mut out = vec![LayerKind::Height];
        if self.control.is_some() {
            out.push(LayerKind::Control);
        }
        if self.color.is_some() {
            out.push(LayerKind::Color);
        }
        if self.biome.is_some() {
            out.push(LayerKind::Biome);
        }
        if self.lake.is_some() {
            out.push(LayerKind::Lake);
        }
        out
    }

    pub(crate) fn layer_bytes(&self, kind: LayerKind) -> Option<&[u8]> {
        match kind {
            LayerKind::Height => Some(plain::bytes(&self.height)),
            LayerKind::Control => self.control.as_deref().map(plain::bytes),
            LayerKind::Color => self.color.as_deref().map(plain::bytes),
            LayerKind::Biome => self.biome.as_deref(),
            LayerKind::Lake => self.lake.as_deref().map(plain::bytes),
        }
    }
}

pub(crate) fn header_checksum(header_and_table: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&header_and_table[..20]);
    h.update(&header_and_table[FIXED_HEADER..]);
    h.finalize()
}

/// The fixed header fields of a region file, read without decoding any layer.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionHeader {
    pub location: RegionLocation,
    pub size: u32,
    pub layers: Vec<LayerEntry>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerEntry {
    pub kind: LayerKind,
    pub codec: Codec,
    /// Offset of the stored bytes from the start of the file.
    pub offset: usize,
    pub stored_len: usize,
    pub crc32: u32,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Parses and verifies a region file's header and layer table, and checks the file's length.
pub fn read_header(bytes: &[u8]) -> Result<RegionHeader, FormatError> {
    parse_header(bytes, bytes.len())
}

/// [`read_header`] for a file of `file_len` bytes of which `head` holds the start: at least
/// the header and layer table, or the whole file if it is shorter than they claim.
fn parse_header(bytes: &[u8], file_len: usize) -> Result<RegionHeader, FormatError> {
    let truncated = |need: usize| FormatError::Truncated {
        need: need as u64,
        have: file_len as u64,
    };
    if file_len < 4 {
        return Err(truncated(FIXED_HEADER));
    }
    if bytes[..4] != REGION_MAGIC {
        return Err(FormatError::BadMagic {
            expected: "relief region",
            found: bytes[..4].to_vec(),
        });
    }
    if file_len < FIXED_HEADER {
        return Err(truncated(FIXED_HEADER));
    }
    let version = u16_at(bytes, 4);
    if version != REGION_VERSION && version != REGION_VERSION_DERIVED {
        return Err(FormatError::UnsupportedVersion {
            what: "region file",
            found: version as u32,
            supported: REGION_VERSION_DERIVED as u32,
        });
    }
    let count = u16_at(bytes, 6) as usize;
    let table_end = FIXED_HEADER + count * TABLE_ENTRY;
    if file_len < table_end {
        return Err(truncated(table_end));
    }
    let stored_crc = u32_at(bytes, 20);
    let computed = header_checksum(&bytes[..table_end]);
    if stored_crc != computed {
        return Err(FormatError::Checksum {
            what: "region header".into(),
            stored: stored_crc,
            computed,
        });
    }
    let location = RegionLocation::new(u32_at(bytes, 8) as i32, u32_at(bytes, 12) as i32);
    let size = u32_at(bytes, 16);
    if !size.is_power_of_two() || !(2..=4096).contains(&size) {
        return Err(FormatError::Corrupt(format!(
            "region size {size} is not a power of two in 2..=4096"
        )));
    }
    let mut layers: Vec<LayerEntry> = Vec::with_capacity(count);
    let mut offset = table_end;
    for i in 0..count {
        let e = &bytes[FIXED_HEADER + i * TABLE_ENTRY..][..TABLE_ENTRY];
        let kind = LayerKind::from_code(e[0])?;
        let codec = Codec::from_code(e[1])?;
        if e[2] != 0 || e[3] != 0 {
            return Err(FormatError::Corrupt(
                "reserved layer-table bytes are not zero".into(),
            ));
        }
        if !codec.supports(kind.elem_size()) {
            return Err(FormatError::Corrupt(format!(
                "codec {} cannot hold the {} layer",
                codec.name(),
                kind.name()
            )));
        }
        if codec == Codec::DerivedTint
            && (kind != LayerKind::Color || version != REGION_VERSION_DERIVED)
        {
            return Err(FormatError::Corrupt(format!(
                "a {} layer of a version {version} region cannot be derived",
                kind.name()
            )));
        }
        if layers.iter().any(|l| l.kind == kind) {
            return Err(FormatError::Corrupt(format!(
                "layer {} appears twice",
                kind.name()
            )));
        }
        let stored_len = u32_at(e, 4) as usize;
        layers.push(LayerEntry {
            kind,
            codec,
            offset,
            stored_len,
            crc32: u32_at(e, 8),
        });
        offset += stored_len;
    }
    if !layers.iter().any(|l| l.kind == LayerKind::Height) {
        return Err(FormatError::Corrupt("region has no height layer".into()));
    }
    if file_len < offset {
        return Err(truncated(offset));
    }
    if file_len > offset {
        return Err(FormatError::TrailingBytes {
            extra: (file_len - offset) as u64,
        });
    }
    Ok(RegionHeader {
        location,
        size,
        layers,
    })
}

/// Decodes a whole region file. `expected` guards against a file stored under the wrong name.
pub fn decode_region(
    bytes: &[u8],
    expected: Option<RegionLocation>,
) -> Result<Region, FormatError> {
    read_region_from(&mut &bytes[..], bytes.len() as u64, expected, None).map(|(region, _)| region)
}

/// Reads a region file of `file_len` bytes from `file` straight into its maps: raw layers land
/// in their buffers with no intermediate copy, in reads of up to a megabyte, and every byte is
/// hashed exactly once. Buffers come from `pool` when given (and go back to it when the
/// region is dropped). Returns the region and the CRC-32 of the whole file (combined from the
/// per-layer checksums), which the caller compares with the manifest. Errors are those of
/// [`decode_region`].
pub fn read_region_from(
    file: &mut impl std::io::Read,
    file_len: u64,
    expected: Option<RegionLocation>,
    pool: Option<&Arc<BufferPool>>,
) -> Result<(Region, u32), FormatError> {
    read_layers(file, file_len, expected, pool, |_| true)
        .map(|(region, crc)| (region, crc.expect("every layer was read")))
}

/// Reads only what a collision chunk needs of a region file: its header, height and control
/// layers (each checked against its own CRC-32 and decoded), leaving every other layer
/// unread — the file is read no further than the last of the two (the baker writes them
/// first), and layers between are skipped unread-into-maps. The other maps are `None`.
pub fn read_heights_from(
    file: &mut impl std::io::Read,
    file_len: u64,
    expected: Option<RegionLocation>,
) -> Result<Region, FormatError> {
    read_layers(file, file_len, expected, None, |k| {
        matches!(k, LayerKind::Height | LayerKind::Control)
    })
    .map(|(region, _)| region)
}

/// Reads the layers `wanted` accepts; the CRC-32 of the whole file when every layer was read.
fn read_layers(
    file: &mut impl std::io::Read,
    file_len: u64,
    expected: Option<RegionLocation>,
    pool: Option<&Arc<BufferPool>>,
    wanted: impl Fn(LayerKind) -> bool,
) -> Result<(Region, Option<u32>), FormatError> {
    let file_len = usize::try_from(file_len)
        .map_err(|_| FormatError::Corrupt("region file too large".into()))?;
    let mut head = vec![0u8; file_len.min(FIXED_HEADER)];
    read_exact(file, &mut head, file_len)?;
    if head.len() == FIXED_HEADER && head[..4] == REGION_MAGIC {
        let table_end = FIXED_HEADER + u16_at(&head, 6) as usize * TABLE_ENTRY;
        head.resize(file_len.min(table_end), 0);
        read_exact(file, &mut head[FIXED_HEADER..], file_len)?;
    }
    let header = parse_header(&head, file_len)?;
    check_location(&header, expected)?;
    let mut whole = crc32fast::Hasher::new();
    whole.update(&head);
    let n = (header.size as usize).pow(2);
    let mut region = empty_region(&header);
    let take = |len: usize| pool.map_or_else(|| Buffer::zeroed(len), |p| p.take(len));
    let mut tint = None;
    let mut left = header.layers.iter().filter(|l| wanted(l.kind)).count();
    let every = left == header.layers.len();
    for layer in &header.layers {
        if !wanted(layer.kind) {
            if left == 0 {
                break;
            }
            skip(file, layer.stored_len, file_len)?;
            continue;
        }
        left -= 1;
        if layer.codec == Codec::DerivedTint {
            // A recipe of a few dozen bytes: painted once every layer it needs is read.
            let mut hash = crc32fast::Hasher::new();
            tint = Some(with_scratch(layer.stored_len, |scratch| {
                read_exact(file, scratch, file_len)?;
                hash.update(scratch);
                verify_layer(layer, &hash)?;
                TintRecipe::parse(scratch)
            })?);
            whole.combine(&hash);
            continue;
        }
        let want = n * layer.kind.elem_size();
        let mut hash = crc32fast::Hasher::new();
        let bytes = if layer.codec == Codec::Raw && layer.stored_len == want {
            // Straight into the map, a megabyte a read, hashing each piece while it is still
            // in cache from the read.
            let mut buf = take(want);
            for piece in buf.chunks_mut(READ_PIECE) {
                read_exact(file, piece, file_len)?;
                hash.update(piece);
            }
            verify_layer(layer, &hash)?;
            buf
        } else {
            let mut out = take(want);
            with_scratch(layer.stored_len, |scratch| {
                read_exact(file, scratch, file_len)?;
                hash.update(scratch);
                verify_layer(layer, &hash)?;
                codec::decode(layer.codec, layer.kind.elem_size(), scratch, &mut out)
            })?;
            out
        };
        whole.combine(&hash);
        match layer.kind {
            LayerKind::Height => region.height = Layer::from_buffer(bytes, pool),
            LayerKind::Control => region.control = Some(Layer::from_buffer(bytes, pool)),
            LayerKind::Color => region.color = Some(Layer::from_buffer(bytes, pool)),
            LayerKind::Biome => region.biome = Some(Layer::from_buffer(bytes, pool)),
            LayerKind::Lake => region.lake = Some(Layer::from_buffer(bytes, pool)),
        }
    }
    if let Some(tint) = tint {
        let biome = region.biome.as_deref().ok_or_else(|| {
            FormatError::Corrupt("a derived-tint color layer needs a biome layer".into())
        })?;
        let mut color = take(4 * n);
        tint.paint(header.location, header.size, biome, &mut color)?;
        region.color = Some(Layer::from_buffer(color, pool));
    }
    Ok((region, every.then(|| whole.finalize())))
}

/// Reads past `len` bytes of `file` (a layer nobody asked for), a scratch buffer at a time.
fn skip(file: &mut impl std::io::Read, len: usize, file_len: usize) -> Result<(), FormatError> {
    let mut left = len;
    while left > 0 {
        let piece = left.min(READ_PIECE);
        with_scratch(piece, |scratch| read_exact(file, scratch, file_len))?;
        left -= piece;
    }
    Ok(())
}

fn read_exact(
    file: &mut impl std::io::Read,
    buf: &mut [u8],
    file_len: usize,
) -> Result<(), FormatError> {
    file.read_exact(buf).map_err(|e| match e.kind() {
        // The file shrank after its length was taken.
        std::io::ErrorKind::UnexpectedEof => FormatError::Truncated {
            need: file_len as u64,
            have: 0,
        },
        _ => FormatError::Io {
            path: Default::default(),
            source: e,
        },
    })
}

fn verify_layer(layer: &LayerEntry, hash: &crc32fast::Hasher) -> Result<(), FormatError> {
    let computed = hash.clone().finalize();
    if computed != layer.crc32 {
        return Err(FormatError::Checksum {
            what: format!("{} layer", layer.kind.name()),
            stored: layer.crc32,
            computed,
        });
    }
    Ok(())
}

fn check_location(
    header: &RegionHeader,
    expected: Option<RegionLocation>,
) -> Result<(), FormatError> {
    match expected {
        Some(want) if want != header.location => Err(FormatError::WrongLocation {
            want_x: want.x,
            want_z: want.z,
            found_x: header.location.x,
            found_z: header.location.z,
        }),
        _ => Ok(()),
    }
}

fn empty_region(header: &RegionHeader) -> Region {
    Region {
        location: header.location,
        size: header.size,
        height: Layer::from(Vec::new()),
        control: None,
        color: None,
        biome: None,
        lake: None,
        mips: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pyramid as first written, one sample at a time: what `build_mips` must equal.
    fn mips_one_at_a_time(height: &[f32], size: usize) -> Vec<Vec<f32>> {
        let mut mips: Vec<Vec<f32>> = Vec::new();
        let mut side = size;
        while side > 1 {
            let half = side / 2;
            let src: &[f32] = mips.last().map_or(height, |m| m);
            let mut next = Vec::with_capacity(half * half);
            for j in 0..half {
                let (r0, r1) = (2 * j * side, (2 * j + 1) * side);
                for i in 0..half {
                    let (a, b) = (
                        src[r0 + 2 * i] + src[r0 + 2 * i + 1],
                        src[r1 + 2 * i] + src[r1 + 2 * i + 1],
                    );
                    next.push((a + b) * 0.25);
                }
            }
            mips.push(next);
            side = half;
        }
        mips
    }

    proptest! {
        // Bit for bit, extreme values included; holes (NaN) stay holes.
        #[test]
        fn the_pyramid_is_bit_identical_to_the_sample_at_a_time_one(
            log in 1u32..8,
            seed in any::<u64>(),
            holes in 0usize..20,
        ) {
            let size = 1usize << log;
            let mut x = seed | 1;
            let mut height: Vec<f32> = (0..size * size)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match x % 50 {
                        0 => f32::MAX,
                        1 => -f32::MAX,
                        2 => f32::MIN_POSITIVE / 3.0,
                        _ => ((x >> 11) as f64 / (1u64 << 53) as f64 * 4000.0 - 1000.0) as f32,
                    }
                })
                .collect();
            for k in 0..holes {
                let i = (seed as usize).wrapping_mul(k + 7) % height.len();
                height[i] = f32::NAN;
            }
            let mut r = Region {
                location: RegionLocation { x: 0, z: 0 },
                size: size as u32,
                height: Layer::from(height.clone()),
                control: None,
                color: None,
                biome: None,
                lake: None,
                mips: Vec::new(),
            };
            r.build_mips();
            let want = mips_one_at_a_time(&height, size);
            prop_assert_eq!(r.mips.len(), want.len());
            // Every value's bits, except that any NaN stands for any NaN: which payload comes
            // out of NaN + NaN depends on operand order, the compiler's choice.
            let bits = |v: &[f32]| {
                v.iter()
                    .map(|f| if f.is_nan() { u32::MAX } else { f.to_bits() })
                    .collect::<Vec<_>>()
            };
            for (got, want) in r.mips.iter().zip(&want) {
                prop_assert_eq!(bits(got), bits(want));
            }
        }
    }
}
