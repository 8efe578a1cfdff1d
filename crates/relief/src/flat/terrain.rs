//! Questions about the ground, from any thread, while the streamer runs: height, normal,
//! ground (Terrain3D control word), biome, nearest river, containing or nearest lake, and a
//! batch height. Every answer says what answered it: a resident region (full precision) or
//! the overview (coarse heights, where nothing is resident).

use std::sync::Arc;

use glam::{DVec3, Vec3};

use super::spatial::{self, Spatial};
use crate::flat::{Control, ReachKind, Region, RegionLocation, World};
use crate::stream::{PieceMap, Resident, LOCK_STRIDE};
use parking_lot::RwLockReadGuard;

/// What answered a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A resident region's samples.
    Region(RegionLocation),
    /// The overview: no region covering the point is resident.
    Overview,
    /// The point is outside the world; the overview's edge answered.
    Outside,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightAt {
    pub height: f32,
    pub origin: Origin,
}

/// The sample nearest a point, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    pub control: Control,
    pub biome: Option<u8>,
    pub lake: Option<u16>,
    pub region: RegionLocation,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RiverAt {
    pub reach: u32,
    pub kind: ReachKind,
    /// Channel width at the nearest point, metres.
    pub width_m: f32,
    /// Distance to the centreline, metres.
    pub distance_m: f32,
    /// Bed height at the nearest centreline point, metres.
    pub bed_m: f32,
    /// Whether the point is in the water (within half the width of the centreline).
    pub has_water: bool,
    /// Nearest centreline point [x, z].
    pub nearest: [f64; 2],
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LakeAt {
    pub lake: u32,
    pub level_m: f32,
    /// 0 inside the lake, else the distance to its shore, metres.
    pub distance_m: f32,
    pub inside: bool,
}

/// What a person reads about it: `river reach 28, 4.2 m wide, 0.0 m away, in the water`
/// (`creek` for a creek), as the demo prints and the engine overlays show.
impl std::fmt::Display for RiverAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            ReachKind::River => "river",
            ReachKind::Creek => "creek",
        };
        write!(
            f,
            "{kind} reach {}, {:.1} m wide, {:.1} m away{}",
            self.reach,
            self.width_m,
            self.distance_m,
            if self.has_water { ", in the water" } else { "" }
        )
    }
}

/// `in lake 3 (level 12.50 m)` inside it, `lake 3 at level 12.50 m, 40.0 m away` outside.
impl std::fmt::Display for LakeAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.inside {
            write!(f, "in lake {} (level {:.2} m)", self.lake, self.level_m)
        } else {
            write!(
                f,
                "lake {} at level {:.2} m, {:.1} m away",
                self.lake, self.level_m, self.distance_m
            )
        }
    }
}

/// A query handle over one world and a resident map. Cheap to clone; Send + Sync.
#[derive(Clone)]
pub struct Terrain {
    world: Arc<World>,
    resident: Resident<RegionLocation, Region>,
    spatial: Arc<Spatial>,
    size: i64,
    spacing: f64,
    /// Global sample index bounds, inclusive.
    lo: [i64; 2],
    hi: [i64; 2],
}

pub(crate) type Map = PieceMap<RegionLocation, Region>;

impl Terrain {
    pub fn new(world: Arc<World>, resident: Resident<RegionLocation, Region>) -> Terrain {
        let m = world.manifest();
        let size = m.region_size as i64;
        let b = m.region_bounds;
        Terrain {
            spatial: Arc::new(Spatial::build(world.reaches(), world.lakes())),
            size,
            spacing: m.vertex_spacing,
            lo: [b.min[0] as i64 * size, b.min[1] as i64 * size],
            hi: [
                (b.max[0] as i64 + 1) * size - 1,
                (b.max[1] as i64 + 1) * size - 1,
            ],
            world,
            resident,
        }
    }

    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// The resident map this handle reads.
    pub fn resident(&self) -> &Resident<RegionLocation, Region> {
        &self.resident
    }

