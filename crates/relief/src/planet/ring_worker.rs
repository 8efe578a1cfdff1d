//! The thread that builds a runtime's planet rings, so that neither the strips an orbiting
//! focus exposes every frame nor the whole rebuild of a re-anchoring cost the main thread.
//!
//! Three sets of levels: the worker's own, which it builds with no lock held; *out*, kept
//! equal to the worker's under a lock after each batch; and the set the main thread shows.
//! Taking a batch is a swap of *out* with the shown set, so the main thread copies no cells
//! (copying a strip written on another core cost it 40–70 µs a frame at orbital speed). The
//! set swapped out is then behind by the rectangles just shown, which the worker copies into
//! it with its next batch. Heights come from a copy of the resident map taken per batch, so
//! the worker never holds the map's read lock through a fill while the streamer waits to
//! insert a tile.

use glam::DVec3;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::error::LoadPanic;
use crate::lod::{Clipmap, ClipmapConfig, DirtyRect};
use crate::stream::PieceMap;

use super::blob::TileKey;
use super::ring_build::{RingBuild, RingFrame};
use super::terrain::PlanetTerrain;

/// Tiles to refresh kept before a batch; more is a teleport's worth (the refills are
/// coalesced into one whole rebuild instead).
const MOST_TILES: usize = 256;
/// How often a worker that built something in the last `ACTIVE` looks for the next batch.
const POLL: Duration = Duration::from_millis(1);
const ACTIVE: Duration = Duration::from_millis(250);

/// What the main thread asks of the worker.
struct Asks {
    focus: Option<DVec3>,
    tiles: Vec<TileKey>,
    /// Too many tiles arrived at once: rebuild every level instead of refilling each.
    refill_all: bool,
    /// Batches posted (each post that changes something counts one).
    posted: u64,
    /// The worker is parked until woken: a post must wake it. While the focus keeps moving it
    /// polls instead (every `POLL`): a wake-up costs the posting thread tens of µs on a VM.
    parked: bool,
    stop: bool,
}

/// A set of storage rectangles, or every cell of every level once there are too many.
struct Rects {
    list: Vec<DirtyRect>,
    all: bool,
}

impl Rects {
    fn new() -> Rects {
        Rects {
            list: Vec::with_capacity(RingWorker::MOST_RECTS),
            all: false,
        }
    }

    fn add(&mut self, new: &[DirtyRect]) {
        if self.all || self.list.len() + new.len() > RingWorker::MOST_RECTS {
            self.all = true;
            self.list.clear();
        } else {
            self.list.extend_from_slice(new);
        }
    }

    fn add_all(&mut self, other: &Rects) {
        if other.all {
            self.all = true;
            self.list.clear();
        } else {
            self.add(&other.list);
        }
    }

    fn is_empty(&self) -> bool {
        !self.all && self.list.is_empty()
    }

    fn clear(&mut self) {
        self.list.clear();
        self.all = false;
    }

    /// The rectangles, or None for every cell.
    fn get(&self) -> Option<&[DirtyRect]> {
        (!self.all).then_some(&self.list)
    }
}

/// The worker's finished levels, for the main thread to take.
struct Built {
    /// Equal to the worker's levels after each batch (except while `stale`).
    out: Clipmap,
    frame: Option<RingFrame>,
    rebuilds: u64,
    /// Changed since the main thread last took: what it reports once it swaps `out` in.
    shown_next: Rects,
    /// Where `out` differs from the worker's levels: after a swap, `out` is the set the main
    /// thread showed before, behind by what it took.
    stale: Rects,
    /// The last batch built (`Asks::posted` when it was taken).
    done: u64,
}

struct Shared {
    asks: Mutex<Asks>,
    wake: Condvar,
    built: Mutex<Built>,
    /// Set while the worker builds a batch (tens of ms at most).
    building: AtomicBool,
    /// Why the last build panicked, until the main thread takes it.
    failure: Mutex<Option<String>>,
}

/// A build panics this many times in a row, and the worker stops: the shown levels stay as
/// they were (the failure was reported each time).
const MOST_PANICS: u32 = 3;

/// Set by [`inject_panic`]: the next build panics.
static PANIC_NEXT_BUILD: AtomicBool = AtomicBool::new(false);

