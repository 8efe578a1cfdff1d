//! The runtime: everything a game streams around its focus, for a flat world or a planet
//! alike, driven by one [`Runtime::update`] a frame.
//!
//! A [`Runtime`] owns the region (or tile) streamer, the collision chunk streamer that reads
//! its resident pieces, the far-ground levels (a clipmap, or a planet's LOD rings), and a
//! query handle. Each update drives them in the order their data flows:
//!
//! 1. the pieces' streamer applies finished loads and re-plans around the focus;
//! 2. the levels follow the focus, and every piece that just arrived refreshes the cells over
//!    it (so a level never shows overview heights where a region is resident);
//! 3. the chunk streamer re-plans (its builds read the pieces now resident), then the
//!    thing streamers (one per band of placed things);
//! 4. everything that happened goes into one event stream, oldest first:
//!    [`RuntimeEvent::Piece`] (loaded, unloaded, failed), [`RuntimeEvent::Chunk`] (ready,
//!    dropped, failed), [`RuntimeEvent::Things`], then one [`RuntimeEvent::LevelsDirty`] if any level cell changed —
//!    [`Runtime::dirty`] lists this update's rectangles, all an engine needs to upload.
//!
//! Like the parts it drives, `update` does no file I/O and no decoding and allocates nothing in
//! steady state. Every part stays reachable ([`Runtime::pieces`], [`Runtime::chunks`],
//! [`Runtime::lod`], [`Runtime::queries`]); collision and levels are optional in
//! [`RuntimeConfig`] (a headless server may want queries and collision, no clipmap).

pub mod chunks;
pub mod ground;
pub mod lod;
pub mod things;

use glam::DVec3;
use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

pub use chunks::{ChunkId, ChunkLookup, Chunks, Heightfield};
pub use ground::{check_focus, BadFocus, Ground, PieceKey, Pieces, Queries, Streamed};
pub use lod::{Lod, LodPlane};
pub use things::{BandConfig, ThingHit, ThingLookup, ThingStream, Things, ThingsConfig};

use crate::config::{at_least, ConfigError};
use crate::error::FormatError;
use crate::lod::{ClipmapConfig, DirtyRect};
use crate::stream::latency::Ring;
use crate::stream::{Event, Loaders, Stats, StreamConfig, MAX_LOADERS};
use crate::things::ThingKey;

/// Why a runtime can't start.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The ground failed to open or its tables failed their checks.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A setting that cannot work, or that this ground can't hold (a chunk size); the
    /// error names the field (`pieces.load_radius`, `collision.chunk_size_m`, `lod.size`).
    #[error("config: {0}")]
    Config(#[from] ConfigError),
}

/// Collision chunks: how they stream and how big they are.
#[derive(Clone, Debug, PartialEq)]
pub struct CollisionConfig {
    /// Within 288 m, kept to 352 m, 64 MiB by default.
    pub stream: StreamConfig,
    /// The chunk's side in metres; 0 for the default (64 m on a flat world, 64 samples on a
    /// planet). See [`Chunks::new`].
    pub chunk_size_m: f64,
}

impl CollisionConfig {
    /// Checks the stream config and the chunk size (finite, 0 or more); whether the ground
    /// can hold that size is checked when a runtime opens it. The error names the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.stream.validate().map_err(|e| e.within("stream"))?;
        at_least("chunk_size_m", self.chunk_size_m, 0.0)
    }
}

impl Default for CollisionConfig {
    fn default() -> Self {
        CollisionConfig {
            stream: crate::flat::collision::stream_config(),
            chunk_size_m: 0.0,
        }
    }
}

