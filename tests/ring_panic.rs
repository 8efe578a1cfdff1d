//! A planet's ring thread that panics (a bug in relief) is neither a silent freeze nor a lost
//! runtime: the update that finds it returns the error, a LevelsFailed event says so, the
//! rest of the frame streams on, and the levels start again — ending equal to rings built
//! from scratch. Through the C ABI the same update returns PANIC, without poisoning the
//! handle, and queues a LEVELS_FAILED event. Its own test binary: the panic is injected
//! process-wide.

mod common;

use std::time::{Duration, Instant};

use relief::glam::DVec3;
use relief::lod::ClipmapConfig;
use relief::planet::rings::PlanetRings;
use relief::planet::{inject_ring_panic, Planet};
use relief::runtime::{Lod, Queries, UpdateError};
use relief::{Runtime, RuntimeConfig, RuntimeEvent};

fn planet() -> Planet {
    Planet::open_bytes(
        "ring-panic",
        Box::new(common::planet_blob("relief").to_vec()),
    )
    .unwrap()
}

fn planet_radius() -> f64 {
    planet().radius()
}

/// The panic is injected process-wide: one test at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Updates around `focus` until one returns an error (or `within` passes); that error, and
/// the events drained on the way.
fn until_error(
    rt: &mut Runtime,
    focus: DVec3,
    within: Duration,
) -> (Option<UpdateError>, Vec<RuntimeEvent>) {
    let start = Instant::now();
    let mut events = Vec::new();
    while start.elapsed() < within {
        let r = rt.update(focus);
        while let Some(e) = rt.poll_event() {
            events.push(e);
        }
        if let Err(e) = r {
            return (Some(e), events);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    (None, events)
}

#[test]
fn a_panicking_ring_build_is_reported_once_and_the_levels_recover() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = RuntimeConfig {
        collision: None,
        lod: Some(ClipmapConfig {
            levels: 3,
            size: 32,
            base_spacing: 400.0,
        }),
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::new(planet(), config).unwrap();
    let Queries::Planet(terrain) = rt.queries().clone() else {
        panic!("a planet's queries")
    };
    let start = terrain.position_at(10.0, 20.0);
    assert!(rt.settle(start, Duration::from_secs(60)).unwrap());
    while rt.poll_event().is_some() {}

    inject_ring_panic();
    let moved = terrain.position_at(10.0, 24.0);
    let (error, events) = until_error(&mut rt, moved, Duration::from_secs(30));
    let Some(UpdateError::LevelsPanicked(message)) = error else {
        panic!("the panic was not reported: {error:?}")
    };
    assert!(message.contains("injected"), "{message}");
    let failed: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, RuntimeEvent::LevelsFailed { .. }))
        .collect();
    assert_eq!(failed.len(), 1, "one LevelsFailed event: {events:?}");

    // Reported once; the worker started again and the levels catch up with the focus.
    assert!(rt.settle(moved, Duration::from_secs(60)).unwrap());
    while let Some(e) = rt.poll_event() {
        assert!(
            !matches!(e, RuntimeEvent::LevelsFailed { .. }),
            "reported twice"
        );
    }
    let Some(Lod::Planet(rings, _)) = rt.lod() else {
        panic!("a planet runtime keeps rings")
    };
    let mut fresh = PlanetRings::new(*rings.clipmap().config()).unwrap();
    fresh.update(moved, &terrain);
    assert_eq!(rings.frame(), fresh.frame());
    for k in 0..3 {
        assert_eq!(
            rings.clipmap().level(k).storage(),
            fresh.clipmap().level(k).storage(),
            "level {k} after the restart"
        );
    }
}

#[test]
fn through_the_c_abi_the_update_returns_panic_and_the_handle_lives_on() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    use relief_c::events::*;
    use relief_c::planet::{relief_planet_destroy, relief_planet_open_memory};
    use relief_c::runtime::*;
    use relief_c::{RELIEF_STATUS_OK, RELIEF_STATUS_PANIC};

    let blob = common::planet_blob("relief");
    let mut planet = std::ptr::null_mut();
    // SAFETY: the blob's bytes, an out-pointer.
    let s = unsafe { relief_planet_open_memory(blob.as_ptr(), blob.len(), &mut planet) };
    assert_eq!(s, RELIEF_STATUS_OK);
    let mut rt = std::ptr::null_mut();
    // SAFETY: live planet; NULL config for the defaults.
    let s = unsafe { relief_planet_runtime_create(planet, std::ptr::null(), &mut rt) };
    assert_eq!(s, RELIEF_STATUS_OK);
    // SAFETY: the runtime keeps it alive.
    unsafe { relief_planet_destroy(planet) };
    let radius = planet_radius();
    let mut settled = 0;
    // SAFETY: live runtime, an out-pointer.
    let s = unsafe { relief_runtime_settle(rt, 0.0, radius, 0.0, 60_000, &mut settled) };
    assert_eq!((s, settled), (RELIEF_STATUS_OK, 1));

    inject_ring_panic();
    let (mut statuses, mut kinds) = (Vec::new(), Vec::new());
    let start = Instant::now();
    let mut k = 0.0;
    while !statuses.contains(&RELIEF_STATUS_PANIC) && start.elapsed() < Duration::from_secs(30) {
        k += 1.0;
        // SAFETY: live runtime.
        statuses.push(unsafe { relief_runtime_update(rt, k * 100.0, radius, 0.0) });
        // Every event of the update, as a game drains them (a planet's things send many as
        // the focus jumps); a poisoned handle would fail the poll.
        let events = common::c_events::poll(rt);
        kinds.extend(events.iter().map(|e| (e.kind, e.status)));
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(
        statuses
            .iter()
            .filter(|&&s| s == RELIEF_STATUS_PANIC)
            .count(),
        1
    );
    assert!(
        kinds.contains(&(RELIEF_EVENT_LEVELS_FAILED, RELIEF_STATUS_PANIC)),
        "{kinds:?}"
    );
    // The next update is an ordinary one.
    // SAFETY: live runtime.
    assert_eq!(
        unsafe { relief_runtime_update(rt, k * 100.0, radius, 0.0) },
        RELIEF_STATUS_OK
    );
    // SAFETY: live handle, destroyed once.
    unsafe { relief_runtime_destroy(rt) };
}
