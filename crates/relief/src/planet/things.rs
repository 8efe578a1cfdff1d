//! Thing chunks of a planet. Each cube face is a plane of metres, `x = a·L` for face
//! coordinate `a` and `L` (a quarter of the circumference on the equi-angular cube, the
//! radius on a gnomonic one) chosen so a face centre's plane metre is a metre of ground and
//! nowhere holds less plane than ground. A band's chunks tile each face's plane in squares
//! (the size asked, shrunk so a whole number spans the face), keyed (face, x, z).
//!
//! [`PlanetThingSource`] places a chunk's things ([`crate::things::place`]) over its face's
//! plane: each face draws candidates where it owns the ground, candidates from the faces
//! across a seam are placed in the chunk's plane by their direction, spacing is measured
//! between points on the sea-level sphere, and cells are thinned by the ground they cover, so
//! a planet's things keep their spacing and density across chunk edges, seams and cube
//! corners. The ground is read from held tiles (resident ones, else read and kept among the
//! last few), never the overview, so a chunk's things are the same whenever it is built.
//!
//! Directions and face coordinates here go through `libm`'s `tan` and `atan` (one
//! implementation on every machine) and heights are read the way the height query reads them
//! (bilinear over the same samples), so a planet's things are the same bytes everywhere and
//! each stands on the ground the query answers.

use std::cell::{Cell, RefCell};
use std::f64::consts::FRAC_PI_4;
use std::sync::Arc;

use glam::DVec3;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;

use super::blob::TileKey;
use super::cube::{self, Projection, EDGES, FACES, SEAMS};
use super::opened::{bilinear_over, Planet, PlanetTile};
use super::tables::PlanetLake;
use super::terrain::{tangent_basis, PlanetTerrain, RiverSegment};
use crate::config::ConfigError;
use crate::error::FormatError;
use crate::recent::Recent;
use crate::stream::Source;
use crate::things::chunks::estimate_bytes;
use crate::things::place;
use crate::things::{
    check_band, Band, Rect, Rules, Site, Sites, Spot, Square, ThingChunk, ThingKey, Water,
    WATER_REACH_M,
};

/// Tiles read for things while not resident, kept for the next chunks.
const RECENT_TILES: usize = 4;

/// Chunk bounds remembered before the memory starts afresh (many plans' worth). Room for
/// them all is made when the source is made (about 370 KB), so a plan on the main thread
/// never grows the map.
const BOUNDS_KEPT: usize = 4096;

/// How far beyond its face (in face coordinates) a chunk's plane is read: a chunk's margin,
/// in plane metres, must stay within this part of the extended plane, where its stretch
/// ([`Faces::stretch`]) is measured.
const EXTENDED: f64 = 1.3;

/// A planet's faces as planes of metres.
#[derive(Clone, Copy, Debug)]
pub struct Faces {
    projection: Projection,
    radius: f64,
    /// Half a face's side, plane metres.
    half: f64,
}

impl Faces {
    pub fn new(planet: &Planet) -> Faces {
        let projection = planet.projection();
        let scale = match projection {
            Projection::EquiAngular => FRAC_PI_4,
            Projection::Gnomonic => 1.0,
        };
        Faces {
            projection,
            radius: planet.radius(),
            half: planet.radius() * scale,
        }
    }

    /// Half a face's side, plane metres.
    pub fn half(&self) -> f64 {
        self.half
    }

    fn gnomonic(&self, a: f64) -> f64 {
        match self.projection {
            Projection::EquiAngular => libm::tan(a * FRAC_PI_4),
            Projection::Gnomonic => a,
        }
    }

    fn coordinate(&self, u: f64) -> f64 {
        match self.projection {
            Projection::EquiAngular => libm::atan(u) / FRAC_PI_4,
            Projection::Gnomonic => u,
        }
    }

    /// The unit direction of plane point (x, z) of `face` (extended beyond the face too).
    pub fn direction(&self, face: usize, x: f64, z: f64) -> DVec3 {
        self.direction_and_share(face, x, z).0
    }