/// Everything a runtime is configured by; every default is the part's own.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeConfig {
    /// Regions or tiles: within 512 m, kept to 704 m, 256 MiB by default.
    pub pieces: StreamConfig,
    /// Collision chunks, or None to build none.
    pub collision: Option<CollisionConfig>,
    /// Far-ground levels (6 of 128² from 16 m by default), or None for none.
    pub lod: Option<ClipmapConfig>,
    /// Placed things, by band (seed 003's radii by default), or None for none. A world
    /// without a placement table streams none either way.
    pub things: Option<ThingsConfig>,
    /// The loader threads that read and decode pieces and build collision chunks, shared by
    /// both (a free one takes the nearest job of either); 0, the default, is one fewer than
    /// the cores, at least one. At most [`MAX_LOADERS`]. A planet's levels have a thread
    /// of their own besides.
    pub loader_threads: usize,
    /// The most events kept for [`Runtime::poll_event`] (4096 by default, 16 to 2²⁰): a game
    /// that stops polling (a pause menu) holds this many, then they are counted and dropped
    /// until it polls again, when a [`RuntimeEvent::Overflow`] says how many.
    pub event_capacity: usize,
}

/// The fewest and the most events a runtime keeps ([`RuntimeConfig::event_capacity`]).
pub const EVENT_CAPACITY: std::ops::RangeInclusive<usize> = 16..=1 << 20;

impl RuntimeConfig {
    /// Checks every part's config; the error names the field by its path
    /// (`pieces.drop_radius`, `collision.stream.budget_bytes`, `lod.levels`).
    /// [`Runtime::new`] calls it, so a runtime never starts on such a config.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.pieces.validate().map_err(|e| e.within("pieces"))?;
        if let Some(c) = &self.collision {
            c.validate().map_err(|e| e.within("collision"))?;
        }
        if let Some(l) = &self.lod {
            l.validate().map_err(|e| e.within("lod"))?;
        }
        if let Some(t) = &self.things {
            t.validate().map_err(|e| e.within("things"))?;
        }
        if self.loader_threads > MAX_LOADERS {
            return Err(ConfigError::new(
                "loader_threads",
                format!(
                    "at most {MAX_LOADERS} (0: one fewer than the cores), is {}",
                    self.loader_threads
                ),
            ));
        }
        if !EVENT_CAPACITY.contains(&self.event_capacity) {
            return Err(ConfigError::new(
                "event_capacity",
                format!(
                    "must be {} to {}, is {}",
                    EVENT_CAPACITY.start(),
                    EVENT_CAPACITY.end(),
                    self.event_capacity
                ),
            ));
        }
        Ok(())
    }
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig {
            pieces: StreamConfig::default(),
            collision: Some(CollisionConfig::default()),
            lod: Some(ClipmapConfig::default()),
            things: Some(ThingsConfig::default()),
            loader_threads: 0,
            event_capacity: 4096,
        }
    }
}

/// Something that happened in one update, in order. Poll with [`Runtime::poll_event`].
#[derive(Debug)]
pub enum RuntimeEvent {
    /// A region or tile loaded (hand it to the engine), unloaded (drop it) or failed.
    Piece(Event<PieceKey, FormatError>),
    /// A collision chunk is ready (`Loaded`: build its shape), dropped (`Unloaded`: remove it)
    /// or failed.
    Chunk(Event<ChunkId, FormatError>),
    /// A chunk of placed things is ready (`Loaded`: draw it, [`Runtime::thing_lookup`]),
    /// dropped (`Unloaded`) or failed.
    Things(Event<ThingKey, FormatError>),
    /// `rects` storage rectangles of the levels changed in this update; they are
    /// [`Runtime::dirty`] until the next update.
    LevelsDirty { rects: usize },
    /// A planet's ring thread panicked (a bug in relief); the same update returned
    /// [`UpdateError::LevelsPanicked`]. The levels start again from scratch and arrive with
    /// later updates; everything else streamed on.
    LevelsFailed { message: String },
    /// The queue was full ([`RuntimeConfig::event_capacity`]): `dropped` events since the
    /// one before this were dropped, every one until this was polled. Always the last event
    /// of its drain. Resynchronise: what is loaded now is [`Runtime::for_each_loaded_piece`]
    /// and [`Runtime::for_each_built_chunk`], and every level is to be uploaded whole; later
    /// events follow on from that.
    Overflow { dropped: u64 },
}

