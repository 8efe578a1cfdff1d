//! Worlds and planets by URL: [`HttpBytes`] is a [`ReadAt`] over an `http://` or `https://`
//! URL, reading with ranged GETs on the caller's (a loader's) thread and keeping what it
//! fetched in a verified, budgeted disk cache ([`cache`]) that stands in for the server when
//! the network is gone.
//!
//! A read is one request: readers of remote bytes ([`ReadAt::is_remote`]) ask for a whole
//! region file at once and a planet tile's fields together, never piece by piece; readers of
//! a range already being fetched wait for that request instead of sending theirs.
//! The first [`HEAD_BYTES`] of the file come with the request that opens it and stay in
//! memory, so a pack's head and index or a planet's header cost nothing more.

pub mod cache;
pub mod client;
mod flight;
pub mod proxy;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

pub use cache::DiskCache;
pub use client::{HttpError, Version};

use crate::config::{at_most, ConfigError};
use crate::io::ReadAt;

/// What the opening request asks for: a pack's head and index, or a planet's header, field
/// table and a small planet's index, in the one round trip that learns the file's length.
pub const HEAD_BYTES: u64 = 256 << 10;

/// How relief talks to a server. [`HttpOptions::default`] is what `World::open(url)` uses.
/// Its `Debug` shows the headers' names, never their values (tokens).
#[derive(Clone)]
pub struct HttpOptions {
    /// Where fetched bytes are kept between sessions; `None`: no disk cache (every session
    /// fetches again, and nothing loads without the network). Created if missing; one that
    /// can't be created or written costs refetches, never a failed open or load.
    pub cache_dir: Option<PathBuf>,
    /// The most the cache directory may hold; least recently used entries go first.
    pub cache_budget: u64,
    /// The longest one request may take, connecting to last byte.
    pub timeout: Duration,
    /// Further tries of a request that failed transiently (no answer, reset, truncated, 5xx,
    /// 429). The streamer retries a failed load again later on top of these.
    pub retries: u32,
    /// Sent with every request, such as `("Authorization", "Bearer …")`. A redirect to
    /// another origin (scheme, host or port) drops them all unless
    /// [`headers_to_other_hosts`](Self::headers_to_other_hosts) is set: a server must not
    /// be able to send a caller's secrets wherever it names.
    pub headers: Vec<(String, String)>,
    /// Send [`headers`](Self::headers) on after a redirect to another origin too (a CDN
    /// that wants the same token). Off by default.
    pub headers_to_other_hosts: bool,
}

impl Default for HttpOptions {
    /// The user's cache directory (`$XDG_CACHE_HOME` or `~/.cache`, `relief/http`) with a
    /// 2 GiB budget, 10 s per request, 2 retries, no extra headers (and none sent to
    /// another host a redirect names).
    fn default() -> HttpOptions {
        let cache_dir = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|base| base.join("relief").join("http"));
        HttpOptions {
            cache_dir,
            cache_budget: 2 << 30,
            timeout: Duration::from_secs(10),
            retries: 2,
            headers: Vec::new(),
            headers_to_other_hosts: false,
        }
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("HttpOptions")
            .field("cache_dir", &self.cache_dir)
            .field("cache_budget", &self.cache_budget)
            .field("timeout", &self.timeout)
            .field("retries", &self.retries)
            .field("headers", &names)
            .field("headers_to_other_hosts", &self.headers_to_other_hosts)
            .finish()
    }
}

/// The longest a request may take.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);
/// The most further tries of one request.
pub const MAX_RETRIES: u32 = 10;

