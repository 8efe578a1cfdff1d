//! `relief_runtime`: everything a game streams around its focus — regions or tiles, collision
//! chunks, far-ground levels — driven by one update a frame, with one event stream. The
//! objects it holds are read through the same view types as the separate objects'.

use parking_lot::Mutex;
use relief::glam::DVec3;

use super::clipmap::{
    copy_dirty, level_view, relief_clipmap_config, relief_clipmap_level, relief_dirty_rect,
};
use super::collision::{acquire_chunk, chunk_at, relief_chunk_view};
use super::planet::relief_planet;
use super::planet_terrain::{create_planet_terrain, relief_planet_terrain};
use super::region::{acquire_region, relief_region_view};
use super::streaming::{
    event_of, fill_events, micros, relief_event, relief_stream_config, relief_stream_stats,
    stream_stats, RELIEF_EVENT_CHUNK_READY, RELIEF_EVENT_LEVELS_DIRTY,
};
use super::terrain::{create_terrain, relief_terrain};
use super::tile::{acquire_tile, relief_tile_view};
use super::world::relief_world;
use super::{
    check_struct_size, ffi_guard, handle, into_handle, relief_status, require, slice_out, Failure,
};
use relief::runtime::{
    ChunkLookup, CollisionConfig, Ground, Runtime, RuntimeConfig, RuntimeError, RuntimeEvent,
    Streamed,
};
use relief::stream::StreamConfig;

/// Everything streamed around a focus, for a flat world or a planet: the region (or tile)
/// streamer, collision chunks over its resident pieces, far-ground levels (a clipmap, or a
/// planet's LOD rings) and what queries read. Opaque. Every function taking one is safe to
/// call from any thread; `update`, `settle` and `poll_events` are meant for one (the game's
/// main) thread, views and queries for any.
pub struct relief_runtime {
    runtime: Mutex<Runtime>,
    /// What views and queries read, outside the runtime's lock.
    streamed: Streamed,
    chunks: Option<ChunkLookup>,
}

/// `relief_runtime_config.flags`: build no collision chunks.
pub const RELIEF_RUNTIME_NO_COLLISION: u32 = 1;
/// `relief_runtime_config.flags`: keep no far-ground levels.
pub const RELIEF_RUNTIME_NO_LEVELS: u32 = 2;

/// How a runtime behaves. Get one from `relief_runtime_config_default` (which sets every
/// `struct_size`, the nested ones too), then change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_runtime_config {
    /// sizeof(relief_runtime_config), set by the caller (the default call sets it).
    pub struct_size: u32,
    /// `RELIEF_RUNTIME_*` flags, or'ed; 0 = everything.
    pub flags: u32,
    /// Regions or tiles: within 512 m, kept to 704 m, 256 MiB by default.
    pub pieces: relief_stream_config,
    /// Collision chunks: within 288 m, kept to 352 m, 64 MiB by default.
    pub collision: relief_stream_config,
    /// Chunk side, metres; 0 for the default (64 m on a flat world, 64 samples on a planet).
    pub chunk_size_m: f64,
    /// Far-ground levels: 6 of 128² from 16 m by default.
    pub levels: relief_clipmap_config,
}

/// A snapshot of a runtime. Set `struct_size` first (the nested structs are filled whole).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_runtime_stats {
    /// sizeof(relief_runtime_stats), set by the caller.
    pub struct_size: u32,
    /// 1 if the runtime builds collision (`chunks` is meaningful), else 0.
    pub has_chunks: u32,
    /// The region or tile streamer.
    pub pieces: relief_stream_stats,
    /// The collision chunk streamer (zero without collision).
    pub chunks: relief_stream_stats,
    /// Microseconds in the last update: all of it, and its parts.
    pub update_last_us: u32,
    pub pieces_last_us: u32,
    pub levels_last_us: u32,
    pub chunks_last_us: u32,
    /// Microseconds over recent updates.
    pub update_p50_us: u32,
    pub update_p99_us: u32,
    pub update_max_us: u32,
    /// Always 0.
    pub reserved: u32,
    /// Level cells rewritten in the last update, and since creation.
    pub level_cells_last: u64,
    pub level_cells_total: u64,
}