/// Why an update did not go as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UpdateError {
    /// Nothing changed: the focus (or camera) can't be streamed around.
    #[error(transparent)]
    Focus(#[from] BadFocus),
    /// The update did everything else, but the planet's ring thread had panicked (a bug in
    /// relief): reported once, with a [`RuntimeEvent::LevelsFailed`].
    #[error("the planet's LOD ring thread panicked (a bug in relief): {0}; its levels start again from scratch, everything else streams on")]
    LevelsPanicked(String),
}

/// Where the last update's time went, measured inside it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimings {
    /// The region or tile streamer's update.
    pub pieces: Duration,
    /// The levels: following the focus and refreshing over arrived pieces.
    pub lod: Duration,
    /// The chunk streamer's update.
    pub chunks: Duration,
    /// The thing streamers' updates.
    pub things: Duration,
    /// The whole update, events included.
    pub total: Duration,
}

/// A snapshot of the runtime, cheap enough to take every frame: about a microsecond (the
/// median was 0.6–1.3 µs on a 2-core machine, `relief bench`'s `<route>.stats_p50_us`), as
/// percentiles are read from windows kept sorted and counts from the last update's tally.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuntimeStats {
    pub pieces: Stats,
    /// None when the runtime builds no collision.
    pub chunks: Option<Stats>,
    /// Each band's thing streamer, by [`Band`](crate::things::Band) (near, mid, far): None
    /// where it streams no things.
    pub things: [Option<Stats>; 3],
    pub last: FrameTimings,
    /// Whole updates over recent frames: the game's own [`Runtime::update`] calls, never
    /// [`Runtime::settle`]'s (a loading screen's work is not a frame's).
    pub update_p50: Duration,
    pub update_p99: Duration,
    pub update_max: Duration,
    /// The updates [`Runtime::settle`] made since creation, and the longest of them since
    /// creation or [`Runtime::clear_timings`].
    pub settle_updates: u64,
    pub settle_update_max: Duration,
    /// Level cells rewritten in the last update, and since creation.
    pub lod_cells_last: u64,
    pub lod_cells_total: u64,
}

/// The runtime's events until polled, bounded.
struct EventQueue {
    /// Reserved up front: steady frames never grow it.
    events: VecDeque<RuntimeEvent>,
    capacity: usize,
    /// Events dropped since the queue filled; while above 0 every new one is dropped too, so
    /// what a caller misses is one stretch, ended by the Overflow event.
    dropped: u64,
}

impl EventQueue {
    fn new(capacity: usize) -> EventQueue {
        EventQueue {
            events: VecDeque::with_capacity(capacity),
            capacity,
            dropped: 0,
        }
    }

    fn push(&mut self, e: RuntimeEvent) {
        if self.dropped > 0 || self.events.len() >= self.capacity {
            self.dropped += 1;
        } else {
            self.events.push_back(e);
        }
    }

    fn pop(&mut self) -> Option<RuntimeEvent> {
        self.events.pop_front().or_else(|| {
            (self.dropped > 0).then(|| RuntimeEvent::Overflow {
                dropped: std::mem::take(&mut self.dropped),
            })
        })
    }
}

pub struct Runtime {
    ground: Ground,
    pieces: Pieces,
    streamed: Streamed,
    queries: Queries,
    chunks: Option<Chunks>,
    lookup: Option<ChunkLookup>,
    things: Option<Things>,
    thing_lookup: ThingLookup,
    lod: Option<Lod>,
    events: EventQueue,
    dirty: Vec<DirtyRect>,
    /// Inside `settle`: its updates queue no LevelsDirty of their own (it queues one).
    settling: bool,
    last: FrameTimings,
    /// Game frames' updates (settle's are counted apart).
    update_time: Ring,
    settle_updates: u64,
    settle_update_max: Duration,
    lod_cells_total: u64,
}

