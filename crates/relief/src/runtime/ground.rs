//! The one place that knows a runtime may stream either kind of ground: a flat world's regions
//! or a planet's tiles. [`Ground`] is what was opened, [`Pieces`] streams its pieces,
//! [`Streamed`] is what views, queries, collision and LOD read while it does, and [`Queries`]
//! answers questions about it.

use glam::DVec3;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::config::ConfigError;
use crate::error::FormatError;
use crate::flat::{Region, RegionLocation, RegionSource, Terrain, World};
use crate::planet::{Planet, PlanetTerrain, PlanetTile, TileKey, TileSource};
use crate::stream::{Event, Loaders, Resident, Stats, StreamConfig, Streamer};

/// An opened world of either kind.
#[derive(Clone)]
pub enum Ground {
    Flat(Arc<World>),
    Planet(Arc<Planet>),
}

impl Ground {
    /// Opens a world directory, a world pack (`.rlpack`) or a PLNT planet blob, telling them
    /// apart by what is at `path` (a directory, or a file's magic), not by its name. A pack or
    /// blob by `http://` or `https://` URL opens with the default
    /// [`HttpOptions`](crate::http::HttpOptions) ([`Ground::open_url`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Ground, FormatError> {
        let path = path.as_ref();
        if let Some(url) = path.to_str().filter(|p| crate::io::is_url(p)) {
            #[cfg(feature = "http")]
            return Ground::open_url(url, &crate::http::HttpOptions::default());
            #[cfg(not(feature = "http"))]
            return Err(FormatError::no_http(url));
        }
        if path.is_file() && crate::planet::opened::is_planet_file(path) {
            return Ok(Ground::Planet(Arc::new(Planet::open(path)?)));
        }
        Ok(Ground::Flat(Arc::new(World::open(path)?)))
    }

    /// Opens a world pack or a planet blob on a server, told apart by its magic (in the
    /// opening request's bytes: no second request).
    #[cfg(feature = "http")]
    pub fn open_url(url: &str, options: &crate::http::HttpOptions) -> Result<Ground, FormatError> {
        let bytes = crate::http::HttpBytes::open_for_reading(url, options)?;
        let shown = bytes.url().to_string();
        Ground::open_bytes(&shown, Box::new(bytes))
    }

    /// Opens a world pack or a planet blob from any random-access bytes (an engine's file
    /// API, a byte range, memory), told apart by its magic. `name` is how errors name it.
    pub fn open_bytes(
        name: &str,
        bytes: Box<dyn crate::io::ReadAt>,
    ) -> Result<Ground, FormatError> {
        let mut magic = [0u8; 4];
        if bytes.length() >= 4 {
            bytes
                .read_at(0, &mut magic)
                .map_err(|e| FormatError::io(Path::new(name), e))?;
        }
        if magic == crate::planet::format::MAGIC {
            return Ok(Ground::Planet(Arc::new(Planet::open_bytes(name, bytes)?)));
        }
        Ok(Ground::Flat(Arc::new(World::open_pack(name, bytes)?)))
    }

    pub fn is_planet(&self) -> bool {
        matches!(self, Ground::Planet(_))
    }
}

impl From<World> for Ground {
    fn from(w: World) -> Ground {
        Ground::Flat(Arc::new(w))
    }
}

impl From<Arc<World>> for Ground {
    fn from(w: Arc<World>) -> Ground {
        Ground::Flat(w)
    }
}

impl From<Arc<Planet>> for Ground {
    fn from(p: Arc<Planet>) -> Ground {
        Ground::Planet(p)
    }
}

impl From<Planet> for Ground {
    fn from(p: Planet) -> Ground {
        Ground::Planet(Arc::new(p))
    }
}

/// A piece of ground the streamer loads: a flat world's region or a planet's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKey {
    Region(RegionLocation),
    Tile(TileKey),
}

