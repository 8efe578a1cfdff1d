//! One ranged GET, done right: `Range` with `If-Range`, the answer checked against what was
//! asked (status, `Content-Range`, validator, length), transient faults retried with backoff
//! and `Retry-After`, everything else a typed [`HttpError`]. ureq does the HTTP (connection
//! pool, TLS by rustls, timeouts); this module decides what an answer means.

use std::io::Read;
use std::time::Duration;

use super::HttpOptions;
use crate::config::ConfigError;

/// Every way fetching bytes by URL can fail. URLs in messages never carry their query string:
/// a presigned URL's signature is a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// No answer: refused, reset, timed out, name not found, TLS failed.
    #[error("{url}: {detail}")]
    Transport { url: String, detail: String },
    /// A status relief does not read bytes from (5xx and 429 are retried first).
    #[error("{url}: HTTP {status}{}", retry_after.map(|s| format!(" (Retry-After {s} s)")).unwrap_or_default())]
    Status {
        url: String,
        status: u16,
        retry_after: Option<u64>,
    },
    #[error("{url}: not found on the server (HTTP {status})")]
    NotFound { url: String, status: u16 },
    #[error("{url}: access denied (HTTP {status}): check the request headers (an authorization token) or a presigned URL's expiry")]
    Denied { url: String, status: u16 },
    /// The server answered a range request with the whole file.
    #[error("{url}: the server ignores Range requests (it answered 200 with the whole {length}-byte file); relief streams worlds by range and will not download them whole")]
    RangeIgnored { url: String, length: u64 },
    /// The file behind the URL is not the one opened: its validator (ETag or Last-Modified)
    /// or length differs. Nothing of the new file is mixed with the old; reopen to stream it.
    #[error("{url}: the file changed on the server since it was opened (was {was}, now {now}); reopen it to stream the new version")]
    Changed {
        url: String,
        was: String,
        now: String,
    },
    /// Fewer bytes arrived than the response promised.
    #[error("{url}: body truncated after {got} of {expected} bytes")]
    Truncated {
        url: String,
        expected: u64,
        got: u64,
    },
    #[error("{url}: {detail}")]
    BadResponse { url: String, detail: String },
    /// Options that cannot work ([`HttpOptions::validate`]); nothing was sent.
    #[error("HTTP options: {0}")]
    Options(#[from] ConfigError),
}

impl HttpError {
    /// Worth another try in a moment: the network or the server's load, not the request.
    pub fn is_transient(&self) -> bool {
        match self {
            HttpError::Transport { .. } | HttpError::Truncated { .. } => true,
            HttpError::Status { status, .. } => *status >= 500 || *status == 429,
            _ => false,
        }
    }

    /// No answer came at all (the network is down, the host unreachable): where a cache may
    /// stand in for the server.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, HttpError::Transport { .. })
    }

    pub fn into_io(self) -> std::io::Error {
        use std::io::ErrorKind;
        let kind = match &self {
            HttpError::Transport { detail, .. } if detail.contains("timed out") => {
                ErrorKind::TimedOut
            }
            HttpError::Transport { .. } => ErrorKind::ConnectionAborted,
            HttpError::NotFound { .. } => ErrorKind::NotFound,
            HttpError::Denied { .. } => ErrorKind::PermissionDenied,
            HttpError::Truncated { .. } => ErrorKind::UnexpectedEof,
            HttpError::Options(_) => ErrorKind::InvalidInput,
            _ => ErrorKind::Other,
        };
        std::io::Error::new(kind, self)
    }
}

/// What identifies one version of a file: a strong ETag, else Last-Modified. Sent back in
/// `If-Range` so a replaced file answers with itself, never a range of the new bytes taken
/// for the old.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub validator: Option<String>,
    pub length: u64,
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.validator {
            Some(v) => write!(f, "{v}, {} bytes", self.length),
            None => write!(f, "{} bytes", self.length),
        }
    }
}

pub use crate::io::shown_url as shown;
use crate::io::without_query;

/// Redirects followed for one request, at most.
pub const MAX_REDIRECTS: u32 = 10;

/// A pool of connections to one server and the options every request carries.
pub struct Client {
    agent: ureq::Agent,
    url: String,
    shown: String,
    headers: Vec<(String, String)>,
    headers_to_other_hosts: bool,
    retries: u32,
    retry_wait_max: Duration,
}

/// The first bytes of a file and what it is.
pub struct Probe {
    pub version: Version,
    pub head: Vec<u8>,
}