    /// Beyond the world's samples, or not a position at all (NaN or infinite).
    fn outside(&self, x: f64, z: f64) -> bool {
        let (gx, gz) = (x / self.spacing, z / self.spacing);
        let inside = gx >= self.lo[0] as f64
            && gz >= self.lo[1] as f64
            && gx <= self.hi[0] as f64 + 1.0
            && gz <= self.hi[1] as f64 + 1.0;
        !inside
    }

    /// Height at (x, z): bilinear between the four surrounding samples, exact at samples and
    /// continuous across region edges (the world's outer edge clamps). Overview where any of
    /// the four samples is not resident; the overview's nearest edge (origin `Outside`) beyond
    /// the world; NaN (origin `Outside`) for a non-finite position.
    pub fn height(&self, x: f64, z: f64) -> HeightAt {
        let map = self.resident.read();
        let mut last = None;
        self.height_in(&map, &mut last, x, z)
    }

    /// Heights for many points into `out` (same length); returns how many came from resident
    /// regions (the rest from the overview). Holds the resident map's read lock for
    /// [`LOCK_STRIDE`] points at a time, yielding it between strides to a streamer waiting
    /// to publish a load: a million-point batch never makes a frame's update wait.
    pub fn heights(&self, points: &[[f64; 2]], out: &mut [f32]) -> usize {
        assert_eq!(points.len(), out.len(), "one output per point");
        let mut map = self.resident.read();
        let mut from_regions = 0;
        for (ps, os) in points.chunks(LOCK_STRIDE).zip(out.chunks_mut(LOCK_STRIDE)) {
            RwLockReadGuard::bump(&mut map);
            let mut last = None;
            for (p, o) in ps.iter().zip(os.iter_mut()) {
                let h = self.height_in(&map, &mut last, p[0], p[1]);
                from_regions += matches!(h.origin, Origin::Region(_)) as usize;
                *o = h.height;
            }
        }
        from_regions
    }

    fn height_in<'m>(
        &self,
        map: &'m Map,
        last: &mut Option<(RegionLocation, &'m Region)>,
        x: f64,
        z: f64,
    ) -> HeightAt {
        let overview = |origin| HeightAt {
            height: self.world.overview().height(x, z),
            origin,
        };
        if self.outside(x, z) || !x.is_finite() || !z.is_finite() {
            return overview(Origin::Outside);
        }
        let (fx, fz) = (x / self.spacing, z / self.spacing);
        let (i0, j0) = (fx.floor() as i64, fz.floor() as i64);
        let (tx, tz) = ((fx - i0 as f64) as f32, (fz - j0 as f64) as f32);
        let loc = RegionLocation::new(
            i0.div_euclid(self.size) as i32,
            j0.div_euclid(self.size) as i32,
        );
        let (li, lj) = (
            i0.rem_euclid(self.size) as usize,
            j0.rem_euclid(self.size) as usize,
        );
        let n = self.size as usize;
        // Fast path: all four samples inside one region, and the world edge not involved (a
        // point on the world's far edge lies in a region beyond it, which never exists: there
        // the edge clamps, as for the collision chunks' last row).
        let within = i0 >= self.lo[0] && j0 >= self.lo[1] && i0 < self.hi[0] && j0 < self.hi[1];
        if li + 1 < n && lj + 1 < n && within {
            let region = match last {
                Some((l, r)) if *l == loc => Some(*r),
                _ => map.get(&loc).map(|r| {
                    *last = Some((loc, &**r));
                    &**r
                }),
            };
            if let Some(r) = region {
                let h = &r.height;
                let k = lj * n + li;
                let a = h[k] + (h[k + 1] - h[k]) * tx;
                let b = h[k + n] + (h[k + n + 1] - h[k + n]) * tx;
                return HeightAt {
                    height: a + (b - a) * tz,
                    origin: Origin::Region(loc),
                };
            }
            return overview(Origin::Overview);
        }
        let s = |di: i64, dj: i64| self.sample(map, i0 + di, j0 + dj);
        match (s(0, 0), s(1, 0), s(0, 1), s(1, 1)) {
            (Some(h00), Some(h10), Some(h01), Some(h11)) => {
                let a = h00 + (h10 - h00) * tx;
                let b = h01 + (h11 - h01) * tx;
                HeightAt {
                    height: a + (b - a) * tz,
                    origin: Origin::Region(loc),
                }
            }
            _ => overview(Origin::Overview),
        }
    }

