//! `relief bench GROUND`: the headless streaming benchmark, for a flat world or a planet.
//!
//! A run is `--repeat` passes; each pass drives every route (the built-in ones, or a route
//! file at its recorded timing) and then measures load throughput and queries. The text
//! report prints each figure's median over the passes; `--json` writes every figure of every
//! pass with what makes the run comparable; `--plot` draws the last pass's frames; and
//! `--compare` judges the run against a baseline by the rule in [`compare`]. The files it
//! reads and writes (route files, reports), its figures and that rule are the library's
//! (`relief_tools::bench`).

mod destroy;
mod drive;
mod first_visit;
mod flat;
mod planet;
mod plot;
mod profiles;
mod remote;
mod things;

pub use relief_tools::bench::{compare, figures, report, route_file};

use std::path::{Path, PathBuf};
use std::time::Duration;

use figures::Figures;
use report::{Build, Machine, Noise, Report, RouteId, Settings, SCHEMA, SCHEMA_VERSION};
use route_file::{RouteFile, MAX_ROUTE_SECONDS};

/// How a bench run ends, for the exit status: 0 fine, 1 regressed or failed, 2 bad input.
#[derive(Debug)]
pub enum Outcome {
    /// Bad input: a route, baseline, ground or option; nothing was measured or written.
    BadInput(String),
    /// Some figures are worse than the baseline's (the report and artifacts are written).
    Regressed(usize),
    /// Something failed while measuring.
    Failed(Box<dyn std::error::Error>),
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Outcome::BadInput(e) => write!(f, "bench: {e}"),
            Outcome::Regressed(n) => write!(f, "bench: {n} figure(s) worse than the baseline"),
            Outcome::Failed(e) => write!(f, "bench: {e}"),
        }
    }
}

impl std::error::Error for Outcome {}

impl From<Box<dyn std::error::Error>> for Outcome {
    fn from(e: Box<dyn std::error::Error>) -> Outcome {
        Outcome::Failed(e)
    }
}

/// `relief bench`'s arguments.
#[derive(clap::Args)]
pub struct Options {
    /// World directory, pack or PLNT planet, or an http:// or https:// URL of a pack or planet
    /// (then: local file against cold and warm cache, see docs/bench.md).
    #[arg(value_name = "WORLD")]
    pub ground: PathBuf,
    /// Seconds per built-in route (real time, 60 frames/s).
    #[arg(long, default_value_t = 8.0)]
    pub seconds: f64,
    /// Memory budget in MiB [default: the streamer's, 256; 64 for a planet].
    #[arg(long)]
    pub budget_mb: Option<usize>,
    /// Replay this route file (CSV or JSON, docs/bench.md) instead of the built-in routes.
    #[arg(long)]
    pub route: Option<PathBuf>,
    /// Passes over every route and section; figures are medians [default: 1, or the
    /// baseline's with --compare].
    #[arg(long)]
    pub repeat: Option<usize>,
    /// Write every figure of every pass, with what makes the run comparable, as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Draw frame cost and memory over each route's last pass (SVG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Judge this run against a baseline JSON; exit 1 if any figure is worse beyond noise.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// With a URL: also stream through a loopback proxy adding this many milliseconds to
    /// every request (http:// only), widening the prefetch until no collision chunk is late.
    #[arg(long, value_name = "MS")]
    pub rtt_ms: Option<f64>,
    /// Leave these sections out (comma-separated: contention, destroy, profiles, queries,
    /// things, throughput); the routes always run. A baseline compares only with a run
    /// that skips the same.
    #[arg(long, value_delimiter = ',', value_name = "SECTION",
          value_parser = clap::builder::PossibleValuesParser::new(report::SECTIONS))]
    pub skip: Vec<String>,
    /// Internal: one first-visit measurement in this fresh process (first_visit.rs).
    #[arg(long, hide = true, value_name = "MODE")]
    pub first_visit_child: Option<String>,
    /// Internal: one pass in this fresh process, its figures and frames written to FILE
    /// (see [`pass_in_child`]).
    #[arg(long, hide = true, value_name = "FILE")]
    pub pass_child: Option<PathBuf>,
}

/// One pass's figures, and each route's frames (for the plot).
type Pass = (Figures, Vec<Vec<drive::Frame>>);