/// Makes the next ring build in this process panic, as a bug would: for the tests of what a
/// runtime does then. Not for games.
#[doc(hidden)]
pub fn inject_panic() {
    PANIC_NEXT_BUILD.store(true, Ordering::Relaxed);
}

pub(crate) struct RingWorker {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    last_focus: Option<DVec3>,
    posted: u64,
    /// The batch whose result the shown levels hold.
    shown: u64,
}

impl RingWorker {
    /// Rectangles kept before they collapse into "every level, whole".
    pub(crate) const MOST_RECTS: usize = 256;

    /// A clipmap whose dirty list never grows once made: the shown set and the worker's
    /// `out` trade their lists on every swap, and a list of [`Self::MOST_RECTS`] (or one per
    /// level, when all collapse) must fit without allocating on the main thread.
    pub(crate) fn clipmap_for_swaps(config: ClipmapConfig) -> Clipmap {
        let mut clipmap = Clipmap::valid(config);
        clipmap.reserve_rects(Self::MOST_RECTS.max(config.levels as usize));
        clipmap
    }

    pub(crate) fn start(config: ClipmapConfig, terrain: PlanetTerrain) -> std::io::Result<Self> {
        crate::stream::prepare_to_wait();
        let out = Self::clipmap_for_swaps(config);
        let shared = Arc::new(Shared {
            asks: Mutex::new(Asks {
                focus: None,
                tiles: Vec::with_capacity(MOST_TILES),
                refill_all: false,
                posted: 0,
                parked: false,
                stop: false,
            }),
            wake: Condvar::new(),
            built: Mutex::new(Built {
                out,
                frame: None,
                rebuilds: 0,
                shown_next: Rects::new(),
                stale: Rects::new(),
                done: 0,
            }),
            building: AtomicBool::new(false),
            failure: Mutex::new(None),
        });
        let for_thread = shared.clone();
        let thread = crate::background::spawn("relief-rings".into(), move || {
            run(&for_thread, &terrain, config)
        })?;
        Ok(RingWorker {
            shared,
            thread: Some(thread),
            last_focus: None,
            posted: 0,
            shown: 0,
        })
    }

    /// Asks for the levels around `focus` (nothing to do if it has not moved).
    pub(crate) fn post_focus(&mut self, focus: DVec3) {
        if self.last_focus == Some(focus) {
            return;
        }
        self.last_focus = Some(focus);
        self.post(|a| a.focus = Some(focus));
    }

    /// Asks for the cells over a tile that just loaded to be refilled.
    pub(crate) fn post_tile(&mut self, key: TileKey) {
        self.post(|a| {
            if a.tiles.len() < MOST_TILES {
                a.tiles.push(key);
            } else {
                a.refill_all = true;
            }
        });
    }

    fn post(&mut self, ask: impl FnOnce(&mut Asks)) {
        self.posted += 1;
        let mut a = self.shared.asks.lock();
        ask(&mut a);
        a.posted = self.posted;
        let parked = a.parked;
        drop(a);
        if parked {
            self.shared.wake.notify_one();
        }
    }

    /// Swaps in what the worker finished, unless it is handing a batch over right now; else
    /// `shown` keeps its levels and reports nothing rewritten.
    pub(crate) fn deliver(&mut self, shown: &mut RingBuild) {
        let Some(mut b) = self.shared.built.try_lock() else {
            shown.clipmap.clear_dirty();
            return;
        };
        let b = &mut *b;
        self.shown = b.done;
        if b.shown_next.is_empty() {
            shown.clipmap.clear_dirty();
            return;
        }
        std::mem::swap(&mut shown.clipmap, &mut b.out);
        match b.shown_next.get() {
            Some(rects) => shown.clipmap.set_dirty(rects),
            None => shown.clipmap.mark_all_dirty(),
        }
        shown.frame = b.frame;
        shown.rebuilds = b.rebuilds;
        // What was swapped out lacks exactly what was just shown.
        std::mem::swap(&mut b.stale, &mut b.shown_next);
        b.shown_next.clear();
    }

