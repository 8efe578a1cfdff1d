//! Placement: which things stand in a square of ground, as a pure function of the world's
//! seed, its ground and its table — the same things, bit for bit, whichever square is asked
//! first, on whatever thread, on any machine.
//!
//! Every kind draws candidates on a grid of cells one spacing wide: a cell holds a Poisson
//! number of them (at the kind's highest candidate rate), each at a point and with draws
//! taken from a hash of (seed, kind name, plane, cell, index) — never from a sequence, so no
//! draw depends on another. A candidate is *eligible* where it survives thinning to its
//! biome's rate and the kind's limits (slope, height, wetness, water; never on a hole or in
//! water). An eligible candidate stands unless an eligible candidate of higher priority lies
//! within their spacing (the sum of footprints; the kind's spacing between two of one kind):
//! Matérn's second hard-core process. Priority is the kind's rank (bigger kinds first), then
//! a draw. No two things ever stand closer than their spacing, and a thing's fate depends
//! only on candidates within that spacing, so a square is decided by its own ground plus a
//! margin, and squares agree at their edges. The ground under a candidate (its height,
//! slope and water, the costly reads) is read only when a decision needs it: a candidate
//! beaten by an eligible one never reads its own, and one in the margin only if a weaker one
//! within its spacing asks.
//!
//! A flat world is one plane. A planet is six, its cube's faces ([`Sites::planes`]): each
//! face draws candidates on its own plane where it owns the ground, every candidate is
//! placed in the asking chunk's plane to find its neighbours ([`Spot`]), spacing is measured
//! between points on the sea-level sphere, and a face's cells are thinned by how much ground
//! they cover, so densities hold per square metre of ground everywhere.
//!
//! Only `+ − × ÷`, `sqrt` (all correctly rounded in IEEE 754) and `libm`'s `sin`, `cos` and
//! `exp` (one implementation on every platform) reach a flat world's results, in a fixed
//! order: positions and transforms are identical everywhere.

use std::cell::OnceCell;

use glam::DVec3;

use super::rules::{Align, Band, Kind, Rules};
use crate::hash::{mix, unit};

/// Water distances are read this far; beyond, water reads as this far away.
pub const WATER_REACH_M: f64 = 1000.0;
/// The most things a chunk holds: more is cut, deterministically (the first in order stay).
/// A table and chunk size that would expect more are refused when the runtime starts.
pub const MAX_THINGS_PER_CHUNK: usize = 1 << 16;
/// The most candidate cells one kind may draw for one chunk (its square and margin).
pub const MAX_CELLS_PER_CHUNK: u64 = 1 << 20;
/// The most candidates one cell holds (at the highest rate a table allows, 2.3 expected, a
/// cell holds more than 12 once in about 10⁶).
const MAX_PER_CELL: u32 = 12;

/// A rotation by its columns.
pub type Rotation = [DVec3; 3];

/// The world's own axes: a flat world's frame everywhere.
pub const WORLD_FRAME: Rotation = [DVec3::X, DVec3::Y, DVec3::Z];

/// What placement reads of the ground at a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Site {
    /// Metres above the datum (a flat world's zero, a planet's radius).
    pub height: f64,
    /// Where a thing here stands, world metres: on the ground the height query answers.
    pub position: DVec3,
    /// The ground's unit normal, world axes.
    pub normal: DVec3,
    /// The local frame: east-ish, up (the local vertical), and their cross product, world
    /// axes ([`WORLD_FRAME`] on a flat world). Upright things stand along its up; slope
    /// limits are the normal's angle from it.
    pub frame: Rotation,
    pub biome: u8,
    /// The ground's own water layer covers it (a lake layer).
    pub in_lake: bool,
}

impl Site {
    /// The cosine of the ground's slope (never above 1: two unit vectors' product can round
    /// past it, and level ground must pass a limit of 0°).
    pub fn level(&self) -> f64 {
        self.normal.dot(self.frame[1]).min(1.0)
    }
}

/// Water near a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Water {
    /// Metres to the nearest river or lake water (0 in it), at most [`WATER_REACH_M`].
    pub distance: f64,
    /// 0 to 1: see docs/formats.md, "things.json".
    pub wetness: f64,
    /// In a river, a lake or the sea: nothing stands here.
    pub wet: bool,
}

/// Wetness is 1 at the water's edge at its level and falls to 0 this high above it …
pub const WET_ABOVE_M: f64 = 8.0;
/// … or this far from it.
pub const WET_WITHIN_M: f64 = 64.0;

impl Water {
    /// No water within reach yet; `wet` if the site itself is under water.
    pub fn far(wet: bool) -> Water {
        Water {
            distance: WATER_REACH_M,
            wetness: 0.0,
            wet,
        }
    }

