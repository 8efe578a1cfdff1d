//! What a streaming node runs each frame, with no engine types: one runtime update, the
//! events turned into work for the preparer's threads and calls on an [`Engine`], a bounded
//! time spent handing prepared pieces over, and the far-ground levels that changed.
//!
//! `ReliefTerrain` and `ReliefPlanet` implement [`Engine`] with Godot calls (signals, Images,
//! PhysicsServer3D bodies, texture layers); the tests and the main-thread bench implement it
//! with plain Rust, so the code they exercise is the code the nodes run.

use relief::DVec3;
use std::collections::HashSet;
use std::time::{Duration, Instant};

use std::sync::Arc;

use relief::runtime::{ChunkId, PieceKey, UpdateError};
use relief::stream::Event;
use relief::things::{ThingChunk, ThingKey};
use relief::{Runtime, RuntimeEvent};

use crate::far::{level_bytes, FarGround};
use crate::maps::{ImageBytes, RegionMaps};
use crate::prepare::{Prepared, Preparer, Work};
use crate::shape::ShapeData;
use crate::things::RunBounds;

/// What the preparer works on: a region or tile, a collision chunk or a thing chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Piece(PieceKey),
    Chunk(ChunkId),
    Things(ThingKey),
}

/// What a frame asks of the engine side. Every call happens on the thread running
/// [`Driver::frame`] (the main thread), in the order things happened.
pub trait Engine {
    /// A flat world's region is ready as Image bytes.
    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps);
    /// A planet's tile is ready: its heights as one `FORMAT_RF` Image's bytes.
    fn tile_ready(&mut self, key: PieceKey, height: ImageBytes);
    /// A region or tile handed over earlier left the drop radius (or the node stopped).
    fn piece_unloaded(&mut self, key: PieceKey);
    /// A region or tile failed to load; it will be retried, and nothing else is dropped.
    fn piece_failed(&mut self, key: PieceKey, message: &str);
    /// A collision chunk's shape is ready: create (or replace) its body.
    fn chunk_ready(&mut self, id: ChunkId, shape: ShapeData);
    /// A collision chunk handed over earlier left (or the node stopped): free its body.
    fn chunk_dropped(&mut self, id: ChunkId);
    /// A thing chunk is built: draw its runs (`bounds`, one per run, with its rows in
    /// `chunk`) and add its colliders. Only with placed things configured.
    fn things_ready(&mut self, _key: ThingKey, _chunk: Arc<ThingChunk>, _bounds: Vec<RunBounds>) {}
    /// A thing chunk handed over earlier left (or the node stopped): free what it made.
    fn things_dropped(&mut self, _key: ThingKey) {}
    /// Far-ground level `level` changed: re-upload its layer (`FORMAT_RF`, `size²`).
    fn level_changed(&mut self, level: usize, bytes: &[u8]);
    /// Where the levels lie changed: set the shader's parameters from `far`.
    fn levels_moved(&mut self, far: &FarGround);
    /// Whether the engine still takes new pieces and chunks. A node stopped from a signal
    /// handler mid-frame says no: the rest of the frame's prepared work is dropped, never
    /// handed (so never unloaded either).
    fn accepting(&self) -> bool {
        true
    }
}

/// What one frame did, for stats and the bench.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCounts {
    /// Runtime events handled.
    pub events: usize,
    /// Prepared pieces and chunks handed to the engine.
    pub handed: usize,
    /// Far-ground levels re-uploaded.
    pub levels: u32,
}

/// A runtime, its preparer and its far-ground buffers: everything a node keeps between frames
/// besides engine objects.
pub struct Driver {
    runtime: Runtime,
    preparer: Preparer<Key>,
    far: Option<FarGround>,
    /// What the engine holds: only these are ever unloaded or dropped, so an engine never
    /// hears of a piece it was not given (Terrain3D logs an error for such a removal).
    handed: HashSet<Key>,
}

impl Driver {
    /// Drives `runtime`, preparing bytes on `prepare_threads` threads (at least one).
    pub fn new(runtime: Runtime, prepare_threads: usize) -> Driver {
        let far = runtime.lod().map(|l| FarGround::new(l.clipmap()));
        Driver {
            runtime,
            preparer: Preparer::new(prepare_threads),
            far,
            handed: HashSet::new(),
        }
    }

    /// How many pieces and chunks the engine holds now.
    pub fn handed(&self) -> usize {
        self.handed.len()
    }

    /// Takes back everything the engine holds (pieces unloaded, chunks dropped), as a node
    /// does when it leaves the tree; the runtime ends when the driver is dropped.
    pub fn stop(&mut self, engine: &mut impl Engine) {
        let mut held: Vec<Key> = self.handed.drain().collect();
        // Pieces first, each kind in a fixed order: the same stop, the same calls.
        held.sort_by_key(|k| match k {
            Key::Piece(p) => (0, p.face_x_z(), 0),
            Key::Chunk(c) => (1, c.face_x_z(), 0),
            Key::Things(t) => (2, (t.face as u32, t.x, t.z), t.band as u8),
        });
        for key in held {
            match key {
                Key::Piece(k) => engine.piece_unloaded(k),
                Key::Chunk(id) => engine.chunk_dropped(id),
                Key::Things(k) => engine.things_dropped(k),
            }
        }
    }

    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The far-ground levels' bytes and placements (None when the runtime keeps no levels).
    pub fn far(&self) -> Option<&FarGround> {
        self.far.as_ref()
    }

