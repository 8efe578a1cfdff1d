//! Reading a PLNT blob: opening reads the header and tables only (one read, whatever the
//! planet's size); tiles and sections are read and checked when asked for, with positioned
//! reads of the file or through any [`ReadAt`] (a caller's callbacks where there is no path).

use std::path::{Path, PathBuf};

use crate::codec;
use crate::error::FormatError;
use crate::io::ReadAt;
use crate::layer::plain::{self, Plain};
use crate::pool::with_scratch;

use super::format::{
    decode_fields, decode_index, decode_sections, FieldInfo, Header, SampleType, Section,
    TileEntry, FIELD_BYTES, HEADER_BYTES, MAX_TABLE_BYTES,
};

/// The largest section a planet reads (rivers, lakes, overview): 1 GiB, ~30× seed 000's
/// 2.2 M river points.
pub const MAX_SECTION_BYTES: u64 = 1 << 30;

/// A tile of one face: samples `tx·T .. (tx+1)·T` across, `ty·T ..` up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileKey {
    pub face: u8,
    pub tx: u16,
    pub ty: u16,
}

/// One field's decoded samples for one tile, row-major (`j·T + i`).
#[derive(Clone, Debug, PartialEq)]
pub enum Samples {
    F32(Vec<f32>),
    U8(Vec<u8>),
    U16(Vec<u16>),
}

impl Samples {
    pub fn bytes(&self) -> usize {
        match self {
            Samples::F32(v) => v.len() * 4,
            Samples::U8(v) => v.len(),
            Samples::U16(v) => v.len() * 2,
        }
    }
    /// Sample `k` as a stored number (before the field's scale and offset).
    #[inline]
    pub fn get(&self, k: usize) -> f64 {
        match self {
            Samples::F32(v) => v[k] as f64,
            Samples::U8(v) => v[k] as f64,
            Samples::U16(v) => v[k] as f64,
        }
    }
}

/// Bytes of fields not asked for that a [`TileSpan`] may read past: a field of a newer
/// version between two known ones costs a few KiB, a second round trip costs a whole one.
const SPAN_SLACK: u64 = 64 << 10;

/// Several fields of one tile that lie close together in the blob, read with one read (over
/// HTTP, one ranged request): bytes `offset .. offset + length`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSpan {
    pub offset: u64,
    pub length: usize,
    key: TileKey,
    entries: Vec<(usize, TileEntry)>,
}

impl TileSpan {
    /// Where `field`'s stored bytes lie within the span's, if the span holds it.
    fn part(&self, field: usize) -> Option<(TileEntry, std::ops::Range<usize>)> {
        let &(_, e) = self.entries.iter().find(|(f, _)| *f == field)?;
        let start = (e.offset - self.offset) as usize;
        Some((e, start..start + e.length as usize))
    }
}

/// An opened planet blob.
pub struct Blob {
    name: PathBuf,
    bytes: Box<dyn ReadAt>,
    header: Header,
    fields: Vec<FieldInfo>,
    index: Vec<TileEntry>,
    sections: Vec<Section>,
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blob")
            .field("name", &self.name)
            .field("header", &self.header)
            .field("fields", &self.fields)
            .finish()
    }
}

impl Blob {
    /// Opens a blob file for positioned reads (`pread`). Not a memory map: a map of a file
    /// truncated or replaced while streaming raises SIGBUS on the next touch, where a read
    /// returns an error that fails that tile alone. Each read copies once either way.
    pub fn open(path: impl AsRef<Path>) -> Result<Blob, FormatError> {
        let path = path.as_ref();
        let bytes = crate::io::FileBytes::open(path).map_err(|e| FormatError::io(path, e))?;
        Blob::open_bytes(path, Box::new(bytes))
    }

    /// Opens a blob from any random-access bytes (memory, a caller's reader).
    pub fn open_bytes(
        name: impl Into<PathBuf>,
        bytes: Box<dyn ReadAt>,
    ) -> Result<Blob, FormatError> {
        Blob::open_with_fields(name, bytes, None)
    }

