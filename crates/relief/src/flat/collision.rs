//! Collision chunks: square heightfields near the focus, built on worker threads from the
//! regions' own samples, in exactly the layout Godot's HeightMapShape3D and Jolt's
//! HeightFieldShape take: `(n+1)²` heights, row-major with X fastest, holes as NaN.
//!
//! Chunks stream through the same [`Streamer`](crate::stream::Streamer) as regions: a
//! [`ChunkSource`] names chunks by grid index and "loads" one by reading resident region
//! samples. A region that isn't resident yet (a teleport, the first frames) is read for its
//! height and control layers only, and kept among the last few read, so the 64 chunks of a
//! 512 m region read it once rather than each decoding the whole file.

use glam::DVec3;
use std::sync::Arc;

use crate::config::ConfigError;
use crate::flat::grid::{planar_moved, square_distance, squares_within};
use crate::flat::{Control, FormatError, Region, RegionLocation, World};
use crate::recent::Recent;
use crate::stream::{Resident, Source, StreamConfig};

/// A chunk's index on the collision grid: it covers world x in
/// `[x·size, (x+1)·size]` and likewise z (the far edge is shared with the next chunk).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkKey {
    pub x: i32,
    pub z: i32,
}

/// One collision heightfield.
#[derive(Clone, Debug, PartialEq)]
pub struct CollisionChunk {
    pub key: ChunkKey,
    /// Samples per side, `n + 1` (65 for 64 m at 1 m).
    pub samples: u32,
    /// `samples²` heights in metres, row-major with X fastest; NaN where the ground has a hole.
    pub heights: Vec<f32>,
    /// `(samples − 1)²` cells, row-major with X fastest: the Terrain3D texture slot that shows
    /// most at each cell's first sample (i, j) ([`Control::shown_texture`]; 0 where the
    /// world has no control map).
    pub materials: Vec<u8>,
    /// Lowest and highest non-hole height (both 0 if every sample is a hole).
    pub min_height: f32,
    pub max_height: f32,
    /// World (x, z) of the chunk's centre: Godot centres a HeightMapShape3D on its origin.
    pub centre: [f64; 2],
    /// World (x, z) of sample (0, 0): the corner Jolt's HeightFieldShape offsets from.
    pub corner: [f64; 2],
    /// Metres between samples (scale the shape's X and Z by this).
    pub spacing: f64,
}

/// Builds a chunk from a sample lookup: `sample(gi, gj)` gives the height and control word of
/// global sample (gi, gj), or None if it is unavailable.
pub fn build_chunk(
    key: ChunkKey,
    cells: u32,
    spacing: f64,
    mut sample: impl FnMut(i64, i64) -> Option<(f32, u32)>,
) -> Option<CollisionChunk> {
    let n = cells as i64;
    let samples = cells + 1;
    let mut heights = Vec::with_capacity((samples * samples) as usize);
    let mut materials = Vec::with_capacity((cells * cells) as usize);
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for j in 0..=n {
        for i in 0..=n {
            let (h, control) = sample(key.x as i64 * n + i, key.z as i64 * n + j)?;
            let control = Control::decode(control);
            if i < n && j < n {
                materials.push(control.shown_texture());
            }
            let h = if control.hole { f32::NAN } else { h };
            if !h.is_nan() {
                lo = lo.min(h);
                hi = hi.max(h);
            }
            heights.push(h);
        }
    }
    if lo > hi {
        (lo, hi) = (0.0, 0.0);
    }
    let size = n as f64 * spacing;
    let corner = [key.x as f64 * size, key.z as f64 * size];
    Some(CollisionChunk {
        key,
        samples,
        heights,
        materials,
        min_height: lo,
        max_height: hi,
        centre: [corner[0] + size / 2.0, corner[1] + size / 2.0],
        corner,
        spacing,
    })
}

/// Collision streaming defaults: chunks within 288 m of the focus, kept until 352 m (one
/// chunk of hysteresis), 64 MiB.
pub fn stream_config() -> StreamConfig {
    StreamConfig {
        load_radius: 288.0,
        drop_radius: 352.0,
        budget_bytes: 64 << 20,
        ..StreamConfig::default()
    }
}

/// Regions read for their heights alone, kept for the next chunks: a chunk touches at most
/// four, and the chunks near a focus share them (2 MiB each at 512², outside the budget).
const RECENT_REGIONS: usize = 4;

/// Streams collision chunks of a flat world.
pub struct ChunkSource {
    world: Arc<World>,
    resident: Resident<RegionLocation, Region>,
    /// The last regions read for heights.
    recent: Recent<RegionLocation, Region>,
    cells: u32,
    /// The chunk indices inside the world (inclusive min and max).
    extent: ([i32; 2], [i32; 2]),
}

