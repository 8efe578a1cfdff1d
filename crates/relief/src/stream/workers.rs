//! The loader pool. Jobs wait in one shared queue that the main thread re-prioritises every
//! update (nearest first) and can withdraw from before a worker takes them; results come back
//! over a bounded crossbeam channel, which never allocates per message.

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
    threads: Vec<JoinHandle<()>>,
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
                std::thread::Builder::new()
                    .name(format!("relief-loader-{i}"))
                    .spawn(move || work(&queue, &*source, &tx))
                    .expect("spawn a loader thread")
            })
            .collect();
        Pool {
            queue,
            done,
            threads,
        }
    }
}

fn work<S: Source>(queue: &(Mutex<Queue<S::Key>>, Condvar), source: &S, tx: &Sender<Done<S>>) {
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
        super::slowdown::in_load();
        let started = Instant::now();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| source.load(job.key)))
                .unwrap_or_else(|payload| Err(LoadPanic::from_payload(&*payload).into()))
                .map(Arc::new);
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

impl<S: Source> Drop for Pool<S> {
    fn drop(&mut self) {
        self.queue.0.lock().shutdown = true;
        self.queue.1.notify_all();
        // Unblock any worker waiting to send by draining what is left.
        while self.done.try_recv().is_ok() {}
        for t in self.threads.drain(..) {
            while !t.is_finished() {
                while self.done.try_recv().is_ok() {}
                std::thread::yield_now();
            }
            let _ = t.join();
        }
    }
}
