//! `relief bench PLANET.plnt`: open time; routes round the equator at walking to orbital
//! speeds (or a route file); tile load throughput against a raw read of the same bytes;
//! query speed. Every figure is measured in this run.

use relief::DVec3;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::lod::ClipmapConfig;
use relief::planet::{Planet, PlanetTerrain, TileKey, TileSource};
use relief::runtime::CollisionConfig;
use relief::stream::StreamConfig;
use relief::{Runtime, RuntimeConfig};

use super::drive::{drive, Setup, FRAME_HZ};
use super::figures::Figures;
use super::report::{GroundId, RouteId, Settings};
use super::{
    batch_rate, cpu_time, drop_from_page_cache, median, per_call_us, query_figures, Pass, Walk,
};
use crate::timing::{median as median_of, micros, millis};

pub const SPEEDS: [(&str, f64); 5] = [
    ("walking", 5.0),
    ("running", 10.0),
    ("flying", 36.0),
    ("stress", 300.0),
    ("orbit", 20_000.0),
];

/// Collision chunks near the focus: the planet's own streamer settings.
fn collision() -> CollisionConfig {
    CollisionConfig {
        stream: StreamConfig {
            load_radius: 1500.0,
            drop_radius: 2000.0,
            budget_bytes: 64 << 20,
            ..StreamConfig::default()
        },
        chunk_size_m: 0.0, // 64 samples
    }
}

pub struct PlanetBench {
    planet: Arc<Planet>,
    terrain: PlanetTerrain,
    config: StreamConfig,
    tile_bytes: usize,
}

impl PlanetBench {
    pub fn open(path: &Path, budget_mb: Option<usize>) -> Result<PlanetBench, String> {
        let planet = Arc::new(Planet::open(path).map_err(|e| format!("{}: {e}", path.display()))?);
        PlanetBench::with_planet(planet, budget_mb)
    }

    /// As [`open`](Self::open), for a planet already open.
    pub fn with_planet(
        planet: Arc<Planet>,
        budget_mb: Option<usize>,
    ) -> Result<PlanetBench, String> {
        let terrain =
            PlanetTerrain::new(planet.clone(), Default::default()).map_err(|e| e.to_string())?;
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
        config.budget_bytes = config.budget_bytes.max(4 * tile_bytes);
        Ok(PlanetBench {
            planet,
            terrain,
            config,
            tile_bytes,
        })
    }

    pub fn budget_bytes(&self) -> usize {
        self.config.budget_bytes
    }

    pub fn ground_id(&self, path: &Path) -> GroundId {
        let h = self.planet.blob().header();
        GroundId {
            kind: "planet".into(),
            path: path.display().to_string(),
            identity: format!(
                "planet:seed={:016x}:bake={}:version={}:radius={}:face={}:tile={}:bytes={}",
                h.seed,
                h.bake_version,
                h.version,
                h.radius,
                h.face_resolution,
                h.tile_size,
                h.file_length
            ),
            seed: format!("{:016x}", h.seed),
            size_m: h.radius,
            samples: 6 * (h.face_resolution as u64).pow(2),
            bytes: h.file_length,
        }
    }

    pub fn at(&self, walk: &Walk, f: usize) -> (DVec3, DVec3) {
        match walk {
            Walk::Builtin { speed, .. } => {
                let metres = speed * f as f64 / FRAME_HZ;
                let p = self
                    .terrain
                    .position_at(0.0, (metres / self.planet.radius()).to_degrees());
                (p, p)
            }
            Walk::File(r) => r.at(f as f64 / FRAME_HZ),
        }
    }

    /// Reads every field of `k` raw, as stored.
    /// What the routes run with: the tile streamer's settings, collision and levels.
    pub fn runtime_config(&self) -> RuntimeConfig {
        RuntimeConfig {
            pieces: self.config.clone(),
            collision: Some(collision()),
            lod: Some(ClipmapConfig::default()),
            ..RuntimeConfig::default()
        }
    }

    fn read_raw(&self, file: &std::fs::File, k: TileKey) -> std::io::Result<()> {
        for f in 0..self.planet.blob().fields().len() {
            if let Some(e) = self.planet.blob().entry(f, k) {
                let mut buf = vec![0u8; e.length as usize];
                std::os::unix::fs::FileExt::read_exact_at(file, &mut buf, e.offset)?;
                std::hint::black_box(buf);
            }
        }
        Ok(())
    }

