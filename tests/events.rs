//! The event-order laws `relief_runtime_poll_events` promises (include/relief.h,
//! docs/c-api.md), checked through the C ABI on every event of a walk across a flat world and
//! a flight around a planet, as a caller meets them:
//!
//! - within one update: the pieces' events, then the chunks', then the things' (near band
//!   first), then at most one LEVELS_DIRTY, whose count is `relief_runtime_get_dirty`'s;
//! - for one item, LOADED and UNLOADED alternate starting with LOADED; likewise CHUNK_READY
//!   and CHUNK_DROPPED, and THINGS_READY and THINGS_DROPPED;
//! - a LOADED region or tile can be acquired at once.

mod common;

use common::c_events;

use std::collections::HashMap;
use std::ffi::CString;

use relief_c::chunk::relief_chunk_release;
use relief_c::events::*;
use relief_c::levels::{relief_dirty_rect, relief_runtime_get_dirty};
use relief_c::planet::{relief_planet_destroy, relief_planet_open_memory};
use relief_c::planet_terrain::{
    relief_planet_terrain_destroy, relief_planet_terrain_position_at,
    relief_runtime_create_planet_terrain,
};
use relief_c::region::{relief_region_release, relief_runtime_acquire_region};
use relief_c::runtime::*;
use relief_c::tile::{relief_runtime_acquire_tile, relief_tile_release};
use relief_c::world::{
    relief_world, relief_world_destroy, relief_world_get_info, relief_world_info, relief_world_open,
};
use relief_c::RELIEF_STATUS_OK;

/// Where one item stands in the events seen so far.
#[derive(Default)]
struct Laws {
    /// (stream, face, x, z) → resident by the events; the stream as RELIEF_STREAM_* numbers
    /// them (a band's things: RELIEF_STREAM_THINGS + the band).
    resident: HashMap<(u32, u32, i32, i32), bool>,
    things_ready: usize,
    loads: usize,
    unloads: usize,
    ready: usize,
    dropped: usize,
    dirty: usize,
    overflows: usize,
}

impl Laws {
    /// Checks one update's events.
    fn update(&mut self, rt: *const relief_runtime, events: &[relief_event]) {
        self.order(rt, events);
        self.follow(rt, events);
    }

    /// The order within one update, and LEVELS_DIRTY's count.
    fn order(&mut self, rt: *const relief_runtime, events: &[relief_event]) {
        let rank = |e: &relief_event| match e.kind {
            RELIEF_EVENT_LOADED | RELIEF_EVENT_UNLOADED | RELIEF_EVENT_FAILED => 0,
            RELIEF_EVENT_CHUNK_READY | RELIEF_EVENT_CHUNK_DROPPED | RELIEF_EVENT_CHUNK_FAILED => 1,
            RELIEF_EVENT_THINGS_READY
            | RELIEF_EVENT_THINGS_DROPPED
            | RELIEF_EVENT_THINGS_FAILED => 2 + e.band,
            RELIEF_EVENT_LEVELS_DIRTY => 5,
            RELIEF_EVENT_LEVELS_FAILED => 6,
            RELIEF_EVENT_OVERFLOW => 7,
            other => panic!("an unknown event kind {other}"),
        };
        for pair in events.windows(2) {
            assert!(
                rank(&pair[0]) <= rank(&pair[1]),
                "pieces, then chunks, then things by band, then levels: {pair:?}"
            );
        }
        let dirty: Vec<_> = events
            .iter()
            .filter(|e| e.kind == RELIEF_EVENT_LEVELS_DIRTY)
            .collect();
        assert!(dirty.len() <= 1, "at most one LEVELS_DIRTY an update");
        let count = dirty_rects(rt).len();
        // After an overflow the levels are uploaded whole: the LEVELS_DIRTY may be lost.
        if !events.iter().any(|e| e.kind == RELIEF_EVENT_OVERFLOW) {
            assert_eq!(
                dirty.first().map_or(0, |e| e.x as usize),
                count,
                "LEVELS_DIRTY counts get_dirty's rectangles"
            );
        }
        self.dirty += dirty.len();
    }

