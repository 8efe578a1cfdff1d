//! `relief bench PLANET.plnt`: the planet benchmark. Open time; routes round the equator at
//! walking to orbital speeds with update() beside a control workload, load latency, collision
//! chunks and LOD rings; the process's resident memory against the tile budget; tile load
//! throughput against a raw read of the same bytes; query speed. Every figure is measured in
//! this run.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::lod::ClipmapConfig;
use relief::planet::{Planet, PlanetTerrain, TileKey, TileSource};
use relief::runtime::CollisionConfig;
use relief::stream::StreamConfig;
use relief::{Runtime, RuntimeConfig};

use crate::process::rss;
use crate::timing::{micros, millis, percentile};

/// The collision streamer's own budget: resident memory is held against both budgets.
const CHUNK_BUDGET: usize = 8 << 20;

const SPEEDS: [(&str, f64); 5] = [
    ("walking", 5.0),
    ("running", 10.0),
    ("flying", 36.0),
    ("stress", 300.0),
    ("orbit", 20_000.0),
];

pub fn run(
    path: &Path,
    seconds: f64,
    budget_mb: Option<usize>,
) -> Result<(), Box<dyn std::error::Error>> {
    // Open: the header and index only, whatever the planet's size.
    let mut opens: Vec<Duration> = (0..21)
        .map(|_| {
            let t = Instant::now();
            let p = Planet::open(path);
            let e = t.elapsed();
            drop(p);
            e
        })
        .collect();
    opens.sort();
    let cold = if crate::bench::drop_from_page_cache(path) {
        let t = Instant::now();
        Planet::open(path)?;
        Some(t.elapsed())
    } else {
        None
    };
    let planet = Arc::new(Planet::open(path)?);
    let h = planet.blob().header().clone();
    let tile_bytes = relief::stream::Source::estimate_bytes(
        &TileSource::new(planet.clone()),
        TileKey {
            face: 0,
            tx: 0,
            ty: 0,
        },
    );
    let mut config = StreamConfig {
        budget_bytes: budget_mb.unwrap_or(64) << 20,
        load_radius: 8_000.0,
        drop_radius: 10_000.0,
        ..StreamConfig::default()
    };
    if config.budget_bytes < 4 * tile_bytes {
        config.budget_bytes = 4 * tile_bytes;
    }
    println!(
        "planet {}: radius {:.1} km, 6 × {}² samples ({:.1} m cells), {:.1} MB; tiles of {}² ({:.2} MB decoded)",
        path.display(),
        h.radius / 1000.0,
        h.face_resolution,
        planet.spacing(),
        h.file_length as f64 / 1e6,
        h.tile_size,
        tile_bytes as f64 / 1e6
    );
    println!(
        "open: {:.2} ms median of 21 (warm), {} cold; reads the header and tables only",
        millis(opens[10]),
        cold.map_or("not measured".into(), |c| format!("{:.2} ms", millis(c)))
    );
    println!(
        "budgets: tiles {:.0} MB, collision chunks {:.0} MB; tiles wanted within {:.0} km; {} s per route at 60 frames/s",
        config.budget_bytes as f64 / 1e6,
        CHUNK_BUDGET as f64 / 1e6,
        config.load_radius / 1000.0,
        seconds
    );
    println!(
        "\n{:<8} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>9} {:>12} {:>14} {:>7} {:>5} {:>9}",
        "route", "m/s", "upd p50", "upd p99", "upd max", "ctl p50", "ctl p99", "loads", "ready p50", "ready p99",
        "peak/budget", "RSS+/budgets", "chunks", "late", "rings p99"
    );
    let table: Vec<u64> = (0..8192u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let r = planet.radius();
    for (name, speed) in SPEEDS {
        let terrain_probe = PlanetTerrain::new(planet.clone(), Default::default())?;
        let at = |metres: f64| terrain_probe.position_at(0.0, (metres / r).to_degrees());
        let mut rt = Runtime::new(
            planet.clone(),
            RuntimeConfig {
                pieces: config.clone(),
                collision: Some(CollisionConfig {
                    stream: StreamConfig {
                        load_radius: 1500.0,
                        drop_radius: 2000.0,
                        budget_bytes: 64 << 20,
                        ..StreamConfig::default()
                    },
                    chunk_size_m: 0.0, // 64 samples
                }),
                lod: Some(ClipmapConfig::default()),
            },
        )?;
        let chunks = rt.chunk_lookup().expect("collision is on").clone();
        let start = at(0.0);
        rt.settle(start, Duration::from_secs(60))?;
        while rt.poll_event().is_some() {}
        let base_rss = rss().map_or(0, |r| r.0);
        let before = rt.stats();
        let (loads_before, chunks_before) =
            (before.pieces.loads, before.chunks.map_or(0, |c| c.loads));
        let frames = (seconds * 60.0) as usize;
        let (mut costs, mut control, mut ring_costs) = (Vec::new(), Vec::new(), Vec::new());
        let (mut peak, mut peak_rss, mut late, mut sink) = (0usize, 0u64, 0usize, 0u64);
        let frame = Duration::from_secs_f64(1.0 / 60.0);
        for f in 0..frames {
            let tick = Instant::now();
            let p = at(speed * f as f64 / 60.0);
            rt.update(p)?;
            while rt.poll_event().is_some() {}
            let spent = rt.timings();
            costs.push(spent.pieces);
            ring_costs.push(spent.lod);
            late += !chunks.is_built_at(p) as usize;
            let t0 = Instant::now();
            sink = sink.wrapping_add(crate::bench::control_work(&table));
            control.push(t0.elapsed());
            let st = rt.stats().pieces;
            peak = peak.max(st.ready_bytes + st.cached_bytes + st.in_flight_bytes);
            if f % 10 == 0 {
                peak_rss = peak_rss.max(rss().map_or(0, |r| r.0));
            }
            if let Some(rest) = frame.checked_sub(tick.elapsed()) {
                std::thread::sleep(rest);
            }
        }
        std::hint::black_box(sink);
        costs.sort();
        control.sort();
        ring_costs.sort();
        let stats = rt.stats();
        let st = &stats.pieces;
        let grown = peak_rss.saturating_sub(base_rss);
        println!(
            "{name:<8} {speed:>6} {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>6} {:>7.1}ms {:>7.1}ms {:>5.0}/{:<5.0}MB {:>6.0}/{:<5.0}MB {:>7} {:>5} {:>7.0}µs",
            micros(percentile(&costs, 50.0)),
            micros(percentile(&costs, 99.0)),
            micros(*costs.last().unwrap()),
            micros(percentile(&control, 50.0)),
            micros(percentile(&control, 99.0)),
            st.loads - loads_before,
            millis(st.latency_p50),
            millis(st.latency_p99),
            peak as f64 / 1e6,
            st.budget_bytes as f64 / 1e6,
            grown as f64 / 1e6,
            (st.budget_bytes + CHUNK_BUDGET) as f64 / 1e6,
            stats.chunks.as_ref().map_or(0, |c| c.loads) - chunks_before,
            late,
            micros(percentile(&ring_costs, 99.0)),
        );
        if let Some((total, anon, file)) = rss() {
            println!(
                "         process RSS now {:.0} MB (anonymous {:.0} MB, file-backed {:.0} MB); at the route's start {:.0} MB, peak {:.0} MB",
                total as f64 / 1e6,
                anon as f64 / 1e6,
                file as f64 / 1e6,
                base_rss as f64 / 1e6,
                peak_rss as f64 / 1e6
            );
        }
        if grown as usize > st.budget_bytes + CHUNK_BUDGET + 4 * tile_bytes {
            println!("  !! resident memory grew past the budgets plus four tiles");
        }
    }

    // Tile loads against a raw read of the same stored bytes, one thread, warm, medians of 5.
    let keys: Vec<TileKey> = (0..6u8)
        .flat_map(|face| {
            (0..4u16).flat_map(move |ty| (0..4u16).map(move |tx| TileKey { face, tx, ty }))
        })
        .filter(|k| {
            (k.tx as u32) < h.face_resolution / h.tile_size
                && (k.ty as u32) < h.face_resolution / h.tile_size
        })
        .collect();
    let fields = planet.blob().fields().len();
    let stored: u64 = keys
        .iter()
        .map(|&k| {
            (0..fields)
                .map(|f| planet.blob().entry(f, k).map_or(0, |e| e.length as u64))
                .sum::<u64>()
        })
        .sum();
    let file = std::fs::File::open(path)?;
    let (mut raws, mut loads) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = Instant::now();
        for &k in &keys {
            for f in 0..fields {
                let e = planet.blob().entry(f, k).unwrap();
                let mut buf = vec![0u8; e.length as usize];
                std::os::unix::fs::FileExt::read_exact_at(&file, &mut buf, e.offset)?;
                std::hint::black_box(buf);
            }
        }
        raws.push(stored as f64 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        for &k in &keys {
            std::hint::black_box(planet.read_tile(k)?);
        }
        loads.push(stored as f64 / t.elapsed().as_secs_f64());
    }
    raws.sort_by(f64::total_cmp);
    loads.sort_by(f64::total_cmp);
    let decoded = (keys.len() * tile_bytes) as f64;
    println!(
        "\ntile loads (map + check + decode every field) vs raw read of the same {:.1} MB stored in {} tiles, warm: load {:.0} MB/s vs raw {:.0} MB/s: ratio {:.2} ({:.0} MB/s of decoded fields, {:.2} ms a tile)",
        stored as f64 / 1e6,
        keys.len(),
        loads[2] / 1e6,
        raws[2] / 1e6,
        loads[2] / raws[2],
        loads[2] / stored as f64 * decoded / 1e6,
        stored as f64 / loads[2] / keys.len() as f64 * 1e3
    );

    // Queries on one thread around a settled point: tiles only, no collision or rings.
    let mut rt = Runtime::new(
        planet.clone(),
        RuntimeConfig {
            pieces: config.clone(),
            collision: None,
            lod: None,
        },
    )?;
    let terrain = rt.queries().planet().expect("a planet").clone();
    let centre = terrain.position_at(20.0, 30.0);
    rt.settle(centre, Duration::from_secs(60))?;
    let pts: Vec<[f64; 3]> = (0..1 << 18)
        .map(|k| {
            terrain.position_at(
                20.0 + (k % 512) as f64 * 1e-4,
                30.0 + (k / 512) as f64 * 1e-4,
            )
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
    let timed = |f: &dyn Fn([f64; 3])| {
        let t = Instant::now();
        for p in pts.iter().step_by(8).take(20_000) {
            f(*p);
        }
        t.elapsed().as_secs_f64() / 20_000.0 * 1e6
    };
    let single = timed(&|p| {
        std::hint::black_box(terrain.height(p));
    });
    let river = timed(&|p| {
        std::hint::black_box(terrain.river(p, 200.0));
    });
    let lake = timed(&|p| {
        std::hint::black_box(terrain.lake(p, 1000.0));
    });
    let normal = timed(&|p| {
        std::hint::black_box(terrain.normal(p));
    });
    println!(
        "queries (1 thread): batch height {:.1} M/s; height {:.3} µs; normal {:.3} µs; river within 200 m {:.3} µs; lake {:.3} µs",
        batch / 1e6,
        single,
        normal,
        river,
        lake
    );
    Ok(())
}
