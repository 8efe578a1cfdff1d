//! Planet collision chunks: small heightfields in their own tangent-plane frame, streamed by
//! the same [`Streamer`](crate::stream::Streamer). Chunk (face, x, z) covers face samples
//! `x·C ..= (x+1)·C` and likewise z. Its frame sits on the sea-level sphere under the chunk's
//! centre: `up` is the radial direction, `axis_x` follows the face's +a direction, and
//! `axis_z = axis_x × up` (right-handed, Y up, as Godot and Jolt expect). Sample (i, j) is
//! the ground point straight above (or below) the tangent point `origin + (corner_x + i·s)·
//! axis_x + (corner_z + j·s)·axis_z` along `up`, its value that point's height along `up`:
//! so every sample lies exactly on the planet's surface, in the chunk's own flat frame.

use std::sync::Arc;

use crate::config::ConfigError;
use crate::error::FormatError;
use crate::layer::Layer;
use crate::recent::Recent;
use crate::stream::{Resident, Source};

use super::blob::TileKey;
use glam::DVec3;

use super::cube;
use super::opened::{bilinear, Planet, PlanetTile};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlanetChunkKey {
    pub face: u8,
    pub x: u16,
    pub z: u16,
}

/// A chunk's frame: origin on the sea-level sphere and three orthonormal axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChunkFrame {
    pub origin: DVec3,
    pub axis_x: DVec3,
    pub up: DVec3,
    pub axis_z: DVec3,
}

impl ChunkFrame {
    /// A flat world's frame: the world itself (origin 0, axes X, Y, Z).
    pub const WORLD: ChunkFrame = ChunkFrame {
        origin: DVec3::ZERO,
        axis_x: DVec3::X,
        up: DVec3::Y,
        axis_z: DVec3::Z,
    };
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanetChunk {
    pub key: PlanetChunkKey,
    pub frame: ChunkFrame,
    /// Samples per side, C + 1.
    pub samples: u32,
    /// `samples²` heights along `up`, row-major with X fastest.
    pub heights: Vec<f32>,
    pub min_height: f32,
    pub max_height: f32,
    /// Metres between samples in the tangent plane.
    pub spacing: f64,
    /// Frame (x, z) of sample (0, 0).
    pub corner: [f64; 2],
}

/// At most this many chunks along a face side: the source keeps each chunk's bounds (6 · 256²
/// entries, 12 MB), so a tiny chunk on a big face must not reserve gigabytes.
pub const MAX_CHUNKS_PER_SIDE: u32 = 256;

/// Tiles read for chunks while not resident, kept for the next chunks: a tile is 4–16
/// chunks a side, and a chunk reads up to four tiles.
const RECENT_TILES: usize = 4;

/// One tile's heights as a chunk reads them.
enum TileHeights {
    Resident(Arc<PlanetTile>),
    Read(Arc<Layer<f32>>),
}

impl TileHeights {
    fn at(&self, k: usize) -> f32 {
        match self {
            TileHeights::Resident(t) => t.height[k],
            TileHeights::Read(h) => h[k],
        }
    }
}

pub struct PlanetChunkSource {
    planet: Arc<Planet>,
    resident: Resident<TileKey, PlanetTile>,
    recent: Recent<TileKey, Layer<f32>>,
    cells: u32,
    /// Per chunk (face-major, then z, then x): centre direction and angular radius.
    bounds: Vec<(DVec3, f64)>,
}

impl PlanetChunkSource {
    /// Chunks of `cells` samples a side (64 ≈ 1.2 km at 19 m cells); it must divide the face
    /// resolution.
    pub fn new(
        planet: Arc<Planet>,
        resident: Resident<TileKey, PlanetTile>,
        cells: u32,
    ) -> Result<PlanetChunkSource, ConfigError> {
        let n = planet.face_resolution();
        if cells < 2 || n % cells != 0 || n / cells > MAX_CHUNKS_PER_SIDE {
            return Err(ConfigError::new(
                "cells",
                format!(
                    "{cells} samples must divide the face resolution {n}, at most \
                     {MAX_CHUNKS_PER_SIDE} chunks to a face side"
                ),
            ));
        }
        let mut source = PlanetChunkSource {
            planet,
            resident,
            recent: Recent::new(RECENT_TILES),
            cells,
            bounds: Vec::new(),
        };
        let per = source.per_face() as u16;
        let mut bounds = Vec::with_capacity(6 * (per as usize).pow(2));
        for face in 0..6u8 {
            for z in 0..per {
                for x in 0..per {
                    bounds.push(source.centre_and_reach(PlanetChunkKey { face, x, z }));
                }
            }
        }
        source.bounds = bounds;
        Ok(source)
    }

