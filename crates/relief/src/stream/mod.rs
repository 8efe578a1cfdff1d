//! The streamer: call [`Streamer::update`] once a frame with the focus point; pieces near it
//! load on worker threads, pieces behind it drop, and any thread can read what is resident.
//!
//! Lifecycle of a key:
//! - **wanted** while its distance is within `load_radius` (to start loading) or within
//!   `drop_radius` (to stay) — the gap is hysteresis, so walking along a border doesn't thrash;
//! - **queued** while a load is pending; the queue is re-sorted nearest-first at every plan and
//!   a job whose key stops being wanted is withdrawn before any worker reads it;
//! - **ready** once loaded: an [`Event::Loaded`], and visible to queries through
//!   [`Streamer::resident`];
//! - **cached** after it leaves the drop radius: an [`Event::Unloaded`] (the engine should drop
//!   it), but the data stays in memory, least recently used first out, until the budget needs
//!   the room; coming back within reach makes it ready again without I/O.
//!
//! An update *plans* (lists the keys near the focus, decides what is wanted, re-sorts the
//! queue, evicts for the budget) only when the plan could change: a load finished, a retry
//! fell due, the budget trims, or the focus moved as far as the nearest key lies from either
//! radius (the source bounds how far distances move: [`Source::moved`]). In between, an update
//! is a check of the finished-load channel and a subtraction.
//!
//! One memory budget covers ready, cached and in-flight bytes. Wanted pieces are never
//! evicted; when the wanted set alone would exceed the budget, the farthest wanted keys are
//! not loaded and [`Stats::trimmed`] says how many.
//!
//! Retry policy: a failed load is retried after `retry_delay`, doubling each time, up to
//! `max_attempts` attempts in all; then the key is left alone until it leaves the drop radius
//! and comes back. A failure never touches any other key or anything already resident.

pub mod latency;
#[doc(hidden)]
pub mod slowdown;
pub mod source;
mod workers;
pub(crate) use workers::prepare_to_wait;
pub use workers::{Loaders, MAX_LOADERS};

use glam::DVec3;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::RwLock;

use crate::config::{at_least, at_most, ConfigError};
pub use crate::error::LoadPanic;
pub use source::Source;

use crossbeam_channel::Receiver;
use latency::Ring;
use workers::{Done, Job, LaneHandle};

/// What is resident, shared with query threads: key → loaded item.
/// Ready pieces by key. FxHash: keys are small integers of our own, and a height query hashes
/// one per lookup (SipHash was a third of a planet ring rebuild).
pub type PieceMap<K, I> = HashMap<K, Arc<I>, rustc_hash::FxBuildHasher>;
pub type Resident<K, I> = Arc<RwLock<PieceMap<K, I>>>;

/// The most lookups a batch query makes under one hold of a resident map's read lock. Between
/// strides the batch yields the lock to a waiting writer (`RwLockReadGuard::bump`), so the
/// streamer publishing a load on the main thread waits for one stride at most — about
/// 25 µs of height lookups — however long the batch.
pub const LOCK_STRIDE: usize = 1024;

#[derive(Clone, Debug, PartialEq)]
pub struct StreamConfig {
    /// A key starts loading when its distance from the focus is within this, metres.
    pub load_radius: f64,
    /// A loaded key stays until its distance exceeds this, metres (≥ `load_radius`).
    pub drop_radius: f64,
    /// Bytes of ready, cached and in-flight data together.
    pub budget_bytes: usize,
    /// Most time one update spends applying finished loads before returning.
    pub update_budget: Duration,
    /// Attempts per key before giving up (until it leaves and comes back).
    pub max_attempts: u32,
    /// Delay before the first retry; doubles with each attempt.
    pub retry_delay: Duration,
}

/// The longest first retry delay: it doubles up to 16 times (about 7 years at this bound,
/// still a time an `Instant` can hold).
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(3600);
/// The longest update budget: a frame's worth of applying loads, not a loading screen (for
/// that, `settle`).
pub const MAX_UPDATE_BUDGET: Duration = Duration::from_secs(1);

