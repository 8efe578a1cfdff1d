//! PLNT blob layout (docs/formats.md is the byte-exact specification): a fixed header, a field
//! table, a tile index (field-major, so a v6 blob's fields are a prefix of a v7 blob's), a
//! section table (rivers, lakes, biomes, seed, overview), then the data. Every table has
//! its own CRC-32 and every tile and section its own, so damage is found where it is.

use crate::codec::Codec;
use crate::error::FormatError;

use glam::DVec3;

use super::cube::Projection;

pub const MAGIC: [u8; 4] = *b"PLNT";

/// The largest planet a blob may describe: faces of 16384² (4× the largest relief bakes),
/// tiles of at most 1024² (15 MB decoded), radii from 100 m to 100,000 km. A header past
/// these is corrupt: every allocation and loop that follows is sized from them.
pub const MAX_FACE_RESOLUTION: u32 = 16_384;
pub const MAX_TILE_SIZE: u32 = 1024;
pub const MIN_RADIUS: f64 = 100.0;
/// The most bytes a blob's tables (field table, tile index, section table) may take, read
/// whole when the blob opens: 128 MiB, the index of five fields over faces of 16,384² in
/// tiles of 32² (relief bakes tiles of 64² or larger, a 4,096² face's in 2 MB). A header
/// claiming more (tiles of 8² at the largest faces would be 25 GB) is refused before anything
/// is allocated.
pub const MAX_TABLE_BYTES: u64 = 128 << 20;
pub const MAX_RADIUS: f64 = 1e8;
/// The newest version written; readers also take 6 (the v6 field set, no v7 fields).
pub const VERSION: u32 = 7;
pub const OLDEST_VERSION: u32 = 6;
pub const HEADER_BYTES: usize = 128;
pub const FIELD_BYTES: usize = 32;
pub const INDEX_ENTRY_BYTES: usize = 16;
pub const SECTION_BYTES: usize = 24;

/// How a field's samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SampleType {
    F32 = 0,
    U8 = 1,
    U16 = 2,
}

impl SampleType {
    pub fn from_code(c: u8) -> Option<SampleType> {
        match c {
            0 => Some(SampleType::F32),
            1 => Some(SampleType::U8),
            2 => Some(SampleType::U16),
            _ => None,
        }
    }
    pub fn size(self) -> usize {
        match self {
            SampleType::F32 => 4,
            SampleType::U8 => 1,
            SampleType::U16 => 2,
        }
    }
}

/// One field of the blob: a named per-sample map over every face.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInfo {
    pub name: String,
    pub ty: SampleType,
    pub codec: Codec,
    /// The format version that introduced the field (6 or 7).
    pub since: u8,
    /// A stored value `s` means `s · scale + offset` (1 and 0 when unquantised).
    pub scale: f32,
    pub offset: f32,
}

/// The fields relief writes, v6's first. Readers find fields by name, in this order.
pub fn standard_fields() -> Vec<FieldInfo> {
    let f = |name: &str, ty, codec, since, scale| FieldInfo {
        name: name.into(),
        ty,
        codec,
        since,
        scale,
        offset: 0.0,
    };
    vec![
        f(HEIGHT, SampleType::F32, Codec::ShuffleLz4, 6, 1.0),
        f(BIOME, SampleType::U8, Codec::Lz4, 6, 1.0),
        f(LAKE, SampleType::U16, Codec::Lz4, 6, 1.0),
        f(
            SEDIMENT,
            SampleType::U16,
            Codec::ShuffleLz4,
            7,
            SEDIMENT_SCALE,
        ),
        f(
            PRECIPITATION,
            SampleType::U16,
            Codec::ShuffleLz4,
            7,
            PRECIPITATION_SCALE,
        ),
    ]
}

/// Metres per stored sediment step: 0–64 m in u16. The baker's sediment stays under 45 m, and
/// a millimetre is finer than anything it models; as u16 a sediment tile is stored 4.5×
/// smaller than as f32 and decodes 2.4× faster (bake version 3 on; f32 before).
pub const SEDIMENT_SCALE: f32 = 1.0 / 1024.0;
/// Millimetres a year per stored precipitation step: 0–32,767 mm in u16.
pub const PRECIPITATION_SCALE: f32 = 0.5;

/// Height above the radius, metres.
pub const HEIGHT: &str = "height";
/// Biome class, an index into the BIOM section.
pub const BIOME: &str = "biome";
/// Lake id (1-based; 0 = no lake), an index into the LAKE section.
pub const LAKE: &str = "lake";
/// Loose sediment thickness, metres (v7).
pub const SEDIMENT: &str = "sediment";
/// Mean annual precipitation, mm (v7).
pub const PRECIPITATION: &str = "precipitation";

