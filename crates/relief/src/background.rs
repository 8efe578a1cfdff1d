//! The threads relief starts for itself — the loaders and the planet ring worker — run as
//! background work, so that waking one never takes the core from the game's frame.
//!
//! On Linux and Android they run under `SCHED_BATCH`: the scheduler gives them their fair
//! share of the cores as before, but a batch thread that wakes does not preempt the thread
//! running on its core; it waits for that thread's slice to end or for an idle core. Without
//! it, the update that queued a load woke a loader that could take the main thread's core at
//! once: on 2 cores a planet orbit's slowest update took 2.8–4.1 ms of wall time for 0.1–0.3
//! ms of CPU, and with it 0.12–0.20 ms (`relief bench`, `orbit.total_max_us`, three runs
//! each). Elsewhere the threads keep the default priority.

use std::io;
use std::thread::JoinHandle;

/// Starts a named thread that lowers itself to background scheduling before running `f`.
pub(crate) fn spawn<F, T>(name: String, f: F) -> io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    std::thread::Builder::new().name(name).spawn(move || {
        lower_this_thread();
        f()
    })
}

/// Puts the calling thread in the batch class. A failure (a sandbox that forbids it) leaves
/// it as it was: it changes when the thread runs, never what it does.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn lower_this_thread() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: pthread_self() is this live thread; `param` is a valid sched_param that lives
    // across the call (priority 0 is the only one SCHED_BATCH takes).
    let err =
        unsafe { libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_BATCH, &param) };
    if err != 0 {
        log::debug!("background thread keeps its scheduling class (error {err})");
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn lower_this_thread() {}

#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    #[test]
    fn a_background_thread_runs_in_the_batch_class() {
        let policy = super::spawn("relief-test".into(), || {
            let mut policy = -1;
            let mut param = libc::sched_param { sched_priority: -1 };
            // SAFETY: both out-pointers are valid for the call.
            let err = unsafe {
                libc::pthread_getschedparam(libc::pthread_self(), &mut policy, &mut param)
            };
            assert_eq!(err, 0);
            policy
        })
        .unwrap()
        .join()
        .unwrap();
        assert_eq!(policy, libc::SCHED_BATCH);
    }
}
