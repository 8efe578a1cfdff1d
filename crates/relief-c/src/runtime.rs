//! `relief_runtime`: everything a game streams around its focus — regions or tiles, collision
//! chunks, far-ground levels — driven by one update a frame, with one event stream. Its
//! config and stats; its events, views and queries live in the modules named after them.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use relief::glam::DVec3;

use super::planet::relief_planet;
use super::sized::{grows_zeroed, read_in, write_out, Grows};
use super::world::relief_world;
use super::{ffi_guard, handle, into_handle, relief_status, require, Failure};
use relief::flat::{Region, RegionLocation, World};
use relief::lod::ClipmapConfig;
use relief::planet::{Planet, PlanetTile, TileKey};
use relief::runtime::{
    BandConfig, ChunkLookup, CollisionConfig, Ground, Runtime, RuntimeConfig, RuntimeError,
    Streamed, ThingLookup, ThingsConfig, UpdateError,
};
use relief::things::{Band, Rules};

use relief::stream::{Resident, Stats, StreamConfig};

/// Everything streamed around a focus, for a flat world or a planet: regions (or tiles),
/// collision chunks over them, far-ground levels (a clipmap, or a planet's LOD rings) and
/// what queries read. Opaque. Every function taking one is safe to call from any thread;
/// `update`, `settle` and `poll_events` are meant for one (the game's main) thread, views and
/// queries for any.
pub struct relief_runtime {
    pub(crate) runtime: Mutex<Runtime>,
    /// What views and queries read, outside the runtime's lock.
    pub(crate) streamed: Streamed,
    pub(crate) chunks: Option<ChunkLookup>,
    pub(crate) things: ThingsHeld,
    flags: u32,
}

/// What a runtime keeps for the thing calls: the lookup, the table, and its kinds' names as
/// C strings.
pub(crate) struct ThingsHeld {
    pub(crate) lookup: ThingLookup,
    pub(crate) rules: Arc<Rules>,
    pub(crate) names: Vec<std::ffi::CString>,
}

impl ThingsHeld {
    pub(crate) fn new(lookup: ThingLookup, rules: Arc<Rules>) -> ThingsHeld {
        let names = rules
            .kinds
            .iter()
            // A table whose names hold a NUL is refused at open.
            .map(|k| std::ffi::CString::new(k.name.as_str()).unwrap_or_default())
            .collect();
        ThingsHeld {
            lookup,
            rules,
            names,
        }
    }
}

/// `relief_runtime_config.flags`: build no collision chunks.
pub const RELIEF_RUNTIME_NO_COLLISION: u32 = 1;
/// `relief_runtime_config.flags`: keep no far-ground levels.
pub const RELIEF_RUNTIME_NO_LEVELS: u32 = 2;
/// `relief_runtime_config.flags`: place no things. Added in 0.3.0.
pub const RELIEF_RUNTIME_NO_THINGS: u32 = 4;