/// The fixed header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub version: u32,
    pub bake_version: u32,
    pub radius: f64,
    pub face_resolution: u32,
    pub tile_size: u32,
    pub projection: Projection,
    pub field_count: u32,
    pub polar_axis: DVec3,
    pub height_min: f32,
    pub height_max: f32,
    pub sea_level: f32,
    pub section_count: u32,
    pub seed: u64,
    pub index_offset: u64,
    pub sections_offset: u64,
    pub data_offset: u64,
    pub file_length: u64,
}

impl Header {
    /// Tiles per face side.
    pub fn tiles_per_side(&self) -> u32 {
        self.face_resolution / self.tile_size
    }
    /// Tiles of one field over all six faces.
    pub fn tiles_per_field(&self) -> usize {
        6 * (self.tiles_per_side() as usize).pow(2)
    }

    pub fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[0..4].copy_from_slice(&MAGIC);
        put_u32(&mut b, 4, self.version);
        put_u32(&mut b, 8, HEADER_BYTES as u32);
        put_u32(&mut b, 12, self.bake_version);
        b[16..24].copy_from_slice(&self.radius.to_le_bytes());
        put_u32(&mut b, 24, self.face_resolution);
        put_u32(&mut b, 28, self.tile_size);
        put_u32(&mut b, 32, self.projection as u32);
        put_u32(&mut b, 36, self.field_count);
        for k in 0..3 {
            b[40 + 8 * k..48 + 8 * k].copy_from_slice(&self.polar_axis[k].to_le_bytes());
        }
        b[64..68].copy_from_slice(&self.height_min.to_le_bytes());
        b[68..72].copy_from_slice(&self.height_max.to_le_bytes());
        b[72..76].copy_from_slice(&self.sea_level.to_le_bytes());
        put_u32(&mut b, 76, self.section_count);
        b[80..88].copy_from_slice(&self.seed.to_le_bytes());
        b[88..96].copy_from_slice(&self.index_offset.to_le_bytes());
        b[96..104].copy_from_slice(&self.sections_offset.to_le_bytes());
        b[104..112].copy_from_slice(&self.data_offset.to_le_bytes());
        b[112..120].copy_from_slice(&self.file_length.to_le_bytes());
        let crc = crc32fast::hash(&b[..124]);
        put_u32(&mut b, 124, crc);
        b
    }

    /// Parses and checks a header against the length of the bytes it heads.
    pub fn decode(b: &[u8], actual_length: u64) -> Result<Header, FormatError> {
        if b.len() < HEADER_BYTES {
            return Err(FormatError::Truncated {
                need: HEADER_BYTES as u64,
                have: b.len() as u64,
            });
        }
        if b[0..4] != MAGIC {
            return Err(FormatError::BadMagic {
                expected: "PLNT planet",
                found: b[0..4].to_vec(),
            });
        }
        let version = u32_at(b, 4);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(FormatError::UnsupportedVersion {
                what: "PLNT",
                found: version,
                supported: VERSION,
            });
        }
        let (stored, computed) = (u32_at(b, 124), crc32fast::hash(&b[..124]));
        if stored != computed {
            return Err(FormatError::Checksum {
                what: "PLNT header".into(),
                stored,
                computed,
            });
        }
        let f64_at = |o: usize| f64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let f32_at = |o: usize| f32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let projection = Projection::from_code(u32_at(b, 32))
            .ok_or_else(|| FormatError::Corrupt(format!("projection {}", u32_at(b, 32))))?;
        let h = Header {
            version,
            bake_version: u32_at(b, 12),
            radius: f64_at(16),
            face_resolution: u32_at(b, 24),
            tile_size: u32_at(b, 28),
            projection,
            field_count: u32_at(b, 36),
            polar_axis: DVec3::new(f64_at(40), f64_at(48), f64_at(56)),
            height_min: f32_at(64),
            height_max: f32_at(68),
            sea_level: f32_at(72),
            section_count: u32_at(b, 76),
            seed: u64_at(80),
            index_offset: u64_at(88),
            sections_offset: u64_at(96),
            data_offset: u64_at(104),
            file_length: u64_at(112),
        };
        h.validate(actual_length)?;
        Ok(h)
    }

    fn validate(&self, actual_length: u64) -> Result<(), FormatError> {
        let bad = |what: String| Err(FormatError::Corrupt(format!("PLNT header: {what}")));
        if !(MIN_RADIUS..=MAX_RADIUS).contains(&self.radius) {
            return bad(format!(
                "radius {} m is not within {MIN_RADIUS}..={MAX_RADIUS}",
                self.radius
            ));
        }
        let (n, t) = (self.face_resolution, self.tile_size);
        if !(8..=MAX_TILE_SIZE).contains(&t) || n < t || n % t != 0 || n > MAX_FACE_RESOLUTION {
            return bad(format!(
                "face resolution {n} and tile size {t} (tiles 8..={MAX_TILE_SIZE} dividing faces of at most {MAX_FACE_RESOLUTION})"
            ));
        }
        if self.field_count == 0 || self.field_count > 64 || self.section_count > 64 {
            return bad(format!(
                "{} fields, {} sections",
                self.field_count, self.section_count
            ));
        }
        let p = self.polar_axis;
        let len = p.length();
        if !len.is_finite() || (len - 1.0).abs() > 1e-6 {
            return bad(format!("polar axis {p} is not a unit vector"));
        }
        if self.file_length > actual_length {
            return Err(FormatError::Truncated {
                need: self.file_length,
                have: actual_length,
            });
        }
        if self.file_length < actual_length {
            return bad(format!(
                "the file is {} bytes, the source {actual_length}",
                self.file_length
            ));
        }
        let fields_end = (HEADER_BYTES + self.field_count as usize * FIELD_BYTES + 4) as u64;
        let index_len = self.index_bytes();
        let ordered = self.index_offset == fields_end
            && self.sections_offset == self.index_offset + index_len
            && self.data_offset >= self.tables_end()
            && self.data_offset <= self.file_length;
        if !ordered {
            return bad(format!(
                "tables out of place (index at {}, sections at {}, data at {}, file {} bytes)",
                self.index_offset, self.sections_offset, self.data_offset, self.file_length
            ));
        }
        // Sized before anything is allocated for them: the tables within the cap, and no more
        // tiles than the data could hold at a byte each.
        let tables = self.tables_end() - HEADER_BYTES as u64;
        crate::bounds::fits("PLNT tables", tables, u64::MAX, MAX_TABLE_BYTES)?;
        let tiles = self.field_count as u64 * self.tiles_per_field() as u64;
        crate::bounds::fits(
            "PLNT tile index",
            tiles,
            self.file_length - self.data_offset,
            u64::MAX,
        )?;
        Ok(())
    }

    /// Where the tables end (the section table's CRC included): a reader reads
    /// `HEADER_BYTES..tables_end()` and nothing more before the data.
    pub fn tables_end(&self) -> u64 {
        self.sections_offset + self.section_count as u64 * SECTION_BYTES as u64 + 4
    }

    /// Bytes of the tile index, its CRC included.
    pub fn index_bytes(&self) -> u64 {
        (self.field_count as u64 * self.tiles_per_field() as u64) * INDEX_ENTRY_BYTES as u64 + 4
    }
}