    /// [`direction`](Self::direction) and the ground area per plane area there (1 at a
    /// face's centre, less elsewhere: the cube's area element, `(1+u²+v²)^(−3/2)` per gnomonic
    /// plane area), from one pair of `tan`s.
    pub fn direction_and_share(&self, face: usize, x: f64, z: f64) -> (DVec3, f64) {
        let [n, r, t] = FACES[face];
        let (u, v) = (self.gnomonic(x / self.half), self.gnomonic(z / self.half));
        let q = 1.0 + u * u + v * v;
        let g = 1.0 / (q * q.sqrt());
        let share = match self.projection {
            Projection::EquiAngular => (1.0 + u * u) * (1.0 + v * v) * g,
            Projection::Gnomonic => g,
        };
        (cube::normalize(n + u * r + v * t), share)
    }

    /// The face direction `d` falls on and its face coordinates there (as
    /// [`cube::face_coords`], through `libm`'s `atan`: the same on every machine).
    pub fn face_coords(&self, d: DVec3) -> (usize, f64, f64) {
        cube::face_coords_by(d, |u| self.coordinate(u))
    }

    /// Where direction `d` lies in `face`'s extended plane; None far round the sphere.
    pub fn plane_point(&self, face: usize, d: DVec3) -> Option<(f64, f64)> {
        let [n, r, t] = FACES[face];
        let w = d.dot(n);
        if w.is_nan() || w < 0.1 {
            return None;
        }
        let at = |u: f64| self.coordinate(u) * self.half;
        Some((at(d.dot(r) / w), at(d.dot(t) / w)))
    }

    /// Whether a face owns its plane point (x, z): `[−L, L)` both ways.
    pub fn owns(&self, x: f64, z: f64) -> bool {
        let inside = |v: f64| -self.half <= v && v < self.half;
        inside(x) && inside(z)
    }

    /// The most plane metres one metre of ground spans in any direction, over the plane out
    /// to [`EXTENDED`] (measured on a grid, with 2 % to spare for between its points and for
    /// chords against arcs).
    pub fn stretch(&self) -> f64 {
        let h = 1e-6 * self.half;
        let mut most = 1.0f64;
        let steps = 26;
        for j in -steps..=steps {
            for i in -steps..=steps {
                let at = |k: i32| k as f64 * EXTENDED / steps as f64 * self.half;
                let (x, z) = (at(i), at(j));
                let dx = (self.direction(0, x + h, z) - self.direction(0, x - h, z))
                    * (self.radius / (2.0 * h));
                let dz = (self.direction(0, x, z + h) - self.direction(0, x, z - h))
                    * (self.radius / (2.0 * h));
                // The least singular value of the map's Jacobian, from its Gram matrix.
                let (a, b, c) = (dx.dot(dx), dx.dot(dz), dz.dot(dz));
                let (tr, det) = (a + c, a * c - b * b);
                let least = (tr - (tr * tr - 4.0 * det).max(0.0).sqrt()) / 2.0;
                most = most.max(1.0 / least.sqrt());
            }
        }
        most * 1.02
    }
}

/// A planet's seed for its things: from its seed text (its header's seed where it has
/// none), apart from every other use of it.
pub fn planet_things_seed(planet: &Planet) -> Result<u64, FormatError> {
    let text = match planet.blob().section(super::format::SEED_TEXT)? {
        Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        None => planet.blob().header().seed.to_string(),
    };
    Ok(crate::hash::fnv1a(&format!("things:{text}")))
}

/// Streams one band's thing chunks of a planet.
pub struct PlanetThingSource {
    terrain: PlanetTerrain,
    recent: Recent<TileKey, PlanetTile>,
    rules: Arc<Rules>,
    seed: u64,
    band: Band,
    faces: Faces,
    /// A chunk's side, plane metres.
    size: f64,
    /// Chunks along a face side.
    per: i32,
    stretch: f64,
    /// How far around a chunk candidates matter, plane metres.
    margin: f64,
    /// Every lake, as placement reads it (gathered per chunk from these).
    shores: Vec<Shore>,
    /// Half the widest river, metres, and a hair: no spot farther from every river's line is
    /// in one.
    widest_half: f64,
    /// Chunks' centres and reaches the streamer asked about lately.
    bounds: Mutex<FxHashMap<ThingKey, (DVec3, f64)>>,
}

