//! A `res://` world read through Godot's `FileAccess`: out of the exported `.pck` on
//! desktop and iOS, out of the APK's assets on Android. Each [`Handle`] is one
//! `FileAccess`, used by one loader thread at a time ([`Handles`] pools them): Godot's
//! `FileAccessPack`, `FileAccessUnix` and `FileAccessAndroid` each keep their own cursor and
//! OS handle, and gdext allows engine calls off the main thread with `experimental-threads`.

use std::io;

use godot::classes::file_access::ModeFlags;
use godot::classes::FileAccess;
use godot::global::Error;
use godot::prelude::*;

use crate::reader::{Handle, Handles, Opener};

/// One `FileAccess`.
struct EngineFile(Gd<FileAccess>);

// SAFETY: a `FileAccess` is a RefCounted engine object; the pool hands it to one thread at a
// time (under its mutex, which orders the uses), and the engine side of each handle is
// independent (own FILE*/AAsset, own position). gdext's `experimental-threads` binding lets
// any thread make the calls; the refcount is atomic in Godot.
unsafe impl Send for EngineFile {}

/// Most bytes asked of `get_buffer` at once: one PackedByteArray of this size at a time.
const STEP: usize = 4 << 20;

impl Handle for EngineFile {
    fn seek(&mut self, position: u64) -> io::Result<()> {
        self.0.seek(position);
        check(self.0.get_error(), "seek")
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let want = out.len().min(STEP);
        let got = self.0.get_buffer(want as i64);
        let n = got.len().min(want);
        out[..n].copy_from_slice(&got.as_slice()[..n]);
        if n < want {
            // Short: the end of the file (n may be 0) or an error the engine kept.
            match self.0.get_error() {
                Error::OK | Error::ERR_FILE_EOF => {}
                e => return check(e, "read").map(|_| n),
            }
        }
        Ok(n)
    }
}

fn check(e: Error, what: &str) -> io::Result<()> {
    match e {
        Error::OK => Ok(()),
        e => Err(io::Error::other(format!("FileAccess {what} failed: {e:?}"))),
    }
}

/// Opens `path` (`res://…`) for positioned reads through FileAccess. A missing file fails
/// here, with Godot's error.
pub fn open(path: &str) -> io::Result<Handles> {
    let first = open_one(path)?;
    let length = first.0.get_length();
    let owned = path.to_string();
    let opener: Opener = Box::new(move || Ok(Box::new(open_one(&owned)?) as Box<dyn Handle>));
    Ok(Handles::new(Box::new(first), length, opener))
}

fn open_one(path: &str) -> io::Result<EngineFile> {
    match FileAccess::open(path, ModeFlags::READ) {
        Some(f) => Ok(EngineFile(f)),
        None => {
            let e = FileAccess::get_open_error();
            let kind = if e == Error::ERR_FILE_NOT_FOUND {
                io::ErrorKind::NotFound
            } else {
                io::ErrorKind::Other
            };
            Err(io::Error::new(
                kind,
                format!("{path}: FileAccess.open failed: {e:?}"),
            ))
        }
    }
}
