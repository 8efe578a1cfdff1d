//! `relief bench URL`: streaming a pack or planet from a server, against the same file on
//! local disk, in one run. A file no longer than the disk cache's budget is first downloaded
//! whole (the local baseline, and the raw transfer rate); a longer one (or a server that
//! claims one) is never downloaded: it is streamed only, within the cache's budget, and the
//! local rows are left out. Each route speed is driven from the local copy, from the URL with
//! an empty disk cache (cold) and again with the cache the cold drive filled (warm). With
//! `--rtt-ms`, the cold drive is repeated through a loopback proxy that adds that delay to
//! every request, widening the load radius step by step until no collision chunk is late.
//! Last, runtimes streaming through a proxy that stalls every request are dropped, and the
//! drops timed against the same drop with the server answering: what
//! `relief_runtime_destroy` costs a game whose server stopped answering.

use relief::DVec3;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use relief::http::proxy::FaultProxy;
use relief::http::{HttpBytes, HttpOptions};
use relief::io::ReadAt;
use relief::runtime::{Ground, Runtime, RuntimeConfig};

use super::drive::{drive, Setup, FRAME_HZ};
use super::{flat::FlatBench, planet::PlanetBench, Outcome, Walk};
use crate::timing::median;

/// The speeds driven: running and flying (m/s), where late collision shows first.
const SPEEDS: [(&str, f64); 2] = [("running", 10.0), ("flying", 36.0)];
/// Load radius added, metres, until no chunk is late over the delayed link.
const PREFETCH_STEPS: [f64; 4] = [0.0, 256.0, 512.0, 1024.0];

enum Bench {
    Flat(FlatBench),
    Planet(PlanetBench),
}

impl Bench {
    fn at(&self, speed: f64, f: usize) -> (DVec3, DVec3) {
        let walk = Walk::Builtin { speed };
        match self {
            Bench::Flat(b) => b.at(&walk, f),
            Bench::Planet(b) => b.at(&walk, f),
        }
    }
    fn config(&self, prefetch_m: f64) -> RuntimeConfig {
        let mut c = match self {
            Bench::Flat(b) => b.runtime_config(),
            Bench::Planet(b) => b.runtime_config(),
        };
        c.pieces.load_radius += prefetch_m;
        c.pieces.drop_radius += prefetch_m;
        c
    }
}

/// One drive's figures.
struct Row {
    source: String,
    speed: &'static str,
    prefetch_m: f64,
    ready_p50_ms: f64,
    ready_p99_ms: f64,
    /// Loads while driving (what ready p50/p99 are of), and all loads, the loading
    /// screen's too (what the fetched bytes paid for).
    route_loads: f64,
    loads: u64,
    failures: f64,
    late_frames: f64,
    frames: usize,
    requests: u64,
    fetched: u64,
    cache_hits: u64,
    /// Reads that waited for another reader's request of the same bytes.
    shared_reads: u64,
}

/// Where a drive's ground comes from.
enum From<'a> {
    Local(&'a Path),
    Url(&'a str, &'a HttpOptions),
}