impl PlanetThingSource {
    /// `band`'s chunks of about `size_m` metres (shrunk so a whole number spans a face) over
    /// `terrain`'s planet and resident tiles. A size the band's table can't hold in a chunk
    /// ([`check_band`]), or a planet too small for its margins, is an error naming
    /// `chunk_size_m`; a planet whose seed or lake table doesn't read is one too.
    pub fn new(
        terrain: PlanetTerrain,
        rules: Arc<Rules>,
        band: Band,
        size_m: f64,
    ) -> Result<PlanetThingSource, ConfigError> {
        let planet = terrain.planet().clone();
        let faces = Faces::new(&planet);
        let stretch = faces.stretch();
        check_band(&rules, band, size_m, stretch)?;
        let per = (2.0 * faces.half / size_m)
            .ceil()
            .clamp(1.0, i32::MAX as f64) as i32;
        let margin = place::margins(&rules, band)
            .into_iter()
            .flatten()
            .fold(0.0, f64::max)
            * stretch;
        if margin > (EXTENDED - 1.0) * faces.half {
            return Err(ConfigError::new(
                "chunk_size_m",
                format!(
                    "a planet of radius {} m is too small for the {} band's things ({margin:.0} \
                     m around a chunk)",
                    planet.radius(),
                    band.name()
                ),
            ));
        }
        let unread = |what: &str, e: FormatError| {
            ConfigError::new("chunk_size_m", format!("the planet's {what}: {e}"))
        };
        let seed = planet_things_seed(&planet).map_err(|e| unread("seed", e))?;
        let shores = planet
            .lakes()
            .map_err(|e| unread("lakes", e))?
            .iter()
            .map(Shore::of)
            .collect();
        // Rivers whose table doesn't read answer no query, so cover nothing.
        let widest = planet.reaches().map_or(0.0, |reaches| {
            reaches
                .iter()
                .map(|r| r.width_m.max(r.head_width_m) as f64)
                .fold(0.0, f64::max)
        });
        Ok(PlanetThingSource {
            recent: Recent::new(RECENT_TILES),
            rules,
            seed,
            band,
            size: 2.0 * faces.half / per as f64,
            per,
            stretch,
            margin,
            shores,
            widest_half: widest / 2.0 + 0.01,
            faces,
            terrain,
            bounds: Mutex::new(FxHashMap::with_capacity_and_hasher(
                BOUNDS_KEPT,
                Default::default(),
            )),
        })
    }

    /// A chunk's side, plane metres (about as many metres of ground).
    pub fn chunk_metres(&self) -> f64 {
        self.size
    }

