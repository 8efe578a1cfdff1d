//! Far-ground levels of either kind behind one type: a flat world's [`Clipmap`] or a planet's
//! [`PlanetRings`], each with the queries that fill it, and the plane its levels lie on.

use super::ground::{check_focus, BadFocus, PieceKey, Queries};
use crate::config::ConfigError;
use crate::flat::Terrain;
use crate::lod::{Clipmap, ClipmapConfig, DirtyRect};
use crate::planet::rings::PlanetRings;
use crate::planet::PlanetTerrain;
use glam::DVec3;

/// The plane levels lie on: cell (i, j) of a level of spacing s covers plane (x, z) from
/// (i·s, j·s), the point `origin + x·axis_x + z·axis_z`, heights along `up`. A flat world's
/// plane is the world itself; a planet's is the tangent plane at the rings' anchor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodPlane {
    pub origin: DVec3,
    pub axis_x: DVec3,
    pub up: DVec3,
    pub axis_z: DVec3,
}

impl LodPlane {
    pub const WORLD: LodPlane = LodPlane {
        origin: DVec3::ZERO,
        axis_x: DVec3::X,
        up: DVec3::Y,
        axis_z: DVec3::Z,
    };
}

/// Clipmap levels following a focus, on a flat world or a planet.
pub enum Lod {
    Flat(Clipmap, Terrain),
    Planet(PlanetRings, PlanetTerrain),
}

impl Lod {
    /// Refuses a config that fails [`ClipmapConfig::validate`].
    pub fn new(queries: &Queries, config: ClipmapConfig) -> Result<Lod, ConfigError> {
        Ok(match queries {
            Queries::Flat(t) => Lod::Flat(Clipmap::new(config)?, t.clone()),
            Queries::Planet(t) => Lod::Planet(PlanetRings::new(config)?, t.clone()),
        })
    }

    /// The levels a runtime keeps: a planet's rings built on a worker thread of their own
    /// ([`PlanetRings::in_background`]); a flat clipmap, whose strips are cheap reads of
    /// resident pyramids, in the caller's thread as [`Lod::new`].
    pub fn in_background(queries: &Queries, config: ClipmapConfig) -> Result<Lod, ConfigError> {
        Ok(match queries {
            Queries::Flat(_) => Lod::new(queries, config)?,
            Queries::Planet(t) => Lod::Planet(PlanetRings::in_background(config, t)?, t.clone()),
        })
    }

    /// Whether every level is built and shown for what was last asked (background rings may
    /// trail the focus by a frame or two).
    pub fn is_idle(&self) -> bool {
        match self {
            Lod::Flat(..) => true,
            Lod::Planet(r, _) => r.is_idle(),
        }
    }

    /// The levels themselves: windows, storage, the last rectangles rewritten.
    pub fn clipmap(&self) -> &Clipmap {
        match self {
            Lod::Flat(c, _) => c,
            Lod::Planet(r, _) => r.clipmap(),
        }
    }

    /// The plane the levels lie on (a planet's is [`LodPlane::WORLD`] until the first update).
    pub fn plane(&self) -> LodPlane {
        match self {
            Lod::Planet(r, _) => match r.frame() {
                Some(f) => LodPlane {
                    origin: f.up * f.radius,
                    axis_x: f.east,
                    up: f.up,
                    axis_z: f.north,
                },
                None => LodPlane::WORLD,
            },
            Lod::Flat(..) => LodPlane::WORLD,
        }
    }

    /// Centres every level on `focus` and fills what came into view; returns the storage
    /// rectangles rewritten.
    pub fn update(&mut self, focus: DVec3) -> Result<&[DirtyRect], BadFocus> {
        check_focus(matches!(self, Lod::Planet(..)), focus)?;
        Ok(match self {
            Lod::Flat(c, t) => c.update(focus, t),
            Lod::Planet(r, t) => r.update(focus, t),
        })
    }

    /// Why a planet's ring thread panicked since the last call (see
    /// [`PlanetRings::take_failure`]); never on a flat world.
    pub fn take_failure(&mut self) -> Option<String> {
        match self {
            Lod::Planet(r, _) => r.take_failure(),
            Lod::Flat(..) => None,
        }
    }

    /// Refills the cells over a piece that just loaded; None if the piece is of the other
    /// kind of ground (a tile on a flat clipmap, a region on planet rings).
    pub fn refresh(&mut self, piece: PieceKey) -> Option<&[DirtyRect]> {
        match (self, piece) {
            (Lod::Flat(c, t), PieceKey::Region(loc)) => Some(c.refresh_region(loc, t)),
            (Lod::Planet(r, t), PieceKey::Tile(key)) => Some(r.refresh_tile(key, t)),
            _ => None,
        }
    }
}