pub fn run(
    url: &str,
    seconds: f64,
    budget_mb: Option<usize>,
    rtt_ms: Option<f64>,
    json: Option<&Path>,
) -> Result<(), Outcome> {
    let bad = Outcome::BadInput;
    let proxy = match rtt_ms {
        Some(ms) if !(ms.is_finite() && ms >= 0.0) => {
            return Err(bad(format!("--rtt-ms {ms}: want a number of milliseconds")))
        }
        Some(ms) => Some(delay_proxy(url, ms).map_err(bad)?),
        None => None,
    };
    let scratch = relief::io::create_temp_dir(&std::env::temp_dir(), "relief-bench-url")
        .map_err(|e| bad(format!("a scratch directory: {e}")))?;
    let result = measure(url, seconds, budget_mb, proxy.as_ref(), &scratch, json);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn measure(
    url: &str,
    seconds: f64,
    budget_mb: Option<usize>,
    proxy: Option<&(FaultProxy, String)>,
    scratch: &Path,
    json: Option<&Path>,
) -> Result<(), Outcome> {
    let fail = |e: String| Outcome::Failed(e.into());
    let no_cache = HttpOptions {
        cache_dir: None,
        ..HttpOptions::default()
    };
    let shown = relief::http::client::shown(url);
    let cap = HttpOptions::default().cache_budget;
    let length = HttpBytes::open(url, &no_cache)
        .map_err(|e| fail(e.to_string()))?
        .length();
    let (local, bytes, took) = if length <= cap {
        let (local, bytes, took) = download(url, &no_cache, scratch).map_err(fail)?;
        println!(
            "{shown}: {:.1} MB downloaded whole in {:.2} s ({:.1} MB/s), the local baseline",
            bytes as f64 / 1e6,
            took.as_secs_f64(),
            bytes as f64 / 1e6 / took.as_secs_f64().max(1e-9)
        );
        (Some(local), bytes, took)
    } else {
        println!(
            "{shown}: {:.1} GB, more than the cache's {:.1} GB budget: streamed only (no local \
             copy, no local baseline)",
            length as f64 / 1e9,
            cap as f64 / 1e9
        );
        (None, 0, Duration::ZERO)
    };
    let bench = match &local {
        Some(local) if relief::planet::opened::is_planet_file(local) => {
            Bench::Planet(PlanetBench::open(local, budget_mb).map_err(fail)?)
        }
        Some(local) => Bench::Flat(FlatBench::open(local, budget_mb).map_err(fail)?),
        None => match Ground::open_url(url, &no_cache).map_err(|e| fail(e.to_string()))? {
            Ground::Planet(p) => {
                Bench::Planet(PlanetBench::with_planet(p, budget_mb).map_err(fail)?)
            }
            Ground::Flat(w) => {
                Bench::Flat(FlatBench::with_world(Path::new(&shown), w, budget_mb).map_err(fail)?)
            }
        },
    };
    let frames = (seconds * FRAME_HZ) as usize;
    let mut rows = Vec::new();
    for (speed, mps) in SPEEDS {
        let cache = HttpOptions {
            cache_dir: Some(scratch.join(format!("cache-{speed}"))),
            ..HttpOptions::default()
        };
        let local_row = local.as_deref().map(|l| ("local file", From::Local(l)));
        for (name, from) in local_row.into_iter().chain([
            ("URL, cold cache", From::Url(url, &cache)),
            ("URL, warm cache", From::Url(url, &cache)),
        ]) {
            rows.push(drive_once(&bench, name, &from, speed, mps, 0.0, frames).map_err(fail)?);
        }
        if let Some((proxy, path)) = proxy {
            let through = proxy.url(path);
            for prefetch in PREFETCH_STEPS {
                let name = format!("URL +{} ms, no cache", proxy_delay_ms(proxy));
                let row = drive_once(
                    &bench,
                    &name,
                    &From::Url(&through, &no_cache),
                    speed,
                    mps,
                    prefetch,
                    frames,
                )
                .map_err(fail)?;
                let late = row.late_frames;
                rows.push(row);
                if late == 0.0 {
                    break;
                }
            }
        }
    }
    print(&rows);
    // The stalling proxy speaks plain HTTP only.
    let destroy = if url.starts_with("http://") {
        let d = destroy_times(&bench, url).map_err(fail)?;
        println!(
            "destroy: median {:.2} ms, max {:.2} ms over {DESTROY_RUNS} drops of a runtime whose \
             loads wait on a server that stopped answering (default options: {} s a request); \
             {:.2} ms median with the server answering",
            d.stalled_median,
            d.stalled_max,
            HttpOptions::default().timeout.as_secs(),
            d.answering_median,
        );
        Some(d)
    } else {
        None
    };
    if let Some(path) = json {
        write_json(path, url, bytes, took, &rows, destroy.as_ref())
            .map_err(|e| fail(format!("{}: {e}", path.display())))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Drops timed each way, alternating so both see the same machine.
const DESTROY_RUNS: usize = 9;

/// What dropping a runtime streaming from the URL costs, in milliseconds: with every request
/// stalled by the proxy, and (the baseline) with the proxy passing answers through.
struct DestroyTimes {
    stalled_median: f64,
    stalled_max: f64,
    answering_median: f64,
}

fn destroy_times(bench: &Bench, url: &str) -> Result<DestroyTimes, String> {
    let mut stalled = Vec::with_capacity(DESTROY_RUNS);
    let mut answering = Vec::with_capacity(DESTROY_RUNS);
    for _ in 0..DESTROY_RUNS {
        stalled.push(timed_drop(bench, url, true)?);
        answering.push(timed_drop(bench, url, false)?);
    }
    // `median` sorts, so the slowest is then the last.
    let stalled_median = median(&mut stalled);
    Ok(DestroyTimes {
        stalled_median,
        stalled_max: stalled[DESTROY_RUNS - 1],
        answering_median: median(&mut answering),
    })
}

/// Milliseconds one drop of a runtime takes after a few frames streaming through a proxy
/// (an http:// URL: the proxy does not speak TLS) that, when `stall`, holds every request.
fn timed_drop(bench: &Bench, url: &str, stall: bool) -> Result<f64, String> {
    let (proxy, path) = delay_proxy(url, 0.0)?;
    let options = HttpOptions {
        cache_dir: None,
        ..HttpOptions::default()
    };
    let ground = Ground::open_url(&proxy.url(&path), &options).map_err(|e| e.to_string())?;
    let mut rt = Runtime::new(ground, bench.config(0.0)).map_err(|e| e.to_string())?;
    if stall {
        proxy.set(relief::http::proxy::Fault::Stall);
    }
    let opened = proxy.requests();
    // A few frames along the route: loads start (and, stalled, every one waits).
    for f in 0..10 {
        let (focus, _) = bench.at(36.0, f * 30);
        rt.update(focus).map_err(|e| e.to_string())?;
        std::thread::sleep(Duration::from_millis(10));
    }
    if proxy.requests() == opened {
        return Err("no load reached the proxy: nothing to measure".into());
    }
    let t = Instant::now();
    drop(rt);
    Ok(t.elapsed().as_secs_f64() * 1e3)
}

fn proxy_delay_ms(p: &FaultProxy) -> f64 {
    p.delay().as_secs_f64() * 1e3
}

/// A delaying proxy in front of an `http://` URL's server, and the URL's path.
fn delay_proxy(url: &str, ms: f64) -> Result<(FaultProxy, String), String> {
    use std::net::ToSocketAddrs;
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        format!(
            "--rtt-ms needs an http:// URL (the proxy does not speak TLS), not {}",
            relief::http::client::shown(url)
        )
    })?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    // The host alone: credentials are no part of the address (and stay out of messages).
    let host = authority.rsplit('@').next().unwrap_or(authority);
    let with_port = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:80")
    };
    let addr = with_port
        .to_socket_addrs()
        .map_err(|e| format!("{host}: {e}"))?
        .next()
        .ok_or_else(|| format!("{host}: no address"))?;
    let proxy = FaultProxy::start(addr).map_err(|e| format!("the delay proxy: {e}"))?;
    proxy.set_delay(Duration::from_secs_f64(ms / 1e3));
    Ok((proxy, path.to_string()))
}

