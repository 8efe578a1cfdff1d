//! Positioned reads over an engine's sequential file handles: what lets relief stream a
//! `res://` world out of a PCK or an Android APK through Godot's `FileAccess`.
//!
//! A `FileAccess` has one cursor and must not be used by two threads at once (each
//! `FileAccessUnix` owns a `FILE*`, each `FileAccessAndroid` an `AAsset`, which the NDK says
//! not to share). relief's loader threads read side by side, so [`Handles`] keeps a pool:
//! a read takes an idle handle (or opens one), seeks, reads and puts it back. As many handles
//! exist as reads ever ran at once (the loader threads, plus one), each used by one thread at
//! a time. A handle that failed is dropped, never reused, so one bad read cannot poison the
//! next. No engine types here: the tests drive it with in-memory files.

use std::io;
use std::sync::Mutex;

use relief::io::ReadAt;

/// One sequential file handle: a cursor, reads that may come up short.
pub trait Handle: Send {
    fn seek(&mut self, position: u64) -> io::Result<()>;
    /// Reads up to `out.len()` bytes at the cursor and advances it; `Ok(0)` at the end.
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize>;
}

/// Opens another handle on the same file (from whichever thread needs one).
pub type Opener = Box<dyn Fn() -> io::Result<Box<dyn Handle>> + Send + Sync>;

/// Idle handles kept for reuse beyond this are closed: more never run at once unless the
/// caller has more threads than any runtime starts.
const MAX_IDLE: usize = 32;

/// A file as random-access bytes, read through a pool of sequential handles.
pub struct Handles {
    open: Opener,
    idle: Mutex<Vec<Box<dyn Handle>>>,
    length: u64,
    opened: std::sync::atomic::AtomicUsize,
}

impl Handles {
    /// A pool starting with `first` (the handle that found the file and its `length`, in
    /// bytes as the engine reports it); `open` makes more when reads overlap.
    pub fn new(first: Box<dyn Handle>, length: u64, open: Opener) -> Handles {
        Handles {
            open,
            idle: Mutex::new(vec![first]),
            length,
            opened: 1.into(),
        }
    }

    /// How many handles were ever opened (a test's window into the pool).
    pub fn handles_opened(&self) -> usize {
        self.opened.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn take(&self) -> io::Result<Box<dyn Handle>> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            Some(h) => Ok(h),
            None => {
                let h = (self.open)()?;
                self.opened
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Ok(h)
            }
        }
    }

    fn put_back(&self, handle: Box<dyn Handle>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(handle);
        }
    }
}

impl ReadAt for Handles {
    fn length(&self) -> u64 {
        self.length
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<()> {
        let end = offset.checked_add(out.len() as u64);
        if end.is_none_or(|end| end > self.length) {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "bytes {offset}..+{} lie past the {}-byte file",
                    out.len(),
                    self.length
                ),
            ));
        }
        let mut handle = self.take()?;
        // On any error the handle is dropped here (its cursor and state are unknown).
        fill(handle.as_mut(), offset, out)?;
        self.put_back(handle);
        Ok(())
    }
}