fn default_config() -> relief_runtime_config {
    let r = RuntimeConfig::default();
    let collision = r.collision.unwrap_or_default();
    relief_runtime_config {
        struct_size: std::mem::size_of::<relief_runtime_config>() as u32,
        flags: 0,
        pieces: relief_stream_config::from_rust(&r.pieces),
        collision: relief_stream_config::from_rust(&collision.stream),
        chunk_size_m: collision.chunk_size_m,
        levels: super::clipmap::defaults(),
    }
}

/// The caller's config checked (NULL for the defaults).
///
/// # Safety
/// `config` NULL or readable.
unsafe fn read_config(
    what: &str,
    config: *const relief_runtime_config,
) -> Result<RuntimeConfig, Failure> {
    let c = if config.is_null() {
        default_config()
    } else {
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::read_sized(what, config) }?
    };
    if c.flags & !(RELIEF_RUNTIME_NO_COLLISION | RELIEF_RUNTIME_NO_LEVELS) != 0 {
        return Err(Failure::invalid(format!(
            "{what}: unknown flags {:#x}",
            c.flags
        )));
    }
    // SAFETY: pointers to fields of a local.
    let pieces = unsafe { relief_stream_config::read(what, &c.pieces, StreamConfig::default()) }?;
    let collision = if c.flags & RELIEF_RUNTIME_NO_COLLISION == 0 {
        // SAFETY: as above.
        let stream =
            unsafe { relief_stream_config::read(what, &c.collision, StreamConfig::default()) }?;
        Some(CollisionConfig {
            stream,
            chunk_size_m: c.chunk_size_m,
        })
    } else {
        None
    };
    let lod = if c.flags & RELIEF_RUNTIME_NO_LEVELS == 0 {
        // SAFETY: as above.
        Some(unsafe { super::clipmap::read_config(what, &c.levels) }?)
    } else {
        None
    };
    Ok(RuntimeConfig {
        pieces,
        collision,
        lod,
    })
}

/// Fills `*config` with the defaults, every `struct_size` included. Errors:
/// INVALID_ARGUMENT (NULL `config`); `*config` is untouched on failure. Threads: any.
///
/// # Safety
/// `config` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_config_default(
    config: *mut relief_runtime_config,
) -> relief_status {
    ffi_guard!({
        require(
            "relief_runtime_config_default",
            &[("config", config.is_null())],
        )?;
        // SAFETY: checked non-NULL.
        unsafe { config.write_unaligned(default_config()) };
        Ok(())
    })
}

/// Starts a runtime over `ground` and writes its handle.
///
/// # Safety
/// `config` NULL or readable; `out` NULL or writable.
unsafe fn create(
    what: &str,
    ground: Ground,
    config: *const relief_runtime_config,
    out: *mut *mut relief_runtime,
) -> Result<(), Failure> {
    require(what, &[("out_runtime", out.is_null())])?;
    // SAFETY: forwarded contract.
    let config = unsafe { read_config(what, config) }?;
    let runtime = Runtime::new(ground, config).map_err(|e| match e {
        RuntimeError::Config(e) => super::config_failure(what, &e),
        RuntimeError::Format(e) => Failure::from(e),
    })?;
    let h = into_handle(relief_runtime {
        streamed: runtime.streamed().clone(),
        chunks: runtime.chunk_lookup().cloned(),
        runtime: Mutex::new(runtime),
    });
    // SAFETY: checked non-NULL.
    unsafe { *out = h };
    Ok(())
}

/// Creates a runtime streaming `world`'s regions with `config` (NULL for the defaults). Its
/// loader threads start now; nothing loads until the first `relief_runtime_update`. On
/// success writes a new handle to `*out_runtime` (free with `relief_runtime_destroy`); it
/// keeps the world alive. On failure `*out_runtime` is untouched. Errors: INVALID_ARGUMENT
/// (NULL `world`/`out_runtime`, unknown `struct_size` in `config` or its nested structs,
/// unknown flags, a bad radius, budget, level shape or chunk size). Threads: any.
///
/// # Safety
/// `world` NULL or live; `config` NULL or readable; `out_runtime` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_create(
    world: *const relief_world,
    config: *const relief_runtime_config,
    out_runtime: *mut *mut relief_runtime,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_create";
        // SAFETY: forwarded contract.
        let world = unsafe { handle(what, world) }?.world.clone();
        // SAFETY: forwarded contract.
        unsafe { create(what, Ground::Flat(world), config, out_runtime) }
    })
}

