//! Thing chunks of a flat world: [`ThingSource`] names a band's squares near the focus and
//! "loads" one by placing its things ([`crate::things::place`]) on the regions under it and a
//! margin around, held for the build (resident ones, else read and kept among the last few):
//! never the overview, so a chunk's things are the same whenever and wherever it is built.

use glam::DVec3;
use std::sync::Arc;

use crate::config::ConfigError;
use crate::flat::grid::{planar_moved, square_distance, squares_within};
use crate::flat::terrain::Map;
use crate::flat::{FormatError, Region, RegionLocation, Terrain, World};
use crate::recent::Recent;
use crate::stream::Source;
use crate::things::place;
use crate::things::{
    check_band, Band, Rules, Site, Sites, Spot, Square, ThingChunk, ThingKey, Water, WATER_REACH_M,
    WORLD_FRAME,
};

/// Regions read for things, kept for the next chunks.
const RECENT_REGIONS: usize = 4;

/// Streams one band's thing chunks of a flat world.
pub struct ThingSource {
    terrain: Terrain,
    rules: Arc<Rules>,
    seed: u64,
    band: Band,
    size: f64,
    /// How far around a chunk candidates matter, plus a sample for normals.
    margin: f64,
    recent: Recent<RegionLocation, Region>,
    /// The chunk indices over the world (inclusive).
    extent: ([i32; 2], [i32; 2]),
}

impl ThingSource {
    /// `band`'s chunks of `size_m` metres over `terrain`'s world and resident regions. A size
    /// the band's table can't hold in a chunk ([`check_band`]) is an error naming
    /// `chunk_size_m`.
    pub fn new(
        terrain: Terrain,
        rules: Arc<Rules>,
        band: Band,
        size_m: f64,
    ) -> Result<ThingSource, ConfigError> {
        check_band(&rules, band, size_m, 1.0)?;
        let margins = place::margins(&rules, band);
        let world = terrain.world().clone();
        let m = world.manifest();
        let spacing = m.vertex_spacing;
        let margin = margins.iter().flatten().cloned().fold(0.0, f64::max) + 2.0 * spacing;
        let b = m.region_bounds;
        let side = m.region_size as f64 * spacing;
        let index = |v: f64| (v / size_m).floor().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        let extent = (
            [index(b.min[0] as f64 * side), index(b.min[1] as f64 * side)],
            [
                index((b.max[0] + 1) as f64 * side) - 1,
                index((b.max[1] + 1) as f64 * side) - 1,
            ],
        );
        Ok(ThingSource {
            seed: things_seed(&world),
            terrain,
            rules,
            band,
            size: size_m,
            margin,
            recent: Recent::new(RECENT_REGIONS),
            extent,
        })
    }

    pub fn chunk_metres(&self) -> f64 {
        self.size
    }

    pub fn band(&self) -> Band {
        self.band
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The chunk whose square contains world (x, z).
    pub fn key_at(&self, x: f64, z: f64) -> ThingKey {
        ThingKey {
            band: self.band,
            face: 0,
            x: (x / self.size).floor() as i32,
            z: (z / self.size).floor() as i32,
        }
    }

    /// The regions under `square` widened by the margin, resident or read.
    fn hold(&self, square: Square) -> Result<Map, FormatError> {
        let world = self.terrain.world();
        let m = world.manifest();
        let side = m.region_size as f64 * m.vertex_spacing;
        let b = m.region_bounds;
        let span = |lo: f64, axis: usize| {
            let first = ((lo - self.margin) / side).floor() as i64;
            let last = ((lo + square.size + self.margin) / side).floor() as i64;
            first.max(b.min[axis] as i64)..=last.min(b.max[axis] as i64)
        };
        let mut map = Map::default();
        for rz in span(square.z0, 1) {
            for rx in span(square.x0, 0) {
                let loc = RegionLocation::new(rx as i32, rz as i32);
                let resident = self.terrain.resident().read().get(&loc).cloned();
                let region = match resident {
                    Some(r) => r,
                    None => self.recent.get_or_read(loc, || world.read_region(loc))?,
                };
                map.insert(loc, region);
            }
        }
        Ok(map)
    }

    /// Places chunk `key`'s things (what [`Source::load`] does, callable from any thread).
    pub fn build(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        let square = Square {
            x0: key.x as f64 * self.size,
            z0: key.z as f64 * self.size,
            size: self.size,
        };
        let map = self.hold(square)?;
        let sites = FlatSites {
            terrain: &self.terrain,
            map: &map,
            sea_level: self.terrain.world().manifest().sea() as f64,
        };
        let things = place::place(&self.rules, self.seed, self.band, square, &sites);
        Ok(ThingChunk::new(key, DVec3::ZERO, &self.rules, &things))
    }
}

/// A world's thing seed: from its seed text, apart from every other use of it.
pub fn things_seed(world: &World) -> u64 {
    crate::hash::fnv1a(&format!("things:{}", world.manifest().seed))
}

/// A flat world's ground as placement reads it: held regions only.
struct FlatSites<'a> {
    terrain: &'a Terrain,
    map: &'a Map,
    sea_level: f64,
}

