//! `relief_collision`: collision heightfield chunks streamed near the focus (a flat world's
//! squares, or a planet's tangent-frame chunks), and `relief_chunk_view`, zero-copy access
//! to one.

use relief::glam::DVec3;
use std::ffi::c_void;

use parking_lot::Mutex;

use super::streamer::relief_streamer;
use super::streaming::{
    poll_into, relief_event, relief_stream_config, relief_stream_stats, settle_into, write_stats,
};
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};
use relief::runtime::{ChunkLookup, Chunks, Heightfield};

/// Collision chunks streaming around a focus: square heightfields in the layout Godot's
/// HeightMapShape3D and Jolt's HeightFieldShape take. Opaque. Its own focus, radii and budget;
/// it reads the samples of the streamer it was made from. Threads: as `relief_streamer`.
pub struct relief_collision {
    stream: Mutex<Chunks>,
    /// Finds chunks outside the streamer's lock.
    lookup: ChunkLookup,
}

/// One chunk's heightfield, read in place: `samples × samples` heights in metres, row-major
/// with X fastest, NaN where the ground has a hole. Sample (i, j) is at
/// `origin + (corner_x + i·spacing)·axis_x + height·up + (corner_z + j·spacing)·axis_z`:
/// on a flat world the frame is the world's (origin 0, axes X, Y, Z), so that is world
/// (`corner_x + i·spacing`, height, `corner_z + j·spacing`); on a planet it is the chunk's
/// own tangent frame. Valid until `relief_collision_release`, even if the chunk unloads. Zero
/// it and set `struct_size` before the first acquire; never copy it (a copy released twice
/// frees twice).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_chunk_view {
    /// sizeof(relief_chunk_view), set by the caller.
    pub struct_size: u32,
    /// Chunk index: the chunk covers x in `[x·size, (x+1)·size]` metres, likewise z.
    pub x: i32,
    pub z: i32,
    /// Samples per side (cells + 1: 65 for 64 m at 1 m).
    pub samples: u32,
    /// Lowest and highest non-hole height (both 0 if every sample is a hole).
    pub min_height: f32,
    pub max_height: f32,
    /// Metres between samples: scale the shape's X and Z by this.
    pub spacing: f64,
    /// World (x, z) of the centre: where Godot's HeightMapShape3D goes.
    pub centre_x: f64,
    pub centre_z: f64,
    /// World (x, z) of sample (0, 0): Jolt's HeightFieldShape offset.
    pub corner_x: f64,
    pub corner_z: f64,
    /// `samples²` heights.
    pub heights: *const f32,
    /// relief's; NULL when the view holds nothing.
    pub token: *mut c_void,
    /// The cube face of a planet chunk; 0 on flat worlds.
    pub face: u32,
    /// The frame: origin (planet frame, metres) and unit axes; `axis_z = axis_x × up`.
    pub origin: [f64; 3],
    pub axis_x: [f64; 3],
    pub up: [f64; 3],
    pub axis_z: [f64; 3],
}

impl Default for relief_chunk_view {
    fn default() -> Self {
        relief_chunk_view {
            struct_size: std::mem::size_of::<relief_chunk_view>() as u32,
            x: 0,
            z: 0,
            samples: 0,
            min_height: 0.0,
            max_height: 0.0,
            spacing: 0.0,
            centre_x: 0.0,
            centre_z: 0.0,
            corner_x: 0.0,
            corner_z: 0.0,
            heights: std::ptr::null(),
            token: std::ptr::null_mut(),
            face: 0,
            origin: [0.0; 3],
            axis_x: [1.0, 0.0, 0.0],
            up: [0.0, 1.0, 0.0],
            axis_z: [0.0, 0.0, 1.0],
        }
    }
}

/// Creates a collision streamer reading `streamer`'s ground, with `config` (NULL for the
/// collision defaults: 288 m / 352 m / 64 MiB). On a flat world chunks are `chunk_size_m`
/// metres (0 for 64 m; a whole number of samples, 2–4096); on a planet they are that many
/// metres rounded to a number of samples that divides the face resolution (0 for 64 samples).
/// Nothing builds until the first `relief_collision_update`.
///
/// On success writes a new handle to `*out_collision` (free with
/// `relief_collision_destroy`); it may outlive `streamer`. On failure it is untouched.
/// Errors: INVALID_ARGUMENT (NULL arguments, unknown `struct_size`, a bad config value or
/// chunk size). Threads: any.
///
/// # Safety
/// `streamer` NULL or live; `config` NULL or readable; `out_collision` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_create(
    streamer: *const relief_streamer,
    config: *const relief_stream_config,
    chunk_size_m: f64,
    out_collision: *mut *mut relief_collision,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_create";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        require(what, &[("out_collision", out_collision.is_null())])?;
        // SAFETY: forwarded contract.
        let config = unsafe {
            relief_stream_config::read(what, config, relief::flat::collision::stream_config())
        }?;
        let chunks = Chunks::new(&s.streamed, config, chunk_size_m)
            .map_err(|e| super::config_failure(what, &e))?;
        let handle = relief_collision {
            lookup: chunks.lookup(),
            stream: Mutex::new(chunks),
        };
        // SAFETY: checked non-NULL.
        unsafe { *out_collision = into_handle(handle) };
        Ok(())
    })
}