    /// Takes in water `distance` metres away whose surface lies `above` metres below the
    /// site: the nearest water, and the wettest.
    pub fn near(&mut self, distance: f64, above: f64) {
        let d = distance.clamp(0.0, WATER_REACH_M);
        self.distance = self.distance.min(d);
        let wet = (1.0 - above.max(0.0) / WET_ABOVE_M).max(0.0) * (1.0 - d / WET_WITHIN_M).max(0.0);
        self.wetness = self.wetness.max(wet);
    }

    /// The water as placement reads it: in it, it is 0 m away.
    pub fn done(mut self) -> Water {
        if self.wet {
            self.distance = 0.0;
        }
        self
    }
}

/// Where a candidate drawn on a plane lies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    /// In the asking chunk's plane: for its square and the search for neighbours.
    pub x: f64,
    pub z: f64,
    /// The point spacing is measured from: `(x, 0, z)` on a flat world, the point on the
    /// sea-level sphere on a planet.
    pub at: DVec3,
    /// The share of candidates kept here: ground area per plane area, at most 1 (1 on a
    /// flat world).
    pub keep: f64,
    /// Drawn on the chunk's own plane: only such a candidate can stand in its square.
    pub own: bool,
    /// The plane it was drawn on, and where on it.
    pub plane: u8,
    pub drawn: [f64; 2],
}

/// A part of a plane, `[x0, x1] × [z0, z1]`, whose candidate cells are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub x1: f64,
    pub z0: f64,
    pub z1: f64,
}

/// The ground placement stands things on: a flat world's held regions, a planet's tiles.
/// Points are asked of by [`Spot`]; a flat world reads its `x` and `z`.
pub trait Sites {
    /// The most metres of the chunk's plane one metre between [`Spot::at`]s can span: how
    /// far around a point neighbours are searched. 1 on a flat world.
    fn stretch(&self) -> f64 {
        1.0
    }
    /// The planes whose candidates may lie in `area` of the chunk's plane, each with the part
    /// of its own plane to draw (a flat world: plane 0, `area` itself).
    fn planes(&self, area: Rect, out: &mut Vec<(u8, Rect)>) {
        out.push((0, area));
    }
    /// Point (x, z) of plane `plane`, if that plane owns the ground there.
    fn locate(&self, plane: u8, x: f64, z: f64) -> Option<Spot> {
        Some(Spot {
            x,
            z,
            at: DVec3::new(x, 0.0, z),
            keep: 1.0,
            own: true,
            plane,
            drawn: [x, z],
        })
    }
    /// Calls `seen` with every biome [`Sites::biome`] can answer within `part` of plane
    /// `plane` (and perhaps more), and returns true; or returns false where it cannot tell
    /// cheaply (the default): placement then thins by the table's highest rate there.
    fn biomes_within(&self, _plane: u8, _part: Rect, _seen: &mut dyn FnMut(u8)) -> bool {
        false
    }
    /// The biome at point (x, z) of plane `plane`, where a candidate was drawn (its
    /// [`Spot::drawn`]), cheaply: placement thins by it before it locates the candidate or
    /// asks for the whole site. None where nothing may stand (off the ground a chunk holds,
    /// or a hole).
    fn biome(&self, plane: u8, x: f64, z: f64) -> Option<u8>;
    /// The ground at `spot`; None where nothing may stand. Its biome is [`Sites::biome`]'s.
    fn site(&self, spot: &Spot) -> Option<Site>;
    /// Water near `spot`, whose site is `site`. Where `wet_only`, the kind asking limits
    /// neither distance nor wetness, and only [`Water::wet`] must be right: a ground may
    /// then look no farther than the water that could cover the spot.
    fn water(&self, spot: &Spot, site: &Site, wet_only: bool) -> Water;
}

/// A square of the plane: x in `[x0, x0 + size)`, z likewise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Square {
    pub x0: f64,
    pub z0: f64,
    pub size: f64,
}

/// One placed thing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thing {
    /// Stable for a given world: drawn from the seed, the kind's name and the cell.
    pub id: u64,
    /// Index into the table's kinds.
    pub kind: u16,
    /// Where it stands: on the ground, at the height the height query answers.
    pub position: DVec3,
    /// Its rotation's columns (its X, Y (up) and Z axes), before scale.
    pub axes: Rotation,
    pub scale: f64,
}

/// A candidate still in the running: it survived thinning to its biome's rate.
#[derive(Clone, Debug)]
struct Candidate {
    spot: Spot,
    kind: u16,
    /// (rank, draw, id): higher stands.
    priority: (u32, u64, u64),
    id: u64,
    inside: bool,
    /// Its site where it meets its kind's limits, read when first asked: a candidate whose
    /// fate nothing depends on (beaten before it was asked, or in the margin and never
    /// nearer a weaker one than their spacing) never reads its ground.
    site: OnceCell<Option<Site>>,
}

