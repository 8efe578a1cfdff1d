//! A loopback HTTP/1.1 proxy that injects faults and round-trip delay between relief and a
//! real server: what the tests put in front of nginx, and what `relief bench --rtt-ms` uses
//! to measure streaming over a slow link. Not for production: it forwards one request at a
//! time per connection, bodies by `Content-Length` only (what a static file server sends).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What the proxy does to each request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Fault {
    /// Forward it (after the delay, if one is set).
    Pass = 0,
    /// Close the connection without an answer (a reset, a dead link).
    Drop = 1,
    /// Answer `503 Service Unavailable` with `Retry-After: 0`.
    Unavailable = 2,
    /// Forward it, then cut the answer's body in half and close.
    Truncate = 3,
    /// Hold the request without answering until the proxy is told otherwise or stops
    /// (a server that hangs: the client's timeout must fire).
    Stall = 4,
}

struct Shared {
    upstream: SocketAddr,
    fault: AtomicU32,
    delay_us: AtomicU64,
    stop: AtomicBool,
    requests: AtomicU64,
}

pub struct FaultProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl FaultProxy {
    /// Listens on a free 127.0.0.1 port, forwarding to `upstream`.
    pub fn start(upstream: SocketAddr) -> std::io::Result<FaultProxy> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            upstream,
            fault: AtomicU32::new(Fault::Pass as u32),
            delay_us: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            requests: AtomicU64::new(0),
        });
        let s = shared.clone();
        let accept = std::thread::Builder::new()
            .name("fault-proxy".into())
            .spawn(move || {
                while !s.stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((client, _)) => {
                            let s = s.clone();
                            let _ = std::thread::Builder::new()
                                .name("fault-proxy-conn".into())
                                .spawn(move || {
                                    let _ = serve(&s, client);
                                });
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })?;
        Ok(FaultProxy {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:port/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }

    pub fn set(&self, fault: Fault) {
        self.shared.fault.store(fault as u32, Ordering::SeqCst);
    }

    /// Added before each request is forwarded: a round trip that long, at least.
    pub fn set_delay(&self, delay: Duration) {
        self.shared
            .delay_us
            .store(delay.as_micros() as u64, Ordering::SeqCst);
    }

    pub fn delay(&self) -> Duration {
        Duration::from_micros(self.shared.delay_us.load(Ordering::Relaxed))
    }

    /// Requests received so far.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::Relaxed)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// A stream with what was read past the last head.
struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    fn new(stream: TcpStream) -> std::io::Result<Conn> {
        stream.set_read_timeout(Some(Duration::from_millis(50)))?;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream,
            buf: Vec::new(),
        })
    }

    /// Up to and including the blank line; `None` at a clean end of stream or on stop.
    fn head(&mut self, stop: &AtomicBool) -> std::io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let rest = self.buf.split_off(end + 4);
                return Ok(Some(std::mem::replace(&mut self.buf, rest)));
            }
            if self.buf.len() > 64 << 10 {
                return Err(std::io::Error::other("head too long"));
            }
            if !self.fill(stop)? {
                return Ok(None);
            }
        }
    }

    /// Reads more into `buf`: false at end of stream or on stop.
    fn fill(&mut self, stop: &AtomicBool) -> std::io::Result<bool> {
        let mut chunk = [0u8; 16 << 10];
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Moves `n` body bytes to `to`.
    fn body(&mut self, mut n: u64, to: &mut TcpStream, stop: &AtomicBool) -> std::io::Result<()> {
        while n > 0 {
            if self.buf.is_empty() && !self.fill(stop)? {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let take = (n as usize).min(self.buf.len());
            to.write_all(&self.buf[..take])?;
            self.buf.drain(..take);
            n -= take as u64;
        }
        Ok(())
    }
}

fn content_length(head: &[u8]) -> u64 {
    String::from_utf8_lossy(head)
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0)
}

fn serve(s: &Shared, client: TcpStream) -> std::io::Result<()> {
    let mut client = Conn::new(client)?;
    let mut upstream: Option<Conn> = None;
    while let Some(request) = client.head(&s.stop)? {
        s.requests.fetch_add(1, Ordering::Relaxed);
        let fault = s.fault.load(Ordering::SeqCst);
        if fault == Fault::Drop as u32 {
            return Ok(());
        }
        if fault == Fault::Unavailable as u32 {
            client.stream.write_all(
                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n",
            )?;
            continue;
        }
        if fault == Fault::Stall as u32 {
            while s.fault.load(Ordering::SeqCst) == Fault::Stall as u32 {
                if s.stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            return Ok(());
        }
        let delay = s.delay_us.load(Ordering::Relaxed);
        if delay > 0 {
            std::thread::sleep(Duration::from_micros(delay));
        }
        if upstream.is_none() {
            upstream = Some(Conn::new(TcpStream::connect(s.upstream)?)?);
        }
        let up = upstream.as_mut().unwrap();
        up.stream.write_all(&request)?;
        let Some(head) = up.head(&s.stop)? else {
            return Ok(());
        };
        let length = content_length(&head);
        client.stream.write_all(&head)?;
        if fault == Fault::Truncate as u32 {
            return up.body(length / 2, &mut client.stream, &s.stop);
        }
        up.body(length, &mut client.stream, &s.stop)?;
    }
    Ok(())
}
