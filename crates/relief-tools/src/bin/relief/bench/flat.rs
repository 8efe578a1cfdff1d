//! `relief bench WORLD`: routes over a flat world, then the clipmap, load throughput against
//! a raw read of the same files, and queries. Every figure is measured in this run.

use relief::DVec3;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::flat::terrain::Terrain;
use relief::flat::World;
use relief::lod::{Clipmap, ClipmapConfig};
use relief::stream::StreamConfig;
use relief::{Runtime, RuntimeConfig};

use super::drive::{drive, Setup, FRAME_HZ};
use super::figures::Figures;
use super::report::{GroundId, RouteId, Settings};
use super::{
    batch_rate, control_ns, cpu_time, drop_from_page_cache, median, per_call_us, query_figures,
    Pass, Walk,
};
use crate::route::Route;
use crate::timing::median as median_of;
use crate::timing::micros;

pub const SPEEDS: [(&str, f64); 4] = [
    ("walking", 5.0),
    ("running", 10.0),
    ("flying", 36.0),
    ("stress", 300.0),
];

pub struct FlatBench {
    dir: std::path::PathBuf,
    world: Arc<World>,
    config: StreamConfig,
    /// A diagonal through the world, trimmed a little inside its corners.
    diagonal: Route,
    per_region: usize,
}

impl FlatBench {
    pub fn open(dir: &Path, budget_mb: Option<usize>) -> Result<FlatBench, String> {
        let world = Arc::new(World::open(dir).map_err(|e| format!("{}: {e}", dir.display()))?);
        FlatBench::with_world(dir, world, budget_mb)
    }

    /// As [`open`](Self::open), for a world already open (`dir` names it).
    pub fn with_world(
        dir: &Path,
        world: Arc<World>,
        budget_mb: Option<usize>,
    ) -> Result<FlatBench, String> {
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
            * m.layer_kinds()
                .map_err(|e| e.to_string())?
                .iter()
                .map(|k| k.elem_size())
                .sum::<usize>();
        let diagonal = Route::new(vec![
            [x0 + 0.1 * (x1 - x0), z0 + 0.1 * (z1 - z0)],
            [x1 - 0.1 * (x1 - x0), z1 - 0.1 * (z1 - z0)],
        ]);
        Ok(FlatBench {
            dir: dir.to_path_buf(),
            world,
            config,
            diagonal,
            per_region,
        })
    }

    /// What the routes run with: the streamer's settings, collision and levels by default.
    pub fn runtime_config(&self) -> RuntimeConfig {
        RuntimeConfig {
            pieces: self.config.clone(),
            ..RuntimeConfig::default()
        }
    }

    pub fn budget_bytes(&self) -> usize {
        self.config.budget_bytes
    }

    pub fn ground_id(&self, dir: &Path) -> GroundId {
        let m = self.world.manifest();
        let b = m.region_bounds;
        let bytes = m.files.values().map(|f| f.bytes).sum();
        let regions = self.world.region_locations().count() as u64;
        GroundId {
            kind: "flat".into(),
            path: dir.display().to_string(),
            identity: format!(
                "flat:seed_hash={}:bake={}:regions={}:bounds={:?}..{:?}:size={}:spacing={}:bytes={}",
                m.seed_hash, m.bake_version, regions, b.min, b.max, m.region_size, m.vertex_spacing, bytes
            ),
            seed: m.seed.clone(),
            size_m: (b.max[0] - b.min[0] + 1) as f64 * self.world.region_extent(),
            samples: regions * (m.region_size as u64).pow(2),
            bytes,
        }
    }

    /// Where frame `f` of a walk stands: the focus and the camera.
    pub fn at(&self, walk: &Walk, f: usize) -> (DVec3, DVec3) {
        match walk {
            Walk::Builtin { speed, .. } => {
                // Back and forth along the diagonal, so long runs stay inside the world.
                let len = self.diagonal.length();
                let lap = (speed * f as f64 / FRAME_HZ) % (2.0 * len);
                let p = self
                    .diagonal
                    .at(if lap > len { 2.0 * len - lap } else { lap });
                (DVec3::new(p[0], 0.0, p[1]), DVec3::new(p[0], 0.0, p[1]))
            }
            Walk::File(r) => r.at(f as f64 / FRAME_HZ),
        }
    }