impl ChunkSource {
    /// Chunks of `size_m` metres (64 m by default in the config): a whole number of samples,
    /// 2–4096 of them, and no wider than the world's narrower side. A size outside that is an
    /// error naming the field and the range.
    pub fn new(
        world: Arc<World>,
        resident: Resident<RegionLocation, Region>,
        size_m: f64,
    ) -> Result<ChunkSource, ConfigError> {
        let m = world.manifest();
        let spacing = m.vertex_spacing;
        let b = m.region_bounds;
        let across = (b.max[0] - b.min[0]).min(b.max[1] - b.min[1]) as i64 + 1;
        let most = (across * m.region_size as i64).min(4096) as f64;
        let cells = (size_m / spacing).round();
        if !(2.0..=most).contains(&cells) || (cells * spacing - size_m).abs() > 1e-9 {
            return Err(ConfigError::new(
                "chunk_size_m",
                format!(
                    "{size_m} m must be a whole number of this world's {spacing} m samples, \
                     {} to {} m",
                    2.0 * spacing,
                    most * spacing
                ),
            ));
        }
        Ok(ChunkSource {
            extent: ChunkSource::chunk_extent(&world, cells as u32),
            world,
            resident,
            recent: Recent::new(RECENT_REGIONS),
            cells: cells as u32,
        })
    }

    pub fn chunk_metres(&self) -> f64 {
        self.cells as f64 * self.world.manifest().vertex_spacing
    }

    /// The chunk whose square contains world (x, z).
    pub fn key_at(&self, x: f64, z: f64) -> ChunkKey {
        let s = self.chunk_metres();
        ChunkKey {
            x: (x / s).floor() as i32,
            z: (z / s).floor() as i32,
        }
    }

    /// `loc`'s heights and control: the resident region if there is one, else one read
    /// lately, else read now (height and control layers only) and kept.
    fn heights(&self, loc: RegionLocation) -> Result<Arc<Region>, FormatError> {
        if let Some(r) = self.resident.read().get(&loc) {
            return Ok(r.clone());
        }
        self.recent
            .get_or_read(loc, || self.world.read_region_heights(loc))
    }

    /// The chunk indices whose squares overlap the world's region bounds (inclusive): the
    /// only chunks `keys_within` can name. Every point of the world has collision: where the
    /// chunk size does not divide the world, the outermost chunks reach past its edge and
    /// repeat its edge samples there.
    fn chunk_extent(world: &World, cells: u32) -> ([i32; 2], [i32; 2]) {
        let m = world.manifest();
        let (n, size) = (cells as i64, m.region_size as i64);
        let b = m.region_bounds;
        let lo = |r: i32| (r as i64 * size).div_euclid(n);
        let hi = |r: i32| ((r as i64 + 1) * size - 1).div_euclid(n);
        let clamp = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        (
            [clamp(lo(b.min[0])), clamp(lo(b.min[1]))],
            [clamp(hi(b.max[0])), clamp(hi(b.max[1]))],
        )
    }
}