    pub fn cells(&self) -> u32 {
        self.cells
    }

    fn per_face(&self) -> u32 {
        self.planet.face_resolution() / self.cells
    }

    /// Direction at face sample coordinates (continuous, may be a little beyond the face).
    fn dir(&self, face: usize, i: f64, j: f64) -> DVec3 {
        let n = self.planet.face_resolution();
        cube::direction(
            self.planet.projection(),
            face,
            i * 2.0 / n as f64 - 1.0,
            j * 2.0 / n as f64 - 1.0,
        )
    }

    /// The chunk containing the direction of `pos`.
    pub fn key_at(&self, pos: DVec3) -> PlanetChunkKey {
        let n = self.planet.face_resolution();
        let (face, a, b) = cube::face_coords(self.planet.projection(), cube::normalize(pos));
        let idx = |c: f64| {
            ((c + 1.0) * 0.5 * n as f64 / self.cells as f64)
                .floor()
                .clamp(0.0, self.per_face() as f64 - 1.0) as u16
        };
        PlanetChunkKey {
            face: face as u8,
            x: idx(a),
            z: idx(b),
        }
    }

    fn centre_and_reach(&self, key: PlanetChunkKey) -> (DVec3, f64) {
        let c = self.cells as f64;
        let (x0, z0) = (key.x as f64 * c, key.z as f64 * c);
        let centre = self.dir(key.face as usize, x0 + c / 2.0, z0 + c / 2.0);
        let reach = [(x0, z0), (x0 + c, z0), (x0, z0 + c), (x0 + c, z0 + c)]
            .iter()
            .map(|&(i, j)| cube::angle(centre, self.dir(key.face as usize, i, j)))
            .fold(0.0, f64::max);
        (centre, reach)
    }

    /// The chunk's frame and its square in the tangent plane (corner, spacing).
    pub fn frame(&self, key: PlanetChunkKey) -> (ChunkFrame, [f64; 2], f64) {
        let r = self.planet.radius();
        let c = self.cells as f64;
        let f = key.face as usize;
        let (x0, z0) = (key.x as f64 * c, key.z as f64 * c);
        let up = self.dir(f, x0 + c / 2.0, z0 + c / 2.0);
        let (west, east) = (
            self.dir(f, x0, z0 + c / 2.0),
            self.dir(f, x0 + c, z0 + c / 2.0),
        );
        let along = east - west;
        let axis_x = cube::normalize(along - along.dot(up) * up);
        let axis_z = axis_x.cross(up);
        let origin = up * r;
        // The square in the tangent plane that holds the chunk's whole footprint (face cells
        // near cube corners are skewed, so a square only just around them leaves gaps):
        // neighbours overlap a little instead, and every sample lies on the surface anyway.
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for k in 0..=8 {
            let t = k as f64 * c / 8.0;
            for (i, j) in [
                (x0 + t, z0),
                (x0 + t, z0 + c),
                (x0, z0 + t),
                (x0 + c, z0 + t),
            ] {
                let d = self.dir(f, i, j);
                let w = d.dot(up);
                for (a, axis) in [(0, axis_x), (1, axis_z)] {
                    let q = r * d.dot(axis) / w;
                    lo[a] = lo[a].min(q);
                    hi[a] = hi[a].max(q);
                }
            }
        }
        let side = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        let spacing = side / c;
        let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        (
            ChunkFrame {
                origin,
                axis_x,
                up,
                axis_z,
            },
            [mid[0] - side / 2.0, mid[1] - side / 2.0],
            spacing,
        )
    }

    /// Builds a chunk from a height lookup by direction.
    pub fn build(
        &self,
        key: PlanetChunkKey,
        mut height: impl FnMut(DVec3) -> Option<f32>,
    ) -> Option<PlanetChunk> {
        let (frame, corner, spacing) = self.frame(key);
        let r = self.planet.radius();
        let samples = self.cells + 1;
        let mut heights = Vec::with_capacity((samples * samples) as usize);
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for j in 0..samples {
            for i in 0..samples {
                let (x, z) = (
                    corner[0] + i as f64 * spacing,
                    corner[1] + j as f64 * spacing,
                );
                let p = frame.origin + x * frame.axis_x + z * frame.axis_z;
                // The ground point straight above (x, z) along `up`: where |p + y·up| is
                // R + the height in its own direction. Three fixed-point steps settle it
                // (the direction moves by h·|x|/R², a few centimetres).
                let rho2 = x * x + z * z;
                let mut d = cube::normalize(p);
                let mut y = 0.0;
                for _ in 0..3 {
                    let h = height(d)? as f64;
                    y = ((r + h) * (r + h) - rho2).max(0.0).sqrt() - r;
                    d = cube::normalize(p + y * frame.up);
                }
                let y = y as f32;
                lo = lo.min(y);
                hi = hi.max(y);
                heights.push(y);
            }
        }
        Some(PlanetChunk {
            key,
            frame,
            samples,
            heights,
            min_height: lo,
            max_height: hi,
            spacing,
            corner,
        })
    }

