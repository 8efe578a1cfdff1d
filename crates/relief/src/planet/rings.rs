//! LOD rings on a planet: the flat clipmap's toroidal levels laid on the tangent plane of an
//! anchor direction near the focus (gnomonic: plane point (x, z) is the ground under
//! `normalize(R·up + x·east + z·north)`). Moving the focus fills only what came into view and
//! reports the rectangles, exactly as on a flat world; when the focus strays more than
//! `REANCHOR` from the anchor, the plane is laid afresh under it and the levels refill whole
//! (a teleport costs one full rebuild; walking round the planet, one every ~17 km at R = 50 km).
//! A runtime builds them on a worker thread ([`PlanetRings::in_background`]), so neither the
//! strips nor the rebuilds cost the frame.

use crate::config::ConfigError;
use crate::lod::{Clipmap, ClipmapConfig, DirtyRect};
use glam::DVec3;

use super::blob::TileKey;
use super::ring_build::RingBuild;
pub use super::ring_build::{RingFrame, REANCHOR};
use super::ring_worker::RingWorker;
use super::terrain::PlanetTerrain;

/// LOD rings following a focus on a planet.
///
/// Built in the caller's thread ([`PlanetRings::new`]: `update` returns what it rewrote, in
/// full) or on a worker thread of their own ([`PlanetRings::in_background`], what a
/// runtime uses): there `update` posts the focus and takes
/// whatever the worker has finished since, copying only the rectangles that changed, so an
/// orbiting focus — a strip of every level per frame and a whole re-anchored set every ~50
/// frames at 20 km/s — costs the calling thread a copy, never the fill. The levels shown may
/// then trail the focus by a frame or two; they are always one consistent set (windows,
/// cells and plane from one moment of the worker).
pub struct PlanetRings {
    shown: RingBuild,
    worker: Option<RingWorker>,
}

impl PlanetRings {
    /// Rings built in the calling thread by `update` and `refresh_tile`. Refuses a config
    /// that fails [`ClipmapConfig::validate`].
    pub fn new(config: ClipmapConfig) -> Result<PlanetRings, ConfigError> {
        Ok(PlanetRings {
            shown: RingBuild::new(Clipmap::new(config)?),
            worker: None,
        })
    }

    /// Rings built on a worker thread of their own over `terrain`'s resident tiles (built in
    /// the caller's thread, as [`PlanetRings::new`], if no thread can be started).
    pub fn in_background(
        config: ClipmapConfig,
        terrain: &PlanetTerrain,
    ) -> Result<PlanetRings, ConfigError> {
        config.validate()?;
        Ok(PlanetRings {
            shown: RingBuild::new(RingWorker::clipmap_for_swaps(config)),
            worker: RingWorker::start(config, terrain.clone()).ok(),
        })
    }

    pub fn clipmap(&self) -> &Clipmap {
        &self.shown.clipmap
    }

    /// The plane the shown levels lie on (None before they are first filled).
    pub fn frame(&self) -> Option<RingFrame> {
        self.shown.frame
    }

    /// Full rebuilds of the shown levels since creation (the first fill and each
    /// re-anchoring).
    pub fn rebuilds(&self) -> u64 {
        self.shown.rebuilds
    }

    /// Whether the levels run on a worker thread.
    pub fn is_background(&self) -> bool {
        self.worker.is_some()
    }

    /// Follows the focus (planet frame, metres); returns the storage rectangles rewritten.
    /// In the background, what the worker finished since the last call (possibly nothing).
    pub fn update(&mut self, focus: DVec3, terrain: &PlanetTerrain) -> &[DirtyRect] {
        match &mut self.worker {
            Some(w) => {
                // A walking focus moves a window every few hundred frames: waking the worker
                // for the others would only cost the frame its wake-up. (The shown levels are
                // the worker's only when it has caught up; until then every move is asked.)
                if !(w.is_idle() && self.shown.unchanged_by(focus)) {
                    w.post_focus(focus);
                }
                w.deliver(&mut self.shown);
                self.shown.clipmap.dirty()
            }
            None => terrain.with_heights(|h| self.shown.update(focus, terrain.planet(), h)),
        }
    }

    /// Refills the cells over a tile that just loaded; returns the rectangles rewritten (in
    /// the background: nothing now, the refill arrives with a later `update`).
    pub fn refresh_tile(&mut self, key: TileKey, terrain: &PlanetTerrain) -> &[DirtyRect] {
        match &mut self.worker {
            Some(w) => {
                w.post_tile(key);
                &[]
            }
            None => terrain.with_heights(|h| self.shown.refresh_tile(key, terrain.planet(), h)),
        }
    }

    /// Why the worker's last build panicked (a bug in relief), once: it starts again from
    /// fresh levels. None in the caller's thread, where a panic reaches the caller.
    pub fn take_failure(&mut self) -> Option<String> {
        self.worker.as_ref().and_then(RingWorker::take_failure)
    }

    /// Whether everything posted has been built and shown (always, in the caller's thread).
    pub fn is_idle(&self) -> bool {
        self.worker.as_ref().map_or(true, RingWorker::is_idle)
    }
}
