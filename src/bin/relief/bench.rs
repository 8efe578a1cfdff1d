//! `relief bench WORLD`: the headless region-load benchmark. Every figure is measured in this
//! run; throughput is reported against a baseline taken in the same run.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::flat::terrain::Terrain;
use relief::flat::World;
use relief::lod::{Clipmap, ClipmapConfig};
use relief::stream::StreamConfig;
use relief::{Runtime, RuntimeConfig};

use crate::route::Route;
use crate::timing::{micros, percentile};

const SPEEDS: [(&str, f64); 4] = [
    ("walking", 5.0),
    ("running", 10.0),
    ("flying", 36.0),
    ("stress", 300.0),
];

/// A fixed workload shaped like an update: hashed lookups scattered over 64 KiB of tables
/// (update() walks its slot map, key list and queue), about as long as update()'s median.
#[inline(never)]
pub fn control_work(table: &[u64]) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mask = table.len() - 1; // a power of two
    for i in 0..190u64 {
        x = x.rotate_left(7)
            ^ table[(x as usize ^ i as usize) & mask].wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    x
}

/// Asks the kernel to forget a file's cached pages (after writing back any dirty ones), so
/// the next read comes from the disk. Returns whether it could.
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

/// A runtime with regions only (no collision, no levels), settled around `at`, and its queries.
fn regions_only(
    world: &Arc<World>,
    config: &StreamConfig,
    at: [f64; 3],
) -> Result<(Runtime, Terrain), Box<dyn std::error::Error>> {
    let mut rt = Runtime::new(
        world.clone(),
        RuntimeConfig {
            pieces: config.clone(),
            collision: None,
            lod: None,
        },
    )?;
    rt.settle(at, Duration::from_secs(60))?;
    let terrain = rt.queries().flat().expect("a flat world").clone();
    Ok((rt, terrain))
}