impl HttpOptions {
    /// Checks every field; the error names the first that cannot work: a timeout of 1 ms to
    /// [`MAX_TIMEOUT`], at most [`MAX_RETRIES`] retries, headers whose name is an HTTP token
    /// and whose value has no line break or NUL. [`HttpBytes::open`] calls it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.timeout < Duration::from_millis(1) || self.timeout > MAX_TIMEOUT {
            return Err(ConfigError::new(
                "timeout",
                format!("must be 1 ms to {MAX_TIMEOUT:?}, is {:?}", self.timeout),
            ));
        }
        at_most("retries", self.retries, MAX_RETRIES)?;
        for (i, (name, value)) in self.headers.iter().enumerate() {
            // RFC 9110's token: visible ASCII but for the delimiters.
            let token = |c: char| c.is_ascii_graphic() && !"\"(),/:;<=>?@[\\]{}".contains(c);
            if name.is_empty() || !name.chars().all(token) {
                return Err(ConfigError::new(
                    format!("headers[{i}]"),
                    format!("{name:?} is not a header name"),
                ));
            }
            // Field values are visible characters, spaces and tabs (RFC 9110): a line break
            // would start a header of the value's choosing.
            if value.chars().any(|c| c.is_control() && c != '\t') {
                return Err(ConfigError::new(
                    format!("headers[{i}]"),
                    format!(
                        "the value of {name} holds a line break, NUL or other control character"
                    ),
                ));
            }
        }
        Ok(())
    }
}

pub use crate::io::is_url;

/// Checks a URL before anything is sent: `http://` or `https://`, with no space or control
/// character (a line break in a URL would write a header of its own). [`HttpBytes::open`]
/// calls it; the error names the field `url`.
pub fn check_url(url: &str) -> Result<(), ConfigError> {
    if !is_url(url) {
        return Err(ConfigError::new(
            "url",
            "must start with http:// or https://",
        ));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(ConfigError::new(
            "url",
            "holds a space, line break or other control character",
        ));
    }
    Ok(())
}

/// What was fetched and from where, since the bytes were opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HttpStats {
    /// Requests sent (each try counts once; retries included).
    pub requests: u64,
    /// Bytes received in answer bodies.
    pub fetched_bytes: u64,
    /// Reads answered by the disk cache.
    pub cache_hits: u64,
    /// Reads answered from the bytes the opening request brought.
    pub head_hits: u64,
    /// Reads answered by another reader's request for the same range, in flight at the time.
    pub shared_reads: u64,
}

/// The process's totals over every [`HttpBytes`] (what a game shows as "downloaded", what
/// `relief bench URL` divides by loads).
pub fn totals() -> HttpStats {
    HttpStats {
        requests: TOTALS[0].load(Ordering::Relaxed),
        fetched_bytes: TOTALS[1].load(Ordering::Relaxed),
        cache_hits: TOTALS[2].load(Ordering::Relaxed),
        head_hits: TOTALS[3].load(Ordering::Relaxed),
        shared_reads: TOTALS[4].load(Ordering::Relaxed),
    }
}

/// Requests, fetched bytes, cache hits, head hits, shared reads: [`totals`].
static TOTALS: [AtomicU64; 5] = [
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
];

/// Adds to one of an opened file's counters and to the process's total of it.
fn count(own: &AtomicU64, total: usize, n: u64) {
    own.fetch_add(n, Ordering::Relaxed);
    TOTALS[total].fetch_add(n, Ordering::Relaxed);
}

/// Random-access bytes of one file on a server.
pub struct HttpBytes {
    client: client::Client,
    version: Version,
    /// The file's first bytes, from the request that opened it.
    head: Vec<u8>,
    cache: Option<DiskCache>,
    /// Cache keys start with this: the URL without its query (presigned signatures change
    /// with every signing; the validator says whether the bytes did) and the validator.
    /// Keys are hashed before they name or enter an entry ([`cache`]).
    key_prefix: Option<String>,
    /// The cache's key of this URL's record (version and head, for opening offline).
    record_key: String,
    /// Whether the record has been written this session: once the format vouched for the
    /// head.
    recorded: std::sync::atomic::AtomicBool,
    /// Ranges (offset, length) fetched and staged in the cache, not yet vouched for (a few
    /// thousand at most: past that they are forgotten, and stay unproven).
    staged: Mutex<std::collections::BTreeSet<(u64, u64)>>,
    /// Set when the server's file is found replaced: later fetches fail at once with it.
    changed: Mutex<Option<HttpError>>,
    requests: AtomicU64,
    fetched: AtomicU64,
    cache_hits: AtomicU64,
    head_hits: AtomicU64,
    shared_reads: AtomicU64,
    flights: flight::Flights,
    /// Opened from the cache's record because the server could not be reached.
    offline: bool,
}

