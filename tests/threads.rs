//! Threads through the C ABI: query threads hammer a runtime's terrain, region views, chunk
//! views and stats while the main thread updates along a route — then the runtime is
//! destroyed while the queries still run on the terrain made from it. Run plain in
//! `cargo test`, and under ThreadSanitizer by `.ci/tsan --rust` (nightly), which turns any
//! data race this exercises into a failure. CI runs `.ci/tsan` without `--rust`: its C twin,
//! tests/c/threads.c, under ThreadSanitizer.

mod common;

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use relief_c::chunk::{relief_chunk_release, relief_runtime_acquire_chunk};
use relief_c::events::{relief_event, relief_runtime_poll_events};
use relief_c::region::{
    relief_region_get_view, relief_region_release, relief_region_view,
    relief_runtime_acquire_region,
};
use relief_c::runtime::*;
use relief_c::terrain::*;
use relief_c::world::*;
use relief_c::RELIEF_STATUS_OK;

/// A raw handle shared with query threads; relief's handles are documented as usable from
/// any thread.
struct Shared<T>(*mut T);
impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Shared<T> {}
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

#[test]
fn queries_views_updates_and_destroy_race_cleanly() {
    let path = CString::new(common::world_dir().to_str().unwrap()).unwrap();
    let mut world = std::ptr::null_mut();
    // SAFETY: valid C string and out-pointer.
    assert_eq!(
        unsafe { relief_world_open(path.as_ptr(), &mut world) },
        RELIEF_STATUS_OK
    );
    let mut config = relief_runtime_config {
        struct_size: std::mem::size_of::<relief_runtime_config>() as u32,
        ..Default::default()
    };
    // SAFETY: valid out-pointer, its size set.
    assert_eq!(
        unsafe { relief_runtime_config_default(&mut config) },
        RELIEF_STATUS_OK
    );
    config.load_radius = 400.0;
    config.drop_radius = 500.0;
    let mut rt = std::ptr::null_mut();
    // SAFETY: live world, valid config and out-pointer.
    assert_eq!(
        unsafe { relief_runtime_create(world, &config, &mut rt) },
        RELIEF_STATUS_OK
    );
    // SAFETY: live handle, destroyed once; the runtime keeps what it needs.
    unsafe { relief_world_destroy(world) };
    let mut terrain = std::ptr::null_mut();
    // SAFETY: live runtime, valid out-pointer.
    assert_eq!(
        unsafe { relief_runtime_create_terrain(rt, &mut terrain) },
        RELIEF_STATUS_OK
    );

    let (rt_shared, terrain_shared) = (Shared(rt), Shared(terrain));
    let stop = Arc::new(AtomicBool::new(false));
    let runtime_gone = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    // Threads inside a runtime call: raised before checking `gone`, lowered after the call,
    // so once `gone` is set and this reads 0, no thread is in or entering one (SeqCst).
    let in_runtime = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..3)
        .map(|t| {
            let (stop, gone, answered) = (stop.clone(), runtime_gone.clone(), answered.clone());
            let in_runtime = in_runtime.clone();
            std::thread::spawn(move || {
                let (rt, terrain) = (rt_shared, terrain_shared);
                let mut k = t as f64;
                while !stop.load(Ordering::Acquire) {
                    k += 1.0;
                    let (x, z) = (-1800.0 + (k * 7.3) % 3600.0, -600.0 + (k * 3.1) % 1200.0);
                    let (mut h, mut origin) = (0f32, 0u32);
                    // SAFETY: the terrain handle lives until every thread has joined.
                    let s = unsafe { relief_terrain_height(terrain.0, x, z, &mut h, &mut origin) };
                    assert_eq!(s, RELIEF_STATUS_OK);
                    let mut river = relief_river {
                        struct_size: std::mem::size_of::<relief_river>() as u32,
                        ..Default::default()
                    };
                    // SAFETY: as above.
                    let s = unsafe { relief_terrain_river(terrain.0, x, z, 200.0, &mut river) };
                    assert_eq!(s, RELIEF_STATUS_OK);
                    in_runtime.fetch_add(1, Ordering::SeqCst);
                    if !gone.load(Ordering::SeqCst) {
                        // Views and stats on the runtime, which lives until `gone` is set
                        // and no thread is inside a runtime call.
                        let (rx, rz) = ((x / 512.0).floor() as i32, (z / 512.0).floor() as i32);
                        let mut region = std::ptr::null_mut();
                        // SAFETY: live runtime (see above); valid out-pointer.
                        if unsafe { relief_runtime_acquire_region(rt.0, rx, rz, &mut region) }
                            == RELIEF_STATUS_OK
                        {
                            // SAFETY: a C view is plain data.
                            let mut view: relief_region_view = unsafe { std::mem::zeroed() };
                            view.struct_size = std::mem::size_of::<relief_region_view>() as u32;
                            // SAFETY: a held region, a view with its size set.
                            let s = unsafe { relief_region_get_view(region, &mut view) };
                            assert_eq!(s, RELIEF_STATUS_OK);
                            // SAFETY: the region is held until released.
                            let first = unsafe { *view.height };
                            assert!(first.is_finite() || first.is_nan());
                            // SAFETY: acquired above, released once.
                            unsafe { relief_region_release(region) };
                        }
                        let (cx, cz) = ((x / 64.0).floor() as i32, (z / 64.0).floor() as i32);
                        let mut chunk = std::ptr::null_mut();
                        // SAFETY: as above.
                        if unsafe { relief_runtime_acquire_chunk(rt.0, 0, cx, cz, &mut chunk) }
                            == RELIEF_STATUS_OK
                        {
                            // SAFETY: acquired above, released once.
                            unsafe { relief_chunk_release(chunk) };
                        }
                        let mut stats = relief_runtime_stats {
                            struct_size: std::mem::size_of::<relief_runtime_stats>() as u32,
                            ..Default::default()
                        };
                        // SAFETY: as above.
                        let s = unsafe { relief_runtime_get_stats(rt.0, &mut stats) };
                        assert_eq!(s, RELIEF_STATUS_OK);
                    }
                    in_runtime.fetch_sub(1, Ordering::SeqCst);
                    answered.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();

    let mut events = vec![relief_event::default(); 64];
    for step in 0..400 {
        let x = -1800.0 + step as f64 * 9.0;
        // SAFETY: live runtime.
        assert_eq!(
            unsafe { relief_runtime_update(rt, x, 0.0, 0.0) },
            RELIEF_STATUS_OK
        );
        let mut n = 0;
        // SAFETY: a 64-event buffer.
        let s = unsafe {
            relief_runtime_poll_events(
                rt,
                events.as_mut_ptr(),
                std::mem::size_of::<relief_event>(),
                events.len(),
                &mut n,
            )
        };
        assert_eq!(s, RELIEF_STATUS_OK);
        std::thread::sleep(Duration::from_millis(1));
    }
    // Destroy the runtime while the terrain queries go on: first make sure no thread is
    // in or about to start a runtime call, then destroy.
    runtime_gone.store(true, Ordering::SeqCst);
    while in_runtime.load(Ordering::SeqCst) != 0 {
        std::thread::yield_now();
    }
    let seen = answered.load(Ordering::Relaxed);
    // SAFETY: live handle, destroyed once; no thread uses it any more.
    unsafe { relief_runtime_destroy(rt) };
    while answered.load(Ordering::Relaxed) < seen + 30 {
        std::thread::sleep(Duration::from_millis(1));
    }
    stop.store(true, Ordering::Release);
    for t in threads {
        t.join().expect("a query thread panicked");
    }
    assert!(answered.load(Ordering::Relaxed) > 100);
    // SAFETY: live handle, destroyed once.
    unsafe { relief_terrain_destroy(terrain) };
}
