//! The disk cache of fetched bytes: one file per entry, named by a SHA-256 digest of its key
//! (URL without query, validator, range), holding that digest (never the key: a URL's
//! credentials stay out of the cache), a CRC-32 of the bytes and whether they are proven.
//!
//! Why it is safe to share and to crash in: an entry is written to a fresh temporary file
//! (a name no one can predict, created exclusively) and renamed into place, so a reader sees
//! a whole entry or none; every read checks the digest and the CRC, and an entry that fails
//! is deleted and fetched again. Two processes on one directory each keep their own tally of
//! its size and evict by the files' modification times (touched on every hit), so neither
//! needs a lock the other could leave held; an entry one deletes while the other reads it is,
//! to the reader, a miss or a read that completed.
//!
//! Why it never serves a wrong answer twice: bytes a server sent are *staged* — written but
//! not served — until the format that read them has checked them (a tile's or region's own
//! CRC) and *proves* them. An answer of the right length but the wrong bytes fails that check
//! and is never proven, so the next session fetches it again from a server that may since
//! have been fixed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use parking_lot::Mutex;

const MAGIC: [u8; 4] = *b"RLCE";
/// 2: digests for keys, and the proven flag (entries of version 1 are dropped on sight).
const VERSION: u32 = 2;
/// Magic, version, proven flag, key digest, payload length, payload CRC.
const HEAD: usize = 4 + 4 + 4 + 32 + 8 + 4;
/// Where the proven flag is: the one word ever rewritten in place.
const PROVEN_AT: u64 = 8;
const SUFFIX: &str = "rce";
/// After an eviction the cache holds at most this share of its budget, so that eviction
/// (a directory scan) runs once per tenth of the budget written, not once per entry.
const EVICT_TO: f64 = 0.9;

pub struct DiskCache {
    dir: PathBuf,
    budget: u64,
    /// This process's estimate of the directory's size: exact after a scan, then grown by
    /// what it writes.
    used: AtomicU64,
    evicting: Mutex<()>,
    hits: AtomicU64,
    dropped: AtomicU64,
}

/// The SHA-256 of a key: what names and identifies its entry.
fn digest(key: &str) -> [u8; 32] {
    let d = ring::digest::digest(&ring::digest::SHA256, key.as_bytes());
    d.as_ref().try_into().expect("32 bytes")
}

impl DiskCache {
    /// Opens (creating) a cache directory holding at most `budget` bytes.
    pub fn open(dir: &Path, budget: u64) -> std::io::Result<DiskCache> {
        std::fs::create_dir_all(dir)?;
        let cache = DiskCache {
            dir: dir.to_path_buf(),
            budget,
            used: AtomicU64::new(0),
            evicting: Mutex::new(()),
            hits: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
        };
        let (used, _) = cache.scan();
        cache.used.store(used, Ordering::Relaxed);
        Ok(cache)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Entries read back and found whole.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Entries found damaged (wrong digest, length or CRC, or not a file) and deleted.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    fn path(&self, key: &str) -> PathBuf {
        let d = digest(key);
        let name: String = d[..16].iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{name}.{SUFFIX}"))
    }

    /// Opens an entry for reading: a regular file only (a FIFO put in its place is refused
    /// without blocking, and deleted).
    fn open_entry(&self, path: &Path) -> Option<std::fs::File> {
        match crate::io::open_regular(path) {
            Ok(file) => Some(file),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                let _ = std::fs::remove_file(path);
                None
            }
            Err(_) => None,
        }
    }

    /// Fills `out` from the proven entry for `key` if there is one of exactly that length,
    /// whole.
    pub fn get_into(&self, key: &str, out: &mut [u8]) -> bool {
        let path = self.path(key);
        match self.open_entry(&path) {
            Some(mut file) => self.check(&path, &mut file, key, out),
            None => false,
        }
    }

