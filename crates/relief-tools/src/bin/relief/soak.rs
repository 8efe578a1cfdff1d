//! `relief soak`: a million frames (by default) of a fast looping route over a flat world and
//! over a planet, headless and unpaced, with the process's resident memory sampled as it
//! goes. The promise it checks: after warm-up, memory stays flat — a runtime that streams
//! the same ground over and over holds what its budgets allow and nothing more.

use relief::DVec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::runtime::Ground;
use relief::{Runtime, RuntimeConfig};

use crate::timing::micros;

/// How a soak is judged: after warm-up (the first half of the frames, at least four laps),
/// resident memory may wander by at most this much above its post-warm-up low.
pub const RSS_TOLERANCE_MB: f64 = 16.0;

/// Resident memory of this process, MiB.
fn rss_mb() -> Option<f64> {
    crate::process::rss().map(|(total, _, _)| total as f64 / (1 << 20) as f64)
}

/// Frame times in log buckets of 2 %: fixed memory, so measuring doesn't grow the RSS it
/// measures. 1 µs .. ~1 s.
struct Histogram {
    counts: Vec<u64>,
    total: u64,
}

impl Histogram {
    const STEP: f64 = 0.02;
    fn new() -> Histogram {
        Histogram {
            counts: vec![0; 800],
            total: 0,
        }
    }
    fn bucket(d: Duration) -> usize {
        let us = micros(d).max(1.0);
        ((us.ln() / Self::STEP.ln_1p()) as usize).min(799)
    }
    fn add(&mut self, d: Duration) {
        self.counts[Self::bucket(d)] += 1;
        self.total += 1;
    }
    /// The `p`-th percentile, µs (upper edge of its bucket).
    fn percentile(&self, p: f64) -> f64 {
        let want = ((self.total as f64) * p / 100.0).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= want {
                return (Self::STEP.ln_1p() * (i + 1) as f64).exp();
            }
        }
        0.0
    }
}

/// What one soak measured.
pub struct Soak {
    pub name: String,
    /// Whether the run was long enough to judge memory after warm-up.
    pub judged: bool,
    pub frames: u64,
    pub seconds: f64,
    pub update_p50_us: f64,
    pub update_p99_us: f64,
    pub loads: u64,
    pub rss_warm_mb: f64,
    pub rss_low_mb: f64,
    pub rss_high_mb: f64,
    pub rss_end_mb: f64,
}

impl Soak {
    /// Growth after warm-up, MiB: the high above the low.
    pub fn growth_mb(&self) -> f64 {
        self.rss_high_mb - self.rss_low_mb
    }
}

/// Runs `frames` updates of a runtime over `ground`, the focus `route(s)` at `s` metres
/// along a loop (1/60 s of game time per frame at `speed` m/s), querying the height there.
fn soak(
    name: &str,
    ground: Ground,
    frames: u64,
    speed: f64,
    lap_m: f64,
    route: impl Fn(f64) -> DVec3,
) -> Result<Soak, Box<dyn std::error::Error>> {
    let mut rt = Runtime::new(ground, RuntimeConfig::default())?;
    // Warm-up: half the frames, and at least four laps, so every cache has filled to its
    // budget (and the allocator's arenas to their working size) before memory is judged. The
    // frames are unpaced and the loads are not: memory fills with loads, which fall behind
    // the frames when the loaders get little CPU. On the default world at 100 m/s the RSS
    // plateaued within about a quarter of 300,000 frames, and within 40 % with a process
    // spinning on one of 2 cores (its loaders are background threads, which yield to it).
    let lap_frames = (lap_m / speed * 60.0).ceil() as u64;
    let warm_up = (frames / 2).max(4 * lap_frames);
    let judged = frames >= 2 * warm_up;
    if !judged {
        println!(
            "{name}: {frames} frames are too few to judge memory (warm-up is {warm_up} frames, four laps of {lap_m:.0} m at {speed} m/s; run at least {}): running them for leaks only",
            2 * warm_up
        );
    }
    let sample_every = (frames / 200).max(1);
    let mut hist = Histogram::new();
    let (mut low, mut high, mut warm) = (f64::INFINITY, 0.0f64, 0.0);
    let mut loads = 0;
    let started = Instant::now();
    for f in 0..frames {
        let focus = route(f as f64 / 60.0 * speed);
        let t = Instant::now();
        rt.update(focus)?;
        while let Some(e) = rt.poll_event() {
            if matches!(
                e,
                relief::RuntimeEvent::Piece(relief::stream::Event::Loaded { .. })
            ) {
                loads += 1;
            }
        }
        hist.add(t.elapsed());
        std::hint::black_box(rt.queries().height(focus));
        if f % sample_every == 0 || f + 1 == frames {
            let rss = rss_mb().unwrap_or(0.0);
            if f >= warm_up.min(frames - 1) {
                if low.is_infinite() {
                    warm = rss;
                }
                low = low.min(rss);
                high = high.max(rss);
            }
        }
    }
    Ok(Soak {
        name: name.to_string(),
        judged,
        frames,
        seconds: started.elapsed().as_secs_f64(),
        update_p50_us: hist.percentile(50.0),
        update_p99_us: hist.percentile(99.0),
        loads,
        rss_warm_mb: warm,
        rss_low_mb: low,
        rss_high_mb: high,
        rss_end_mb: rss_mb().unwrap_or(0.0),
    })
}

