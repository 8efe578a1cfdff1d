//! Where a world's files come from: a directory, or a pack (every file of a world in one,
//! docs/formats.md) read from a path, from memory, or through a caller's `read_at` callback.
//! Packs exist for platforms where a world can't be a directory of files on disk: an Android
//! APK's StreamingAssets can't be opened by path or mapped, only read through the engine.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::FormatError;
use crate::io::{FileBytes, ReadAt};

/// The largest file a world reads whole (manifest, tables, overview): 1 GiB, ten times the
/// tables of a 16 km world.
pub const MAX_WHOLE_FILE: u64 = 1 << 30;

pub const PACK_MAGIC: [u8; 4] = *b"RLPK";
pub const PACK_VERSION: u32 = 1;
/// Magic, version, file count, index length.
const PACK_HEAD: usize = 16;
/// Each file starts on this boundary, so a mapped pack's layers are aligned for their types.
const PACK_ALIGN: u64 = 16;
/// An index longer than this is corrupt: a world has a few thousand files at most.
const PACK_INDEX_MAX: usize = 64 << 20;

/// A pack's index over its backing bytes.
pub struct Pack {
    name: PathBuf,
    bytes: Box<dyn ReadAt>,
    files: HashMap<String, (u64, u64)>,
    /// The pack's file, when it was opened by path: where its files' bytes lie on disk.
    disk: Option<PathBuf>,
}

impl Pack {
    /// Reads and checks the index (magic, version, CRC, every entry inside the backing).
    pub fn open(name: impl Into<PathBuf>, bytes: Box<dyn ReadAt>) -> Result<Pack, FormatError> {
        let name = name.into();
        let total = bytes.length();
        let io = |e| FormatError::io(&name, e);
        let need = |n: u64| {
            if n > total {
                Err(FormatError::Truncated {
                    need: n,
                    have: total,
                })
            } else {
                Ok(())
            }
        };
        need(PACK_HEAD as u64)?;
        let mut head = [0u8; PACK_HEAD];
        bytes.read_at(0, &mut head).map_err(io)?;
        if head[..4] != PACK_MAGIC {
            return Err(FormatError::BadMagic {
                expected: "relief pack",
                found: head[..4].to_vec(),
            });
        }
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap());
        if word(4) != PACK_VERSION {
            return Err(FormatError::UnsupportedVersion {
                what: "pack",
                found: word(4),
                supported: PACK_VERSION,
            });
        }
        let (count, index_len) = (word(8) as usize, word(12) as usize);
        let index = crate::bounds::read(
            bytes.as_ref(),
            &name,
            "pack index",
            PACK_HEAD as u64,
            index_len as u64 + 4,
            PACK_INDEX_MAX as u64 + 4,
        )?;
        let stored = u32::from_le_bytes(index[index_len..].try_into().unwrap());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&index[..index_len]);
        let computed = crc.finalize();
        if stored != computed {
            return Err(FormatError::Checksum {
                what: "pack index".into(),
                stored,
                computed,
            });
        }
        let mut files = HashMap::with_capacity(count.min(index_len / 18));
        let mut at = &index[..index_len];
        for _ in 0..count {
            let (entry, rest) = parse_entry(at)
                .ok_or_else(|| FormatError::Corrupt("pack index entry cut short".into()))?;
            at = rest;
            let (file, offset, length) = entry;
            if offset.checked_add(length).map_or(true, |end| end > total) {
                return Err(FormatError::Corrupt(format!(
                    "pack entry `{file}` ({length} bytes at {offset}) lies outside the pack's {total} bytes"
                )));
            }
            if files.insert(file.clone(), (offset, length)).is_some() {
                return Err(FormatError::Corrupt(format!("pack lists `{file}` twice")));
            }
        }
        if !at.is_empty() {
            return Err(FormatError::Corrupt(format!(
                "{} bytes after the pack's last index entry",
                at.len()
            )));
        }
        bytes.vouch(0, &head);
        bytes.vouch(PACK_HEAD as u64, &index);
        Ok(Pack {
            name,
            bytes,
            files,
            disk: None,
        })
    }

    fn entry(&self, file: &str) -> Result<(u64, u64), FormatError> {
        self.files.get(file).copied().ok_or(FormatError::Missing {
            path: self.path_of(file),
        })
    }

    fn path_of(&self, file: &str) -> PathBuf {
        PathBuf::from(format!("{}!{file}", self.name.display()))
    }
}

/// One index entry: a file's name, offset and length.
type Entry = (String, u64, u64);

fn parse_entry(at: &[u8]) -> Option<(Entry, &[u8])> {
    let n = u16::from_le_bytes(at.get(..2)?.try_into().ok()?) as usize;
    let name = std::str::from_utf8(at.get(2..2 + n)?).ok()?.to_string();
    let rest = at.get(2 + n..)?;
    let offset = u64::from_le_bytes(rest.get(..8)?.try_into().ok()?);
    let length = u64::from_le_bytes(rest.get(8..16)?.try_into().ok()?);
    Some(((name, offset, length), &rest[16..]))
}

