//! Planet tiles through the same [`Streamer`](crate::stream::Streamer) as flat regions:
//! wanted by great-circle distance from the focus, one item per tile holding every field.

use std::sync::Arc;

use crate::error::FormatError;
use crate::pool::BufferPool;
use crate::stream::Source;

use super::blob::TileKey;
use glam::DVec3;

use super::cube;
use super::opened::{Planet, PlanetTile};

/// Tiles' worth of buffers idle loaders keep faulted in ahead of loads (within the budget's
/// spare room): a ring of tiles around a moving focus.
const RESERVE_TILES: usize = 16;

pub struct TileSource {
    planet: Arc<Planet>,
    /// The fields' buffers: evicted tiles refill it, idle loaders keep some faulted in.
    pool: Arc<BufferPool>,
    /// The byte length of each field buffer of a tile.
    tile_lens: Vec<usize>,
    /// Per tile (in index order): centre direction and angular radius (centre to corner).
    tiles: Vec<(TileKey, DVec3, f64)>,
    /// The largest tile's angular radius.
    widest: f64,
}

impl TileSource {
    pub fn new(planet: Arc<Planet>) -> TileSource {
        let (n, t) = (planet.face_resolution(), planet.tile_size());
        let p = planet.projection();
        let tps = n / t;
        let mut tiles = Vec::with_capacity(6 * (tps as usize).pow(2));
        let at = |face: usize, i: f64, j: f64| {
            cube::direction(p, face, i * 2.0 / n as f64 - 1.0, j * 2.0 / n as f64 - 1.0)
        };
        for face in 0..6u8 {
            for ty in 0..tps {
                for tx in 0..tps {
                    let f = face as usize;
                    let (x0, y0) = ((tx * t) as f64, (ty * t) as f64);
                    let (x1, y1) = (x0 + t as f64, y0 + t as f64);
                    let c = at(f, (x0 + x1) / 2.0, (y0 + y1) / 2.0);
                    let r = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
                        .iter()
                        .map(|&(i, j)| cube::angle(c, at(f, i, j)))
                        .fold(0.0, f64::max);
                    tiles.push((
                        TileKey {
                            face,
                            tx: tx as u16,
                            ty: ty as u16,
                        },
                        c,
                        r,
                    ));
                }
            }
        }
        let widest = tiles.iter().map(|t| t.2).fold(0.0, f64::max);
        let tile_lens = planet.tile_lens();
        TileSource {
            pool: Arc::new(BufferPool::new(0)),
            tile_lens,
            planet,
            tiles,
            widest,
        }
    }

    pub fn planet(&self) -> &Arc<Planet> {
        &self.planet
    }

    /// The buffers loads take their fields from.
    pub fn pool(&self) -> &Arc<BufferPool> {
        &self.pool
    }

    fn slot(&self, key: TileKey) -> usize {
        let tps = (self.planet.face_resolution() / self.planet.tile_size()) as usize;
        (key.face as usize * tps + key.ty as usize) * tps + key.tx as usize
    }
}

/// The focus's direction; the origin (a degenerate focus) counts as the +Y pole.
fn direction_of(focus: DVec3) -> DVec3 {
    if focus == DVec3::ZERO || !focus.is_finite() {
        DVec3::Y
    } else {
        cube::normalize(focus)
    }
}

impl Source for TileSource {
    type Key = TileKey;
    type Item = PlanetTile;
    type Error = FormatError;

    /// Tiles whose nearest point is within `radius` metres of the focus, measured along the
    /// sea-level sphere (a conservative bound: tile centre distance less its radius).
    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(TileKey, f64)>) {
        let d = direction_of(focus);
        let r = self.planet.radius();
        // A dot product rules out the far tiles; only near ones pay for the exact angle.
        let reach = radius / r + self.widest;
        let min_dot = if reach >= std::f64::consts::PI {
            -2.0
        } else {
            reach.cos()
        };
        for &(key, c, rho) in &self.tiles {
            if d.dot(c) < min_dot {
                continue;
            }
            let dist = (cube::angle(d, c) - rho).max(0.0) * r;
            if dist <= radius {
                out.push((key, dist));
            }
        }
    }

    fn distance(&self, key: TileKey, focus: DVec3) -> f64 {
        let (_, c, rho) = self.tiles[self.slot(key)];
        (cube::angle(direction_of(focus), c) - rho).max(0.0) * self.planet.radius()
    }

    fn estimate_bytes(&self, _: TileKey) -> usize {
        let n = (self.planet.tile_size() as usize).pow(2);
        let v7 = self.planet.blob().fields().len() > 3;
        n * (7 + if v7 { 8 } else { 0 })
    }

    fn item_bytes(t: &PlanetTile) -> usize {
        t.bytes()
    }

    fn load(&self, key: TileKey) -> Result<PlanetTile, FormatError> {
        self.planet.read_tile_in(key, Some(&self.pool))
    }

    fn spare_bytes(&self, bytes: usize) {
        self.pool.set_room(bytes);
    }

    /// Frees buffers beyond the room, else faults in one tile's buffers while fewer than
    /// [`RESERVE_TILES`] are free: the next loads then take no page fault every 4 KiB.
    fn idle(&self) -> bool {
        self.pool.top_up(&self.tile_lens, RESERVE_TILES)
    }
}