impl Runtime {
    /// Starts streaming `ground` (loader threads start now; nothing loads before the first
    /// update). Fails only where a part can't be made: a config that fails
    /// [`RuntimeConfig::validate`] or a collision chunk size the ground can't hold
    /// ([`RuntimeError::Config`], naming the field), or a planet whose river and lake tables
    /// don't read.
    pub fn new(ground: impl Into<Ground>, config: RuntimeConfig) -> Result<Runtime, RuntimeError> {
        config.validate()?;
        let ground = ground.into();
        let loaders = Loaders::new(config.loader_threads);
        let pieces =
            Pieces::new(&ground, config.pieces, &loaders).map_err(|e| e.within("pieces"))?;
        let streamed = pieces.streamed();
        let queries = streamed.queries()?;
        let chunks = match config.collision {
            Some(c) => Some(
                Chunks::new(&streamed, c.stream, c.chunk_size_m, &loaders)
                    .map_err(|e| e.within("collision"))?,
            ),
            None => None,
        };
        let lookup = chunks.as_ref().map(Chunks::lookup);
        let things = match &config.things {
            Some(c) => {
                let rules = match &ground {
                    Ground::Flat(w) => w.things().clone(),
                    Ground::Planet(p) => p.things()?.clone(),
                };
                Some(Things::new(&queries, &rules, c, &loaders).map_err(|e| e.within("things"))?)
            }
            None => None,
        };
        let thing_lookup = things.as_ref().map(Things::lookup).unwrap_or_default();
        let lod = match config.lod {
            Some(c) => Some(Lod::in_background(&queries, c).map_err(|e| e.within("lod"))?),
            None => None,
        };
        // Per level: four rectangles from following the focus, four per piece refreshed.
        let rects = config.lod.map_or(0, |c| c.levels as usize * 4 * 16);

        Ok(Runtime {
            ground,
            pieces,
            streamed,
            queries,
            chunks,
            lookup,
            things,
            thing_lookup,
            lod,
            events: EventQueue::new(config.event_capacity),
            dirty: Vec::with_capacity(rects),
            settling: false,
            last: FrameTimings::default(),
            update_time: Ring::default(),
            settle_updates: 0,
            settle_update_max: Duration::ZERO,
            lod_cells_total: 0,
        })
    }

    /// Opens a world directory, pack or planet blob ([`Ground::open`]) and starts streaming it.
    pub fn open(path: impl AsRef<Path>, config: RuntimeConfig) -> Result<Runtime, RuntimeError> {
        Runtime::new(Ground::open(path)?, config)
    }

    /// Opens a world pack or planet blob on a server ([`Ground::open_url`]) and starts
    /// streaming it; its loads fetch on the loader threads, through `http`'s disk cache.
    #[cfg(feature = "http")]
    pub fn open_url(
        url: &str,
        http: &crate::http::HttpOptions,
        config: RuntimeConfig,
    ) -> Result<Runtime, RuntimeError> {
        Runtime::new(Ground::open_url(url, http)?, config)
    }

    /// Advances one frame around `focus` (world metres on a flat world, y ignored; the planet
    /// frame on a planet). Call from one thread, the one polling events. A focus that is not
    /// finite, or a planet's centre, changes nothing and is an error.
    pub fn update(&mut self, focus: DVec3) -> Result<(), UpdateError> {
        self.update_with_camera(focus, focus)
    }