    pub fn band(&self) -> Band {
        self.band
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub fn faces(&self) -> &Faces {
        &self.faces
    }

    fn planet(&self) -> &Planet {
        self.terrain.planet()
    }

    /// Chunk `key`'s square of its face's plane.
    pub fn square(&self, key: ThingKey) -> Square {
        let h = self.faces.half;
        Square {
            x0: -h + key.x as f64 * self.size,
            z0: -h + key.z as f64 * self.size,
            size: self.size,
        }
    }

    /// The chunk under the direction of `pos` (not zero).
    pub fn key_at(&self, pos: DVec3) -> ThingKey {
        let (face, a, b) = cube::face_coords(self.planet().projection(), cube::normalize(pos));
        let index = |c: f64| {
            ((c + 1.0) * self.faces.half / self.size)
                .floor()
                .clamp(0.0, (self.per - 1) as f64) as i32
        };
        ThingKey {
            band: self.band,
            face: face as u8,
            x: index(a),
            z: index(b),
        }
    }

    /// The direction of chunk `key`'s centre and the chord (on the unit sphere) from it to
    /// its farthest corner: a chunk's sides are great-circle arcs, so no point of it lies
    /// farther.
    fn centre_and_reach(&self, key: ThingKey) -> (DVec3, f64) {
        let s = self.square(key);
        let f = key.face as usize;
        let centre = self
            .faces
            .direction(f, s.x0 + s.size / 2.0, s.z0 + s.size / 2.0);
        let reach = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
            .iter()
            .map(|&(i, j)| {
                let corner = self
                    .faces
                    .direction(f, s.x0 + i * s.size, s.z0 + j * s.size);
                (corner - centre).length()
            })
            .fold(0.0, f64::max);
        (centre, reach)
    }

    /// [`centre_and_reach`](Self::centre_and_reach), remembered: the streamer asks for the
    /// same chunks' distances plan after plan, on the main thread (the only caller, so the
    /// lock is never contended), and each costs ten `tan`s afresh.
    fn bounds(&self, key: ThingKey) -> (DVec3, f64) {
        let mut known = self.bounds.lock();
        if let Some(b) = known.get(&key) {
            return *b;
        }
        if known.len() >= BOUNDS_KEPT {
            known.clear();
        }
        let b = self.centre_and_reach(key);
        known.insert(key, b);
        b
    }

    /// Horizontal distance between two positions: along the sea-level sphere, heights apart.
    pub fn horizontal(&self, a: DVec3, b: DVec3) -> f64 {
        cube::angle(cube::normalize(a), cube::normalize(b)) * self.planet().radius()
    }

    /// Tile `tk`: resident, read lately, or read now.
    fn tile(&self, tk: TileKey) -> Result<Arc<PlanetTile>, FormatError> {
        if let Some(tile) = self.terrain.resident().read().get(&tk).cloned() {
            return Ok(tile);
        }
        self.recent
            .get_or_read(tk, || self.terrain.planet().read_tile(tk))
    }

    /// Places chunk `key`'s things (what [`Source::load`] does, callable from any thread).
    pub fn build(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        let face = key.face as usize;
        if face >= 6 || !(0..self.per).contains(&key.x) || !(0..self.per).contains(&key.z) {
            return Err(FormatError::Corrupt(format!("no thing chunk {key:?}")));
        }
        let (centre, reach) = self.centre_and_reach(key);
        let r = self.planet().radius();
        // Water that may lie within reach of any candidate: the chunk's circle (a chord is
        // within a hundredth of its arc at any chunk's size) and its margin (no plane metre
        // spans two of ground).
        let within = WATER_REACH_M + reach * r * 1.01 + 2.0 * self.margin;
        let lakes = self
            .shores
            .iter()
            .filter(|l| l.distance(centre, r) <= within)
            .copied()
            .collect();
        let rivers = self.terrain.rivers_near(centre * r, within);
        // And the rivers that could cover any of them, for kinds that read no more.
        let covering = self.widest_half + reach * r * 1.01 + 2.0 * self.margin;
        let wet_rivers = self.terrain.rivers_near(centre * r, covering);
        let sites = PlanetSites {
            source: self,
            face,
            lakes,
            rivers,
            wet_rivers,
            tiles: RefCell::new(Vec::new()),
            last: Cell::new(0),
            failure: RefCell::new(None),
        };
        let things = place::place(&self.rules, self.seed, self.band, self.square(key), &sites);
        if let Some(e) = sites.failure.into_inner() {
            return Err(e);
        }
        Ok(ThingChunk::new(key, centre * r, &self.rules, &things))
    }
}

/// A lake as placement reads it: its equal-area circle and level.
#[derive(Clone, Copy, Debug)]
struct Shore {
    /// Unit direction of its centre.
    centre: DVec3,
    radius_m: f64,
    level_m: f64,
}

impl Shore {
    fn of(l: &PlanetLake) -> Shore {
        Shore {
            centre: cube::normalize(DVec3::from(l.centre.map(f64::from))),
            radius_m: l.radius_m as f64,
            level_m: l.level_m as f64,
        }
    }

    /// Metres from direction `d` to the circle's edge, 0 inside: straight through the
    /// sphere (within a hundredth of a percent of the way along it within reach of water).
    fn distance(&self, d: DVec3, radius: f64) -> f64 {
        ((d - self.centre).length() * radius - self.radius_m).max(0.0)
    }
}

/// The most samples a draw scans for the biomes under it (a far chunk on a planet of fine
/// samples); beyond, it thins by the table's highest rate.
const MOST_SAMPLES_SCANNED: i64 = 4096;

/// A planet's ground as placement reads it: the tiles a chunk holds.
struct PlanetSites<'a> {
    source: &'a PlanetThingSource,
    face: usize,
    lakes: Vec<Shore>,
    /// River segments that may lie within reach of any candidate.
    rivers: Vec<&'a RiverSegment>,
    /// Those that may cover one.
    wet_rivers: Vec<&'a RiverSegment>,
    /// The tiles read so far (a chunk reads one to four, a few more at cube corners).
    tiles: RefCell<Vec<(TileKey, Arc<PlanetTile>)>>,
    /// Which of them the last sample read.
    last: Cell<usize>,
    /// The first tile that failed to read: the chunk fails with it.
    failure: RefCell<Option<FormatError>>,
}