/// Creates a runtime streaming `planet`'s tiles (wanted by great-circle distance), with
/// planet collision chunks in their own tangent frames and LOD rings; otherwise as
/// `relief_runtime_create`. Errors: INVALID_ARGUMENT (NULL `planet`/`out_runtime`, and the
/// config errors of `relief_runtime_create`), CORRUPT if the planet's river or lake tables
/// fail their checks. Threads: any.
///
/// # Safety
/// `planet` NULL or live; `config` NULL or readable; `out_runtime` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_runtime_create(
    planet: *const relief_planet,
    config: *const relief_runtime_config,
    out_runtime: *mut *mut relief_runtime,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_runtime_create";
        // SAFETY: forwarded contract.
        let planet = unsafe { handle(what, planet) }?.planet.clone();
        // SAFETY: forwarded contract.
        unsafe { create(what, Ground::Planet(planet), config, out_runtime) }
    })
}

/// Frees a runtime: stops its loader threads (waiting for reads in progress). Views acquired
/// from it stay valid until released; terrains made from it stay usable. NULL is a no-op.
/// Threads: any, but not while another thread uses this handle.
///
/// # Safety
/// `runtime` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_destroy(runtime: *mut relief_runtime) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(runtime) }
}

/// One frame around the focus (x, y, z): world metres on a flat world (y ignored), the
/// planet frame on a planet. Applies finished loads (within the pieces' update budget), moves
/// the levels and refreshes them over pieces that arrived, re-plans collision chunks, and
/// queues what happened for `relief_runtime_poll_events`. Never reads files or blocks on
/// I/O. A planet's rings are built on a thread of their own: an update takes what that
/// thread finished (a swap, no fill), so the rings shown may trail the focus by a frame or
/// two and LEVELS_DIRTY reports them when they arrive. Errors: INVALID_ARGUMENT (NULL handle, a non-finite position, a planet's centre:
/// nothing changes). Threads: one thread (the game's main thread) at a time.
///
/// # Safety
/// `runtime` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_update(
    runtime: *const relief_runtime,
    x: f64,
    y: f64,
    z: f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_update";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        r.runtime
            .lock()
            .update(DVec3::new(x, y, z))
            .map_err(|e| Failure::invalid(format!("{what}: {e}")))
    })
}

/// `relief_runtime_update` for a game whose camera is not where it streams: regions (or
/// tiles) and collision follow the focus (`fx`, `fy`, `fz`: the player), the levels follow
/// the camera (`cx`, `cy`, `cz`: what the far ground is drawn around). Positions as in
/// `relief_runtime_update`. Errors: INVALID_ARGUMENT (NULL handle, either position not finite
/// or at a planet's centre: nothing changes). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_update_with_camera(
    runtime: *const relief_runtime,
    fx: f64,
    fy: f64,
    fz: f64,
    cx: f64,
    cy: f64,
    cz: f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_update_with_camera";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        r.runtime
            .lock()
            .update_with_camera(DVec3::new(fx, fy, fz), DVec3::new(cx, cy, cz))
            .map_err(|e| Failure::invalid(format!("{what}: {e}")))
    })
}

/// Updates until every piece and chunk the focus wants is loaded (or has failed for good) or
/// `timeout_ms` passes; writes 1 to `*out_settled` if everything settled, else 0. For
/// loading screens, tests and tools, never per frame. Events queue up as usual.
/// Errors: INVALID_ARGUMENT (NULL handle or `out_settled`, a bad position as in
/// `relief_runtime_update`). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `out_settled` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_settle(
    runtime: *const relief_runtime,
    x: f64,
    y: f64,
    z: f64,
    timeout_ms: u32,
    out_settled: *mut u32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_settle";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_settled", out_settled.is_null())])?;
        let timeout = std::time::Duration::from_millis(timeout_ms as u64);
        let done = r
            .runtime
            .lock()
            .settle(DVec3::new(x, y, z), timeout)
            .map_err(|e| Failure::invalid(format!("{what}: {e}")))?;
        // SAFETY: checked non-NULL.
        unsafe { *out_settled = done as u32 };
        Ok(())
    })
}