    /// The height of global sample (gi, gj), clamped to the world, if its region is resident.
    fn sample(&self, map: &Map, gi: i64, gj: i64) -> Option<f32> {
        let (gi, gj) = (
            gi.clamp(self.lo[0], self.hi[0]),
            gj.clamp(self.lo[1], self.hi[1]),
        );
        let loc = RegionLocation::new(
            gi.div_euclid(self.size) as i32,
            gj.div_euclid(self.size) as i32,
        );
        let r = map.get(&loc)?;
        let (li, lj) = (
            gi.rem_euclid(self.size) as usize,
            gj.rem_euclid(self.size) as usize,
        );
        Some(r.height[lj * self.size as usize + li])
    }

    /// Unit surface normal (Y up) from central differences one sample apart (one overview
    /// cell apart where the overview answers).
    pub fn normal(&self, x: f64, z: f64) -> (Vec3, Origin) {
        let (n, origin) = self.normal_in(&self.resident.read(), x, z);
        (n.as_vec3(), origin)
    }

    /// [`Terrain::normal`] over `map`, in f64.
    pub(crate) fn normal_in(&self, map: &Map, x: f64, z: f64) -> (DVec3, Origin) {
        let mut last = None;
        let origin = self.height_in(map, &mut last, x, z).origin;
        let d = if matches!(origin, Origin::Region(_)) {
            self.spacing
        } else {
            self.world.overview().spacing
        };
        let mut h = |dx: f64, dz: f64| self.height_in(map, &mut last, x + dx, z + dz).height as f64;
        let gx = (h(d, 0.0) - h(-d, 0.0)) / (2.0 * d);
        let gz = (h(0.0, d) - h(0.0, -d)) / (2.0 * d);
        let len = (gx * gx + 1.0 + gz * gz).sqrt();
        (DVec3::new(-gx / len, 1.0 / len, -gz / len), origin)
    }

    /// [`Terrain::height`] over `map`.
    pub(crate) fn height_on(&self, map: &Map, x: f64, z: f64) -> HeightAt {
        self.height_in(map, &mut None, x, z)
    }

    /// The sample nearest (x, z) decoded: Terrain3D control word, biome, lake. `None` where no
    /// resident region covers it (the overview carries heights only).
    pub fn ground(&self, x: f64, z: f64) -> Option<Ground> {
        self.ground_in(&self.resident.read(), x, z)
    }

    /// [`Terrain::ground`] over `map`.
    pub(crate) fn ground_in(&self, map: &Map, x: f64, z: f64) -> Option<Ground> {
        if self.outside(x, z) {
            return None;
        }
        let gi = ((x / self.spacing).round() as i64).clamp(self.lo[0], self.hi[0]);
        let gj = ((z / self.spacing).round() as i64).clamp(self.lo[1], self.hi[1]);
        let loc = RegionLocation::new(
            gi.div_euclid(self.size) as i32,
            gj.div_euclid(self.size) as i32,
        );
        let r = map.get(&loc)?;
        let k = gj.rem_euclid(self.size) as usize * self.size as usize
            + gi.rem_euclid(self.size) as usize;
        Some(Ground {
            control: Control::decode(r.control.as_ref().map_or(Control::BLANK, |c| c[k])),
            biome: r.biome.as_ref().map(|b| b[k]),
            lake: r.lake.as_ref().map(|l| l[k]),
            region: loc,
        })
    }