/// How a runtime behaves. Set `struct_size`, fill it with `relief_runtime_config_default`,
/// then change what you need. Distances are metres (great-circle on a planet).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_runtime_config {
    /// sizeof(relief_runtime_config), set by the caller.
    pub struct_size: u32,
    /// `RELIEF_RUNTIME_*` flags, or'ed; 0 = everything.
    pub flags: u32,
    /// The runtime's loader threads, shared by regions or tiles and collision chunks (a free
    /// one takes the nearest job of either), at most 256; 0 = one fewer than the cores, at
    /// least one. Idle ones sleep until there is work. A planet's levels have one more.
    pub loader_threads: u32,
    /// Most microseconds one update spends applying finished loads, per stream (default 500,
    /// at most 1 000 000).
    pub update_budget_us: u32,
    /// Attempts per item before giving up on it (until it leaves and comes back); ≥ 1
    /// (default 4).
    pub max_attempts: u32,
    /// Milliseconds before the first retry; doubles with each attempt (default 250, at most
    /// 3 600 000).
    pub retry_delay_ms: u32,
    /// Regions or tiles start loading within this (default 512) …
    pub load_radius: f64,
    /// … and stay until farther than this (default 704; at least `load_radius`).
    pub drop_radius: f64,
    /// Bytes of ready, cached and in-flight regions or tiles together (default 256 MiB).
    pub budget_bytes: u64,
    /// Collision chunks build within this (default 288) …
    pub collision_load_radius: f64,
    /// … and stay until farther than this (default 352; at least the load radius).
    pub collision_drop_radius: f64,
    /// Bytes of collision chunks (default 64 MiB).
    pub collision_budget_bytes: u64,
    /// Chunk side in metres; 0 for the default. On a flat world, a whole number of the
    /// world's samples, 2 to 4096 of them and no wider than the world (64 m by default). On a
    /// planet, rounded to the nearest size the planet allows: a divisor of the face
    /// resolution, from 2 samples (and face/256) to half a face (64 samples by default, or
    /// the allowed size nearest it). Any other size is INVALID_ARGUMENT from the create call,
    /// its message naming `collision.chunk_size_m` and the range.
    pub chunk_size_m: f64,
    /// Far-ground levels, 1–24 (default 6) …
    pub level_count: u32,
    /// … of this many cells a side: even, 2–4096 (default 128), `level_count · level_size²`
    /// at most 2²⁶ …
    pub level_size: u32,
    /// … level 0's cells this far apart (default 16); level k's `level_spacing_m · 2^k`.
    pub level_spacing_m: f64,
    /// The most events kept until polled, 16 to 2²⁰ (default 4096): beyond it they are
    /// counted and dropped, and an OVERFLOW event says how many. Added in 0.2.1: a 0.2.0
    /// caller gets the default.
    pub event_capacity: u32,
    /// Placed things, per band (index RELIEF_BAND_NEAR, _MID, _FAR): chunk side in metres,
    /// 4 to 1024 (default 32, 64, 128) …
    pub things_chunk_size_m: [f64; 3],
    /// … chunks placed within this (default 64, 160, 384) …
    pub things_load_radius: [f64; 3],
    /// … and kept until farther than this (default 96, 224, 512) …
    pub things_drop_radius: [f64; 3],
    /// … in this many bytes (default 32, 64, 64 MiB). Added in 0.3.0: an older caller gets
    /// the defaults.
    pub things_budget_bytes: [u64; 3],
}

/// A snapshot of a runtime. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_runtime_stats {
    /// sizeof(relief_runtime_stats), set by the caller.
    pub struct_size: u32,
    /// The `RELIEF_RUNTIME_*` flags the runtime was made with.
    pub flags: u32,
    /// Microseconds in the last update: all of it, and its parts.
    pub update_last_us: u32,
    pub pieces_last_us: u32,
    pub levels_last_us: u32,
    pub chunks_last_us: u32,
    /// Microseconds over recent updates: `relief_runtime_update` calls, not
    /// `relief_runtime_settle`'s.
    pub update_p50_us: u32,
    pub update_p99_us: u32,
    pub update_max_us: u32,
    pub reserved: u32,
    /// Level cells rewritten in the last update, and since creation.
    pub level_cells_last: u64,
    pub level_cells_total: u64,
    /// Loading progress, for a loading screen: regions or tiles the focus wants (after
    /// trimming to the budget) and how many of them are ready; likewise collision chunks (0
    /// and 0 without collision). Settled when both pairs are equal (and nothing failed).
    /// Added in 0.2.1.
    pub pieces_wanted: u32,
    pub pieces_ready: u32,
    pub chunks_wanted: u32,
    pub chunks_ready: u32,
    /// Of the wanted, those whose loads failed for good (every attempt spent; the FAILED or
    /// CHUNK_FAILED event said so): they stay unready while wanted, so a loading screen is
    /// done when `ready + failed == wanted` for both. Added in 0.2.1.
    pub pieces_failed: u32,
    pub chunks_failed: u32,
    /// The updates `relief_runtime_settle` made since creation, and the longest of them in
    /// microseconds: a loading screen's work, kept out of the `update_*` figures above (and
    /// the streams' own), which count the game's `relief_runtime_update` calls alone. Added
    /// in 0.2.1.
    pub settle_updates: u32,
    pub settle_update_max_us: u32,
    /// Placed things, all bands together: chunks wanted, ready and failed for good (0
    /// without things), as the pairs above; and microseconds the last update spent on them.
    /// Added in 0.3.0.
    pub things_wanted: u32,
    pub things_ready: u32,
    pub things_failed: u32,
    pub things_last_us: u32,
}