/// Frees a collision streamer (stopping its threads). Acquired chunk views stay valid until
/// released. NULL is a no-op. Threads: any, once no other thread uses the handle.
///
/// # Safety
/// `collision` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_destroy(collision: *mut relief_collision) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(collision) }
}

/// Moves the collision focus to world (x, y, z) (usually the player, while the region focus
/// follows the camera): queues builds of chunks within the load radius, nearest first.
/// Never blocks. Errors: INVALID_ARGUMENT (NULL handle, non-finite position). Threads: one
/// thread at a time, as `relief_streamer_update`.
///
/// # Safety
/// `collision` NULL or live.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_update(
    collision: *const relief_collision,
    x: f64,
    y: f64,
    z: f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_update";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        finite(what, &[x, y, z])?;
        c.stream.lock().update(DVec3::new(x, y, z));
        Ok(())
    })
}

/// Blocks until every chunk the focus wants is built, or `timeout_ms` passes; writes 1 to
/// `*out_settled` if all settled, else 0. Not for per-frame use. Errors: INVALID_ARGUMENT
/// (NULL handle or `out_settled`, non-finite position). Threads: as
/// `relief_collision_update`.
///
/// # Safety
/// `collision` NULL or live; `out_settled` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_settle(
    collision: *const relief_collision,
    x: f64,
    y: f64,
    z: f64,
    timeout_ms: u32,
    out_settled: *mut u32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_settle";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        // SAFETY: forwarded contract.
        unsafe { settle_into(what, &c.stream, [x, y, z], timeout_ms, out_settled) }
    })
}

/// Moves up to `capacity` pending chunk events into `events` (x, z are chunk indices) and
/// writes how many to `*out_count`; as `relief_streamer_poll_events` (NULL, `event_size`,
/// buffers, errors).
/// Threads: as `relief_collision_update`.
///
/// # Safety
/// `events` NULL or writable for `capacity` events of `event_size` bytes; `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_poll_events(
    collision: *const relief_collision,
    events: *mut relief_event,
    event_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_poll_events";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        // SAFETY: forwarded contract.
        unsafe { poll_into(what, &c.stream, events, event_size, capacity, out_count) }
    })
}

/// Fills `*stats` (its `struct_size` set) with a snapshot; as `relief_streamer_get_stats`
/// (NULL, sizes, errors). Threads: any.
///
/// # Safety
/// `stats` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_get_stats(
    collision: *const relief_collision,
    stats: *mut relief_stream_stats,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_get_stats";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        // SAFETY: forwarded contract.
        unsafe { write_stats(what, c.stream.lock().stats(), stats) }
    })
}

/// Writes the chunk containing `position` (3 doubles: world x, y, z on a flat world, where y
/// is ignored; the planet frame on a planet) to `*out_face`, `*out_x`, `*out_z` (face 0 on
/// flat worlds). Errors: INVALID_ARGUMENT (NULL arguments, a non-finite position).
/// Threads: any.
///
/// # Safety
/// `position` NULL or 3 readable doubles; out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_chunk_at(
    collision: *const relief_collision,
    position: *const f64,
    out_face: *mut u32,
    out_x: *mut i32,
    out_z: *mut i32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_chunk_at";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        // SAFETY: forwarded contract.
        unsafe { chunk_at(what, &c.lookup, position, out_face, out_x, out_z) }
    })
}