/// What a route is walked by.
pub enum Walk {
    /// One of the ground's own routes at a speed (m/s).
    Builtin { speed: f64 },
    /// A route file, replayed at its recorded timing.
    File(RouteFile),
}

/// The environment variables that make this run slower on purpose (docs/bench.md): busy
/// microseconds added to each update, sleep milliseconds to each load.
pub const SLOW_UPDATE_US: &str = "RELIEF_BENCH_SLOW_UPDATE_US";
pub const SLOW_LOAD_MS: &str = "RELIEF_BENCH_SLOW_LOAD_MS";

fn slowdown() -> Result<(f64, f64), String> {
    let read = |name: &str| match std::env::var(name) {
        Err(_) => Ok(0.0),
        Ok(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (0.0..=1e6).contains(&x) => Ok(x),
            _ => Err(format!("{name}=`{v}`: want a number from 0 to 1000000")),
        },
    };
    Ok((read(SLOW_UPDATE_US)?, read(SLOW_LOAD_MS)?))
}

/// The two kinds of ground, behind one face.
enum Bench {
    Flat(flat::FlatBench),
    Planet(planet::PlanetBench),
}

pub fn run(o: &Options) -> Result<(), Outcome> {
    let bad = Outcome::BadInput;
    if let Some(mode) = &o.first_visit_child {
        return first_visit::child(&o.ground, mode).map_err(bad);
    }
    // Caps every run keeps, a URL's too.
    if !(o.seconds.is_finite() && o.seconds > 0.0 && o.seconds <= MAX_ROUTE_SECONDS) {
        return Err(bad(format!(
            "--seconds {}: want a positive number of at most {MAX_ROUTE_SECONDS}",
            o.seconds
        )));
    }
    if let Some(url) = o.ground.to_str().filter(|g| relief::http::is_url(g)) {
        return remote::run(url, o.seconds, o.budget_mb, o.rtt_ms, o.json.as_deref());
    }
    if o.rtt_ms.is_some() {
        return Err(bad("--rtt-ms: only for a world or planet by URL".into()));
    }
    let (slow_update, slow_load) = slowdown().map_err(bad)?;
    if let Some(p) = &o.plot {
        if p.extension().and_then(|e| e.to_str()) != Some("svg") {
            return Err(bad(format!(
                "--plot {}: the plot is SVG; name the file *.svg",
                p.display()
            )));
        }
    }
    if let Some(n) = o.repeat.filter(|&n| n > compare::MAX_RUNS) {
        return Err(bad(format!(
            "--repeat {n}: at most {} passes",
            compare::MAX_RUNS
        )));
    }
    let route = o
        .route
        .as_deref()
        .map(RouteFile::read)
        .transpose()
        .map_err(bad)?;
    let planet = relief::planet::opened::is_planet_file(&o.ground);
    let bench = if planet {
        Bench::Planet(planet::PlanetBench::open(&o.ground, o.budget_mb).map_err(bad)?)
    } else {
        Bench::Flat(flat::FlatBench::open(&o.ground, o.budget_mb).map_err(bad)?)
    };
    if let (Some(r), true) = (&route, planet) {
        // A flat route (near the origin) is no path on a planet: say which sample, not fail
        // mid-run.
        for s in &r.samples {
            for (what, p) in [("focus", Some(s.focus)), ("camera", s.camera)] {
                if let Some(p) = p {
                    relief::runtime::check_focus(true, p)
                        .map_err(|e| bad(format!("route: {} {}: {what} {e}", r.unit, s.line)))?;
                }
            }
        }
    }
    let walks: Vec<(RouteId, Walk)> = match route {
        Some(r) => vec![(
            RouteId {
                name: "route".into(),
                identity: r.identity(),
                file: o.route.as_ref().map(|p| p.display().to_string()),
                speed_mps: None,
                seconds: r.duration(),
                frames: (r.duration() * drive::FRAME_HZ).floor() as usize + 1,
                camera: r.has_camera(),
            },
            Walk::File(r),
        )],
        None => {
            let speeds: &[(&str, f64)] = if planet {
                &planet::SPEEDS
            } else {
                &flat::SPEEDS
            };
            speeds
                .iter()
                .map(|&(name, speed)| {
                    (
                        RouteId {
                            name: name.into(),
                            identity: format!("builtin:{name}:{speed}"),
                            file: None,
                            speed_mps: Some(speed),
                            seconds: o.seconds,
                            frames: (o.seconds * drive::FRAME_HZ) as usize,
                            camera: false,
                        },
                        Walk::Builtin { speed },
                    )
                })
                .collect()
        }
    };
    let ground = match &bench {
        Bench::Flat(b) => b.ground_id(&o.ground),
        Bench::Planet(b) => b.ground_id(&o.ground),
    };
    let budget = match &bench {
        Bench::Flat(b) => b.budget_bytes(),
        Bench::Planet(b) => b.budget_bytes(),
    };
    let baseline = o
        .compare
        .as_deref()
        .map(Report::read)
        .transpose()
        .map_err(bad)?;
    let repeat = o
        .repeat
        .or(baseline.as_ref().map(|b| b.runs.len()))
        .unwrap_or(1)
        .max(1);
    let mut report = Report {
        schema: SCHEMA.into(),
        schema_version: SCHEMA_VERSION,
        started: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        relief: Build::this(),
        machine: Machine::this(),
        ground,
        settings: Settings {
            seconds: o.seconds,
            repeat,
            budget_mb: budget as f64 / (1 << 20) as f64,
            frame_hz: drive::FRAME_HZ,
            slowdown_update_us: slow_update,
            slowdown_load_ms: slow_load,
            skipped: {
                let mut s = o.skip.clone();
                s.sort();
                s.dedup();
                s
            },
        },
        routes: walks.iter().map(|(id, _)| id.clone()).collect(),
        noise: Noise {
            control_p50_spread: 0.0,
            control_p99_over_p50: 0.0,
        },
        runs: Vec::new(),
        medians: Figures::default(),
    };
    if let Some(b) = &baseline {
        compare::comparable(b, &report).map_err(|e| {
            bad(format!(
                "baseline {}: {e}",
                o.compare.as_ref().unwrap().display()
            ))
        })?;
        if repeat < compare::MIN_RUNS {
            return Err(bad(format!(
                "--repeat {repeat}: a comparison needs {} runs or more",
                compare::MIN_RUNS
            )));
        }
    }

    relief::stream::slowdown::set(
        Duration::from_secs_f64(slow_update / 1e6),
        Duration::from_secs_f64(slow_load / 1e3),
    );
    if slow_update > 0.0 || slow_load > 0.0 {
        println!(
            "slowed down on purpose ({SLOW_UPDATE_US}={slow_update}, {SLOW_LOAD_MS}={slow_load}): for testing a comparison, not for figures"
        );
    }
    let settings = &report.settings;
    let pass = || match &bench {
        Bench::Flat(b) => b.pass(&walks, settings),
        Bench::Planet(b) => b.pass(&o.ground, &walks, settings),
    };
    if let Some(out) = &o.pass_child {
        let (figures, frames) = pass()?;
        let text = serde_json::to_vec(&PassFile { figures, frames })
            .map_err(|e| Outcome::Failed(e.into()))?;
        return std::fs::write(out, text).map_err(|e| Outcome::Failed(e.into()));
    }
    let mut last_frames = Vec::new();
    for k in 0..repeat {
        if repeat > 1 {
            eprintln!("pass {} of {repeat}", k + 1);
        }
        // One pass alone runs here; several each run in a fresh process of their own.
        let (fig, frames) = if repeat == 1 {
            pass()?
        } else {
            pass_in_child(o, k)?
        };
        report.runs.push(fig);
        last_frames = frames;
    }
    report.medians = Figures::medians(&report.runs);
    report.noise = Noise::of(&report.runs, &report.routes);
    match &bench {
        Bench::Flat(b) => b.print(&o.ground, &report.medians, &report.routes, repeat),
        Bench::Planet(b) => b.print(&o.ground, &report.medians, &report.routes, repeat),
    }
    println!(
        "noise: the control's p50 spread across runs {:.1} %, its p99 ÷ p50 {:.2}",
        100.0 * report.noise.control_p50_spread,
        report.noise.control_p99_over_p50
    );
    if let Some(path) = &o.json {
        report.write(path).map_err(|e| Outcome::Failed(e.into()))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &o.plot {
        plot::draw(path, &report, &last_frames).map_err(|e| Outcome::Failed(e.into()))?;
        println!("wrote {}", path.display());
    }
    if let Some(b) = &baseline {
        let judged = compare::judge_all(b, &report);
        let worse = compare::print(&judged, b);
        if worse > 0 {
            return Err(Outcome::Regressed(worse));
        }
    }
    Ok(())
}

/// What a pass in a child process hands back.
#[derive(serde::Serialize, serde::Deserialize)]
struct PassFile {
    figures: Figures,
    frames: Vec<Vec<drive::Frame>>,
}

/// Pass `k` of several, in a fresh process of this binary (`relief bench GROUND
/// --pass-child FILE`, hidden, with this run's settings; the slowdown variables are
/// inherited). A process's threads keep the placement they start with, and on a small
/// machine that placement alone moved a route's CPU-time tail by 2× from one process to
/// the next (`cpu_p90_per_control` about 8 or about 16, every pass of a process alike). With
/// passes in one process, a comparison saw two processes, not independent runs, and
/// judged identical builds worse; with a process per pass, placement is noise the rule's
/// separation test sees as such.
fn pass_in_child(o: &Options, k: usize) -> Result<Pass, Outcome> {
    // In a directory of its own no other user could have put a link in.
    let dir = relief::io::create_temp_dir(&std::env::temp_dir(), "relief-bench-pass")
        .map_err(|e| Outcome::Failed(e.into()))?;
    let out = dir.join(format!("pass-{k}.json"));
    let mut cmd =
        std::process::Command::new(std::env::current_exe().map_err(|e| Outcome::Failed(e.into()))?);
    cmd.arg("bench")
        .arg(&o.ground)
        .args(["--seconds", &o.seconds.to_string()])
        .arg("--pass-child")
        .arg(&out);
    if let Some(mb) = o.budget_mb {
        cmd.args(["--budget-mb", &mb.to_string()]);
    }
    if let Some(route) = &o.route {
        cmd.arg("--route").arg(route);
    }
    if !o.skip.is_empty() {
        cmd.arg("--skip").arg(o.skip.join(","));
    }
    let done = cmd.output().map_err(|e| Outcome::Failed(e.into()))?;
    let read = std::fs::read(&out);
    let _ = std::fs::remove_dir_all(&dir);
    if !done.status.success() {
        return Err(Outcome::Failed(
            format!(
                "pass {} ({}): {}",
                k + 1,
                done.status,
                String::from_utf8_lossy(&done.stderr).trim()
            )
            .into(),
        ));
    }
    let file: PassFile = read
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| Outcome::Failed(format!("pass {}: {e}", k + 1).into()))?;
    Ok((file.figures, file.frames))
}