pub fn encode_fields(fields: &[FieldInfo]) -> Vec<u8> {
    let mut out = Vec::with_capacity(fields.len() * FIELD_BYTES + 4);
    for f in fields {
        let mut e = [0u8; FIELD_BYTES];
        let name = f.name.as_bytes();
        e[..name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
        e[16] = f.ty as u8;
        e[17] = f.codec as u8;
        e[18] = f.since;
        e[20..24].copy_from_slice(&f.scale.to_le_bytes());
        e[24..28].copy_from_slice(&f.offset.to_le_bytes());
        out.extend_from_slice(&e);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

pub fn decode_fields(b: &[u8], count: usize) -> Result<Vec<FieldInfo>, FormatError> {
    let body = checked_table(b, count * FIELD_BYTES, "PLNT field table")?;
    let mut out = Vec::with_capacity(count);
    for e in body.chunks_exact(FIELD_BYTES) {
        let end = e[..16].iter().position(|&c| c == 0).unwrap_or(16);
        let name = std::str::from_utf8(&e[..end])
            .map_err(|_| FormatError::Corrupt("PLNT field name is not UTF-8".into()))?;
        let ty = SampleType::from_code(e[16]).ok_or_else(|| {
            FormatError::Corrupt(format!("field `{name}`: sample type {}", e[16]))
        })?;
        let codec = Codec::from_code(e[17])?;
        // A derived layer is rebuilt from a region's other layers; a planet has none to give.
        if codec.is_derived() || !codec.supports(ty.size()) {
            return Err(FormatError::Corrupt(format!(
                "field `{name}`: codec {} can't store {}-byte samples",
                codec.name(),
                ty.size()
            )));
        }
        let scale = f32::from_le_bytes(e[20..24].try_into().unwrap());
        let offset = f32::from_le_bytes(e[24..28].try_into().unwrap());
        if !(scale.is_finite() && scale != 0.0 && offset.is_finite()) {
            return Err(FormatError::Corrupt(format!(
                "field `{name}`: scale {scale}, offset {offset}"
            )));
        }
        out.push(FieldInfo {
            name: name.to_string(),
            ty,
            codec,
            since: e[18],
            scale,
            offset,
        });
    }
    Ok(out)
}

/// Where one tile's stored bytes are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileEntry {
    pub offset: u64,
    pub length: u32,
    pub crc32: u32,
}

pub fn encode_index(entries: &[TileEntry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * INDEX_ENTRY_BYTES + 4);
    for e in entries {
        out.extend_from_slice(&e.offset.to_le_bytes());
        out.extend_from_slice(&e.length.to_le_bytes());
        out.extend_from_slice(&e.crc32.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Parses the index of `fields` (each field's tiles in turn) and checks every entry lies
/// inside the data region and is no longer than its field's codec can store a tile in.
pub fn decode_index(
    b: &[u8],
    fields: &[FieldInfo],
    h: &Header,
) -> Result<Vec<TileEntry>, FormatError> {
    let tiles = h.tiles_per_field();
    let count = fields.len() * tiles;
    let body = checked_table(b, count * INDEX_ENTRY_BYTES, "PLNT tile index")?;
    let tile_samples = (h.tile_size as usize).pow(2);
    let mut out = Vec::with_capacity(count);
    for (k, e) in body.chunks_exact(INDEX_ENTRY_BYTES).enumerate() {
        let t = TileEntry {
            offset: u64::from_le_bytes(e[0..8].try_into().unwrap()),
            length: u32_at(e, 8),
            crc32: u32_at(e, 12),
        };
        let end = t.offset.checked_add(t.length as u64);
        if t.offset < h.data_offset || past(end, h.file_length) {
            return Err(FormatError::Corrupt(format!(
                "PLNT tile index entry {k}: {} bytes at {} lie outside the data ({}..{})",
                t.length, t.offset, h.data_offset, h.file_length
            )));
        }
        // Each tile is read whole into a buffer of its stored length.
        let f = &fields[k / tiles];
        let most = crate::codec::max_stored(f.codec, tile_samples * f.ty.size());
        crate::bounds::fits(
            format_args!("PLNT tile index entry {k} ({} tile)", f.name),
            t.length as u64,
            most as u64,
            u64::MAX,
        )?;
        out.push(t);
    }
    Ok(out)
}

/// A named extra section (rivers, lakes, biome names, seed text, overview).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub tag: [u8; 4],
    pub crc32: u32,
    pub offset: u64,
    pub length: u64,
}

pub const RIVERS: [u8; 4] = *b"RIVR";
pub const LAKES: [u8; 4] = *b"LAKE";
pub const BIOMES: [u8; 4] = *b"BIOM";
pub const SEED_TEXT: [u8; 4] = *b"SEED";
pub const OVERVIEW: [u8; 4] = *b"OVRV";
pub const CENSUS: [u8; 4] = *b"CNSS";
/// The placement table (`things.json`'s text); optional: a planet without one places no
/// things.
pub const THINGS: [u8; 4] = *b"THNG";

pub fn encode_sections(sections: &[Section]) -> Vec<u8> {
    let mut out = Vec::with_capacity(sections.len() * SECTION_BYTES + 4);
    for s in sections {
        out.extend_from_slice(&s.tag);
        out.extend_from_slice(&s.crc32.to_le_bytes());
        out.extend_from_slice(&s.offset.to_le_bytes());
        out.extend_from_slice(&s.length.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

pub fn decode_sections(b: &[u8], count: usize, h: &Header) -> Result<Vec<Section>, FormatError> {
    let body = checked_table(b, count * SECTION_BYTES, "PLNT section table")?;
    let mut out = Vec::with_capacity(count);
    for e in body.chunks_exact(SECTION_BYTES) {
        let s = Section {
            tag: e[0..4].try_into().unwrap(),
            crc32: u32_at(e, 4),
            offset: u64::from_le_bytes(e[8..16].try_into().unwrap()),
            length: u64::from_le_bytes(e[16..24].try_into().unwrap()),
        };
        let end = s.offset.checked_add(s.length);
        if s.offset < h.data_offset || past(end, h.file_length) {
            return Err(FormatError::Corrupt(format!(
                "PLNT section {}: {} bytes at {} lie outside the data",
                String::from_utf8_lossy(&s.tag),
                s.length,
                s.offset
            )));
        }
        out.push(s);
    }
    Ok(out)
}

/// `b` is a table of `body` bytes and a trailing CRC-32 of them; returns the body.
fn checked_table<'a>(b: &'a [u8], body: usize, what: &str) -> Result<&'a [u8], FormatError> {
    if b.len() < body + 4 {
        return Err(FormatError::Truncated {
            need: (body + 4) as u64,
            have: b.len() as u64,
        });
    }
    let (stored, computed) = (u32_at(b, body), crc32fast::hash(&b[..body]));
    if stored != computed {
        return Err(FormatError::Checksum {
            what: what.into(),
            stored,
            computed,
        });
    }
    Ok(&b[..body])
}

/// An overflowed (`None`) or too-far end.
fn past(end: Option<u64>, limit: u64) -> bool {
    end.map_or(true, |e| e > limit)
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