/// A rounded-square loop inside a flat world's bounds, and a great circle through both poles
/// of a planet: each lap revisits the same ground, so caches fill, evict and refill.
fn flat_soak(
    at: &crate::demo::WorldAt,
    frames: u64,
    speed: f64,
) -> Result<Soak, Box<dyn std::error::Error>> {
    let world = Arc::new(crate::demo::open_or_bake(at, &relief_tools::Silent)?);
    let m = world.manifest();
    let e = world.region_extent();
    let (x0, z0) = (
        m.region_bounds.min[0] as f64 * e,
        m.region_bounds.min[1] as f64 * e,
    );
    let (x1, z1) = (
        (m.region_bounds.max[0] + 1) as f64 * e,
        (m.region_bounds.max[1] + 1) as f64 * e,
    );
    let inset = 0.15;
    let (ax, az) = (x0 + (x1 - x0) * inset, z0 + (z1 - z0) * inset);
    let (bx, bz) = (x1 - (x1 - x0) * inset, z1 - (z1 - z0) * inset);
    let (w, d) = (bx - ax, bz - az);
    let lap = 2.0 * (w + d);
    let route = move |s: f64| {
        let s = s.rem_euclid(lap);
        let [x, z] = if s < w {
            [ax + s, az]
        } else if s < w + d {
            [bx, az + (s - w)]
        } else if s < 2.0 * w + d {
            [bx - (s - w - d), bz]
        } else {
            [ax, bz - (s - 2.0 * w - d)]
        };
        DVec3::new(x, 0.0, z)
    };
    soak(
        &format!("flat {}", at.shown()),
        world.into(),
        frames,
        speed,
        lap,
        route,
    )
}

fn planet_soak(path: &Path, frames: u64, speed: f64) -> Result<Soak, Box<dyn std::error::Error>> {
    let planet = Arc::new(relief::planet::Planet::open(path)?);
    // A circle 10 km across the ground (or a fifth of the radius, if smaller) around a point
    // 30° from the pole: it crosses tiles, chunks and ring cells like a fast flight does.
    let r = planet.radius();
    let theta = (10_000.0 / r).min(0.2);
    let pole = planet.pole();
    let (across, _) = relief::planet::terrain::tangent_basis(pole, pole);
    let tilt = 30f64.to_radians();
    let c = tilt.cos() * pole + tilt.sin() * across;
    let (a, b) = relief::planet::terrain::tangent_basis(c, pole);
    let lap = 2.0 * std::f64::consts::PI * r * theta.sin();
    let route = move |s: f64| {
        let phi = s / (r * theta.sin());
        r * (theta.cos() * c + theta.sin() * (phi.cos() * a + phi.sin() * b))
    };
    soak(
        &format!("planet {}", path.display()),
        planet.into(),
        frames,
        speed,
        lap,
        route,
    )
}

/// The planet a soak uses when none is given: a 512² face (1.5 M samples), baked once into
/// the user cache next to the default world.
fn default_planet() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path = crate::demo::default_world_dir().with_file_name("soak-512.plnt");
    if relief::planet::Planet::open(&path).is_err() {
        println!("baking the soak planet {} (512² faces)", path.display());
        let mut cfg = relief_tools::bake::planet::PlanetConfig::new("relief");
        cfg.face_resolution = 512;
        cfg.tile_size = 128;
        cfg.erosion_resolution = 128;
        std::fs::create_dir_all(path.parent().unwrap())?;
        relief_tools::bake::planet::bake_planet(&cfg, &path, &relief_tools::Silent)?;
    }
    Ok(path)
}

pub fn run(
    world: Option<PathBuf>,
    planet: Option<PathBuf>,
    frames: u64,
    speed: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    let world = crate::demo::WorldAt::from_arg(world);
    let planet = match planet {
        Some(p) => p,
        None => default_planet()?,
    };
    println!(
        "soak: {frames} frames per ground at {speed} m/s of game time per 1/60 s frame, unpaced; \
         RSS sampled 200 times, judged after warm-up (half, at least four laps; tolerance {RSS_TOLERANCE_MB} MiB)"
    );
    let mut failed = false;
    for s in [
        flat_soak(&world, frames, speed)?,
        planet_soak(&planet, frames, speed)?,
    ] {
        let ok = !s.judged || s.growth_mb() <= RSS_TOLERANCE_MB;
        failed |= !ok;
        println!(
            "{}: {} frames in {:.1} s ({:.0} frames/s), update median {:.1} µs, p99 {:.1} µs, {} loads; \
             RSS after warm-up {:.1} MiB, low {:.1}, high {:.1}, end {:.1}: growth {:.1} MiB {}",
            s.name,
            s.frames,
            s.seconds,
            s.frames as f64 / s.seconds,
            s.update_p50_us,
            s.update_p99_us,
            s.loads,
            s.rss_warm_mb,
            s.rss_low_mb,
            s.rss_high_mb,
            s.rss_end_mb,
            s.growth_mb(),
            match (s.judged, ok) {
                (false, _) => "(not judged: too few frames)",
                (true, true) => "(flat)",
                (true, false) => "(GROWING)",
            }
        );
    }
    if failed {
        return Err(
            format!("resident memory grew more than {RSS_TOLERANCE_MB} MiB after warm-up").into(),
        );
    }
    Ok(())
}
