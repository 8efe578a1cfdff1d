//! Faults under the streamer: a world pack and a planet read through a `ReadAt` that fails on
//! command — errors, short reads, garbage, delays, and a reader that dies mid-stream. Whatever
//! it does, loads fail as typed errors (never a panic, never a wrong region), everything
//! resident before the fault stays resident and unchanged, and once the reader heals the
//! streamer loads what it wants.

mod common;

use relief::DVec3;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use relief::flat::{ReadAt, RegionSource, World};
use relief::planet::{Planet, TileSource};
use relief::stream::{Event, Loaders, Source, Streamer};

const HEALTHY: u32 = 0;
const ERRORS: u32 = 1;
const SHORT: u32 = 2;
const GARBAGE: u32 = 3;
const SLOW: u32 = 4;
/// Healthy for `budget` more reads, then errors (a network share dropping mid-stream).
const DIES: u32 = 5;

/// Bytes behind a switch: what each read does is `mode`, changeable while loaders read.
struct Faulty {
    bytes: Vec<u8>,
    mode: Arc<AtomicU32>,
    budget: Arc<AtomicU64>,
}

impl ReadAt for Faulty {
    fn length(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let fail = || Err(std::io::Error::other("injected fault"));
        match self.mode.load(Ordering::SeqCst) {
            ERRORS => fail(),
            SHORT => {
                // Half the bytes, then the end of the "file".
                let half = out.len() / 2;
                self.bytes.read_at(offset, &mut out[..half])?;
                Err(std::io::ErrorKind::UnexpectedEof.into())
            }
            GARBAGE => {
                // Success, with bytes that are not the file's.
                let mut x = offset | 1;
                for b in out.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *b = x as u8;
                }
                Ok(())
            }
            SLOW => {
                std::thread::sleep(Duration::from_millis(15));
                self.bytes.read_at(offset, out)
            }
            DIES => {
                let left = self.budget.fetch_sub(1, Ordering::SeqCst);
                if left == 0 || left > u64::MAX / 2 {
                    self.budget.store(0, Ordering::SeqCst);
                    return fail();
                }
                self.bytes.read_at(offset, out)
            }
            _ => self.bytes.read_at(offset, out),
        }
    }
}

fn pack_bytes() -> Vec<u8> {
    common::world_pack().to_vec()
}

fn planet_bytes() -> Vec<u8> {
    common::planet_blob("faults").to_vec()
}

/// What a fault run saw.
#[derive(Default, Debug)]
struct Seen {
    loaded: usize,
    failed: usize,
}