impl PlanetSites<'_> {
    /// `read` of sample (f, i, j) of the held tiles; None if its tile doesn't read.
    fn sample<R>(
        &self,
        f: usize,
        i: i64,
        j: i64,
        read: impl FnOnce(&PlanetTile, usize) -> R,
    ) -> Option<R> {
        let t = self.source.planet().tile_size() as i64;
        let (tx, ty) = (i / t, j / t);
        let key = TileKey {
            face: f as u8,
            tx: tx as u16,
            ty: ty as u16,
        };
        let mut tiles = self.tiles.borrow_mut();
        // Most reads fall in the tile the last one did.
        let last = self.last.get();
        let at = match tiles.get(last).is_some_and(|(k, _)| *k == key) {
            true => last,
            false => match tiles.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => match self.source.tile(key) {
                    Ok(tile) => {
                        tiles.push((key, tile));
                        tiles.len() - 1
                    }
                    Err(e) => {
                        self.failure.borrow_mut().get_or_insert(e);
                        return None;
                    }
                },
            },
        };
        self.last.set(at);
        let (u, v) = (i - tx * t, j - ty * t);
        Some(read(&tiles[at].1, (v * t + u) as usize))
    }

    /// The height at face coordinates (a, b) of `face`, as the height query reads it.
    fn height_at(&self, face: usize, a: f64, b: f64) -> Option<f64> {
        let n = self.source.planet().face_resolution();
        let h = bilinear_over(cube::stencil_at(face, a, b, n), |f, i, j| {
            self.sample(f, i, j, |t, k| t.height[k])
        })?;
        h.is_finite().then_some(h as f64)
    }

    /// The height at direction `d`, as the height query reads it (its face coordinates
    /// through `libm`, so the same on every machine).
    fn height(&self, d: DVec3) -> Option<f64> {
        let (face, a, b) = self.source.faces.face_coords(d);
        self.height_at(face, a, b)
    }

    /// `read` of the sample nearest plane point `drawn` of face `face`, where a candidate was
    /// drawn (a face owns only its own samples' ground, so no direction is turned back into
    /// face coordinates).
    fn nearest<R>(
        &self,
        face: u8,
        drawn: [f64; 2],
        read: impl FnOnce(&PlanetTile, usize) -> R,
    ) -> Option<R> {
        let (i, j) = (self.nearest_index(drawn[0]), self.nearest_index(drawn[1]));
        self.sample(face as usize, i, j, read)
    }

    /// The index of the sample row or column nearest plane coordinate `c` (metres), on any
    /// face; never decreasing as `c` grows.
    fn nearest_index(&self, c: f64) -> i64 {
        let n = self.source.planet().face_resolution();
        // Rounded half away from zero, as `round` would, without its call: the index is never
        // negative once clamped, and its fraction is exact.
        let v = cube::index_of(c / self.source.faces.half, n).clamp(0.0, n as f64 - 1.0);
        let whole = v as i64;
        whole + (v - whole as f64 >= 0.5) as i64
    }
}

