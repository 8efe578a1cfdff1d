//! LOD rings on a planet: the flat clipmap's toroidal levels laid on the tangent plane of an
//! anchor direction near the focus (gnomonic: plane point (x, z) is the ground under
//! `normalize(R·up + x·east + z·north)`). Moving the focus fills only what came into view and
//! reports the rectangles, exactly as on a flat world; when the focus strays more than
//! `REANCHOR` from the anchor, the plane is laid afresh under it and the levels refill whole
//! (a teleport costs one full rebuild; walking round the planet, one every ~17 km at R = 50 km).

use crate::lod::{Clipmap, ClipmapConfig, DirtyRect};

use super::blob::TileKey;
use super::cube::{self, Vec3};
use super::terrain::{tangent_basis, PlanetTerrain};

/// How far (radians) the focus may move from the anchor before the plane is re-laid.
pub const REANCHOR: f64 = 0.35;

/// The plane the rings lie on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RingFrame {
    pub up: Vec3,
    pub east: Vec3,
    pub north: Vec3,
    pub radius: f64,
}

impl RingFrame {
    /// Plane coordinates of a direction (None behind the plane's horizon).
    pub fn project(&self, d: Vec3) -> Option<[f64; 2]> {
        let w = d[0] * self.up[0] + d[1] * self.up[1] + d[2] * self.up[2];
        if w <= 0.05 {
            return None;
        }
        let e = d[0] * self.east[0] + d[1] * self.east[1] + d[2] * self.east[2];
        let n = d[0] * self.north[0] + d[1] * self.north[1] + d[2] * self.north[2];
        Some([self.radius * e / w, self.radius * n / w])
    }

    /// The direction under plane point (x, z).
    pub fn direction(&self, x: f64, z: f64) -> Vec3 {
        let r = self.radius;
        cube::normalize([
            self.up[0] * r + x * self.east[0] + z * self.north[0],
            self.up[1] * r + x * self.east[1] + z * self.north[1],
            self.up[2] * r + x * self.east[2] + z * self.north[2],
        ])
    }
}

pub struct PlanetRings {
    clipmap: Clipmap,
    frame: Option<RingFrame>,
    /// Full rebuilds since creation (the first fill and each re-anchoring).
    pub rebuilds: u64,
}

impl PlanetRings {
    pub fn new(config: ClipmapConfig) -> PlanetRings {
        PlanetRings {
            clipmap: Clipmap::new(config),
            frame: None,
            rebuilds: 0,
        }
    }

    pub fn clipmap(&self) -> &Clipmap {
        &self.clipmap
    }

    pub fn frame(&self) -> Option<RingFrame> {
        self.frame
    }

    /// Follows the focus (planet frame, metres); returns the storage rectangles rewritten.
    pub fn update(&mut self, focus: [f64; 3], terrain: &PlanetTerrain) -> &[DirtyRect] {
        let p = terrain.planet();
        let d = cube::normalize(focus);
        let stale = self.frame.map_or(true, |f| cube::angle(f.up, d) > REANCHOR);
        if stale {
            let (east, north) = tangent_basis(d, p.pole());
            self.frame = Some(RingFrame {
                up: d,
                east,
                north,
                radius: p.radius(),
            });
            self.clipmap.reset();
            self.rebuilds += 1;
        }
        let frame = self.frame.expect("set above");
        let centre = frame.project(d).unwrap_or([0.0, 0.0]);
        terrain.with_heights(|h| {
            self.clipmap.update_with(centre, &mut |_, s, i, j| {
                h(frame.direction((i as f64 + 0.5) * s, (j as f64 + 0.5) * s))
            })
        })
    }

    /// Refills the cells over a tile that just loaded; returns the rectangles rewritten.
    pub fn refresh_tile(&mut self, key: TileKey, terrain: &PlanetTerrain) -> &[DirtyRect] {
        let Some(frame) = self.frame else {
            return self
                .clipmap
                .refill_with([0.0; 2], [0.0; 2], &mut |_, _, _, _| 0.0);
        };
        let p = terrain.planet();
        let (n, t) = (p.face_resolution(), p.tile_size());
        let corner = |i: u32, j: u32| {
            cube::direction(
                p.projection(),
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
                match frame.project(corner(i, j)) {
                    Some(q) => {
                        for a in 0..2 {
                            lo[a] = lo[a].min(q[a]);
                            hi[a] = hi[a].max(q[a]);
                        }
                    }
                    None => {
                        return self
                            .clipmap
                            .refill_with([0.0; 2], [0.0; 2], &mut |_, _, _, _| 0.0)
                    }
                }
            }
        }
        terrain.with_heights(|h| {
            self.clipmap.refill_with(lo, hi, &mut |_, s, i, j| {
                h(frame.direction((i as f64 + 0.5) * s, (j as f64 + 0.5) * s))
            })
        })
    }
}
