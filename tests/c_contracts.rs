//! The header's placement contracts, consumed as a C program would: everything here is
//! worked out from `include/relief.h`'s words alone (the chunk view's sample formula, the
//! tile view's face table and projection) and checked against the library's own answers
//! (its height queries) over walks across a world and a planet.

mod common;

use std::ffi::CString;
use std::ptr;

use relief_c::chunk::*;
use relief_c::events::*;
use relief_c::planet::*;
use relief_c::planet_terrain::*;
use relief_c::runtime::*;
use relief_c::terrain::*;
use relief_c::tile::*;
use relief_c::world::*;
use relief_c::RELIEF_STATUS_OK;

fn ok(status: u32) {
    // SAFETY: a NUL-terminated string the library keeps per thread.
    let message = unsafe { std::ffi::CStr::from_ptr(relief_c::relief_last_error_message()) };
    assert_eq!(status, RELIEF_STATUS_OK, "{}", message.to_string_lossy());
}

/// A view struct as C code starts one: zeroed, its size set.
fn sized<T>() -> T {
    // SAFETY: the views are repr(C) numbers and raw pointers; all-zero is a valid value.
    let mut v: T = unsafe { std::mem::zeroed() };
    // SAFETY: every sized struct starts with its u32 struct_size.
    unsafe { *(&mut v as *mut T as *mut u32) = std::mem::size_of::<T>() as u32 };
    v
}

fn config() -> relief_runtime_config {
    let mut c = relief_runtime_config {
        struct_size: std::mem::size_of::<relief_runtime_config>() as u32,
        ..Default::default()
    };
    // SAFETY: valid out-pointer, its size set.
    ok(unsafe { relief_runtime_config_default(&mut c) });
    c
}

/// Settles at `at` and hands every event of the drain to `f`.
fn settle_and_drain(rt: *mut relief_runtime, at: [f64; 3], mut f: impl FnMut(&relief_event)) {
    let mut settled = 0;
    // SAFETY: live runtime, valid out-pointer.
    ok(unsafe { relief_runtime_settle(rt, at[0], at[1], at[2], 60_000, &mut settled) });
    assert_eq!(settled, 1);
    let mut events = vec![relief_event::default(); 256];
    loop {
        let mut n = 0;
        // SAFETY: room for `events.len()` events of this size.
        ok(unsafe {
            relief_runtime_poll_events(
                rt,
                events.as_mut_ptr(),
                std::mem::size_of::<relief_event>(),
                events.len(),
                &mut n,
            )
        });
        events[..n].iter().for_each(&mut f);
        if n < events.len() {
            return;
        }
    }
}

/// Runs `f` on chunk `e`'s view while it is held; nothing if it was dropped since its
/// event, as the header allows.
fn with_view(rt: *mut relief_runtime, e: &relief_event, f: impl FnOnce(&relief_chunk_view)) {
    let mut chunk = ptr::null_mut();
    // SAFETY: live runtime, valid out-pointer.
    if unsafe { relief_runtime_acquire_chunk(rt, e.face, e.x, e.z, &mut chunk) } != RELIEF_STATUS_OK
    {
        return;
    }
    let mut v: relief_chunk_view = sized();
    // SAFETY: live chunk, view sized.
    ok(unsafe { relief_chunk_get_view(chunk, &mut v) });
    f(&v);
    // SAFETY: held above, released once.
    unsafe { relief_chunk_release(chunk) };
}

/// Sample (i, j) of a held view where the documented formula puts it: `origin + (corner_x +
/// i·spacing)·axis_x + height·up + (corner_z + j·spacing)·axis_z`.
fn place(v: &relief_chunk_view, i: usize, j: usize) -> [f64; 3] {
    let n = v.samples as usize;
    // SAFETY: the view's heights are samples² floats while the chunk is held.
    let h = unsafe { *v.heights.add(j * n + i) } as f64;
    let (x, z) = (
        v.corner_x + i as f64 * v.spacing,
        v.corner_z + j as f64 * v.spacing,
    );
    std::array::from_fn(|k| v.origin[k] + x * v.axis_x[k] + h * v.up[k] + z * v.axis_z[k])
}