impl Sites for PlanetSites<'_> {
    fn stretch(&self) -> f64 {
        self.source.stretch
    }

    fn planes(&self, area: Rect, out: &mut Vec<(u8, Rect)>) {
        let faces = &self.source.faces;
        let h = faces.half;
        let clip = |r: Rect| {
            let c = Rect {
                x0: r.x0.max(-h),
                x1: r.x1.min(h),
                z0: r.z0.max(-h),
                z1: r.z1.min(h),
            };
            (c.x0 <= c.x1 && c.z0 <= c.z1).then_some(c)
        };
        if let Some(own) = clip(area) {
            out.push((self.face as u8, own));
        }
        // The faces across each seam the area crosses. Lines of the gnomonic plane are great
        // circles, and each face coordinate maps monotonically to its plane's, so the area's
        // image on a neighbour lies within the box of its corners' images.
        let crossed = [area.x0 < -h, area.x1 >= h, area.z0 < -h, area.z1 >= h];
        for (edge, _) in EDGES.iter().zip(crossed).filter(|(_, c)| *c) {
            let g = SEAMS[self.face][*edge as usize].face as usize;
            let corners = [
                (area.x0, area.z0),
                (area.x1, area.z0),
                (area.x0, area.z1),
                (area.x1, area.z1),
            ];
            let mut image = Rect {
                x0: f64::INFINITY,
                x1: f64::NEG_INFINITY,
                z0: f64::INFINITY,
                z1: f64::NEG_INFINITY,
            };
            for (x, z) in corners {
                let Some((gx, gz)) = faces.plane_point(g, faces.direction(self.face, x, z)) else {
                    continue;
                };
                image.x0 = image.x0.min(gx);
                image.x1 = image.x1.max(gx);
                image.z0 = image.z0.min(gz);
                image.z1 = image.z1.max(gz);
            }
            // A hair more for rounding in the corners' images.
            let pad = 1e-9 * h;
            let image = Rect {
                x0: image.x0 - pad,
                x1: image.x1 + pad,
                z0: image.z0 - pad,
                z1: image.z1 + pad,
            };
            if let Some(part) = clip(image) {
                out.push((g as u8, part));
            }
        }
    }

    fn locate(&self, plane: u8, x: f64, z: f64) -> Option<Spot> {
        let faces = &self.source.faces;
        if !faces.owns(x, z) {
            return None;
        }
        let (d, keep) = faces.direction_and_share(plane as usize, x, z);
        let own = plane as usize == self.face;
        let (cx, cz) = if own {
            (x, z)
        } else {
            faces.plane_point(self.face, d)?
        };
        Some(Spot {
            x: cx,
            z: cz,
            at: d * faces.radius,
            keep,
            own,
            plane,
            drawn: [x, z],
        })
    }

    fn biomes_within(&self, plane: u8, part: Rect, seen: &mut dyn FnMut(u8)) -> bool {
        // The samples nearest the part's corners bound those nearest any point in it.
        let (i0, i1) = (self.nearest_index(part.x0), self.nearest_index(part.x1));
        let (j0, j1) = (self.nearest_index(part.z0), self.nearest_index(part.z1));
        if (i1 - i0 + 1) * (j1 - j0 + 1) > MOST_SAMPLES_SCANNED {
            return false;
        }
        (j0..=j1).all(|j| {
            (i0..=i1).all(|i| {
                self.sample(plane as usize, i, j, |t, k| seen(t.biome[k]))
                    .is_some()
            })
        })
    }

    fn biome(&self, plane: u8, x: f64, z: f64) -> Option<u8> {
        self.nearest(plane, [x, z], |t, k| t.biome[k])
    }

    fn site(&self, spot: &Spot) -> Option<Site> {
        let planet = self.source.planet();
        let (r, step) = (planet.radius(), planet.spacing());
        let d = cube::normalize(spot.at);
        // Where it was drawn: its own face's coordinates, exactly.
        let h = self.source.faces.half;
        let height = self.height_at(spot.plane as usize, spot.drawn[0] / h, spot.drawn[1] / h)?;
        // The normal as the normal query takes it: heights a sample apart east and north.
        let (east, north) = tangent_basis(d, planet.pole());
        let at = |e: f64, n: f64| self.height(cube::normalize(d + (east * e + north * n) / r));
        let gx = (at(step, 0.0)? - at(-step, 0.0)?) / (2.0 * step);
        let gz = (at(0.0, step)? - at(0.0, -step)?) / (2.0 * step);
        let (biome, lake) = self.nearest(spot.plane, spot.drawn, |t, k| (t.biome[k], t.lake[k]))?;
        Some(Site {
            height,
            position: d * (r + height),
            normal: cube::normalize(d - gx * east - gz * north),
            frame: [east, d, east.cross(d)],
            biome,
            in_lake: lake != 0,
        })
    }

    fn water(&self, spot: &Spot, site: &Site, wet_only: bool) -> Water {
        // The sea is everything below the radius.
        let mut w = Water::far(site.in_lake || site.height < 0.0);
        if wet_only {
            // The nearest river, if it is near enough to cover the spot: the query's answer
            // there (lakes cover only what their layer holds, read in the site).
            let source = self.source;
            let river = source
                .terrain
                .river_among(&self.wet_rivers, spot.at, source.widest_half);
            w.wet |= river.is_some_and(|r| r.has_water);
            return w.done();
        }
        if let Some(river) = self
            .source
            .terrain
            .river_among(&self.rivers, spot.at, WATER_REACH_M)
        {
            w.wet |= river.has_water;
            w.near(
                river.distance_m as f64 - river.width_m as f64 / 2.0,
                site.height - river.bed_m as f64,
            );
        }
        let (r, d) = (self.source.planet().radius(), cube::normalize(spot.at));
        for l in &self.lakes {
            let distance = l.distance(d, r);
            if distance <= WATER_REACH_M {
                w.near(distance, site.height - l.level_m);
            }
        }
        w.done()
    }
}