    /// As [`get_into`](Self::get_into), for an entry of unknown length (at most `max`).
    pub fn get(&self, key: &str, max: u64) -> Option<Vec<u8>> {
        use std::io::Seek;
        let path = self.path(key);
        let mut file = self.open_entry(&path)?;
        let mut head = [0u8; HEAD];
        file.read_exact(&mut head).ok()?;
        let len = u64::from_le_bytes(head[44..52].try_into().unwrap());
        if len > max {
            return None;
        }
        file.rewind().ok()?;
        let mut out = vec![0u8; len as usize];
        self.check(&path, &mut file, key, &mut out).then_some(out)
    }

    fn check(&self, path: &Path, file: &mut std::fs::File, key: &str, out: &mut [u8]) -> bool {
        match read_entry(file, &digest(key), out) {
            Ok(Entry::Whole) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                // The LRU clock: a hit makes the entry the newest. Best effort.
                let _ = file.set_modified(SystemTime::now());
                true
            }
            Ok(Entry::Other | Entry::Unproven) => false,
            Ok(Entry::Damaged) | Err(_) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
                let _ = std::fs::remove_file(path);
                false
            }
        }
    }

    /// Stores `bytes` as the entry for `key`, proven (served from now on), replacing any.
    /// Best effort: a cache that can't be written (full disk, read-only) costs refetches,
    /// never a failed load.
    pub fn put(&self, key: &str, bytes: &[u8]) {
        self.write(key, bytes, true);
    }

    /// Stores `bytes` as the entry for `key` but does not serve them until
    /// [`prove`](Self::prove) says their format found them whole.
    pub fn stage(&self, key: &str, bytes: &[u8]) {
        self.write(key, bytes, false);
    }

    /// Marks `key`'s staged entry proven if it holds the bytes whose CRC-32 is `crc` (the
    /// bytes the format checked, not others staged over them since). Best effort, as
    /// [`put`](Self::put).
    pub fn prove(&self, key: &str, crc: u32) {
        use std::io::{Seek, SeekFrom};
        let path = self.path(key);
        let Some(mut file) = crate::io::open_regular(&path).ok().and_then(|_| {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(&path)
                .ok()
        }) else {
            return;
        };
        // Only an entry of this key (not one another process has since replaced).
        let mut head = [0u8; HEAD];
        let ours = file.read_exact(&mut head).is_ok()
            && head[..4] == MAGIC
            && head[4..8] == VERSION.to_le_bytes()
            && head[12..44] == digest(key)
            && head[52..56] == crc.to_le_bytes();
        if ours && file.seek(SeekFrom::Start(PROVEN_AT)).is_ok() {
            let _ = file.write_all(&1u32.to_le_bytes());
        }
    }

    fn write(&self, key: &str, bytes: &[u8], proven: bool) {
        let size = (HEAD + bytes.len()) as u64;
        if size > self.budget {
            return;
        }
        let path = self.path(key);
        if write_entry(&path, &digest(key), bytes, proven).is_ok() {
            let used = self.used.fetch_add(size, Ordering::Relaxed) + size;
            if used > self.budget {
                self.evict();
            }
        }
    }

    /// Deletes the least recently used entries until the directory holds at most
    /// [`EVICT_TO`] of the budget. Also deletes temporary files a crashed writer left.
    pub fn evict(&self) {
        let Some(_guard) = self.evicting.try_lock() else {
            return; // another thread of this process is at it
        };
        let (mut used, mut entries) = self.scan();
        entries.sort_by_key(|e| e.1);
        let target = (self.budget as f64 * EVICT_TO) as u64;
        for (path, _, size) in entries {
            if used <= target {
                break;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => used -= size,
                // Another process evicted it first.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => used -= size,
                Err(_) => {}
            }
        }
        self.used.store(used, Ordering::Relaxed);
    }

    /// The entries' total size, and each with its modification time and size. Temporary
    /// files older than a minute (a writer that crashed between write and rename) go.
    fn scan(&self) -> (u64, Vec<(PathBuf, SystemTime, u64)>) {
        let mut used = 0;
        let mut entries = Vec::new();
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return (0, entries);
        };
        let now = SystemTime::now();
        for e in dir.flatten() {
            let path = e.path();
            let Ok(meta) = e.metadata() else { continue };
            let modified = meta.modified().unwrap_or(now);
            match path.extension().and_then(|x| x.to_str()) {
                Some(SUFFIX) => {
                    used += meta.len();
                    entries.push((path, modified, meta.len()));
                }
                Some("tmp") => {
                    let age = now.duration_since(modified).unwrap_or_default();
                    if age.as_secs() > 60 {
                        let _ = std::fs::remove_file(&path);
                    }
                }
                _ => {}
            }
        }
        (used, entries)
    }
}

