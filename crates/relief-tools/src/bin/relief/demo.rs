//! `relief demo`: the default world streamed along a scripted route, told in plain words.

use relief::DVec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::flat::terrain::{Origin, Terrain};
use relief::flat::World;
use relief::stream::Event;
use relief::{Runtime, RuntimeConfig, RuntimeEvent};
use relief_tools::bake::{self, BakeConfig, BAKE_VERSION};

use crate::bench::route_file::{to_csv, Sample};
use crate::route::Route;
use crate::timing::{micros, millis, percentile};

/// `$XDG_CACHE_HOME/relief/default`, else `~/.cache/relief/default`.
pub fn default_world_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("relief").join("default")
}

/// Where a command's world comes from: the default world (relief's own, in the cache
/// directory) or one the user named.
pub enum WorldAt {
    /// The default world: baked when missing, damaged or from another bake version, since
    /// nothing but relief writes there.
    Default(PathBuf),
    /// A world the user named: baked only where nothing exists yet. Anything there that does
    /// not open is the user's, and is an error naming why, never replaced.
    Named(PathBuf),
}

impl WorldAt {
    /// Where the world is.
    pub fn path(&self) -> &Path {
        match self {
            WorldAt::Default(p) | WorldAt::Named(p) => p,
        }
    }

    /// Where the world is, as messages show it: a URL without its credentials or query.
    pub fn shown(&self) -> String {
        let text = self.path().to_string_lossy();
        if relief::http::is_url(&text) {
            relief::http::client::shown(&text)
        } else {
            text.into_owned()
        }
    }

    /// `--world DIR` if given, else the default world.
    pub fn from_arg(world: Option<PathBuf>) -> WorldAt {
        world.map_or_else(|| WorldAt::Default(default_world_dir()), WorldAt::Named)
    }
}

/// Opens the world `at` names, baking the default one (seed "relief", 4 km) only where
/// [`WorldAt`] allows.
pub fn open_or_bake(
    at: &WorldAt,
    progress: &dyn relief_tools::Progress,
) -> Result<World, Box<dyn std::error::Error>> {
    let dir = match at {
        WorldAt::Named(dir) => {
            let text = dir.to_string_lossy();
            if relief::http::is_url(&text) {
                return Ok(World::open_url(
                    &text,
                    &relief::http::HttpOptions::default(),
                )?);
            }
            // symlink_metadata: a dangling link is something there too.
            if std::fs::symlink_metadata(dir).is_ok() {
                return World::open(dir).map_err(|e| {
                    format!(
                        "{}: {e} (relief bakes a world only where nothing exists; remove it or \
                         name another directory)",
                        dir.display()
                    )
                    .into()
                });
            }
            println!("no world at {}; baking one there", dir.display());
            dir
        }
        WorldAt::Default(dir) => {
            match World::open(dir) {
                Ok(w) if w.manifest().bake_version == BAKE_VERSION => return Ok(w),
                Ok(_) => println!(
                    "{} is from another bake version; baking it again",
                    dir.display()
                ),
                Err(e) => println!(
                    "no default world at {} ({e}); baking it (seed \"relief\", 4 km)",
                    dir.display()
                ),
            }
            dir
        }
    };
    let report = bake::bake(&BakeConfig::new("relief"), dir, progress)?;
    let secs: f64 = report.seconds.iter().map(|s| s.1).sum();
    println!(
        "baked {} regions, {:.1} MB in {secs:.1} s",
        report.regions,
        report.bytes as f64 / 1e6
    );
    Ok(World::open(dir)?)
}

struct Leg {
    name: &'static str,
    route: Route,
    speed: f64,
}