fn runtime_event(e: RuntimeEvent) -> relief_event {
    match e {
        RuntimeEvent::Piece(e) => event_of(e),
        RuntimeEvent::Chunk(e) => {
            let e = event_of(e);
            relief_event {
                kind: e.kind + RELIEF_EVENT_CHUNK_READY,
                ..e
            }
        }
        RuntimeEvent::LevelsDirty { rects } => relief_event {
            kind: RELIEF_EVENT_LEVELS_DIRTY,
            x: rects.min(i32::MAX as usize) as i32,
            ..Default::default()
        },
    }
}

/// Moves up to `capacity` pending events, oldest first, into `events` and writes how many to
/// `*out_count`. Pieces report LOADED, UNLOADED and FAILED ((face, x, z) is a region's
/// location with face 0, or a tile's (face, tx, ty)); chunks CHUNK_READY, CHUNK_DROPPED and
/// CHUNK_FAILED; the levels LEVELS_DIRTY. `event_size` is `sizeof(relief_event)`. Events not
/// taken stay queued. `(NULL, 0)` takes none. Errors: INVALID_ARGUMENT (NULL handle or
/// `out_count`, an `event_size` this relief doesn't know, NULL `events` with a non-zero
/// `capacity`). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `events` NULL or writable for `capacity` events of `event_size`
/// bytes; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_poll_events(
    runtime: *const relief_runtime,
    events: *mut relief_event,
    event_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_poll_events";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_count", out_count.is_null())])?;
        super::check_element_size::<relief_event>(what, "event_size", event_size)?;
        // SAFETY: forwarded contract.
        let buf = unsafe { slice_out(what, events, capacity) }?;
        let mut rt = r.runtime.lock();
        let n = fill_events(buf, || rt.poll_event().map(runtime_event));
        // SAFETY: checked non-NULL.
        unsafe { *out_count = n };
        Ok(())
    })
}

/// Fills `*stats` (its `struct_size` set) with a snapshot; cheap enough for every frame.
/// Errors: INVALID_ARGUMENT (NULL handle or `stats`, unknown `struct_size`); `*stats` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `stats` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_stats(
    runtime: *const relief_runtime,
    stats: *mut relief_runtime_stats,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_stats";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("stats", stats.is_null())])?;
        // SAFETY: non-NULL.
        unsafe { check_struct_size(what, stats) }?;
        let s = r.runtime.lock().stats();
        let filled = relief_runtime_stats {
            struct_size: std::mem::size_of::<relief_runtime_stats>() as u32,
            has_chunks: s.chunks.is_some() as u32,
            pieces: stream_stats(&s.pieces),
            chunks: s.chunks.as_ref().map(stream_stats).unwrap_or_default(),
            update_last_us: micros(s.last.total),
            pieces_last_us: micros(s.last.pieces),
            levels_last_us: micros(s.last.lod),
            chunks_last_us: micros(s.last.chunks),
            update_p50_us: micros(s.update_p50),
            update_p99_us: micros(s.update_p99),
            update_max_us: micros(s.update_max),
            reserved: 0,
            level_cells_last: s.lod_cells_last,
            level_cells_total: s.lod_cells_total,
        };
        // SAFETY: checked non-NULL and of our size.
        unsafe { stats.write_unaligned(filled) };
        Ok(())
    })
}

/// Copies the level rectangles the last update rewrote (every level, may overlap) into
/// `rects` (room for `capacity` of `rect_size` bytes: pass `sizeof(relief_dirty_rect)`) and
/// writes their count to `*out_count`; `(NULL, 0)` writes only the count (0 without levels).
/// Errors: INVALID_ARGUMENT (NULL `runtime`/`out_count`, a `rect_size` this relief doesn't
/// know, NULL `rects` with a non-zero `capacity`, or a non-zero `capacity` below the count,
/// when nothing is written). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `rects` NULL or writable for `capacity` rects of `rect_size` bytes;
/// `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_dirty(
    runtime: *const relief_runtime,
    rects: *mut relief_dirty_rect,
    rect_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_dirty";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        let rt = r.runtime.lock();
        // SAFETY: forwarded contract.
        unsafe { copy_dirty(what, rt.dirty(), rects, rect_size, capacity, out_count) }
    })
}

