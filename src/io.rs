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
}

/// A file read with positioned reads (no shared cursor, so threads don't contend).
pub struct FileBytes {
    file: std::fs::File,
    len: u64,
}

impl FileBytes {
    pub fn open(path: &Path) -> std::io::Result<FileBytes> {
        let file = open_regular(path)?;
        let len = file.metadata()?.len();
        Ok(FileBytes { file, len })
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