/// "4 routes of 8 s" or "route FILE (12.3 s)".
fn describe_routes(routes: &[RouteId]) -> String {
    match routes {
        [RouteId {
            file: Some(f),
            seconds,
            camera,
            ..
        }] => format!(
            "route {f} ({seconds:.1} s{})",
            if *camera {
                ", levels follow its camera"
            } else {
                ""
            }
        ),
        _ => format!(
            "{} routes of {} s",
            routes.len(),
            routes.first().map_or(0.0, |r| r.seconds)
        ),
    }
}

fn describe_runs(runs: usize) -> String {
    if runs > 1 {
        format!("; medians of {runs} runs")
    } else {
        String::new()
    }
}

/// The median of some durations (each caller takes an odd number).
fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    crate::timing::percentile(&v, 50.0)
}

/// Items a second through `batch` (which handles `items` a call): the median of 21 calls, so
/// a call the thread was preempted in (another process on a shared machine) drops out.
fn batch_rate<R>(items: usize, mut batch: impl FnMut() -> R) -> f64 {
    let calls = (0..21)
        .map(|_| {
            cpu_time(|| {
                std::hint::black_box(batch());
            })
        })
        .collect();
    items as f64 / median(calls).as_secs_f64().max(1e-9)
}

/// µs a call of `f(0)` … `f(calls - 1)`: timed in 21 batches and taken from the median batch,
/// as the control is, so preemption moves neither.
fn per_call_us(calls: usize, mut f: impl FnMut(usize)) -> f64 {
    let per = (calls / 21).max(1);
    let batches = (0..21)
        .map(|b| cpu_time(|| (b * per..(b + 1) * per).for_each(&mut f)))
        .collect();
    crate::timing::micros(median(batches)) / per as f64
}