    /// [`Runtime::update`] for a game whose camera is not where it streams: regions (or tiles)
    /// and collision follow `focus` (the player), the levels follow `camera` (what the far
    /// ground is drawn around). Either point not finite, or at a planet's centre, changes
    /// nothing and is an error.
    pub fn update_with_camera(&mut self, focus: DVec3, camera: DVec3) -> Result<(), UpdateError> {
        check_focus(self.ground.is_planet(), focus)?;
        check_focus(self.ground.is_planet(), camera)?;
        let start = Instant::now();
        self.pieces.update(focus);
        let t_pieces = start.elapsed();

        let t = Instant::now();
        self.dirty.clear();
        let mut failed = None;
        if let Some(lod) = &mut self.lod {
            self.dirty.extend_from_slice(lod.update(camera)?);
            failed = lod.take_failure();
        }
        while let Some(e) = self.pieces.poll_event() {
            if let (Event::Loaded { key, .. }, Some(lod)) = (&e, &mut self.lod) {
                self.dirty
                    .extend_from_slice(lod.refresh(*key).unwrap_or(&[]));
            }
            self.events.push(RuntimeEvent::Piece(e));
        }
        let t_lod = t.elapsed();

        let t = Instant::now();
        if let Some(chunks) = &mut self.chunks {
            chunks.update(focus);
            while let Some(e) = chunks.poll_event() {
                self.events.push(RuntimeEvent::Chunk(e));
            }
        }
        let t_chunks = t.elapsed();

        let t = Instant::now();
        if let Some(things) = &mut self.things {
            things.update(focus);
            while let Some(e) = things.poll_event() {
                self.events.push(RuntimeEvent::Things(e));
            }
        }
        let t_things = t.elapsed();

        if !self.dirty.is_empty() && !self.settling {
            self.events.push(RuntimeEvent::LevelsDirty {
                rects: self.dirty.len(),
            });
        }
        if let Some(message) = &failed {
            self.events.push(RuntimeEvent::LevelsFailed {
                message: message.clone(),
            });
        }
        self.lod_cells_total += self.dirty_cells();
        self.last = FrameTimings {
            pieces: t_pieces,
            lod: t_lod,
            chunks: t_chunks,
            things: t_things,
            total: start.elapsed(),
        };
        if self.settling {
            self.settle_updates += 1;
            self.settle_update_max = self.settle_update_max.max(self.last.total);
        } else {
            self.update_time.push(self.last.total);
        }
        match failed {
            Some(message) => Err(UpdateError::LevelsPanicked(message)),
            None => Ok(()),
        }
    }

