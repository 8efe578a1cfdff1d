//! The rings' plane and their synchronous build: what [`PlanetRings`](super::rings::PlanetRings)
//! runs in the caller's thread and the ring worker runs on its own.

use crate::lod::{Clipmap, DirtyRect};

use super::blob::TileKey;
use glam::DVec3;

use super::cube;
use super::opened::Planet;
use super::terrain::tangent_basis;

/// How far (radians) the focus may move from the anchor before the plane is re-laid.
pub const REANCHOR: f64 = 0.35;

/// The plane the rings lie on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RingFrame {
    pub up: DVec3,
    pub east: DVec3,
    pub north: DVec3,
    pub radius: f64,
}

impl RingFrame {
    /// Plane coordinates of a direction (None behind the plane's horizon).
    pub fn project(&self, d: DVec3) -> Option<[f64; 2]> {
        let w = d.dot(self.up);
        if w <= 0.05 {
            return None;
        }
        let (e, n) = (d.dot(self.east), d.dot(self.north));
        Some([self.radius * e / w, self.radius * n / w])
    }

    /// The direction under plane point (x, z).
    pub fn direction(&self, x: f64, z: f64) -> DVec3 {
        cube::normalize(self.up * self.radius + x * self.east + z * self.north)
    }
}

/// The levels and the plane they lie on, built synchronously: what both of
/// [`PlanetRings`]' modes run (in the caller's thread, or on the ring worker's).
pub(crate) struct RingBuild {
    pub(crate) clipmap: Clipmap,
    pub(crate) frame: Option<RingFrame>,
    pub(crate) rebuilds: u64,
}

impl RingBuild {
    pub(crate) fn new(clipmap: Clipmap) -> RingBuild {
        RingBuild {
            clipmap,
            frame: None,
            rebuilds: 0,
        }
    }

    /// Follows the focus with heights from `h`; returns the storage rectangles rewritten.
    pub(crate) fn update(
        &mut self,
        focus: DVec3,
        planet: &Planet,
        h: &dyn Fn(DVec3) -> f32,
    ) -> &[DirtyRect] {
        let d = cube::normalize(focus);
        if self.stale(d) {
            let (east, north) = tangent_basis(d, planet.pole());
            self.frame = Some(RingFrame {
                up: d,
                east,
                north,
                radius: planet.radius(),
            });
            self.clipmap.reset();
            self.rebuilds += 1;
        }
        let frame = self.frame.expect("set above");
        let centre = frame.project(d).unwrap_or([0.0, 0.0]);
        self.clipmap.update_with(centre, &mut |_, s, i, j| {
            h(frame.direction((i as f64 + 0.5) * s, (j as f64 + 0.5) * s))
        })
    }

    /// Whether the plane must be laid afresh under direction `d`: none yet, or `d` is more
    /// than [`REANCHOR`] from its anchor.
    fn stale(&self, d: DVec3) -> bool {
        self.frame.map_or(true, |f| cube::angle(f.up, d) > REANCHOR)
    }

    /// Whether `update` at `focus` would change nothing: the plane stays and no window moves.
    pub(crate) fn unchanged_by(&self, focus: DVec3) -> bool {
        let d = cube::normalize(focus);
        !self.stale(d)
            && self
                .frame
                .and_then(|f| f.project(d))
                .is_some_and(|c| !self.clipmap.would_move(c))
    }

    /// Refills the cells over a tile with heights from `h`; returns the rectangles rewritten.
    pub(crate) fn refresh_tile(
        &mut self,
        key: TileKey,
        planet: &Planet,
        h: &dyn Fn(DVec3) -> f32,
    ) -> &[DirtyRect] {
        fn nothing(c: &mut Clipmap) -> &[DirtyRect] {
            c.refill_with([0.0; 2], [0.0; 2], &mut |_, _, _, _| 0.0)
        }
        let Some(frame) = self.frame else {
            return nothing(&mut self.clipmap);
        };
        let (n, t) = (planet.face_resolution(), planet.tile_size());
        let corner = |i: u32, j: u32| {
            cube::direction(
                planet.projection(),
                key.face as usize,
                i as f64 * 2.0 / n as f64 - 1.0,
                j as f64 * 2.0 / n as f64 - 1.0,
            )
        };
        let (x0, y0) = (key.tx as u32 * t, key.ty as u32 * t);
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        // Edges bulge in the gnomonic plane, so take points along them, not just corners.
        for k in 0..=8 {
            let f = k * t / 8;
            for (i, j) in [
                (x0 + f, y0),
                (x0 + f, y0 + t),
                (x0, y0 + f),
                (x0 + t, y0 + f),
            ] {
                let Some(q) = frame.project(corner(i, j)) else {
                    return nothing(&mut self.clipmap);
                };
                for a in 0..2 {
                    lo[a] = lo[a].min(q[a]);
                    hi[a] = hi[a].max(q[a]);
                }
            }
        }
        self.clipmap.refill_with(lo, hi, &mut |_, s, i, j| {
            h(frame.direction((i as f64 + 0.5) * s, (j as f64 + 0.5) * s))
        })
    }
}