/// Every sample of a held chunk, placed by the documented formula, with its height; holes
/// skipped.
fn placed_samples(rt: *mut relief_runtime, e: &relief_event, mut f: impl FnMut([f64; 3], f32)) {
    with_view(rt, e, |v| {
        let n = v.samples as usize;
        // SAFETY: the view's heights are samples² floats while the chunk is held.
        let heights = unsafe { std::slice::from_raw_parts(v.heights, n * n) };
        for j in 0..n {
            for i in 0..n {
                let h = heights[j * n + i];
                if !h.is_nan() {
                    f(place(v, i, j), h);
                }
            }
        }
    });
}

/// Every cell's material byte of a held chunk with its four corners placed by the formula
/// (holes included, as NaN heights), for `f(corners, material)`.
fn placed_cells(rt: *mut relief_runtime, e: &relief_event, mut f: impl FnMut([[f64; 3]; 4], u8)) {
    with_view(rt, e, |v| {
        let c = v.samples as usize - 1;
        // SAFETY: (samples − 1)² materials while the chunk is held.
        let materials = unsafe { std::slice::from_raw_parts(v.materials, c * c) };
        for j in 0..c {
            for i in 0..c {
                let corners = [
                    place(v, i, j),
                    place(v, i + 1, j),
                    place(v, i, j + 1),
                    place(v, i + 1, j + 1),
                ];
                f(corners, materials[j * c + i]);
            }
        }
    });
}

/// A walk from one corner of the world to the other and along its far edges: every sample
/// of every chunk that became ready is, bit for bit, the height query's answer there.
#[test]
fn flat_chunk_samples_are_the_queried_heights_where_the_header_places_them() {
    let path = CString::new(common::world_dir().to_str().unwrap()).unwrap();
    let mut world = ptr::null_mut();
    // SAFETY: valid C string and out-pointer.
    ok(unsafe { relief_world_open(path.as_ptr(), &mut world) });
    let mut info = relief_world_info {
        struct_size: std::mem::size_of::<relief_world_info>() as u32,
        ..Default::default()
    };
    // SAFETY: live world, sized struct.
    ok(unsafe { relief_world_get_info(world, &mut info) });
    let extent = info.region_size as f64 * info.vertex_spacing;
    let lo = [
        info.region_min_x as f64 * extent,
        info.region_min_z as f64 * extent,
    ];
    let hi = [
        (info.region_max_x + 1) as f64 * extent,
        (info.region_max_z + 1) as f64 * extent,
    ];
    let mut rt = ptr::null_mut();
    // SAFETY: live world, valid config and out-pointer.
    ok(unsafe { relief_runtime_create(world, &config(), &mut rt) });
    let mut terrain = ptr::null_mut();
    // SAFETY: live runtime, valid out-pointer.
    ok(unsafe { relief_runtime_create_terrain(rt, &mut terrain) });
    let mut stops = Vec::new();
    for k in 0..=12 {
        let t = k as f64 / 12.0;
        stops.push([
            lo[0] + (hi[0] - lo[0]) * t,
            0.0,
            lo[1] + (hi[1] - lo[1]) * t,
        ]);
    }
    for k in 0..=8 {
        let t = k as f64 / 8.0;
        stops.push([hi[0], 0.0, hi[1] - (hi[1] - lo[1]) * t]);
        stops.push([hi[0] - (hi[0] - lo[0]) * t, 0.0, hi[1]]);
    }
    let (mut samples, mut on_far_edge, mut cells) = (0usize, 0usize, 0usize);
    let mut kinds = std::collections::HashSet::new();
    for at in stops {
        settle_and_drain(rt, at, |e| {
            if e.kind != RELIEF_EVENT_CHUNK_READY {
                return;
            }
            // Each cell's material is the texture that shows most at its first sample: the
            // control word's overlay where it blends 128 or more, else its base.
            placed_cells(rt, e, |corners, material| {
                let mut g: relief_ground = sized();
                let [x, _, z] = corners[0];
                // SAFETY: live terrain, sized struct.
                ok(unsafe { relief_terrain_ground(terrain, x, z, &mut g) });
                if g.found == 1 {
                    let shown = if g.blend >= 128 {
                        g.overlay_texture
                    } else {
                        g.base_texture
                    };
                    assert_eq!(material, shown, "cell at ({x}, {z})");
                    cells += 1;
                    kinds.insert(material);
                }
            });
            placed_samples(rt, e, |p, h| {
                let (mut q, mut origin) = (0.0f32, 0);
                // SAFETY: live terrain, valid out-pointers.
                ok(unsafe { relief_terrain_height(terrain, p[0], p[2], &mut q, &mut origin) });
                if origin == RELIEF_ORIGIN_REGION {
                    assert_eq!(h, q, "sample at ({}, {})", p[0], p[2]);
                    assert_eq!(p[1], h as f64, "a flat frame is the world's");
                    samples += 1;
                    on_far_edge += (p[0] == hi[0] || p[2] == hi[1]) as usize;
                }
            });
        });
    }
    println!("{samples} samples checked, {on_far_edge} on the far edges, {cells} cells");
    assert!(
        cells > 100_000 && kinds.len() >= 3,
        "{cells} cells' materials checked, {kinds:?} seen"
    );
    assert!(
        samples > 100_000 && on_far_edge > 100,
        "{samples}, {on_far_edge}"
    );
    // SAFETY: live handles, each freed once.
    unsafe {
        relief_terrain_destroy(terrain);
        relief_runtime_destroy(rt);
        relief_world_destroy(world);
    }
}

