//! The Godot nodes' main-thread cost per frame, on the Rust side: the [`Driver::frame`] the
//! nodes run each `_process` (one runtime update, event handling, handing prepared regions and
//! chunks over, handing changed far-ground levels over), with an engine side that takes what it is
//! handed and makes no engine call. A walk down the world's longest river at 60 frames a
//! second of wall time; the baseline, measured in the same frames, is the runtime's own update
//! inside it, so the ratio is what the node adds on top of relief's core.
//!
//!   cargo bench -p relief-godot --bench main_thread [-- WORLD [SECONDS [SPEED_M_S]]]
//!
//! WORLD defaults to the demo's default world (baked there first if missing).
//!
//! The same walk also drives a model of Terrain3D fed by the bridge, twice in the same frames:
//! `update_maps()` as Terrain3D 1.0 does it for `TYPE_MAX` (re-creating its three texture
//! arrays from every region it holds, modelled as copying every held region's map bytes into
//! fresh arrays, the least `texture_2d_layered_create` does before the GPU upload), called
//! once per frame with a change (the bridge before `ReliefTerrain3DFeed`) and as the feed
//! paces it (the bridge now).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::flat::World;
use relief::runtime::{ChunkId, PieceKey};
use relief::{Runtime, RuntimeConfig};
use relief_godot::drive::{Driver, Engine};
use relief_godot::far::FarGround;
use relief_godot::feed::{Feed, FeedConfig, Step};
use relief_godot::maps::{ImageBytes, RegionMaps};
use relief_godot::shape::ShapeData;
use relief_tools::bake::{self, BakeConfig};
use relief_tools::Silent;

/// Counts what the engine would copy, then drops it (as the node does once the bytes are in
/// a PackedByteArray).
#[derive(Default)]
struct Counting {
    /// This frame's region signals: loaded (with the maps' byte length) or unloaded.
    signals: Vec<(PieceKey, Option<usize>)>,
    regions: usize,
    region_bytes: usize,
    chunks: usize,
    chunk_bytes: usize,
    levels: usize,
    level_bytes: usize,
}

impl Engine for Counting {
    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps) {
        self.regions += 1;
        self.region_bytes += maps.byte_len();
        self.signals.push((key, Some(maps.byte_len())));
    }
    fn tile_ready(&mut self, _: PieceKey, height: ImageBytes) {
        self.regions += 1;
        self.region_bytes += height.bytes.len();
    }
    fn piece_unloaded(&mut self, key: PieceKey) {
        self.signals.push((key, None));
    }
    fn piece_failed(&mut self, _: PieceKey, message: &str) {
        eprintln!("failed: {message}");
    }
    fn chunk_ready(&mut self, _: ChunkId, shape: ShapeData) {
        self.chunks += 1;
        self.chunk_bytes += shape.byte_len();
    }
    fn chunk_dropped(&mut self, _: ChunkId) {}
    fn level_changed(&mut self, _: usize, bytes: &[u8]) {
        self.levels += 1;
        self.level_bytes += bytes.len();
    }
    fn levels_moved(&mut self, _: &FarGround) {}
}

/// Terrain3D's data as the bridge drives it: the regions it holds (their maps' bytes), and
/// `update_maps()` re-creating the three texture arrays from all of them.
#[derive(Default)]
struct Terrain3D {
    regions: HashMap<PieceKey, Arc<Vec<u8>>>,
    updates: usize,
    copied: usize,
    /// Main-thread time its calls took, per frame.
    frames: Vec<Duration>,
}

impl Terrain3D {
    fn update_maps(&mut self) -> Duration {
        let began = Instant::now();
        let total = self.regions.values().map(|r| r.len()).sum();
        let mut arrays = Vec::with_capacity(total);
        for maps in self.regions.values() {
            arrays.extend_from_slice(maps);
        }
        std::hint::black_box(&arrays);
        self.updates += 1;
        self.copied += total;
        began.elapsed()
    }
}

/// Zeroed maps of each size, shared: the copy costs the same whatever the bytes are.
fn maps_of(len: usize, made: &mut HashMap<usize, Arc<Vec<u8>>>) -> Arc<Vec<u8>> {
    made.entry(len)
        .or_insert_with(|| Arc::new(vec![0u8; len]))
        .clone()
}