    /// As [`Blob::open_bytes`], for a reader that knows only the fields named in `known` (in
    /// order; say, a v6 reader's): they must be the blob's first fields, and any after them
    /// are ignored — which is how a v6 reader reads a v7 blob.
    pub fn open_with_fields(
        name: impl Into<PathBuf>,
        bytes: Box<dyn ReadAt>,
        known: Option<&[&str]>,
    ) -> Result<Blob, FormatError> {
        let name = name.into();
        let total = bytes.length();
        let io = |e| FormatError::io(&name, e);
        let mut head = vec![0u8; HEADER_BYTES.min(total as usize)];
        bytes.read_at(0, &mut head).map_err(io)?;
        let header = Header::decode(&head, total)?;
        // The tables in one read (field table, index, section table), sized by the header's
        // checks (bounds), never by the data's offset.
        let tables = crate::bounds::read(
            bytes.as_ref(),
            &name,
            "PLNT tables",
            HEADER_BYTES as u64,
            header.tables_end() - HEADER_BYTES as u64,
            MAX_TABLE_BYTES,
        )?;
        let at = |offset: u64| &tables[(offset as usize - HEADER_BYTES)..];
        let count = header.field_count as usize;
        let mut fields = decode_fields(&tables, count)?;
        debug_assert_eq!(
            header.index_offset as usize,
            HEADER_BYTES + count * FIELD_BYTES + 4
        );
        let tiles = header.tiles_per_field();
        let mut index = decode_index(at(header.index_offset), &fields, &header)?;
        let sections = decode_sections(
            at(header.sections_offset),
            header.section_count as usize,
            &header,
        )?;
        if let Some(known) = known {
            if fields.len() < known.len() || fields.iter().zip(known).any(|(f, k)| f.name != *k) {
                return Err(FormatError::Corrupt(format!(
                    "PLNT fields {:?} do not begin with {known:?}",
                    fields.iter().map(|f| &f.name).collect::<Vec<_>>()
                )));
            }
            fields.truncate(known.len());
            index.truncate(known.len() * tiles);
        }
        bytes.vouch(0, &head);
        bytes.vouch(HEADER_BYTES as u64, &tables);
        Ok(Blob {
            name,
            bytes,
            header,
            fields,
            index,
            sections,
        })
    }

    pub fn name(&self) -> &Path {
        &self.name
    }
    /// True if the blob's bytes are on a server ([`ReadAt::is_remote`]).
    pub fn is_remote(&self) -> bool {
        self.bytes.is_remote()
    }
    pub fn header(&self) -> &Header {
        &self.header
    }
    pub fn fields(&self) -> &[FieldInfo] {
        &self.fields
    }
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// Where a field's tile sits in the index.
    pub fn entry(&self, field: usize, key: TileKey) -> Option<TileEntry> {
        let tps = self.header.tiles_per_side() as usize;
        let (tx, ty) = (key.tx as usize, key.ty as usize);
        if field >= self.fields.len() || key.face >= 6 || tx >= tps || ty >= tps {
            return None;
        }
        self.index
            .get(((field * 6 + key.face as usize) * tps + ty) * tps + tx)
            .copied()
    }

    /// A tile's stored bytes, checked against its CRC.
    pub fn read_stored(&self, field: usize, key: TileKey) -> Result<Vec<u8>, FormatError> {
        let e = self.stored_entry(field, key)?;
        let mut stored = vec![0u8; e.length as usize];
        self.read_stored_into(field, key, e, &mut stored)?;
        Ok(stored)
    }

    fn stored_entry(&self, field: usize, key: TileKey) -> Result<TileEntry, FormatError> {
        self.entry(field, key).ok_or_else(|| {
            FormatError::Corrupt(format!(
                "no tile {key:?} of field {field} in {}",
                self.name.display()
            ))
        })
    }

    /// As [`read_stored`](Self::read_stored), of the tile at index entry `e`, into `stored`
    /// (its stored length).
    fn read_stored_into(
        &self,
        field: usize,
        key: TileKey,
        e: TileEntry,
        stored: &mut [u8],
    ) -> Result<(), FormatError> {
        debug_assert_eq!(stored.len() as u64, e.length as u64);
        self.bytes
            .read_at(e.offset, stored)
            .map_err(|err| FormatError::io(&self.name, err))?;
        self.check_stored(field, key, e, stored)?;
        self.bytes.vouch(e.offset, stored);
        Ok(())
    }

    fn check_stored(
        &self,
        field: usize,
        key: TileKey,
        e: TileEntry,
        stored: &[u8],
    ) -> Result<(), FormatError> {
        let computed = crc32fast::hash(stored);
        if computed != e.crc32 {
            return Err(FormatError::Checksum {
                what: format!(
                    "{} tile {}/{},{}",
                    self.fields[field].name, key.face, key.tx, key.ty
                ),
                stored: e.crc32,
                computed,
            });
        }
        Ok(())
    }

    /// A tile of one field, read, checked and decoded.
    pub fn read_tile(&self, field: usize, key: TileKey) -> Result<Samples, FormatError> {
        let n = (self.header.tile_size as usize).pow(2);
        // Straight into the typed array: no byte buffer and no second copy.
        fn typed<T: Plain + Default>(
            blob: &Blob,
            field: usize,
            key: TileKey,
            n: usize,
        ) -> Result<Vec<T>, FormatError> {
            let mut v = vec![T::default(); n];
            blob.decode_tile_into(field, key, plain::bytes_mut(&mut v))?;
            Ok(v)
        }
        Ok(match self.fields[field].ty {
            SampleType::F32 => Samples::F32(typed(self, field, key, n)?),
            SampleType::U8 => Samples::U8(typed(self, field, key, n)?),
            SampleType::U16 => Samples::U16(typed(self, field, key, n)?),
        })
    }

