//! A programmable HTTP/1.1 server for tests/hostile_server.rs: one file's bytes at one path,
//! ranges answered as a static file server answers them (`206`, `Content-Range`,
//! `Content-Length`, a strong `ETag`), or with the misbehaviour a test sets, which it may
//! change while relief streams. Every request's head is recorded, so a test can assert what
//! arrived (which headers a redirect carried) and how many requests there were.
//!
//! std only, in the style of relief's fault proxy (`relief::http::proxy`): a listener on a
//! free 127.0.0.1 port, a thread per connection, one request at a time on each. Bodies are
//! written from the file's bytes a slice at a time, so a lie about a terabyte costs the
//! server nothing.

use std::collections::HashMap;
use std::io::{BufWriter, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::Mutex;

/// How the server answers requests for its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misbehaviour {
    /// A static file server: `206` for a range, `200` without one, `416` past the end, and
    /// `200` with the whole file when `If-Range` names another version.
    Honest,
    /// `Content-Range`'s total claims a file this long: each answer promises its whole range
    /// and sends the real bytes it holds, then closes the connection, a claim it can't make
    /// good past them.
    ClaimTotal(u64),
    /// `206` with the right bytes and no `Content-Range`.
    NoContentRange,
    /// `200` with the whole file, whatever range was asked for.
    WholeFile,
    /// `Content-Length` of the range promised, half of it sent, the connection closed.
    Truncate,
    /// `Content-Length` and body [`EXTRA`] bytes longer than the range asked for (the
    /// `Content-Range` is the one asked for).
    LongBody,
    /// An honest answer followed by [`EXTRA`] bytes of junk on the same connection, which
    /// stays open.
    Overrun,
    /// The request read, the connection closed without an answer.
    Reset,
    /// `Content-Encoding: gzip` over garbage of the range's length.
    Gzip,
    /// An honest range with a new `ETag` on every answer (and `If-Range` ignored).
    ChangingEtag,
    /// This many extra header lines before the answer's own headers.
    ManyHeaders(usize),
    /// `302` to the very URL asked for, forever.
    RedirectLoop,
    /// The next this many answers for ranges starting at or past
    /// [`relief::http::HEAD_BYTES`] come with the right length and wrong bytes (flipped);
    /// then honest.
    CorruptOnce(u32),
    /// This status, with an empty body.
    Status(u16),
}

/// Bytes a [`Misbehaviour::LongBody`] or [`Misbehaviour::Overrun`] answer adds.
pub const EXTRA: usize = 4096;

/// One request as it arrived: its request line and headers, in order.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    /// Path and query, as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The target without its query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

struct Shared {
    path: String,
    body: Vec<u8>,
    etag: String,
    misbehaviour: Mutex<Misbehaviour>,
    /// Paths answered `302` with a `Location`, before anything else.
    redirects: Mutex<HashMap<String, String>>,
    requests: Mutex<Vec<Request>>,
    connections: AtomicU64,
    /// Answers given under [`Misbehaviour::ChangingEtag`], each a new version.
    versions: AtomicU64,
    stop: AtomicBool,
}

