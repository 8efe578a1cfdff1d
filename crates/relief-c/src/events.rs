//! `relief_event`: what a runtime's update did, polled in order.

use std::ffi::c_char;

use super::runtime::{relief_runtime, RELIEF_STREAM_THINGS, RELIEF_STREAM_THINGS_FAR};
use super::sized::{check_elements, grows_zeroed, write_element};
use super::{ffi_guard, handle, relief_status, require, Failure};
use relief::error::FormatError;
use relief::runtime::{ChunkId, PieceKey, RuntimeEvent};
use relief::stream::Event;
use relief::things::ThingKey;

/// What happened to one item. Kinds are `RELIEF_EVENT_*`.
pub type relief_event_kind = u32;
/// Region or tile (face, x, z) is resident: acquire it and hand it to the engine.
pub const RELIEF_EVENT_LOADED: relief_event_kind = 0;
/// The region or tile left the drop radius: drop what the engine made of it. Held ones stay
/// valid until released.
pub const RELIEF_EVENT_UNLOADED: relief_event_kind = 1;
/// A region or tile failed to load; `status` says why, `will_retry` whether it will be tried
/// again, and relief's log has the message.
pub const RELIEF_EVENT_FAILED: relief_event_kind = 2;
/// Collision chunk (face, x, z) is built: acquire it and make its shape. It may come before
/// the LOADED of the regions or tiles it covers: a chunk reads their files itself when they
/// are not resident yet, so it never waits for them (and its heights are the same either
/// way).
pub const RELIEF_EVENT_CHUNK_READY: relief_event_kind = 3;
/// Chunk (face, x, z) left the collision drop radius: remove its shape.
pub const RELIEF_EVENT_CHUNK_DROPPED: relief_event_kind = 4;
/// A chunk build failed; `status`, `attempt`, `will_retry` as FAILED.
pub const RELIEF_EVENT_CHUNK_FAILED: relief_event_kind = 5;
/// Level cells changed in this update: `x` rectangles, read them with
/// `relief_runtime_get_dirty` before the next update.
pub const RELIEF_EVENT_LEVELS_DIRTY: relief_event_kind = 6;
/// A planet's LOD ring thread panicked (a bug in relief; `status` is PANIC and the update
/// that queued it returned PANIC with the message, also in relief's log). The levels start
/// again from scratch and arrive with later updates; everything else streamed on. Added in
/// 0.2.1.
pub const RELIEF_EVENT_LEVELS_FAILED: relief_event_kind = 7;
/// The queue was full (`relief_runtime_config.event_capacity`): `bytes` events were dropped
/// (`x` too, clamped to INT32_MAX) — every one since the event before this, until this was
/// polled; always the last event of its drain. Resynchronise: `relief_runtime_list_loaded`
/// gives what is loaded now, and every level is to be uploaded whole; later events follow on
/// from that. Added in 0.2.1.
pub const RELIEF_EVENT_OVERFLOW: relief_event_kind = 8;
/// Thing chunk (face, x, z) of band `band` is placed: acquire it
/// (`relief_runtime_acquire_things`) and draw its things. Added in 0.3.0.
pub const RELIEF_EVENT_THINGS_READY: relief_event_kind = 9;
/// The thing chunk left its band's drop radius: remove its things.
pub const RELIEF_EVENT_THINGS_DROPPED: relief_event_kind = 10;
/// A thing chunk failed to build; `status`, `attempt`, `will_retry` as FAILED.
pub const RELIEF_EVENT_THINGS_FAILED: relief_event_kind = 11;

/// How far from the focus a kind of thing streams (`things.json`'s `band`): grass near,
/// bushes and rocks in the middle, trees far. Added in 0.3.0.
pub type relief_band = u32;
pub const RELIEF_BAND_NEAR: relief_band = 0;
pub const RELIEF_BAND_MID: relief_band = 1;
pub const RELIEF_BAND_FAR: relief_band = 2;

/// One event. `(face, x, z)` is a region's location (face 0), a planet tile's (face, tx, ty)
/// or a collision chunk's index. A tile's or planet chunk's x and z are never negative:
/// `relief_runtime_acquire_tile(runtime, e.face, (uint32_t)e.x, (uint32_t)e.z, &tile)`
/// takes them as they are. Filled in arrays whose element size the caller passes
/// (`sizeof(relief_event)`), so it may grow at its end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_event {
    pub kind: relief_event_kind,
    /// The cube face of a planet tile or chunk (0–5); 0 on flat worlds.
    pub face: u32,
    pub x: i32,
    pub z: i32,
    /// RELIEF_STATUS_OK except for FAILED and CHUNK_FAILED events.
    pub status: relief_status,
    /// Attempts made so far (FAILED, CHUNK_FAILED), else 0.
    pub attempt: u32,
    /// Bytes now resident (LOADED, CHUNK_READY), else 0.
    pub bytes: u64,
    /// 1 if a failed item will be retried, else 0.
    pub will_retry: u32,
    /// A thing chunk's band (`RELIEF_BAND_*`); 0 for every other event. (Was `reserved`,
    /// always 0, before 0.3.0.)
    pub band: relief_band,
}