    /// Each item's alternation, over any number of updates' events.
    fn follow(&mut self, rt: *const relief_runtime, events: &[relief_event]) {
        for (i, e) in events.iter().enumerate() {
            if e.kind == RELIEF_EVENT_OVERFLOW {
                // Ends its drain; the laws go on from what is loaded now.
                assert_eq!(
                    i + 1,
                    events.len(),
                    "OVERFLOW is the last event of its drain"
                );
                assert!(e.bytes > 0);
                self.overflows += 1;
                self.resync(rt);
                continue;
            }
            let things = RELIEF_STREAM_THINGS + e.band;
            let (stream, up) = match e.kind {
                RELIEF_EVENT_LOADED => (RELIEF_STREAM_PIECES, true),
                RELIEF_EVENT_UNLOADED => (RELIEF_STREAM_PIECES, false),
                RELIEF_EVENT_CHUNK_READY => (RELIEF_STREAM_CHUNKS, true),
                RELIEF_EVENT_CHUNK_DROPPED => (RELIEF_STREAM_CHUNKS, false),
                RELIEF_EVENT_THINGS_READY => (things, true),
                RELIEF_EVENT_THINGS_DROPPED => (things, false),
                RELIEF_EVENT_FAILED | RELIEF_EVENT_CHUNK_FAILED | RELIEF_EVENT_THINGS_FAILED => {
                    panic!("a failure on a healthy world: {e:?}")
                }
                _ => continue,
            };
            assert!(
                stream >= RELIEF_STREAM_THINGS || e.band == 0,
                "band is 0 but for things: {e:?}"
            );
            let was = self
                .resident
                .insert((stream, e.face, e.x, e.z), up)
                .unwrap_or(false);
            assert_ne!(
                was, up,
                "LOADED/UNLOADED (or READY/DROPPED) alternate from LOADED: {e:?}"
            );
            match (stream, up) {
                (RELIEF_STREAM_PIECES, true) => self.loads += 1,
                (RELIEF_STREAM_PIECES, false) => self.unloads += 1,
                (RELIEF_STREAM_CHUNKS, true) => self.ready += 1,
                (RELIEF_STREAM_CHUNKS, false) => self.dropped += 1,
                (_, true) => self.things_ready += 1,
                (_, false) => {}
            }
        }
    }

    /// Replaces what the events said with what `relief_runtime_list_loaded` lists.
    fn resync(&mut self, rt: *const relief_runtime) {
        self.resident.clear();
        let things = (0..3).map(|band| (RELIEF_STREAM_THINGS + band, RELIEF_EVENT_THINGS_READY));
        let streams = [
            (RELIEF_STREAM_PIECES, RELIEF_EVENT_LOADED),
            (RELIEF_STREAM_CHUNKS, RELIEF_EVENT_CHUNK_READY),
        ];
        for (stream, kind) in streams.into_iter().chain(things) {
            let mut count = 0;
            // SAFETY: live runtime; (NULL, 0) is a count query.
            let s = unsafe {
                relief_runtime_list_loaded(
                    rt,
                    stream,
                    std::ptr::null_mut(),
                    size_of::<relief_event>(),
                    0,
                    &mut count,
                )
            };
            assert_eq!(s, RELIEF_STATUS_OK);
            let mut items = vec![relief_event::default(); count];
            // SAFETY: room for `count` events.
            let s = unsafe {
                relief_runtime_list_loaded(
                    rt,
                    stream,
                    items.as_mut_ptr(),
                    size_of::<relief_event>(),
                    count,
                    &mut count,
                )
            };
            assert_eq!(s, RELIEF_STATUS_OK);
            for e in &items[..count] {
                assert_eq!(e.kind, kind);
                assert!(
                    self.resident
                        .insert((stream, e.face, e.x, e.z), true)
                        .is_none(),
                    "listed twice: {e:?}"
                );
            }
        }
    }

