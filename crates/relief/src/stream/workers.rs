//! The loader pool. Jobs wait in one shared queue that the main thread re-prioritises every
//! update (nearest first) and can withdraw from before a worker takes them; results come back
//! over a bounded crossbeam channel, which never allocates per message.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::{Condvar, Mutex};

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

pub struct Queue<K> {
    pub jobs: Vec<Job<K>>,
    /// Workers waiting until woken: queueing a job must wake one. A worker that loaded
    /// something in the last `ACTIVE` polls the queue every `POLL` instead, so while the
    /// focus moves the main thread wakes no one: a wake-up costs it tens of µs on a VM, and
    /// the woken worker tends to be run on the waker's core, preempting the frame for the
    /// length of a load.
    pub parked: usize,
    shutdown: bool,
}

const POLL: Duration = Duration::from_millis(1);
const ACTIVE: Duration = Duration::from_millis(250);

pub struct Pool<S: Source> {
    pub queue: Arc<(Mutex<Queue<S::Key>>, Condvar)>,
    pub done: Receiver<Done<S>>,
    /// Each worker and whether it is inside a load (which may not end for a read's whole
    /// timeout, behind a stalled server).
    threads: Vec<(JoinHandle<()>, Arc<AtomicBool>)>,
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

impl<S: Source> Pool<S> {
    pub fn new(source: Arc<S>, workers: usize, capacity: usize) -> Pool<S> {
        prepare_to_wait();
        let queue = Arc::new((
            Mutex::new(Queue {
                jobs: Vec::with_capacity(capacity),
                parked: 0,
                shutdown: false,
            }),
            Condvar::new(),
        ));
        let (tx, done) = crossbeam_channel::bounded(capacity.max(1));
        let threads = (0..workers.max(1))
            .map(|i| {
                let (queue, source, tx): (_, _, Sender<Done<S>>) =
                    (queue.clone(), source.clone(), tx.clone());
                let busy = Arc::new(AtomicBool::new(false));
                let in_load = busy.clone();
                let thread = std::thread::Builder::new()
                    .name(format!("relief-loader-{i}"))
                    .spawn(move || work(&queue, &*source, &tx, &in_load))
                    .expect("spawn a loader thread");
                (thread, busy)
            })
            .collect();
        Pool {
            queue,
            done,
            threads,
        }
    }
}

fn work<S: Source>(
    queue: &(Mutex<Queue<S::Key>>, Condvar),
    source: &S,
    tx: &Sender<Done<S>>,
    in_load: &AtomicBool,
) {
    let mut last_load = Instant::now();
    loop {
        let job = {
            let mut q = queue.0.lock();
            // Whether the source has said it has no idle work left since this thread last
            // woke: then it waits for a job.
            let mut rested = false;
            loop {
                if q.shutdown {
                    return;
                }
                if let Some(best) = q
                    .jobs
                    .iter()
                    .enumerate()
                    .min_by(|a, b| a.1.distance.total_cmp(&b.1.distance))
                    .map(|(i, _)| i)
                {
                    break q.jobs.swap_remove(best);
                }
                if !rested {
                    // Nothing to load: the source's background work, outside the lock, then
                    // look at the queue again.
                    rested = !parking_lot::MutexGuard::unlocked(&mut q, || {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| source.idle()))
                            .unwrap_or(false)
                    });
                    continue;
                }
                if last_load.elapsed() < ACTIVE {
                    let _ = queue.1.wait_for(&mut q, POLL);
                } else {
                    q.parked += 1;
                    queue.1.wait(&mut q);
                    q.parked -= 1;
                }
                // The room may have changed since: look for idle work again (when there is
                // none, asking costs a lock of the source's pool).
                rested = false;
            }
        };
        // A panicking load fails like any other, so the key gets its Failed event and its
        // retries, and this thread lives on to load the rest.
        in_load.store(true, Ordering::Release);
        super::slowdown::in_load();
        let started = Instant::now();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| source.load(job.key)))
                .unwrap_or_else(|payload| Err(LoadPanic::from_payload(&*payload).into()))
                .map(Arc::new);
        in_load.store(false, Ordering::Release);
        last_load = Instant::now();
        if tx
            .send(Done {
                key: job.key,
                queued: job.queued,
                took: started.elapsed(),
                outcome,
            })
            .is_err()
        {
            return; // the streamer is gone
        }
    }
}

/// How long dropping a pool waits for its idle workers to end (they do within microseconds
/// of the shutdown; one that took a job just then may take a load's time).
const JOIN_FOR: Duration = Duration::from_millis(20);

impl<S: Source> Drop for Pool<S> {
    fn drop(&mut self) {
        self.queue.0.lock().shutdown = true;
        self.queue.1.notify_all();
        // A worker inside a load is left to finish it alone (behind a stalled server that
        // is a read's whole timeout, which the dropping thread — a game's main thread, in
        // `destroy` — must not wait for): after the load its result finds the channel
        // closed, and it ends, dropping its share of the source then. Idle workers end at
        // once and are joined, so what they hold (the source, and with it a reader's
        // `release`) is gone when the pool is whenever no load was stalled.
        let deadline = Instant::now() + JOIN_FOR;
        for (t, busy) in self.threads.drain(..) {
            while !t.is_finished() && !busy.load(Ordering::Acquire) && Instant::now() < deadline {
                // Unblock a worker waiting to send by draining what is left.
                while self.done.try_recv().is_ok() {}
                std::thread::sleep(Duration::from_micros(100));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}