/// `relief_collision_chunk_at` on any chunk lookup.
///
/// # Safety
/// `position` NULL or 3 readable doubles; out-pointers NULL or writable.
pub(crate) unsafe fn chunk_at(
    what: &str,
    lookup: &ChunkLookup,
    position: *const f64,
    out_face: *mut u32,
    out_x: *mut i32,
    out_z: *mut i32,
) -> Result<(), Failure> {
    require(
        what,
        &[
            ("position", position.is_null()),
            ("out_face", out_face.is_null()),
            ("out_x", out_x.is_null()),
            ("out_z", out_z.is_null()),
        ],
    )?;
    // SAFETY: non-NULL; 3 doubles promised.
    let p = unsafe {
        [
            position.read(),
            position.add(1).read(),
            position.add(2).read(),
        ]
    };
    finite(what, &p)?;
    let id = lookup
        .key_at(DVec3::from(p))
        .ok_or_else(|| Failure::invalid(format!("{what}: the planet's centre has no chunk")))?;
    let (face, x, z) = id.face_x_z();
    // SAFETY: checked non-NULL.
    unsafe {
        *out_face = face;
        *out_x = x;
        *out_z = z;
    }
    Ok(())
}

/// Acquires a view of built chunk (face, x, z) (face 0 on flat worlds), holding it until
/// `relief_collision_release(view)`. Errors: INVALID_ARGUMENT (NULL `collision`/`view`,
/// unknown `struct_size`, `view` still holding a chunk, a face other than 0 on a flat world
/// or ≥ 6 on a planet), NOT_FOUND (not built: wait for its LOADED event). On failure
/// `*view` is untouched. Threads: any.
///
/// # Safety
/// `collision` NULL or live; `view` NULL or a writable `relief_chunk_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_collision_acquire(
    collision: *const relief_collision,
    face: u32,
    x: i32,
    z: i32,
    view: *mut relief_chunk_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_collision_acquire";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, collision) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_chunk(what, &c.lookup, face, x, z, view) }
    })
}

/// `relief_collision_acquire` on any chunk lookup.
///
/// # Safety
/// `view` NULL or a writable `relief_chunk_view`.
pub(crate) unsafe fn acquire_chunk(
    what: &str,
    lookup: &ChunkLookup,
    face: u32,
    x: i32,
    z: i32,
    view: *mut relief_chunk_view,
) -> Result<(), Failure> {
    require(what, &[("view", view.is_null())])?;
    // SAFETY: non-NULL.
    if !unsafe { super::read_sized(what, view) }?.token.is_null() {
        return Err(Failure::invalid(format!(
            "{what}: the view still holds a chunk; release it first"
        )));
    }
    let id = lookup.id(face, x, z).ok_or_else(|| {
        Failure::invalid(match lookup {
            ChunkLookup::Flat { .. } => format!("{what}: flat worlds have only face 0"),
            ChunkLookup::Planet { .. } => format!("{what}: no chunk ({face}, {x}, {z})"),
        })
    })?;
    let chunk = lookup.get(id).ok_or_else(|| Failure {
        status: super::RELIEF_STATUS_NOT_FOUND,
        message: format!("{what}: chunk ({face}, {x}, {z}) is not built"),
    })?;
    let (min_height, max_height) = chunk.height_range();
    let (centre, corner, f) = (chunk.centre(), chunk.corner(), chunk.frame());
    let filled = relief_chunk_view {
        struct_size: std::mem::size_of::<relief_chunk_view>() as u32,
        x,
        z,
        samples: chunk.samples(),
        min_height,
        max_height,
        spacing: chunk.spacing(),
        centre_x: centre[0],
        centre_z: centre[1],
        corner_x: corner[0],
        corner_z: corner[1],
        heights: chunk.heights().as_ptr(),
        face,
        origin: f.origin.to_array(),
        axis_x: f.axis_x.to_array(),
        up: f.up.to_array(),
        axis_z: f.axis_z.to_array(),
        token: Box::into_raw(Box::new(chunk)).cast(),
    };
    // SAFETY: checked non-NULL and of our size.
    unsafe { view.write_unaligned(filled) };
    Ok(())
}

/// Releases what `view` holds and clears it; releasing twice, a cleared view, or NULL is a
/// no-op. Threads: any.
///
/// # Safety
/// `view` NULL or a view filled by `relief_collision_acquire` (or zeroed).
#[no_mangle]
pub unsafe extern "C" fn relief_collision_release(view: *mut relief_chunk_view) {
    let _ = ffi_guard!({
        if view.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL; the caller promises a view.
        let v = unsafe { view.read_unaligned() };
        if !v.token.is_null() {
            // SAFETY: the token came from Box<Heightfield> in acquire, once.
            drop(unsafe { Box::from_raw(v.token.cast::<Heightfield>()) });
        }
        let cleared = relief_chunk_view {
            struct_size: v.struct_size,
            ..Default::default()
        };
        // SAFETY: as above.
        unsafe { view.write_unaligned(cleared) };
        Ok(())
    });
}