/// Fills `*out_level` (its `struct_size` set) with level `level`'s view, as
/// `relief_clipmap_get_level`; valid until the next update or destroy. Errors:
/// INVALID_ARGUMENT (NULL arguments, unknown `struct_size`, `level` ≥ the level count, a
/// runtime made with RELIEF_RUNTIME_NO_LEVELS). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `out_level` NULL or a writable `relief_clipmap_level`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_level(
    runtime: *const relief_runtime,
    level: u32,
    out_level: *mut relief_clipmap_level,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_level";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        let rt = r.runtime.lock();
        let lod = rt
            .lod()
            .ok_or_else(|| Failure::invalid(format!("{what}: this runtime keeps no levels")))?;
        // SAFETY: forwarded contract.
        unsafe { level_view(what, lod, level, out_level) }
    })
}

/// Acquires a view of resident region (x, z), as `relief_region_acquire` (release with
/// `relief_region_release`). Errors: as `relief_region_acquire` (INVALID_ARGUMENT for a NULL
/// `runtime` or `view`), and INVALID_ARGUMENT on a planet's runtime. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `view` NULL or a writable `relief_region_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_region(
    runtime: *const relief_runtime,
    x: i32,
    z: i32,
    view: *mut relief_region_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_region";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_region(what, &r.streamed, x, z, view) }
    })
}

/// Acquires a view of resident planet tile (face, tx, ty), as `relief_tile_acquire` (release
/// with `relief_tile_release`). Errors: as `relief_tile_acquire` (INVALID_ARGUMENT for a NULL
/// `runtime` or `view`), and INVALID_ARGUMENT on a flat world's runtime. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `view` NULL or a writable `relief_tile_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_tile(
    runtime: *const relief_runtime,
    face: u32,
    tx: u32,
    ty: u32,
    view: *mut relief_tile_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_tile";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_tile(what, &r.streamed, face, tx, ty, view) }
    })
}

/// The runtime's chunk lookup, or an error if it builds no collision.
fn chunks<'a>(what: &str, r: &'a relief_runtime) -> Result<&'a ChunkLookup, Failure> {
    r.chunks
        .as_ref()
        .ok_or_else(|| Failure::invalid(format!("{what}: this runtime builds no collision")))
}

/// Writes the collision chunk containing `position` (3 doubles) to `*out_face`, `*out_x`,
/// `*out_z`, as `relief_collision_chunk_at`. Errors: as `relief_collision_chunk_at`
/// (INVALID_ARGUMENT for NULL arguments), and INVALID_ARGUMENT for a runtime made with
/// RELIEF_RUNTIME_NO_COLLISION. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `position` NULL or 3 readable doubles; out-pointers NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_chunk_at(
    runtime: *const relief_runtime,
    position: *const f64,
    out_face: *mut u32,
    out_x: *mut i32,
    out_z: *mut i32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_chunk_at";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { chunk_at(what, chunks(what, r)?, position, out_face, out_x, out_z) }
    })
}

/// Acquires a view of built chunk (face, x, z), as `relief_collision_acquire` (release with
/// `relief_collision_release`). Errors: as `relief_collision_acquire` (INVALID_ARGUMENT for a
/// NULL `runtime` or `view`), and INVALID_ARGUMENT for a runtime made with
/// RELIEF_RUNTIME_NO_COLLISION. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `view` NULL or a writable `relief_chunk_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_chunk(
    runtime: *const relief_runtime,
    face: u32,
    x: i32,
    z: i32,
    view: *mut relief_chunk_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_chunk";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_chunk(what, chunks(what, r)?, face, x, z, view) }
    })
}

/// Creates a query handle over a flat world's runtime, as `relief_terrain_create` (free with
/// `relief_terrain_destroy`; it may outlive the runtime). Errors: INVALID_ARGUMENT (NULL
/// arguments, a planet's runtime). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_terrain` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_create_terrain(
    runtime: *const relief_runtime,
    out_terrain: *mut *mut relief_terrain,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_create_terrain";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { create_terrain(what, &r.streamed, out_terrain) }
    })
}

/// Creates a query handle over a planet's runtime, as `relief_planet_terrain_create` (free
/// with `relief_planet_terrain_destroy`). Errors: INVALID_ARGUMENT (NULL arguments, a flat
/// world's runtime), CORRUPT (the river or lake table fails its checks). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_terrain` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_create_planet_terrain(
    runtime: *const relief_runtime,
    out_terrain: *mut *mut relief_planet_terrain,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_create_planet_terrain";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { create_planet_terrain(what, &r.streamed, out_terrain) }
    })
}