/// Runs the demo; with `record`, writes the route it walked as a route file (one sample a
/// frame, at the time it was shown) that `relief bench --route` replays.
pub fn run(
    at: &WorldAt,
    wall_seconds: f64,
    record: Option<&Path>,
    progress: &dyn relief_tools::Progress,
) -> Result<(), Box<dyn std::error::Error>> {
    let world = Arc::new(open_or_bake(at, progress)?);
    let river = world
        .longest_river()
        .ok_or("the world has no river that reaches the sea")?;
    let river = Route::new(river);
    // Then across the island: from the river mouth through the middle to the far coast.
    let m = world.manifest();
    let e = world.region_extent();
    let centre = [
        (m.region_bounds.min[0] + m.region_bounds.max[0] + 1) as f64 * e / 2.0,
        (m.region_bounds.min[1] + m.region_bounds.max[1] + 1) as f64 * e / 2.0,
    ];
    let mouth = river.end();
    let across = Route::new(vec![
        mouth,
        [2.0 * centre[0] - mouth[0], 2.0 * centre[1] - mouth[1]],
    ]);
    let legs = [
        Leg {
            name: "down the longest river to the sea, running",
            route: river,
            speed: 10.0,
        },
        Leg {
            name: "flying across the island",
            route: across,
            speed: 36.0,
        },
    ];
    let sim_seconds: f64 = legs.iter().map(|l| l.route.length() / l.speed).sum();
    let lapse = (sim_seconds / wall_seconds).max(1.0);
    println!(
        "world {}: {} regions of {}² at {} m; route {:.1} km in {:.0} s of game time, shown ×{lapse:.0} at 60 frames/s",
        at.shown(),
        world.region_locations().count(),
        m.region_size,
        m.vertex_spacing,
        legs.iter().map(|l| l.route.length()).sum::<f64>() / 1000.0,
        sim_seconds
    );

    // One runtime: regions, 64 m collision chunks within 288 m, 6 clipmap levels of 128² from
    // 16 m, and queries; one update a frame drives them all.
    let mut runtime = Runtime::new(world.clone(), RuntimeConfig::default())?;
    let terrain = runtime.queries().flat().expect("a flat world").clone();
    let chunks = runtime.chunk_lookup().expect("collision is on").clone();
    let (mut late, mut clip_cells) = (0usize, 0u64);
    let (mut thing_chunks, mut things_placed) = (0usize, 0usize);
    // The loading screen: what surrounds the start is ready before the first frame.
    let first = legs[0].route.at(0.0);
    let t = Instant::now();
    runtime.settle(DVec3::new(first[0], 0.0, first[1]), Duration::from_secs(60))?;
    let st = runtime.stats();
    println!(
        "loading screen: {} regions, {} collision chunks and the clipmap ready around the start in {:.0} ms",
        st.pieces.ready,
        st.chunks.as_ref().map_or(0, |c| c.ready),
        t.elapsed().as_secs_f64() * 1e3
    );
    while runtime.poll_event().is_some() {}
    let mut clip_costs = Vec::with_capacity((wall_seconds * 70.0) as usize + 64);
    let (mut loaded, mut dropped, mut failed, mut peak) = (0, 0, 0, 0usize);
    let frame = Duration::from_secs_f64(1.0 / 60.0);
    let mut costs = Vec::with_capacity((wall_seconds * 70.0) as usize + 64);
    let mut last_report = Instant::now() - Duration::from_secs(10);
    let mut walked = Vec::with_capacity(if record.is_some() {
        costs.capacity()
    } else {
        0
    });
    let start = Instant::now();
    for leg in &legs {
        println!(
            "\n— {} ({:.1} km at {} m/s)",
            leg.name,
            leg.route.length() / 1000.0,
            leg.speed
        );
        let mut s = 0.0;
        loop {
            let tick = Instant::now();
            let p = leg.route.at(s);
            let ground = terrain.height(p[0], p[1]).height as f64;
            let focus = DVec3::new(p[0], ground + 1.8, p[1]);
            runtime.update(focus)?;
            if record.is_some() {
                walked.push(Sample {
                    t: walked.len() as f64 / 60.0,
                    focus,
                    camera: None,
                    line: 0,
                });
            }
            let spent = runtime.timings();
            costs.push(spent.pieces);
            clip_costs.push(spent.lod);

            late += !chunks.is_built_at(focus) as usize;
            while let Some(ev) = runtime.poll_event() {
                match ev {
                    RuntimeEvent::Piece(Event::Loaded { .. }) => loaded += 1,
                    RuntimeEvent::Piece(Event::Unloaded { .. }) => dropped += 1,
                    RuntimeEvent::Piece(Event::Failed { key, error, .. }) => {
                        failed += 1;
                        let (_, x, z) = key.face_x_z();
                        println!("  region ({x}, {z}) failed: {error}");
                    }
                    RuntimeEvent::Things(Event::Loaded { key, .. }) => {
                        thing_chunks += 1;
                        things_placed += runtime.thing_lookup().get(key).map_or(0, |c| c.len());
                    }
                    // Chunks, things and levels: an engine builds shapes, draws instances and
                    // uploads rectangles here.
                    // (A flat world's levels are built on this thread: they never fail apart.)
                    RuntimeEvent::Chunk(_)
                    | RuntimeEvent::Things(_)
                    | RuntimeEvent::LevelsDirty { .. }
                    | RuntimeEvent::LevelsFailed { .. } => {}
                    // Drained every frame: the queue never fills.
                    RuntimeEvent::Overflow { .. } => {}
                }
            }
            let stats = runtime.stats();
            clip_cells += stats.lod_cells_last;
            let st = stats.pieces;
            peak = peak.max(st.ready_bytes + st.cached_bytes + st.in_flight_bytes);
            if last_report.elapsed() >= Duration::from_millis(1500) || s >= leg.route.length() {
                last_report = Instant::now();
                println!("  {}", describe(&terrain, p, st.ready));
            }
            if s >= leg.route.length() {
                break;
            }
            s += leg.speed * lapse * frame.as_secs_f64();
            if let Some(rest) = frame.checked_sub(tick.elapsed()) {
                std::thread::sleep(rest);
            }
        }
    }
    let stats = runtime.stats();
    let st = &stats.pieces;
    costs.sort();
    println!("\nin {:.1} s: {loaded} regions loaded, {dropped} dropped, {failed} failed; {} ready and {} cached at the end", start.elapsed().as_secs_f64(), st.ready, st.cached);
    println!(
        "region streaming in update(): {} frames, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        costs.len(),
        micros(percentile(&costs, 50.0)),
        micros(percentile(&costs, 99.0)),
        micros(*costs.last().unwrap())
    );
    println!(
        "region load (queued → ready): p50 {:.1} ms, p99 {:.1} ms",
        millis(st.latency_p50),
        millis(st.latency_p99)
    );
    println!(
        "memory: peak {:.1} MB of a {:.0} MB budget",
        peak as f64 / 1e6,
        st.budget_bytes as f64 / 1e6
    );
    let cs = stats.chunks.clone().unwrap_or_default();
    println!(
        "collision: {} chunks of 64 m built (p50 {:.1} ms queued → ready), {} ready at the end; {late} of {} frames stood on a chunk not built yet",
        cs.loads,
        millis(cs.latency_p50),
        cs.ready,
        costs.len()
    );
    if runtime.things().is_some_and(|t| t.bands().next().is_some()) {
        println!("things: {thing_chunks} chunks placed, {things_placed} things in them",);
    }
    clip_costs.sort();
    println!(
        "clipmap: 6 levels of 128² from 16 m; per frame p50 {:.1} µs, p99 {:.1} µs; {clip_cells} cells rewritten ({:.0} per frame)",
        micros(percentile(&clip_costs, 50.0)),
        micros(percentile(&clip_costs, 99.0)),
        clip_cells as f64 / clip_costs.len() as f64
    );
    if let Some(path) = record {
        relief::io::write_atomic(path, to_csv(&walked).as_bytes())
            .map_err(|e| format!("--record {}: {e}", path.display()))?;
        println!(
            "recorded the route ({} frames) to {}: replay it with relief bench {} --route {}",
            walked.len(),
            path.display(),
            at.shown(),
            path.display()
        );
    }
    Ok(())
}

/// One line a person can read about where the focus stands.
pub fn describe(t: &Terrain, p: [f64; 2], ready: usize) -> String {
    let h = t.height(p[0], p[1]);
    let from = match h.origin {
        Origin::Region(l) => format!("region ({}, {})", l.x, l.z),
        Origin::Overview => "overview".into(),
        Origin::Outside => "outside the world".into(),
    };
    let mut line = format!(
        "({:7.1}, {:7.1}) ground {:6.1} m [{from}]",
        p[0], p[1], h.height
    );
    if let Some((_, name)) = t.biome(p[0], p[1]) {
        line += &format!(", {name}");
    }
    match t.river(p[0], p[1], 250.0) {
        Some(r) => line += &format!("; {r}"),
        None => line += "; no river within 250 m",
    }
    if let Some(l) = t.lake(p[0], p[1], 5000.0) {
        line += &format!("; {l}");
    }
    line + &format!("; {ready} regions ready")
}