enum Entry {
    Whole,
    /// Whole, but not yet proven by its format: not served.
    Unproven,
    /// Whole, but of another key (a digest collision of the name) or another length.
    Other,
    /// Torn, flipped or not an entry at all.
    Damaged,
}

/// Reads an entry into `out` if it is of the key with `digest` and `out.len()` bytes,
/// checking its CRC.
fn read_entry(
    file: &mut std::fs::File,
    digest: &[u8; 32],
    out: &mut [u8],
) -> std::io::Result<Entry> {
    let mut head = [0u8; HEAD];
    file.read_exact(&mut head)?;
    let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap());
    let len = u64::from_le_bytes(head[44..52].try_into().unwrap());
    if head[..4] != MAGIC || word(4) != VERSION || word(8) > 1 {
        return Ok(Entry::Damaged);
    }
    if head[12..44] != digest[..] || len != out.len() as u64 {
        return Ok(Entry::Other);
    }
    if word(8) != 1 {
        return Ok(Entry::Unproven);
    }
    file.read_exact(out)?;
    // Nothing may follow, and the bytes must be the ones written.
    if file.read(&mut [0u8; 1])? != 0 || crc32fast::hash(out) != word(52) {
        return Ok(Entry::Damaged);
    }
    Ok(Entry::Whole)
}

