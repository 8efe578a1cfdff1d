//! Turning loaded regions and built chunks into engine-ready bytes off the main thread, and
//! handing them back to the main thread a bounded time per frame.
//!
//! The node's `_process` sends each `Loaded` region or chunk here ([`Preparer::send`]);
//! worker threads build its Image bytes ([`maps`](crate::maps)) or shape data
//! ([`shape`](crate::shape)) or a thing chunk's run bounds ([`things`](crate::things)); then [`Preparer::drain`] gives finished work back until the
//! frame's budget is spent, and the node creates the engine objects. A piece unloaded (or
//! loaded again) while its bytes were being prepared is dropped when they arrive, never
//! handed to the engine: each key's latest generation is the only one that counts.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use relief::planet::PlanetTile;
use relief::runtime::chunks::Heightfield;
use relief::things::ThingChunk;
use relief::Region;

use crate::maps::{region_maps, tile_height, ImageBytes, RegionMaps};
use crate::shape::{shape_data, ShapeData};
use crate::things::{run_bounds, RunBounds};

/// What a worker is asked to prepare.
pub enum Work {
    Region(Arc<Region>),
    Tile(Arc<PlanetTile>),
    Chunk(Heightfield),
    /// A built thing chunk: its runs' bounds are found off the main thread.
    Things(Arc<ThingChunk>),
}

/// What it prepared.
#[derive(Debug)]
pub enum Prepared {
    Region(RegionMaps),
    /// A planet tile's heights, `FORMAT_RF`.
    Tile(ImageBytes),
    Chunk(ShapeData),
    Things(Arc<ThingChunk>, Vec<RunBounds>),
}

impl Work {
    fn prepare(self) -> Prepared {
        match self {
            Work::Region(r) => Prepared::Region(region_maps(&r)),
            Work::Tile(t) => Prepared::Tile(tile_height(&t)),
            Work::Chunk(c) => Prepared::Chunk(shape_data(&c)),
            Work::Things(c) => {
                let bounds = run_bounds(&c);
                Prepared::Things(c, bounds)
            }
        }
    }
}

/// Prepares work for keys `K` on its own threads; see the module doc.
pub struct Preparer<K> {
    jobs: Option<Sender<(K, u64, Work)>>,
    done: Receiver<(K, u64, Prepared)>,
    /// Each key's current generation: bumped by every send and every forget.
    current: HashMap<K, u64>,
    next_generation: u64,
    threads: Vec<JoinHandle<()>>,
}

impl<K: Copy + Eq + Hash + Send + 'static> Preparer<K> {
    /// A preparer with `threads` workers (at least one).
    pub fn new(threads: usize) -> Preparer<K> {
        let (jobs, inbox) = crossbeam_channel::unbounded::<(K, u64, Work)>();
        let (outbox, done) = crossbeam_channel::unbounded();
        let threads = (0..threads.max(1))
            .map(|i| {
                let (inbox, outbox) = (inbox.clone(), outbox.clone());
                std::thread::Builder::new()
                    .name(format!("relief-godot-prepare-{i}"))
                    .spawn(move || {
                        for (key, generation, work) in inbox {
                            // A panic in one piece's preparation loses that piece, not the
                            // worker: the node reports it as failed when nothing arrives.
                            let prepared =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    work.prepare()
                                }));
                            if let Ok(p) = prepared {
                                if outbox.send((key, generation, p)).is_err() {
                                    break;
                                }
                            }
                        }
                    })
                    .expect("spawn a preparation thread")
            })
            .collect();
        Preparer {
            jobs: Some(jobs),
            done,
            current: HashMap::new(),
            next_generation: 0,
            threads,
        }
    }

    /// Queues `work` for `key`; anything still being prepared for `key` is superseded.
    pub fn send(&mut self, key: K, work: Work) {
        let generation = self.bump(key);
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send((key, generation, work));
        }
    }

    /// `key` left (unloaded, failed): what is being prepared for it is dropped on arrival.
    pub fn forget(&mut self, key: K) {
        self.current.remove(&key);
    }

    /// Pieces sent and not yet handed back or forgotten.
    pub fn pending(&self) -> usize {
        self.current.len()
    }

    fn bump(&mut self, key: K) -> u64 {
        self.next_generation += 1;
        self.current.insert(key, self.next_generation);
        self.next_generation
    }

    /// Hands finished work to `each` until `budget` has passed on `clock` (one piece at
    /// least, if one is ready, so a slow frame still makes progress), skipping work for keys
    /// forgotten or sent again since. Returns how many pieces were handed over.
    pub fn drain(
        &mut self,
        budget: Duration,
        mut clock: impl FnMut() -> Instant,
        mut each: impl FnMut(K, Prepared),
    ) -> usize {
        let start = clock();
        let mut handed = 0;
        while let Ok((key, generation, prepared)) = self.done.try_recv() {
            if self.current.get(&key) != Some(&generation) {
                continue;
            }
            self.current.remove(&key);
            each(key, prepared);
            handed += 1;
            if clock().duration_since(start) >= budget {
                break;
            }
        }
        handed
    }
}