grows_zeroed!(relief_event = 40);

/// What identifies a streamed item in an event: (face, x, z), and a band for things.
trait EventKey: Copy {
    fn face_x_z(self) -> (u32, i32, i32);
    fn band(self) -> u32 {
        0
    }
}

impl EventKey for PieceKey {
    fn face_x_z(self) -> (u32, i32, i32) {
        PieceKey::face_x_z(self)
    }
}
impl EventKey for ChunkId {
    fn face_x_z(self) -> (u32, i32, i32) {
        ChunkId::face_x_z(self)
    }
}
impl EventKey for ThingKey {
    fn face_x_z(self) -> (u32, i32, i32) {
        (self.face as u32, self.x, self.z)
    }
    fn band(self) -> u32 {
        self.band as u32
    }
}

/// A stream event in C's form; `base` is LOADED for pieces, CHUNK_READY for chunks.
fn event_of<K: EventKey>(e: Event<K, FormatError>, base: relief_event_kind) -> relief_event {
    let (key, kind, status, bytes, attempt, will_retry) = match e {
        Event::Loaded { key, bytes } => (key, RELIEF_EVENT_LOADED, 0, bytes as u64, 0, 0),
        Event::Unloaded { key } => (key, RELIEF_EVENT_UNLOADED, 0, 0, 0, 0),
        Event::Failed {
            key,
            error,
            attempt,
            retry_in,
        } => (
            key,
            RELIEF_EVENT_FAILED,
            Failure::from(error).status,
            0,
            attempt,
            retry_in.is_some() as u32,
        ),
    };
    let (face, x, z) = key.face_x_z();
    let band = key.band();
    relief_event {
        kind: base + kind,
        face,
        x,
        z,
        status,
        attempt,
        bytes,
        will_retry,
        band,
    }
}

fn runtime_event(e: RuntimeEvent) -> relief_event {
    match e {
        RuntimeEvent::Piece(e) => event_of(e, RELIEF_EVENT_LOADED),
        RuntimeEvent::Chunk(e) => event_of(e, RELIEF_EVENT_CHUNK_READY),
        RuntimeEvent::Things(e) => event_of(e, RELIEF_EVENT_THINGS_READY),
        RuntimeEvent::LevelsDirty { rects } => relief_event {
            kind: RELIEF_EVENT_LEVELS_DIRTY,
            x: rects.min(i32::MAX as usize) as i32,
            ..Default::default()
        },
        RuntimeEvent::LevelsFailed { .. } => relief_event {
            kind: RELIEF_EVENT_LEVELS_FAILED,
            status: super::RELIEF_STATUS_PANIC,
            ..Default::default()
        },
        RuntimeEvent::Overflow { dropped } => relief_event {
            kind: RELIEF_EVENT_OVERFLOW,
            x: dropped.min(i32::MAX as u64) as i32,
            bytes: dropped,
            ..Default::default()
        },
    }
}

/// Moves up to `capacity` pending events, oldest first, into `events` (room for `capacity`
/// of `event_size` bytes: pass `sizeof(relief_event)`) and writes how many to `*out_count`.
/// Events not taken stay queued; `(NULL, 0)` takes none.
///
/// Order: events come in the order they happened. Within one update: the pieces' LOADED,
/// UNLOADED and FAILED, then the chunks' CHUNK_READY, CHUNK_DROPPED and CHUNK_FAILED, then
/// the things' THINGS_READY, THINGS_DROPPED and THINGS_FAILED (near band first), then at
/// most one LEVELS_DIRTY, then at most one LEVELS_FAILED. For one item, LOADED and UNLOADED
/// alternate, starting with LOADED (a FAILED item has no LOADED to undo); likewise
/// CHUNK_READY and CHUNK_DROPPED, and THINGS_READY and THINGS_DROPPED. A chunk's CHUNK_READY does not wait for its regions' or
/// tiles' LOADED. An item may be gone by the time its event is read (a later update in the
/// same drain dropped it): acquiring it is NOT_FOUND, and its UNLOADED or CHUNK_DROPPED
/// follows. An OVERFLOW event ends a stretch of dropped events; after it the laws hold again
/// from what `relief_runtime_list_loaded` lists.
///
/// Errors: INVALID_ARGUMENT (NULL `runtime` or `out_count`, an `event_size` this relief
/// doesn't write, NULL `events` with a non-zero `capacity`). Threads: as
/// `relief_runtime_update`.
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
        check_elements::<relief_event>(what, "event_size", events, event_size, capacity)?;
        let mut rt = r.runtime.lock();
        let mut n = 0;
        while n < capacity {
            let Some(e) = rt.poll_event() else { break };
            // SAFETY: element n < capacity of the caller's buffer.
            unsafe { write_element(events, event_size, n, &runtime_event(e)) };
            n += 1;
        }
        // SAFETY: checked non-NULL.
        unsafe { *out_count = n };
        Ok(())
    })
}