/// One of a runtime's two streams, for `relief_runtime_get_stream_stats`.
pub type relief_stream = u32;
/// The regions (flat world) or tiles (planet).
pub const RELIEF_STREAM_PIECES: relief_stream = 0;
/// The collision chunks.
pub const RELIEF_STREAM_CHUNKS: relief_stream = 1;
/// The thing chunks of one band: RELIEF_STREAM_THINGS + the band (RELIEF_BAND_*). Added in
/// 0.3.0.
pub const RELIEF_STREAM_THINGS: relief_stream = 2;
/// The last band's stream (RELIEF_STREAM_THINGS + RELIEF_BAND_FAR).
pub(crate) const RELIEF_STREAM_THINGS_FAR: relief_stream = 4;

/// A snapshot of one of a runtime's streams. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_stream_stats {
    /// sizeof(relief_stream_stats), set by the caller.
    pub struct_size: u32,
    /// Items wanted and loaded.
    pub ready: u32,
    /// Loaded items beyond the drop radius, kept until the budget needs room.
    pub cached: u32,
    /// Items queued or being read.
    pub in_flight: u32,
    /// Loads waiting for a loader thread.
    pub queue_depth: u32,
    /// Items wanted after trimming to the budget, and how many were trimmed.
    pub wanted: u32,
    pub trimmed: u32,
    /// Microseconds from queueing to ready, over recent loads.
    pub latency_p50_us: u32,
    pub latency_p99_us: u32,
    /// Microseconds this stream spent in `update`: the last one, and over recent ones.
    pub update_last_us: u32,
    pub update_p50_us: u32,
    pub update_p99_us: u32,
    pub update_max_us: u32,
    pub ready_bytes: u64,
    pub cached_bytes: u64,
    pub in_flight_bytes: u64,
    pub budget_bytes: u64,
    /// Totals since creation.
    pub loads: u64,
    pub failures: u64,
    pub evictions: u64,
}

// SAFETY: repr(C), numbers only, starting with struct_size.
unsafe impl Grows for relief_runtime_config {
    const FIRST: usize = 96;
    fn defaults() -> Self {
        default_config()
    }
}
grows_zeroed!(relief_runtime_stats = 56, relief_stream_stats = 112);

fn default_config() -> relief_runtime_config {
    let r = RuntimeConfig::default();
    let c = r.collision.unwrap_or_default();
    let l = r.lod.unwrap_or_default();
    let p = &r.pieces;
    let t = ThingsConfig::default();
    let per_band =
        |f: &dyn Fn(&relief::runtime::BandConfig) -> f64| Band::ALL.map(|b| f(t.band(b)));
    relief_runtime_config {
        struct_size: std::mem::size_of::<relief_runtime_config>() as u32,
        flags: 0,
        loader_threads: r.loader_threads as u32,
        update_budget_us: p.update_budget.as_micros() as u32,
        max_attempts: p.max_attempts,
        retry_delay_ms: p.retry_delay.as_millis() as u32,
        load_radius: p.load_radius,
        drop_radius: p.drop_radius,
        budget_bytes: p.budget_bytes as u64,
        collision_load_radius: c.stream.load_radius,
        collision_drop_radius: c.stream.drop_radius,
        collision_budget_bytes: c.stream.budget_bytes as u64,
        chunk_size_m: c.chunk_size_m,
        level_count: l.levels,
        level_size: l.size,
        level_spacing_m: l.base_spacing,
        event_capacity: r.event_capacity.min(u32::MAX as usize) as u32,
        things_chunk_size_m: per_band(&|b| b.chunk_size_m),
        things_load_radius: per_band(&|b| b.stream.load_radius),
        things_drop_radius: per_band(&|b| b.stream.drop_radius),
        things_budget_bytes: Band::ALL.map(|b| t.band(b).stream.budget_bytes as u64),
    }
}