    /// A runtime with regions only (no collision, no levels), settled around `at`.
    fn regions_only(&self, at: DVec3) -> Result<(Runtime, Terrain), Box<dyn std::error::Error>> {
        let mut rt = Runtime::new(
            self.world.clone(),
            RuntimeConfig {
                pieces: self.config.clone(),
                collision: None,
                lod: None,
                ..RuntimeConfig::default()
            },
        )?;
        rt.settle(at, Duration::from_secs(60))?;
        let terrain = rt.queries().flat().expect("a flat world").clone();
        Ok((rt, terrain))
    }

    fn middle(&self) -> DVec3 {
        let p = self.diagonal.at(self.diagonal.length() / 2.0);
        DVec3::new(p[0], 0.0, p[1])
    }

    /// One pass: every route, then every section. Returns its figures and each route's frames.
    pub fn pass(
        &self,
        walks: &[(RouteId, Walk)],
        settings: &Settings,
    ) -> Result<Pass, Box<dyn std::error::Error>> {
        let mut fig = Figures::default();
        let locs: Vec<_> = self.world.region_locations().collect();
        let paths = super::OnDisk::regions(&self.world, &locs)?;
        for p in &paths {
            std::hint::black_box(p.read()?); // warm the page cache
        }
        // One region's stored bytes read raw: what a region's load latency is measured in.
        let piece_read = median(
            paths
                .iter()
                .cycle()
                .take(21)
                .map(|p| {
                    let t = Instant::now();
                    std::hint::black_box(p.read().map(|b| b.len()).unwrap_or(0));
                    t.elapsed()
                })
                .collect(),
        );
        fig.set("throughput.piece_read_us", micros(piece_read));

        // Clipmap: a full rebuild of every level, the unit each frame's level cost is in.
        let mid = self.middle();
        let (s, terrain) = self.regions_only(mid)?;
        let mut m = Clipmap::new(ClipmapConfig::default())?;
        let full = median(
            (0..21)
                .map(|k| {
                    // One clipmap, emptied each time: the fill's cost, not the allocator's.
                    cpu_time(|| {
                        m.reset();
                        m.update(DVec3::new(mid[0] + k as f64, 0.0, mid[2]), &terrain);
                    })
                })
                .collect(),
        );
        drop(s);
        let ctl = control_ns();
        fig.set("clipmap.full_rebuild_us", micros(full));
        fig.set(
            "clipmap.full_rebuild_per_control",
            full.as_secs_f64() * 1e9 / ctl,
        );

        let mut frames = Vec::new();
        for (id, walk) in walks {
            let mut rt = Runtime::new(self.world.clone(), self.runtime_config())?;
            let d = drive(
                &mut rt,
                &Setup {
                    at: &|f| self.at(walk, f),
                    frames: id.frames,
                    piece_read,
                },
            )?;
            let mut route = d.figures;
            route.set(
                "lod_mean_per_rebuild",
                route.of("lod_mean_us") / micros(full).max(1e-9),
            );
            fig.absorb(&id.name, route);
            frames.push(d.frames);
        }
        // The route with the most loads: each publishes into the map the batches read.
        let stress = walks.iter().find(|(id, _)| id.name == "stress");
        if let Some((id, walk)) = stress
            .or(walks.last())
            .filter(|_| settings.runs("contention"))
        {
            self.contention(&mut fig, id, walk, piece_read)?;
        }
        if settings.runs("destroy") {
            super::destroy::figures(&self.world, self.runtime_config(), mid, &mut fig)?;
        }
        // The first route's path (walking, unless a route file), with things on and off.
        if let Some((id, walk)) = walks.first().filter(|_| settings.runs("things")) {
            let at = |f: usize| self.at(walk, f);
            let cfg = self.runtime_config();
            let ground = relief::runtime::Ground::Flat(self.world.clone());
            super::things::figures(&ground, &cfg, &at, id.frames, mid, piece_read, &mut fig)?;
        }
        if settings.runs("throughput") {
            self.throughput(&mut fig, &locs, &paths)?;
            super::first_visit::figures(&self.dir, &mut fig)?;
        }
        if settings.runs("profiles") {
            super::profiles::figures(&self.world, &self.dir, self.per_region, &mut fig)?;
        }
        if settings.runs("queries") {
            self.queries(&mut fig, mid)?;
        }
        Ok((fig, frames))
    }

