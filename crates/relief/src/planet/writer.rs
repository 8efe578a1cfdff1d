//! Writing a PLNT blob without holding it: encoded tiles spill to a temporary file as they
//! come, every field of a tile back to back in field order, and `finish` lays the spill out
//! after the tables. A tile's fields side by side are what lets a reader over HTTP fetch a
//! whole tile with one ranged request instead of one per field.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::codec::{self, Effort};
use crate::error::FormatError;

use super::blob::TileKey;
use glam::DVec3;

use super::cube::Projection;
use super::format::{
    encode_fields, encode_index, encode_sections, FieldInfo, Header, Section, TileEntry,
    FIELD_BYTES, HEADER_BYTES, INDEX_ENTRY_BYTES, SECTION_BYTES,
};

/// Everything the header says, except what the writer works out (offsets, lengths).
#[derive(Clone, Debug, PartialEq)]
pub struct BlobSpec {
    pub version: u32,
    pub bake_version: u32,
    pub radius: f64,
    pub face_resolution: u32,
    pub tile_size: u32,
    pub projection: Projection,
    pub polar_axis: DVec3,
    pub height_range: [f32; 2],
    pub sea_level: f32,
    pub seed: u64,
    pub fields: Vec<FieldInfo>,
}

/// Encodes one field's raw little-endian samples for a tile with the field's codec.
///
/// LZ4-HC at [`Effort::Medium`]: a tile is written once and read on every visit, and HC's
/// longer matches decode a 256² tile's five fields in about half the time lz4_flex's fast
/// blocks take (the lake and biome fields 10–20× faster), for ~20 ms of bake time a tile.
pub fn encode_tile(field: &FieldInfo, raw: &[u8]) -> Vec<u8> {
    codec::encode_with(field.codec, field.ty.size(), raw, Effort::Medium)
}

struct Spill {
    path: PathBuf,
    file: BufWriter<File>,
    length: u64,
}

/// The spill goes with the writer, whatever ends it: a finished blob, an error, a bake
/// dropped half way. Its name is random, so nothing else would ever remove it.
impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

pub struct BlobWriter {
    out: PathBuf,
    spec: BlobSpec,
    spill: Spill,
    /// Per field, per tile: offset within the spill, length, CRC.
    entries: Vec<Vec<Option<TileEntry>>>,
}

impl BlobWriter {
    pub fn create(out: &Path, spec: BlobSpec) -> Result<BlobWriter, FormatError> {
        let tps = (spec.face_resolution / spec.tile_size) as usize;
        // The tiles wait in a fresh temporary file beside `out` (never a predictable name
        // another user could put a symlink at).
        let (file, path) =
            crate::io::create_temp_beside(out).map_err(|e| FormatError::io(out, e))?;
        Ok(BlobWriter {
            out: out.to_path_buf(),
            entries: vec![vec![None; 6 * tps * tps]; spec.fields.len()],
            spec,
            spill: Spill {
                path,
                file: BufWriter::new(file),
                length: 0,
            },
        })
    }

    fn slot(&self, key: TileKey) -> usize {
        let tps = (self.spec.face_resolution / self.spec.tile_size) as usize;
        (key.face as usize * tps + key.ty as usize) * tps + key.tx as usize
    }

    /// Sets the header's height range (known only once every tile is baked).
    pub fn set_height_range(&mut self, range: [f32; 2]) {
        self.spec.height_range = range;
    }

    /// Adds one tile's encoded bytes for every field (in field order).
    pub fn add_tile(&mut self, key: TileKey, stored: &[Vec<u8>]) -> Result<(), FormatError> {
        assert_eq!(
            stored.len(),
            self.entries.len(),
            "one stored tile per field"
        );
        let slot = self.slot(key);
        for (k, bytes) in stored.iter().enumerate() {
            let s = &mut self.spill;
            s.file
                .write_all(bytes)
                .map_err(|e| FormatError::io(&s.path, e))?;
            self.entries[k][slot] = Some(TileEntry {
                offset: s.length,
                length: bytes.len() as u32,
                crc32: crc32fast::hash(bytes),
            });
            s.length += bytes.len() as u64;
        }
        Ok(())
    }

