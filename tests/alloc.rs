//! The main thread's per-frame cost is the product: `update()` must not allocate, neither
//! standing still nor while finished loads are being applied. A counting global allocator
//! counts allocations made on the thread under test only (workers allocate freely).

mod common;

use relief::DVec3;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use relief::flat::RegionSource;
use relief::flat::World;
use relief::stream::{Loaders, StreamConfig, Streamer};

struct Counting;
thread_local! {
    static TRACKED: Cell<bool> = const { Cell::new(false) };
    /// Per thread, so tests running side by side don't count each other's allocations.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if TRACKED.with(|t| t.get()) {
            ALLOCS.with(|a| a.set(a.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if TRACKED.with(|t| t.get()) {
            ALLOCS.with(|a| a.set(a.get() + 1));
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCS.with(|a| a.get());
    TRACKED.with(|t| t.set(true));
    let r = f();
    TRACKED.with(|t| t.set(false));
    (r, ALLOCS.with(|a| a.get()) - before)
}

#[test]
fn update_allocates_nothing_while_loading_or_standing() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let mut s = Streamer::new(
        Arc::new(RegionSource::new(world)),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap();
    // The counter must see allocations at all, or the test proves nothing.
    let (_, probe) = counted(|| vec![0u8; 16]);
    assert_eq!(probe, 1);

    // From nothing to everything in reach: loads finish and are applied, events queue up.
    let focus = DVec3::new(-300.0, 0.0, 200.0);
    let (settled, n) = counted(|| s.settle(focus, Duration::from_secs(30)));
    assert!(settled);
    assert!(s.stats().ready > 5);
    assert_eq!(n, 0, "{n} allocations on the main thread while loading");

    // Standing (with a little sway), polling events and reading stats each frame.
    let (_, n) = counted(|| {
        for k in 0..2000 {
            let sway = (k % 7) as f64 - 3.0;
            s.update(DVec3::new(focus[0] + sway, 0.0, focus[2] - sway));
            while s.poll_event().is_some() {}
            std::hint::black_box(s.stats());
        }
    });
    assert_eq!(n, 0, "{n} allocations in 2000 steady frames");
}

#[test]
fn the_runtime_update_allocates_nothing_while_loading_or_walking() {
    let world = World::open(common::world_dir()).unwrap();
    let mut rt = relief::Runtime::new(world, relief::RuntimeConfig::default()).unwrap();
    // Loading screen: regions, chunks and levels fill; events queue up, levels refresh.
    let focus = DVec3::new(-300.0, 0.0, 200.0);
    let (settled, n) = counted(|| rt.settle(focus, Duration::from_secs(30)).unwrap());
    assert!(settled);
    assert!(rt.stats().chunks.unwrap().ready > 10);
    assert_eq!(n, 0, "{n} allocations on the main thread while loading");
    while rt.poll_event().is_some() {}

    // Walking 300 m out and back: the levels follow, chunks are cached and revived, events
    // are drained each frame.
    let (_, n) = counted(|| {
        for k in 0..1200 {
            let out = if k < 600 { k } else { 1200 - k } as f64;
            let f = DVec3::new(focus[0] + out * 0.5, 0.0, focus[2]);
            rt.update(f).unwrap();
            while rt.poll_event().is_some() {}
            std::hint::black_box(rt.stats());
        }
    });
    assert_eq!(n, 0, "{n} allocations in 1200 walking frames");
}

/// An orbiting focus on a planet: tiles load and drop every frame, the rings re-anchor every
/// few dozen frames on their worker, and the main thread still allocates nothing.
#[test]
fn the_runtime_update_allocates_nothing_orbiting_a_planet() {
    use relief_tools::bake::planet::bake_planet;
    use relief_tools::Silent;
    let path = common::scratch("alloc-planet").with_extension("plnt");
    bake_planet(&common::small_planet("relief"), &path, &Silent).expect("bake");
    // Tiles and rings only: thing streams fill their caches toward their budgets for many
    // laps at this speed (an empty chunk weighs next to nothing), and their maps double on
    // the way, so no short orbit is their steady state.
    let config = relief::RuntimeConfig {
        things: None,
        ..relief::RuntimeConfig::default()
    };
    let mut rt = relief::Runtime::open(&path, config).unwrap();
    let relief::runtime::Queries::Planet(terrain) = rt.queries().clone() else {
        panic!("a planet's queries")
    };
    let radius = terrain.planet().radius();
    // 20 km/s at 60 frames a second.
    let at = |frame: usize| {
        terrain.position_at(5.0, (frame as f64 * 20_000.0 / 60.0 / radius).to_degrees())
    };
    assert!(rt.settle(at(0), Duration::from_secs(60)).unwrap());
    while rt.poll_event().is_some() {}
    // One lap's first stretch to reach steady state (containers at their working sizes).
    for f in 0..120 {
        rt.update(at(f)).unwrap();
        while rt.poll_event().is_some() {}
    }
    let rebuilds = |rt: &relief::Runtime| match rt.lod() {
        Some(relief::runtime::Lod::Planet(r, _)) => r.rebuilds(),
        _ => panic!("a planet runtime keeps rings"),
    };
    let before = rebuilds(&rt);
    // Paced like frames (faster than 60 a second, to keep the test short), or the worker
    // would see one focus a rebuild.
    let (_, n) = counted(|| {
        for f in 120..360 {
            rt.update(at(f)).unwrap();
            while rt.poll_event().is_some() {}
            std::hint::black_box(rt.stats());
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    assert!(
        rebuilds(&rt) > before,
        "the rings re-anchored while counted: {} then {}, radius {radius}",
        before,
        rebuilds(&rt)
    );
    assert_eq!(n, 0, "{n} allocations in 240 orbiting frames");
}
