//! Random-access byte sources every format reads from: a file (positioned reads, no shared
//! cursor), memory, or anything a caller implements (engine callbacks, a byte range of an APK).

use std::path::Path;

/// Opens a file for reading without ever blocking in `open()`: a FIFO, a device or a
/// directory where a world or planet file should be is an `InvalidInput` error, not a loader
/// thread (and the streamer's drop) hung for good. (`O_NONBLOCK` does nothing to reads of a
/// regular file.)
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    #[cfg(not(target_os = "linux"))]
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

fn not_regular() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file")
}

/// Random-access bytes: a pack's backing. Called from loader threads concurrently.
pub trait ReadAt: Send + Sync {
    /// Total length in bytes.
    fn length(&self) -> u64;
    /// Fills `out` with the bytes at `offset..offset + out.len()` (always within `len`).
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()>;
    /// True when every read costs a round trip (bytes by URL): readers then ask for a whole
    /// file in one read, and for independent reads from threads side by side, rather than
    /// piece by piece.
    fn is_remote(&self) -> bool {
        false
    }
    /// Says `bytes`, read at `offset`, passed their format's own check (a CRC): a source
    /// that keeps copies between sessions (the HTTP disk cache) serves only copies of bytes
    /// vouched for, so a wrong answer is never served again. Readers call it with exactly
    /// what one read gave them once its check passed; sources that keep nothing ignore it.
    fn vouch(&self, _offset: u64, _bytes: &[u8]) {}
}

/// A file read with positioned reads (no shared cursor, so threads don't contend).
pub struct FileBytes {
    file: std::fs::File,
    len: u64,
}

impl FileBytes {
    pub fn open(path: &Path) -> std::io::Result<FileBytes> {
        FileBytes::from_file(open_regular(path)?)
    }

    /// Reads a file already open (a descriptor another API handed over); anything but a
    /// regular file is an `InvalidInput` error, as for [`open_regular`].
    pub fn from_file(file: std::fs::File) -> std::io::Result<FileBytes> {
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(not_regular());
        }
        Ok(FileBytes {
            file,
            len: meta.len(),
        })
    }
}

impl ReadAt for FileBytes {
    fn length(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            std::os::unix::fs::FileExt::read_exact_at(&self.file, out, offset)
        }
        #[cfg(windows)]
        {
            let mut done = 0;
            while done < out.len() {
                let n = std::os::windows::fs::FileExt::seek_read(
                    &self.file,
                    &mut out[done..],
                    offset + done as u64,
                )?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                done += n;
            }
            Ok(())
        }
    }
}

/// A byte range of a file, read in place with positioned reads: a pack or PLNT blob stored
/// uncompressed inside an archive — an Android APK's StreamingAssets, where
/// `Application.streamingAssetsPath` is the APK itself — opens where it lies, with no copy
/// into memory or onto storage. Offsets given to [`ReadAt::read_at`] are from the range's
/// start. Not a memory map, for the reason [`FileBytes`] isn't one: a file replaced while
/// streaming fails a read instead of raising SIGBUS.
pub struct FileRange {
    file: FileBytes,
    offset: u64,
    len: u64,
}

impl FileRange {
    /// Opens `length` bytes at `offset` of the file at `path`. A range past the file's end
    /// is an `InvalidInput` error saying so.
    pub fn open(path: &Path, offset: u64, length: u64) -> std::io::Result<FileRange> {
        FileRange::new(FileBytes::open(path)?, offset, length)
    }

    /// `length` bytes at `offset` of a file already open: Android's
    /// `AssetManager.openFd` gives a descriptor of the APK (or of the split APK of an asset
    /// pack) with the entry's offset and length. A range past the file's end is an
    /// `InvalidInput` error saying so.
    pub fn of_file(file: std::fs::File, offset: u64, length: u64) -> std::io::Result<FileRange> {
        FileRange::new(FileBytes::from_file(file)?, offset, length)
    }

    fn new(file: FileBytes, offset: u64, length: u64) -> std::io::Result<FileRange> {
        match offset.checked_add(length) {
            Some(end) if end <= file.len => Ok(FileRange {
                file,
                offset,
                len: length,
            }),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "bytes {offset}..{} run past the end of the {}-byte file",
                    offset as u128 + length as u128,
                    file.len
                ),
            )),
        }
    }
}