/// Settles at `home` healthy, switches to `mode`, walks to `there` for a while, heals and
/// settles there; checks every promise along the way. `same` compares an item with the
/// healthy reference for its key.
fn run_fault<S: Source>(
    s: &mut Streamer<S>,
    mode: &AtomicU32,
    fault: u32,
    home: DVec3,
    there: DVec3,
    same: impl Fn(&S::Key, &S::Item) -> bool,
) -> Seen
where
    S::Key: Copy + Eq + std::hash::Hash + std::fmt::Debug,
    S::Error: std::fmt::Display,
{
    mode.store(HEALTHY, Ordering::SeqCst);
    assert!(s.settle(home, Duration::from_secs(60)), "healthy settle");
    while s.poll_event().is_some() {}
    let before: HashMap<S::Key, Arc<S::Item>> = s
        .resident()
        .read()
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .collect();
    assert!(!before.is_empty());

    mode.store(fault, Ordering::SeqCst);
    let mut seen = Seen::default();
    for _ in 0..400 {
        s.update(there);
        while let Some(e) = s.poll_event() {
            match e {
                Event::Loaded { key, .. } => {
                    seen.loaded += 1;
                    let item = s.resident().read().get(&key).cloned().expect("loaded");
                    assert!(
                        same(&key, &item),
                        "{key:?} loaded wrong data under fault {fault}"
                    );
                }
                Event::Failed { error, .. } => {
                    seen.failed += 1;
                    let _ = error.to_string();
                }
                Event::Unloaded { key } => panic!("{key:?} unloaded under fault {fault}"),
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let resident = s.resident();
    for (k, item) in &before {
        let now = resident.read().get(k).cloned();
        let now = now.unwrap_or_else(|| panic!("{k:?} was lost under fault {fault}"));
        assert!(Arc::ptr_eq(&now, item), "{k:?} changed under fault {fault}");
    }

    mode.store(HEALTHY, Ordering::SeqCst);
    assert!(s.settle(there, Duration::from_secs(60)), "healed settle");
    for (k, item) in resident.read().iter() {
        assert!(same(k, item), "{k:?} wrong after healing");
    }
    seen
}

#[test]
fn a_faulty_pack_reader_loses_nothing_and_loads_nothing_wrong() {
    let bytes = pack_bytes();
    let reference = World::open(common::world_dir()).unwrap();
    for fault in [ERRORS, SHORT, GARBAGE, SLOW, DIES] {
        let mode = Arc::new(AtomicU32::new(HEALTHY));
        let budget = Arc::new(AtomicU64::new(40));
        let reader = Faulty {
            bytes: bytes.clone(),
            mode: mode.clone(),
            budget: budget.clone(),
        };
        let world = Arc::new(World::open_pack("<faulty>", Box::new(reader)).unwrap());
        let mut s = Streamer::new(
            Arc::new(RegionSource::new(world)),
            common::patient(400.0, 2),
            &Loaders::new(0),
        )
        .unwrap();
        let seen = run_fault(
            &mut s,
            &mode,
            fault,
            DVec3::new(-1500.0, 0.0, -1500.0),
            DVec3::new(1200.0, 0.0, 300.0),
            |loc, region| {
                // The streamer's copy also carries mips, built on its loader thread.
                let want = reference.read_region(*loc).unwrap();
                (
                    &region.height,
                    &region.control,
                    &region.color,
                    &region.biome,
                    &region.lake,
                ) == (
                    &want.height,
                    &want.control,
                    &want.color,
                    &want.biome,
                    &want.lake,
                )
            },
        );
        match fault {
            SLOW => assert!(seen.loaded > 0 && seen.failed == 0, "{seen:?}"),
            DIES => assert!(seen.failed > 0, "{seen:?}"),
            _ => assert!(
                seen.loaded == 0 && seen.failed > 0,
                "fault {fault}: {seen:?}"
            ),
        }
    }
}

#[test]
fn a_faulty_planet_reader_loses_nothing_and_loads_nothing_wrong() {
    let bytes = planet_bytes();
    let reference = Planet::open_bytes("<reference>", Box::new(bytes.clone())).unwrap();
    for fault in [ERRORS, SHORT, GARBAGE, DIES] {
        let mode = Arc::new(AtomicU32::new(HEALTHY));
        // A tile is one read (its fields lie together): the reader dies two tiles in.
        let budget = Arc::new(AtomicU64::new(2));
        let reader = Faulty {
            bytes: bytes.clone(),
            mode: mode.clone(),
            budget: budget.clone(),
        };
        let planet = Arc::new(Planet::open_bytes("<faulty>", Box::new(reader)).unwrap());
        let r = planet.radius();
        let mut s = Streamer::new(
            Arc::new(TileSource::new(planet)),
            common::patient(r * 0.3, 2),
            &Loaders::new(0),
        )
        .unwrap();
        let seen = run_fault(
            &mut s,
            &mode,
            fault,
            DVec3::new(0.0, r, 0.0),
            DVec3::new(r, 0.0, 0.0),
            |key, tile| {
                let want = reference.read_tile(*key).unwrap();
                tile.height == want.height && tile.biome == want.biome
            },
        );
        match fault {
            DIES => assert!(seen.failed > 0, "{seen:?}"),
            _ => assert!(
                seen.loaded == 0 && seen.failed > 0,
                "fault {fault}: {seen:?}"
            ),
        }
    }
}