    /// Why a build panicked since the last call, if one did. The worker went on from a fresh
    /// set of levels (the shown ones stay until it delivers them), unless it panicked
    /// [`MOST_PANICS`] times in a row.
    pub(crate) fn take_failure(&self) -> Option<String> {
        self.shared.failure.lock().take()
    }

    /// Whether everything posted has been built and taken.
    pub(crate) fn is_idle(&self) -> bool {
        self.shown == self.posted
    }
}

/// How long dropping the worker waits for its thread before leaving it to finish alone.
const JOIN_FOR: Duration = Duration::from_millis(20);

impl Drop for RingWorker {
    fn drop(&mut self) {
        self.shared.asks.lock().stop = true;
        self.shared.wake.notify_one();
        // A build in progress (tens of ms at most) finishes on its own, the thread ending
        // after it and holding only its own data; an idle thread ends at once and is joined.
        if let Some(t) = self.thread.take() {
            let deadline = Instant::now() + JOIN_FOR;
            while !t.is_finished()
                && !self.shared.building.load(Ordering::Acquire)
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_micros(200));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

/// The worker: wait for a batch, build it with no lock held, then bring `out` up to date.
fn run(shared: &Shared, terrain: &PlanetTerrain, config: ClipmapConfig) {
    let planet = terrain.planet().clone();
    let mut build = RingBuild::new(Clipmap::valid(config));
    let mut tiles = Vec::with_capacity(MOST_TILES);
    let mut copy = PieceMap::default();
    let mut changed = Rects::new();
    let (mut built, mut last_focus) = (0, None);
    let (mut panics, mut refill_next) = (0u32, false);
    let mut last_batch = Instant::now();
    loop {
        let (focus, refill_all, batch) = {
            let mut a = shared.asks.lock();
            while !a.stop && a.posted == built {
                if last_batch.elapsed() < ACTIVE {
                    shared.wake.wait_for(&mut a, POLL);
                } else {
                    a.parked = true;
                    shared.wake.wait(&mut a);
                    a.parked = false;
                }
            }
            if a.stop {
                return;
            }
            std::mem::swap(&mut tiles, &mut a.tiles);
            let refill = std::mem::take(&mut a.refill_all) || std::mem::take(&mut refill_next);
            (a.focus.take(), refill, a.posted)
        };
        changed.clear();
        shared.building.store(true, Ordering::Release);
        // A panic in a build (a bug in relief) must not leave the levels frozen with nothing
        // said: it is reported, and the worker starts again from fresh levels around the
        // last focus, with every level refilled.
        last_focus = focus.or(last_focus);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if PANIC_NEXT_BUILD.swap(false, Ordering::Relaxed) {
                panic!("a panic injected for a test");
            }
            terrain.with_heights_copied(&mut copy, |h| {
                if refill_all {
                    // The plane stays; every level refills over the tiles now resident.
                    build.clipmap.reset();
                    tiles.clear();
                }
                if let Some(f) = last_focus.filter(|_| focus.is_some() || refill_all) {
                    changed.add(build.update(f, &planet, h));
                }
                for key in tiles.drain(..) {
                    changed.add(build.refresh_tile(key, &planet, h));
                }
            })
        }));
        // Drop the copy's tiles now: an evicted tile's memory goes back as soon as it can.
        copy.clear();
        shared.building.store(false, Ordering::Release);
        if let Err(payload) = outcome {
            let message = LoadPanic::from_payload(&*payload).0;
            panics += 1;
            log::error!(
                "the planet's LOD ring thread panicked (a bug in relief; {panics} in a row): {message}"
            );
            *shared.failure.lock() = Some(message);
            if panics >= MOST_PANICS {
                log::error!("the planet's LOD rings stop: the levels stay as last shown");
                return;
            }
            build = RingBuild::new(Clipmap::valid(config));
            tiles.clear();
            refill_next = true;
            continue; // the batch is still to build: `built` has not moved
        }
        panics = 0;
        let mut b = shared.built.lock();
        let b = &mut *b;
        b.stale.add_all(&changed);
        b.shown_next.add_all(&changed);
        b.out.copy_from(&build.clipmap, b.stale.get());
        b.stale.clear();
        b.frame = build.frame;
        b.rebuilds = build.rebuilds;
        b.done = batch;
        built = batch;
        last_batch = Instant::now();
    }
}