impl Sites for FlatSites<'_> {
    fn biome(&self, _plane: u8, x: f64, z: f64) -> Option<u8> {
        let ground = self.terrain.ground_in(self.map, x, z)?;
        // A world without a biome layer reads as its first biome everywhere.
        (!ground.control.hole).then(|| ground.biome.unwrap_or(0))
    }

    fn site(&self, s: &Spot) -> Option<Site> {
        let (x, z) = (s.x, s.z);
        let ground = self.terrain.ground_in(self.map, x, z)?;
        if ground.control.hole {
            return None;
        }
        let h = self.terrain.height_on(self.map, x, z);
        if !matches!(h.origin, crate::flat::terrain::Origin::Region(_)) || h.height.is_nan() {
            return None;
        }
        Some(Site {
            height: h.height as f64,
            position: DVec3::new(x, h.height as f64, z),
            normal: self.terrain.normal_in(self.map, x, z).0,
            frame: WORLD_FRAME,
            // A world without a biome layer reads as its first biome everywhere.
            biome: ground.biome.unwrap_or(0),
            in_lake: ground.lake.is_some_and(|l| l != 0),
        })
    }

    /// Reads the water as far as it reaches whatever the kind asks (the goal's rate holds
    /// without looking nearer for kinds that need only `wet`).
    fn water(&self, s: &Spot, site: &Site, _wet_only: bool) -> Water {
        let (x, z) = (s.x, s.z);
        let mut w = Water::far(site.in_lake || site.height < self.sea_level);
        if let Some(r) = self.terrain.river(x, z, WATER_REACH_M) {
            w.wet |= r.has_water;
            w.near(
                r.distance_m as f64 - r.width_m as f64 / 2.0,
                site.height - r.bed_m as f64,
            );
        }
        if let Some(l) = self.terrain.lake(x, z, WATER_REACH_M) {
            w.wet |= l.inside;
            w.near(l.distance_m as f64, site.height - l.level_m as f64);
        }
        w.done()
    }
}

impl Source for ThingSource {
    type Key = ThingKey;
    type Item = ThingChunk;
    type Error = FormatError;

    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(ThingKey, f64)>) {
        let band = self.band;
        squares_within(
            self.size,
            focus[0],
            focus[2],
            radius,
            self.extent,
            |x, z, d| {
                out.push((
                    ThingKey {
                        band,
                        face: 0,
                        x,
                        z,
                    },
                    d,
                ))
            },
        );
    }

    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        planar_moved(from, to)
    }

    fn distance(&self, key: ThingKey, focus: DVec3) -> f64 {
        square_distance(key.x, key.z, self.size, focus[0], focus[2])
    }

    fn estimate_bytes(&self, _: ThingKey) -> usize {
        crate::things::chunks::estimate_bytes(&self.rules, self.band, self.size)
    }

    fn item_bytes(c: &ThingChunk) -> usize {
        c.bytes()
    }

    fn load(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        self.build(key)
    }
}