impl Client {
    pub fn new(url: &str, options: &HttpOptions) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(options.timeout))
            // Loader threads, and an old blob's tile fields fetched side by side, each hold one.
            .max_idle_connections_per_host(32)
            // Redirects are followed here (`send`), where the caller's headers are kept
            // from other hosts; ureq would forward all but Authorization and cookies.
            .max_redirects(0)
            .build()
            .into();
        Client {
            agent,
            url: url.to_string(),
            shown: shown(url),
            headers: options.headers.clone(),
            headers_to_other_hosts: options.headers_to_other_hosts,
            retries: options.retries,
            retry_wait_max: options.timeout,
        }
    }

    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// What identifies the file in cache keys (which are hashed): the URL without its query,
    /// credentials included, so two users' files are never one entry.
    pub fn key_url(&self) -> &str {
        without_query(&self.url)
    }

    /// The file's first `want` bytes (fewer if it is shorter), its length and validator: one
    /// request. A server that ignores `Range` is accepted only for a file no longer than
    /// `want`.
    pub fn probe(&self, want: u64) -> Result<Probe, HttpError> {
        self.with_retries(|| {
            let response = self.send(0, want, None)?;
            let (version, whole) = self.version_of(&response)?;
            if whole && version.length > want {
                return Err(self.range_ignored(version.length));
            }
            let mut head = vec![0u8; want.min(version.length) as usize];
            self.read_body(response, &mut head)?;
            Ok(Probe { version, head })
        })
    }

    /// Fills `out` with the bytes at `offset` of the version `version` of the file.
    pub fn fetch(&self, version: &Version, offset: u64, out: &mut [u8]) -> Result<(), HttpError> {
        if out.is_empty() {
            return Ok(());
        }
        self.with_retries(|| {
            let response = self.send(offset, out.len() as u64, version.validator.as_deref())?;
            let (found, whole) = self.version_of(&response)?;
            // A 200 to `If-Range` is how a replaced file answers; a 206 carries its
            // validator too. Either way the bytes are not of the file opened.
            if found.length != version.length
                || (found.validator.is_some() && found.validator != version.validator)
            {
                return Err(HttpError::Changed {
                    url: self.shown.clone(),
                    was: version.to_string(),
                    now: found.to_string(),
                });
            }
            if whole && (offset != 0 || out.len() as u64 != found.length) {
                return Err(self.range_ignored(found.length));
            }
            self.read_body(response, out)
        })
    }

    fn with_retries<T>(
        &self,
        mut attempt: impl FnMut() -> Result<T, HttpError>,
    ) -> Result<T, HttpError> {
        let mut tries = 0;
        loop {
            match attempt() {
                Err(e) if e.is_transient() && tries < self.retries => {
                    // Backoff 100 ms, 200 ms, 400 ms…, or what the server asked for, capped
                    // at one request timeout so a loader thread is never parked for long.
                    let backoff = Duration::from_millis(100 << tries.min(6));
                    let wait = match e {
                        HttpError::Status {
                            retry_after: Some(s),
                            ..
                        } => Duration::from_secs(s).max(backoff),
                        _ => backoff,
                    };
                    if wait > self.retry_wait_max {
                        return Err(e);
                    }
                    std::thread::sleep(wait);
                    tries += 1;
                }
                other => return other,
            }
        }
    }

    /// One GET of `len` bytes at `offset`, answered 206 (or 200 with the whole file, which
    /// the caller checks); any other status is an error here. Redirects are followed, at
    /// most [`MAX_REDIRECTS`]; the caller's headers go only to the URL's own origin unless
    /// the options allow others.
    fn send(
        &self,
        offset: u64,
        len: u64,
        if_range: Option<&str>,
    ) -> Result<ureq::http::Response<ureq::Body>, HttpError> {
        let home = origin(&self.url);
        let mut at = self.url.clone();
        let mut redirects = 0;
        // One timeout for the request, its redirects included: each hop gets what is left.
        let deadline = std::time::Instant::now() + self.retry_wait_max;
        let response = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(HttpError::Transport {
                    url: self.shown.clone(),
                    detail: format!("timed out after {redirects} redirects"),
                });
            }
            let mut request = self
                .agent
                .get(&at)
                .config()
                .timeout_global(Some(left))
                .build()
                .header("Range", format!("bytes={}-{}", offset, offset + len - 1))
                // Ranges are of the bytes as stored: no transfer encoding may re-compress
                // them.
                .header("Accept-Encoding", "identity");
            if let Some(v) = if_range {
                request = request.header("If-Range", v);
            }
            if self.headers_to_other_hosts || origin(&at) == home {
                for (name, value) in &self.headers {
                    request = request.header(name.as_str(), value.as_str());
                }
            }
            let response = request.call().map_err(|e| self.transport(e))?;
            if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
                break response;
            }
            let bad = |detail: String| HttpError::BadResponse {
                url: self.shown.clone(),
                detail,
            };
            redirects += 1;
            if redirects > MAX_REDIRECTS {
                return Err(bad(format!("more than {MAX_REDIRECTS} redirects")));
            }
            let location = header(&response, "location")
                .ok_or_else(|| bad(format!("HTTP {} without Location", response.status())))?;
            at = resolve(&at, &location)
                .ok_or_else(|| bad("a redirect to a location that is not http(s)".into()))?;
        };
        let status = response.status().as_u16();
        match status {
            200 | 206 => Ok(response),
            401 | 403 => Err(HttpError::Denied {
                url: self.shown.clone(),
                status,
            }),
            404 | 410 => Err(HttpError::NotFound {
                url: self.shown.clone(),
                status,
            }),
            // The range lies past the end: the file shrank under us.
            416 => Err(HttpError::Changed {
                url: self.shown.clone(),
                was: format!("at least {} bytes", offset + len),
                now: header(&response, "content-range").unwrap_or("shorter".into()),
            }),
            _ => Err(HttpError::Status {
                url: self.shown.clone(),
                status,
                retry_after: header(&response, "retry-after")
                    .and_then(|s| s.trim().parse().ok())
                    // An HTTP-date: a second is as good a guess as any.
                    .or_else(|| header(&response, "retry-after").map(|_| 1)),
            }),
        }
    }

    /// The version a 200 or 206 answer is of, and whether it is the whole file (a 200: its
    /// length is the body's, and a caller that wanted a range refuses it unread).
    fn version_of(
        &self,
        response: &ureq::http::Response<ureq::Body>,
    ) -> Result<(Version, bool), HttpError> {
        let etag = header(response, "etag").filter(|t| !t.starts_with("W/"));
        let validator = etag.or_else(|| header(response, "last-modified"));
        let bad = |detail: String| HttpError::BadResponse {
            url: self.shown.clone(),
            detail,
        };
        if response.status().as_u16() == 200 {
            let length = response
                .body()
                .content_length()
                .ok_or_else(|| bad("a 200 answer to a range request, of unknown length".into()))?;
            return Ok((Version { validator, length }, true));
        }
        let range = header(response, "content-range")
            .ok_or_else(|| bad("a 206 answer without Content-Range".into()))?;
        let length = range
            .rsplit('/')
            .next()
            .and_then(|t| t.trim().parse().ok())
            .ok_or_else(|| bad(format!("Content-Range `{range}` gives no total length")))?;
        Ok((Version { validator, length }, false))
    }

    fn range_ignored(&self, length: u64) -> HttpError {
        HttpError::RangeIgnored {
            url: self.shown.clone(),
            length,
        }
    }

    /// Reads exactly `out.len()` bytes of body, or fails as truncated. A body of another
    /// length than promised is refused before a byte of it is read.
    fn read_body(
        &self,
        response: ureq::http::Response<ureq::Body>,
        out: &mut [u8],
    ) -> Result<(), HttpError> {
        let promised = response.body().content_length();
        if let Some(p) = promised {
            if p != out.len() as u64 {
                return Err(if response.status().as_u16() == 200 {
                    self.range_ignored(p)
                } else {
                    HttpError::BadResponse {
                        url: self.shown.clone(),
                        detail: format!("{p} bytes sent for a {}-byte range", out.len()),
                    }
                });
            }
        }
        let mut reader = response.into_body().into_reader();
        let mut got = 0;
        while got < out.len() {
            match reader.read(&mut out[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(match e.kind() {
                        std::io::ErrorKind::UnexpectedEof => self.truncated(out.len(), got),
                        _ => self.transport_io(e),
                    })
                }
            }
        }
        if got < out.len() {
            return Err(self.truncated(out.len(), got));
        }
        // Read to the body's end: only then does ureq give the connection back to its pool
        // (else every request opens a connection, and over HTTPS a handshake). A byte more
        // than promised is a body relief did not ask for.
        loop {
            match reader.read(&mut [0u8; 1]) {
                Ok(0) => return Ok(()),
                Ok(_) => {
                    return Err(HttpError::BadResponse {
                        url: self.shown.clone(),
                        detail: format!("more than the {} bytes asked for", out.len()),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.transport_io(e)),
            }
        }
    }

    fn truncated(&self, expected: usize, got: usize) -> HttpError {
        HttpError::Truncated {
            url: self.shown.clone(),
            expected: expected as u64,
            got: got as u64,
        }
    }

    fn transport(&self, e: ureq::Error) -> HttpError {
        match e {
            ureq::Error::Io(io) => self.transport_io(io),
            ureq::Error::Timeout(t) => HttpError::Transport {
                url: self.shown.clone(),
                detail: format!("timed out ({t})"),
            },
            other => HttpError::Transport {
                url: self.shown.clone(),
                detail: self.redact(other.to_string()),
            },
        }
    }

    /// `text` with the URL's secrets (its credentials and query) taken out: what ureq and
    /// the OS say may quote the URL.
    fn redact(&self, text: String) -> String {
        let mut out = text.replace(&self.url, &self.shown);
        let plain = without_query(&self.url);
        out = out.replace(plain, &self.shown);
        if let Some(query) = self.url.get(plain.len()..).filter(|q| q.len() > 1) {
            out = out.replace(query, "");
        }
        if let Some((_, rest)) = plain.split_once("://") {
            let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
            if let Some(at) = authority.rfind('@') {
                out = out.replace(&authority[..=at], "***@");
            }
        }
        out
    }

    fn transport_io(&self, e: std::io::Error) -> HttpError {
        let detail = match e.kind() {
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                self.redact(format!("timed out ({e})"))
            }
            _ => self.redact(e.to_string()),
        };
        HttpError::Transport {
            url: self.shown.clone(),
            detail,
        }
    }
}