/// Writes every named file of `dir` into one pack at `out`, in the order given.
pub fn write_pack(dir: &Path, names: &[String], out: &Path) -> Result<u64, FormatError> {
    let mut index = Vec::new();
    let mut lengths = Vec::with_capacity(names.len());
    for name in names {
        let path = dir.join(name);
        let len = std::fs::metadata(&path)
            .map_err(|e| FormatError::io(&path, e))?
            .len();
        lengths.push(len);
        index.extend_from_slice(&(name.len() as u16).to_le_bytes());
        index.extend_from_slice(name.as_bytes());
        index.extend_from_slice(&[0u8; 16]); // offset and length, filled below
    }
    let mut offset = align((PACK_HEAD + index.len() + 4) as u64);
    let mut at = 0;
    let mut offsets = Vec::with_capacity(names.len());
    for (name, &len) in names.iter().zip(&lengths) {
        at += 2 + name.len();
        index[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        index[at + 8..at + 16].copy_from_slice(&len.to_le_bytes());
        at += 16;
        offsets.push(offset);
        offset = align(offset + len);
    }
    let mut head = Vec::with_capacity(PACK_HEAD);
    head.extend_from_slice(&PACK_MAGIC);
    head.extend_from_slice(&PACK_VERSION.to_le_bytes());
    head.extend_from_slice(&(names.len() as u32).to_le_bytes());
    head.extend_from_slice(&(index.len() as u32).to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    crc.update(&index);

    // Into a fresh temporary file, renamed over `out` once whole.
    let io = |e| FormatError::io(out, e);
    let (file, tmp) = crate::io::create_temp_beside(out).map_err(io)?;
    let written = write_pack_into(
        file,
        out,
        dir,
        names,
        &offsets,
        &head,
        &index,
        crc.finalize(),
    )
    .and_then(|n| std::fs::rename(&tmp, out).map(|()| n).map_err(io));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The pack's bytes into `file` (which will be `out`): head, index, CRC, then each file of
/// `dir` at its offset.
#[allow(clippy::too_many_arguments)]
fn write_pack_into(
    file: std::fs::File,
    out: &Path,
    dir: &Path,
    names: &[String],
    offsets: &[u64],
    head: &[u8],
    index: &[u8],
    crc: u32,
) -> Result<u64, FormatError> {
    use std::io::Write;
    let io = |e| FormatError::io(out, e);
    let mut w = std::io::BufWriter::new(file);
    w.write_all(head).map_err(io)?;
    w.write_all(index).map_err(io)?;
    w.write_all(&crc.to_le_bytes()).map_err(io)?;
    let mut written = (PACK_HEAD + index.len() + 4) as u64;
    for (name, &start) in names.iter().zip(offsets) {
        let pad = (start - written) as usize;
        w.write_all(&[0u8; PACK_ALIGN as usize][..pad])
            .map_err(io)?;
        let path = dir.join(name);
        let mut src = std::fs::File::open(&path).map_err(|e| FormatError::io(&path, e))?;
        written = start + std::io::copy(&mut src, &mut w).map_err(io)?;
    }
    w.flush().map_err(io)?;
    w.get_ref().sync_data().map_err(io)?;
    Ok(written)
}

fn align(x: u64) -> u64 {
    x.div_ceil(PACK_ALIGN) * PACK_ALIGN
}

/// A world's files, wherever they are.
pub enum Store {
    Dir(PathBuf),
    Pack(Pack),
}

impl Store {
    /// A directory, a pack file, or a pack by `http://` or `https://` URL (with
    /// [`HttpOptions::default`](crate::http::HttpOptions)).
    pub fn open(path: &Path) -> Result<Store, FormatError> {
        if let Some(url) = path.to_str().filter(|p| crate::io::is_url(p)) {
            #[cfg(feature = "http")]
            return Store::open_url(url, &crate::http::HttpOptions::default());
            #[cfg(not(feature = "http"))]
            return Err(FormatError::no_http(url));
        }
        let meta = std::fs::metadata(path).map_err(|e| FormatError::io(path, e))?;
        if meta.is_dir() {
            return Ok(Store::Dir(path.to_path_buf()));
        }
        let bytes = FileBytes::open(path).map_err(|e| FormatError::io(path, e))?;
        let mut pack = Pack::open(path, Box::new(bytes))?;
        pack.disk = Some(path.to_path_buf());
        Ok(Store::Pack(pack))
    }

    /// A pack on a server, read by ranged GETs through `options`' cache.
    #[cfg(feature = "http")]
    pub fn open_url(url: &str, options: &crate::http::HttpOptions) -> Result<Store, FormatError> {
        let bytes = crate::http::HttpBytes::open_for_reading(url, options)?;
        let name = PathBuf::from(bytes.url());
        Ok(Store::Pack(Pack::open(name, Box::new(bytes))?))
    }

    /// The directory or pack this store reads, for messages.
    pub fn name(&self) -> &Path {
        match self {
            Store::Dir(d) => d,
            Store::Pack(p) => &p.name,
        }
    }

    /// Says `bytes`, `file` read whole, passed their checks ([`ReadAt::vouch`]): a pack on
    /// a server may keep them in its disk cache from now on.
    pub fn vouch(&self, file: &str, bytes: &[u8]) {
        if let Store::Pack(p) = self {
            if let Ok((offset, _)) = p.entry(file) {
                p.bytes.vouch(offset, bytes);
            }
        }
    }

    /// True for a pack on a server ([`ReadAt::is_remote`]).
    pub fn is_remote(&self) -> bool {
        matches!(self, Store::Pack(p) if p.bytes.is_remote())
    }

    /// Where `file`'s bytes lie on disk: (the file holding them, offset, length). Its own
    /// file in a directory; its range of the pack for a pack opened by path; `None` for a
    /// pack in memory, behind a callback or on a server, or a file not in the world.
    pub fn on_disk(&self, file: &str) -> Option<(PathBuf, u64, u64)> {
        match self {
            Store::Dir(d) => {
                let path = d.join(file);
                let len = std::fs::metadata(&path).ok()?.len();
                Some((path, 0, len))
            }
            Store::Pack(p) => {
                let (offset, len) = p.entry(file).ok()?;
                Some((p.disk.clone()?, offset, len))
            }
        }
    }

    /// How a file is named in messages: `dir/file`, or `pack!file`.
    pub fn path_of(&self, file: &str) -> PathBuf {
        match self {
            Store::Dir(d) => d.join(file),
            Store::Pack(p) => p.path_of(file),
        }
    }

    pub fn len(&self, file: &str) -> Result<u64, FormatError> {
        match self {
            Store::Dir(d) => {
                let path = d.join(file);
                let meta = std::fs::metadata(&path).map_err(|e| FormatError::io(&path, e))?;
                if !meta.is_file() {
                    let e =
                        std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
                    return Err(FormatError::io(&path, e));
                }
                Ok(meta.len())
            }
            Store::Pack(p) => Ok(p.entry(file)?.1),
        }
    }

    /// Reads a whole file (the manifest, a table, the overview): at most [`MAX_WHOLE_FILE`]
    /// bytes, so a file that claims (or sparsely is) a terabyte is an error, not an abort;
    /// the buffer grows as the bytes arrive ([`crate::bounds`]).
    pub fn read(&self, file: &str) -> Result<Vec<u8>, FormatError> {
        let path = self.path_of(file);
        match self {
            Store::Dir(_) => crate::bounds::read_file(&path, MAX_WHOLE_FILE),
            Store::Pack(p) => {
                let (offset, len) = p.entry(file)?;
                crate::bounds::read(
                    p.bytes.as_ref(),
                    &path,
                    path.display(),
                    offset,
                    len,
                    MAX_WHOLE_FILE,
                )
            }
        }
    }

    /// A reader over one file and its length.
    pub fn open_file(&self, file: &str) -> Result<(Box<dyn Read + '_>, u64), FormatError> {
        match self {
            Store::Dir(d) => {
                let path = d.join(file);
                let f = crate::io::open_regular(&path).map_err(|e| FormatError::io(&path, e))?;
                let len = f.metadata().map_err(|e| FormatError::io(&path, e))?.len();
                Ok((Box::new(f), len))
            }
            Store::Pack(p) if p.bytes.is_remote() => {
                // One request for the whole file, then read from memory.
                let bytes = self.read(file)?;
                let len = bytes.len() as u64;
                Ok((Box::new(std::io::Cursor::new(bytes)), len))
            }
            Store::Pack(p) => {
                let (offset, len) = p.entry(file)?;
                Ok((
                    Box::new(PackReader {
                        bytes: &*p.bytes,
                        at: offset,
                        end: offset + len,
                    }),
                    len,
                ))
            }
        }
    }
}

struct PackReader<'a> {
    bytes: &'a dyn ReadAt,
    at: u64,
    end: u64,
}

impl Read for PackReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = (self.end - self.at).min(out.len() as u64) as usize;
        self.bytes.read_at(self.at, &mut out[..n])?;
        self.at += n as u64;
        Ok(n)
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Store::Dir(d) => f.debug_tuple("Dir").field(d).finish(),
            Store::Pack(p) => f
                .debug_struct("Pack")
                .field("name", &p.name)
                .field("files", &p.files.len())
                .finish(),
        }
    }
}