impl std::fmt::Debug for HttpBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpBytes")
            .field("url", &self.client.shown())
            .field("version", &self.version)
            .finish()
    }
}

impl HttpBytes {
    /// Opens `url` with one ranged GET of its first [`HEAD_BYTES`]. With the server
    /// unreachable, a cache that has seen this URL opens it as it was then, and reads what it
    /// holds; a server that answers with an error is that error.
    pub fn open(url: &str, options: &HttpOptions) -> Result<HttpBytes, HttpError> {
        check_url(url)?;
        options.validate()?;
        let client = client::Client::new(url, options);
        let cache = options
            .cache_dir
            .as_deref()
            .and_then(|dir| DiskCache::open(dir, options.cache_budget).ok());
        let record_key = format!("record {}", client.key_url());
        let (probe, offline) = match client.probe(HEAD_BYTES) {
            Ok(probe) => (probe, false),
            Err(e) if e.is_unreachable() => {
                match cache.as_ref().and_then(|c| read_record(c, &record_key)) {
                    Some(probe) => (probe, true),
                    None => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        let client::Probe { version, head } = probe;
        // Without a validator a replaced file can't be told from the one cached: no cache.
        let key_prefix = version
            .validator
            .as_ref()
            .map(|v| format!("{} {v} {}", client.key_url(), version.length));
        let cache = cache.filter(|_| key_prefix.is_some());
        let (requests, fetched) = (AtomicU64::new(0), AtomicU64::new(0));
        if !offline {
            count(&requests, 0, 1);
            count(&fetched, 1, head.len() as u64);
        }
        Ok(HttpBytes {
            client,
            version,
            head,
            cache,
            key_prefix,
            changed: Mutex::new(None),
            requests,
            fetched,
            cache_hits: AtomicU64::new(0),
            head_hits: AtomicU64::new(0),
            shared_reads: AtomicU64::new(0),
            flights: flight::Flights::default(),
            record_key,
            // Offline, the record is what opened it: nothing to write.
            recorded: std::sync::atomic::AtomicBool::new(offline),
            staged: Mutex::new(Default::default()),
            offline,
        })
    }

    /// As [`HttpBytes::open`], failing as the formats do: a [`FormatError`] naming the URL
    /// (a 404 is [`FormatError::Missing`]).
    pub fn open_for_reading(
        url: &str,
        options: &HttpOptions,
    ) -> Result<HttpBytes, crate::error::FormatError> {
        HttpBytes::open(url, options).map_err(|e| {
            crate::error::FormatError::io(std::path::Path::new(&client::shown(url)), e.into_io())
        })
    }

    /// The URL, as messages show it (without its query).
    pub fn url(&self) -> &str {
        self.client.shown()
    }

    /// The file's validator (ETag or Last-Modified) and length, as opened.
    pub fn version(&self) -> &Version {
        &self.version
    }

    /// True if the server could not be reached at open and the cache's record stood in.
    pub fn opened_offline(&self) -> bool {
        self.offline
    }

    pub fn cache(&self) -> Option<&DiskCache> {
        self.cache.as_ref()
    }

    pub fn stats(&self) -> HttpStats {
        HttpStats {
            requests: self.requests.load(Ordering::Relaxed),
            fetched_bytes: self.fetched.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
            head_hits: self.head_hits.load(Ordering::Relaxed),
            shared_reads: self.shared_reads.load(Ordering::Relaxed),
        }
    }

    fn key(&self, offset: u64, len: usize) -> Option<String> {
        self.key_prefix
            .as_ref()
            .map(|p| format!("{p} {offset}+{len}"))
    }

    /// From memory or the cache, without a request: true if `out` was filled.
    fn read_local(&self, offset: u64, out: &mut [u8]) -> bool {
        let end = offset + out.len() as u64;
        if end <= self.head.len() as u64 {
            out.copy_from_slice(&self.head[offset as usize..end as usize]);
            count(&self.head_hits, 3, 1);
            return true;
        }
        if let (Some(cache), Some(key)) = (&self.cache, self.key(offset, out.len())) {
            if cache.get_into(&key, out) {
                count(&self.cache_hits, 2, 1);
                return true;
            }
        }
        false
    }

    /// One request for the range, shared with readers of the same range meanwhile.
    fn read_remote(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        if let Some(e) = self.changed.lock().clone() {
            return Err(e.into_io());
        }
        let answered = self.flights.read(offset, out, |out| {
            count(&self.requests, 0, 1);
            let fetched = self.client.fetch(&self.version, offset, out);
            match &fetched {
                Ok(()) => {
                    count(&self.fetched, 1, out.len() as u64);
                    if let (Some(cache), Some(key)) = (&self.cache, self.key(offset, out.len())) {
                        // Served from the cache only once the format vouches for it.
                        cache.stage(&key, out);
                        let mut staged = self.staged.lock();
                        if staged.len() >= MAX_STAGED {
                            staged.clear();
                        }
                        staged.insert((offset, out.len() as u64));
                    }
                }
                Err(e @ HttpError::Changed { .. }) => *self.changed.lock() = Some(e.clone()),
                Err(_) => {}
            }
            fetched
        });
        match answered {
            Ok(flight::Answered::Shared) => count(&self.shared_reads, 4, 1),
            Ok(flight::Answered::Fetched) => {}
            Err(e) => return Err(e.into_io()),
        }
        Ok(())
    }
}

impl ReadAt for HttpBytes {
    fn length(&self) -> u64 {
        self.version.length
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        if offset
            .checked_add(out.len() as u64)
            .map_or(true, |e| e > self.version.length)
        {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if self.read_local(offset, out) {
            return Ok(());
        }
        self.read_remote(offset, out)
    }

    fn is_remote(&self) -> bool {
        true
    }

    /// Proves the staged cache entries of the reads `bytes` came from (one read's, or the
    /// several requests a large read was made in), each only if the entry holds exactly the
    /// bytes vouched for (its CRC): an entry another reader or process staged over it since
    /// is not. A vouch for the file's first bytes (a header whose checksum held) also writes
    /// the record that opens it offline.
    fn vouch(&self, offset: u64, bytes: &[u8]) {
        let Some(cache) = &self.cache else { return };
        if offset == 0 && !self.recorded.swap(true, Ordering::Relaxed) {
            write_record(cache, &self.record_key, &self.version, &self.head);
        }
        let end = offset.saturating_add(bytes.len() as u64);
        let inside: Vec<(u64, u64)> = {
            let mut staged = self.staged.lock();
            let inside: Vec<(u64, u64)> = staged
                .range((offset, 0)..(end, 0))
                .filter(|&&(at, n)| at + n <= end)
                .copied()
                .collect();
            for r in &inside {
                staged.remove(r);
            }
            inside
        };
        for (at, n) in inside {
            let from = (at - offset) as usize;
            let crc = crc32fast::hash(&bytes[from..from + n as usize]);
            if let Some(key) = self.key(at, n as usize) {
                cache.prove(&key, crc);
            }
        }
    }
}

/// Ranges a reader keeps track of between fetching and vouching.
const MAX_STAGED: usize = 4096;

/// The cache's note of a URL's version and first bytes, what opening it offline needs.
fn write_record(cache: &DiskCache, key: &str, version: &Version, head: &[u8]) {
    let validator = version.validator.as_deref().unwrap_or("");
    let mut bytes = Vec::with_capacity(12 + validator.len() + head.len());
    bytes.extend_from_slice(&version.length.to_le_bytes());
    bytes.extend_from_slice(&(validator.len() as u32).to_le_bytes());
    bytes.extend_from_slice(validator.as_bytes());
    bytes.extend_from_slice(head);
    cache.put(key, &bytes);
}

fn read_record(cache: &DiskCache, key: &str) -> Option<client::Probe> {
    let bytes = cache.get(key, HEAD_BYTES + (64 << 10))?;
    let length = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let n = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?) as usize;
    let validator = std::str::from_utf8(bytes.get(12..12 + n)?)
        .ok()?
        .to_string();
    let head = bytes.get(12 + n..)?.to_vec();
    (head.len() as u64 <= length && !validator.is_empty()).then_some(client::Probe {
        version: Version {
            validator: Some(validator),
            length,
        },
        head,
    })
}