impl PieceKey {
    /// (cube face, x, z): a region's location with face 0, or a tile's (face, tx, ty).
    pub fn face_x_z(self) -> (u32, i32, i32) {
        match self {
            PieceKey::Region(l) => (0, l.x, l.z),
            PieceKey::Tile(t) => (t.face as u32, t.tx as i32, t.ty as i32),
        }
    }
}

/// Why a focus can't be streamed around.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum BadFocus {
    #[error("the focus {0} is not finite")]
    NotFinite(DVec3),
    #[error("the planet's centre has no direction")]
    PlanetCentre,
}

/// Checks a focus for this kind of ground: finite, and on a planet not its centre.
pub fn check_focus(planet: bool, focus: DVec3) -> Result<(), BadFocus> {
    if !focus.is_finite() {
        return Err(BadFocus::NotFinite(focus));
    }
    if planet && focus == DVec3::ZERO {
        return Err(BadFocus::PlanetCentre);
    }
    Ok(())
}

/// What the pieces' readers share while they stream: the ground and the pieces of it now in
/// memory. Cheap to clone (two `Arc`s).
#[derive(Clone)]
pub enum Streamed {
    Flat {
        world: Arc<World>,
        regions: Resident<RegionLocation, Region>,
    },
    Planet {
        planet: Arc<Planet>,
        tiles: Resident<TileKey, PlanetTile>,
    },
}

impl Streamed {
    pub fn is_planet(&self) -> bool {
        matches!(self, Streamed::Planet { .. })
    }

    /// A query handle over the ground and its resident pieces. A planet's reads its river and
    /// lake tables once here.
    pub fn queries(&self) -> Result<Queries, FormatError> {
        Ok(match self {
            Streamed::Flat { world, regions } => {
                Queries::Flat(Terrain::new(world.clone(), regions.clone()))
            }
            Streamed::Planet { planet, tiles } => {
                Queries::Planet(PlanetTerrain::new(planet.clone(), tiles.clone())?)
            }
        })
    }
}

/// The region streamer or the tile streamer.
pub enum Pieces {
    Regions(Streamer<RegionSource>),
    Tiles(Streamer<TileSource>),
}

impl Pieces {
    /// Starts a streamer of `ground`'s pieces, loading on `loaders` (nothing loads before
    /// the first update). Refuses a config that fails [`StreamConfig::validate`].
    pub fn new(
        ground: &Ground,
        config: StreamConfig,
        loaders: &Loaders,
    ) -> Result<Pieces, ConfigError> {
        Ok(match ground {
            Ground::Flat(w) => Pieces::Regions(Streamer::new(
                Arc::new(RegionSource::new(w.clone())),
                config,
                loaders,
            )?),
            Ground::Planet(p) => Pieces::Tiles(Streamer::new(
                Arc::new(TileSource::new(p.clone())),
                config,
                loaders,
            )?),
        })
    }

    pub fn streamed(&self) -> Streamed {
        match self {
            Pieces::Regions(s) => Streamed::Flat {
                world: s.source().world().clone(),
                regions: s.resident(),
            },
            Pieces::Tiles(s) => Streamed::Planet {
                planet: s.source().planet().clone(),
                tiles: s.resident(),
            },
        }
    }

    pub fn is_planet(&self) -> bool {
        matches!(self, Pieces::Tiles(_))
    }

    /// The region streamer, on a flat world.
    pub fn regions(&self) -> Option<&Streamer<RegionSource>> {
        match self {
            Pieces::Regions(s) => Some(s),
            Pieces::Tiles(_) => None,
        }
    }

    /// The tile streamer, on a planet.
    pub fn tiles(&self) -> Option<&Streamer<TileSource>> {
        match self {
            Pieces::Tiles(s) => Some(s),
            Pieces::Regions(_) => None,
        }
    }

    pub fn config(&self) -> &StreamConfig {
        match self {
            Pieces::Regions(s) => s.config(),
            Pieces::Tiles(s) => s.config(),
        }
    }