impl StreamConfig {
    /// Checks every field; the error names the first that cannot work. [`Streamer::new`]
    /// calls it, so a streamer never runs on such a config.
    pub fn validate(&self) -> Result<(), ConfigError> {
        at_least("load_radius", self.load_radius, 0.0)?;
        if !(self.drop_radius.is_finite() && self.drop_radius >= self.load_radius) {
            return Err(ConfigError::new(
                "drop_radius",
                format!(
                    "must be finite and at least load_radius ({}), is {} (set both)",
                    self.load_radius, self.drop_radius
                ),
            ));
        }
        if self.budget_bytes == 0 {
            return Err(ConfigError::new("budget_bytes", "must be above 0"));
        }
        at_most("update_budget", self.update_budget, MAX_UPDATE_BUDGET)?;
        if self.max_attempts == 0 {
            return Err(ConfigError::new("max_attempts", "must be at least 1"));
        }
        at_most("retry_delay", self.retry_delay, MAX_RETRY_DELAY)
    }
}

impl Default for StreamConfig {
    fn default() -> Self {
        StreamConfig {
            load_radius: 512.0,
            drop_radius: 704.0,
            budget_bytes: 256 << 20,
            update_budget: Duration::from_micros(500),
            max_attempts: 4,
            retry_delay: Duration::from_millis(250),
        }
    }
}

/// Something that happened, in order. Poll with [`Streamer::poll_event`].
#[derive(Debug)]
pub enum Event<K, E> {
    /// The key's data is ready (read, or revived from the cache).
    Loaded { key: K, bytes: usize },
    /// The key left the drop radius; its data may stay cached.
    Unloaded { key: K },
    /// A load failed. `retry_in` is when it will be tried again, if it will.
    Failed {
        key: K,
        error: E,
        attempt: u32,
        retry_in: Option<Duration>,
    },
}

impl<K, E> Event<K, E> {
    /// The key the event is about.
    pub fn key(&self) -> &K {
        match self {
            Event::Loaded { key, .. } | Event::Unloaded { key } | Event::Failed { key, .. } => key,
        }
    }

    /// The same event about `f(key)`: how a caller holding several streamers names keys of
    /// different kinds in one stream.
    pub fn map_key<L>(self, f: impl FnOnce(K) -> L) -> Event<L, E> {
        match self {
            Event::Loaded { key, bytes } => Event::Loaded { key: f(key), bytes },
            Event::Unloaded { key } => Event::Unloaded { key: f(key) },
            Event::Failed {
                key,
                error,
                attempt,
                retry_in,
            } => Event::Failed {
                key: f(key),
                error,
                attempt,
                retry_in,
            },
        }
    }
}

/// A snapshot of the streamer, cheap enough to take every frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Ready keys (wanted and loaded) and their bytes.
    pub ready: usize,
    pub ready_bytes: usize,
    /// Loaded keys beyond the drop radius, kept until the budget needs room.
    pub cached: usize,
    pub cached_bytes: usize,
    /// Keys queued or being read, and their estimated bytes.
    pub in_flight: usize,
    pub in_flight_bytes: usize,
    /// Wanted keys whose loads failed for good (every attempt spent): they stay unready until
    /// they leave the wanted set and come back, so `ready + gave_up == wanted` is "settled".
    pub gave_up: usize,
    /// Jobs waiting for a worker.
    pub queue_depth: usize,
    /// Keys wanted after budget trimming, and how many were trimmed.
    pub wanted: usize,
    pub trimmed: usize,
    pub budget_bytes: usize,
    pub loads: u64,
    pub failures: u64,
    pub evictions: u64,
    /// Queue-to-ready time of recent loads.
    pub latency_p50: Duration,
    pub latency_p99: Duration,
    /// How long recent loads ran on their workers (read, check, decode), queue wait aside.
    pub load_p50: Duration,
    pub load_mean: Duration,
    /// Time spent in recent updates.
    pub update_last: Duration,
    pub update_p50: Duration,
    pub update_p99: Duration,
    pub update_max: Duration,
}

enum State {
    Queued { bytes: usize },
    Ready { bytes: usize },
    Failed { attempts: u32, retry_at: Instant },
    GaveUp,
}