/// Seeks to `offset` and reads until `out` is full, however short each read comes back.
fn fill(handle: &mut dyn Handle, offset: u64, out: &mut [u8]) -> io::Result<()> {
    handle.seek(offset)?;
    let mut done = 0;
    while done < out.len() {
        match handle.read(&mut out[done..])? {
            0 => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "the file ended {} bytes into a {}-byte read at {offset}",
                        done,
                        out.len()
                    ),
                ))
            }
            n => done += n,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;

    /// An in-memory file handle that returns at most `step` bytes a read, fails reads that
    /// touch `bad`, and panics if two threads ever use it at once.
    struct Fake {
        bytes: Arc<Vec<u8>>,
        cursor: u64,
        step: usize,
        bad: Option<u64>,
        busy: Arc<AtomicBool>,
    }

    impl Fake {
        fn enter(&self) {
            assert!(
                !self.busy.swap(true, Ordering::SeqCst),
                "a handle used by two threads at once"
            );
        }
        fn leave(&self) {
            self.busy.store(false, Ordering::SeqCst);
        }
    }

    impl Handle for Fake {
        fn seek(&mut self, position: u64) -> io::Result<()> {
            self.enter();
            self.cursor = position;
            std::thread::yield_now();
            self.leave();
            Ok(())
        }

        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.enter();
            let start = (self.cursor as usize).min(self.bytes.len());
            let n = out.len().min(self.step).min(self.bytes.len() - start);
            let result = match self.bad {
                Some(b) if (start as u64..(start + n) as u64).contains(&b) => {
                    Err(io::Error::other("injected read error"))
                }
                _ => {
                    out[..n].copy_from_slice(&self.bytes[start..start + n]);
                    self.cursor += n as u64;
                    Ok(n)
                }
            };
            std::thread::yield_now();
            self.leave();
            result
        }
    }

    fn file(len: usize) -> Arc<Vec<u8>> {
        Arc::new((0..len).map(|i| (i * 31 % 251) as u8).collect())
    }

    fn handles(bytes: &Arc<Vec<u8>>, step: usize, bad: Option<u64>) -> Handles {
        let b = bytes.clone();
        let opener: Opener = Box::new(move || {
            Ok(Box::new(Fake {
                bytes: b.clone(),
                cursor: 0,
                step,
                bad,
                busy: Arc::new(AtomicBool::new(false)),
            }) as Box<dyn Handle>)
        });
        let first = opener().unwrap();
        Handles::new(first, bytes.len() as u64, opener)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Reads from many threads at once, short reads and all, return exactly the file's
        /// bytes, and never more handles exist than reads ran at once.
        #[test]
        fn parallel_positioned_reads_return_the_file_s_bytes(
            len in 1usize..20_000,
            step in 1usize..700,
            threads in 1usize..8,
            reads in proptest::collection::vec((0.0f64..1.0, 0usize..3000), 1..40),
        ) {
            let bytes = file(len);
            let h = handles(&bytes, step, None);
            std::thread::scope(|s| {
                for t in 0..threads {
                    let (h, bytes, reads) = (&h, &bytes, &reads);
                    s.spawn(move || {
                        for (i, &(at, n)) in reads.iter().enumerate() {
                            if i % threads != t {
                                continue;
                            }
                            let offset = ((at * len as f64) as usize).min(len - 1);
                            let n = n.min(len - offset);
                            let mut out = vec![0u8; n];
                            h.read_at(offset as u64, &mut out).unwrap();
                            assert_eq!(out, bytes[offset..offset + n]);
                        }
                    });
                }
            });
            prop_assert!(h.handles_opened() <= threads + 1, "{} handles for {threads} threads", h.handles_opened());
        }
    }

    #[test]
    fn a_read_past_the_end_is_an_error_and_reads_nothing() {
        let bytes = file(100);
        let h = handles(&bytes, 7, None);
        let mut out = [0u8; 10];
        let e = h.read_at(95, &mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert!(e.to_string().contains("100-byte"), "{e}");
        assert!(h.read_at(u64::MAX - 2, &mut out).is_err());
        h.read_at(90, &mut out).unwrap();
        assert_eq!(out[..], bytes[90..100]);
    }

    #[test]
    fn a_file_shorter_than_the_engine_said_is_an_error_not_a_hang() {
        let bytes = file(100);
        let b = bytes.clone();
        let opener: Opener = Box::new(move || {
            Ok(Box::new(Fake {
                bytes: b.clone(),
                cursor: 0,
                step: 9,
                bad: None,
                busy: Arc::new(AtomicBool::new(false)),
            }) as Box<dyn Handle>)
        });
        // The engine claims 150 bytes; only 100 are there.
        let h = Handles::new(opener().unwrap(), 150, opener);
        let mut out = [0u8; 40];
        let e = h.read_at(80, &mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert!(e.to_string().contains("ended 20 bytes into"), "{e}");
    }

    #[test]
    fn a_failed_read_drops_its_handle_and_the_next_read_works() {
        let bytes = file(1000);
        let h = handles(&bytes, 64, Some(500));
        let mut out = [0u8; 100];
        let e = h.read_at(450, &mut out).unwrap_err();
        assert!(e.to_string().contains("injected"), "{e}");
        // The failed handle is gone: the next read opens a fresh one.
        h.read_at(0, &mut out).unwrap();
        assert_eq!(out[..], bytes[..100]);
        assert_eq!(h.handles_opened(), 2);
    }

    #[test]
    fn a_handle_that_cannot_be_opened_fails_the_read_that_needed_it() {
        // Opens after the first fail at the read that needed another handle, and say why.
        let bytes = file(64);
        let count = Arc::new(AtomicUsize::new(0));
        let (b, c) = (bytes.clone(), count.clone());
        let opener: Opener = Box::new(move || {
            if c.fetch_add(1, Ordering::SeqCst) > 0 {
                return Err(io::Error::other("too many open files"));
            }
            Ok(Box::new(Fake {
                bytes: b.clone(),
                cursor: 0,
                step: 64,
                bad: Some(10),
                busy: Arc::new(AtomicBool::new(false)),
            }) as Box<dyn Handle>)
        });
        let h = Handles::new(opener().unwrap(), 64, opener);
        let mut out = [0u8; 20];
        assert!(h.read_at(0, &mut out).is_err()); // the read error drops the only handle
        let e = h.read_at(30, &mut out).unwrap_err();
        assert!(e.to_string().contains("too many open files"), "{e}");
    }

    #[test]
    fn a_world_opens_and_streams_through_handles() {
        // The whole route the extension takes for `res://`: a pack read through handles.
        use relief::runtime::Ground;
        let dir = crate::test_worlds::scratch("reader");
        let pack = crate::test_worlds::small_pack(&dir);
        let bytes = Arc::new(std::fs::read(&pack).unwrap());
        let h = handles(&bytes, 1000, None);
        let (Ground::Flat(a), Ground::Flat(b)) = (
            Ground::open_bytes("res://w.rlpack", Box::new(h)).unwrap(),
            Ground::open(&pack).unwrap(),
        ) else {
            panic!("a flat world");
        };
        let bits = crate::test_worlds::height_bits;
        assert!(bits(&a) == bits(&b), "the heights differ");
        // A file too short to be anything is an error saying so.
        let h = handles(&Arc::new(vec![1, 2]), 1, None);
        let e = Ground::open_bytes("res://short.rlpack", Box::new(h))
            .err()
            .unwrap();
        assert!(e.to_string().contains("truncated"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