impl ReadAt for FileRange {
    fn length(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        match offset.checked_add(out.len() as u64) {
            Some(end) if end <= self.len => self.file.read_at(self.offset + offset, out),
            _ => Err(std::io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

impl ReadAt for Vec<u8> {
    fn length(&self) -> u64 {
        self.len() as u64
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let start = usize::try_from(offset).map_err(|_| std::io::ErrorKind::UnexpectedEof)?;
        let src = start
            .checked_add(out.len())
            .and_then(|end| self.get(start..end))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        out.copy_from_slice(src);
        Ok(())
    }
}

/// A name no other user can predict: `.{stem}.{random}.tmp` (std's `RandomState` is keyed
/// from the OS's random source).
fn unpredictable(stem: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::hash::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    format!(".{stem}.{:016x}.tmp", h.finish())
}

/// Makes a fresh unpredictable name in `dir` with `make` (which must fail if the name is
/// taken), trying again on the rare collision.
fn fresh<T>(
    dir: Option<&Path>,
    stem: &str,
    make: impl Fn(&Path) -> std::io::Result<T>,
) -> std::io::Result<(T, std::path::PathBuf)> {
    let mut tries = 0;
    loop {
        let name = unpredictable(stem);
        let path = dir.map_or_else(|| name.clone().into(), |d| d.join(&name));
        match make(&path) {
            Ok(made) => return Ok((made, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A new, empty file beside `path` for writing what will replace it, and its path: named
/// `.NAME.RANDOM.tmp` with a random part no other user can predict, and created exclusively
/// (`O_CREAT | O_EXCL`: a file or symlink already there under that name is an error, never
/// written through). Rename it over `path` when it is whole; remove it on failure.
pub fn create_temp_beside(path: &Path) -> std::io::Result<(std::fs::File, std::path::PathBuf)> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    fresh(dir, name, |p| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
    })
}

/// A new, empty directory in `parent` named `.{stem}.RANDOM.tmp` (made exclusively: a file
/// or symlink already under that name is an error), for scratch files no other user can
/// put a link among. The caller removes it.
pub fn create_temp_dir(parent: &Path, stem: &str) -> std::io::Result<std::path::PathBuf> {
    fresh(Some(parent), stem, |p| std::fs::create_dir(p)).map(|((), path)| path)
}

/// Writes `bytes` to `path` whole or not at all: into [`create_temp_beside`]'s fresh file,
/// then renamed over `path`. A reader sees the old file or the new one, never part of
/// either; a symlink at `path` is replaced, not followed. Not flushed to the disk (a bake
/// writes hundreds of files): what a power cut tears, the manifest's checksums find.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let (mut file, tmp) = create_temp_beside(path)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The URL without its query and fragment.
pub(crate) fn without_query(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

/// A URL as messages show it: without its query (a presigned URL's signature) and with any
/// `user:password@` replaced by `***@`. (In every build: one without the `http` feature
/// still names a URL it refuses.)
pub fn shown_url(url: &str) -> String {
    let plain = without_query(url);
    let Some((scheme, rest)) = plain.split_once("://") else {
        return plain.to_string();
    };
    let end = rest.find('/').unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => plain.to_string(),
    }
}

/// True if `name` is an `http://` or `https://` URL: what `World::open`, `Planet::open` and
/// the runtime send to [`crate::http`] instead of the file system (or refuse, in a build
/// without the `http` feature).
pub fn is_url(name: &str) -> bool {
    let lower = name.get(..8).unwrap_or(name).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn an_atomic_write_replaces_a_symlink_and_never_writes_through_it() {
        let dir = std::env::temp_dir().join(format!("relief-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap();
        let out = dir.join("out.json");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        write_atomic(&out, b"new").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
        assert_eq!(std::fs::read(&out).unwrap(), b"new");
        assert!(!std::fs::symlink_metadata(&out).unwrap().is_symlink());
        // Two temp files beside one path never share a name, and nothing is left behind.
        let (_, a) = create_temp_beside(&out).unwrap();
        let (_, b) = create_temp_beside(&out).unwrap();
        assert_ne!(a, b);
        std::fs::remove_file(a).unwrap();
        std::fs::remove_file(b).unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_range_reads_its_own_bytes_and_nothing_past_them() {
        let dir = std::env::temp_dir().join(format!("relief-range-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("archive.bin");
        let bytes: Vec<u8> = (0..1000u32).map(|k| (k * 7) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let r = FileRange::open(&path, 100, 300).unwrap();
        assert_eq!(r.length(), 300);
        let mut out = [0u8; 50];
        r.read_at(250, &mut out).unwrap();
        assert_eq!(out[..], bytes[350..400]);
        assert!(r.read_at(251, &mut out).is_err(), "one byte past the range");
        assert!(r.read_at(u64::MAX, &mut out).is_err());
        assert!(FileRange::open(&path, 0, 1000).is_ok());
        for (offset, length) in [(0, 1001), (1000, 1), (u64::MAX, 2)] {
            let e = FileRange::open(&path, offset, length)
                .err()
                .expect("past the end");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert!(
                e.to_string().contains("past the end of the 1000-byte file"),
                "{e}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
