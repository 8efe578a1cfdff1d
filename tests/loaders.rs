//! The loader threads: one crew per runtime, shared by its streamers, nearest job first
//! whichever streamer queued it, and asleep when there is nothing to load. Its own test
//! binary: the thread checks count this process's `relief-loader` threads, so no other
//! test's runtime may run beside them.

mod common;

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use relief::glam::DVec3;
use relief::stream::{Event, LoadPanic, Loaders, Source, StreamConfig, Streamer};
use relief::{Runtime, RuntimeConfig};

/// One test at a time (see the module's doc).
static SERIAL: Mutex<()> = Mutex::new(());

/// Keys on a line, one every 100 m along x; each load is logged with its source's name. The
/// load of key 0 of a gated source waits until the gate opens.
struct Line {
    name: char,
    keys: Vec<i64>,
    log: Arc<Mutex<Vec<(char, i64)>>>,
    gate: Option<Arc<(Mutex<bool>, Condvar)>>,
}

impl Source for Line {
    type Key = i64;
    type Item = i64;
    type Error = LoadPanic;
    fn keys_within(&self, f: DVec3, r: f64, out: &mut Vec<(i64, f64)>) {
        out.extend(
            self.keys
                .iter()
                .map(|&k| (k, self.distance(k, f)))
                .filter(|(_, d)| *d <= r),
        );
    }
    fn distance(&self, k: i64, f: DVec3) -> f64 {
        (k as f64 * 100.0 - f.x).abs()
    }
    fn estimate_bytes(&self, _: i64) -> usize {
        1
    }
    fn item_bytes(_: &i64) -> usize {
        1
    }
    fn load(&self, k: i64) -> Result<i64, LoadPanic> {
        if let (0, Some(gate)) = (k, &self.gate) {
            let mut open = gate.0.lock().unwrap();
            while !*open {
                open = gate.1.wait(open).unwrap();
            }
        }
        self.log.lock().unwrap().push((self.name, k));
        Ok(k)
    }
}

#[test]
fn one_crew_serves_every_streamer_nearest_job_first() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let log = Arc::new(Mutex::new(Vec::new()));
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let line = |name, keys: &[i64], gate| Line {
        name,
        keys: keys.to_vec(),
        log: log.clone(),
        gate,
    };
    let config = StreamConfig {
        load_radius: 1000.0,
        drop_radius: 1000.0,
        ..StreamConfig::default()
    };
    let loaders = Loaders::new(1);
    assert_eq!(loaders.threads(), 1);
    let mut a = Streamer::new(
        Arc::new(line('a', &[0, 1, 3, 5, 7], Some(gate.clone()))),
        config.clone(),
        &loaders,
    )
    .unwrap();
    let mut b = Streamer::new(Arc::new(line('b', &[2, 4, 6], None)), config, &loaders).unwrap();
    // The one loader takes a's key 0 and waits at the gate while both queue the rest.
    a.update(DVec3::ZERO);
    std::thread::sleep(Duration::from_millis(50));
    b.update(DVec3::ZERO);
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    let settled = |s: &mut Streamer<Line>| s.settle(DVec3::ZERO, Duration::from_secs(30));
    assert!(settled(&mut a) && settled(&mut b));
    let order: Vec<i64> = log.lock().unwrap().iter().map(|&(_, k)| k).collect();
    assert_eq!(
        order,
        [0, 1, 2, 3, 4, 5, 6, 7],
        "nearest first across both streamers: {:?}",
        log.lock().unwrap()
    );
    let loaded = |s: &mut Streamer<Line>| {
        std::iter::from_fn(|| s.poll_event())
            .filter(|e| matches!(e, Event::Loaded { .. }))
            .count()
    };
    assert_eq!((loaded(&mut a), loaded(&mut b)), (5, 3));
}