    /// Updates every millisecond until every piece and chunk the focus wants is loaded (or has
    /// failed for good) or `timeout` passes; returns whether it settled. For loading screens,
    /// tools and tests, not per frame. Piece and chunk events queue up as usual; the levels
    /// change over many of its updates, so instead of one LevelsDirty each (whose rectangles
    /// only the last would keep), it queues one at its end, after its other events, with
    /// [`dirty`](Self::dirty) covering every level whole.
    pub fn settle(&mut self, focus: DVec3, timeout: Duration) -> Result<bool, UpdateError> {
        let start = Instant::now();
        let mut rewrote = false;
        self.settling = true;
        self.record_update_times(false);
        let settled = loop {
            let updated = self.update(focus);
            rewrote |= !self.dirty.is_empty();
            match updated {
                Err(e) => break Err(e),
                Ok(()) if self.is_idle() => break Ok(true),
                Ok(()) if start.elapsed() > timeout => break Ok(false),
                Ok(()) => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        self.settling = false;
        self.record_update_times(true);
        if let (true, Some(lod)) = (rewrote, &self.lod) {
            // Every level whole, one rectangle each (within the capacity reserved above).
            let c = *lod.clipmap().config();
            self.dirty.clear();
            self.dirty.extend((0..c.levels).map(|level| DirtyRect {
                level,
                x: 0,
                z: 0,
                width: c.size,
                depth: c.size,
            }));
            self.events.push(RuntimeEvent::LevelsDirty {
                rects: self.dirty.len(),
            });
        }
        settled
    }

    /// Whether the piece and chunk streamers count their updates in their update figures.
    fn record_update_times(&mut self, on: bool) {
        self.pieces.record_update_times(on);
        if let Some(c) = &mut self.chunks {
            c.record_update_times(on);
        }
        if let Some(t) = &mut self.things {
            t.record_update_times(on);
        }
    }

    /// Whether nothing is queued or loading, pieces and chunks alike, and the levels show
    /// what was last asked of them.
    pub fn is_idle(&self) -> bool {
        self.pieces.is_idle()
            && self.chunks.as_ref().map_or(true, Chunks::is_idle)
            && self.things.as_ref().map_or(true, Things::is_idle)
            && self.lod.as_ref().map_or(true, Lod::is_idle)
    }

    /// Takes the oldest event, if any; after the last kept one, an [`RuntimeEvent::Overflow`]
    /// if events were dropped.
    pub fn poll_event(&mut self) -> Option<RuntimeEvent> {
        self.events.pop()
    }

    /// Calls `f` with every region or tile whose last event was Loaded: what an engine
    /// following the events holds. After an [`RuntimeEvent::Overflow`], the set to rebuild
    /// from.
    pub fn for_each_loaded_piece(&self, f: impl FnMut(PieceKey)) {
        self.pieces.for_each_loaded(f);
    }

    /// Calls `f` with every collision chunk whose last event was Loaded (ready); none without
    /// collision.
    pub fn for_each_built_chunk(&self, f: impl FnMut(ChunkId)) {
        if let Some(c) = &self.chunks {
            c.for_each_loaded(f);
        }
    }

    /// Calls `f` with every thing chunk whose last event was Loaded; none without things.
    pub fn for_each_built_thing_chunk(&self, f: impl FnMut(ThingKey)) {
        if let Some(t) = &self.things {
            t.for_each_loaded(f);
        }
    }

    /// The level rectangles the last update rewrote (in storage cells; may overlap).
    pub fn dirty(&self) -> &[DirtyRect] {
        &self.dirty
    }

    pub fn stats(&self) -> RuntimeStats {
        RuntimeStats {
            pieces: self.pieces.stats(),
            chunks: self.chunks.as_ref().map(Chunks::stats),
            things: self
                .things
                .as_ref()
                .map_or([None, None, None], Things::stats),
            last: self.last,
            update_p50: self.update_time.percentile(50.0),
            update_p99: self.update_time.percentile(99.0),
            update_max: self.update_time.max(),
            settle_updates: self.settle_updates,
            settle_update_max: self.settle_update_max,
            lod_cells_last: self.dirty_cells(),
            lod_cells_total: self.lod_cells_total,
        }
    }

    /// Forgets the timings behind [`RuntimeStats`]' percentiles and maxima — update times,
    /// and the pieces' and chunks' load latency, load time and update time — keeping every
    /// count. Call it when a loading screen ends, so telemetry of play carries none of it.
    ///
    /// ```no_run
    /// # let mut rt = relief::Runtime::open("worlds/default", Default::default()).unwrap();
    /// let spawn = [0.0, 0.0, 0.0];
    /// rt.settle(spawn, std::time::Duration::from_secs(30)).unwrap(); // loading screen
    /// rt.clear_timings();
    /// ```
    pub fn clear_timings(&mut self) {
        self.update_time.clear();
        self.settle_update_max = Duration::ZERO;
        self.pieces.clear_timings();
        if let Some(c) = &mut self.chunks {
            c.clear_timings();
        }
        if let Some(t) = &mut self.things {
            t.clear_timings();
        }
    }

    /// Level cells the last update rewrote.
    fn dirty_cells(&self) -> u64 {
        self.dirty
            .iter()
            .map(|r| r.width as u64 * r.depth as u64)
            .sum()
    }

    /// Where the last update's time went.
    pub fn timings(&self) -> FrameTimings {
        self.last
    }

    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// The region or tile streamer (its stats, config, source and resident map).
    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }

    /// The ground and its resident pieces, for views; cheap to clone into other threads.
    pub fn streamed(&self) -> &Streamed {
        &self.streamed
    }

    /// The query handle; clone it into any thread.
    pub fn queries(&self) -> &Queries {
        &self.queries
    }

    /// The collision chunk streamer, if the runtime builds collision.
    pub fn chunks(&self) -> Option<&Chunks> {
        self.chunks.as_ref()
    }

    /// Finds built chunks from any thread, if the runtime builds collision.
    pub fn chunk_lookup(&self) -> Option<&ChunkLookup> {
        self.lookup.as_ref()
    }

    /// The thing streamers, if the runtime places things.
    pub fn things(&self) -> Option<&Things> {
        self.things.as_ref()
    }

    /// Finds built thing chunks and the things near a point, from any thread (empty without
    /// things).
    pub fn thing_lookup(&self) -> &ThingLookup {
        &self.thing_lookup
    }

    /// The far-ground levels, if the runtime keeps them.
    pub fn lod(&self) -> Option<&Lod> {
        self.lod.as_ref()
    }
}