/// How long `f` ran on this thread: its CPU time where the platform has the clock, so that
/// preemption by other work on a shared machine drops out (a busy 2-core runner otherwise
/// doubles a 10 ms measurement); wall time elsewhere.
fn cpu_time(f: impl FnOnce()) -> Duration {
    let Some(start) = crate::process::thread_cpu() else {
        let t = std::time::Instant::now();
        f();
        return t.elapsed();
    };
    f();
    crate::process::thread_cpu().map_or(Duration::ZERO, |end| end.saturating_sub(start))
}

/// The query section's figures: batched heights a second and single queries' µs, each also
/// in units of the control timed right after them.
fn query_figures(fig: &mut Figures, batch_per_s: f64, singles: &[(&str, f64)]) {
    let ctl_us = control_ns() / 1e3;
    fig.set("queries.control_us", ctl_us);
    fig.set("queries.batch_height_mps", batch_per_s / 1e6);
    fig.set(
        "queries.batch_height_per_control",
        1e6 / batch_per_s / ctl_us,
    );
    for &(name, us) in singles {
        fig.set(&format!("queries.{name}_us"), us);
        fig.set(&format!("queries.{name}_per_control"), us / ctl_us);
    }
}

/// The control workload's cost, nanoseconds a call: the median of 21 batches of 200.
fn control_ns() -> f64 {
    let table = drive::control_table();
    let mut sink = 0u64;
    let batches: Vec<Duration> = (0..21)
        .map(|_| {
            cpu_time(|| {
                for _ in 0..200 {
                    sink = sink.wrapping_add(drive::control_work(&table));
                }
            })
        })
        .collect();
    std::hint::black_box(sink);
    median(batches).as_secs_f64() * 1e9 / 200.0
}