impl Source for ChunkSource {
    type Key = ChunkKey;
    type Item = CollisionChunk;
    type Error = FormatError;

    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(ChunkKey, f64)>) {
        squares_within(
            self.chunk_metres(),
            focus[0],
            focus[2],
            radius,
            self.extent,
            |x, z, d| out.push((ChunkKey { x, z }, d)),
        );
    }

    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        planar_moved(from, to)
    }

    fn distance(&self, key: ChunkKey, focus: DVec3) -> f64 {
        square_distance(key.x, key.z, self.chunk_metres(), focus[0], focus[2])
    }

    fn estimate_bytes(&self, _: ChunkKey) -> usize {
        ((self.cells + 1) as usize).pow(2) * 4 + (self.cells as usize).pow(2)
    }

    fn item_bytes(c: &CollisionChunk) -> usize {
        c.heights.len() * 4 + c.materials.len()
    }

    /// Reads the samples from resident regions; a region that is not resident yet is read
    /// from its file, heights and control only, and shared with the next chunks (the chunk
    /// is never late for want of its region's load).
    fn load(&self, key: ChunkKey) -> Result<CollisionChunk, FormatError> {
        let m = self.world.manifest();
        let size = m.region_size as i64;
        let n = self.cells as i64;
        // The world's first and last sample on each axis: a chunk on the far edge shares its
        // last row with a region that doesn't exist, and one reaching past either edge (a
        // size that doesn't divide the world) covers ground that isn't there, so those rows
        // repeat the world's edge samples.
        let b = m.region_bounds;
        let first = [b.min[0] as i64 * size, b.min[1] as i64 * size];
        let last = [
            (b.max[0] as i64 + 1) * size - 1,
            (b.max[1] as i64 + 1) * size - 1,
        ];
        let clamp = |g: [i64; 2]| [g[0].clamp(first[0], last[0]), g[1].clamp(first[1], last[1])];
        // The at most four regions the chunk touches, looked up once.
        let (g0, g1) = (
            clamp([key.x as i64 * n, key.z as i64 * n]),
            clamp([(key.x as i64 + 1) * n, (key.z as i64 + 1) * n]),
        );
        let mut regions: Vec<(RegionLocation, Arc<Region>)> = Vec::with_capacity(4);
        for lz in g0[1].div_euclid(size)..=g1[1].div_euclid(size) {
            for lx in g0[0].div_euclid(size)..=g1[0].div_euclid(size) {
                let loc = RegionLocation::new(lx as i32, lz as i32);
                regions.push((loc, self.heights(loc)?));
            }
        }
        let (lx0, lz0) = (g0[0].div_euclid(size), g0[1].div_euclid(size));
        let across = (g1[0].div_euclid(size) - lx0 + 1) as usize;
        build_chunk(key, self.cells, m.vertex_spacing, |gi, gj| {
            let [gi, gj] = clamp([gi, gj]);
            let r = &regions[(gj.div_euclid(size) - lz0) as usize * across
                + (gi.div_euclid(size) - lx0) as usize]
                .1;
            let k = (gj.rem_euclid(size) * size + gi.rem_euclid(size)) as usize;
            Some((
                r.height[k],
                r.control.as_ref().map_or(Control::BLANK, |c| c[k]),
            ))
        })
        .ok_or(FormatError::NoSuchRegion { x: key.x, z: key.z })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_frame_holes_and_range() {
        let key = ChunkKey { x: -1, z: 2 };
        let c = build_chunk(key, 4, 2.0, |gi, gj| {
            let hole = gi == -2 && gj == 9;
            Some(((gi * 10 + gj) as f32, if hole { 1 << 2 } else { 0 }))
        })
        .unwrap();
        assert_eq!(c.samples, 5);
        assert_eq!(c.heights.len(), 25);
        // Row-major, X fastest: sample (i, j) at j * 5 + i is global (−4 + i, 8 + j).
        assert_eq!(c.heights[0], (-40 + 8) as f32);
        assert_eq!(c.heights[1], (-30 + 8) as f32);
        assert_eq!(c.heights[5], (-40 + 9) as f32);
        assert!(c.heights[5 + 2].is_nan(), "the hole at global (−2, 9)");
        assert_eq!(c.corner, [-8.0, 16.0]);
        assert_eq!(c.centre, [-4.0, 20.0]);
        let finite: Vec<f32> = c.heights.iter().copied().filter(|h| !h.is_nan()).collect();
        assert_eq!(
            c.min_height,
            finite.iter().cloned().fold(f32::INFINITY, f32::min)
        );
        assert_eq!(
            c.max_height,
            finite.iter().cloned().fold(f32::NEG_INFINITY, f32::max)
        );
        assert!(build_chunk(key, 4, 2.0, |_, _| None).is_none());
    }

    /// A cell's material is the texture that shows most at its first sample: the overlay
    /// where the blend is 128 or more, else the base; one per cell, X fastest.
    #[test]
    fn each_cell_carries_the_texture_its_first_sample_shows() {
        let word = |gi: i64, gj: i64| {
            Control {
                base: (gi.rem_euclid(7)) as u8,
                overlay: 20 + (gj.rem_euclid(5)) as u8,
                blend: if (gi + gj) % 2 == 0 { 200 } else { 100 },
                ..Default::default()
            }
            .encode()
        };
        let key = ChunkKey { x: 2, z: -1 };
        let c = build_chunk(key, 3, 1.0, |gi, gj| Some((0.0, word(gi, gj)))).unwrap();
        assert_eq!(c.materials.len(), 9);
        for j in 0..3i64 {
            for i in 0..3i64 {
                let (gi, gj) = (6 + i, -3 + j);
                let want = Control::decode(word(gi, gj)).shown_texture();
                assert_eq!(c.materials[(j * 3 + i) as usize], want, "cell ({i}, {j})");
                assert_eq!(want >= 20, (gi + gj) % 2 == 0);
            }
        }
    }
}