    pub fn pass(
        &self,
        path: &Path,
        walks: &[(RouteId, Walk)],
        settings: &Settings,
    ) -> Result<Pass, Box<dyn std::error::Error>> {
        let mut fig = Figures::default();
        // Open: the header and index only, whatever the planet's size.
        let open = median(
            (0..21)
                .map(|_| {
                    let t = Instant::now();
                    let p = Planet::open(path);
                    let e = t.elapsed();
                    drop(p);
                    e
                })
                .collect(),
        );
        fig.set("open.warm_ms", millis(open));
        if drop_from_page_cache(path) {
            let t = Instant::now();
            Planet::open(path)?;
            fig.set("open.cold_ms", millis(t.elapsed()));
        }
        let (keys, stored) = super::first_visit::sample_tiles(&self.planet);
        let file = std::fs::File::open(path)?;
        for &k in &keys {
            self.read_raw(&file, k)?; // warm the page cache
        }
        let piece_read = median(
            keys.iter()
                .cycle()
                .take(21)
                .map(|&k| {
                    let t = Instant::now();
                    let _ = self.read_raw(&file, k);
                    t.elapsed()
                })
                .collect(),
        );
        fig.set("throughput.piece_read_us", micros(piece_read));

        let mut frames = Vec::new();
        for (id, walk) in walks {
            let mut rt = Runtime::new(self.planet.clone(), self.runtime_config())?;
            let d = drive(
                &mut rt,
                &Setup {
                    at: &|f| self.at(walk, f),
                    frames: id.frames,
                    piece_read,
                },
            )?;
            fig.absorb(&id.name, d.figures);
            frames.push(d.frames);
        }

        // Things placed around the first land on a spiral out from 0° N 0° E (the first
        // route's start where there is none), and the first route's path with things on and
        // off.
        if let Some((id, walk)) = walks.first().filter(|_| settings.runs("things")) {
            let at = |f: usize| self.at(walk, f);
            let ground = relief::runtime::Ground::Planet(self.planet.clone());
            let (pole, r) = (self.planet.pole(), self.planet.radius());
            let land = (0..4000)
                .map(|k| {
                    let t = k as f64 / 4000.0;
                    let (lat, lon) = (70f64.to_radians() * t, 40.0 * std::f64::consts::TAU * t);
                    relief::planet::cube::from_lat_lon(lat * lon.cos().signum(), lon, pole)
                })
                .find(|d| self.planet.overview_height(*d).is_ok_and(|h| h > 20.0));
            let start = land.map_or(at(0).0, |d| d * r);
            let cfg = self.runtime_config();
            super::things::figures(&ground, &cfg, &at, id.frames, start, piece_read, &mut fig)?;
        }
        if settings.runs("throughput") {
            // Tile loads against a raw read of the same stored bytes, one thread, warm, medians of 5.
            let (mut raws, mut loads) = (Vec::new(), Vec::new());
            // In this thread's CPU time: warm reads are copies it does itself, and preemption
            // by other work on the machine drops out.
            // As the streamer loads: fields from a pool that dropped tiles give back to.
            let pool = Arc::new(relief::pool::BufferPool::new(
                self.planet.tile_lens().iter().sum::<usize>() * 4,
            ));
            for _ in 0..5 {
                let mut ok = Ok(());
                let raw = cpu_time(|| {
                    for &k in &keys {
                        if let Err(e) = self.read_raw(&file, k) {
                            ok = Err(e);
                        }
                    }
                });
                ok?;
                raws.push(stored as f64 / raw.as_secs_f64().max(1e-9));
                let mut ok = Ok(());
                let load = cpu_time(|| {
                    for &k in &keys {
                        match self.planet.read_tile_in(k, Some(&pool)) {
                            Ok(t) => drop(std::hint::black_box(t)),
                            Err(e) => ok = Err(e),
                        }
                    }
                });
                ok?;
                loads.push(stored as f64 / load.as_secs_f64().max(1e-9));
            }
            // The ratio within each round, then the median: a slowed round slows both halves.
            let mut ratios: Vec<f64> = loads.iter().zip(&raws).map(|(l, r)| l / r).collect();
            let (load, raw) = (median_of(&mut loads), median_of(&mut raws));
            let decoded = (keys.len() * self.tile_bytes) as f64;
            fig.set("throughput.tiles", keys.len() as f64);
            fig.set("throughput.stored_mb", stored as f64 / 1e6);
            fig.set("throughput.warm_load_mbps", load / 1e6);
            fig.set("throughput.warm_raw_mbps", raw / 1e6);
            fig.set("throughput.warm_ratio", median_of(&mut ratios));
            fig.set(
                "throughput.warm_decoded_mbps",
                load / stored as f64 * decoded / 1e6,
            );
            fig.set(
                "throughput.tile_ms",
                stored as f64 / load / keys.len() as f64 * 1e3,
            );
            super::first_visit::figures(path, &mut fig)?;
        }
        if settings.runs("queries") {
            self.queries(&mut fig)?;
        }
        Ok((fig, frames))
    }