fn write_entry(path: &Path, digest: &[u8; 32], bytes: &[u8], proven: bool) -> std::io::Result<()> {
    let (mut f, tmp) = crate::io::create_temp_beside(path)?;
    let result = (|| {
        let mut head = Vec::with_capacity(HEAD);
        head.extend_from_slice(&MAGIC);
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&(proven as u32).to_le_bytes());
        head.extend_from_slice(digest);
        head.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        head.extend_from_slice(&crc32fast::hash(bytes).to_le_bytes());
        f.write_all(&head)?;
        f.write_all(bytes)?;
        // No fsync: an entry torn by a power cut fails its CRC and is fetched again.
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("relief-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn entries_read_back_and_damage_is_a_miss_that_deletes() {
        let dir = temp("damage");
        let cache = DiskCache::open(&dir, 1 << 20).unwrap();
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        cache.put("k1", &bytes);
        let mut out = vec![0u8; 1000];
        assert!(cache.get_into("k1", &mut out));
        assert_eq!(out, bytes);
        assert_eq!(cache.get("k1", 4096).as_deref(), Some(&bytes[..]));
        // The wrong length, or another key, is a miss.
        assert!(!cache.get_into("k2", &mut out));
        // One flipped payload byte: a miss, and the entry is gone.
        let path = cache.path("k1");
        let mut raw = std::fs::read(&path).unwrap();
        let last = raw.len() - 1;
        raw[last] ^= 1;
        std::fs::write(&path, &raw).unwrap();
        assert!(!cache.get_into("k1", &mut out));
        assert!(!path.exists());
        assert_eq!(cache.dropped(), 1);
        // A truncated entry likewise.
        cache.put("k1", &bytes);
        let raw = std::fs::read(&path).unwrap();
        std::fs::write(&path, &raw[..raw.len() / 2]).unwrap();
        assert!(!cache.get_into("k1", &mut out));
        assert!(!path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A FIFO (or anything not a file) put where an entry belongs is refused without
    /// blocking and removed; a staged entry is not served until proven.
    #[cfg(unix)]
    #[test]
    fn fifos_are_refused_and_staged_entries_wait_for_proof() {
        let dir = temp("fifo");
        let cache = DiskCache::open(&dir, 1 << 20).unwrap();
        let path = cache.path("k1");
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let mut out = vec![0u8; 16];
        assert!(!cache.get_into("k1", &mut out), "a FIFO served");
        assert!(cache.get("k1", 1 << 20).is_none());
        assert!(!path.exists(), "the FIFO stayed");
        // Staged: a miss until proven, then a hit; another key's proof proves nothing, and
        // nor does a proof of other bytes (what a reader checked before another reader, or
        // process, staged a spoiled answer over it).
        let bytes = vec![9u8; 16];
        let spoiled = vec![7u8; 16];
        cache.stage("k1", &spoiled);
        let checked = crc32fast::hash(&bytes);
        cache.stage("k1", &bytes);
        cache.stage("k1", &spoiled);
        cache.prove("k1", checked);
        assert!(!cache.get_into("k1", &mut out), "spoiled bytes proven");
        cache.stage("k1", &bytes);
        assert!(!cache.get_into("k1", &mut out));
        cache.prove("k2", checked);
        assert!(!cache.get_into("k1", &mut out));
        cache.prove("k1", checked);
        assert!(cache.get_into("k1", &mut out));
        assert_eq!(out, bytes);
        // No entry holds its key's text.
        let raw = std::fs::read(&path).unwrap();
        assert!(!raw.windows(2).any(|w| w == b"k1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn eviction_keeps_the_budget_and_the_newest() {
        let dir = temp("evict");
        let entry = 10_000usize;
        let size = (HEAD + entry) as u64;
        let cache = DiskCache::open(&dir, size * 10).unwrap();
        let mut out = vec![0u8; entry];
        for i in 0..10u8 {
            cache.put(&format!("k{i}"), &vec![i; entry]);
            // Used in order, a second apart (file times are coarser than a loop).
            let f = std::fs::File::options()
                .write(true)
                .open(cache.path(&format!("k{i}")))
                .unwrap();
            f.set_modified(
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + i as u64),
            )
            .unwrap();
        }
        // Make k0 the most recently used: it must survive what comes next.
        assert!(cache.get_into("k0", &mut out));
        for i in 10..15u8 {
            cache.put(&format!("k{i}"), &vec![i; entry]);
        }
        let (used, entries) = cache.scan();
        assert!(used <= size * 10, "{used} > budget");
        assert!(entries.len() < 15);
        assert!(
            cache.get_into("k0", &mut out),
            "the most recently used entry was evicted"
        );
        assert!(cache.get_into("k14", &mut out));
        assert!(!cache.get_into("k1", &mut out), "the oldest entry survived");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn two_caches_on_one_directory_share_entries() {
        let dir = temp("shared");
        let a = DiskCache::open(&dir, 1 << 20).unwrap();
        let b = DiskCache::open(&dir, 1 << 20).unwrap();
        // Both write the same keys at once, with different lengths.
        std::thread::scope(|s| {
            for (n, c) in [&a, &b].into_iter().enumerate() {
                s.spawn(move || {
                    for i in 0..200u32 {
                        c.put(&format!("k{}", i % 10), &vec![(i % 10) as u8; 3000 + n]);
                        let _ = c.get(&format!("k{}", (i + 5) % 10), 1 << 20);
                    }
                });
            }
        });
        // Whatever landed last for a key is whole and of that key.
        for i in 0..10u8 {
            let got = a.get(&format!("k{i}"), 1 << 20).unwrap();
            assert!(got.iter().all(|&x| x == i));
            assert!(got.len() == 3000 || got.len() == 3001);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