    /// Pieces and chunks sent to the preparer and not yet handed over.
    pub fn preparing(&self) -> usize {
        self.preparer.pending()
    }

    /// One frame around `focus` (this node's space: world metres, or the planet's frame): one
    /// runtime update, every event it made, then prepared work handed to `engine` until
    /// `budget` has passed on `clock` (one piece at least), then the changed levels. A bad
    /// focus changes nothing and is returned; a planet ring thread's panic is returned after
    /// the rest of the frame ran (the runtime streamed on).
    pub fn frame(
        &mut self,
        focus: DVec3,
        budget: Duration,
        clock: impl FnMut() -> Instant,
        engine: &mut impl Engine,
    ) -> Result<FrameCounts, UpdateError> {
        let rt = &mut self.runtime;
        let levels_failed = match rt.update(focus) {
            Ok(()) => None,
            Err(e @ UpdateError::Focus(_)) => return Err(e),
            Err(e) => Some(e),
        };
        let mut counts = FrameCounts::default();
        while let Some(event) = rt.poll_event() {
            counts.events += 1;
            match event {
                RuntimeEvent::Piece(Event::Loaded { key, .. }) => {
                    if let Some(work) = piece_work(rt, key) {
                        self.preparer.send(Key::Piece(key), work);
                    }
                }
                RuntimeEvent::Piece(Event::Unloaded { key }) => {
                    self.preparer.forget(Key::Piece(key));
                    if self.handed.remove(&Key::Piece(key)) {
                        engine.piece_unloaded(key);
                    }
                }
                RuntimeEvent::Piece(Event::Failed { key, error, .. }) => {
                    self.preparer.forget(Key::Piece(key));
                    engine.piece_failed(key, &error.to_string());
                }
                RuntimeEvent::Chunk(Event::Loaded { key, .. }) => {
                    if let Some(h) = rt.chunk_lookup().and_then(|l| l.get(key)) {
                        self.preparer.send(Key::Chunk(key), Work::Chunk(h));
                    }
                }
                RuntimeEvent::Chunk(Event::Unloaded { key }) => {
                    // A body must not outlive its ground, nor arrive after it left.
                    self.preparer.forget(Key::Chunk(key));
                    if self.handed.remove(&Key::Chunk(key)) {
                        engine.chunk_dropped(key);
                    }
                }
                RuntimeEvent::Chunk(Event::Failed { key, .. }) => {
                    self.preparer.forget(Key::Chunk(key))
                }
                RuntimeEvent::Things(Event::Loaded { key, .. }) => {
                    if let Some(c) = rt.thing_lookup().get(key) {
                        self.preparer.send(Key::Things(key), Work::Things(c));
                    }
                }
                RuntimeEvent::Things(Event::Unloaded { key }) => {
                    self.preparer.forget(Key::Things(key));
                    if self.handed.remove(&Key::Things(key)) {
                        engine.things_dropped(key);
                    }
                }
                // Retried by the runtime; nothing handed is dropped.
                RuntimeEvent::Things(Event::Failed { key, .. }) => {
                    self.preparer.forget(Key::Things(key))
                }
                // The rectangles stay in `rt.dirty()` until the next update.
                RuntimeEvent::LevelsDirty { .. } => {}
                // Returned below, as the update's error.
                RuntimeEvent::LevelsFailed { .. } => {}
                // Never here: this driver drains every event every frame, and one update
                // queues far fewer than the runtime's capacity (4096).
                RuntimeEvent::Overflow { .. } => {}
            }
        }
        let handed = &mut self.handed;
        counts.handed = self.preparer.drain(budget, clock, |key, prepared| {
            if !engine.accepting() {
                return;
            }
            handed.insert(key);
            match (key, prepared) {
                (Key::Piece(k), Prepared::Region(maps)) => engine.region_ready(k, maps),
                (Key::Piece(k), Prepared::Tile(height)) => engine.tile_ready(k, height),
                (Key::Chunk(id), Prepared::Chunk(shape)) => engine.chunk_ready(id, shape),
                (Key::Things(k), Prepared::Things(c, bounds)) => engine.things_ready(k, c, bounds),
                _ => {}
            }
        });
        if !engine.accepting() {
            return levels_failed.map_or(Ok(counts), Err);
        }
        if let (Some(far), Some(lod)) = (&mut self.far, rt.lod()) {
            let set = far.update(lod.clipmap(), lod.plane(), rt.dirty());
            for k in 0..far.levels() {
                if set & (1 << k) != 0 {
                    engine.level_changed(k, level_bytes(lod.clipmap(), k));
                    counts.levels += 1;
                }
            }
            if far.take_moved() {
                engine.levels_moved(far);
            }
        }
        match levels_failed {
            Some(e) => Err(e),
            None => Ok(counts),
        }
    }
}

/// The resident region or tile a `Loaded` event names, as work for the preparer.
fn piece_work(rt: &Runtime, key: PieceKey) -> Option<Work> {
    match key {
        PieceKey::Region(loc) => {
            let regions = rt.pieces().regions()?.resident();
            let region = regions.read().get(&loc).cloned();
            region.map(Work::Region)
        }
        PieceKey::Tile(t) => {
            let tiles = rt.pieces().tiles()?.resident();
            let tile = tiles.read().get(&t).cloned();
            tile.map(Work::Tile)
        }
    }
}