/// The face table, as the header's `relief_tile_view` prints it: normal, right, top.
const FACES: [[[f64; 3]; 3]; 6] = [
    [[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
    [[-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]],
    [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    [[0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
];

/// The direction of face sample (gi, gj), by the header's formula.
fn sample_direction(face: usize, gi: u32, gj: u32, n: u32, projection: u32) -> [f64; 3] {
    let plane = |g: u32| {
        let a = (g as f64 + 0.5) * 2.0 / n as f64 - 1.0;
        if projection == 1 {
            (a * std::f64::consts::FRAC_PI_4).tan()
        } else {
            a
        }
    };
    let (u, v) = (plane(gi), plane(gj));
    let [nrm, r, t] = FACES[face];
    let d: [f64; 3] = std::array::from_fn(|c| nrm[c] + u * r[c] + v * t[c]);
    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    d.map(|c| c / len)
}

/// A flight over a planet through face edges and a cube corner: every tile sample lies where
/// the header's face table and projection put it (the height query there answers the
/// sample), and every chunk sample placed by the chunk formula is on the queried ground
/// within a centimetre.
#[test]
fn planet_tiles_and_chunks_lie_where_the_header_places_them() {
    let path = common::scratch("contracts-planet").with_extension("plnt");
    std::fs::write(&path, common::planet_blob("relief")).unwrap();
    let c_path = CString::new(path.to_str().unwrap()).unwrap();
    let mut planet = ptr::null_mut();
    // SAFETY: valid C string and out-pointer.
    ok(unsafe { relief_planet_open(c_path.as_ptr(), &mut planet) });
    let mut info = relief_planet_info {
        struct_size: std::mem::size_of::<relief_planet_info>() as u32,
        ..Default::default()
    };
    // SAFETY: live planet, sized struct.
    ok(unsafe { relief_planet_get_info(planet, &mut info) });
    let r = info.radius;
    let mut cfg = config();
    cfg.load_radius = 3_000.0;
    cfg.drop_radius = 4_000.0;
    cfg.collision_load_radius = 1_500.0;
    cfg.collision_drop_radius = 2_000.0;
    cfg.chunk_size_m = 8.0 * info.spacing;
    let mut rt = ptr::null_mut();
    // SAFETY: live planet, valid config and out-pointer.
    ok(unsafe { relief_planet_runtime_create(planet, &cfg, &mut rt) });
    let mut terrain = ptr::null_mut();
    // SAFETY: live runtime, valid out-pointer.
    ok(unsafe { relief_runtime_create_planet_terrain(rt, &mut terrain) });
    let height_at = |p: &[f64; 3]| {
        let (mut h, mut origin) = (0.0f32, 0);
        // SAFETY: live terrain, 3 doubles, valid out-pointers.
        ok(unsafe { relief_planet_terrain_height(terrain, p.as_ptr(), &mut h, &mut origin) });
        (h, origin)
    };
    // From the +Z face's centre over its edge to the (1, 1, 1) cube corner and on.
    let waypoints = [
        [0.0, 0.0, 1.0],
        [0.5, 0.2, 1.0],
        [1.0, 1.0, 1.0],
        [1.0, 0.4, 0.3],
    ];
    let (mut tile_samples, mut chunk_samples, mut worst) = (0usize, 0usize, 0.0f64);
    let mut planet_cells = 0usize;
    let mut classes = std::collections::HashSet::new();
    for w in waypoints.windows(2) {
        for k in 0..6 {
            let t = k as f64 / 6.0;
            let d: [f64; 3] = std::array::from_fn(|c| w[0][c] + (w[1][c] - w[0][c]) * t);
            let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            let at = d.map(|c| c / len * r);
            settle_and_drain(rt, at, |e| match e.kind {
                RELIEF_EVENT_LOADED => {
                    let mut tile = ptr::null_mut();
                    // SAFETY: live runtime, valid out-pointer.
                    if unsafe {
                        relief_runtime_acquire_tile(rt, e.face, e.x as u32, e.z as u32, &mut tile)
                    } != RELIEF_STATUS_OK
                    {
                        return;
                    }
                    let mut v: relief_tile_view = sized();
                    // SAFETY: live tile, sized view.
                    ok(unsafe { relief_tile_get_view(tile, &mut v) });
                    let s = v.size;
                    // SAFETY: size² heights while the tile is held.
                    let heights = unsafe { std::slice::from_raw_parts(v.height, (s * s) as usize) };
                    for j in 0..s {
                        for i in 0..s {
                            let (gi, gj) = (v.tx * s + i, v.ty * s + j);
                            let d = sample_direction(
                                v.face as usize,
                                gi,
                                gj,
                                info.face_resolution,
                                info.projection,
                            );
                            let (h, origin) = height_at(&d.map(|c| c * r));
                            if origin == RELIEF_ORIGIN_REGION {
                                let want = heights[(j * s + i) as usize];
                                assert!(
                                    (h - want).abs() < 1e-3,
                                    "face {} ({gi}, {gj}): {h} vs {want}",
                                    v.face
                                );
                                tile_samples += 1;
                            }
                        }
                    }
                    // SAFETY: held above, released once.
                    unsafe { relief_tile_release(tile) };
                }
                RELIEF_EVENT_CHUNK_READY => {
                    // Each cell's material is the ground class at its centre (the mean of its
                    // corners): the biome sample nearest there.
                    placed_cells(rt, e, |corners, material| {
                        let mid: [f64; 3] = std::array::from_fn(|k| {
                            corners.iter().map(|c| c[k]).sum::<f64>() / 4.0
                        });
                        let (mut found, mut value) = (0, 0.0);
                        // SAFETY: live terrain, 3 doubles, valid out-pointers.
                        ok(unsafe {
                            relief_planet_terrain_sample(
                                terrain,
                                mid.as_ptr(),
                                RELIEF_PLANET_FIELD_BIOME,
                                &mut found,
                                &mut value,
                            )
                        });
                        if found == 1 {
                            assert_eq!(material as f64, value, "cell at {mid:?}");
                            planet_cells += 1;
                            classes.insert(material);
                        }
                    });
                    placed_samples(rt, e, |p, _| {
                        let (h, origin) = height_at(&p);
                        if origin == RELIEF_ORIGIN_REGION {
                            let from_centre = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                            let gap = (from_centre - (r + h as f64)).abs();
                            worst = worst.max(gap);
                            assert!(gap <= 0.01, "{p:?}: {gap} m off the ground");
                            chunk_samples += 1;
                        }
                    })
                }
                _ => {}
            });
        }
    }
    println!(
        "{tile_samples} tile samples, {chunk_samples} chunk samples (worst {worst:.4} m), \
         {planet_cells} cells"
    );
    assert!(
        planet_cells > 1_000 && classes.len() >= 2,
        "{planet_cells} cells' materials checked, {classes:?} seen"
    );
    assert!(
        tile_samples > 10_000 && chunk_samples > 1_000,
        "{tile_samples}, {chunk_samples}"
    );
    // SAFETY: live handles, each freed once.
    unsafe {
        relief_planet_terrain_destroy(terrain);
        relief_runtime_destroy(rt);
        relief_planet_destroy(planet);
    }
}