    /// A tile of one field, read, checked and decoded into `out`: the tile's samples as
    /// stored (before the field's scale and offset), `tile_size²` of the field's sample size.
    /// The stored bytes pass through this thread's scratch buffer ([`with_scratch`]).
    pub fn decode_tile_into(
        &self,
        field: usize,
        key: TileKey,
        out: &mut [u8],
    ) -> Result<(), FormatError> {
        let f = self.expect_tile_len(field, out.len())?;
        let e = self.stored_entry(field, key)?;
        with_scratch(e.length as usize, |stored| {
            self.read_stored_into(field, key, e, stored)?;
            codec::decode(f.codec, f.ty.size(), stored, out)
        })
    }

    /// The span of tile `key`'s `fields`, when they lie close enough together that one read
    /// of them all beats one read each: as relief writes blobs, a tile's fields back to back.
    /// `None` when they lie apart (a blob written field-major) or a field has no such tile.
    pub fn span(&self, key: TileKey, fields: &[usize]) -> Option<TileSpan> {
        let entries = fields
            .iter()
            .map(|&f| self.entry(f, key).map(|e| (f, e)))
            .collect::<Option<Vec<_>>>()?;
        let start = entries.iter().map(|(_, e)| e.offset).min()?;
        // Inside the file (the index is checked at open): no overflow.
        let end = entries
            .iter()
            .map(|(_, e)| e.offset + e.length as u64)
            .max()?;
        let wanted: u64 = entries.iter().map(|(_, e)| e.length as u64).sum();
        (end - start <= wanted + SPAN_SLACK).then(|| TileSpan {
            offset: start,
            length: (end - start) as usize,
            key,
            entries,
        })
    }

    /// Reads a span's bytes into `out` (its length); each field is checked when decoded.
    pub fn read_span(&self, span: &TileSpan, out: &mut [u8]) -> Result<(), FormatError> {
        debug_assert_eq!(out.len(), span.length);
        self.bytes
            .read_at(span.offset, out)
            .map_err(|err| FormatError::io(&self.name, err))
    }

    /// Vouches for a span read whole ([`ReadAt::vouch`]) once every field in it passes its
    /// CRC: over HTTP its cache entry is served from then on. Nothing to do (and nothing
    /// checked) for a source that keeps no copies.
    pub fn vouch_span(&self, span: &TileSpan, bytes: &[u8]) {
        if !self.bytes.is_remote() {
            return;
        }
        let whole = span.entries.iter().all(|&(field, _)| {
            span.part(field).is_some_and(|(e, range)| {
                self.check_stored(field, span.key, e, &bytes[range]).is_ok()
            })
        });
        if whole {
            self.bytes.vouch(span.offset, bytes);
        }
    }

    /// As [`decode_tile_into`](Self::decode_tile_into), from a span's bytes already read
    /// ([`read_span`](Self::read_span)) rather than from the blob.
    pub fn decode_span_into(
        &self,
        span: &TileSpan,
        bytes: &[u8],
        field: usize,
        out: &mut [u8],
    ) -> Result<(), FormatError> {
        let (e, range) = span.part(field).ok_or_else(|| {
            FormatError::Corrupt(format!("field {field} is not in the span read"))
        })?;
        let f = self.expect_tile_len(field, out.len())?;
        let stored = &bytes[range];
        self.check_stored(field, span.key, e, stored)?;
        codec::decode(f.codec, f.ty.size(), stored, out)
    }

    fn expect_tile_len(&self, field: usize, len: usize) -> Result<&FieldInfo, FormatError> {
        let f = &self.fields[field];
        let want = (self.header.tile_size as usize).pow(2) * f.ty.size();
        if len != want {
            return Err(FormatError::Corrupt(format!(
                "a {} tile is {want} bytes, not {len}",
                f.name
            )));
        }
        Ok(f)
    }

    /// A section's bytes, checked (at most [`MAX_SECTION_BYTES`], inside the file).
    pub fn section(&self, tag: [u8; 4]) -> Result<Option<Vec<u8>>, FormatError> {
        let Some(s) = self.sections.iter().find(|s| s.tag == tag) else {
            return Ok(None);
        };
        let out = crate::bounds::read(
            self.bytes.as_ref(),
            &self.name,
            format_args!("PLNT section {}", String::from_utf8_lossy(&tag)),
            s.offset,
            s.length,
            MAX_SECTION_BYTES,
        )?;
        let computed = crc32fast::hash(&out);
        if computed != s.crc32 {
            return Err(FormatError::Checksum {
                what: format!("PLNT section {}", String::from_utf8_lossy(&tag)),
                stored: s.crc32,
                computed,
            });
        }
        self.bytes.vouch(s.offset, &out);
        Ok(Some(out))
    }
}