/// The whole file into `dir`, 8 MiB per request; its path, length and the time it took.
fn download(url: &str, o: &HttpOptions, dir: &Path) -> Result<(PathBuf, u64, Duration), String> {
    let start = Instant::now();
    let bytes = HttpBytes::open(url, o).map_err(|e| e.to_string())?;
    let len = bytes.length();
    let path = dir.join("baseline");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).map_err(|e| e.to_string())?);
    let mut buf = vec![0u8; 8 << 20];
    let mut at = 0;
    while at < len {
        let n = (len - at).min(buf.len() as u64) as usize;
        bytes
            .read_at(at, &mut buf[..n])
            .map_err(|e| e.to_string())?;
        out.write_all(&buf[..n]).map_err(|e| e.to_string())?;
        at += n as u64;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok((path, len, start.elapsed()))
}

fn drive_once(
    bench: &Bench,
    source: &str,
    from: &From,
    speed: &'static str,
    mps: f64,
    prefetch_m: f64,
    frames: usize,
) -> Result<Row, String> {
    let before = relief::http::totals();
    let ground = match from {
        From::Local(p) => Ground::open(p),
        From::Url(u, o) => Ground::open_url(u, o),
    }
    .map_err(|e| e.to_string())?;
    let mut rt = Runtime::new(ground, bench.config(prefetch_m)).map_err(|e| e.to_string())?;
    let d = drive(
        &mut rt,
        &Setup {
            at: &|f| bench.at(mps, f),
            frames,
            // Only the ready ÷ read ratio uses it, which this report doesn't print.
            piece_read: Duration::from_millis(1),
        },
    )
    .map_err(|e| e.to_string())?;
    let after = relief::http::totals();
    let f = &d.figures;
    Ok(Row {
        source: source.to_string(),
        speed,
        prefetch_m,
        ready_p50_ms: f.of("ready_p50_ms"),
        ready_p99_ms: f.of("ready_p99_ms"),
        route_loads: f.of("loads"),
        loads: rt.stats().pieces.loads,
        failures: f.of("failures"),
        late_frames: f.of("late_frames"),
        frames,
        requests: after.requests - before.requests,
        fetched: after.fetched_bytes - before.fetched_bytes,
        cache_hits: after.cache_hits - before.cache_hits,
        shared_reads: after.shared_reads - before.shared_reads,
    })
}

