//! `relief_streamer`: a flat world's regions, or a planet's tiles, streamed around a focus
//! on background threads.

use relief::glam::DVec3;
use std::sync::Arc;

use parking_lot::Mutex;

use super::planet::relief_planet;
use super::streaming::{
    poll_into, relief_event, relief_stream_config, relief_stream_stats, settle_into, write_stats,
};
use super::world::relief_world;
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};
use relief::flat::{Region, RegionLocation, World};
use relief::planet::{Planet, PlanetTile, TileKey};
use relief::runtime::{Ground, Pieces, Streamed};
use relief::stream::{Resident, StreamConfig};

/// Regions (or planet tiles) streaming around a focus. Opaque. Every function taking one is
/// safe to call from any thread, but `update` and `poll_events` are meant for one (the
/// game's main) thread.
pub struct relief_streamer {
    pub(crate) stream: Mutex<Pieces>,
    /// What views and queries read, outside the streamer's lock.
    pub(crate) streamed: Streamed,
}

impl relief_streamer {
    fn new(pieces: Pieces) -> relief_streamer {
        relief_streamer {
            streamed: pieces.streamed(),
            stream: Mutex::new(pieces),
        }
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
            "{what}: this streamer streams a planet's tiles; use the relief_planet_*/relief_tile_* calls"
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
            "{what}: this streamer streams a flat world's regions, not a planet's tiles"
        ))),
    }
}

/// Creates a region streamer over `world`, with `config` (NULL for the regions defaults).
/// Starts its loader threads; nothing loads until the first `relief_streamer_update`.
///
/// On success writes a new handle to `*out_streamer`; the caller frees it with
/// `relief_streamer_destroy`. It keeps the world alive, so the world handle may be destroyed
/// first. Errors: INVALID_ARGUMENT (NULL `world`/`out_streamer`, unknown `struct_size`,
/// negative or non-finite radii, zero budget or attempts). Threads: any.
///
/// # Safety
/// `world` NULL or live; `config` NULL or readable; `out_streamer` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_create(
    world: *const relief_world,
    config: *const relief_stream_config,
    out_streamer: *mut *mut relief_streamer,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_create";
        // SAFETY: forwarded contract.
        let world = unsafe { handle(what, world) }?.world.clone();
        require(what, &[("out_streamer", out_streamer.is_null())])?;
        // SAFETY: forwarded contract.
        let config = unsafe { relief_stream_config::read(what, config, StreamConfig::default()) }?;
        let pieces = Pieces::new(&Ground::Flat(world), config)
            .map_err(|e| super::config_failure(what, &e))?;
        let h = into_handle(relief_streamer::new(pieces));
        // SAFETY: checked non-NULL.
        unsafe { *out_streamer = h };
        Ok(())
    })
}

/// Frees a streamer: stops its loader threads (waiting for reads in progress) and drops what
/// it holds, except regions still acquired as views or shared with terrains. NULL is a no-op.
/// Threads: any, but not while another thread uses this handle.
///
/// # Safety
/// `streamer` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_destroy(streamer: *mut relief_streamer) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(streamer) }
}

/// Moves the focus to world (x, y, z), metres (y is ignored by flat worlds): queues loads of
/// regions within the load radius, nearest first, drops those beyond the drop radius, and
/// applies finished loads for at most `update_budget_us`. Never reads files or blocks on I/O;
/// call it once per frame. Errors: INVALID_ARGUMENT (NULL handle, non-finite position).
/// Threads: one thread (the game's main thread) at a time.
///
/// # Safety
/// `streamer` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_update(
    streamer: *const relief_streamer,
    x: f64,
    y: f64,
    z: f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_update";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        finite(what, &[x, y, z])?;
        s.stream.lock().update(DVec3::new(x, y, z));
        Ok(())
    })
}

/// Blocks until every region the focus (x, y, z) wants is loaded (or has failed for good), or
/// `timeout_ms` passes; writes 1 to `*out_settled` if everything settled, else 0. For loading
/// screens, tests and tools, never per frame. Events queue up as usual.
/// Errors: INVALID_ARGUMENT (NULL handle or `out_settled`, non-finite position). Threads: as
/// `relief_streamer_update`.
///
/// # Safety
/// `streamer` NULL or live; `out_settled` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_settle(
    streamer: *const relief_streamer,
    x: f64,
    y: f64,
    z: f64,
    timeout_ms: u32,
    out_settled: *mut u32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_settle";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { settle_into(what, &s.stream, [x, y, z], timeout_ms, out_settled) }
    })
}

/// Moves up to `capacity` pending events, oldest first, into `events` (elements of
/// `event_size` bytes: pass `sizeof(relief_event)`) and writes how many to `*out_count` (0 when
/// none are pending). Events not taken stay queued for the next call. `(NULL, 0)` is valid and
/// takes none. Errors: INVALID_ARGUMENT (NULL handle or `out_count`, an `event_size` this
/// relief doesn't know, NULL `events` with a non-zero `capacity`). Threads: as
/// `relief_streamer_update`.
///
/// # Safety
/// `streamer` NULL or live; `events` NULL or writable for `capacity` events of `event_size`
/// bytes; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_poll_events(
    streamer: *const relief_streamer,
    events: *mut relief_event,
    event_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_poll_events";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { poll_into(what, &s.stream, events, event_size, capacity, out_count) }
    })
}

/// Fills `*stats` (whose `struct_size` the caller has set) with a snapshot of the streamer;
/// cheap enough for every frame. Errors: INVALID_ARGUMENT (NULL handle or `stats`, unknown
/// `struct_size`); `*stats` is untouched on failure. Threads: any.
///
/// # Safety
/// `streamer` NULL or live; `stats` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_get_stats(
    streamer: *const relief_streamer,
    stats: *mut relief_stream_stats,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_get_stats";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { write_stats(what, s.stream.lock().stats(), stats) }
    })
}

/// Creates a streamer of `planet`'s tiles, wanted by great-circle distance from the focus
/// (a position in the planet's frame, metres: its direction is what counts), with `config`
/// (NULL for the regions defaults: tiles within 512 m, kept to 704 m, 256 MiB). Otherwise
/// as `relief_streamer_create`: the same update, settle, poll and stats calls drive it;
/// events carry (face, tx, ty); `relief_tile_acquire` reads its tiles and
/// `relief_planet_terrain_create` queries them.
///
/// Errors: INVALID_ARGUMENT (NULL `planet`/`out_streamer`, a bad config). Threads: any.
///
/// # Safety
/// `planet` NULL or live; `config` NULL or readable; `out_streamer` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_streamer_create(
    planet: *const relief_planet,
    config: *const relief_stream_config,
    out_streamer: *mut *mut relief_streamer,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_streamer_create";
        // SAFETY: forwarded contract.
        let planet = unsafe { handle(what, planet) }?.planet.clone();
        require(what, &[("out_streamer", out_streamer.is_null())])?;
        // SAFETY: forwarded contract.
        let config = unsafe { relief_stream_config::read(what, config, StreamConfig::default()) }?;
        let pieces = Pieces::new(&Ground::Planet(planet), config)
            .map_err(|e| super::config_failure(what, &e))?;
        let h = into_handle(relief_streamer::new(pieces));
        // SAFETY: checked non-NULL.
        unsafe { *out_streamer = h };
        Ok(())
    })
}