impl<K> Drop for Preparer<K> {
    fn drop(&mut self) {
        // Closing the queue ends the workers once they finish the piece in hand.
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::flat::collision::{ChunkKey, CollisionChunk};
    use relief::layer::Layer;
    use relief::RegionLocation;
    use std::cell::Cell;

    fn region(x: i32) -> Work {
        Work::Region(Arc::new(Region {
            location: RegionLocation { x, z: 0 },
            size: 8,
            height: Layer::from(vec![x as f32; 64]),
            control: None,
            color: None,
            biome: None,
            lake: None,
            mips: Vec::new(),
        }))
    }

    fn chunk() -> Work {
        Work::Chunk(Heightfield::Flat(Arc::new(CollisionChunk {
            key: ChunkKey { x: 0, z: 0 },
            samples: 3,
            heights: vec![1.0; 9],
            materials: vec![0; 4],
            min_height: 1.0,
            max_height: 1.0,
            centre: [1.0, 1.0],
            corner: [0.0, 0.0],
            spacing: 1.0,
        })))
    }

    /// Drains until `want` pieces came back (the workers are asynchronous).
    fn drain_all<K: Copy + Eq + Hash + Send + 'static>(
        p: &mut Preparer<K>,
        want: usize,
    ) -> Vec<(K, Prepared)> {
        let mut got = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while got.len() < want && Instant::now() < deadline {
            p.drain(Duration::from_secs(1), Instant::now, |k, v| {
                got.push((k, v))
            });
            std::thread::sleep(Duration::from_millis(1));
        }
        got
    }

    #[test]
    fn prepared_work_comes_back_for_its_key() {
        let mut p = Preparer::new(2);
        for x in 0..6 {
            p.send(x, region(x));
        }
        p.send(100, chunk());
        let mut got = drain_all(&mut p, 7);
        got.sort_by_key(|(k, _)| *k);
        assert_eq!(got.len(), 7);
        for (k, v) in &got[..6] {
            let Prepared::Region(maps) = v else {
                panic!("{k}: not a region")
            };
            let h = f32::from_ne_bytes(maps.height.bytes[..4].try_into().unwrap());
            assert_eq!(h, *k as f32);
        }
        assert!(matches!(got[6], (100, Prepared::Chunk(_))));
        assert_eq!(p.pending(), 0);
    }

    #[test]
    fn work_for_a_forgotten_or_resent_key_never_arrives() {
        let mut p = Preparer::new(1);
        p.send(1, region(1));
        p.forget(1);
        p.send(2, region(2));
        p.send(2, region(20)); // loaded again: only the latest counts
        p.send(3, region(3));
        let got = drain_all(&mut p, 2);
        // Give a stray result time to arrive, then check none did.
        std::thread::sleep(Duration::from_millis(50));
        let mut late = Vec::new();
        p.drain(Duration::from_secs(1), Instant::now, |k, _| late.push(k));
        let mut keys: Vec<i32> = got.iter().map(|(k, _)| *k).collect();
        keys.sort();
        assert_eq!(keys, [2, 3]);
        assert!(late.is_empty(), "{late:?}");
        let Prepared::Region(maps) = &got.iter().find(|(k, _)| *k == 2).unwrap().1 else {
            panic!()
        };
        let h = f32::from_ne_bytes(maps.height.bytes[..4].try_into().unwrap());
        assert_eq!(h, 20.0, "the second send's bytes");
    }

    #[test]
    fn a_frame_stops_handing_over_once_its_budget_is_spent() {
        let mut p = Preparer::new(1);
        for x in 0..5 {
            p.send(x, region(x));
        }
        // Let all five finish, then drain with a clock that advances 1 ms per reading.
        let deadline = Instant::now() + Duration::from_secs(10);
        while p.done.len() < 5 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        let base = Instant::now();
        let ticks = Cell::new(0u64);
        let clock = || {
            ticks.set(ticks.get() + 1);
            base + Duration::from_millis(ticks.get())
        };
        let first = p.drain(Duration::from_millis(2), clock, |_, _| {});
        assert_eq!(first, 2, "2 ms of budget at 1 ms a piece");
        // A zero budget still hands over one piece: a slow frame never stalls the stream.
        assert_eq!(p.drain(Duration::ZERO, Instant::now, |_, _| {}), 1);
        assert_eq!(p.drain(Duration::from_secs(1), Instant::now, |_, _| {}), 2);
        assert_eq!(p.drain(Duration::from_secs(1), Instant::now, |_, _| {}), 0);
    }
}