/// What the slots hold, by state: counted as each update ends, so `stats()` walks nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Held {
    ready: usize,
    ready_bytes: usize,
    cached: usize,
    cached_bytes: usize,
    in_flight: usize,
    in_flight_bytes: usize,
    gave_up: usize,
}

impl Held {
    fn count(&mut self, slot: &Slot) {
        match slot.state {
            State::Queued { bytes } => {
                self.in_flight += 1;
                self.in_flight_bytes += bytes;
            }
            State::Ready { bytes } if slot.wanted => {
                self.ready += 1;
                self.ready_bytes += bytes;
            }
            State::Ready { bytes } => {
                self.cached += 1;
                self.cached_bytes += bytes;
            }
            State::GaveUp if slot.wanted => self.gave_up += 1,
            State::Failed { .. } | State::GaveUp => {}
        }
    }

    fn of<'a>(slots: impl Iterator<Item = &'a Slot>) -> Held {
        let mut held = Held::default();
        slots.for_each(|s| held.count(s));
        held
    }
}

struct Slot {
    state: State,
    wanted: bool,
    seen: u64,
    attempts: u32,
    /// When it was last cached (left the wanted set while ready): eviction takes the oldest.
    cached_at: u64,
}

pub struct Streamer<S: Source> {
    source: Arc<S>,
    config: StreamConfig,
    /// Finished loads. Declared before the lane, so it is dropped first: a loader blocked
    /// sending to a full channel is released before the lane closes.
    done: Receiver<Done<S>>,
    lane: LaneHandle<S>,
    slots: HashMap<S::Key, Slot>,
    /// The slots' tally as the last update left them.
    held: Held,
    resident: Resident<S::Key, S::Item>,
    /// Stamps the order pieces were cached in (see [`Slot::cached_at`]).
    cache_clock: u64,
    events: VecDeque<Event<S::Key, S::Error>>,
    near: Vec<(S::Key, f64)>,
    frame: u64,
    trimmed: usize,
    wanted: usize,
    loads: u64,
    failures: u64,
    evictions: u64,
    latency: Ring,
    load_time: Ring,
    update_time: Ring,
    last_update: Duration,
    /// Whether updates count in `update_time`: not while settling (a loading screen's
    /// updates are not frames).
    recording: bool,
    /// What the last plan depends on, to tell whether the next would change anything.
    plan: Option<Plan>,
    /// Plans made, since creation (an update that changes nothing makes none).
    plans: u64,
}

/// The last plan's validity: it stands while no load finished, no retry fell due, nothing
/// was trimmed for the budget, and the focus has moved less than `slack` from where it was
/// made (by the source's measure, [`Source::moved`]), so that no key crossed either radius.
#[derive(Clone, Copy, Debug)]
struct Plan {
    focus: DVec3,
    slack: f64,
    retry_at: Option<Instant>,
}

/// How far beyond the drop radius a plan looks for keys that could come into it: the most
/// slack a plan can have.
const SLACK_REACH: f64 = 32.0;

const CAPACITY: usize = 1024;

impl<S: Source> Streamer<S> {
    /// A streamer over `source`, loading on `loaders` (which it may share with other
    /// streamers: a free loader takes the nearest job of any). Refuses a config that fails
    /// [`StreamConfig::validate`].
    pub fn new(
        source: Arc<S>,
        config: StreamConfig,
        loaders: &Loaders,
    ) -> Result<Streamer<S>, ConfigError> {
        config.validate()?;
        prepare_to_wait();
        let (lane, done) = loaders.lane(source.clone(), CAPACITY);
        Ok(Streamer {
            done,
            lane,
            source,
            config,
            slots: HashMap::with_capacity(CAPACITY),
            held: Held::default(),
            resident: Arc::new(RwLock::new(PieceMap::with_capacity_and_hasher(
                CAPACITY,
                Default::default(),
            ))),
            cache_clock: 0,
            events: VecDeque::with_capacity(CAPACITY),
            near: Vec::with_capacity(CAPACITY),
            frame: 0,
            trimmed: 0,
            wanted: 0,
            loads: 0,
            failures: 0,
            evictions: 0,
            latency: Ring::default(),
            load_time: Ring::default(),
            update_time: Ring::default(),
            last_update: Duration::ZERO,
            recording: true,
            plan: None,
            plans: 0,
        })
    }