    /// Lays out the blob: header, field table, index, section table, field data, sections.
    /// Every tile must have been added.
    pub fn finish(self, sections: &[([u8; 4], Vec<u8>)]) -> Result<u64, FormatError> {
        let io = |e| FormatError::io(&self.out, e);
        let fields = self.spec.fields.len();
        let tiles = self.entries.first().map_or(0, Vec::len);
        let index_offset = (HEADER_BYTES + fields * FIELD_BYTES + 4) as u64;
        let sections_offset = index_offset + (fields * tiles * INDEX_ENTRY_BYTES + 4) as u64;
        let data_offset = sections_offset + (sections.len() * SECTION_BYTES + 4) as u64;

        let mut index = Vec::with_capacity(fields * tiles);
        for (k, entries) in self.entries.iter().enumerate() {
            for (t, e) in entries.iter().enumerate() {
                let e = e.ok_or_else(|| {
                    FormatError::Corrupt(format!("tile {t} of field {k} was never written"))
                })?;
                index.push(TileEntry {
                    offset: data_offset + e.offset,
                    ..e
                });
            }
        }
        let mut table = Vec::with_capacity(sections.len());
        let mut at = data_offset + self.spill.length;
        for (tag, bytes) in sections {
            table.push(Section {
                tag: *tag,
                crc32: crc32fast::hash(bytes),
                offset: at,
                length: bytes.len() as u64,
            });
            at += bytes.len() as u64;
        }
        let header = Header {
            version: self.spec.version,
            bake_version: self.spec.bake_version,
            radius: self.spec.radius,
            face_resolution: self.spec.face_resolution,
            tile_size: self.spec.tile_size,
            projection: self.spec.projection,
            field_count: fields as u32,
            polar_axis: self.spec.polar_axis,
            height_min: self.spec.height_range[0],
            height_max: self.spec.height_range[1],
            sea_level: self.spec.sea_level,
            section_count: sections.len() as u32,
            seed: self.spec.seed,
            index_offset,
            sections_offset,
            data_offset,
            file_length: at,
        };

        // Whole or not at all: into a fresh temporary file renamed over `out` at the end.
        let (file, tmp) = crate::io::create_temp_beside(&self.out).map_err(io)?;
        let out = self.out.clone();
        let written = self.write_blob(file, &header, &index, &table, sections);
        let written = written
            .and_then(|()| std::fs::rename(&tmp, &out).map_err(|e| FormatError::io(&out, e)));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written.map(|()| at)
    }

    /// The blob's bytes into `file`: header, tables, the spilled tiles, the sections.
    fn write_blob(
        mut self,
        file: File,
        header: &Header,
        index: &[TileEntry],
        table: &[Section],
        sections: &[([u8; 4], Vec<u8>)],
    ) -> Result<(), FormatError> {
        let io = |e| FormatError::io(&self.out, e);
        let mut w = BufWriter::with_capacity(1 << 20, file);
        w.write_all(&header.encode()).map_err(io)?;
        w.write_all(&encode_fields(&self.spec.fields)).map_err(io)?;
        w.write_all(&encode_index(index)).map_err(io)?;
        w.write_all(&encode_sections(table)).map_err(io)?;
        let spill = &mut self.spill;
        spill
            .file
            .flush()
            .map_err(|e| FormatError::io(&spill.path, e))?;
        let mut r = File::open(&spill.path).map_err(|e| FormatError::io(&spill.path, e))?;
        std::io::copy(&mut r, &mut w).map_err(io)?;
        for (_, bytes) in sections {
            w.write_all(bytes).map_err(io)?;
        }
        w.flush().map_err(io)?;
        w.get_ref().sync_data().map_err(io)
    }
}