/// The name of event kind `kind` ("LOADED", "CHUNK_READY", …), NUL-terminated, for logs;
/// "UNKNOWN" for a value that is no `RELIEF_EVENT_*`. Static; never NULL. Threads: any.
#[no_mangle]
pub extern "C" fn relief_event_kind_name(kind: relief_event_kind) -> *const c_char {
    let name: &'static [u8] = match kind {
        RELIEF_EVENT_LOADED => b"LOADED\0",
        RELIEF_EVENT_UNLOADED => b"UNLOADED\0",
        RELIEF_EVENT_FAILED => b"FAILED\0",
        RELIEF_EVENT_CHUNK_READY => b"CHUNK_READY\0",
        RELIEF_EVENT_CHUNK_DROPPED => b"CHUNK_DROPPED\0",
        RELIEF_EVENT_CHUNK_FAILED => b"CHUNK_FAILED\0",
        RELIEF_EVENT_LEVELS_DIRTY => b"LEVELS_DIRTY\0",
        RELIEF_EVENT_LEVELS_FAILED => b"LEVELS_FAILED\0",
        RELIEF_EVENT_OVERFLOW => b"OVERFLOW\0",
        RELIEF_EVENT_THINGS_READY => b"THINGS_READY\0",
        RELIEF_EVENT_THINGS_DROPPED => b"THINGS_DROPPED\0",
        RELIEF_EVENT_THINGS_FAILED => b"THINGS_FAILED\0",
        _ => b"UNKNOWN\0",
    };
    name.as_ptr().cast()
}

/// Writes one event per item loaded now, as the events so far would leave it: LOADED for
/// each resident region or tile (`stream` RELIEF_STREAM_PIECES), CHUNK_READY for each
/// built collision chunk (RELIEF_STREAM_CHUNKS) or THINGS_READY for each placed thing chunk
/// of a band (RELIEF_STREAM_THINGS + the band; none where it places nothing), in no
/// particular order, into `events` (room
/// for `capacity` of `event_size` bytes), and their count to `*out_count`; `(NULL, 0)` writes
/// only the count. For resynchronising after an OVERFLOW event, or a caller that attaches
/// late. Errors: INVALID_ARGUMENT (NULL `runtime`/`out_count`, an unknown `stream`, CHUNKS
/// without collision, an `event_size` this relief doesn't write, a NULL `events` with a
/// non-zero `capacity`, or a non-zero `capacity` below the count, when nothing is written).
/// Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `events` NULL or writable for `capacity` events of `event_size`
/// bytes; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_list_loaded(
    runtime: *const relief_runtime,
    stream: super::runtime::relief_stream,
    events: *mut relief_event,
    event_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_list_loaded";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_count", out_count.is_null())])?;
        check_elements::<relief_event>(what, "event_size", events, event_size, capacity)?;
        let rt = r.runtime.lock();
        let each = |f: &mut dyn FnMut(relief_event)| -> Result<(), Failure> {
            match stream {
                super::runtime::RELIEF_STREAM_PIECES => rt.for_each_loaded_piece(|k| {
                    let (face, x, z) = k.face_x_z();
                    f(loaded(RELIEF_EVENT_LOADED, face, x, z))
                }),
                super::runtime::RELIEF_STREAM_CHUNKS => {
                    if rt.chunks().is_none() {
                        return Err(Failure::invalid(format!(
                            "{what}: this runtime builds no collision"
                        )));
                    }
                    rt.for_each_built_chunk(|k| {
                        let (face, x, z) = k.face_x_z();
                        f(loaded(RELIEF_EVENT_CHUNK_READY, face, x, z))
                    })
                }
                s @ RELIEF_STREAM_THINGS..=RELIEF_STREAM_THINGS_FAR => rt
                    .for_each_built_thing_chunk(|k| {
                        if k.band as u32 == s - RELIEF_STREAM_THINGS {
                            let mut e = loaded(RELIEF_EVENT_THINGS_READY, k.face as u32, k.x, k.z);
                            e.band = k.band as u32;
                            f(e)
                        }
                    }),
                other => {
                    return Err(Failure::invalid(format!(
                        "{what}: stream {other} is not a RELIEF_STREAM_*"
                    )))
                }
            }
            Ok(())
        };
        let mut count = 0usize;
        each(&mut |_| count += 1)?;
        if capacity > 0 {
            if capacity < count {
                return Err(Failure::invalid(format!(
                    "{what}: {count} items, the buffer holds {capacity}"
                )));
            }
            let mut n = 0usize;
            each(&mut |e| {
                // SAFETY: element n < count ≤ capacity of the caller's buffer.
                unsafe { write_element(events, event_size, n, &e) };
                n += 1;
            })?;
        }
        // SAFETY: checked non-NULL.
        unsafe { *out_count = count };
        Ok(())
    })
}

fn loaded(kind: relief_event_kind, face: u32, x: i32, z: i32) -> relief_event {
    relief_event {
        kind,
        face,
        x,
        z,
        ..Default::default()
    }
}