/// The C config in Rust's form, unchecked: the core checks it ([`RuntimeConfig::validate`])
/// and [`c_field`] names a refused field as this struct does.
fn to_rust(c: &relief_runtime_config) -> RuntimeConfig {
    let bytes = |b: u64| usize::try_from(b).unwrap_or(usize::MAX);
    let stream = |load_radius, drop_radius, budget| StreamConfig {
        load_radius,
        drop_radius,
        budget_bytes: bytes(budget),
        update_budget: Duration::from_micros(c.update_budget_us as u64),
        max_attempts: c.max_attempts,
        retry_delay: Duration::from_millis(c.retry_delay_ms as u64),
    };
    RuntimeConfig {
        pieces: stream(c.load_radius, c.drop_radius, c.budget_bytes),
        collision: (c.flags & RELIEF_RUNTIME_NO_COLLISION == 0).then(|| CollisionConfig {
            stream: stream(
                c.collision_load_radius,
                c.collision_drop_radius,
                c.collision_budget_bytes,
            ),
            chunk_size_m: c.chunk_size_m,
        }),
        lod: (c.flags & RELIEF_RUNTIME_NO_LEVELS == 0).then_some(ClipmapConfig {
            levels: c.level_count,
            size: c.level_size,
            base_spacing: c.level_spacing_m,
        }),
        things: (c.flags & RELIEF_RUNTIME_NO_THINGS == 0).then(|| {
            let band = |i: usize| BandConfig {
                stream: stream(
                    c.things_load_radius[i],
                    c.things_drop_radius[i],
                    c.things_budget_bytes[i],
                ),
                chunk_size_m: c.things_chunk_size_m[i],
            };
            ThingsConfig {
                near: band(0),
                mid: band(1),
                far: band(2),
            }
        }),
        loader_threads: c.loader_threads as usize,
        event_capacity: c.event_capacity as usize,
    }
}

/// A refused field's Rust path (`collision.stream.load_radius`) as `relief_runtime_config`
/// spells it (`collision_load_radius`).
pub(crate) fn c_field(path: &str) -> String {
    let (part, field) = match path.split_once('.') {
        Some((part, rest)) => (part, rest.trim_start_matches("stream.")),
        None => ("", path),
    };
    let field = match field {
        "update_budget" => "update_budget_us",
        "retry_delay" => "retry_delay_ms",
        "levels" => "level_count",
        "size" => "level_size",
        "base_spacing" => "level_spacing_m",
        other => other,
    };
    match (part, field) {
        ("collision", "load_radius" | "drop_radius" | "budget_bytes") => {
            format!("collision_{field}")
        }
        // things.near.stream.load_radius → things_load_radius[RELIEF_BAND_NEAR]
        ("things", rest) => match rest.split_once('.') {
            Some((band, field)) => format!(
                "things_{}[RELIEF_BAND_{}]",
                field.trim_start_matches("stream."),
                band.to_uppercase()
            ),
            None => format!("things_{rest}"),
        },
        _ => field.to_string(),
    }
}

/// The caller's config checked (NULL for the defaults).
///
/// # Safety
/// `config` NULL or readable for its `struct_size`.
unsafe fn read_config(
    what: &str,
    config: *const relief_runtime_config,
) -> Result<(RuntimeConfig, u32), Failure> {
    let c = if config.is_null() {
        default_config()
    } else {
        // SAFETY: non-NULL, forwarded contract.
        unsafe { read_in(what, config) }?
    };
    let known = RELIEF_RUNTIME_NO_COLLISION | RELIEF_RUNTIME_NO_LEVELS | RELIEF_RUNTIME_NO_THINGS;
    if c.flags & !known != 0 {
        return Err(Failure::invalid(format!(
            "{what}: unknown flags {:#x}",
            c.flags
        )));
    }
    Ok((to_rust(&c), c.flags))
}

/// Fills `*config` with the defaults. Set `config->struct_size` to
/// `sizeof(relief_runtime_config)` first: relief writes that many bytes at most. Errors:
/// INVALID_ARGUMENT (NULL `config`, a `struct_size` this relief doesn't read); `*config` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `config` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_config_default(
    config: *mut relief_runtime_config,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_config_default";
        require(what, &[("config", config.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, config, default_config()) }
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
    let (config, flags) = unsafe { read_config(what, config) }?;
    let runtime = Runtime::new(ground, config).map_err(|e| match e {
        RuntimeError::Config(e) => {
            Failure::invalid(format!("{what}: {}: {}", c_field(&e.field), e.problem))
        }
        RuntimeError::Format(e) => Failure::from(e),
    })?;
    let rules = runtime
        .things()
        .map_or_else(|| Arc::new(Rules::none()), |t| t.rules().clone());
    let h = into_handle(relief_runtime {
        streamed: runtime.streamed().clone(),
        chunks: runtime.chunk_lookup().cloned(),
        things: ThingsHeld::new(runtime.thing_lookup().clone(), rules),
        runtime: Mutex::new(runtime),
        flags,
    });
    // SAFETY: checked non-NULL.
    unsafe { *out = h };
    Ok(())
}