    /// As [`Streamer::update`].
    pub fn update(&mut self, focus: DVec3) {
        match self {
            Pieces::Regions(s) => s.update(focus),
            Pieces::Tiles(s) => s.update(focus),
        }
    }

    /// As [`Streamer::record_update_times`].
    pub fn record_update_times(&mut self, on: bool) {
        match self {
            Pieces::Regions(s) => s.record_update_times(on),
            Pieces::Tiles(s) => s.record_update_times(on),
        }
    }

    /// As [`Streamer::settle`].
    pub fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        match self {
            Pieces::Regions(s) => s.settle(focus, timeout),
            Pieces::Tiles(s) => s.settle(focus, timeout),
        }
    }

    /// Whether nothing is queued or loading.
    pub fn is_idle(&self) -> bool {
        match self {
            Pieces::Regions(s) => s.is_idle(),
            Pieces::Tiles(s) => s.is_idle(),
        }
    }

    /// As [`Streamer::for_each_loaded`].
    pub fn for_each_loaded(&self, mut f: impl FnMut(PieceKey)) {
        match self {
            Pieces::Regions(s) => s.for_each_loaded(|k| f(PieceKey::Region(k))),
            Pieces::Tiles(s) => s.for_each_loaded(|k| f(PieceKey::Tile(k))),
        }
    }

    pub fn poll_event(&mut self) -> Option<Event<PieceKey, FormatError>> {
        match self {
            Pieces::Regions(s) => s.poll_event().map(|e| e.map_key(PieceKey::Region)),
            Pieces::Tiles(s) => s.poll_event().map(|e| e.map_key(PieceKey::Tile)),
        }
    }

    pub fn stats(&self) -> Stats {
        match self {
            Pieces::Regions(s) => s.stats(),
            Pieces::Tiles(s) => s.stats(),
        }
    }

    pub fn clear_timings(&mut self) {
        match self {
            Pieces::Regions(s) => s.clear_timings(),
            Pieces::Tiles(s) => s.clear_timings(),
        }
    }
}

/// Questions about the ground from any thread: a flat world's [`Terrain`] or a planet's
/// [`PlanetTerrain`]. Both answer heights by position; everything else is asked of the one
/// the ground has ([`Queries::flat`], [`Queries::planet`]). Cheap to clone.
#[derive(Clone)]
pub enum Queries {
    Flat(Terrain),
    Planet(PlanetTerrain),
}

impl Queries {
    pub fn flat(&self) -> Option<&Terrain> {
        match self {
            Queries::Flat(t) => Some(t),
            Queries::Planet(_) => None,
        }
    }

    pub fn planet(&self) -> Option<&PlanetTerrain> {
        match self {
            Queries::Planet(t) => Some(t),
            Queries::Flat(_) => None,
        }
    }

    /// Ground height at `pos`: above the world's datum at (x, z) on a flat world (y ignored),
    /// above the radius under `pos`'s direction on a planet.
    pub fn height(&self, pos: DVec3) -> f32 {
        match self {
            Queries::Flat(t) => t.height(pos[0], pos[2]).height,
            Queries::Planet(t) => t.height(pos).height,
        }
    }
}

#[cfg(all(test, not(feature = "http")))]
mod without_http {
    use super::*;

    /// A build without the `http` feature says so for a URL, from every opener, rather than
    /// looking for a file of that name.
    #[test]
    fn a_url_is_a_clear_error() {
        let url = "https://example.com/island.rlpack";
        let said = [
            Ground::open(url).err().map(|e| e.to_string()),
            World::open(url).err().map(|e| e.to_string()),
            Planet::open(url).err().map(|e| e.to_string()),
        ];
        for s in said {
            let s = s.expect("refused");
            assert!(s.contains("`http` feature"), "{s}");
        }
    }
}