pub struct Hostile {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl Hostile {
    /// Serves `body` at `path` (such as `/world.rlpack`), honestly until told otherwise.
    pub fn start(path: &str, body: Vec<u8>) -> Hostile {
        assert!(path.starts_with('/'), "{path}: a path starts with /");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let etag = format!("\"{:08x}-{:x}\"", crc32fast::hash(&body), body.len());
        let shared = Arc::new(Shared {
            path: path.to_string(),
            body,
            etag,
            misbehaviour: Mutex::new(Misbehaviour::Honest),
            redirects: Mutex::new(HashMap::new()),
            requests: Mutex::new(Vec::new()),
            connections: AtomicU64::new(0),
            versions: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let accept = std::thread::Builder::new()
            .name("hostile-accept".into())
            .spawn(move || {
                while !s.stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            s.connections.fetch_add(1, Ordering::Relaxed);
                            let s = s.clone();
                            let _ = std::thread::Builder::new()
                                .name("hostile-conn".into())
                                .spawn(move || {
                                    let _ = serve(&s, stream);
                                });
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            })
            .unwrap();
        Hostile {
            addr,
            shared,
            accept: Some(accept),
        }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:port`: this server's origin.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The file's URL.
    pub fn url(&self) -> String {
        self.url_of(&self.shared.path)
    }

    /// The URL of `target` (a path and query) on this server.
    pub fn url_of(&self, target: &str) -> String {
        format!("{}{target}", self.origin())
    }

    /// The strong ETag an honest answer carries.
    pub fn etag(&self) -> &str {
        &self.shared.etag
    }

    pub fn set(&self, m: Misbehaviour) {
        *self.shared.misbehaviour.lock() = m;
    }

    /// The misbehaviour in force (a [`Misbehaviour::CorruptOnce`] counts down).
    pub fn misbehaviour(&self) -> Misbehaviour {
        self.shared.misbehaviour.lock().clone()
    }

    /// Answers requests for `path` with `302 Found` and `Location: location`.
    pub fn redirect(&self, path: &str, location: &str) {
        self.shared
            .redirects
            .lock()
            .insert(path.to_string(), location.to_string());
    }

    /// Every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<Request> {
        self.shared.requests.lock().clone()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.shared.requests.lock().len()
    }

    /// How many connections were accepted.
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::Relaxed)
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// A request head's longest: what a real request needs, many times over.
const MAX_HEAD: usize = 64 << 10;

fn serve(s: &Shared, mut stream: TcpStream) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_millis(50)))?;
    // A client that stops reading (relief refusing a body unread) frees the thread soon.
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    stream.set_nodelay(true)?;
    let mut buf = Vec::new();
    loop {
        let Some(head) = read_head(s, &mut stream, &mut buf)? else {
            return Ok(());
        };
        let Some(request) = parse(&head) else {
            return Ok(());
        };
        s.requests.lock().push(request.clone());
        let mut out = BufWriter::with_capacity(64 << 10, &stream);
        let keep = answer(s, &mut out, &request)?;
        out.flush()?;
        drop(out);
        if !keep {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            return Ok(());
        }
    }
}

/// Up to and including the blank line; `None` at the end of the stream or on stop.
fn read_head(
    s: &Shared,
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut chunk = [0u8; 8 << 10];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buf.split_off(end + 4);
            return Ok(Some(std::mem::replace(buf, rest)));
        }
        if buf.len() > MAX_HEAD || s.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Ok(None),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Err(e),
        }
    }
}

fn parse(head: &[u8]) -> Option<Request> {
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, target) = (first.next()?.to_string(), first.next()?.to_string());
    let headers = lines
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let (name, value) = l.split_once(':')?;
            Some((name.trim().to_string(), value.trim().to_string()))
        })
        .collect();
    Some(Request {
        method,
        target,
        headers,
    })
}

/// `bytes=a-b` or `bytes=a-`: the first and (if given) last byte asked for.
fn parse_range(value: &str) -> Option<(u64, Option<u64>)> {
    let (a, b) = value.trim().strip_prefix("bytes=")?.split_once('-')?;
    let a = a.trim().parse().ok()?;
    let b = b.trim();
    if b.is_empty() {
        return Some((a, None));
    }
    Some((a, Some(b.trim().parse().ok()?)))
}

fn status_line(code: u16) -> String {
    let reason = match code {
        200 => "OK",
        206 => "Partial Content",
        302 => "Found",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        416 => "Range Not Satisfiable",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Whatever",
    };
    format!("HTTP/1.1 {code} {reason}\r\n")
}

fn head(out: &mut impl Write, code: u16, headers: &[(&str, String)]) -> std::io::Result<()> {
    out.write_all(status_line(code).as_bytes())?;
    for (name, value) in headers {
        write!(out, "{name}: {value}\r\n")?;
    }
    out.write_all(b"\r\n")
}

/// Writes the bytes `start..end` of a file whose first bytes are `real` and the rest zeros.
fn body(out: &mut impl Write, real: &[u8], start: u64, end: u64) -> std::io::Result<()> {
    let within = (start.min(real.len() as u64) as usize)..(end.min(real.len() as u64) as usize);
    out.write_all(&real[within.clone()])?;
    let zeros = [0u8; 16 << 10];
    let mut left = (end - start) - within.len() as u64;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        out.write_all(&zeros[..n])?;
        left -= n as u64;
    }
    Ok(())
}

/// Answers one request; false when the connection is to be closed.
fn answer(s: &Shared, out: &mut impl Write, request: &Request) -> std::io::Result<bool> {
    if let Some(location) = s.redirects.lock().get(request.path()).cloned() {
        head(
            out,
            302,
            &[("Location", location), ("Content-Length", "0".into())],
        )?;
        return Ok(true);
    }
    if request.path() != s.path {
        head(out, 404, &[("Content-Length", "0".into())])?;
        return Ok(true);
    }
    let len = s.body.len() as u64;
    let range = request.header("range").and_then(parse_range);
    // The misbehaviour for this answer; a CorruptOnce counts the answers it spoils.
    let behaviour = {
        let mut m = s.misbehaviour.lock();
        let now = m.clone();
        if let Misbehaviour::CorruptOnce(n) = now {
            let past_head = range.is_some_and(|(a, _)| a >= relief::http::HEAD_BYTES);
            if n > 0 && past_head {
                *m = Misbehaviour::CorruptOnce(n - 1);
            } else {
                drop(m);
                return honest(s, out, request, range, false);
            }
        }
        now
    };
    match behaviour {
        Misbehaviour::Honest => honest(s, out, request, range, false),
        Misbehaviour::CorruptOnce(_) => honest(s, out, request, range, true),
        Misbehaviour::Status(code) => {
            head(out, code, &[("Content-Length", "0".into())])?;
            Ok(true)
        }
        Misbehaviour::Reset => Ok(false),
        Misbehaviour::RedirectLoop => {
            head(
                out,
                302,
                &[
                    ("Location", request.target.clone()),
                    ("Content-Length", "0".into()),
                ],
            )?;
            Ok(true)
        }
        Misbehaviour::WholeFile => {
            head(
                out,
                200,
                &[
                    ("Content-Length", len.to_string()),
                    ("ETag", s.etag.clone()),
                ],
            )?;
            body(out, &s.body, 0, len)?;
            Ok(true)
        }
        Misbehaviour::ClaimTotal(total) => {
            let Some((a, b)) = range else {
                return honest(s, out, request, range, false);
            };
            if a >= total {
                head(
                    out,
                    416,
                    &[
                        ("Content-Range", format!("bytes */{total}")),
                        ("Content-Length", "0".into()),
                    ],
                )?;
                return Ok(true);
            }
            let b = b.unwrap_or(total - 1).min(total - 1);
            head(
                out,
                206,
                &[
                    ("Content-Range", format!("bytes {a}-{b}/{total}")),
                    ("Content-Length", (b - a + 1).to_string()),
                    ("ETag", s.etag.clone()),
                ],
            )?;
            // What it holds, then the connection closed: a claim it can't make good.
            let held = (b + 1).min(s.body.len() as u64).max(a);
            body(out, &s.body, a, held)?;
            if held < b + 1 {
                return Err(std::io::Error::other("claimed more than it holds"));
            }
            Ok(true)
        }
        other => {
            // The rest bend an honest 206.
            let Some((a, b)) = range.filter(|&(a, _)| a < len) else {
                return honest(s, out, request, range, false);
            };
            let b = b.unwrap_or(len - 1).min(len - 1);
            let n = b - a + 1;
            let mut headers = vec![
                ("Content-Range", format!("bytes {a}-{b}/{len}")),
                ("Content-Length", n.to_string()),
                ("ETag", s.etag.clone()),
            ];
            match other {
                Misbehaviour::NoContentRange => {
                    headers.remove(0);
                    head(out, 206, &headers)?;
                    body(out, &s.body, a, b + 1)?;
                    Ok(true)
                }
                Misbehaviour::Truncate => {
                    head(out, 206, &headers)?;
                    body(out, &s.body, a, a + n / 2)?;
                    Ok(false)
                }
                Misbehaviour::LongBody => {
                    headers[1].1 = (n + EXTRA as u64).to_string();
                    head(out, 206, &headers)?;
                    body(out, &s.body, a, b + 1 + EXTRA as u64)?;
                    Ok(true)
                }
                Misbehaviour::Overrun => {
                    head(out, 206, &headers)?;
                    body(out, &s.body, a, b + 1)?;
                    out.write_all(&junk(EXTRA, a))?;
                    Ok(true)
                }
                Misbehaviour::Gzip => {
                    headers.push(("Content-Encoding", "gzip".into()));
                    head(out, 206, &headers)?;
                    let mut garbage = junk(n as usize, a);
                    garbage[..3.min(n as usize)]
                        .copy_from_slice(&[0x1f, 0x8b, 0x08][..3.min(n as usize)]);
                    out.write_all(&garbage)?;
                    Ok(true)
                }
                Misbehaviour::ChangingEtag => {
                    let v = s.versions.fetch_add(1, Ordering::Relaxed) + 1;
                    headers[2].1 = format!("\"{}-v{v}\"", s.etag.trim_matches('"'));
                    head(out, 206, &headers)?;
                    body(out, &s.body, a, b + 1)?;
                    Ok(true)
                }
                Misbehaviour::ManyHeaders(count) => {
                    out.write_all(status_line(206).as_bytes())?;
                    for i in 0..count {
                        write!(out, "X-Filler-{i}: {i}\r\n")?;
                    }
                    for (name, value) in &headers {
                        write!(out, "{name}: {value}\r\n")?;
                    }
                    out.write_all(b"\r\n")?;
                    body(out, &s.body, a, b + 1)?;
                    Ok(true)
                }
                _ => unreachable!("handled above"),
            }
        }
    }
}

/// What a static file server answers; with `corrupt`, the right length of wrong bytes.
fn honest(
    s: &Shared,
    out: &mut impl Write,
    request: &Request,
    range: Option<(u64, Option<u64>)>,
    corrupt: bool,
) -> std::io::Result<bool> {
    let len = s.body.len() as u64;
    let other_version = request.header("if-range").is_some_and(|v| v != s.etag);
    let Some((a, b)) = range.filter(|_| !other_version) else {
        head(
            out,
            200,
            &[
                ("Content-Length", len.to_string()),
                ("ETag", s.etag.clone()),
                ("Accept-Ranges", "bytes".into()),
            ],
        )?;
        body(out, &s.body, 0, len)?;
        return Ok(true);
    };
    if a >= len {
        head(
            out,
            416,
            &[
                ("Content-Range", format!("bytes */{len}")),
                ("Content-Length", "0".into()),
            ],
        )?;
        return Ok(true);
    }
    let b = b.unwrap_or(len - 1).min(len - 1);
    head(
        out,
        206,
        &[
            ("Content-Range", format!("bytes {a}-{b}/{len}")),
            ("Content-Length", (b - a + 1).to_string()),
            ("ETag", s.etag.clone()),
            ("Accept-Ranges", "bytes".into()),
        ],
    )?;
    if corrupt {
        let mut bytes = s.body[a as usize..=b as usize].to_vec();
        // Every 512th byte flipped: no checksum lets that through.
        for x in bytes.iter_mut().step_by(512) {
            *x ^= 0xa5;
        }
        out.write_all(&bytes)?;
    } else {
        body(out, &s.body, a, b + 1)?;
    }
    Ok(true)
}

/// `n` bytes of noise, different for each `seed`.
fn junk(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}
