//! `relief_streamer`: regions streamed around a focus on background threads. Also the types
//! every streaming object shares (`relief_stream_config`, `relief_event`,
//! `relief_stream_stats`), used by `relief_collision` too.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::world::relief_world;
use super::{
    check_struct_size, ffi_guard, finite, handle, into_handle, relief_status, require, Failure,
};
use crate::stream::{Event, RegionSource, Resident, Source, Stats, StreamConfig, Streamer};
use crate::world::{FormatError, Region, RegionLocation, World};

/// Regions streaming around a focus. Opaque. Every function taking one is safe to call from
/// any thread, but `update` and `poll_events` are meant for one (the game's main) thread.
pub struct relief_streamer {
    pub(crate) inner: Mutex<Streamer<RegionSource>>,
    pub(crate) world: Arc<World>,
    pub(crate) resident: Resident<RegionLocation, Region>,
}

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

    fn to_rust(self, what: &str) -> Result<StreamConfig, Failure> {
        let radii = [self.load_radius, self.drop_radius];
        if radii.iter().any(|r| !r.is_finite() || *r < 0.0) {
            return Err(Failure::invalid(format!(
                "{what}: radii must be finite and non-negative"
            )));
        }
        if self.budget_bytes == 0 || self.max_attempts == 0 || self.worker_threads > 256 {
            return Err(Failure::invalid(format!(
                "{what}: budget_bytes and max_attempts must be non-zero, worker_threads at most 256"
            )));
        }
        Ok(StreamConfig {
            load_radius: self.load_radius,
            drop_radius: self.drop_radius,
            workers: self.worker_threads as usize,
            budget_bytes: usize::try_from(self.budget_bytes).unwrap_or(usize::MAX),
            update_budget: Duration::from_micros(self.update_budget_us as u64),
            max_attempts: self.max_attempts,
            retry_delay: Duration::from_millis(self.retry_delay_ms as u64),
        })
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
        unsafe { check_struct_size(what, config) }?;
        // SAFETY: of our size.
        unsafe { config.read_unaligned() }.to_rust(what)
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

/// One streaming event. `x`, `z` are a region location (streamer) or a chunk index
/// (collision).
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
}

pub(crate) fn event_of<K: Copy>(
    e: Event<K, FormatError>,
    xz: impl Fn(K) -> (i32, i32),
) -> relief_event {
    match e {
        Event::Loaded { key, bytes } => {
            let (x, z) = xz(key);
            relief_event {
                kind: RELIEF_EVENT_LOADED,
                x,
                z,
                bytes: bytes as u64,
                ..Default::default()
            }
        }
        Event::Unloaded { key } => {
            let (x, z) = xz(key);
            relief_event {
                kind: RELIEF_EVENT_UNLOADED,
                x,
                z,
                ..Default::default()
            }
        }
        Event::Failed {
            key,
            error,
            attempt,
            retry_in,
        } => {
            let (x, z) = xz(key);
            relief_event {
                kind: RELIEF_EVENT_FAILED,
                x,
                z,
                status: Failure::from(error).status,
                bytes: 0,
                attempt,
                will_retry: retry_in.is_some() as u32,
            }
        }
    }
}

/// Drains up to `capacity` events from `streamer` into `events`.
///
/// # Safety
/// Forwarded buffer contract.
pub(crate) unsafe fn poll_into<S: Source<Error = FormatError>>(
    what: &str,
    streamer: &Mutex<Streamer<S>>,
    events: *mut relief_event,
    capacity: usize,
    out_count: *mut usize,
    xz: impl Fn(S::Key) -> (i32, i32),
) -> Result<(), Failure> {
    require(what, &[("out_count", out_count.is_null())])?;
    // SAFETY: forwarded contract.
    let buf = unsafe { super::slice_out(what, events, capacity) }?;
    let mut s = streamer.lock();
    let mut n = 0;
    while n < buf.len() {
        let Some(e) = s.poll_event() else { break };
        buf[n] = event_of(e, &xz);
        n += 1;
    }
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

fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
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
    let c = |n: usize| n.min(u32::MAX as usize) as u32;
    let filled = relief_stream_stats {
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
    };
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
            RELIEF_STREAM_KIND_COLLISION => crate::collision::stream_config(),
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
        let streamer = Streamer::new(Arc::new(RegionSource::new(world.clone())), config);
        let h = into_handle(relief_streamer {
            resident: streamer.resident(),
            inner: Mutex::new(streamer),
            world,
        });
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
        s.inner.lock().update([x, y, z]);
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
        require(what, &[("out_settled", out_settled.is_null())])?;
        finite(what, &[x, y, z])?;
        let done = s
            .inner
            .lock()
            .settle([x, y, z], Duration::from_millis(timeout_ms as u64));
        // SAFETY: checked non-NULL.
        unsafe { *out_settled = done as u32 };
        Ok(())
    })
}

/// Moves up to `capacity` pending events, oldest first, into `events` and writes how many to
/// `*out_count` (0 when none are pending). Events not taken stay queued for the next call.
/// `(NULL, 0)` is valid and takes none. Errors: INVALID_ARGUMENT (NULL handle or `out_count`,
/// NULL `events` with a non-zero `capacity`). Threads: as `relief_streamer_update`.
///
/// # Safety
/// `streamer` NULL or live; `events` NULL or writable for `capacity` events; `out_count` NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_streamer_poll_events(
    streamer: *const relief_streamer,
    events: *mut relief_event,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_streamer_poll_events";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { poll_into(what, &s.inner, events, capacity, out_count, |k| (k.x, k.z)) }
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
        unsafe { write_stats(what, s.inner.lock().stats(), stats) }
    })
}