/// The k-th independent draw of a candidate.
fn draw(id: u64, k: u64) -> u64 {
    mix(id ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn lerp(r: [f64; 2], t: f64) -> f64 {
    r[0] + (r[1] - r[0]) * t
}

/// The least distance between a thing of kind `a` and one of kind `b`.
pub fn spacing_between(a: &Kind, b: &Kind, same: bool) -> f64 {
    if same {
        a.spacing
    } else {
        a.footprint + b.footprint
    }
}

/// For each kind, how far around a square of `band` its candidates matter (None: not at
/// all): kinds of the band, and every kind that can take ground from them (a rank at least
/// theirs), within the spacing between them.
pub fn margins(rules: &Rules, band: Band) -> Vec<Option<f64>> {
    let kinds = &rules.kinds;
    (0..kinds.len())
        .map(|j| {
            kinds
                .iter()
                .enumerate()
                .filter(|(_, t)| t.band == band && kinds[j].rank >= t.rank)
                .map(|(k, t)| spacing_between(t, &kinds[j], k == j))
                .reduce(f64::max)
        })
        .collect()
}

/// Candidate cells kind `kind` draws for a square of `size` with `margin` around it.
pub fn cells_for(kind: &Kind, size: f64, margin: f64) -> u64 {
    let across = ((size + 2.0 * margin) / kind.spacing).ceil() + 1.0;
    (across * across).min(u64::MAX as f64) as u64
}

/// Places `band`'s things in `square`, reading the ground through `sites`. In order of kind
/// (the table's), then of plane, then of cell (z, then x), then of index in the cell.
pub fn place(
    rules: &Rules,
    seed: u64,
    band: Band,
    square: Square,
    sites: &impl Sites,
) -> Vec<Thing> {
    let margins = margins(rules, band);
    let stretch = sites.stretch();
    let mut candidates = Vec::new();
    let mut planes = Vec::new();
    // Each kind's candidates, bucketed by its own spacing: a search around a small thing
    // reads few buckets whatever else the table holds.
    let mut grids = Vec::new();
    for (j, margin) in margins.iter().enumerate() {
        let Some(margin) = *margin else { continue };
        let kind = &rules.kinds[j];
        // The margin in the chunk's plane.
        let margin = margin * stretch;
        if kind.candidates_max <= 0.0 || cells_for(kind, square.size, margin) > MAX_CELLS_PER_CHUNK
        {
            continue;
        }
        let start = candidates.len();
        let area = Rect {
            x0: square.x0 - margin,
            x1: square.x0 + square.size + margin,
            z0: square.z0 - margin,
            z1: square.z0 + square.size + margin,
        };
        planes.clear();
        sites.planes(area, &mut planes);
        for &(plane, part) in &planes {
            let cut = Cut {
                square,
                margin,
                plane,
                part,
            };
            draw_candidates(rules, seed, j, cut, sites, &mut candidates);
        }
        if candidates.len() > start {
            let area = Square {
                x0: square.x0 - margin,
                z0: square.z0 - margin,
                size: square.size + 2.0 * margin,
            };
            grids.push((j, Buckets::new(&candidates, start, area, kind.spacing)));
        }
    }
    // A candidate's site, read once, whoever asks first: what stands is the same whatever
    // the order sites are read in.
    let site_of = |c: &Candidate| {
        *c.site
            .get_or_init(|| suits(&rules.kinds[c.kind as usize], &c.spot, sites))
    };
    let mut things = Vec::new();
    for c in candidates.iter().filter(|c| c.inside) {
        let kind = &rules.kinds[c.kind as usize];
        if kind.band != band {
            continue;
        }
        // Only a kind of a rank at least this one's can stand in its way; its own kind first,
        // the likeliest to.
        let own = grids.iter().filter(|(k, _)| *k == c.kind as usize);
        let others = grids
            .iter()
            .filter(|(k, _)| *k != c.kind as usize && rules.kinds[*k].rank >= kind.rank);
        let beaten = own.chain(others).any(|(k, grid)| {
            let d = spacing_between(kind, &rules.kinds[*k], *k == c.kind as usize);
            grid.any_within(c.spot.x, c.spot.z, d * stretch, |o| {
                #[cfg(test)]
                tests::COMPARED.with(|n| n.set(n.get() + 1));
                let other = &candidates[o];
                other.priority > c.priority
                    && (other.spot.at - c.spot.at).length_squared() < d * d
                    && site_of(other).is_some()
            })
        });
        if beaten {
            continue;
        }
        if let Some(site) = site_of(c) {
            things.push(stand(kind, c, &site));
            if things.len() == MAX_THINGS_PER_CHUNK {
                break;
            }
        }
    }
    things
}

/// What one draw covers: a chunk's square and margin (its plane's metres), and the part of
/// plane `plane` whose cells may put candidates there.
#[derive(Clone, Copy)]
struct Cut {
    square: Square,
    margin: f64,
    plane: u8,
    part: Rect,
}

/// Draws kind `j`'s candidates on `cut.plane` that lie within the margin of the square and
/// survive thinning to their biome's rate.
fn draw_candidates(
    rules: &Rules,
    seed: u64,
    j: usize,
    cut: Cut,
    sites: &impl Sites,
    out: &mut Vec<Candidate>,
) {
    let Cut {
        square,
        margin,
        plane,
        part,
    } = cut;
    let kind = &rules.kinds[j];
    let cell = kind.spacing;
    let mean = kind.candidates_max * cell * cell;
    let none = libm::exp(-mean);
    let index = |v: f64| (v / cell).floor() as i64;
    // The highest rate any point of the part can read: a candidate thinned at it is thinned
    // wherever it falls, so it goes before its point is drawn (where one biome covers the
    // part, most do).
    let mut most = 0.0f64;
    let rate_of = |b: u8| kind.candidates.get(b as usize).copied().unwrap_or(0.0);
    if !sites.biomes_within(plane, part, &mut |b| most = most.max(rate_of(b))) {
        most = kind.candidates_max;
    }
    // Plane 0 (a flat world's only one) hashes as it always has.
    let base = mix(seed ^ kind.salt) ^ (plane as u64).wrapping_mul(0xd6e8_feb8_6659_fd93);
    for cz in index(part.z0)..=index(part.z1) {
        for cx in index(part.x0)..=index(part.x1) {
            let cell_hash = mix(base ^ mix((cx as u64) ^ mix(cz as u64)));
            // Poisson count by inversion: P(n) = P(n−1) · mean / n.
            let u = unit(cell_hash);
            let (mut n, mut p, mut cdf) = (0u32, none, none);
            while u >= cdf && n < MAX_PER_CELL {
                n += 1;
                p *= mean / n as f64;
                cdf += p;
            }
            for i in 0..n {
                let id = mix(cell_hash ^ (i as u64 + 1));
                let thin = unit(draw(id, 3)) * kind.candidates_max;
                if thin >= most {
                    continue;
                }
                let x = (cx as f64 + unit(draw(id, 1))) * cell;
                let z = (cz as f64 + unit(draw(id, 2))) * cell;
                // The cheap tests first, on the point as drawn: in the part whose candidates
                // can reach the margin, and kept at its biome's rate were its ground's share
                // of the plane whole (it is at most). Most candidates fall here, before the
                // costlier locating.
                let in_part = part.x0 <= x && x <= part.x1 && part.z0 <= z && z <= part.z1;
                if !in_part {
                    continue;
                }
                // A biome the table doesn't know keeps nothing (rate 0).
                let Some(rate) = sites.biome(plane, x, z).map(rate_of) else {
                    continue;
                };
                if thin >= rate {
                    continue;
                }
                let Some(spot) = sites.locate(plane, x, z) else {
                    continue;
                };
                let (dx, dz) = (
                    clearance(spot.x, square.x0, square.size),
                    clearance(spot.z, square.z0, square.size),
                );
                if dx.max(dz) >= margin || thin >= rate * spot.keep {
                    continue;
                }
                #[cfg(test)]
                tests::DRAWN.with(|n| n.set(n.get() + 1));
                out.push(Candidate {
                    spot,
                    kind: j as u16,
                    priority: (kind.rank, draw(id, 4), id),
                    id,
                    inside: spot.own && dx == 0.0 && dz == 0.0,
                    site: OnceCell::new(),
                });
            }
        }
    }
}

/// How far `v` lies outside `[lo, lo + size)`: 0 inside.
fn clearance(v: f64, lo: f64, size: f64) -> f64 {
    if v < lo {
        lo - v
    } else if v >= lo + size {
        // On the far edge counts as outside, by a hair: the next square owns it.
        (v - (lo + size)).max(f64::MIN_POSITIVE)
    } else {
        0.0
    }
}

/// The site of a thinned candidate, if it meets every limit of its kind: eligible.
fn suits(kind: &Kind, spot: &Spot, sites: &impl Sites) -> Option<Site> {
    let site = sites.site(spot)?;
    let within = |v: f64, r: [f64; 2]| r[0] <= v && v <= r[1];
    if !within(site.height, kind.height) || !within(site.level(), kind.normal_y) {
        return None;
    }
    let water = sites.water(spot, &site, !kind.reads_water);
    if water.wet
        || (kind.reads_water
            && !(within(water.distance, kind.water) && within(water.wetness, kind.wetness)))
    {
        return None;
    }
    Some(site)
}

/// The thing a winning candidate becomes: its yaw, lean, up and scale drawn, in its site's
/// frame.
fn stand(kind: &Kind, c: &Candidate, site: &Site) -> Thing {
    let tau = std::f64::consts::TAU;
    let yaw = tau * unit(draw(c.id, 5));
    let lean = lerp(kind.tilt, unit(draw(c.id, 6)));
    let toward = tau * unit(draw(c.id, 7));
    let frame = &site.frame;
    // Up in the site's frame: its vertical, or the ground's normal.
    let up = match kind.align {
        Align::Upright => DVec3::Y,
        Align::Slope => {
            let n = site.normal;
            DVec3::new(n.dot(frame[0]), n.dot(frame[1]), n.dot(frame[2]))
        }
    };
    let local = mul(
        &align_y(up),
        &mul(
            &about(DVec3::new(libm::cos(toward), 0.0, libm::sin(toward)), lean),
            &about(DVec3::Y, yaw),
        ),
    );
    Thing {
        id: c.id,
        kind: c.kind,
        position: site.position,
        axes: mul(frame, &local),
        scale: lerp(kind.scale, unit(draw(c.id, 8))),
    }
}

/// `a · b`.
fn mul(a: &Rotation, b: &Rotation) -> Rotation {
    let apply = |v: DVec3| a[0] * v.x + a[1] * v.y + a[2] * v.z;
    [apply(b[0]), apply(b[1]), apply(b[2])]
}

/// The rotation by `angle` about unit `axis` (Rodrigues).
fn about(axis: DVec3, angle: f64) -> Rotation {
    let (s, c) = (libm::sin(angle), libm::cos(angle));
    let column = |e: DVec3| e * c + axis.cross(e) * s + axis * (axis.dot(e) * (1.0 - c));
    [column(DVec3::X), column(DVec3::Y), column(DVec3::Z)]
}

/// The shortest rotation taking +Y to unit `n` (n.y > −1: ground normals point up).
fn align_y(n: DVec3) -> Rotation {
    // v = Y × n, c = Y · n: R = I + [v]× + [v]×² / (1 + c).
    let v = DVec3::new(n.z, 0.0, -n.x);
    let k = 1.0 / (1.0 + n.y);
    let column = |e: DVec3| e + v.cross(e) + v.cross(v.cross(e)) * k;
    [column(DVec3::X), column(DVec3::Y), column(DVec3::Z)]
}

/// One kind's candidates by square bucket of about its spacing (so a bucket holds a few).
struct Buckets {
    area: Square,
    cell: f64,
    across: i64,
    /// (bucket, candidate), sorted.
    entries: Vec<(i64, usize)>,
}

impl Buckets {
    /// Candidates `start..` of `candidates` (one kind's, all within `area`), in buckets of
    /// `cell` metres.
    fn new(candidates: &[Candidate], start: usize, area: Square, cell: f64) -> Buckets {
        let cell = cell.max(1e-3);
        let mut b = Buckets {
            area,
            cell,
            across: (area.size / cell).ceil() as i64 + 1,
            entries: Vec::with_capacity(candidates.len() - start),
        };
        for (i, c) in candidates.iter().enumerate().skip(start) {
            let (bx, bz) = (b.bucket(c.spot.x, b.area.x0), b.bucket(c.spot.z, b.area.z0));
            b.entries.push((bz * b.across + bx, i));
        }
        b.entries.sort_unstable();
        b
    }

    fn bucket(&self, v: f64, lo: f64) -> i64 {
        (((v - lo) / self.cell).floor() as i64).clamp(0, self.across - 1)
    }

    /// Whether `hit` holds for a candidate in the buckets within `r` of (x, z): those buckets'
    /// rows, or every candidate where there are fewer of them than rows (a wide radius over
    /// small things).
    fn any_within(&self, x: f64, z: f64, r: f64, mut hit: impl FnMut(usize) -> bool) -> bool {
        let span = (r / self.cell).ceil() as i64;
        if (2 * span + 1) as usize > self.entries.len() {
            return self.entries.iter().any(|e| hit(e.1));
        }
        let (bx, bz) = (self.bucket(x, self.area.x0), self.bucket(z, self.area.z0));
        let (a, b) = ((bx - span).max(0), (bx + span).min(self.across - 1));
        let rows = (bz - span).max(0)..=(bz + span).min(self.across - 1);
        rows.into_iter().any(|z| {
            let row = z * self.across;
            let start = self.entries.partition_point(|e| e.0 < row + a);
            let row_end = row + b;
            self.entries[start..]
                .iter()
                .take_while(|e| e.0 <= row_end)
                .any(|e| hit(e.1))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::things::rules::{Rules, ThingsFile};

    thread_local! {
        /// Candidates compared with another on this thread, for the work a placement does.
        pub static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        /// Candidates drawn on this thread (past thinning, within the margin).
        pub static DRAWN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Rolling ground: height and slope vary, two biomes in stripes, a round lake.
    struct Hills;

    impl Hills {
        fn height(x: f64, z: f64) -> f64 {
            20.0 * (x / 37.0).sin() * (z / 53.0).cos() + 0.02 * x
        }
    }

    impl Hills {
        fn at(x: f64, z: f64) -> Site {
            let d = 0.5;
            let gx = (Hills::height(x + d, z) - Hills::height(x - d, z)) / (2.0 * d);
            let gz = (Hills::height(x, z + d) - Hills::height(x, z - d)) / (2.0 * d);
            Site {
                height: Hills::height(x, z),
                position: DVec3::new(x, Hills::height(x, z), z),
                normal: DVec3::new(-gx, 1.0, -gz).normalize(),
                frame: WORLD_FRAME,
                biome: ((x / 100.0).floor().rem_euclid(2.0)) as u8,
                in_lake: false,
            }
        }

        fn water_at(x: f64, z: f64) -> Water {
            let d = ((x - 60.0).powi(2) + (z - 60.0).powi(2)).sqrt() - 25.0;
            Water {
                distance: d.max(0.0),
                wetness: (1.0 - d.max(0.0) / 64.0).max(0.0),
                wet: d <= 0.0,
            }
        }
    }

    impl Sites for Hills {
        fn biome(&self, _: u8, x: f64, z: f64) -> Option<u8> {
            Some(Hills::at(x, z).biome)
        }
        fn site(&self, s: &Spot) -> Option<Site> {
            Some(Hills::at(s.x, s.z))
        }
        fn water(&self, s: &Spot, _: &Site, _: bool) -> Water {
            Hills::water_at(s.x, s.z)
        }
    }

    /// Level ground, one biome, no water.
    struct Plain;

    impl Sites for Plain {
        fn biome(&self, _: u8, _: f64, _: f64) -> Option<u8> {
            Some(0)
        }
        fn site(&self, s: &Spot) -> Option<Site> {
            Some(Site {
                height: 0.0,
                position: DVec3::new(s.x, 0.0, s.z),
                normal: DVec3::Y,
                frame: WORLD_FRAME,
                biome: 0,
                in_lake: false,
            })
        }
        fn water(&self, _: &Spot, _: &Site, _: bool) -> Water {
            Water {
                distance: WATER_REACH_M,
                wetness: 0.0,
                wet: false,
            }
        }
    }

    fn rules(json: &str) -> Rules {
        let file: ThingsFile = serde_json::from_str(json).unwrap();
        Rules::compile(&file, &["meadow", "wood"]).unwrap()
    }

    fn mixed() -> Rules {
        rules(
            r#"{"version": 1, "kinds": [
              {"name": "tree", "band": "far", "footprint_m": 1.2, "spacing_m": 4,
               "density": {"wood": 0.012, "meadow": 0.002}, "slope_deg": {"max": 25},
               "water_m": {"min": 3}, "tilt_deg": [0, 5]},
              {"name": "rock", "band": "mid", "footprint_m": 0.7, "spacing_m": 3,
               "align": "slope", "density": {"*": 0.03}, "height_m": {"min": -5}},
              {"name": "tuft", "band": "near", "footprint_m": 0.15, "spacing_m": 0.5,
               "align": "slope", "density": {"meadow": 1.0, "wood": 0.2},
               "wetness": {"max": 0.9}}
            ]}"#,
        )
    }

    fn things_in(
        rules: &Rules,
        band: Band,
        x0: f64,
        z0: f64,
        size: f64,
        sites: &impl Sites,
    ) -> Vec<Thing> {
        place(rules, 7, band, Square { x0, z0, size }, sites)
    }

    /// A square gives the things its four quarters give, bit for bit and in the same order
    /// per kind: what a chunk holds never depends on how the ground was cut or which piece
    /// came first.
    #[test]
    fn a_square_is_the_union_of_its_quarters() {
        let r = mixed();
        for band in Band::ALL {
            let whole = things_in(&r, band, -40.0, 8.0, 64.0, &Hills);
            let mut quarters: Vec<Thing> = [(0.0, 0.0), (32.0, 0.0), (0.0, 32.0), (32.0, 32.0)]
                .iter()
                .flat_map(|(dx, dz)| things_in(&r, band, -40.0 + dx, 8.0 + dz, 32.0, &Hills))
                .collect();
            let key = |t: &Thing| (t.kind, t.id);
            let mut whole_sorted = whole.clone();
            whole_sorted.sort_by_key(key);
            quarters.sort_by_key(key);
            assert!(!whole.is_empty(), "{band:?}");
            assert_eq!(whole_sorted, quarters, "{band:?}");
        }
    }

    /// No two things stand closer than their spacing, across squares and bands; nothing
    /// stands in water, on a slope beyond its kind's limit, or outside its height and wetness
    /// limits; every thing is on the ground and inside its square.
    #[test]
    fn every_thing_keeps_its_spacing_and_limits() {
        let r = mixed();
        let mut all: Vec<Thing> = Vec::new();
        for band in Band::ALL {
            for j in 0..4 {
                for i in 0..4 {
                    let (x0, z0) = (i as f64 * 40.0, j as f64 * 40.0);
                    let t = things_in(&r, band, x0, z0, 40.0, &Hills);
                    for thing in &t {
                        let p = thing.position;
                        assert!((x0..x0 + 40.0).contains(&p.x) && (z0..z0 + 40.0).contains(&p.z));
                        let site = Hills::at(p.x, p.z);
                        assert_eq!(p.y, site.height);
                        let kind = &r.kinds[thing.kind as usize];
                        assert!(site.normal.y >= kind.normal_y[0], "{} too steep", kind.name);
                        assert!(site.height >= kind.height[0]);
                        let w = Hills::water_at(p.x, p.z);
                        assert!(!w.wet, "{} in the lake", kind.name);
                        assert!(w.distance >= kind.water[0] && w.wetness <= kind.wetness[1]);
                    }
                    all.extend(t);
                }
            }
        }
        let mut counts = [0usize; 3];
        for (i, a) in all.iter().enumerate() {
            counts[a.kind as usize] += 1;
            for b in &all[i + 1..] {
                let (ka, kb) = (&r.kinds[a.kind as usize], &r.kinds[b.kind as usize]);
                let least = spacing_between(ka, kb, a.kind == b.kind);
                let d = ((a.position.x - b.position.x).powi(2)
                    + (a.position.z - b.position.z).powi(2))
                .sqrt();
                assert!(
                    d >= least,
                    "{} and {} {d} m apart, at least {least}",
                    ka.name,
                    kb.name
                );
            }
        }
        assert!(counts.iter().all(|&n| n > 20), "{counts:?}");
    }

    /// Over a large level area of one biome, each kind alone stands at the density its table
    /// asks, within 4 % (about four standard deviations of the count).
    #[test]
    fn densities_match_the_table_over_a_large_area() {
        for (density, spacing) in [(0.01f64, 5.0), (0.2, 1.0), (0.8, 0.5)] {
            let r = rules(&format!(
                r#"{{"version": 1, "kinds": [{{"name": "k", "footprint_m": 0.05,
                    "spacing_m": {spacing}, "density": {{"meadow": {density}}}}}]}}"#
            ));
            let side = (12_000.0 / density).sqrt().ceil();
            let n = things_in(&r, Band::Mid, 0.0, 0.0, side, &Plain).len();
            let got = n as f64 / (side * side);
            assert!(
                (got / density - 1.0).abs() < 0.04,
                "{density} at {spacing} m: got {got}"
            );
        }
    }

    /// Rotations are rotations: orthonormal, right-handed, up within the kind's tilt of the
    /// ground's (or the world's) up; scale within its range.
    #[test]
    fn a_candidates_ground_is_read_once_and_only_where_a_decision_needs_it() {
        /// Hills that count the sites read, by spot.
        #[derive(Default)]
        struct Counted(std::cell::RefCell<std::collections::HashMap<(u64, u64), usize>>);
        impl Sites for Counted {
            fn biome(&self, p: u8, x: f64, z: f64) -> Option<u8> {
                Hills.biome(p, x, z)
            }
            fn site(&self, s: &Spot) -> Option<Site> {
                *self
                    .0
                    .borrow_mut()
                    .entry((s.x.to_bits(), s.z.to_bits()))
                    .or_default() += 1;
                Hills.site(s)
            }
            fn water(&self, s: &Spot, site: &Site, wet_only: bool) -> Water {
                Hills.water(s, site, wet_only)
            }
        }
        let r = mixed();
        for band in Band::ALL {
            let counted = Counted::default();
            DRAWN.with(|n| n.set(0));
            let things = things_in(&r, band, -40.0, 8.0, 64.0, &counted);
            let drawn = DRAWN.with(|n| n.get());
            let reads = counted.0.borrow();
            assert!(
                reads.values().all(|&n| n == 1),
                "{band:?}: a site read twice"
            );
            let read: usize = reads.values().sum();
            assert!(things.len() <= read, "{band:?}");
            // Read all, the candidates in the margin and those beaten would be too.
            assert!(
                (read as f64) < 0.75 * drawn as f64,
                "{band:?}: {read} sites read for {drawn} candidates"
            );
        }
    }

    #[test]
    fn knowing_the_biomes_under_a_part_changes_nothing_but_what_is_read() {
        /// Hills that say which of their 100 m stripes of biome a part covers, or, `short`,
        /// leave the last out.
        struct Told {
            short: bool,
        }
        impl Sites for Told {
            fn biomes_within(&self, _: u8, part: Rect, seen: &mut dyn FnMut(u8)) -> bool {
                let stripe = |x: f64| (x / 100.0).floor() as i64;
                let mut biomes: Vec<u8> = (stripe(part.x0)..=stripe(part.x1))
                    .map(|s| s.rem_euclid(2) as u8)
                    .collect();
                biomes.sort();
                biomes.dedup();
                if self.short {
                    biomes.pop();
                }
                biomes.into_iter().for_each(seen);
                true
            }
            fn biome(&self, p: u8, x: f64, z: f64) -> Option<u8> {
                Hills.biome(p, x, z)
            }
            fn site(&self, s: &Spot) -> Option<Site> {
                Hills.site(s)
            }
            fn water(&self, s: &Spot, site: &Site, wet_only: bool) -> Water {
                Hills.water(s, site, wet_only)
            }
        }
        let r = mixed();
        let mut short_differs = false;
        // Within one stripe, and across the edge between two.
        for (x0, z0) in [(110.0, 0.0), (60.0, 40.0), (-40.0, 8.0)] {
            for band in Band::ALL {
                let plain = things_in(&r, band, x0, z0, 64.0, &Hills);
                let told = things_in(&r, band, x0, z0, 64.0, &Told { short: false });
                assert_eq!(plain, told, "{band:?} at {x0}, {z0}");
                short_differs |= things_in(&r, band, x0, z0, 64.0, &Told { short: true }) != plain;
            }
        }
        // The bound is used: a part told too few biomes loses things.
        assert!(short_differs);
    }

    #[test]
    fn one_wide_kind_does_not_make_small_ones_search_its_reach() {
        // A pebble 0.2 m apart beside a tower 300 m wide: a pebble compares itself with its
        // few neighbours and the rare tower, never with every pebble in the tower's reach.
        let r = rules(
            r#"{"version": 1, "kinds": [
              {"name": "pebble", "band": "mid", "footprint_m": 0.1, "density": {"*": 7}},
              {"name": "tower", "band": "mid", "footprint_m": 300,
               "density": {"*": 0.0000007}}]}"#,
        );
        let square = Square {
            x0: 0.0,
            z0: 0.0,
            size: 32.0,
        };
        COMPARED.with(|n| n.set(0));
        let things = place(&r, 5, Band::Mid, square, &Plain);
        let compared = COMPARED.with(|n| n.get());
        assert!(things.len() > 5000, "{} pebbles", things.len());
        assert!(
            compared < 40 * things.len(),
            "{compared} comparisons for {} things",
            things.len()
        );
    }

    #[test]
    fn transforms_are_rigid_and_within_their_ranges() {
        let r = mixed();
        for band in Band::ALL {
            for t in things_in(&r, band, 0.0, 0.0, 80.0, &Hills) {
                let [x, y, z] = t.axes;
                for (a, b) in [(x, y), (y, z), (z, x)] {
                    assert!(a.dot(b).abs() < 1e-12);
                }
                assert!(x.cross(y).distance(z) < 1e-12);
                let kind = &r.kinds[t.kind as usize];
                let up = match kind.align {
                    Align::Upright => DVec3::Y,
                    Align::Slope => Hills::at(t.position.x, t.position.z).normal,
                };
                let lean = y.cross(up).length().atan2(y.dot(up));
                assert!(lean <= kind.tilt[1] + 1e-9 && lean >= kind.tilt[0] - 1e-9);
                assert!((kind.scale[0]..=kind.scale[1]).contains(&t.scale));
            }
        }
    }

    #[test]
    fn a_table_without_kinds_in_a_band_places_nothing_there() {
        let r = rules(
            r#"{"version": 1, "kinds": [{"name": "k", "band": "far", "footprint_m": 1,
                "density": {"*": 0.05}}]}"#,
        );
        assert!(things_in(&r, Band::Near, 0.0, 0.0, 64.0, &Plain).is_empty());
        assert!(!things_in(&r, Band::Far, 0.0, 0.0, 64.0, &Plain).is_empty());
        assert!(things_in(&Rules::none(), Band::Far, 0.0, 0.0, 64.0, &Plain).is_empty());
    }
}