    /// Every item the events say is loaded can be acquired now (nothing polled since).
    fn acquirable(&self, rt: *const relief_runtime, planet: bool) {
        for (&(stream, face, x, z), &up) in &self.resident {
            if !up || stream != RELIEF_STREAM_PIECES {
                continue;
            }
            let ok = if planet {
                let mut tile = std::ptr::null_mut();
                // SAFETY: live runtime, valid out-pointer.
                let s =
                    unsafe { relief_runtime_acquire_tile(rt, face, x as u32, z as u32, &mut tile) };
                // SAFETY: released once (NULL is a no-op).
                unsafe { relief_tile_release(tile) };
                s
            } else {
                let mut region = std::ptr::null_mut();
                // SAFETY: as above.
                let s = unsafe { relief_runtime_acquire_region(rt, x, z, &mut region) };
                // SAFETY: as above.
                unsafe { relief_region_release(region) };
                s
            };
            assert_eq!(
                ok, RELIEF_STATUS_OK,
                "({face}, {x}, {z}) is LOADED by the events"
            );
        }
    }
}

/// The last update's dirty rectangles: a count query, then the rectangles.
fn dirty_rects(rt: *const relief_runtime) -> Vec<relief_dirty_rect> {
    let mut n = 0;
    // SAFETY: live runtime; (NULL, 0) is a count query.
    let s = unsafe {
        relief_runtime_get_dirty(
            rt,
            std::ptr::null_mut(),
            size_of::<relief_dirty_rect>(),
            0,
            &mut n,
        )
    };
    assert_eq!(s, RELIEF_STATUS_OK);
    let mut rects = vec![relief_dirty_rect::default(); n];
    let mut got = 0;
    // SAFETY: live runtime, a buffer of n rectangles.
    let s = unsafe {
        relief_runtime_get_dirty(
            rt,
            rects.as_mut_ptr(),
            size_of::<relief_dirty_rect>(),
            n,
            &mut got,
        )
    };
    assert_eq!((s, got), (RELIEF_STATUS_OK, n));
    rects
}

/// The shared test world, opened through the C ABI.
fn open_world() -> *mut relief_world {
    let path = CString::new(common::world_dir().to_str().unwrap()).unwrap();
    let mut world = std::ptr::null_mut();
    // SAFETY: a C string and an out-pointer.
    assert_eq!(
        unsafe { relief_world_open(path.as_ptr(), &mut world) },
        RELIEF_STATUS_OK
    );
    world
}

/// A runtime over `world` configured by `c`.
fn create(world: *const relief_world, c: &relief_runtime_config) -> *mut relief_runtime {
    let mut rt = std::ptr::null_mut();
    // SAFETY: live world, config, out-pointer.
    assert_eq!(
        unsafe { relief_runtime_create(world, c, &mut rt) },
        RELIEF_STATUS_OK
    );
    rt
}

fn config() -> relief_runtime_config {
    let mut c = relief_runtime_config {
        struct_size: size_of::<relief_runtime_config>() as u32,
        ..Default::default()
    };
    // SAFETY: its size set.
    assert_eq!(
        unsafe { relief_runtime_config_default(&mut c) },
        RELIEF_STATUS_OK
    );
    c
}