    /// Queries on one thread around a settled point: tiles only, no collision or rings.
    fn queries(&self, fig: &mut Figures) -> Result<(), Box<dyn std::error::Error>> {
        let mut rt = Runtime::new(
            self.planet.clone(),
            RuntimeConfig {
                pieces: self.config.clone(),
                collision: None,
                lod: None,
                ..RuntimeConfig::default()
            },
        )?;
        let terrain = rt.queries().planet().expect("a planet").clone();
        let centre = terrain.position_at(20.0, 30.0);
        rt.settle(centre, Duration::from_secs(60))?;
        let pts: Vec<DVec3> = (0..1 << 18)
            .map(|k| {
                terrain.position_at(
                    20.0 + (k % 512) as f64 * 1e-4,
                    30.0 + (k / 512) as f64 * 1e-4,
                )
            })
            .collect();
        let mut out = vec![0f32; pts.len()];
        let batch = batch_rate(pts.len(), || terrain.heights(&pts, &mut out));
        let timed = |f: &dyn Fn(DVec3)| per_call_us(21_000, |i| f(pts[i * 8]));
        let height = timed(&|p| {
            std::hint::black_box(terrain.height(p));
        });
        let normal = timed(&|p| {
            std::hint::black_box(terrain.normal(p));
        });
        let river = timed(&|p| {
            std::hint::black_box(terrain.river(p, 200.0));
        });
        let lake = timed(&|p| {
            std::hint::black_box(terrain.lake(p, 1000.0));
        });
        query_figures(
            fig,
            batch,
            &[
                ("height", height),
                ("normal", normal),
                ("river", river),
                ("lake", lake),
            ],
        );
        Ok(())
    }

    pub fn print(&self, path: &Path, m: &Figures, routes: &[RouteId], runs: usize) {
        let h = self.planet.blob().header();
        println!(
            "planet {}: radius {:.1} km, 6 × {}² samples ({:.1} m cells), {:.1} MB; tiles of {}² ({:.2} MB decoded){}",
            path.display(),
            h.radius / 1000.0,
            h.face_resolution,
            self.planet.spacing(),
            h.file_length as f64 / 1e6,
            h.tile_size,
            self.tile_bytes as f64 / 1e6,
            super::describe_runs(runs)
        );
        println!(
            "open: {:.2} ms median of 21 (warm), {}; reads the header and tables only",
            m.of("open.warm_ms"),
            m.get("open.cold_ms")
                .map_or("cold not measured".into(), |c| format!("{c:.2} ms cold"))
        );
        println!(
            "budgets: tiles {:.0} MB, collision chunks {:.0} MB; tiles wanted within {:.0} km; {} at 60 frames/s",
            self.config.budget_bytes as f64 / 1e6,
            collision().stream.budget_bytes as f64 / 1e6,
            self.config.load_radius / 1000.0,
            super::describe_routes(routes)
        );
        println!(
            "\n{:<8} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>9} {:>12} {:>14} {:>7} {:>5} {:>9}",
            "route", "m/s", "upd p50", "upd p99", "upd max", "ctl p50", "ctl p99", "loads", "ready p50", "ready p99",
            "peak/budget", "RSS+/budgets", "chunks", "late", "rings p99"
        );
        for r in routes {
            let f = |k: &str| m.of(&format!("{}.{k}", r.name));
            println!(
                "{:<8} {:>6} {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>7.1}µs {:>6} {:>7.1}ms {:>7.1}ms {:>5.0}/{:<5.0}MB {:>6.0}/{:<5.0}MB {:>7} {:>5} {:>7.0}µs",
                r.name,
                r.speed_mps.map_or("file".into(), |s| s.to_string()),
                f("update_p50_us"),
                f("update_p99_us"),
                f("update_max_us"),
                f("control_p50_us"),
                f("control_p99_us"),
                f("loads"),
                f("ready_p50_ms"),
                f("ready_p99_ms"),
                f("peak_mb"),
                f("budget_mb"),
                f("rss_growth_mb"),
                f("budgets_mb"),
                f("chunks"),
                f("late_frames"),
                f("lod_p99_us"),
            );
            println!(
                "         process RSS at the route's start {:.0} MB, peak {:.0} MB",
                f("rss_start_mb"),
                f("rss_peak_mb")
            );
            if f("rss_growth_mb") * 1e6 > f("budgets_mb") * 1e6 + 4.0 * self.tile_bytes as f64 {
                println!("  !! resident memory grew past the budgets plus four tiles");
            }
            if f("failures") > 0.0 {
                println!("  !! {} loads failed", f("failures"));
            }
        }
        println!(
            "\ntile loads (map + check + decode every field) vs raw read of the same {:.1} MB stored in {} tiles, warm: load {:.0} MB/s vs raw {:.0} MB/s: ratio {:.2} ({:.0} MB/s of decoded fields, {:.2} ms a tile)",
            m.of("throughput.stored_mb"),
            m.of("throughput.tiles"),
            m.of("throughput.warm_load_mbps"),
            m.of("throughput.warm_raw_mbps"),
            m.of("throughput.warm_ratio"),
            m.of("throughput.warm_decoded_mbps"),
            m.of("throughput.tile_ms"),
        );
        super::first_visit::print(m, "tile");
        super::things::print(m, routes);
        println!(
            "queries (1 thread): batch height {:.1} M/s; height {:.3} µs; normal {:.3} µs; river within 200 m {:.3} µs; lake {:.3} µs; the control {:.3} µs",
            m.of("queries.batch_height_mps"),
            m.of("queries.height_us"),
            m.of("queries.normal_us"),
            m.of("queries.river_us"),
            m.of("queries.lake_us"),
            m.of("queries.control_us"),
        );
    }
}