    pub fn config(&self) -> &StreamConfig {
        &self.config
    }

    pub fn source(&self) -> &Arc<S> {
        &self.source
    }

    /// The resident map, for query threads. Holds ready and cached items.
    pub fn resident(&self) -> Resident<S::Key, S::Item> {
        self.resident.clone()
    }

    /// Advances one frame around `focus`. Call from one thread only (the one polling events).
    /// Does no I/O and no decoding; in steady state it allocates nothing. Applying finished
    /// loads stops once `update_budget` is spent; the rest wait for the next frame.
    pub fn update(&mut self, focus: DVec3) {
        let start = Instant::now();
        self.frame += 1;
        let mut applied = false;
        while start.elapsed() < self.config.update_budget {
            match self.done.try_recv() {
                Ok(done) => {
                    self.apply(done, start);
                    applied = true;
                }
                Err(_) => break,
            }
        }
        if applied || self.must_plan(focus, start) {
            self.choose(focus, start);
        }
        slowdown::in_update();
        self.last_update = start.elapsed();
        if self.recording {
            self.update_time.push(self.last_update);
        }
    }

    /// Whether a plan around `focus` now could differ from the last one.
    fn must_plan(&self, focus: DVec3, now: Instant) -> bool {
        match self.plan {
            None => true,
            Some(p) => {
                let moved = self.source.moved(p.focus, focus);
                self.trimmed > 0
                    || p.retry_at.is_some_and(|t| now >= t)
                    // Not moved at all, nothing can differ, even with a key standing exactly
                    // on a radius (no slack): a loading screen's updates plan only for loads.
                    // NaN (a source's bad measure) plans, as moving too far does.
                    || (moved != 0.0
                        && moved.partial_cmp(&p.slack) != Some(std::cmp::Ordering::Less))
            }
        }
    }

    /// Plans made since creation: an update plans only when a load finished, a retry fell
    /// due, the budget trims, or the focus moved far enough for a key to cross a radius.
    pub fn plans(&self) -> u64 {
        self.plans
    }

    /// Whether updates count in [`Stats`]' update percentiles and maximum (they do unless
    /// turned off): a caller settling a loading screen by its own updates turns it off, so
    /// the figures are the game's frames alone. [`Streamer::settle`] does so itself.
    pub fn record_update_times(&mut self, on: bool) {
        self.recording = on;
    }

    /// Takes the oldest event, if any.
    pub fn poll_event(&mut self) -> Option<Event<S::Key, S::Error>> {
        self.events.pop_front()
    }

    /// Calls `f` with every key whose last event was Loaded (not Unloaded since): what an
    /// engine following the events holds. For resynchronising after events were lost.
    pub fn for_each_loaded(&self, mut f: impl FnMut(S::Key)) {
        for (key, slot) in &self.slots {
            if slot.wanted && matches!(slot.state, State::Ready { .. }) {
                f(*key);
            }
        }
    }

    /// Whether nothing is queued, loading, or waiting to retry a failed load it still wants.
    pub fn is_idle(&self) -> bool {
        // A wanted key waiting for its retry is not settled: it has failed, not for good.
        !self.slots.values().any(|s| {
            matches!(s.state, State::Queued { .. })
                || (s.wanted && matches!(s.state, State::Failed { .. }))
        })
    }