/// Creates a runtime streaming `world`'s regions with `config` (NULL for the defaults). Its
/// loader threads start now; nothing loads until the first `relief_runtime_update`. On
/// success writes a new handle to `*out_runtime` (free with `relief_runtime_destroy`); it
/// keeps the world alive. On failure `*out_runtime` is untouched. Errors: INVALID_ARGUMENT
/// (NULL `world`/`out_runtime`, a `struct_size` this relief doesn't read, unknown flags,
/// a bad radius, budget, level shape or chunk size: the message names the field). Threads: any.
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

/// Frees a runtime: stops its loader threads without waiting for a load in progress (one
/// behind a stalled server ends on its own, after its timeout, its result discarded), so it
/// returns within milliseconds (`relief bench`'s `destroy.stalled_ms`). Regions, tiles and
/// chunks held from it stay valid until released; terrains made from it stay usable. NULL is
/// a no-op.
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
/// two and LEVELS_DIRTY reports them when they arrive. Errors: INVALID_ARGUMENT (NULL handle,
/// a non-finite position, a planet's centre: nothing changes); PANIC when the planet's ring
/// thread panicked since the last update (a bug in relief, also a LEVELS_FAILED event: the
/// update did everything else, the handle is not poisoned, the levels start again from
/// scratch). Threads: one thread (the game's main thread) at a time.
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
            .map_err(|e| update_failure(what, e))
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
            .map_err(|e| update_failure(what, e))
    })
}

/// Updates until every piece and chunk the focus wants is loaded (or has failed for good) or
/// `timeout_ms` passes; writes 1 to `*out_settled` if everything settled, else 0. For
/// loading screens, tests and tools, never per frame. Piece and chunk events queue up as
/// usual; instead of one LEVELS_DIRTY per inner update (whose rectangles only the last would
/// keep) it queues one at its end, after its other events, with `relief_runtime_get_dirty`
/// listing every level whole.
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
            .map_err(|e| update_failure(what, e))?;
        // SAFETY: checked non-NULL.
        unsafe { *out_settled = done as u32 };
        Ok(())
    })
}

/// Fills `*stats` (its `struct_size` set) with a snapshot of the whole runtime: about a
/// microsecond, cheap enough for every frame (it waits for an update running on another
/// thread). Errors:
/// INVALID_ARGUMENT (NULL handle or `stats`, a `struct_size` this relief doesn't read);
/// `*stats` is untouched on failure. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `stats` NULL or writable for its `struct_size`.
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
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::check_size(what, stats) }?;
        let s = r.runtime.lock().stats();
        let filled = relief_runtime_stats {
            struct_size: std::mem::size_of::<relief_runtime_stats>() as u32,
            flags: r.flags,
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
            pieces_wanted: count(s.pieces.wanted),
            pieces_ready: count(s.pieces.ready),
            chunks_wanted: s.chunks.as_ref().map_or(0, |c| count(c.wanted)),
            chunks_ready: s.chunks.as_ref().map_or(0, |c| count(c.ready)),
            pieces_failed: count(s.pieces.gave_up),
            chunks_failed: s.chunks.as_ref().map_or(0, |c| count(c.gave_up)),
            settle_updates: s.settle_updates.min(u32::MAX as u64) as u32,
            settle_update_max_us: micros(s.settle_update_max),
            things_wanted: count(s.things.iter().flatten().map(|t| t.wanted).sum()),
            things_ready: count(s.things.iter().flatten().map(|t| t.ready).sum()),
            things_failed: count(s.things.iter().flatten().map(|t| t.gave_up).sum()),
            things_last_us: micros(s.last.things),
        };
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, stats, filled) }
    })
}

