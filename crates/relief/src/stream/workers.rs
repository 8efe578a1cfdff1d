//! The loader threads. A runtime starts one crew of them ([`Loaders`]) and every streamer it
//! holds — regions or tiles, collision chunks — queues its loads in a lane of that crew.
//! Each lane is one streamer's queue, re-prioritised by its main thread every update (nearest
//! first) and withdrawn from before a loader takes a job; a free loader takes the nearest job
//! of any lane. Results come back over the lane's bounded crossbeam channel, which never
//! allocates per message.
//!
//! Loaders with nothing to do sleep on a condition variable until a streamer queues a job:
//! no polling. The main thread wakes at most one loader per update, and only when it queued
//! something while one slept; a loader that takes a job and sees more waiting wakes the
//! next, so the rest of the chain costs the frame nothing.
//!
//! A loader woken from sleep could take the waking core at once, preempting the frame for a
//! load; loaders run as background threads ([`crate::background`]) so that it waits instead.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::{Condvar, Mutex, RwLock};

use crate::error::LoadPanic;
use crate::stream::source::Source;

pub struct Job<K> {
    pub key: K,
    pub distance: f64,
    pub queued: Instant,
}

pub struct Done<S: Source> {
    pub key: S::Key,
    pub queued: Instant,
    /// How long the load itself ran on its worker (queue wait aside).
    pub took: std::time::Duration,
    /// Wrapped in its Arc here, so the main thread does not allocate to publish it.
    pub outcome: Result<Arc<S::Item>, S::Error>,
}

/// The most loader threads a runtime starts.
pub const MAX_LOADERS: usize = 256;

/// A crew of loader threads, shared by the streamers it is handed to. Cheap to clone; the
/// threads end when the last clone (and every streamer holding one) is dropped.
#[derive(Clone)]
pub struct Loaders(Arc<Crew>);

struct Crew {
    shared: Arc<Shared>,
    /// Each thread and whether it is inside a load (which may not end for a read's whole
    /// timeout, behind a stalled server).
    threads: Vec<(JoinHandle<()>, Arc<AtomicBool>)>,
}

/// What the threads and the streamers share.
struct Shared {
    lanes: RwLock<Vec<Arc<dyn Lane>>>,
    sleep: Mutex<Sleep>,
    wake: Condvar,
    /// Bumped whenever a job is queued: a loader that found nothing to do sleeps only if
    /// this has not moved since it looked, so a job queued meanwhile is never missed.
    posted: AtomicU64,
    shutdown: AtomicBool,
}

#[derive(Default)]
struct Sleep {
    parked: usize,
}

impl Loaders {
    /// Starts `threads` loader threads; 0 means one fewer than the cores, at least one.
    /// Callers check the count against [`MAX_LOADERS`] first.
    pub fn new(threads: usize) -> Loaders {
        prepare_to_wait();
        let threads = match threads {
            0 => std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1),
            n => n.min(MAX_LOADERS),
        };
        let shared = Arc::new(Shared {
            lanes: RwLock::new(Vec::new()),
            sleep: Mutex::new(Sleep::default()),
            wake: Condvar::new(),
            posted: AtomicU64::new(0),
            shutdown: AtomicBool::new(false),
        });
        let threads = (0..threads)
            .map(|i| {
                let shared = shared.clone();
                let busy = Arc::new(AtomicBool::new(false));
                let in_load = busy.clone();
                let thread = crate::background::spawn(format!("relief-loader-{i}"), move || {
                    work(&shared, &in_load)
                })
                .expect("spawn a loader thread");
                (thread, busy)
            })
            .collect();
        Loaders(Arc::new(Crew { shared, threads }))
    }

    /// How many threads the crew runs.
    pub fn threads(&self) -> usize {
        self.0.threads.len()
    }

    /// Opens a lane for one streamer's loads from `source`; its results arrive on the
    /// receiver, which holds at most `capacity` of them.
    pub(crate) fn lane<S: Source>(
        &self,
        source: Arc<S>,
        capacity: usize,
    ) -> (LaneHandle<S>, Receiver<Done<S>>) {
        let (tx, done) = crossbeam_channel::bounded(capacity.max(1));
        let lane = Arc::new(Queue {
            jobs: Mutex::new(Vec::with_capacity(capacity)),
            source,
            tx,
        });
        self.0.shared.lanes.write().push(lane.clone());
        let handle = LaneHandle {
            lane,
            loaders: self.clone(),
        };
        (handle, done)
    }
}

