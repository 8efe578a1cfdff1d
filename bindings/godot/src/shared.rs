//! The runtime's queries as a node shares them with other threads. The node swaps what is
//! in the slot when it starts and stops (main thread, rarely); readers on any thread take a
//! cheap clone under a read lock held only for that clone, then ask without any lock. No
//! engine types: the tests hammer it from threads while it is swapped.

use std::sync::{Arc, RwLock};

use relief::runtime::Queries;

/// One node's queries, shared. Cloning shares the same slot.
#[derive(Clone, Default)]
pub struct SharedQueries(Arc<RwLock<Option<Queries>>>);

impl SharedQueries {
    /// What readers see from now on (None: the node stopped).
    pub fn set(&self, queries: Option<Queries>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = queries;
    }

    /// The queries now, to ask without holding anything.
    pub fn get(&self) -> Option<Queries> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::flat::terrain::Origin;
    use relief::runtime::Ground;
    use relief::{DVec3, Runtime, RuntimeConfig};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    fn assert_send_sync<T: Send + Sync + 'static>() {}

    /// What `ReliefQueries` promises a game's worker threads: answers while the node starts,
    /// streams and stops on the main thread, each one either "not streaming" (NaN) or the
    /// runtime's own answer, never a torn or stale-runtime one, and no panic.
    #[test]
    fn threads_ask_while_the_node_starts_and_stops() {
        assert_send_sync::<SharedQueries>();
        let dir = crate::test_worlds::scratch("shared");
        let world = crate::test_worlds::small_world(&dir);
        let ground = Ground::open(&world).unwrap();
        let Ground::Flat(world) = &ground else {
            panic!("flat")
        };
        // The truth, from a runtime left to load everything: each probe's exact height, and
        // the overview's (what a probe answers before its region is in).
        let mut reference = Runtime::new(ground.clone(), RuntimeConfig::default()).unwrap();
        settle(&mut reference);
        let exact = reference.queries().flat().unwrap().clone();
        let probes: Vec<(DVec3, f32, f32)> = (0..64)
            .map(|i| {
                let p = DVec3::new(-240.0 + i as f64 * 7.3, 0.0, 240.0 - i as f64 * 6.1);
                let h = exact.height(p.x, p.z);
                assert!(matches!(h.origin, Origin::Region(_)), "{p:?} loaded");
                (p, h.height, world.overview().height(p.x, p.z))
            })
            .collect();
        drop(reference);
        let shared = SharedQueries::default();
        let done = AtomicBool::new(false);
        let answered = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    while !done.load(Ordering::Relaxed) {
                        for &(p, exact, coarse) in &probes {
                            let Some(q) = shared.get() else { continue };
                            let got = q.flat().unwrap().height(p.x, p.z);
                            match got.origin {
                                Origin::Region(_) => assert_eq!(got.height, exact, "{p:?}"),
                                _ => assert_eq!(got.height, coarse, "{p:?}"),
                            }
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
            for _ in 0..3 {
                let mut rt = Runtime::new(ground.clone(), RuntimeConfig::default()).unwrap();
                shared.set(Some(rt.queries().clone()));
                settle(&mut rt);
                std::thread::sleep(std::time::Duration::from_millis(20));
                shared.set(None);
                drop(rt);
            }
            done.store(true, Ordering::Relaxed);
        });
        assert!(
            answered.load(Ordering::Relaxed) > 0,
            "no thread ever saw ground"
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    fn settle(rt: &mut Runtime) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            rt.update(DVec3::ZERO).unwrap();
            if rt.is_idle() && rt.stats().pieces.ready > 0 {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "never settled");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}