#[test]
fn a_walk_keeps_the_event_laws() {
    let world = open_world();
    let mut info = relief_world_info {
        struct_size: size_of::<relief_world_info>() as u32,
        ..Default::default()
    };
    // SAFETY: live world.
    assert_eq!(
        unsafe { relief_world_get_info(world, &mut info) },
        RELIEF_STATUS_OK
    );
    let mut c = config();
    (c.load_radius, c.drop_radius) = (300.0, 400.0);
    (c.collision_load_radius, c.collision_drop_radius) = (100.0, 150.0);
    c.level_count = 3;
    let rt = create(world, &c);
    // SAFETY: the runtime keeps the world alive.
    unsafe { relief_world_destroy(world) };

    let extent = info.region_size as f64 * info.vertex_spacing;
    let (x0, z0) = (
        info.region_min_x as f64 * extent,
        info.region_min_z as f64 * extent,
    );
    let (x1, z1) = (
        (info.region_max_x + 1) as f64 * extent,
        (info.region_max_z + 1) as f64 * extent,
    );
    let mut laws = Laws::default();
    // There and back, at changing speeds: items load, unload and load again.
    let frames = 500;
    for f in 0..=frames {
        let t = f as f64 / frames as f64;
        let s = 1.0 - (2.0 * t - 1.0).abs();
        let s = s * s * (3.0 - 2.0 * s);
        let (x, z) = (
            x0 + (x1 - x0) * (0.1 + 0.8 * s),
            z0 + (z1 - z0) * (0.1 + 0.8 * s),
        );
        // SAFETY: live runtime.
        assert_eq!(
            unsafe { relief_runtime_update(rt, x, 0.0, z) },
            RELIEF_STATUS_OK
        );
        let events = c_events::poll(rt);
        laws.update(rt, &events);
        if f % 50 == 0 {
            laws.acquirable(rt, false);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        laws.loads > 4 && laws.unloads > 2 && laws.ready > 4 && laws.dropped > 2 && laws.dirty > 4,
        "the walk exercised every kind: {} loads, {} unloads, {} chunks, {} dropped, {} dirty",
        laws.loads,
        laws.unloads,
        laws.ready,
        laws.dropped,
        laws.dirty
    );
    assert!(laws.things_ready > 4, "{} thing chunks", laws.things_ready);
    // Any held chunk is released by now; nothing else to free.
    // SAFETY: NULL is a no-op.
    unsafe { relief_chunk_release(std::ptr::null_mut()) };
    // SAFETY: live handle, destroyed once.
    unsafe { relief_runtime_destroy(rt) };
}

/// A settle runs many updates; the levels change over several of them. What it leaves is
/// what one update leaves: one LEVELS_DIRTY, after every other event, counting
/// `relief_runtime_get_dirty`'s rectangles, which cover every level whole — so a caller that
/// uploads what get_dirty lists after the drain misses nothing the settle rewrote.
#[test]
fn a_settle_leaves_one_levels_dirty_covering_every_level() {
    let world = open_world();
    let mut c = config();
    c.level_count = 4;
    let rt = create(world, &c);
    // SAFETY: the runtime keeps the world alive.
    unsafe { relief_world_destroy(world) };
    for (x, z) in [(300.0, 300.0), (1300.0, -200.0)] {
        let mut settled = 0;
        // SAFETY: live runtime, an out-pointer.
        let s = unsafe { relief_runtime_settle(rt, x, 0.0, z, 60_000, &mut settled) };
        assert_eq!((s, settled), (RELIEF_STATUS_OK, 1));
        let events = c_events::poll(rt);
        let dirty: Vec<usize> = (0..events.len())
            .filter(|&i| events[i].kind == RELIEF_EVENT_LEVELS_DIRTY)
            .collect();
        assert_eq!(
            dirty,
            [events.len() - 1],
            "one LEVELS_DIRTY, last: {events:?}"
        );
        assert!(events.iter().any(|e| e.kind == RELIEF_EVENT_LOADED));
        let rects = dirty_rects(rt);
        assert_eq!(events[dirty[0]].x as usize, rects.len());
        let mut levels: Vec<u32> = rects
            .iter()
            .inspect(|r| {
                assert_eq!(
                    (r.x, r.z, r.width, r.depth),
                    (0, 0, c.level_size, c.level_size),
                    "{r:?}"
                )
            })
            .map(|r| r.level)
            .collect();
        levels.sort_unstable();
        assert_eq!(levels, (0..c.level_count).collect::<Vec<_>>());
    }
    // SAFETY: live handle, destroyed once.
    unsafe { relief_runtime_destroy(rt) };
}

#[test]
fn a_planet_flight_keeps_the_event_laws() {
    let blob = common::planet_blob("relief");
    let mut planet = std::ptr::null_mut();
    // SAFETY: the blob's bytes, an out-pointer.
    assert_eq!(
        unsafe { relief_planet_open_memory(blob.as_ptr(), blob.len(), &mut planet) },
        RELIEF_STATUS_OK
    );
    let mut c = config();
    (c.load_radius, c.drop_radius) = (3000.0, 4000.0);
    (c.collision_load_radius, c.collision_drop_radius) = (300.0, 400.0);
    let mut rt = std::ptr::null_mut();
    // SAFETY: live planet.
    assert_eq!(
        unsafe { relief_planet_runtime_create(planet, &c, &mut rt) },
        RELIEF_STATUS_OK
    );
    // SAFETY: the runtime keeps it alive.
    unsafe { relief_planet_destroy(planet) };
    let mut terrain = std::ptr::null_mut();
    // SAFETY: live runtime.
    assert_eq!(
        unsafe { relief_runtime_create_planet_terrain(rt, &mut terrain) },
        RELIEF_STATUS_OK
    );
    let mut laws = Laws::default();
    let frames = 400;
    for f in 0..=frames {
        let lon = 180.0 * f as f64 / frames as f64;
        let mut pos = [0f64; 3];
        // SAFETY: live terrain, 3 doubles.
        assert_eq!(
            unsafe { relief_planet_terrain_position_at(terrain, 5.0, lon, pos.as_mut_ptr()) },
            RELIEF_STATUS_OK
        );
        // SAFETY: live runtime.
        assert_eq!(
            unsafe { relief_runtime_update(rt, pos[0], pos[1], pos[2]) },
            RELIEF_STATUS_OK
        );
        let events = c_events::poll(rt);
        laws.update(rt, &events);
        if f % 50 == 0 {
            laws.acquirable(rt, true);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        laws.loads > 4 && laws.unloads > 2 && laws.ready > 4 && laws.dropped > 2 && laws.dirty > 4,
        "the flight exercised every kind: {} loads, {} unloads, {} chunks, {} dropped, {} dirty",
        laws.loads,
        laws.unloads,
        laws.ready,
        laws.dropped,
        laws.dirty
    );
    // SAFETY: live handles, destroyed once.
    unsafe {
        relief_planet_terrain_destroy(terrain);
        relief_runtime_destroy(rt);
    }
}

/// A queue too small for a settle overflows: the kept events, then one OVERFLOW counting the
/// rest; `relief_runtime_list_loaded` then gives what is loaded, and every later event
/// follows on from it by the same laws — over a walk that overflows again and again.
#[test]
fn after_an_overflow_the_laws_hold_from_the_listed_state() {
    let world = open_world();
    let mut c = config();
    c.event_capacity = 16;
    (c.load_radius, c.drop_radius) = (300.0, 400.0);
    (c.collision_load_radius, c.collision_drop_radius) = (150.0, 200.0);
    c.level_count = 3;
    let rt = create(world, &c);
    c.event_capacity = 15;
    let mut refused = std::ptr::null_mut();
    // SAFETY: as above.
    assert_ne!(
        unsafe { relief_runtime_create(world, &c, &mut refused) },
        RELIEF_STATUS_OK
    );
    // SAFETY: the runtime keeps the world alive.
    unsafe { relief_world_destroy(world) };

    let mut settled = 0;
    // SAFETY: live runtime, an out-pointer.
    let s = unsafe { relief_runtime_settle(rt, 0.0, 0.0, 0.0, 60_000, &mut settled) };
    assert_eq!((s, settled), (RELIEF_STATUS_OK, 1));
    let first = c_events::poll(rt);
    let last = first.last().expect("events");
    assert_eq!(last.kind, RELIEF_EVENT_OVERFLOW, "{first:?}");
    assert!(first.len() <= 17 && last.bytes > 0 && last.x as u64 == last.bytes);
    let mut laws = Laws::default();
    // A settle's many updates in one drain: alternation holds across them, order within each.
    laws.follow(rt, &first);
    laws.acquirable(rt, false);

    for f in 0..300 {
        let x = -1500.0 + 10.0 * f as f64;
        // SAFETY: live runtime.
        assert_eq!(
            unsafe { relief_runtime_update(rt, x, 0.0, 0.0) },
            RELIEF_STATUS_OK
        );
        let events = c_events::poll(rt);
        laws.update(rt, &events);
        if f % 25 == 0 {
            laws.acquirable(rt, false);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        laws.overflows >= 2 && laws.loads > 4 && laws.unloads > 2,
        "{} overflows, {} loads, {} unloads",
        laws.overflows,
        laws.loads,
        laws.unloads
    );
    // SAFETY: live handle, destroyed once.
    unsafe { relief_runtime_destroy(rt) };
}
