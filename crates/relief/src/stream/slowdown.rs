//! A test-only knob that makes streaming slower on purpose, so a benchmark's regression check
//! can be shown to catch a slower build (`relief bench --compare` and its tests). Off unless
//! set; while off it costs one relaxed atomic load per update and per load.
//!
//! Not for games: it exists to prove that a regression gate fires.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static UPDATE_NS: AtomicU64 = AtomicU64::new(0);
static LOAD_NS: AtomicU64 = AtomicU64::new(0);

/// Adds `update` of busy work to every [`Streamer::update`](super::Streamer::update) and
/// `load` of sleep to every load a worker runs, process-wide, until set again (zero for off).
pub fn set(update: Duration, load: Duration) {
    UPDATE_NS.store(update.as_nanos() as u64, Ordering::Relaxed);
    LOAD_NS.store(load.as_nanos() as u64, Ordering::Relaxed);
}

/// The update and load times set now.
pub fn get() -> (Duration, Duration) {
    (
        Duration::from_nanos(UPDATE_NS.load(Ordering::Relaxed)),
        Duration::from_nanos(LOAD_NS.load(Ordering::Relaxed)),
    )
}

/// Spins for the injected update time, if any (on the caller's thread, like real work).
pub(crate) fn in_update() {
    let ns = UPDATE_NS.load(Ordering::Relaxed);
    if ns > 0 {
        let until = Instant::now() + Duration::from_nanos(ns);
        while Instant::now() < until {
            std::hint::spin_loop();
        }
    }
}

/// Sleeps for the injected load time, if any (on the worker, like a slow read).
pub(crate) fn in_load() {
    let ns = LOAD_NS.load(Ordering::Relaxed);
    if ns > 0 {
        std::thread::sleep(Duration::from_nanos(ns));
    }
}
