//! One request for a range however many readers want it at once. A region's loader and a
//! collision build that needs the same region before it is resident read the same bytes at
//! the same moment; locally that is two cheap reads, over a network it would be the region
//! fetched twice. The first reader of a range fetches it; readers arriving while it is in
//! flight wait for that answer and copy it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use super::HttpError;

/// The ranges being fetched now.
#[derive(Default)]
pub struct Flights {
    now: Mutex<HashMap<(u64, usize), Arc<Flight>>>,
}

#[derive(Default)]
struct Flight {
    /// Readers waiting (counted under `Flights::now`); the leader keeps a copy of the bytes
    /// only if there are any.
    waiting: AtomicUsize,
    answer: Mutex<Option<Result<Arc<[u8]>, HttpError>>>,
    done: Condvar,
}

/// How a read was answered.
#[derive(Debug, PartialEq, Eq)]
pub enum Answered {
    /// This reader fetched the range.
    Fetched,
    /// Another reader was fetching it; this one waited and copied its bytes.
    Shared,
}

/// The leader's promise to answer: dropped unanswered (its fetch panicked), it answers with
/// an error, so no waiter, and no later reader of the range, waits forever.
struct Leading<'a> {
    flights: &'a Flights,
    key: (u64, usize),
    flight: Arc<Flight>,
}

impl Leading<'_> {
    /// Takes the range out of the map, then answers with what `answer` makes of the final
    /// number of waiters (no reader joins once the range is out of the map).
    fn answer(&self, answer: impl FnOnce(usize) -> Result<Arc<[u8]>, HttpError>) {
        self.flights.now.lock().remove(&self.key);
        let waiting = self.flight.waiting.load(Ordering::Relaxed);
        *self.flight.answer.lock() = Some(answer(waiting));
        self.flight.done.notify_all();
    }
}

impl Drop for Leading<'_> {
    fn drop(&mut self) {
        if self.flight.answer.lock().is_none() {
            self.answer(|_| {
                Err(HttpError::BadResponse {
                    url: String::new(),
                    detail: "the request for these bytes panicked".into(),
                })
            });
        }
    }
}

impl Flights {
    /// Fills `out` with the bytes at `offset`: by `fetch` if no one is fetching the same
    /// range, else from the fetch in flight. Every waiter gets the leader's error if it fails.
    pub fn read(
        &self,
        offset: u64,
        out: &mut [u8],
        fetch: impl FnOnce(&mut [u8]) -> Result<(), HttpError>,
    ) -> Result<Answered, HttpError> {
        let key = (offset, out.len());
        let joined = {
            let mut now = self.now.lock();
            match now.get(&key) {
                Some(f) => {
                    f.waiting.fetch_add(1, Ordering::Relaxed);
                    Err(f.clone())
                }
                None => {
                    let f = Arc::new(Flight::default());
                    now.insert(key, f.clone());
                    Ok(f)
                }
            }
        };
        let flight = match joined {
            Ok(flight) => flight,
            Err(flight) => {
                let mut answer = flight.answer.lock();
                while answer.is_none() {
                    flight.done.wait(&mut answer);
                }
                return match answer.as_ref().unwrap() {
                    Ok(bytes) => {
                        out.copy_from_slice(bytes);
                        Ok(Answered::Shared)
                    }
                    Err(e) => Err(e.clone()),
                };
            }
        };
        let leading = Leading {
            flights: self,
            key,
            flight,
        };
        let result = fetch(out);
        leading.answer(|waiting| match &result {
            Ok(()) if waiting > 0 => Ok(Arc::from(&*out)),
            Ok(()) => Ok(Arc::from(&[][..])),
            Err(e) => Err(e.clone()),
        });
        result.map(|()| Answered::Fetched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(detail: &str) -> HttpError {
        HttpError::Transport {
            url: "http://h/f".into(),
            detail: detail.into(),
        }
    }

    /// Blocks until `n` readers wait on the range at `key` (the leader's fetch calls it, so
    /// the test's second reader has joined before the answer comes).
    fn until_waiting(flights: &Flights, key: (u64, usize), n: usize) {
        loop {
            let w = flights
                .now
                .lock()
                .get(&key)
                .map(|f| f.waiting.load(Ordering::Relaxed));
            if w == Some(n) {
                return;
            }
            std::thread::yield_now();
        }
    }

    #[test]
    fn readers_of_one_range_in_flight_share_its_one_fetch() {
        let flights = Flights::default();
        let fetches = AtomicUsize::new(0);
        std::thread::scope(|s| {
            let leader = s.spawn(|| {
                let mut out = [0u8; 4];
                let answered = flights.read(8, &mut out, |o| {
                    fetches.fetch_add(1, Ordering::SeqCst);
                    until_waiting(&flights, (8, 4), 2);
                    o.copy_from_slice(&[1, 2, 3, 4]);
                    Ok(())
                });
                (answered.unwrap(), out)
            });
            let waiter = || {
                while flights.now.lock().is_empty() {
                    std::thread::yield_now();
                }
                let mut out = [0u8; 4];
                let answered = flights.read(8, &mut out, |_| {
                    fetches.fetch_add(1, Ordering::SeqCst);
                    Err(refused("a second fetch"))
                });
                (answered.unwrap(), out)
            };
            let (a, b) = (s.spawn(waiter), s.spawn(waiter));
            for w in [a, b] {
                assert_eq!(w.join().unwrap(), (Answered::Shared, [1, 2, 3, 4]));
            }
            assert_eq!(leader.join().unwrap(), (Answered::Fetched, [1, 2, 3, 4]));
        });
        assert_eq!(fetches.load(Ordering::SeqCst), 1);
        // Once answered, the range is fetched afresh (the cache, not this, keeps bytes).
        let mut out = [0u8; 4];
        let again = flights.read(8, &mut out, |o| {
            o.fill(9);
            Ok(())
        });
        assert_eq!((again.unwrap(), out), (Answered::Fetched, [9; 4]));
        assert!(flights.now.lock().is_empty());
    }

    #[test]
    fn a_failed_fetch_fails_its_waiters_with_the_same_error() {
        let flights = Flights::default();
        std::thread::scope(|s| {
            let leader = s.spawn(|| {
                flights.read(0, &mut [0u8; 2], |_| {
                    until_waiting(&flights, (0, 2), 1);
                    Err(refused("nope"))
                })
            });
            while flights.now.lock().is_empty() {
                std::thread::yield_now();
            }
            let waiter = flights.read(0, &mut [0u8; 2], |_| Ok(()));
            assert_eq!(waiter, Err(refused("nope")));
            assert_eq!(leader.join().unwrap(), waiter);
        });
    }

    #[test]
    fn a_fetch_that_panics_leaves_the_range_free_to_fetch_again() {
        let flights = Flights::default();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            flights.read(0, &mut [0u8; 2], |_| panic!("a broken client"))
        }));
        assert!(panicked.is_err());
        assert!(flights.now.lock().is_empty());
        let mut out = [0u8; 2];
        let again = flights.read(0, &mut out, |o| {
            o.fill(7);
            Ok(())
        });
        assert_eq!((again.unwrap(), out), (Answered::Fetched, [7; 2]));
    }
}