/// A loader stalled inside a load (a server that never answers) holds up nothing else: work
/// queued after it stalled wakes another loader.
#[test]
fn a_stalled_loader_does_not_hold_up_the_others() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let log = Arc::new(Mutex::new(Vec::new()));
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let source = Arc::new(Line {
        name: 'a',
        keys: vec![0, 1, 2, 3],
        log: log.clone(),
        gate: Some(gate.clone()),
    });
    let config = StreamConfig {
        load_radius: 350.0,
        drop_radius: 1000.0,
        ..StreamConfig::default()
    };
    let loaders = Loaders::new(2);
    let mut s = Streamer::new(source, config, &loaders).unwrap();
    // Only key 0 is within reach: one loader takes it and stalls at the gate, the other
    // goes back to sleep with nothing queued.
    s.update(DVec3::new(-300.0, 0.0, 0.0));
    std::thread::sleep(Duration::from_millis(100));
    // Keys 1..=3 come within reach while key 0 is still stalled.
    let near = DVec3::new(200.0, 0.0, 0.0);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while log.lock().unwrap().len() < 3 && std::time::Instant::now() < deadline {
        s.update(near);
        std::thread::sleep(Duration::from_millis(5));
    }
    let loaded: Vec<i64> = log.lock().unwrap().iter().map(|&(_, k)| k).collect();
    *gate.0.lock().unwrap() = true;
    gate.1.notify_all();
    let mut loaded = loaded;
    loaded.sort_unstable();
    assert_eq!(loaded, [1, 2, 3], "loaded beside the stalled load of key 0");
    assert!(s.settle(near, Duration::from_secs(30)));
}

/// This process's loader threads, by thread id.
#[cfg(target_os = "linux")]
fn loader_threads() -> Vec<String> {
    let mut ids = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.starts_with("relief-loader") {
            ids.push(task.file_name().to_string_lossy().into_owned());
        }
    }
    ids
}

/// The loader threads once `count` of them are there (a thread names itself as it starts,
/// so a new one may be missing for a moment, and an ending one linger), or what is there
/// after 10 s.
#[cfg(target_os = "linux")]
fn loader_threads_settled(count: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let ids = loader_threads();
        if ids.len() == count || std::time::Instant::now() > deadline {
            return ids;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// How many times a thread has gone to sleep of its own accord (0 if it has ended).
#[cfg(target_os = "linux")]
fn sleeps(id: &str) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/self/task/{id}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .map_or(0, |n| n.trim().parse().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn a_runtime_runs_one_crew_whose_idle_loaders_sleep() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    assert!(loader_threads_settled(0).is_empty());
    let config = RuntimeConfig {
        loader_threads: 3,
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::open(common::world_dir(), config).unwrap();
    let ids = loader_threads_settled(3);
    assert_eq!(
        ids.len(),
        3,
        "regions and collision chunks share the runtime's 3 loaders"
    );
    let focus = DVec3::new(300.0, 0.0, 300.0);
    assert!(rt.settle(focus, Duration::from_secs(60)).unwrap());
    assert!(rt.stats().pieces.loads > 0 && rt.stats().chunks.unwrap().loads > 0);
    // Right after the loads: a loader that polled for work would wake hundreds of times in
    // this window; one that sleeps on its condition variable, a few at most (the idle work
    // of faulting buffers in ends on its own).
    let before: Vec<u64> = ids.iter().map(|id| sleeps(id)).collect();
    std::thread::sleep(Duration::from_millis(300));
    for (id, before) in ids.iter().zip(before) {
        let woke = sleeps(id) - before;
        assert!(
            woke <= 20,
            "loader {id} woke {woke} times in 300 ms with nothing to load"
        );
    }
    // Work again wakes them: a new place loads.
    let loads = rt.stats().pieces.loads;
    assert!(rt
        .settle(DVec3::new(1300.0, 0.0, 1300.0), Duration::from_secs(60))
        .unwrap());
    assert!(rt.stats().pieces.loads > loads);
    drop(rt);
    assert!(
        loader_threads_settled(0).is_empty(),
        "the loaders end with the runtime"
    );
}