fn default_world() -> std::path::PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("relief").join("default")
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    // cargo bench passes `--bench`; everything else is ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let dir = args.first().map_or_else(default_world, Into::into);
    let seconds: f64 = args.get(1).map_or(20.0, |s| s.parse().expect("seconds"));
    let speed: f64 = args.get(2).map_or(30.0, |s| s.parse().expect("speed, m/s"));
    if World::open(&dir).is_err() {
        eprintln!("baking the default world into {}", dir.display());
        bake::bake(&BakeConfig::new("relief"), &dir, &Silent).expect("bake");
    }
    let world = World::open(&dir).expect("open the world");
    let river = world.longest_river().expect("a river to walk");
    let rt = Runtime::open(&dir, RuntimeConfig::default()).expect("start the runtime");
    let mut driver = Driver::new(rt, 1);
    let mut engine = Counting::default();

    // Along the river at `speed`, one frame every 1/60 s of wall time.
    let mut along = river.windows(2).map(|w| (w[0], w[1])).cycle();
    let (mut a, mut b) = along.next().unwrap();
    let mut t = 0.0;
    let step = speed / 60.0;
    let frames = (seconds * 60.0) as usize;
    let (mut total, mut update, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    let (mut each_frame, mut paced) = (Terrain3D::default(), Terrain3D::default());
    let mut feed = Feed::new(FeedConfig::default());
    let (mut waiting, mut made) = (HashMap::new(), HashMap::new());
    let start = Instant::now();
    for frame in 0..frames {
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2))
            .sqrt()
            .max(1e-9);
        t += step / len;
        while t >= 1.0 {
            t = (t - 1.0) * len;
            (a, b) = along.next().unwrap();
            let next = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2))
                .sqrt()
                .max(1e-9);
            t /= next;
        }
        let focus = relief::DVec3::new(a[0] + (b[0] - a[0]) * t, 0.0, a[1] + (b[1] - a[1]) * t);
        let began = Instant::now();
        driver
            .frame(focus, Duration::from_millis(1), Instant::now, &mut engine)
            .expect("a finite focus");
        let spent = began.elapsed();
        let inside = driver.runtime().timings().total;
        total.push(spent);
        update.push(inside);
        rest.push(spent.saturating_sub(inside));

        // The bridge before the feed: every signal applied at once, one update per frame
        // with a change.
        let now = start.elapsed().as_secs_f64();
        let signals = std::mem::take(&mut engine.signals);
        let changed = !signals.is_empty();
        for (key, loaded) in &signals {
            match loaded {
                Some(len) => each_frame.regions.insert(*key, maps_of(*len, &mut made)),
                None => each_frame.regions.remove(key),
            };
        }
        let cost = if changed {
            each_frame.update_maps()
        } else {
            Duration::ZERO
        };
        each_frame.frames.push(cost);
        // The bridge now: the feed's plan.
        for (key, loaded) in signals {
            let (_, x, z) = key.face_x_z();
            match loaded {
                Some(len) => {
                    waiting.insert(key, maps_of(len, &mut made));
                    feed.loaded((x, z));
                }
                None => {
                    waiting.remove(&key);
                    feed.unloaded((x, z));
                }
            }
        }
        let plan = feed.frame(now);
        for step in plan.steps {
            let key = |(x, z)| PieceKey::Region(relief::RegionLocation::new(x, z));
            match step {
                Step::Add(at) => {
                    let maps = waiting.remove(&key(at)).expect("waiting maps");
                    paced.regions.insert(key(at), maps);
                }
                Step::Remove(at) => {
                    paced.regions.remove(&key(at));
                }
            }
        }
        let cost = if plan.update {
            let c = paced.update_maps();
            feed.updated(now, c.as_secs_f64());
            c
        } else {
            Duration::ZERO
        };
        paced.frames.push(cost);
        let next = start + Duration::from_secs_f64((frame + 1) as f64 / 60.0);
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    for v in [&mut total, &mut update, &mut rest] {
        v.sort();
    }
    let row = |name: &str, v: &[Duration]| {
        println!(
            "{name:<34} median {:>8.1} µs   p99 {:>8.1} µs   max {:>8.1} µs",
            micros(percentile(v, 0.5)),
            micros(percentile(v, 0.99)),
            micros(*v.last().unwrap())
        )
    };
    println!(
        "{} frames at 60 Hz, {:.0} m along the longest river at {speed} m/s, world {}",
        frames,
        speed * seconds,
        dir.display()
    );
    row("node frame (Driver::frame)", &total);
    row("  of which runtime update", &update);
    row("  of which the node's own work", &rest);
    println!(
        "node frame ÷ runtime update: median {:.2}, p99 {:.2}",
        micros(percentile(&total, 0.5)) / micros(percentile(&update, 0.5)).max(1e-3),
        micros(percentile(&total, 0.99)) / micros(percentile(&update, 0.99)).max(1e-3)
    );
    let per = |bytes: usize, n: usize| bytes as f64 / n.max(1) as f64;
    println!(
        "handed over: {} regions, {:.0} bytes each (prepared on a worker, one copy into an Image \
         on the main thread); {} chunks, {:.0} bytes each; {} level uploads, {:.0} bytes each",
        engine.regions,
        per(engine.region_bytes, engine.regions),
        engine.chunks,
        per(engine.chunk_bytes, engine.chunks),
        engine.levels,
        per(engine.level_bytes, engine.levels)
    );

    // The Terrain3D model, both ways, over the same frames.
    for (name, t3d) in [
        ("update_maps every frame with a change", &mut each_frame),
        ("update_maps paced by ReliefTerrain3DFeed", &mut paced),
    ] {
        let spent: Duration = t3d.frames.iter().sum();
        t3d.frames.sort();
        println!(
            "Terrain3D model, {name}: {} updates, {:.0} MiB copied, {:.1} ms in all; per frame \
             median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            t3d.updates,
            t3d.copied as f64 / (1 << 20) as f64,
            spent.as_secs_f64() * 1e3,
            micros(percentile(&t3d.frames, 0.5)),
            micros(percentile(&t3d.frames, 0.99)),
            micros(*t3d.frames.last().unwrap())
        );
    }
    println!(
        "paced ÷ every frame, time in update_maps: {:.3}",
        paced.frames.iter().sum::<Duration>().as_secs_f64()
            / each_frame
                .frames
                .iter()
                .sum::<Duration>()
                .as_secs_f64()
                .max(1e-12)
    );
}
