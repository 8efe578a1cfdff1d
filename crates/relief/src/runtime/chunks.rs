//! Collision chunks of either kind of ground behind one type: [`Chunks`] streams them,
//! [`ChunkLookup`] finds built ones from any thread, and [`Heightfield`] is one built chunk
//! with its frame — the geometry an engine turns into a physics shape, worked out here once
//! for flat worlds and planets alike.

use glam::DVec3;
use std::sync::Arc;
use std::time::Duration;

use super::ground::{check_focus, Streamed};
use crate::config::ConfigError;
use crate::error::FormatError;
use crate::flat::collision::{ChunkKey, ChunkSource, CollisionChunk};
use crate::planet::collision::{ChunkFrame, PlanetChunk, PlanetChunkKey, PlanetChunkSource};
use crate::stream::{Event, Loaders, Resident, Stats, StreamConfig, Streamer};

/// Flat chunks are 64 m by default (planet chunks: [`PlanetChunkSource::cells_for`]).
pub const DEFAULT_FLAT_CHUNK_M: f64 = 64.0;

/// A collision chunk of either kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChunkId {
    Flat(ChunkKey),
    Planet(PlanetChunkKey),
}

impl ChunkId {
    /// (cube face, x, z): face 0 on flat worlds.
    pub fn face_x_z(self) -> (u32, i32, i32) {
        match self {
            ChunkId::Flat(k) => (0, k.x, k.z),
            ChunkId::Planet(k) => (k.face as u32, k.x as i32, k.z as i32),
        }
    }
}

/// One built chunk: `samples²` heights, row-major with X fastest, NaN where the ground has a
/// hole. Sample (i, j) is at `origin + (corner_x + i·spacing)·axis_x + height·up +
/// (corner_z + j·spacing)·axis_z` of its [`frame`](Heightfield::frame): on a flat world the
/// frame is the world's ([`ChunkFrame::WORLD`]), on a planet the chunk's own tangent frame.
#[derive(Clone, Debug)]
pub enum Heightfield {
    Flat(Arc<CollisionChunk>),
    Planet(Arc<PlanetChunk>),
}

impl Heightfield {
    pub fn id(&self) -> ChunkId {
        match self {
            Heightfield::Flat(c) => ChunkId::Flat(c.key),
            Heightfield::Planet(c) => ChunkId::Planet(c.key),
        }
    }

    /// Samples per side (cells + 1).
    pub fn samples(&self) -> u32 {
        match self {
            Heightfield::Flat(c) => c.samples,
            Heightfield::Planet(c) => c.samples,
        }
    }

    pub fn heights(&self) -> &[f32] {
        match self {
            Heightfield::Flat(c) => &c.heights,
            Heightfield::Planet(c) => &c.heights,
        }
    }

    /// `(samples − 1)²` cells, row-major with X fastest, one byte each: the Terrain3D
    /// texture slot that shows most at the cell's first sample on a flat world, the ground
    /// class at its centre on a planet.
    pub fn materials(&self) -> &[u8] {
        match self {
            Heightfield::Flat(c) => &c.materials,
            Heightfield::Planet(c) => &c.materials,
        }
    }

    /// Lowest and highest non-hole height (both 0 if every sample is a hole).
    pub fn height_range(&self) -> (f32, f32) {
        match self {
            Heightfield::Flat(c) => (c.min_height, c.max_height),
            Heightfield::Planet(c) => (c.min_height, c.max_height),
        }
    }

    /// Metres between samples along the frame's X and Z axes.
    pub fn spacing(&self) -> f64 {
        match self {
            Heightfield::Flat(c) => c.spacing,
            Heightfield::Planet(c) => c.spacing,
        }
    }

    /// Frame (x, z) of sample (0, 0): where Jolt's HeightFieldShape is offset to.
    pub fn corner(&self) -> [f64; 2] {
        match self {
            Heightfield::Flat(c) => c.corner,
            Heightfield::Planet(c) => c.corner,
        }
    }

    /// Frame (x, z) of the square's centre: where Godot centres a HeightMapShape3D.
    pub fn centre(&self) -> [f64; 2] {
        let side = self.spacing() * (self.samples() - 1) as f64;
        let c = self.corner();
        [c[0] + side / 2.0, c[1] + side / 2.0]
    }

    pub fn frame(&self) -> ChunkFrame {
        match self {
            Heightfield::Flat(_) => ChunkFrame::WORLD,
            Heightfield::Planet(c) => c.frame,
        }
    }
}

/// Finds chunks by position and built chunks by id, from any thread, without touching the
/// streamer that builds them. Cheap to clone.
#[derive(Clone)]
pub enum ChunkLookup {
    Flat {
        source: Arc<ChunkSource>,
        built: Resident<ChunkKey, CollisionChunk>,
    },
    Planet {
        source: Arc<PlanetChunkSource>,
        built: Resident<PlanetChunkKey, PlanetChunk>,
    },
}

impl ChunkLookup {
    /// The chunk under `pos` (world x, y, z on a flat world, y ignored; the planet frame on a
    /// planet, where the centre has none).
    pub fn key_at(&self, pos: DVec3) -> Option<ChunkId> {
        match self {
            ChunkLookup::Flat { source, .. } => Some(ChunkId::Flat(source.key_at(pos[0], pos[2]))),
            ChunkLookup::Planet { source, .. } => check_focus(true, pos)
                .ok()
                .map(|()| ChunkId::Planet(source.key_at(pos))),
        }
    }

