//! Planet collision chunks: small heightfields in their own tangent-plane frame, streamed by
//! the same [`Streamer`](crate::stream::Streamer). Chunk (face, x, z) covers face samples
//! `x·C ..= (x+1)·C` and likewise z. Its frame sits on the sea-level sphere under the chunk's
//! centre: `up` is the radial direction, `axis_x` follows the face's +a direction, and
//! `axis_z = axis_x × up` (right-handed, Y up, as Godot and Jolt expect). Sample (i, j) is
//! the ground point straight above (or below) the tangent point `origin + (corner_x + i·s)·
//! axis_x + (corner_z + j·s)·axis_z` along `up`, its value that point's height along `up`:
//! so every sample lies on the planet's surface (within [`ON_SURFACE_M`] of the height query
//! there, solved per sample: see [`on_surface`]), in the chunk's own flat frame.

use std::sync::Arc;

use crate::config::ConfigError;
use crate::error::FormatError;
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
    /// `(samples − 1)²` cells, row-major with X fastest: the ground class (biome id) at each
    /// cell's centre (the face sample nearest the mean of its four corners).
    pub materials: Vec<u8>,
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
/// chunks a side, and a chunk reads up to four tiles (their heights and classes).
const RECENT_TILES: usize = 4;

pub struct PlanetChunkSource {
    planet: Arc<Planet>,
    resident: Resident<TileKey, PlanetTile>,
    recent: Recent<TileKey, PlanetTile>,
    cells: u32,
    /// Per chunk (face-major, then z, then x): centre direction and angular radius.
    bounds: Vec<(DVec3, f64)>,
}

impl PlanetChunkSource {
    /// The chunk sizes a planet of face resolution `n` allows, in samples a side: those
    /// that divide `n`, from 2 (and at least `n` / [`MAX_CHUNKS_PER_SIDE`]) to half a face
    /// (so every chunk's frame stays within about 30° of its tangent point, where the
    /// vertical through each sample meets the ground). Ascending; empty below a 4² face.
    pub fn allowed_cells(n: u32) -> impl Iterator<Item = u32> {
        let smallest = 2.max(n.div_ceil(MAX_CHUNKS_PER_SIDE));
        (smallest..=n / 2).filter(move |c| n % c == 0)
    }

    /// The chunk size nearest `size_m` metres that `planet` allows (see
    /// [`allowed_cells`](Self::allowed_cells)), in samples; 0 asks for the default, 64 samples
    /// (≈ 1.2 km at 19 m), or the allowed size nearest it. A size outside the allowed range
    /// is an error naming it.
    pub fn cells_for(planet: &Planet, size_m: f64) -> Result<u32, ConfigError> {
        let (n, at) = (planet.face_resolution(), planet.spacing());
        let allowed: Vec<u32> = Self::allowed_cells(n).collect();
        let (Some(&lo), Some(&hi)) = (allowed.first(), allowed.last()) else {
            return Err(ConfigError::new(
                "chunk_size_m",
                format!("a face of {n}² samples is too small for collision chunks"),
            ));
        };
        let want = if size_m == 0.0 {
            64.0
        } else {
            let want = size_m / at;
            // Half a sample's grace at either end: a size that rounds to the end is that end.
            if !(want >= lo as f64 - 0.5 && want <= hi as f64 + 0.5) {
                return Err(ConfigError::new(
                    "chunk_size_m",
                    format!(
                        "{size_m} m is outside this planet's {:.0}–{:.0} m ({lo}–{hi} samples \
                         of {at:.1} m: a divisor of the face's {n}, at most half a face and \
                         at most {MAX_CHUNKS_PER_SIDE} chunks to a face side)",
                        lo as f64 * at,
                        hi as f64 * at,
                    ),
                ));
            }
            want
        };
        Ok(allowed
            .iter()
            .copied()
            .min_by(|a, b| {
                let d = |c: u32| (c as f64 - want).abs();
                d(*a).total_cmp(&d(*b))
            })
            .unwrap_or(lo))
    }