impl Source for PlanetThingSource {
    type Key = ThingKey;
    type Item = ThingChunk;
    type Error = FormatError;

    /// Chunks near the focus: on each face the focus projects onto, a window of chunk indices
    /// around the projection, each checked by its distance.
    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(ThingKey, f64)>) {
        if !focus.is_finite() || focus == DVec3::ZERO || radius.is_nan() || radius < 0.0 {
            return;
        }
        let d = cube::normalize(focus);
        let span = (radius * self.stretch / self.size)
            .ceil()
            .min(self.per as f64) as i32
            + 1;
        let (own, _, _) = cube::face_coords(self.planet().projection(), d);
        let r = self.planet().radius();
        for (face, [normal, _, _]) in FACES.iter().enumerate() {
            // Face `face` lies where its axis is the largest, beyond the plane between its
            // normal and the focus's face's: skip it if even that plane is out of reach by
            // more than a chunk's bounding circle can reach back (a circle's radius is at
            // most the chunk's half diagonal, less than its side, in metres of ground).
            if face != own {
                let between = FACES[own][0] - *normal;
                let angle = libm::asin((d.dot(between) / between.length()).clamp(-1.0, 1.0));
                if 2.0 * libm::sin(angle / 2.0) * r > radius + self.size {
                    continue;
                }
            }
            let Some((x, z)) = self.faces.plane_point(face, d) else {
                continue;
            };
            let index = |v: f64| {
                ((v + self.faces.half) / self.size)
                    .floor()
                    .clamp(-1.0, self.per as f64) as i32
            };
            let (ci, cj) = (index(x), index(z));
            for kz in (cj - span).max(0)..=(cj + span).min(self.per - 1) {
                for kx in (ci - span).max(0)..=(ci + span).min(self.per - 1) {
                    let key = ThingKey {
                        band: self.band,
                        face: face as u8,
                        x: kx,
                        z: kz,
                    };
                    let distance = self.distance(key, focus);
                    if distance <= radius {
                        out.push((key, distance));
                    }
                }
            }
        }
    }

    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        let usable = |p: DVec3| p.is_finite() && p != DVec3::ZERO;
        if !(usable(from) && usable(to)) {
            return f64::INFINITY;
        }
        self.horizontal(from, to)
    }

    /// Straight through the sea-level sphere from the focus's direction to the chunk's
    /// nearest bound: never more than the distance along it.
    fn distance(&self, key: ThingKey, focus: DVec3) -> f64 {
        let (centre, reach) = self.bounds(key);
        ((cube::normalize(focus) - centre).length() - reach).max(0.0) * self.planet().radius()
    }

    fn estimate_bytes(&self, _: ThingKey) -> usize {
        estimate_bytes(&self.rules, self.band, self.size)
    }

    fn item_bytes(c: &ThingChunk) -> usize {
        c.bytes()
    }

    fn load(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        self.build(key)
    }
}
