//! The loader pool. Jobs wait in one shared queue that the main thread re-prioritises every
//! update (nearest first) and can withdraw from before a worker takes them; results come back
//! over a bounded crossbeam channel, which never allocates per message.

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use parking_lot::{Condvar, Mutex};

use crate::stream::source::{LoadPanic, Source};

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
    shutdown: bool,
}

pub struct Pool<S: Source> {
    pub queue: Arc<(Mutex<Queue<S::Key>>, Condvar)>,
    pub done: Receiver<Done<S>>,
    threads: Vec<JoinHandle<()>>,
}

impl<S: Source> Pool<S> {
    pub fn new(source: Arc<S>, workers: usize, capacity: usize) -> Pool<S> {
        let queue = Arc::new((
            Mutex::new(Queue {
                jobs: Vec::with_capacity(capacity),
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
                queue.1.wait(&mut q);
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
