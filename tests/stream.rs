//! The streamer, end to end: on a baked world, and on a mock source that is not a grid.

mod common;

use relief::DVec3;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use relief::flat::RegionSource;
use relief::flat::{FormatError, Manifest, RegionLocation, World};
use relief::stream::{Event, Loaders, Source, StreamConfig, Streamer};

fn drain<S: Source>(s: &mut Streamer<S>) -> Vec<Event<S::Key, S::Error>> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

fn region_streamer(dir: &std::path::Path, config: StreamConfig) -> Streamer<RegionSource> {
    Streamer::new(
        Arc::new(RegionSource::new(Arc::new(World::open(dir).unwrap()))),
        config,
        &Loaders::new(0),
    )
    .unwrap()
}

#[test]
fn regions_load_within_reach_and_drop_behind() {
    let mut s = region_streamer(common::world_dir(), StreamConfig::default());
    let src = s.source().clone();
    let a = DVec3::new(100.0, 0.0, 100.0);
    assert!(s.settle(a, Duration::from_secs(30)));
    let loaded: HashSet<RegionLocation> = drain(&mut s)
        .into_iter()
        .map(|e| match e {
            Event::Loaded { key, .. } => key,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let world = src.world().clone();
    let expect: HashSet<RegionLocation> = world
        .region_locations()
        .filter(|&l| src.edge_distance(l, a[0], a[2]) <= 512.0)
        .collect();
    assert_eq!(loaded, expect);
    assert_eq!(s.resident().read().len(), expect.len());

    // Walk 3 km east: everything behind beyond 704 m is unloaded (but may stay cached).
    let b = DVec3::new(1900.0, 0.0, 100.0);
    assert!(s.settle(b, Duration::from_secs(30)));
    let events = drain(&mut s);
    let unloaded: HashSet<RegionLocation> = events
        .iter()
        .filter_map(|e| {
            if let Event::Unloaded { key } = e {
                Some(*key)
            } else {
                None
            }
        })
        .collect();
    for l in &loaded {
        let d = src.edge_distance(*l, b[0], b[2]);
        assert_eq!(unloaded.contains(l), d > 704.0, "region {l:?} at {d:.0} m");
    }
    let st = s.stats();
    assert_eq!(
        st.ready,
        world
            .region_locations()
            .filter(|&l| src.edge_distance(l, b[0], b[2]) <= 512.0)
            .count()
    );
    assert!(st.cached > 0 && st.in_flight == 0 && st.failures == 0);
    assert!(st.latency_p99 >= st.latency_p50 && st.latency_p50 > Duration::ZERO);
}

#[test]
fn hysteresis_keeps_regions_between_the_radii() {
    let mut s = region_streamer(common::world_dir(), StreamConfig::default());
    let src = s.source().clone();
    assert!(s.settle(DVec3::new(0.0, 0.0, 0.0), Duration::from_secs(30)));
    drain(&mut s);
    // 600 m west: regions 513–704 m away stay, nothing is unloaded or loaded for them.
    let p = DVec3::new(-600.0, 0.0, 0.0);
    assert!(s.settle(p, Duration::from_secs(30)));
    for e in drain(&mut s) {
        if let Event::Unloaded { key } = e {
            assert!(src.edge_distance(key, p[0], p[2]) > 704.0);
        }
    }
    let kept = src.world().region_locations().filter(|&l| {
        let d = src.edge_distance(l, p[0], p[2]);
        d > 512.0 && d <= 704.0 && src.edge_distance(l, 0.0, 0.0) <= 512.0
    });
    let resident = s.resident();
    for l in kept {
        assert!(
            resident.read().contains_key(&l),
            "{l:?} dropped inside the drop radius"
        );
    }
}

#[test]
fn the_budget_trims_the_wanted_set_and_bounds_memory() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let per_region = RegionSource::new(world.clone()).estimate_bytes(RegionLocation::new(0, 0));
    let budget = per_region * 5 + per_region / 2;
    let cfg = StreamConfig {
        budget_bytes: budget,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(Arc::new(RegionSource::new(world)), cfg, &Loaders::new(0)).unwrap();
    for step in 0..40 {
        let p = DVec3::new(-1500.0 + step as f64 * 75.0, 0.0, 300.0);
        s.settle(p, Duration::from_secs(30));
        let st = s.stats();
        assert!(
            st.ready_bytes + st.cached_bytes + st.in_flight_bytes <= budget,
            "{st:?}"
        );
        assert_eq!(st.ready, 5, "the five nearest fit");
        assert!(st.trimmed > 0);
    }
}

/// A line of keys 0..n at x = 100·k, each loading after a delay: nothing planar about it.
struct Beads {
    n: i64,
    delay: Duration,
    loads: Mutex<Vec<i64>>,
    reads: AtomicUsize,
}

#[derive(Debug, thiserror::Error)]
enum Cursed {
    #[error("bead {0} is cursed")]
    Bead(i64),
    #[error(transparent)]
    Panicked(#[from] relief::stream::LoadPanic),
}

impl Source for Beads {
    type Key = i64;
    type Item = Vec<u8>;
    type Error = Cursed;
    fn keys_within(&self, f: DVec3, r: f64, out: &mut Vec<(i64, f64)>) {
        out.extend(
            (0..self.n)
                .map(|k| (k, (k as f64 * 100.0 - f[0]).abs()))
                .filter(|(_, d)| *d <= r),
        );
    }
    fn distance(&self, k: i64, f: DVec3) -> f64 {
        (k as f64 * 100.0 - f[0]).abs()
    }
    fn estimate_bytes(&self, _: i64) -> usize {
        1000
    }
    fn item_bytes(i: &Vec<u8>) -> usize {
        i.len()
    }
    fn load(&self, k: i64) -> Result<Vec<u8>, Cursed> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(self.delay);
        self.loads.lock().unwrap().push(k);
        if k == 13 {
            return Err(Cursed::Bead(k));
        }
        if k == 66 {
            panic!("bead 66 breaks the loader");
        }
        Ok(vec![0; 1000])
    }
}

#[test]
fn loads_go_nearest_first_and_unwanted_jobs_are_withdrawn() {
    let beads = Arc::new(Beads {
        n: 100,
        delay: Duration::from_millis(20),
        loads: Mutex::new(vec![]),
        reads: AtomicUsize::new(0),
    });
    let cfg = StreamConfig {
        load_radius: 1000.0,
        drop_radius: 1000.0,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(beads.clone(), cfg, &Loaders::new(1)).unwrap();
    s.update(DVec3::new(5000.0, 0.0, 0.0)); // wants beads 40..=60
    std::thread::sleep(Duration::from_millis(50));
    s.update(DVec3::new(9000.0, 0.0, 0.0)); // now wants 80..=99: 40..60 must not all be read
    assert!(s.settle(DVec3::new(9000.0, 0.0, 0.0), Duration::from_secs(30)));
    let loads = beads.loads.lock().unwrap().clone();
    let early: Vec<i64> = loads.iter().copied().filter(|k| *k <= 60).collect();
    assert!(early.len() <= 4, "withdrawn jobs were read: {early:?}");
    assert_eq!(early.first(), Some(&50), "the nearest bead loads first");
    let late: Vec<i64> = loads.iter().copied().filter(|k| *k >= 80).collect();
    assert_eq!(late.len(), 20);
    let mut sorted = late.clone();
    sorted.sort_by_key(|k| (k - 90).abs());
    assert_eq!(late[0], 90, "nearest first after the move: {late:?}");
}

#[test]
fn a_failing_key_retries_then_gives_up_without_disturbing_others() {
    let beads = Arc::new(Beads {
        n: 30,
        delay: Duration::ZERO,
        loads: Mutex::new(vec![]),
        reads: AtomicUsize::new(0),
    });
    let cfg = StreamConfig {
        load_radius: 300.0,
        drop_radius: 300.0,
        retry_delay: Duration::from_millis(5),
        max_attempts: 3,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(beads.clone(), cfg, &Loaders::new(0)).unwrap();
    let f = DVec3::new(1300.0, 0.0, 0.0); // wants 10..=16, bead 13 always fails
    let mut failures = vec![];
    for _ in 0..400 {
        s.update(f);
        for e in drain(&mut s) {
            if let Event::Failed {
                key,
                attempt,
                retry_in,
                ..
            } = e
            {
                assert_eq!(key, 13);
                failures.push((attempt, retry_in.is_some()));
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        failures,
        vec![(1, true), (2, true), (3, false)],
        "three attempts, then it gives up"
    );
    assert_eq!(s.stats().ready, 6, "every other bead is ready");
    assert!(s.resident().read().len() == 6);
}

#[test]
fn damaged_files_fail_alone_and_nothing_resident_is_lost() {
    let dir = common::copy_world("stream-faults");
    let cfg = StreamConfig {
        retry_delay: Duration::from_millis(5),
        ..StreamConfig::default()
    };
    let mut s = region_streamer(&dir, cfg);
    let home = DVec3::new(-1500.0, 0.0, -1500.0);
    assert!(s.settle(home, Duration::from_secs(30)));
    let before: Vec<RegionLocation> = s.resident().read().keys().copied().collect();
    drain(&mut s);
    // Damage three regions far away, each a different way, then walk to them.
    let (gone, cut, flipped) = (
        RegionLocation::new(2, 0),
        RegionLocation::new(3, 0),
        RegionLocation::new(2, 1),
    );
    std::fs::remove_file(dir.join(Manifest::region_path(gone))).unwrap();
    let p = dir.join(Manifest::region_path(cut));
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    let p = dir.join(Manifest::region_path(flipped));
    let mut bytes = std::fs::read(&p).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&p, &bytes).unwrap();

    let there = DVec3::new(1200.0, 0.0, 300.0);
    let mut failed = HashSet::new();
    for _ in 0..3000 {
        s.update(there);
        for e in drain(&mut s) {
            if let Event::Failed { key, error, .. } = e {
                match key {
                    k if k == gone => {
                        assert!(matches!(error, FormatError::Missing { .. }), "{error}")
                    }
                    k if k == cut => assert!(
                        matches!(error, FormatError::ManifestMismatch { .. }),
                        "{error}"
                    ),
                    k if k == flipped => {
                        assert!(matches!(error, FormatError::Checksum { .. }), "{error}")
                    }
                    other => panic!("{other:?} failed: {error}"),
                }
                failed.insert(key);
            }
        }
        if failed.len() == 3 && s.is_idle() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(failed.len(), 3);
    let st = s.stats();
    assert!(
        st.ready > 5,
        "the healthy regions around the damage loaded: {st:?}"
    );
    let resident = s.resident();
    for l in before {
        assert!(resident.read().contains_key(&l), "{l:?} was lost");
    }
}

/// However large the radius, the wanted keys are the world's own: the loops are bounded by
/// the world's extent, not by the radius (a 1e12 m radius used to mean 10^18 iterations).
#[test]
fn a_huge_radius_is_bounded_by_the_world() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let regions = RegionSource::new(world.clone());
    let mut out = Vec::new();
    regions.keys_within(DVec3::new(1e9, 0.0, -1e9), 1e12, &mut out);
    assert_eq!(out.len(), world.region_locations().count());
    let chunk_source =
        relief::flat::collision::ChunkSource::new(world.clone(), Default::default(), 64.0).unwrap();
    let mut chunks = Vec::new();
    chunk_source.keys_within(DVec3::ZERO, 1e12, &mut chunks);
    let extent = world.region_extent();
    let b = world.manifest().region_bounds;
    let per_axis = |a: usize| ((b.max[a] - b.min[a] + 1) as f64 * extent / 64.0) as usize;
    assert_eq!(
        chunks.len(),
        per_axis(0) * per_axis(1),
        "every chunk of the world, once"
    );
    out.clear();
    regions.keys_within(DVec3::new(f64::NAN, 0.0, 0.0), 1e3, &mut out);
    assert!(out.is_empty(), "no position, no keys");
}

/// A load that panics on the loader thread is a Failed event like any other, retried by
/// policy; the (single) loader thread survives and loads everything else.
#[test]
fn a_panicking_load_fails_its_key_and_the_loader_lives_on() {
    let beads = Arc::new(Beads {
        n: 100,
        delay: Duration::ZERO,
        loads: Mutex::new(vec![]),
        reads: AtomicUsize::new(0),
    });
    let cfg = StreamConfig {
        load_radius: 300.0,
        drop_radius: 300.0,
        retry_delay: Duration::from_millis(5),
        max_attempts: 2,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(beads, cfg, &Loaders::new(1)).unwrap();
    let f = DVec3::new(6600.0, 0.0, 0.0); // wants 63..=69; bead 66 panics
    let mut failures = vec![];
    // Until both attempts failed and all else loaded, with a deadline generous enough for
    // sanitizers (a panic's backtrace takes them a while to print).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < deadline
        && !(failures.len() == 2 && s.is_idle() && s.stats().ready == 6)
    {
        s.update(f);
        for e in drain(&mut s) {
            if let Event::Failed { key, error, .. } = e {
                assert_eq!(key, 66);
                assert!(
                    error.to_string().contains("bead 66 breaks the loader"),
                    "{error}"
                );
                failures.push(key);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // Nothing more comes: a third attempt would be a retry past max_attempts.
    for _ in 0..50 {
        s.update(f);
        for e in drain(&mut s) {
            if let Event::Failed { key, .. } = e {
                failures.push(key);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(failures, vec![66, 66], "two attempts, each a Failed event");
    assert_eq!(
        s.stats().ready,
        6,
        "the one loader thread loaded every other bead"
    );
    assert!(s.is_idle(), "nothing stuck in flight");
    // The bead that gave up is wanted and counted apart: ready and gave-up make the whole.
    let stats = s.stats();
    assert_eq!((stats.wanted, stats.gave_up), (7, 1));
    // Out of the wanted set, it is counted no more.
    s.update(DVec3::new(9000.0, 0.0, 0.0));
    assert_eq!(s.stats().gave_up, 0);
}

/// A region file replaced by a FIFO fails that region at once (open never blocks), and the
/// streamer still stops when dropped: a loader thread stuck in open() would hang both.
#[cfg(unix)]
#[test]
fn a_fifo_where_a_region_should_be_fails_without_blocking() {
    let dir = common::copy_world("stream-fifo");
    let home = DVec3::new(-1500.0, 0.0, -1500.0);
    let loc = RegionLocation::new(-3, -3);
    let cfg = StreamConfig {
        max_attempts: 1,
        ..StreamConfig::default()
    };
    // Opened first (the manifest checks every file's length), then the file is swapped.
    let mut s = region_streamer(&dir, cfg);
    let path = dir.join(Manifest::region_path(loc));
    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    assert!(
        s.settle(home, Duration::from_secs(30)),
        "nothing hangs in flight"
    );
    let failed: Vec<_> = drain(&mut s)
        .into_iter()
        .filter_map(|e| match e {
            Event::Failed { key, error, .. } => Some((key, error.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, loc);
    assert!(
        failed[0].1.contains("not a regular file"),
        "{}",
        failed[0].1
    );
    assert!(s.stats().ready > 3, "the others loaded");
    drop(s); // joins the loader threads
}

/// A small budget walked back and forth: evicted regions' maps come back out of the pool for
/// later loads, every region streamed equals the same region read fresh (a reused buffer is
/// overwritten whole), and the pool never keeps more than the budget leaves over.
#[test]
fn evicted_regions_buffers_are_reused_and_reloads_read_the_same() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let per_region = {
        let r = world
            .read_region(world.region_locations().next().unwrap())
            .unwrap();
        r.layer_lens().iter().sum::<usize>()
    };
    let budget = 12 * per_region;
    let mut s = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        StreamConfig {
            budget_bytes: budget,
            load_radius: 300.0,
            drop_radius: 350.0,
            ..StreamConfig::default()
        },
        &Loaders::new(0),
    )
    .unwrap();
    let pool = s.source().pool().clone();
    let (west, east) = (
        DVec3::new(200.0, 0.0, 600.0),
        DVec3::new(1800.0, 0.0, 600.0),
    );
    for k in 0..6 {
        let at = if k % 2 == 0 { west } else { east };
        assert!(s.settle(at, Duration::from_secs(30)));
        let stats = pool.stats();
        assert!(stats.room_bytes <= budget, "{stats:?}");
        for (loc, region) in s.resident().read().iter() {
            let fresh = world.read_region(*loc).unwrap();
            // Layers compare by their bytes.
            assert_eq!(region.height, fresh.height, "{loc:?}, pass {k}");
            assert_eq!(region.control, fresh.control, "{loc:?}, pass {k}");
            assert_eq!(region.color, fresh.color);
            assert_eq!(region.biome, fresh.biome);
            assert_eq!(region.lake, fresh.lake);
        }
    }
    let stats = pool.stats();
    assert!(stats.hits > 0, "no load took a pooled buffer: {stats:?}");
}

/// A region source whose loads take a while, as a busy machine's do, so updates find loads
/// in flight and loading screens wait; `every_update` plans every update (the default
/// `moved`): the reference the plan-skipping streamer must agree with.
struct Paced {
    regions: RegionSource,
    every_update: bool,
}

impl Source for Paced {
    type Key = RegionLocation;
    type Item = relief::flat::Region;
    type Error = FormatError;
    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(RegionLocation, f64)>) {
        self.regions.keys_within(focus, radius, out)
    }
    fn distance(&self, key: RegionLocation, focus: DVec3) -> f64 {
        self.regions.distance(key, focus)
    }
    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        match self.every_update {
            true => f64::INFINITY,
            false => self.regions.moved(from, to),
        }
    }
    fn estimate_bytes(&self, key: RegionLocation) -> usize {
        self.regions.estimate_bytes(key)
    }
    fn item_bytes(item: &relief::flat::Region) -> usize {
        RegionSource::item_bytes(item)
    }
    fn load(&self, key: RegionLocation) -> Result<relief::flat::Region, FormatError> {
        std::thread::sleep(Duration::from_millis(20));
        self.regions.load(key)
    }
}

/// A streamer that plans only when something could change holds, after every step of a walk
/// (settled), exactly what one planning every update holds, and skips most plans while the
/// focus creeps: the regions wanted, loaded and dropped, and the same events. Loads are slow
/// on purpose: a loading screen's updates, standing still, plan only as loads land, even
/// where a region stands exactly on a radius (the walk settles with one 300 m away).
#[test]
fn skipping_plans_changes_nothing_but_their_count() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let config = StreamConfig {
        load_radius: 300.0,
        drop_radius: 420.0,
        ..StreamConfig::default()
    };
    let loaders = Loaders::new(1);
    let paced = |every_update| {
        Arc::new(Paced {
            regions: RegionSource::new(world.clone()),
            every_update,
        })
    };
    let mut skip = Streamer::new(paced(false), config.clone(), &loaders).unwrap();
    let mut every = Streamer::new(paced(true), config, &loaders).unwrap();
    fn loaded<S: Source<Key = RegionLocation>>(s: &Streamer<S>) -> Vec<RegionLocation> {
        let mut v = Vec::new();
        s.for_each_loaded(|k| v.push(k));
        v.sort();
        v
    }
    let (mut updates, mut events) = (0u64, (Vec::new(), Vec::new()));
    for step in 0..400 {
        // A creep across the world and back, 2.5 m a frame: regions come and go.
        let t = step as f64 * 2.5;
        let focus = DVec3::new(-900.0 + t, 0.0, 300.0 - 0.6 * t);
        skip.update(focus);
        every.update(focus);
        updates += 1;
        if step % 20 == 0 {
            assert!(skip.settle(focus, Duration::from_secs(30)));
            assert!(every.settle(focus, Duration::from_secs(30)));
            skip.update(focus);
            every.update(focus);
        }
        for e in drain(&mut skip) {
            events.0.push(format!("{e:?}"));
        }
        for e in drain(&mut every) {
            events.1.push(format!("{e:?}"));
        }
        if step % 20 == 0 {
            assert_eq!(loaded(&skip), loaded(&every), "step {step}");
            assert_eq!(skip.stats().wanted, every.stats().wanted, "step {step}");
        }
    }
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(sorted(events.0), sorted(events.1));
    assert!(every.plans() >= updates, "{} plans", every.plans());
    assert!(
        skip.plans() * 2 < every.plans(),
        "{} plans of {} skipped too few",
        every.plans() - skip.plans(),
        every.plans()
    );
}