/// A streamer's lane: its queue of jobs, and the crew it belongs to. Dropping it closes the
/// lane (queued jobs are forgotten; a load in progress finishes and its result is dropped).
pub(crate) struct LaneHandle<S: Source> {
    lane: Arc<Queue<S>>,
    loaders: Loaders,
}

impl<S: Source> LaneHandle<S> {
    /// The lane's queue, for the streamer to add, withdraw and re-prioritise jobs. Call
    /// [`posted`](Self::posted) after adding any.
    pub fn jobs(&self) -> parking_lot::MutexGuard<'_, Vec<Job<S::Key>>> {
        self.lane.jobs.lock()
    }

    /// Tells the crew jobs were queued: wakes one sleeping loader if there is one. The rest
    /// wake each other.
    pub fn posted(&self) {
        self.loaders.0.shared.post();
    }
}

impl<S: Source> Drop for LaneHandle<S> {
    fn drop(&mut self) {
        self.lane.jobs.lock().clear();
        let me = Arc::as_ptr(&self.lane) as *const ();
        self.loaders
            .0
            .shared
            .lanes
            .write()
            .retain(|l| Arc::as_ptr(l) as *const () != me);
    }
}

/// One streamer's queue as the loaders see it, whatever it loads.
trait Lane: Send + Sync {
    /// The distance of its nearest queued job, if any.
    fn nearest(&self) -> Option<f64>;
    /// Takes its nearest job, loads it and sends the result; false if there was none.
    fn run_nearest(&self, shared: &Shared, in_load: &AtomicBool) -> bool;
    /// One step of its source's background work; whether there is more.
    fn idle(&self) -> bool;
}

struct Queue<S: Source> {
    jobs: Mutex<Vec<Job<S::Key>>>,
    source: Arc<S>,
    tx: Sender<Done<S>>,
}

fn nearest_of<K>(jobs: &[Job<K>]) -> Option<usize> {
    jobs.iter()
        .enumerate()
        .min_by(|a, b| a.1.distance.total_cmp(&b.1.distance))
        .map(|(i, _)| i)
}

impl<S: Source> Lane for Queue<S> {
    fn nearest(&self) -> Option<f64> {
        let jobs = self.jobs.lock();
        nearest_of(&jobs).map(|i| jobs[i].distance)
    }

    fn run_nearest(&self, shared: &Shared, in_load: &AtomicBool) -> bool {
        let (job, more) = {
            let mut jobs = self.jobs.lock();
            let Some(i) = nearest_of(&jobs) else {
                return false;
            };
            let job = jobs.swap_remove(i);
            (job, !jobs.is_empty())
        };
        if more {
            shared.wake_one();
        }
        // A panicking load fails like any other, so the key gets its Failed event and its
        // retries, and this thread lives on to load the rest.
        in_load.store(true, Ordering::Release);
        super::slowdown::in_load();
        let started = Instant::now();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.source.load(job.key)))
                .unwrap_or_else(|payload| Err(LoadPanic::from_payload(&*payload).into()))
                .map(Arc::new);
        in_load.store(false, Ordering::Release);
        // Blocks only while the streamer's channel is full (its game stopped updating); a
        // streamer that is gone has dropped the receiver, and this returns at once.
        let _ = self.tx.send(Done {
            key: job.key,
            queued: job.queued,
            took: started.elapsed(),
            outcome,
        });
        true
    }

    fn idle(&self) -> bool {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.source.idle()))
            .unwrap_or(false)
    }
}