    /// Chunks of `cells` samples a side (64 ≈ 1.2 km at 19 m cells): one of
    /// [`allowed_cells`](Self::allowed_cells).
    pub fn new(
        planet: Arc<Planet>,
        resident: Resident<TileKey, PlanetTile>,
        cells: u32,
    ) -> Result<PlanetChunkSource, ConfigError> {
        let n = planet.face_resolution();
        if !Self::allowed_cells(n).any(|c| c == cells) {
            return Err(ConfigError::new(
                "cells",
                format!(
                    "{cells} samples must divide the face resolution {n}, be at most half a \
                     face, and make at most {MAX_CHUNKS_PER_SIDE} chunks to a face side"
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

    /// Builds a chunk from a face-sample lookup: `get(face, i, j)` gives sample (i, j)'s
    /// height and ground class, or None if it is unavailable. Heights are bilinear between
    /// samples (as the height query reads them), classes the nearest sample's.
    pub fn build(
        &self,
        key: PlanetChunkKey,
        mut get: impl FnMut(usize, i64, i64) -> Option<(f32, u8)>,
    ) -> Option<PlanetChunk> {
        let (frame, corner, spacing) = self.frame(key);
        let (r, n, p) = (
            self.planet.radius(),
            self.planet.face_resolution(),
            self.planet.projection(),
        );
        let mut height = |d: DVec3| bilinear(p, n, d, |f, i, j| get(f, i, j).map(|s| s.0));
        let samples = self.cells + 1;
        let mut heights = Vec::with_capacity((samples * samples) as usize);
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        // Each solve starts from its neighbour's: the solved height's offset from the
        // first guess, and the gap's slope, change little from one sample to the next.
        let mut row_hint = Hint::default();
        for j in 0..samples {
            let mut hint = row_hint;
            for i in 0..samples {
                let (x, z) = (
                    corner[0] + i as f64 * spacing,
                    corner[1] + j as f64 * spacing,
                );
                let p = frame.origin + x * frame.axis_x + z * frame.axis_z;
                // The ground point straight above (x, z) along `up`: where |p + y·up| is
                // R + the height in its own direction.
                let rho2 = x * x + z * z;
                let radial = |h: f64| ((r + h) * (r + h) - rho2).max(0.0).sqrt() - r;
                let first = radial(height(cube::normalize(p))? as f64);
                let (y, slope) = on_surface(first + hint.offset, hint.slope, r, |y| {
                    let h = height(cube::normalize(p + y * frame.up))? as f64;
                    Some(((r + y) * (r + y) + rho2).sqrt() - r - h)
                })?;
                if y.is_finite() {
                    hint = Hint {
                        offset: y - first,
                        slope,
                    };
                }
                if i == 0 {
                    row_hint = hint;
                }
                let y = y as f32;
                lo = lo.min(y);
                hi = hi.max(y);
                heights.push(y);
            }
        }
        // Each cell's class where its centre lies on the ground: the mean of its corners.
        let c = self.cells as usize;
        let mut materials = Vec::with_capacity(c * c);
        let at = |i: usize, j: usize| {
            let (x, z) = (
                corner[0] + i as f64 * spacing,
                corner[1] + j as f64 * spacing,
            );
            let y = heights[j * (c + 1) + i] as f64;
            frame.origin + x * frame.axis_x + y.max(-r) * frame.up + z * frame.axis_z
        };
        for j in 0..c {
            for i in 0..c {
                let mid = at(i, j) + at(i + 1, j) + at(i, j + 1) + at(i + 1, j + 1);
                let (f, si, sj) = cube::nearest(p, n, cube::normalize(mid));
                materials.push(get(f, si, sj)?.1);
            }
        }
        Some(PlanetChunk {
            key,
            frame,
            samples,
            heights,
            materials,
            min_height: lo,
            max_height: hi,
            spacing,
            corner,
        })
    }

    /// Tile `tk`: resident, read lately, or read now (outside any lock: two chunks wanting
    /// one tile at once share its read through the byte source).
    fn tile(&self, tk: TileKey) -> Result<Arc<PlanetTile>, FormatError> {
        if let Some(tile) = self.resident.read().get(&tk).cloned() {
            return Ok(tile);
        }
        self.recent.get_or_read(tk, || self.planet.read_tile(tk))
    }
}

/// How close to the ground a planet chunk's sample is solved: its distance from the planet's
/// centre is R + the height there within this many metres (then rounded to an f32).
pub const ON_SURFACE_M: f64 = 1e-4;

/// Most gap evaluations one sample's solve takes (bisection of a 10 km bracket to
/// [`ON_SURFACE_M`] takes 27).
const MAX_STEPS: usize = 96;

/// The height `y` along a chunk's `up` at which its sample lies on the ground: a root of
/// `gap(y)`, the point's distance from the centre less R and the ground's height in the
/// point's own direction. `gap` rises about `slope_hint` for one with `y` (about one where the
/// ground is gentle or near the tangent point), so secant steps from `guess` settle it in one
/// to three evaluations. Where it does not — a steep slope far from the tangent point, on a small
/// planet, turns the point's direction enough that the height moves as much as `y` — the root
/// is bracketed (stepping out, by steps that double up to `limit`, then halving), so the
/// sample still ends on the surface. Returns the height and the gap's last slope (a hint for
/// the next sample). None if a height is unavailable; NaN (a hole) if a height is not a
/// number (a damaged tile) or no point within a centimetre of the ground was found.
fn on_surface(
    guess: f64,
    slope_hint: f64,
    limit: f64,
    mut gap: impl FnMut(f64) -> Option<f64>,
) -> Option<(f64, f64)> {
    let first_slope = if slope_hint.is_finite() && slope_hint > 0.25 {
        slope_hint
    } else {
        1.0
    };
    let (mut y, mut g) = (guess, gap(guess)?);
    let mut slope = first_slope;
    let mut best = (y, g);
    // The last points with the gap below and above zero: a bracket once both are known.
    let (mut below, mut above): (Option<f64>, Option<f64>) = (None, None);
    let mut prev: Option<(f64, f64)> = None;
    let mut width = f64::INFINITY;
    // Steps taken outward without a bracket: each doubles the last, up to `limit`.
    let mut outward = 0u32;
    for _ in 0..MAX_STEPS {
        if !g.is_finite() {
            return Some((f64::NAN, first_slope));
        }
        if g.abs() < best.1.abs() {
            best = (y, g);
        }
        if g.abs() <= ON_SURFACE_M {
            return Some((y, slope));
        }
        if g < 0.0 {
            below = Some(y);
        } else {
            above = Some(y);
        }
        slope = match prev {
            Some((py, pg)) if py != y => (g - pg) / (y - py),
            _ => first_slope,
        };
        let secant = y - g / slope;
        let next = match (below, above) {
            (Some(a), Some(b)) => {
                // Secant steps while they fall inside the bracket and it at least halves;
                // otherwise halve it.
                let (lo, hi) = (a.min(b), a.max(b));
                let halving = hi - lo <= width / 2.0;
                width = hi - lo;
                if secant > lo && secant < hi && slope > 0.0 && halving {
                    secant
                } else {
                    (lo + hi) / 2.0
                }
            }
            // One side only: close the gap by the secant where the gap rises with y about
            // as it should, else by a step that doubles each time (never an unbounded
            // secant off a flat stretch).
            _ => {
                let reach = (g.abs().max(1.0) * (1u64 << outward.min(40)) as f64).min(limit);
                if slope > 0.25 && (secant - y).abs() <= reach {
                    secant
                } else {
                    outward += 1;
                    y - g.signum() * reach
                }
            }
        };
        prev = Some((y, g));
        y = next;
        g = gap(y)?;
    }
    // Never settled (ground no real planet has): the best point if it is within a
    // centimetre, else a hole rather than collision off the ground.
    let y = if best.1.abs() <= 0.01 {
        best.0
    } else {
        f64::NAN
    };
    Some((y, first_slope))
}

/// Where a sample's solve starts, from the last one solved: the offset of its height from
/// the first guess, and the gap's slope.
#[derive(Clone, Copy)]
struct Hint {
    offset: f64,
    slope: f64,
}

impl Default for Hint {
    fn default() -> Hint {
        Hint {
            offset: 0.0,
            slope: 1.0,
        }
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
        ((self.cells + 1) as usize).pow(2) * 4 + (self.cells as usize).pow(2)
    }

    fn item_bytes(c: &PlanetChunk) -> usize {
        c.heights.len() * 4 + c.materials.len()
    }

    /// Heights from resident tiles; a tile not resident yet is read from the blob (slower,
    /// but the chunk is never late for want of it) and kept among the last few so read, for
    /// the chunks beside this one that want it too.
    fn load(&self, key: PlanetChunkKey) -> Result<PlanetChunk, FormatError> {
        let t = self.planet.tile_size() as i64;
        // The few tiles a chunk touches (one to four, more near cube corners), found by a
        // scan from the last one used: cheaper than hashing for every stencil sample.
        let mut local: Vec<(TileKey, Arc<PlanetTile>)> = Vec::with_capacity(8);
        let mut last = 0;
        let mut failure = None;
        let chunk = self.build(key, |f, i, j| {
            let tk = TileKey {
                face: f as u8,
                tx: (i / t) as u16,
                ty: (j / t) as u16,
            };
            if local.get(last).map(|(k, _)| *k) != Some(tk) {
                match local.iter().position(|(k, _)| *k == tk) {
                    Some(at) => last = at,
                    None => match self.tile(tk) {
                        Ok(tile) => {
                            local.push((tk, tile));
                            last = local.len() - 1;
                        }
                        Err(e) => {
                            failure = Some(e);
                            return None;
                        }
                    },
                }
            }
            let (tile, k) = (&local[last].1, ((j % t) * t + i % t) as usize);
            Some((tile.height[k], tile.biome[k]))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_gentle_gap_settles_in_a_few_steps() {
        let mut calls = 0;
        let (y, slope) = on_surface(0.0, 1.0, 1e6, |y| {
            calls += 1;
            Some(1.02 * y - 7.5)
        })
        .unwrap();
        assert!((slope - 1.02).abs() < 1e-9, "{slope}");
        assert!((1.02 * y - 7.5).abs() <= ON_SURFACE_M);
        assert!(calls <= 3, "{calls} evaluations");
    }

    #[test]
    fn unavailable_and_damaged_heights() {
        assert_eq!(on_surface(0.0, 1.0, 1e6, |_| None), None);
        assert!(on_surface(0.0, 1.0, 1e6, |y| Some(y - f64::NAN))
            .unwrap()
            .0
            .is_nan());
        // No root at all (the gap never reaches zero): a hole, not a point off the ground.
        assert!(on_surface(0.0, 1.0, 1e6, |y| Some(y.abs() + 5.0))
            .unwrap()
            .0
            .is_nan());
    }

    proptest! {
        /// Ground whose height moves with `y` as fast as `y` itself, or faster, one way or the
        /// other (a steep slope far from the tangent point): every solve still ends on it.
        #[test]
        fn every_solve_ends_on_the_ground(
            guess in -500.0..500.0f64,
            hint in prop_oneof![Just(1.0), Just(f64::NAN), -3.0..30.0f64],
            base in -3000.0..3000.0f64,
            waves in proptest::collection::vec((0.0..400.0f64, 0.001..0.5f64, 0.0..6.3f64), 1..4),
        ) {
            let h = |y: f64| {
                base + waves.iter().map(|(a, w, p)| a * (w * y + p).sin()).sum::<f64>()
            };
            let (y, _) = on_surface(guess, hint, 1e5, |y| Some(y - h(y))).unwrap();
            prop_assert!((y - h(y)).abs() <= ON_SURFACE_M, "y {} gap {}", y, y - h(y));
        }
    }
}