    /// `id`'s route again (its figures are `<route>.*`, driven alone earlier in this pass),
    /// with a second thread running million-point batch height queries
    /// against the same runtime the whole time: what a frame's update costs while a game's
    /// AI or physics thread hammers the terrain. Figures `contention.*`: the update's p50,
    /// p99 and max with and without the queries, and how many batches ran.
    fn contention(
        &self,
        fig: &mut Figures,
        id: &RouteId,
        walk: &Walk,
        piece_read: Duration,
    ) -> Result<(), Box<dyn std::error::Error>> {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let mut rt = Runtime::new(self.world.clone(), self.runtime_config())?;
        let relief::runtime::Streamed::Flat { world, regions } = rt.streamed().clone() else {
            return Err("a flat world's runtime streams regions".into());
        };
        let terrain = Terrain::new(world, regions);
        let (stop, batches) = (AtomicBool::new(false), AtomicUsize::new(0));
        let d = std::thread::scope(|scope| {
            scope.spawn(|| {
                let n = 1 << 20;
                let mut out = vec![0f32; n];
                let mut k = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    // A fresh square each batch, around wherever the route is.
                    let (focus, _) = self.at(walk, (k * 7) % id.frames.max(1));
                    let pts: Vec<[f64; 2]> = (0..n)
                        .map(|i| {
                            let (a, b) = ((i % 1024) as f64, (i / 1024) as f64);
                            [focus[0] - 512.0 + a, focus[2] - 512.0 + b]
                        })
                        .collect();
                    std::hint::black_box(terrain.heights(&pts, &mut out));
                    batches.fetch_add(1, Ordering::Relaxed);
                    k += 1;
                }
            });
            let d = drive(
                &mut rt,
                &Setup {
                    at: &|f| self.at(walk, f),
                    frames: id.frames,
                    piece_read,
                },
            );
            stop.store(true, Ordering::Relaxed);
            d
        })?;
        let alone = |name: &str| fig.of(&format!("{}.{name}", id.name));
        let with = |name: &str| d.figures.of(name);
        let mut c = Figures::default();
        for name in [
            "update_p50_us",
            "update_p99_us",
            "update_max_us",
            "total_p50_us",
            "total_p99_us",
            "total_max_us",
            "cpu_p99_us",
            "cpu_max_us",
        ] {
            c.set(&format!("alone_{name}"), alone(name));
            c.set(&format!("with_batches_{name}"), with(name));
        }
        c.set("batches", batches.load(Ordering::Relaxed) as f64);
        c.set("loads", with("loads"));
        c.set("batch_points", (1u64 << 20) as f64);
        c.set(
            "total_max_per_alone",
            with("total_max_us") / alone("total_max_us").max(1e-9),
        );
        fig.absorb("contention", c);
        Ok(())
    }

    /// Load throughput against a raw read of the same files, both on one thread, same run.
    fn throughput(
        &self,
        fig: &mut Figures,
        locs: &[relief::RegionLocation],
        paths: &[super::OnDisk],
    ) -> Result<(), Box<dyn std::error::Error>> {
        let bytes: u64 = paths.iter().map(|p| p.len).sum();
        // Alternate the two, five rounds each, and compare medians: the page cache and the
        // other core make single passes noisy. Warm: the files sit in the page cache, so a
        // raw read is a memory copy and any check costs as much again. Cold: each file is
        // dropped from the page cache first, as on a region's first visit. Loads take their
        // maps from a pool that each dropped region gives back to, as the streamer's do
        // (first visits, with nothing to reuse, are first_visit.rs's).
        let pool = Arc::new(relief::pool::BufferPool::new(self.per_region * 2));
        for (name, cold) in [("warm", false), ("cold", true)] {
            let (mut raws, mut loads) = (Vec::new(), Vec::new());
            // Warm rounds are timed in this thread's CPU time (a read from the page cache is
            // a copy the thread does itself), so preemption drops out; cold ones on the wall
            // clock, since they wait on the disk.
            let clock = |f: &mut dyn FnMut() -> std::io::Result<()>| -> std::io::Result<f64> {
                if cold {
                    let t = Instant::now();
                    f()?;
                    Ok(t.elapsed().as_secs_f64())
                } else {
                    let mut r = Ok(());
                    let d = cpu_time(|| r = f());
                    r.map(|()| d.as_secs_f64())
                }
            };
            for _ in 0..5 {
                if cold && !paths.iter().all(|p| drop_from_page_cache(&p.path)) {
                    break;
                }
                let secs = clock(&mut || {
                    for p in paths {
                        std::hint::black_box(p.read().map_err(std::io::Error::other)?);
                    }
                    Ok(())
                })?;
                raws.push(bytes as f64 / secs);
                if cold {
                    paths.iter().for_each(|p| {
                        drop_from_page_cache(&p.path);
                    });
                }
                let secs = clock(&mut || {
                    for &l in locs {
                        std::hint::black_box(
                            self.world
                                .read_region_into(l, Some(&pool))
                                .map_err(std::io::Error::other)?,
                        );
                    }
                    Ok(())
                })?;
                loads.push(bytes as f64 / secs);
            }
            if raws.len() == 5 {
                // The ratio within each round, then the median: a round the machine slowed
                // slows both halves of it.
                let mut ratios: Vec<f64> = loads.iter().zip(&raws).map(|(l, r)| l / r).collect();
                fig.set(
                    &format!("throughput.{name}_load_mbps"),
                    median_of(&mut loads) / 1e6,
                );
                fig.set(
                    &format!("throughput.{name}_raw_mbps"),
                    median_of(&mut raws) / 1e6,
                );
                fig.set(&format!("throughput.{name}_ratio"), median_of(&mut ratios));
            }
        }
        fig.set("throughput.files", paths.len() as f64);
        Ok(())
    }

    /// Queries on one thread over fully resident regions near the middle.
    fn queries(&self, fig: &mut Figures, mid: DVec3) -> Result<(), Box<dyn std::error::Error>> {
        let (_s, terrain) = self.regions_only(mid)?;
        let n = 512usize;
        let pts: Vec<[f64; 2]> = (0..n * n)
            .map(|k| {
                [
                    mid[0] - 100.0 + (k % n) as f64 * 0.37,
                    mid[2] - 100.0 + (k / n) as f64 * 0.37,
                ]
            })
            .collect();
        let mut out = vec![0f32; pts.len()];
        let batch = batch_rate(pts.len(), || terrain.heights(&pts, &mut out));
        let timed = |f: &dyn Fn(f64, f64)| {
            let k = 105_000;
            per_call_us(k, |i| {
                let a = i as f64 * 0.618_033_988_7;
                f(
                    mid[0] - 1500.0 + (a % 1.0) * 3000.0,
                    mid[2] - 1500.0 + (i as f64 / k as f64) * 3000.0,
                );
            })
        };
        let height = timed(&|x, z| {
            std::hint::black_box(terrain.height(x, z));
        });
        let river = timed(&|x, z| {
            std::hint::black_box(terrain.river(x, z, 100.0));
        });
        let lake = timed(&|x, z| {
            std::hint::black_box(terrain.lake(x, z, 1000.0));
        });
        query_figures(
            fig,
            batch,
            &[("height", height), ("river", river), ("lake", lake)],
        );
        Ok(())
    }

    /// The text report, from the figures' medians.
    pub fn print(&self, dir: &Path, m: &Figures, routes: &[RouteId], runs: usize) {
        let mf = self.world.manifest();
        println!(
            "world {}: {} regions of {}² ({:.1} MB each in memory); budget {:.0} MB; {} at 60 frames/s{}",
            dir.display(),
            self.world.region_locations().count(),
            mf.region_size,
            self.per_region as f64 / 1e6,
            self.config.budget_bytes as f64 / 1e6,
            super::describe_routes(routes),
            super::describe_runs(runs)
        );
        println!(
            "\n{:<8} {:>6} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>9} {:>11} {:>7} {:>5}",
            "route", "m/s", "frames", "upd p50", "upd p99", "upd max", "ctl p50", "ctl p99", "ctl max",
            "loads", "ready p50", "ready p99", "peak/budget", "chunks", "late"
        );
        for r in routes {
            let f = |k: &str| m.of(&format!("{}.{k}", r.name));
            println!(
                "{:<8} {:>6} {:>7} {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>8} {:>7.1}ms {:>7.1}ms {:>5.0}/{:<5.0}MB {:>7} {:>5}",
                r.name,
                r.speed_mps.map_or("file".into(), |s| s.to_string()),
                f("frames"),
                f("update_p50_us"),
                f("update_p99_us"),
                f("update_max_us"),
                f("control_p50_us"),
                f("control_p99_us"),
                f("control_max_us"),
                f("loads"),
                f("ready_p50_ms"),
                f("ready_p99_ms"),
                f("peak_mb"),
                f("budget_mb"),
                f("chunks"),
                f("late_frames"),
            );
            if f("peak_mb") * 1e6 > f("budget_mb") * 1e6 + self.per_region as f64 {
                println!("  !! peak exceeded the budget by more than one region");
            }
            if f("failures") > 0.0 {
                println!("  !! {} loads failed", f("failures"));
            }
        }
        println!(
            "\nclipmap (6 levels of 128², 16 m doubling): full rebuild {:.0} µs (median of 21)",
            m.of("clipmap.full_rebuild_us")
        );
        for r in routes {
            let f = |k: &str| m.of(&format!("{}.{k}", r.name));
            println!(
                "  {:<8} per frame p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs; mean ÷ full rebuild {:.4}",
                r.name,
                f("lod_p50_us"),
                f("lod_p99_us"),
                f("lod_max_us"),
                f("lod_mean_per_rebuild")
            );
        }
        println!(
            "\nload throughput (read + check + decode) vs raw read of the same {} files, one thread, medians of 5:",
            m.of("throughput.files")
        );
        for (name, key) in [("warm page cache", "warm"), ("cold page cache", "cold")] {
            match m.get(&format!("throughput.{key}_ratio")) {
                Some(ratio) => println!(
                    "  {name}: load {:.0} MB/s vs raw read {:.0} MB/s: ratio {ratio:.2}",
                    m.of(&format!("throughput.{key}_load_mbps")),
                    m.of(&format!("throughput.{key}_raw_mbps")),
                ),
                None => println!(
                    "  {name}: not measured (this platform cannot drop a file from the page cache)"
                ),
            }
        }
        super::first_visit::print(m, "region");
        super::profiles::print(m);
        if m.get("contention.batches").is_some() {
            println!(
                "contention: the stress route with a thread running {}-point height batches ({} of them): update p50 {:.0} µs, p99 {:.0} µs, max {:.0} µs; alone {:.0} / {:.0} / {:.0} µs",
                m.of("contention.batch_points"),
                m.of("contention.batches"),
                m.of("contention.with_batches_total_p50_us"),
                m.of("contention.with_batches_total_p99_us"),
                m.of("contention.with_batches_total_max_us"),
                m.of("contention.alone_total_p50_us"),
                m.of("contention.alone_total_p99_us"),
                m.of("contention.alone_total_max_us"),
            );
        }
        super::destroy::print(m);
        super::things::print(m, routes);
        let h = m.of("queries.height_us");
        let r = m.of("queries.river_us");
        let l = m.of("queries.lake_us");
        println!(
            "queries (1 thread): batch height {:.1} M/s; height {:.2} M/s ({h:.3} µs); river within 100 m {:.2} M/s ({r:.3} µs); lake {:.2} M/s ({l:.3} µs); the control {:.3} µs",
            m.of("queries.batch_height_mps"),
            1.0 / h,
            1.0 / r,
            1.0 / l,
            m.of("queries.control_us")
        );
    }
}