impl Shared {
    /// From a streamer's update, having queued jobs.
    fn post(&self) {
        self.posted.fetch_add(1, Ordering::SeqCst);
        self.wake_one();
    }

    /// Wakes one sleeping loader, if one sleeps: not only when all do, as an awake loader
    /// may be stalled for a read's whole timeout behind a server that never answers.
    fn wake_one(&self) {
        // Under the lock, so a loader between "nothing posted" and its wait can't miss it.
        if self.sleep.lock().parked > 0 {
            self.wake.notify_one();
        }
    }

    /// The lane with the nearest job, if any lane has one.
    fn busiest(&self) -> Option<Arc<dyn Lane>> {
        let lanes = self.lanes.read();
        lanes
            .iter()
            .filter_map(|l| l.nearest().map(|d| (d, l)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, l)| l.clone())
    }
}

fn work(shared: &Shared, in_load: &AtomicBool) {
    // Whether every lane's source said it has no idle work left since this thread last woke:
    // then it sleeps until a job is queued.
    let mut rested = false;
    loop {
        let seen = shared.posted.load(Ordering::SeqCst);
        if shared.shutdown.load(Ordering::Acquire) {
            return;
        }
        if let Some(lane) = shared.busiest() {
            // Another loader may have taken the job meanwhile: then look again.
            lane.run_nearest(shared, in_load);
            rested = false;
            continue;
        }
        if !rested {
            // Nothing to load: the sources' background work, with no lock held (the lanes
            // copied out, so a streamer closing its lane never waits for a prefault).
            let lanes = shared.lanes.read().clone();
            rested = !lanes.iter().any(|l| l.idle());
            continue;
        }
        let mut sleep = shared.sleep.lock();
        if shared.shutdown.load(Ordering::Acquire) {
            return;
        }
        if shared.posted.load(Ordering::SeqCst) == seen {
            sleep.parked += 1;
            shared.wake.wait(&mut sleep);
            sleep.parked -= 1;
        }
        // The room may have changed since: look for idle work again (when there is none,
        // asking costs a lock of each source's pool).
        rested = false;
    }
}

/// Makes this thread's first contended lock allocation-free. parking_lot builds a thread's
/// parking record, and may grow its global table, the first time the thread waits on a lock:
/// for the main thread that would be one allocation in some frame, whenever a worker first
/// holds a lock it wants. Called on the thread that starts the workers it will contend with.
pub(crate) fn prepare_to_wait() {
    let key = 0u8;
    // SAFETY: `validate` returns false, so park returns at once without sleeping; no
    // callback panics or calls into parking_lot.
    unsafe {
        parking_lot_core::park(
            &key as *const u8 as usize,
            || false,
            || {},
            |_, _| {},
            parking_lot_core::DEFAULT_PARK_TOKEN,
            None,
        );
    }
}

/// How long dropping a crew waits for its idle threads to end (they do within microseconds
/// of the shutdown; one that took a job just then may take a load's time).
const JOIN_FOR: Duration = Duration::from_millis(20);

impl Drop for Crew {
    fn drop(&mut self) {
        {
            let _sleep = self.shared.sleep.lock();
            self.shared.shutdown.store(true, Ordering::Release);
            self.shared.wake.notify_all();
        }
        // A thread inside a load is left to finish it alone (behind a stalled server that is
        // a read's whole timeout, which the dropping thread — a game's main thread, in
        // `destroy` — must not wait for): every lane's receiver is gone by now (each streamer
        // holds a clone of the crew), so its result is dropped and it ends, dropping its
        // share of the source then. Idle threads end at once and are joined, so what they
        // hold (a source, and with it a reader's `release`) is gone when the crew is,
        // whenever no load was stalled.
        let deadline = Instant::now() + JOIN_FOR;
        for (t, busy) in self.threads.drain(..) {
            while !t.is_finished() && !busy.load(Ordering::Acquire) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_micros(100));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}