/// Fills `*stats` (its `struct_size` set) with a snapshot of one stream: `stream` is
/// RELIEF_STREAM_PIECES (regions or tiles), RELIEF_STREAM_CHUNKS (collision) or
/// RELIEF_STREAM_THINGS + a RELIEF_BAND_* (one band's thing chunks). Errors:
/// INVALID_ARGUMENT (NULL handle or `stats`, a `struct_size` this relief doesn't read, an
/// unknown `stream`, CHUNKS on a runtime made with RELIEF_RUNTIME_NO_COLLISION, THINGS of a
/// band the runtime places nothing in); `*stats` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `stats` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_stream_stats(
    runtime: *const relief_runtime,
    stream: relief_stream,
    stats: *mut relief_stream_stats,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_stream_stats";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("stats", stats.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::check_size(what, stats) }?;
        let rt = r.runtime.lock();
        let s = match stream {
            RELIEF_STREAM_PIECES => rt.pieces().stats(),
            RELIEF_STREAM_CHUNKS => rt
                .chunks()
                .ok_or_else(|| {
                    Failure::invalid(format!("{what}: this runtime builds no collision"))
                })?
                .stats(),
            s @ RELIEF_STREAM_THINGS..=RELIEF_STREAM_THINGS_FAR => rt.stats().things
                [(s - RELIEF_STREAM_THINGS) as usize]
                .clone()
                .ok_or_else(|| {
                    Failure::invalid(format!(
                        "{what}: this runtime places no things in band {}",
                        s - RELIEF_STREAM_THINGS
                    ))
                })?,
            other => {
                return Err(Failure::invalid(format!(
                    "{what}: stream {other} is not a RELIEF_STREAM_*"
                )))
            }
        };
        drop(rt);
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, stats, stream_stats(&s)) }
    })
}

/// An update's error as a status: a bad focus is the caller's (INVALID_ARGUMENT, nothing
/// changed); a ring thread's panic is relief's (PANIC, reported once, the handle not poisoned:
/// the update did everything else).
fn update_failure(what: &str, e: UpdateError) -> Failure {
    let status = match e {
        UpdateError::Focus(_) => super::RELIEF_STATUS_INVALID_ARGUMENT,
        UpdateError::LevelsPanicked(_) => super::RELIEF_STATUS_PANIC,
    };
    Failure {
        status,
        message: format!("{what}: {e}"),
    }
}

pub(crate) fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

fn count(n: usize) -> u32 {
    n.min(u32::MAX as usize) as u32
}

/// A stream's stats in C's form.
fn stream_stats(s: &Stats) -> relief_stream_stats {
    let c = count;
    relief_stream_stats {
        struct_size: std::mem::size_of::<relief_stream_stats>() as u32,
        ready: c(s.ready),
        cached: c(s.cached),
        in_flight: c(s.in_flight),
        queue_depth: c(s.queue_depth),
        wanted: c(s.wanted),
        trimmed: c(s.trimmed),
        latency_p50_us: micros(s.latency_p50),
        latency_p99_us: micros(s.latency_p99),
        update_last_us: micros(s.update_last),
        update_p50_us: micros(s.update_p50),
        update_p99_us: micros(s.update_p99),
        update_max_us: micros(s.update_max),
        ready_bytes: s.ready_bytes as u64,
        cached_bytes: s.cached_bytes as u64,
        in_flight_bytes: s.in_flight_bytes as u64,
        budget_bytes: s.budget_bytes as u64,
        loads: s.loads,
        failures: s.failures,
        evictions: s.evictions,
    }
}

/// The flat world and its resident regions, or an error naming the planet calls.
pub(crate) fn flat<'a>(
    what: &str,
    streamed: &'a Streamed,
) -> Result<(&'a Arc<World>, &'a Resident<RegionLocation, Region>), Failure> {
    match streamed {
        Streamed::Flat { world, regions } => Ok((world, regions)),
        Streamed::Planet { .. } => Err(Failure::invalid(format!(
            "{what}: this runtime streams a planet's tiles; use the tile and planet calls"
        ))),
    }
}

/// The planet and its resident tiles, or an error saying the ground is flat.
pub(crate) fn planet<'a>(
    what: &str,
    streamed: &'a Streamed,
) -> Result<(&'a Arc<Planet>, &'a Resident<TileKey, PlanetTile>), Failure> {
    match streamed {
        Streamed::Planet { planet, tiles } => Ok((planet, tiles)),
        Streamed::Flat { .. } => Err(Failure::invalid(format!(
            "{what}: this runtime streams a flat world's regions, not a planet's tiles"
        ))),
    }
}
