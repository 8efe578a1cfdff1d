//! What every streaming object shares: `relief_stream_config` (and its defaults),
//! `relief_event`, `relief_stream_stats`, and [`Drive`]: the core streamers behind
//! `relief_streamer` and `relief_collision`, as their calls drive them.

use relief::glam::DVec3;
use std::time::Duration;

use parking_lot::Mutex;

use super::{check_struct_size, ffi_guard, relief_status, require, Failure};
use relief::error::FormatError;
use relief::runtime::{ChunkId, Chunks, PieceKey, Pieces};
use relief::stream::{Event, Stats, StreamConfig};

/// Which defaults `relief_stream_config_default` fills in.
pub type relief_stream_kind = u32;
/// Regions: load within 512 m, keep until 704 m, 256 MiB.
pub const RELIEF_STREAM_KIND_REGIONS: relief_stream_kind = 0;
/// Collision chunks: load within 288 m, keep until 352 m, 64 MiB.
pub const RELIEF_STREAM_KIND_COLLISION: relief_stream_kind = 1;

/// How a streamer (or collision streamer) behaves. Get one from
/// `relief_stream_config_default`, then change what you need.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_stream_config {
    /// sizeof(relief_stream_config), set by the caller (the default call sets it).
    pub struct_size: u32,
    /// Loader threads; 0 = one fewer than the cores, at least one.
    pub worker_threads: u32,
    /// Metres: an item starts loading when it is this close to the focus.
    pub load_radius: f64,
    /// Metres: a loaded item stays until it is farther than this (raised to `load_radius`).
    pub drop_radius: f64,
    /// Bytes of ready, cached and in-flight data together.
    pub budget_bytes: u64,
    /// Most microseconds one `update` spends applying finished loads.
    pub update_budget_us: u32,
    /// Attempts per item before giving up on it (until it leaves and comes back); ≥ 1.
    pub max_attempts: u32,
    /// Milliseconds before the first retry; doubles with each attempt.
    pub retry_delay_ms: u32,
}

impl relief_stream_config {
    pub(crate) fn from_rust(c: &StreamConfig) -> relief_stream_config {
        relief_stream_config {
            struct_size: std::mem::size_of::<relief_stream_config>() as u32,
            worker_threads: c.workers as u32,
            load_radius: c.load_radius,
            drop_radius: c.drop_radius,
            budget_bytes: c.budget_bytes as u64,
            update_budget_us: c.update_budget.as_micros() as u32,
            max_attempts: c.max_attempts,
            retry_delay_ms: c.retry_delay.as_millis() as u32,
        }
    }

    /// The same settings in Rust's units, unchecked: the core's constructors check them
    /// ([`StreamConfig::validate`]) and [`config_failure`](super::config_failure) names a
    /// refused field as this struct does.
    fn to_rust(self) -> StreamConfig {
        StreamConfig {
            load_radius: self.load_radius,
            drop_radius: self.drop_radius,
            workers: self.worker_threads as usize,
            budget_bytes: usize::try_from(self.budget_bytes).unwrap_or(usize::MAX),
            update_budget: Duration::from_micros(self.update_budget_us as u64),
            max_attempts: self.max_attempts,
            retry_delay: Duration::from_millis(self.retry_delay_ms as u64),
        }
    }

    /// The caller's config, or `kind`'s defaults when `config` is NULL.
    ///
    /// # Safety
    /// `config` NULL or readable.
    pub(crate) unsafe fn read(
        what: &str,
        config: *const relief_stream_config,
        default: StreamConfig,
    ) -> Result<StreamConfig, Failure> {
        if config.is_null() {
            return Ok(default);
        }
        // SAFETY: non-NULL, forwarded contract.
        Ok(unsafe { super::read_sized(what, config) }?.to_rust())
    }
}

/// What happened to one item. Kinds are `RELIEF_EVENT_*`.
pub type relief_event_kind = u32;
/// The item's data is ready: a region view or collision chunk can be acquired.
pub const RELIEF_EVENT_LOADED: relief_event_kind = 0;
/// The item left the drop radius; views already acquired stay valid until released.
pub const RELIEF_EVENT_UNLOADED: relief_event_kind = 1;
/// A load failed; `status` says why, `will_retry` whether it will be tried again.
pub const RELIEF_EVENT_FAILED: relief_event_kind = 2;
/// (relief_runtime only) Collision chunk (face, x, z) is built: acquire it and make its shape.
pub const RELIEF_EVENT_CHUNK_READY: relief_event_kind = 3;
/// (relief_runtime only) Chunk (face, x, z) left the collision drop radius: remove its shape.
pub const RELIEF_EVENT_CHUNK_DROPPED: relief_event_kind = 4;
/// (relief_runtime only) A chunk build failed; `status`, `attempt`, `will_retry` as FAILED.
pub const RELIEF_EVENT_CHUNK_FAILED: relief_event_kind = 5;
/// (relief_runtime only) Level cells changed in this update: `x` rectangles, read them with
/// `relief_runtime_get_dirty` before the next update.
pub const RELIEF_EVENT_LEVELS_DIRTY: relief_event_kind = 6;

/// One streaming event. `x`, `z` are a region location or a planet tile's (tx, ty) (from a
/// streamer), or a chunk index (from a collision streamer); `face` is a planet's cube face.
/// Filled in arrays whose element size the caller passes (`sizeof(relief_event)`), so it may
/// grow at its end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_event {
    pub kind: relief_event_kind,
    pub x: i32,
    pub z: i32,
    /// RELIEF_STATUS_OK except for FAILED events.
    pub status: relief_status,
    /// Bytes now resident (LOADED), else 0.
    pub bytes: u64,
    /// Attempts made so far (FAILED), else 0.
    pub attempt: u32,
    /// 1 if a FAILED item will be retried, else 0.
    pub will_retry: u32,
    /// The cube face of a planet tile or chunk (0–5); 0 on flat worlds.
    pub face: u32,
}