/// Scheme, host and port of a URL (lower case, the default port filled in, credentials
/// left out): what decides whether a redirect stays with the server the caller named.
fn origin(url: &str) -> Option<(String, String)> {
    let (scheme, rest) = without_query(url).split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let host_port = authority.rsplit('@').next()?.to_ascii_lowercase();
    let has_port = host_port
        .rsplit_once(':')
        .is_some_and(|(_, p)| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    let default = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let host_port = if has_port {
        host_port
    } else {
        format!("{host_port}:{default}")
    };
    Some((scheme, host_port))
}

/// Where a redirect's `Location` points from `base`: an absolute http(s) URL, a
/// scheme-relative one, an absolute path, or a path relative to `base`'s directory. `None`
/// for any other scheme or a location with control characters.
fn resolve(base: &str, location: &str) -> Option<String> {
    let loc = location.trim();
    if loc.chars().any(|c| c.is_control()) {
        return None;
    }
    // Absolute only when a scheme comes before any path, query or fragment (a relative
    // `/auth?return=https://x` is a path).
    let path_start = loc.find(['/', '?', '#']);
    if loc
        .find("://")
        .is_some_and(|e| path_start.map_or(true, |p| e < p))
    {
        return origin(loc).map(|_| loc.to_string());
    }
    let (scheme, rest) = base.split_once("://")?;
    if let Some(r) = loc.strip_prefix("//") {
        return Some(format!("{scheme}://{r}"));
    }
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if loc.starts_with('/') {
        return Some(format!("{scheme}://{authority}{loc}"));
    }
    let path = without_query(&rest[authority_end..]);
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{scheme}://{authority}{dir}{loc}"))
}

fn header(response: &ureq::http::Response<ureq::Body>, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_show_no_header_value() {
        let o = HttpOptions {
            headers: vec![("Authorization".into(), "Bearer s3cret".into())],
            ..HttpOptions::default()
        };
        let shown = format!("{o:?}");
        assert!(
            shown.contains("Authorization") && !shown.contains("s3cret"),
            "{shown}"
        );
    }

    #[test]
    fn shown_urls_keep_no_secret() {
        assert_eq!(
            shown("https://user:pw@cdn.example/w.rlpack?sig=abc#x"),
            "https://***@cdn.example/w.rlpack"
        );
        assert_eq!(shown("http://host/a@b"), "http://host/a@b");
        assert_eq!(shown("http://host:8080/p?q"), "http://host:8080/p");
    }

    #[test]
    fn origins_and_redirect_locations() {
        let o = |u: &str| origin(u);
        assert_eq!(o("HTTP://Host/x"), o("http://host:80/y?q"));
        assert_eq!(o("https://u:p@host/x"), o("https://host:443/"));
        assert_ne!(o("http://host/x"), o("https://host/x"));
        assert_ne!(o("http://host/x"), o("http://host:8080/x"));
        assert_ne!(o("http://host/x"), o("http://other/x"));
        assert_eq!(o("ftp://host/x"), None);
        let base = "http://h:1/a/b/c.rlpack?sig=1";
        assert_eq!(resolve(base, "/z").as_deref(), Some("http://h:1/z"));
        assert_eq!(
            resolve(base, "d.rlpack").as_deref(),
            Some("http://h:1/a/b/d.rlpack")
        );
        assert_eq!(resolve(base, "//cdn/x").as_deref(), Some("http://cdn/x"));
        assert_eq!(
            resolve(base, "https://cdn/x").as_deref(),
            Some("https://cdn/x")
        );
        assert_eq!(resolve(base, "file:///etc/passwd"), None);
        assert_eq!(
            resolve(base, "/auth?return=https://x/y").as_deref(),
            Some("http://h:1/auth?return=https://x/y")
        );
        assert_eq!(resolve(base, "/x\r\nSet-Cookie: a"), None);
    }
}