    /// The id of chunk (face, x, z) on this kind of ground, if such an id can exist (face 0
    /// on flat worlds; face < 6 and x, z within a face's u16 range on planets).
    pub fn id(&self, face: u32, x: i32, z: i32) -> Option<ChunkId> {
        match self {
            ChunkLookup::Flat { .. } => (face == 0).then_some(ChunkId::Flat(ChunkKey { x, z })),
            ChunkLookup::Planet { .. } => {
                let in_range = |v: i32| u16::try_from(v).ok();
                Some(ChunkId::Planet(PlanetChunkKey {
                    face: u8::try_from(face).ok().filter(|f| *f < 6)?,
                    x: in_range(x)?,
                    z: in_range(z)?,
                }))
            }
        }
    }

    /// The built chunk `id`, if it is resident.
    pub fn get(&self, id: ChunkId) -> Option<Heightfield> {
        match (self, id) {
            (ChunkLookup::Flat { built, .. }, ChunkId::Flat(k)) => {
                built.read().get(&k).cloned().map(Heightfield::Flat)
            }
            (ChunkLookup::Planet { built, .. }, ChunkId::Planet(k)) => {
                built.read().get(&k).cloned().map(Heightfield::Planet)
            }
            _ => None,
        }
    }

    /// Whether the chunk under `pos` is built: what "the player stands on collision" means.
    pub fn is_built_at(&self, pos: DVec3) -> bool {
        self.key_at(pos).and_then(|id| self.get(id)).is_some()
    }
}

/// The collision chunk streamer of a flat world or a planet.
pub enum Chunks {
    Flat(Streamer<ChunkSource>),
    Planet(Streamer<PlanetChunkSource>),
}

impl Chunks {
    /// A chunk streamer over `streamed`'s resident pieces. `size_m` is the chunk's side in
    /// metres, 0 for the default: on a flat world a whole number of samples (2–4096, and no
    /// wider than the world; 64 m by default); on a planet rounded to the nearest size
    /// [`PlanetChunkSource::cells_for`] allows (64 samples by default).
    /// They load on `loaders`, which the piece streamer may share.
    pub fn new(
        streamed: &Streamed,
        config: StreamConfig,
        size_m: f64,
        loaders: &Loaders,
    ) -> Result<Chunks, ConfigError> {
        config.validate().map_err(|e| e.within("stream"))?;
        Ok(match streamed {
            Streamed::Flat { world, regions } => {
                let size = if size_m == 0.0 {
                    DEFAULT_FLAT_CHUNK_M
                } else {
                    size_m
                };
                let source = ChunkSource::new(world.clone(), regions.clone(), size)?;
                Chunks::Flat(Streamer::new(Arc::new(source), config, loaders)?)
            }
            Streamed::Planet { planet, tiles } => {
                let cells = PlanetChunkSource::cells_for(planet, size_m)?;
                let source = PlanetChunkSource::new(planet.clone(), tiles.clone(), cells)
                    .map_err(|e| ConfigError::new("chunk_size_m", e.problem))?;
                Chunks::Planet(Streamer::new(Arc::new(source), config, loaders)?)
            }
        })
    }

    pub fn lookup(&self) -> ChunkLookup {
        match self {
            Chunks::Flat(s) => ChunkLookup::Flat {
                source: s.source().clone(),
                built: s.resident(),
            },
            Chunks::Planet(s) => ChunkLookup::Planet {
                source: s.source().clone(),
                built: s.resident(),
            },
        }
    }

    pub fn config(&self) -> &StreamConfig {
        match self {
            Chunks::Flat(s) => s.config(),
            Chunks::Planet(s) => s.config(),
        }
    }

    /// As [`Streamer::update`]: queues builds within the load radius, nearest first.
    pub fn update(&mut self, focus: DVec3) {
        match self {
            Chunks::Flat(s) => s.update(focus),
            Chunks::Planet(s) => s.update(focus),
        }
    }

    /// As [`Streamer::record_update_times`].
    pub fn record_update_times(&mut self, on: bool) {
        match self {
            Chunks::Flat(s) => s.record_update_times(on),
            Chunks::Planet(s) => s.record_update_times(on),
        }
    }

    /// As [`Streamer::settle`].
    pub fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        match self {
            Chunks::Flat(s) => s.settle(focus, timeout),
            Chunks::Planet(s) => s.settle(focus, timeout),
        }
    }

    /// Whether nothing is queued or building.
    pub fn is_idle(&self) -> bool {
        match self {
            Chunks::Flat(s) => s.is_idle(),
            Chunks::Planet(s) => s.is_idle(),
        }
    }

    /// As [`Streamer::for_each_loaded`]: the chunks whose last event was Loaded (ready).
    pub fn for_each_loaded(&self, mut f: impl FnMut(ChunkId)) {
        match self {
            Chunks::Flat(s) => s.for_each_loaded(|k| f(ChunkId::Flat(k))),
            Chunks::Planet(s) => s.for_each_loaded(|k| f(ChunkId::Planet(k))),
        }
    }

    pub fn poll_event(&mut self) -> Option<Event<ChunkId, FormatError>> {
        match self {
            Chunks::Flat(s) => s.poll_event().map(|e| e.map_key(ChunkId::Flat)),
            Chunks::Planet(s) => s.poll_event().map(|e| e.map_key(ChunkId::Planet)),
        }
    }

    pub fn stats(&self) -> Stats {
        match self {
            Chunks::Flat(s) => s.stats(),
            Chunks::Planet(s) => s.stats(),
        }
    }

    pub fn clear_timings(&mut self) {
        match self {
            Chunks::Flat(s) => s.clear_timings(),
            Chunks::Planet(s) => s.clear_timings(),
        }
    }
}