/// What identifies a streamed item in an event: (face, x, z).
pub(crate) trait EventKey: Copy {
    fn face_x_z(self) -> (u32, i32, i32);
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

pub(crate) fn event_of<K: EventKey>(e: Event<K, FormatError>) -> relief_event {
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
    relief_event {
        kind,
        x,
        z,
        status,
        bytes,
        attempt,
        will_retry,
        face,
    }
}

/// What `relief_streamer` and `relief_collision` stream, as the C calls drive it: the core's
/// region-or-tile and flat-or-planet chunk streamers, behind the handle's lock.
pub(crate) trait Drive {
    type Key: EventKey;
    fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool;
    fn poll_event(&mut self) -> Option<Event<Self::Key, FormatError>>;
}

impl Drive for Pieces {
    type Key = PieceKey;
    fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        Pieces::settle(self, focus, timeout)
    }
    fn poll_event(&mut self) -> Option<Event<PieceKey, FormatError>> {
        Pieces::poll_event(self)
    }
}

impl Drive for Chunks {
    type Key = ChunkId;
    fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        Chunks::settle(self, focus, timeout)
    }
    fn poll_event(&mut self) -> Option<Event<ChunkId, FormatError>> {
        Chunks::poll_event(self)
    }
}

/// Moves up to `out.len()` events from `next` into `out`; returns how many.
pub(crate) fn fill_events(
    out: &mut [relief_event],
    mut next: impl FnMut() -> Option<relief_event>,
) -> usize {
    let mut n = 0;
    while n < out.len() {
        let Some(e) = next() else { break };
        out[n] = e;
        n += 1;
    }
    n
}

/// Blocks until `streamer` settles around `focus` or the timeout passes; writes 1 or 0.
///
/// # Safety
/// `out_settled` NULL or writable.
pub(crate) unsafe fn settle_into(
    what: &str,
    streamer: &Mutex<impl Drive>,
    focus: [f64; 3],
    timeout_ms: u32,
    out_settled: *mut u32,
) -> Result<(), Failure> {
    require(what, &[("out_settled", out_settled.is_null())])?;
    super::finite(what, &focus)?;
    let done = streamer
        .lock()
        .settle(DVec3::from(focus), Duration::from_millis(timeout_ms as u64));
    // SAFETY: checked non-NULL.
    unsafe { *out_settled = done as u32 };
    Ok(())
}

/// Drains up to `capacity` events into the caller's buffer.
///
/// # Safety
/// Forwarded buffer contract.
pub(crate) unsafe fn poll_into(
    what: &str,
    streamer: &Mutex<impl Drive>,
    events: *mut relief_event,
    event_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> Result<(), Failure> {
    require(what, &[("out_count", out_count.is_null())])?;
    super::check_element_size::<relief_event>(what, "event_size", event_size)?;
    // SAFETY: forwarded contract.
    let buf = unsafe { super::slice_out(what, events, capacity) }?;
    let mut s = streamer.lock();
    let n = fill_events(buf, || s.poll_event().map(event_of));
    // SAFETY: checked non-NULL.
    unsafe { *out_count = n };
    Ok(())
}

/// A snapshot of a streamer. Set `struct_size` first.
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
    /// Loads waiting for a worker.
    pub queue_depth: u32,
    /// Items wanted after trimming to the budget, and how many were trimmed.
    pub wanted: u32,
    pub trimmed: u32,
    /// Microseconds from queueing to ready, over recent loads.
    pub latency_p50_us: u32,
    pub latency_p99_us: u32,
    /// Microseconds spent in `update`: the last one, and over recent ones.
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

pub(crate) fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

/// The C form of a streamer's stats, `struct_size` set.
pub(crate) fn stream_stats(s: &Stats) -> relief_stream_stats {
    let c = |n: usize| n.min(u32::MAX as usize) as u32;
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

/// Writes `stats` into the caller's struct after checking its size.
///
/// # Safety
/// `out` NULL or writable.
pub(crate) unsafe fn write_stats(
    what: &str,
    s: Stats,
    out: *mut relief_stream_stats,
) -> Result<(), Failure> {
    require(what, &[("stats", out.is_null())])?;
    // SAFETY: non-NULL.
    unsafe { check_struct_size(what, out) }?;
    let filled = stream_stats(&s);
    // SAFETY: checked non-NULL and of our size.
    unsafe { out.write_unaligned(filled) };
    Ok(())
}

/// Fills `*config` with the defaults for `kind` (a `RELIEF_STREAM_KIND_*`), including
/// `struct_size`. Errors: INVALID_ARGUMENT (NULL `config`, unknown `kind`); `*config` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `config` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_stream_config_default(
    kind: relief_stream_kind,
    config: *mut relief_stream_config,
) -> relief_status {
    ffi_guard!({
        let what = "relief_stream_config_default";
        require(what, &[("config", config.is_null())])?;
        let rust = match kind {
            RELIEF_STREAM_KIND_REGIONS => StreamConfig::default(),
            RELIEF_STREAM_KIND_COLLISION => relief::runtime::CollisionConfig::default().stream,
            other => {
                return Err(Failure::invalid(format!(
                    "{what}: kind {other} is not a RELIEF_STREAM_KIND_*"
                )))
            }
        };
        // SAFETY: checked non-NULL; the caller promises a writable struct.
        unsafe { config.write_unaligned(relief_stream_config::from_rust(&rust)) };
        Ok(())
    })
}
