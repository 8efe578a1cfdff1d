//! Questions about a planet's ground, from any thread, while tiles stream: height, normal,
//! biome, sediment, precipitation, nearest river, containing or nearest lake. Positions are
//! f64 metres in the planet's frame (centre at the origin) or latitude/longitude about the
//! blob's polar axis. Heights are bilinear over samples that may sit on different faces, so
//! they are continuous across seams and at cube corners.

use std::sync::Arc;

use glam::{DVec3, Vec3};
use rstar::primitives::{GeomWithData, Line};
use rstar::RTree;

use crate::error::FormatError;
use crate::reach::ReachKind;
use crate::stream::{PieceMap, Resident, LOCK_STRIDE};
use parking_lot::RwLockReadGuard;

use super::blob::TileKey;
use super::cube;
use super::opened::{bilinear, Planet, PlanetTile};

/// What answered a height query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanetOrigin {
    /// Resident tiles' samples (the tile holding the nearest sample).
    Tile(TileKey),
    /// The coarse overview: a needed tile is not resident.
    Overview,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanetHeight {
    /// Metres above the radius.
    pub height: f32,
    pub origin: PlanetOrigin,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanetRiverAt {
    pub reach: u32,
    pub kind: ReachKind,
    pub width_m: f32,
    /// Distance to the centreline (along the sea-level sphere), metres.
    pub distance_m: f32,
    pub bed_m: f32,
    pub has_water: bool,
    /// Nearest centreline point, planet frame, on the sea-level sphere.
    pub nearest: DVec3,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanetLakeAt {
    pub lake: u32,
    pub level_m: f32,
    /// 0 inside, else the distance to the lake's edge (its equal-area circle), metres.
    pub distance_m: f32,
    pub inside: bool,
}

type Map = PieceMap<TileKey, PlanetTile>;

/// The tile the last lookup found, for lookups made under one read of the resident map:
/// neighbouring samples (a cell's four corners, a row of level cells) mostly fall in one
/// tile, and a hit skips hashing the key.
type LastTile<'m> = std::cell::Cell<Option<(TileKey, &'m PlanetTile)>>;
/// River segments on the sea-level sphere, tagged (reach index, first point's index).
type RiverIndex = RTree<RiverSegment>;
/// One segment of a river reach on the sea-level sphere, tagged (reach index, first point's
/// index).
pub type RiverSegment = GeomWithData<Line<[f64; 3]>, (u32, u32)>;

/// A query handle over a planet and a resident tile map. Cheap to clone; Send + Sync.
#[derive(Clone)]
pub struct PlanetTerrain {
    planet: Arc<Planet>,
    resident: Resident<TileKey, PlanetTile>,
    rivers: Arc<RiverIndex>,
}

impl PlanetTerrain {
    /// Reads the river and lake tables (once) and indexes the rivers.
    pub fn new(
        planet: Arc<Planet>,
        resident: Resident<TileKey, PlanetTile>,
    ) -> Result<PlanetTerrain, FormatError> {
        let r = planet.radius();
        let mut segs = Vec::new();
        for (ri, reach) in planet.reaches()?.iter().enumerate() {
            for (pi, w) in reach.points.windows(2).enumerate() {
                let at = |p: [f32; 4]| [p[0] as f64 * r, p[1] as f64 * r, p[2] as f64 * r];
                segs.push(GeomWithData::new(
                    Line::new(at(w[0]), at(w[1])),
                    (ri as u32, pi as u32),
                ));
            }
        }
        planet.lakes()?;
        planet.biome_names()?;
        Ok(PlanetTerrain {
            rivers: Arc::new(RTree::bulk_load(segs)),
            planet,
            resident,
        })
    }

    pub fn planet(&self) -> &Arc<Planet> {
        &self.planet
    }

    pub fn resident(&self) -> &Resident<TileKey, PlanetTile> {
        &self.resident
    }

    /// The position (planet frame, metres) at sea level under latitude/longitude, degrees.
    pub fn position_at(&self, lat_deg: f64, lon_deg: f64) -> DVec3 {
        let d = cube::from_lat_lon(
            lat_deg.to_radians(),
            lon_deg.to_radians(),
            self.planet.pole(),
        );
        d * self.planet.radius()
    }

    /// Latitude and longitude (degrees) of a position.
    pub fn lat_lon(&self, pos: DVec3) -> (f64, f64) {
        let (la, lo) = cube::lat_lon(direction(pos), self.planet.pole());
        (la.to_degrees(), lo.to_degrees())
    }

    fn height_in<'m>(&self, map: &'m Map, last: &LastTile<'m>, d: DVec3) -> PlanetHeight {
        let (n, t) = (
            self.planet.face_resolution(),
            self.planet.tile_size() as i64,
        );
        let mut origin = None;
        let h = bilinear(self.planet.projection(), n, d, |f, i, j| {
            let key = TileKey {
                face: f as u8,
                tx: (i / t) as u16,
                ty: (j / t) as u16,
            };
            let tile = match last.get() {
                Some((k, tile)) if k == key => tile,
                _ => {
                    let tile: &PlanetTile = map.get(&key)?;
                    last.set(Some((key, tile)));
                    tile
                }
            };
            origin.get_or_insert(key);
            Some(tile.height[((j % t) * t + i % t) as usize])
        });
        match (h, origin) {
            (Some(height), Some(key)) => PlanetHeight {
                height,
                origin: PlanetOrigin::Tile(key),
            },
            _ => PlanetHeight {
                height: self.planet.overview_height(d).unwrap_or(f32::NAN),
                origin: PlanetOrigin::Overview,
            },
        }
    }

    /// Runs `f` with a height lookup by unit direction that holds the resident map's lock
    /// once for all its calls (for filling many cells).
    pub fn with_heights<R>(&self, f: impl FnOnce(&dyn Fn(DVec3) -> f32) -> R) -> R {
        self.heights_over(&self.resident.read(), f)
    }

    /// [`PlanetTerrain::with_heights`] over a copy of the resident map taken in `into` (its
    /// memory reused): for long fills off the main thread, which must not hold the map's read
    /// lock while the streamer waits to insert a tile. The copy holds its tiles until it is
    /// cleared.
    pub(crate) fn with_heights_copied<R>(
        &self,
        into: &mut PieceMap<TileKey, PlanetTile>,
        f: impl FnOnce(&dyn Fn(DVec3) -> f32) -> R,
    ) -> R {
        into.clear();
        into.extend(self.resident.read().iter().map(|(k, t)| (*k, t.clone())));
        self.heights_over(into, f)
    }

    /// Runs `f` with a height function over the tiles in `map`.
    fn heights_over<R>(&self, map: &Map, f: impl FnOnce(&dyn Fn(DVec3) -> f32) -> R) -> R {
        let last = LastTile::new(None);
        f(&|d| self.height_in(map, &last, d).height)
    }

    /// Height above the radius at the direction of `pos` (metres, planet frame).
    pub fn height(&self, pos: DVec3) -> PlanetHeight {
        if !usable(pos) {
            return PlanetHeight {
                height: f32::NAN,
                origin: PlanetOrigin::Overview,
            };
        }
        let map = self.resident.read();
        self.height_in(&map, &LastTile::new(None), direction(pos))
    }

    /// Heights for many positions; returns how many came from tiles. Holds the resident
    /// map's read lock for [`LOCK_STRIDE`] positions at a time, as the flat batch does.
    pub fn heights(&self, pos: &[DVec3], out: &mut [f32]) -> usize {
        assert_eq!(pos.len(), out.len(), "one output per position");
        let mut map = self.resident.read();
        let mut from_tiles = 0;
        for (ps, os) in pos.chunks(LOCK_STRIDE).zip(out.chunks_mut(LOCK_STRIDE)) {
            // Between strides a streamer waiting to publish a tile goes first.
            RwLockReadGuard::bump(&mut map);
            let last = LastTile::new(None);
            for (p, o) in ps.iter().zip(os.iter_mut()) {
                if !usable(*p) {
                    *o = f32::NAN;
                    continue;
                }
                let h = self.height_in(&map, &last, direction(*p));
                from_tiles += matches!(h.origin, PlanetOrigin::Tile(_)) as usize;
                *o = h.height;
            }
        }
        from_tiles
    }

    /// Unit surface normal (planet frame) from height differences one sample apart along the
    /// local east and north.
    pub fn normal(&self, pos: DVec3) -> (Vec3, PlanetOrigin) {
        let d = direction(pos);
        let (east, north) = tangent_basis(d, self.planet.pole());
        let map = self.resident.read();
        let last = LastTile::new(None);
        let origin = self.height_in(&map, &last, d).origin;
        let step = self.planet.spacing();
        let r = self.planet.radius();
        let at = |e: f64, n: f64| {
            let q = cube::normalize(d + (east * e + north * n) / r);
            self.height_in(&map, &last, q).height as f64
        };
        let gx = (at(step, 0.0) - at(-step, 0.0)) / (2.0 * step);
        let gz = (at(0.0, step) - at(0.0, -step)) / (2.0 * step);
        let n = cube::normalize(d - gx * east - gz * north);
        (n.as_vec3(), origin)
    }

    /// The tile and index of the sample nearest `pos`, if its tile is resident.
    fn nearest<R>(&self, pos: DVec3, f: impl FnOnce(&PlanetTile, usize) -> R) -> Option<R> {
        if !usable(pos) {
            return None;
        }
        let (n, t) = (self.planet.face_resolution(), self.planet.tile_size());
        let (face, a, b) = cube::face_coords(self.planet.projection(), direction(pos));
        let clamp = |x: f64| x.round().clamp(0.0, n as f64 - 1.0) as u32;
        let (i, j) = (clamp(cube::index_of(a, n)), clamp(cube::index_of(b, n)));
        let key = TileKey {
            face: face as u8,
            tx: (i / t) as u16,
            ty: (j / t) as u16,
        };
        let map = self.resident.read();
        let tile = map.get(&key)?;
        Some(f(tile, ((j % t) * t + i % t) as usize))
    }

    /// Biome id and name at the nearest sample, if its tile is resident.
    pub fn biome(&self, pos: DVec3) -> Option<(u8, &str)> {
        let id = self.nearest(pos, |t, k| t.biome[k])?;
        let names = self.planet.biome_names().ok()?;
        names.get(id as usize).map(|n| (id, n.as_str()))
    }

    /// Sediment thickness (metres) at the nearest sample: None if its tile is not resident or
    /// the blob is v6.
    pub fn sediment(&self, pos: DVec3) -> Option<f32> {
        self.nearest(pos, |t, k| t.sediment.as_ref().map(|s| s[k]))?
    }

    /// Mean annual precipitation (mm) at the nearest sample, as [`PlanetTerrain::sediment`].
    pub fn precipitation(&self, pos: DVec3) -> Option<f32> {
        self.nearest(pos, |t, k| t.precipitation.as_ref().map(|s| s[k]))?
    }

    /// The nearest river reach within `radius` metres. Works with nothing resident.
    pub fn river(&self, pos: DVec3, radius: f64) -> Option<PlanetRiverAt> {
        if !usable(pos) || radius.is_nan() || radius < 0.0 {
            return None;
        }
        let p = direction(pos) * self.planet.radius();
        let (hit, d2) = self
            .rivers
            .nearest_neighbor_iter_with_distance_2(&p.to_array())
            .next()?;
        self.river_at(hit, d2, p, radius)
    }

    /// The river segments that may lie within `reach` metres of `pos` (their bounds do), for
    /// many [`river_among`](Self::river_among) queries near one place.
    pub fn rivers_near(&self, pos: DVec3, reach: f64) -> Vec<&RiverSegment> {
        if !usable(pos) || reach.is_nan() || reach < 0.0 {
            return Vec::new();
        }
        let p = direction(pos) * self.planet.radius();
        let corner = |s: f64| (p + DVec3::splat(s * reach)).to_array();
        let bounds = rstar::AABB::from_corners(corner(-1.0), corner(1.0));
        self.rivers
            .locate_in_envelope_intersecting(&bounds)
            .collect()
    }

    /// [`river`](Self::river) among `segments` (from [`rivers_near`](Self::rivers_near)):
    /// the same answer wherever `pos` lies within the reach they were gathered for, less
    /// `radius`.
    pub fn river_among(
        &self,
        segments: &[&RiverSegment],
        pos: DVec3,
        radius: f64,
    ) -> Option<PlanetRiverAt> {
        if !usable(pos) || radius.is_nan() || radius < 0.0 {
            return None;
        }
        let p = direction(pos) * self.planet.radius();
        let at = p.to_array();
        let (hit, d2) = segments
            .iter()
            .map(|s| (*s, rstar::PointDistance::distance_2(*s, &at)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        self.river_at(hit, d2, p, radius)
    }

    /// What segment `hit`, `d2` square metres from `p`, says of the river there.
    fn river_at(
        &self,
        hit: &RiverSegment,
        d2: f64,
        p: DVec3,
        radius: f64,
    ) -> Option<PlanetRiverAt> {
        let r = self.planet.radius();
        if d2 > radius * radius {
            return None;
        }
        let (ri, pi) = hit.data;
        let reach = &self.planet.reaches().ok()?[ri as usize];
        let (a, b) = (DVec3::from(hit.geom().from), DVec3::from(hit.geom().to));
        let (ab, ap) = (b - a, p - a);
        let t = (ap.dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
        let nearest = cube::normalize(a + ab * t) * r;
        let frac = (pi as f64 + t) / (reach.points.len() - 1).max(1) as f64;
        let width = reach.head_width_m + (reach.width_m - reach.head_width_m) * frac as f32;
        let (pa, pb) = (reach.points[pi as usize], reach.points[pi as usize + 1]);
        let distance = d2.sqrt();
        Some(PlanetRiverAt {
            reach: reach.id,
            kind: reach.kind,
            width_m: width,
            distance_m: distance as f32,
            bed_m: pa[3] + (pb[3] - pa[3]) * t as f32,
            has_water: distance <= width as f64 / 2.0,
            nearest,
        })
    }

    /// The lake at `pos` (from the lake field, if its tile is resident), else the nearest lake
    /// whose edge is within `radius` metres.
    pub fn lake(&self, pos: DVec3, radius: f64) -> Option<PlanetLakeAt> {
        if !usable(pos) || radius.is_nan() || radius < 0.0 {
            return None;
        }
        let lakes = self.planet.lakes().ok()?;
        if let Some(id) = self.nearest(pos, |t, k| t.lake[k]).filter(|&id| id > 0) {
            let l = lakes.iter().find(|l| l.id == id as u32)?;
            return Some(PlanetLakeAt {
                lake: l.id,
                level_m: l.level_m,
                distance_m: 0.0,
                inside: true,
            });
        }
        let d = direction(pos);
        let r = self.planet.radius();
        lakes
            .iter()
            .map(|l| {
                let c = DVec3::from(l.centre.map(f64::from));
                (
                    l,
                    (cube::angle(d, cube::normalize(c)) * r - l.radius_m as f64).max(0.0),
                )
            })
            .filter(|(_, dist)| *dist <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(l, dist)| PlanetLakeAt {
                lake: l.id,
                level_m: l.level_m,
                distance_m: dist as f32,
                inside: dist == 0.0,
            })
    }
}

fn direction(pos: DVec3) -> DVec3 {
    cube::normalize(pos)
}

/// Whether a position has a direction: finite and not the planet's centre.
fn usable(pos: DVec3) -> bool {
    pos.is_finite() && pos != DVec3::ZERO
}

/// Local east and north at direction `d` for polar axis `pole` (any perpendicular pair at
/// the poles themselves).
pub fn tangent_basis(d: DVec3, pole: DVec3) -> (DVec3, DVec3) {
    let c = pole.cross(d);
    let c = if c.dot(c) < 1e-18 {
        let seed = if d.x.abs() < 0.9 { DVec3::X } else { DVec3::Z };
        seed.cross(d)
    } else {
        c
    };
    let east = cube::normalize(c);
    (east, d.cross(east))
}