    /// Updates every millisecond until nothing is in flight or `timeout` passes; returns
    /// whether it settled. For tools and tests, not for a game loop.
    /// Its updates are not counted in the update percentiles and maximum.
    pub fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        let start = Instant::now();
        let recording = std::mem::replace(&mut self.recording, false);
        let settled = loop {
            self.update(focus);
            if self.is_idle() {
                break true;
            }
            if start.elapsed() > timeout {
                break false;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        self.recording = recording;
        settled
    }

    /// Forgets the timings behind [`Stats`]' percentiles, means and maxima (load latency, load
    /// time, update time), counts aside: a loading screen's loads are not the walk's, and
    /// telemetry of the walk should not carry them.
    pub fn clear_timings(&mut self) {
        self.latency.clear();
        self.load_time.clear();
        self.update_time.clear();
    }

    pub fn stats(&self) -> Stats {
        Stats {
            wanted: self.wanted,
            trimmed: self.trimmed,
            budget_bytes: self.config.budget_bytes,
            loads: self.loads,
            failures: self.failures,
            evictions: self.evictions,
            latency_p50: self.latency.percentile(50.0),
            latency_p99: self.latency.percentile(99.0),
            load_p50: self.load_time.percentile(50.0),
            load_mean: self.load_time.mean(),
            update_last: self.last_update,
            update_p50: self.update_time.percentile(50.0),
            update_p99: self.update_time.percentile(99.0),
            update_max: self.update_time.max(),
            queue_depth: self.lane.jobs().len(),
            ready: self.held.ready,
            ready_bytes: self.held.ready_bytes,
            cached: self.held.cached,
            cached_bytes: self.held.cached_bytes,
            in_flight: self.held.in_flight,
            in_flight_bytes: self.held.in_flight_bytes,
            gave_up: self.held.gave_up,
        }
    }

    fn apply(&mut self, done: Done<S>, now: Instant) {
        let Some(slot) = self.slots.get_mut(&done.key) else {
            return; // withdrawn while a worker was reading it
        };
        if !matches!(slot.state, State::Queued { .. }) {
            return; // a stale duplicate
        }
        match done.outcome {
            Ok(item) => {
                let bytes = S::item_bytes(&item);
                self.resident.write().insert(done.key, item);
                slot.state = State::Ready { bytes };
                slot.attempts = 0;
                self.loads += 1;
                self.latency
                    .push(now.saturating_duration_since(done.queued));
                self.load_time.push(done.took);
                if slot.wanted {
                    self.events.push_back(Event::Loaded {
                        key: done.key,
                        bytes,
                    });
                } else {
                    self.cache_clock += 1;
                    slot.cached_at = self.cache_clock;
                }
            }
            Err(error) => {
                self.failures += 1;
                slot.attempts += 1;
                let attempt = slot.attempts;
                let retry_in = (attempt < self.config.max_attempts)
                    .then(|| self.config.retry_delay * (1 << (attempt - 1).min(16)));
                slot.state = match retry_in {
                    Some(d) => State::Failed {
                        attempts: attempt,
                        retry_at: now + d,
                    },
                    None => State::GaveUp,
                };
                // The event carries a status; the log (the `log` crate's facade, which the C
                // library forwards to `relief_set_log`) carries why.
                match retry_in {
                    Some(d) => log::warn!(
                        "loading {:?} failed (attempt {attempt}, retrying in {} ms): {error}",
                        done.key,
                        d.as_millis()
                    ),
                    None => log::error!(
                        "loading {:?} failed (attempt {attempt}, giving up until it comes back into range): {error}",
                        done.key
                    ),
                }
                self.events.push_back(Event::Failed {
                    key: done.key,
                    error,
                    attempt,
                    retry_in,
                });
            }
        }
    }

    /// Recomputes the wanted set, withdraws what is no longer wanted, queues what is missing.
    fn choose(&mut self, focus: DVec3, now: Instant) {
        let frame = self.frame;
        self.plans += 1;
        self.near.clear();
        // Keys a little beyond the drop radius too: how near they are bounds the slack.
        let (load_r, drop_r) = (self.config.load_radius, self.config.drop_radius);
        self.source
            .keys_within(focus, drop_r + SLACK_REACH, &mut self.near);
        self.near.sort_unstable_by(|a, b| a.1.total_cmp(&b.1));
        let mut slack = SLACK_REACH;

        // The wanted set, nearest first, trimmed to the budget.
        let mut committed = 0usize;
        self.trimmed = 0;
        self.wanted = 0;
        let mut queue = self.lane.jobs();
        let mut posted = false;
        for i in 0..self.near.len() {
            let (key, distance) = self.near[i];
            slack = slack
                .min((distance - load_r).abs())
                .min((distance - drop_r).abs());
            if distance > drop_r {
                continue;
            }
            let present = self.slots.get(&key).map(|s| match s.state {
                State::Queued { bytes } | State::Ready { bytes, .. } => Some(bytes),
                _ => None,
            });
            if present.is_none() && distance > self.config.load_radius {
                continue; // not loaded, and only close enough to be kept
            }
            let bytes = present
                .flatten()
                .unwrap_or_else(|| self.source.estimate_bytes(key));
            if committed + bytes > self.config.budget_bytes {
                self.trimmed += 1;
                continue;
            }
            committed += bytes;
            self.wanted += 1;
            match self.slots.get_mut(&key) {
                Some(slot) => {
                    slot.seen = frame;
                    if !slot.wanted {
                        slot.wanted = true;
                        if let State::Ready { bytes, .. } = slot.state {
                            self.events.push_back(Event::Loaded { key, bytes });
                        }
                    }
                    if let State::Failed { attempts, retry_at } = slot.state {
                        if now >= retry_at && distance <= self.config.load_radius {
                            slot.attempts = attempts;
                            slot.state = State::Queued { bytes };
                            queue.push(Job {
                                key,
                                distance,
                                queued: now,
                            });
                            posted = true;
                        }
                    }
                }
                None => {
                    self.slots.insert(
                        key,
                        Slot {
                            state: State::Queued { bytes },
                            wanted: true,
                            seen: frame,
                            attempts: 0,
                            cached_at: 0,
                        },
                    );
                    queue.push(Job {
                        key,
                        distance,
                        queued: now,
                    });
                    posted = true;
                }
            }
        }

        // Everything not seen this frame is no longer wanted.
        // The same pass counts what the kept slots hold.
        let (clock, events) = (&mut self.cache_clock, &mut self.events);
        let mut held = Held::default();
        let mut retry_at: Option<Instant> = None;
        self.slots.retain(|key, slot| {
            if let State::Failed { retry_at: t, .. } = slot.state {
                retry_at = Some(retry_at.map_or(t, |r| r.min(t)));
            }
            let keep = slot.seen == frame
                || match slot.state {
                    State::Ready { .. } => {
                        if slot.wanted {
                            slot.wanted = false;
                            events.push_back(Event::Unloaded { key: *key });
                            *clock += 1;
                            slot.cached_at = *clock;
                        }
                        true
                    }
                    State::Queued { .. } => {
                        // Withdraw it if no worker has taken it yet; a late result is ignored.
                        queue.retain(|j| j.key != *key);
                        false
                    }
                    State::Failed { .. } | State::GaveUp => false,
                };
            if keep {
                held.count(slot);
            }
            keep
        });
        // Re-prioritise what is still waiting.
        for job in queue.iter_mut() {
            job.distance = self.source.distance(job.key, focus);
        }
        drop(queue);

        // Make room: cached pieces go, least recently cached first. A scan of the slots (a
        // few hundred) per eviction, only when over budget: an LRU list would allocate a
        // node every time a piece is cached, which walking back and forth does every frame.
        let queued = held.in_flight_bytes;
        let mut used = queued + held.ready_bytes + held.cached_bytes;
        while used > self.config.budget_bytes {
            let oldest = self
                .slots
                .iter()
                .filter(|(_, s)| !s.wanted && matches!(s.state, State::Ready { .. }))
                .min_by_key(|(_, s)| s.cached_at)
                .map(|(k, _)| *k);
            let Some(key) = oldest else {
                break;
            };
            if let Some(Slot {
                state: State::Ready { bytes, .. },
                ..
            }) = self.slots.remove(&key)
            {
                used -= bytes;
                held.cached -= 1;
                held.cached_bytes -= bytes;
            }
            self.resident.write().remove(&key);
            self.evictions += 1;
        }
        self.held = held;
        debug_assert_eq!(self.held, Held::of(self.slots.values()));
        // What the loaded pieces leave of the budget is the room for buffers kept for reuse;
        // loads in flight take theirs out of it.
        self.source
            .spare_bytes(self.config.budget_bytes.saturating_sub(used - queued));
        // Wake a loader last: one woken at once would take its buffers from the pool before
        // the pieces evicted above had given theirs back.
        if posted {
            self.lane.posted();
        }
        self.plan = Some(Plan {
            focus,
            slack,
            retry_at,
        });
    }
}