    /// Biome id and name at the nearest sample, if a resident region covers it.
    pub fn biome(&self, x: f64, z: f64) -> Option<(u8, &str)> {
        let id = self.ground(x, z)?.biome?;
        self.world
            .biomes()
            .get(id as usize)
            .map(|b| (id, b.name.as_str()))
    }

    /// The nearest river reach within `radius` metres of (x, z). Answered from the rivers
    /// table, so it works with nothing resident.
    pub fn river(&self, x: f64, z: f64, radius: f64) -> Option<RiverAt> {
        if !(x.is_finite() && z.is_finite() && radius >= 0.0) {
            return None;
        }
        let p = [x, z];
        let (hit, d2) = self
            .spatial
            .rivers
            .nearest_neighbor_iter_with_distance_2(&p)
            .next()?;
        if d2 > radius * radius {
            return None;
        }
        let seg = &self.spatial.river_segs[hit.data as usize];
        let reach = &self.world.reaches()[seg.reach as usize];
        let (t, d) = spatial::closest([seg.a[0], seg.a[1]], [seg.b[0], seg.b[1]], p);
        let f = seg.fa + (seg.fb - seg.fa) * t;
        let width = reach.head_width_m + (reach.width_m - reach.head_width_m) * f as f32;
        Some(RiverAt {
            reach: reach.id,
            kind: reach.kind,
            width_m: width,
            distance_m: d as f32,
            bed_m: (seg.a[2] + (seg.b[2] - seg.a[2]) * t) as f32,
            has_water: d <= width as f64 / 2.0,
            nearest: [
                seg.a[0] + (seg.b[0] - seg.a[0]) * t,
                seg.a[1] + (seg.b[1] - seg.a[1]) * t,
            ],
        })
    }

    /// The lake containing (x, z), else the nearest lake whose shore is within `radius`.
    pub fn lake(&self, x: f64, z: f64, radius: f64) -> Option<LakeAt> {
        if !(x.is_finite() && z.is_finite() && radius >= 0.0) {
            return None;
        }
        let p = [x, z];
        let lakes = self.world.lakes();
        for hit in self.spatial.lake_boxes.locate_all_at_point(&p) {
            let l = &lakes[hit.data as usize];
            if l.contains(x, z) {
                return Some(LakeAt {
                    lake: l.id,
                    level_m: l.level_m,
                    distance_m: 0.0,
                    inside: true,
                });
            }
        }
        let (hit, d2) = self
            .spatial
            .shores
            .nearest_neighbor_iter_with_distance_2(&p)
            .next()?;
        if d2 > radius * radius {
            return None;
        }
        let l = &lakes[hit.data as usize];
        Some(LakeAt {
            lake: l.id,
            level_m: l.level_m,
            distance_m: d2.sqrt() as f32,
            inside: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_as_a_person_would_say_them() {
        let mut r = RiverAt {
            reach: 28,
            kind: ReachKind::River,
            width_m: 4.2,
            distance_m: 0.04,
            bed_m: 3.0,
            has_water: true,
            nearest: [0.0, 0.0],
        };
        assert_eq!(
            r.to_string(),
            "river reach 28, 4.2 m wide, 0.0 m away, in the water"
        );
        (r.kind, r.has_water, r.distance_m) = (ReachKind::Creek, false, 13.46);
        assert_eq!(r.to_string(), "creek reach 28, 4.2 m wide, 13.5 m away");
        let mut l = LakeAt {
            lake: 3,
            level_m: 12.5,
            distance_m: 40.0,
            inside: false,
        };
        assert_eq!(l.to_string(), "lake 3 at level 12.50 m, 40.0 m away");
        l.inside = true;
        assert_eq!(l.to_string(), "in lake 3 (level 12.50 m)");
    }
}