pub fn run(
    dir: &Path,
    seconds: f64,
    budget_mb: Option<usize>,
) -> Result<(), Box<dyn std::error::Error>> {
    let world = Arc::new(World::open(dir)?);
    let m = world.manifest();
    let e = world.region_extent();
    let b = m.region_bounds;
    let (x0, z0) = (b.min[0] as f64 * e, b.min[1] as f64 * e);
    let (x1, z1) = ((b.max[0] + 1) as f64 * e, (b.max[1] + 1) as f64 * e);
    let mut config = StreamConfig::default();
    if let Some(mb) = budget_mb {
        config.budget_bytes = mb << 20;
    }
    let per_region = (m.region_size as usize).pow(2)
        * m.layer_kinds()?
            .iter()
            .map(|k| k.elem_size())
            .sum::<usize>();
    println!(
        "world {}: {} regions of {}² ({:.1} MB each in memory); budget {:.0} MB; {} s per route at 60 frames/s",
        dir.display(),
        world.region_locations().count(),
        m.region_size,
        per_region as f64 / 1e6,
        config.budget_bytes as f64 / 1e6,
        seconds
    );
    println!(
        "\n{:<8} {:>6} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>9} {:>11} {:>7} {:>5}",
        "route",
        "m/s",
        "frames",
        "upd p50",
        "upd p99",
        "upd max",
        "ctl p50",
        "ctl p99",
        "ctl max",
        "loads",
        "ready p50",
        "ready p99",
        "peak/budget",
        "chunks",
        "late"
    );
    // A diagonal through the world, trimmed a little inside its corners.
    let route = Route::new(vec![
        [x0 + 0.1 * (x1 - x0), z0 + 0.1 * (z1 - z0)],
        [x1 - 0.1 * (x1 - x0), z1 - 0.1 * (z1 - z0)],
    ]);
    let mut clip_rows = Vec::new();
    for (name, speed) in SPEEDS {
        let mut rt = Runtime::new(
            world.clone(),
            RuntimeConfig {
                pieces: config.clone(),
                ..RuntimeConfig::default()
            },
        )?;
        let chunks = rt.chunk_lookup().expect("collision is on").clone();
        // A game loads what is around the start before play begins; so does the bench.
        let start = route.at(0.0);
        rt.settle([start[0], 0.0, start[1]], Duration::from_secs(60))?;
        let mut clip_costs = Vec::with_capacity((seconds * 60.0) as usize);
        while rt.poll_event().is_some() {}
        let before = rt.stats();
        let loads_before = before.pieces.loads;
        let chunks_before = before.chunks.map_or(0, |c| c.loads);
        // Frames in which the focus stood on a chunk that was not built yet.
        let mut late = 0usize;
        let frame = Duration::from_secs_f64(1.0 / 60.0);
        let frames = (seconds * 60.0) as usize;
        let mut costs = Vec::with_capacity(frames);
        let mut control = Vec::with_capacity(frames);
        let mut peak = 0usize;
        let mut sink = 0u64;
        let table: Vec<u64> = (0..8192u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for f in 0..frames {
            let tick = Instant::now();
            // Back and forth along the diagonal, so long runs stay inside the world.
            let travelled = speed * f as f64 / 60.0;
            let lap = travelled % (2.0 * route.length());
            let p = route.at(if lap > route.length() {
                2.0 * route.length() - lap
            } else {
                lap
            });
            // One update drives regions, the clipmap (exposed strips and regions that just
            // arrived) and collision; its own timings say which part cost what.
            rt.update([p[0], 0.0, p[1]])?;
            while rt.poll_event().is_some() {}
            let spent = rt.timings();
            costs.push(spent.pieces);
            clip_costs.push(spent.lod);
            late += !chunks.is_built_at([p[0], 0.0, p[1]]) as usize;
            // The control: fixed work of about the region update's median cost and memory
            // footprint, timed the same way in the same frame. Its tail is the machine's
            // (preemption, caches gone cold during the frame's sleep), not relief's.
            let t0 = Instant::now();
            sink = sink.wrapping_add(control_work(&table));
            control.push(t0.elapsed());
            let st = rt.stats().pieces;
            peak = peak.max(st.ready_bytes + st.cached_bytes + st.in_flight_bytes);
            if let Some(rest) = frame.checked_sub(tick.elapsed()) {
                std::thread::sleep(rest);
            }
        }
        costs.sort();
        control.sort();
        clip_costs.sort();
        clip_rows.push((
            name,
            percentile(&clip_costs, 50.0),
            percentile(&clip_costs, 99.0),
            *clip_costs.last().unwrap(),
            clip_costs.iter().sum::<Duration>() / clip_costs.len() as u32,
        ));
        std::hint::black_box(sink);
        let stats = rt.stats();
        let st = &stats.pieces;
        println!(
            "{name:<8} {speed:>6} {:>7} {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>8} {:>7.1}ms {:>7.1}ms {:>5.0}/{:<5.0}MB {:>7} {:>5}",
            costs.len(),
            micros(percentile(&costs, 50.0)),
            micros(percentile(&costs, 99.0)),
            micros(*costs.last().unwrap()),
            micros(percentile(&control, 50.0)),
            micros(percentile(&control, 99.0)),
            micros(*control.last().unwrap()),
            st.loads - loads_before,
            st.latency_p50.as_secs_f64() * 1e3,
            st.latency_p99.as_secs_f64() * 1e3,
            peak as f64 / 1e6,
            st.budget_bytes as f64 / 1e6,
            stats.chunks.as_ref().map_or(0, |c| c.loads) - chunks_before,
            late
        );
        if peak > st.budget_bytes + per_region {
            println!("  !! peak exceeded the budget by more than one region");
        }
    }

    // Clipmap: per-frame cost on each route against rebuilding all levels from scratch.
    let mid = [(x0 + x1) / 2.0, 0.0, (z0 + z1) / 2.0];
    let (s, terrain) = regions_only(&world, &config, mid)?;
    let mut rebuilds: Vec<Duration> = (0..21)
        .map(|k| {
            let t = Instant::now();
            let mut m = Clipmap::new(ClipmapConfig::default());
            m.update([mid[0] + k as f64, 0.0, mid[2]], &terrain);
            t.elapsed()
        })
        .collect();
    rebuilds.sort();
    let full = rebuilds[10];
    println!(
        "\nclipmap (6 levels of 128², 16 m doubling): full rebuild {:.0} µs (median of 21)",
        micros(full)
    );
    for (name, p50, p99, max, mean) in &clip_rows {
        println!(
            "  {name:<8} per frame p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs; mean ÷ full rebuild {:.4}",
            micros(*p50),
            micros(*p99),
            micros(*max),
            mean.as_secs_f64() / full.as_secs_f64()
        );
    }
    drop(s);

    // Load throughput against a raw read of the same files, both on one thread, same run.
    let locs: Vec<_> = world.region_locations().collect();
    let paths: Vec<_> = locs.iter().map(|&l| world.region_path(l)).collect();
    let bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    for p in &paths {
        std::hint::black_box(std::fs::read(p)?); // warm the page cache for both
    }
    // Alternate the two, five rounds each, and compare medians: the page cache and the
    // other core make single passes noisy. Warm: the files sit in the page cache, so a raw
    // read is a memory copy and any check costs as much again. Cold: each file is dropped
    // from the page cache first, as on a region's first visit.
    let measure = |cold: bool| -> Result<Option<(f64, f64)>, Box<dyn std::error::Error>> {
        let (mut raws, mut loads) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            if cold && !paths.iter().all(|p| drop_from_page_cache(p)) {
                return Ok(None);
            }
            let t = Instant::now();
            for p in &paths {
                std::hint::black_box(std::fs::read(p)?);
            }
            raws.push(bytes as f64 / t.elapsed().as_secs_f64());
            if cold {
                paths.iter().for_each(|p| {
                    drop_from_page_cache(p);
                });
            }
            let t = Instant::now();
            for &l in &locs {
                std::hint::black_box(world.read_region(l)?);
            }
            loads.push(bytes as f64 / t.elapsed().as_secs_f64());
        }
        raws.sort_by(f64::total_cmp);
        loads.sort_by(f64::total_cmp);
        Ok(Some((raws[2], loads[2])))
    };
    println!("\nload throughput (read + check + decode) vs raw read of the same {} files, one thread, medians of 5:", paths.len());
    for (name, cold) in [("warm page cache", false), ("cold page cache", true)] {
        match measure(cold)? {
            Some((raw, load)) => {
                println!(
                    "  {name}: load {:.0} MB/s vs raw read {:.0} MB/s: ratio {:.2}",
                    load / 1e6,
                    raw / 1e6,
                    load / raw
                )
            }
            None => println!(
                "  {name}: not measured (this platform cannot drop a file from the page cache)"
            ),
        }
    }

    // Queries on one thread over fully resident regions near the middle.
    let (_s, terrain) = regions_only(&world, &config, mid)?;
    let n = 1024usize;
    let pts: Vec<[f64; 2]> = (0..n * n)
        .map(|k| {
            [
                mid[0] - 200.0 + (k % n) as f64 * 0.37,
                mid[2] - 200.0 + (k / n) as f64 * 0.37,
            ]
        })
        .collect();
    let mut out = vec![0f32; pts.len()];
    let t = Instant::now();
    let mut reps = 0;
    while t.elapsed() < Duration::from_secs(1) {
        terrain.heights(&pts, &mut out);
        reps += 1;
    }
    let batch = (reps * pts.len()) as f64 / t.elapsed().as_secs_f64();
    let timed = |f: &dyn Fn(f64, f64)| {
        let t = Instant::now();
        let k = 200_000;
        for i in 0..k {
            let a = i as f64 * 0.618_033_988_7;
            f(
                mid[0] - 1500.0 + (a % 1.0) * 3000.0,
                mid[2] - 1500.0 + (i as f64 / k as f64) * 3000.0,
            );
        }
        t.elapsed().as_secs_f64() / k as f64 * 1e6
    };
    let single = timed(&|x, z| {
        std::hint::black_box(terrain.height(x, z));
    });
    let river = timed(&|x, z| {
        std::hint::black_box(terrain.river(x, z, 100.0));
    });
    let lake = timed(&|x, z| {
        std::hint::black_box(terrain.lake(x, z, 1000.0));
    });
    println!(
        "queries (1 thread): batch height {:.1} M/s; height {:.2} M/s ({:.3} µs); river within 100 m {:.2} M/s ({:.3} µs); lake {:.2} M/s ({:.3} µs)",
        batch / 1e6,
        1.0 / single,
        single,
        1.0 / river,
        river,
        1.0 / lake,
        lake
    );
    Ok(())
}