    /// Tile `tk`'s heights: resident, read lately, or read now (outside any lock: two chunks
    /// wanting one tile at once share its read through the byte source).
    fn heights_of(&self, tk: TileKey) -> Result<TileHeights, FormatError> {
        if let Some(tile) = self.resident.read().get(&tk).cloned() {
            return Ok(TileHeights::Resident(tile));
        }
        self.recent
            .get_or_read(tk, || self.planet.read_heights(tk))
            .map(TileHeights::Read)
    }
}

impl Source for PlanetChunkSource {
    type Key = PlanetChunkKey;
    type Item = PlanetChunk;
    type Error = FormatError;

    /// Chunks near the focus: on each face the focus projects onto, a window of chunk indices
    /// around the projection, each checked by great-circle distance.
    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(PlanetChunkKey, f64)>) {
        if !focus.is_finite() || focus == DVec3::ZERO {
            return;
        }
        let d = cube::normalize(focus);
        let p = self.planet.projection();
        let n = self.planet.face_resolution() as f64;
        let per = self.per_face() as i64;
        // Chunks are at least this wide (face-corner cells are the smallest, 1/1.41).
        let min_chunk = self.planet.spacing() * self.cells as f64 / 1.5;
        let span = (radius / min_chunk).ceil() as i64 + 1;
        for (face, [nrm, rgt, top]) in cube::FACES.iter().enumerate() {
            let w = d.dot(*nrm);
            if w < 0.2 {
                continue; // the focus is far round the sphere from this face
            }
            let (u, v) = (d.dot(*rgt) / w, d.dot(*top) / w);
            let to_chunk = |c: f64| ((c + 1.0) * 0.5 * n / self.cells as f64).floor() as i64;
            let (ci, cj) = (
                to_chunk(p.from_plane(u).clamp(-1.5, 1.5)),
                to_chunk(p.from_plane(v).clamp(-1.5, 1.5)),
            );
            for z in (cj - span).max(0)..=(cj + span).min(per - 1) {
                for x in (ci - span).max(0)..=(ci + span).min(per - 1) {
                    let key = PlanetChunkKey {
                        face: face as u8,
                        x: x as u16,
                        z: z as u16,
                    };
                    let dist = self.distance(key, focus);
                    if dist <= radius {
                        out.push((key, dist));
                    }
                }
            }
        }
    }

    fn distance(&self, key: PlanetChunkKey, focus: DVec3) -> f64 {
        let per = self.per_face() as usize;
        let (c, reach) =
            self.bounds[(key.face as usize * per + key.z as usize) * per + key.x as usize];
        (cube::angle(cube::normalize(focus), c) - reach).max(0.0) * self.planet.radius()
    }

    fn estimate_bytes(&self, _: PlanetChunkKey) -> usize {
        ((self.cells + 1) as usize).pow(2) * 4
    }

    fn item_bytes(c: &PlanetChunk) -> usize {
        c.heights.len() * 4
    }

    /// Heights from resident tiles; a tile not resident yet is read from the blob (slower,
    /// but the chunk is never late for want of it) and kept among the last few so read, for
    /// the chunks beside this one that want it too.
    fn load(&self, key: PlanetChunkKey) -> Result<PlanetChunk, FormatError> {
        let (n, t) = (
            self.planet.face_resolution(),
            self.planet.tile_size() as i64,
        );
        let mut local: rustc_hash::FxHashMap<TileKey, TileHeights> = Default::default();
        let mut failure = None;
        let chunk = self.build(key, |d| {
            bilinear(self.planet.projection(), n, d, |f, i, j| {
                let tk = TileKey {
                    face: f as u8,
                    tx: (i / t) as u16,
                    ty: (j / t) as u16,
                };
                if let std::collections::hash_map::Entry::Vacant(slot) = local.entry(tk) {
                    match self.heights_of(tk) {
                        Ok(h) => slot.insert(h),
                        Err(e) => {
                            failure = Some(e);
                            return None;
                        }
                    };
                }
                Some(local[&tk].at(((j % t) * t + i % t) as usize))
            })
        });
        match (chunk, failure) {
            (Some(c), _) => Ok(c),
            (None, Some(e)) => Err(e),
            (None, None) => Err(FormatError::Corrupt(format!(
                "chunk {key:?} has no samples"
            ))),
        }
    }
}