/// Asks the kernel to forget a file's cached pages (after writing back any dirty ones), so
/// the next read comes from the disk. Returns whether it could.
/// A region file's bytes where they lie on disk: its own file in a world directory, or its
/// range of a pack. What loads are compared against, read raw.
#[derive(Clone, Debug)]
pub struct OnDisk {
    pub path: PathBuf,
    pub offset: u64,
    pub len: u64,
}

impl OnDisk {
    /// Every region of `locs` on disk; an error for a world that is not (by URL, in memory).
    pub fn regions(
        world: &relief::World,
        locs: &[relief::RegionLocation],
    ) -> Result<Vec<OnDisk>, String> {
        locs.iter()
            .map(|&l| {
                let (path, offset, len) = world
                    .region_on_disk(l)
                    .ok_or_else(|| format!("{}: not on disk", world.region_path(l).display()))?;
                Ok(OnDisk { path, offset, len })
            })
            .collect()
    }

    /// Fills `buf` (at most `len` bytes) from the start of the bytes, a megabyte a read,
    /// straight into it.
    pub fn read_into(&self, buf: &mut [u8]) -> Result<(), String> {
        use std::os::unix::fs::FileExt;
        let io = |e: std::io::Error| format!("{}: {e}", self.path.display());
        let file = std::fs::File::open(&self.path).map_err(io)?;
        let n = buf.len().min(self.len as usize);
        for (k, piece) in buf[..n].chunks_mut(1 << 20).enumerate() {
            file.read_exact_at(piece, self.offset + (k << 20) as u64)
                .map_err(io)?;
        }
        Ok(())
    }

    /// Reads every byte through `scratch`, a piece of its length at a time, keeping none.
    pub fn read_through(&self, scratch: &mut [u8]) -> Result<(), String> {
        use std::os::unix::fs::FileExt;
        let io = |e: std::io::Error| format!("{}: {e}", self.path.display());
        let file = std::fs::File::open(&self.path).map_err(io)?;
        let mut at = 0;
        while at < self.len {
            let n = (self.len - at).min(scratch.len() as u64) as usize;
            file.read_exact_at(&mut scratch[..n], self.offset + at)
                .map_err(io)?;
            at += n as u64;
        }
        Ok(())
    }

    /// The bytes, read whole.
    pub fn read(&self) -> Result<Vec<u8>, String> {
        let mut buf = vec![0u8; self.len as usize];
        self.read_into(&mut buf)?;
        Ok(buf)
    }
}

pub fn drop_from_page_cache(path: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        let _ = file.sync_all();
        // SAFETY: a valid open descriptor; posix_fadvise only advises the kernel.
        unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        false
    }
}