fn print(rows: &[Row]) {
    println!(
        "{:<24} {:>8} {:>9} {:>10} {:>10} {:>6} {:>8} {:>11} {:>10} {:>10} {:>10}",
        "source",
        "speed",
        "prefetch",
        "ready p50",
        "ready p99",
        "loads",
        "failed",
        "late frames",
        "KB/load",
        "req/load",
        "cache hits"
    );
    for r in rows {
        let per = |x: u64| x as f64 / r.loads.max(1) as f64;
        println!(
            "{:<24} {:>6.0}/s {:>7.0} m {:>7.1} ms {:>7.1} ms {:>4} + {:<4} {:>8} {:>5} / {:<5} {:>10.1} {:>10.2} {:>10}",
            r.source,
            SPEEDS.iter().find(|s| s.0 == r.speed).map_or(0.0, |s| s.1),
            r.prefetch_m,
            r.ready_p50_ms,
            r.ready_p99_ms,
            r.route_loads,
            r.loads as f64 - r.route_loads,
            r.failures,
            r.late_frames,
            r.frames,
            per(r.fetched) / 1e3,
            per(r.requests),
            r.cache_hits
        );
    }
}

fn write_json(
    path: &Path,
    url: &str,
    bytes: u64,
    took: Duration,
    rows: &[Row],
    destroy: Option<&DestroyTimes>,
) -> std::io::Result<()> {
    let rows: Vec<_> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "source": r.source, "speed": r.speed, "prefetch_m": r.prefetch_m,
                "ready_p50_ms": r.ready_p50_ms, "ready_p99_ms": r.ready_p99_ms,
                "route_loads": r.route_loads, "loads": r.loads, "failures": r.failures, "late_frames": r.late_frames,
                "frames": r.frames, "requests": r.requests, "fetched_bytes": r.fetched,
                "cache_hits": r.cache_hits, "shared_reads": r.shared_reads,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "relief-bench-url", "schema_version": 1,
        "url": relief::http::client::shown(url), "bytes": bytes,
        "download_s": took.as_secs_f64(), "rows": rows,
        "destroy_stalled_ms": destroy.map(|d| d.stalled_median),
        "destroy_stalled_max_ms": destroy.map(|d| d.stalled_max),
        "destroy_answering_ms": destroy.map(|d| d.answering_median),
        "destroy_runs": destroy.map(|_| DESTROY_RUNS),
    });
    relief::io::write_atomic(path, &serde_json::to_vec_pretty(&doc)?)
}
