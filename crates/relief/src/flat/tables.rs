//! The world's tables: rivers (reaches), lakes and biomes, stored as JSON beside the regions.

use serde::{Deserialize, Serialize};

use crate::error::FormatError;
pub use crate::reach::ReachKind;

/// Where a reach begins or ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReachEnd {
    /// A channel head: the first cell draining enough area to be a creek.
    Source,
    /// Just below a confluence of two or more reaches.
    Join,
    /// Flows into the sea.
    Sea,
    /// Flows into (or out of) the reach with this id.
    Reach(u32),
    /// Flows into (or out of) the lake with this id.
    Lake(u32),
}

/// A stretch of channel between two joins, listed from its head down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    pub id: u32,
    pub kind: ReachKind,
    /// Strahler order: 1 at sources, +1 where two reaches of equal order meet.
    pub order: u8,
    /// Channel width at the reach's mouth, metres (∝ drained area^0.4).
    pub width_m: f32,
    /// Channel width at the reach's head, metres.
    pub head_width_m: f32,
    /// Mean annual discharge at the mouth, m³/s.
    pub discharge_m3s: f32,
    /// Area drained at the mouth, km².
    pub drains_km2: f32,
    /// Area drained at the head, km².
    pub head_drains_km2: f32,
    pub length_m: f32,
    /// Bed height at the head minus bed height at the mouth, metres.
    pub drop_m: f32,
    pub from: ReachEnd,
    pub to: ReachEnd,
    /// Centreline from head to mouth: [x, z, bed height], world metres.
    pub points: Vec<[f32; 3]>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "LakeRecord")]
pub struct Lake {
    /// 1-based; 0 in the lake layer means "no lake".
    pub id: u32,
    /// Water surface height, metres.
    pub level_m: f32,
    pub area_m2: f64,
    /// Deepest point below the level, metres (0 for a lake read off a flat water surface,
    /// whose bed the ground doesn't show).
    pub depth_m: f32,
    /// The shore: every part of the lake, largest first (parts may touch at a corner).
    pub parts: Vec<LakePart>,
    /// Where the lake spills, [x, z].
    pub outlet: [f32; 2],
    /// What the outlet flows into.
    pub drains_to: ReachEnd,
}

/// One part of a lake's water: a polygon with holes (islands).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LakePart {
    /// Shoreline [x, z], counter-clockwise seen from above (+Y), not closed.
    pub outline: Vec<[f32; 2]>,
    /// Islands' shorelines, clockwise, not closed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub islands: Vec<Vec<[f32; 2]>>,
}

impl Lake {
    /// Every ring of the shore: each part's outline, then its islands. A point is in the
    /// lake when it is inside an odd number of them.
    pub fn rings(&self) -> impl Iterator<Item = &[[f32; 2]]> {
        self.parts
            .iter()
            .flat_map(|p| std::iter::once(&p.outline).chain(&p.islands))
            .map(Vec::as_slice)
    }

    /// Whether (x, z) is on the lake's water: inside an odd number of its rings.
    pub fn contains(&self, x: f64, z: f64) -> bool {
        self.rings().filter(|r| ring_contains(r, x, z)).count() % 2 == 1
    }
}

/// The signed area of the polygon `ring`, m²: positive counter-clockwise (a lake part's
/// outline), negative clockwise (an island). A lake's rings sum to its water's area.
pub fn ring_area(ring: &[[f32; 2]]) -> f64 {
    (0..ring.len())
        .map(|a| {
            let (p, q) = (ring[a], ring[(a + 1) % ring.len()]);
            p[0] as f64 * q[1] as f64 - q[0] as f64 * p[1] as f64
        })
        .sum::<f64>()
        / 2.0
}

/// Whether (x, z) is inside the polygon `ring` (even-odd rule; either winding).
pub fn ring_contains(ring: &[[f32; 2]], x: f64, z: f64) -> bool {
    let mut inside = false;
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + n - 1) % n]);
        let (ax, az, bx, bz) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
        if (az > z) != (bz > z) && x < (bx - ax) * (z - az) / (bz - az) + ax {
            inside = !inside;
        }
    }
    inside
}

/// A lake as `lakes.json` holds it: version 2 has `parts`; version 1 had one `outline` (its
/// longest ring), read as a lake of one part.
#[derive(Deserialize)]
struct LakeRecord {
    id: u32,
    level_m: f32,
    area_m2: f64,
    depth_m: f32,
    #[serde(default)]
    parts: Vec<LakePart>,
    #[serde(default)]
    outline: Vec<[f32; 2]>,
    outlet: [f32; 2],
    drains_to: ReachEnd,
}

impl From<LakeRecord> for Lake {
    fn from(r: LakeRecord) -> Lake {
        let parts = match (r.parts.is_empty(), r.outline.is_empty()) {
            (true, false) => vec![LakePart {
                outline: r.outline,
                islands: Vec::new(),
            }],
            _ => r.parts,
        };
        Lake {
            id: r.id,
            level_m: r.level_m,
            area_m2: r.area_m2,
            depth_m: r.depth_m,
            parts,
            outlet: r.outlet,
            drains_to: r.drains_to,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Biome {
    pub id: u8,
    pub name: String,
    /// Display color (sRGB), as `relief preview` draws it.
    pub color: [u8; 3],
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RiversFile {
    pub version: u32,
    pub reaches: Vec<Reach>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LakesFile {
    pub version: u32,
    pub lakes: Vec<Lake>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BiomesFile {
    pub version: u32,
    pub biomes: Vec<Biome>,
}

/// The tables' version: 2 stores a lake's every part and island (`parts`); readers take 1's
/// single `outline` too.
pub const TABLES_VERSION: u32 = 2;

/// Checks what queries and tools rely on, so a hostile table is an error at open rather than
/// a panic or a hang later: reach ids are their indices and a reach flows only into a lower
/// id (so following `to` links ends, and one pass from the highest id orders them); every
/// reference names a reach or lake that exists; lake ids are 1.. in order; biome ids are
/// their indices; every coordinate is finite and every reach has a segment.
pub fn validate(reaches: &[Reach], lakes: &[Lake], biomes: &[Biome]) -> Result<(), FormatError> {
    let bad = |table: &'static str, problem: String| Err(FormatError::Table { table, problem });
    let lake_ok = |l: u32| l >= 1 && l as usize <= lakes.len();
    for (i, r) in reaches.iter().enumerate() {
        if r.id as usize != i {
            return bad("rivers.json", format!("reach {i} has id {}", r.id));
        }
        for (end, name) in [(r.from, "from"), (r.to, "to")] {
            let ok = match end {
                ReachEnd::Reach(d) => (d as usize) < reaches.len() && (name == "from" || d < r.id),
                ReachEnd::Lake(l) => lake_ok(l),
                ReachEnd::Source | ReachEnd::Join | ReachEnd::Sea => true,
            };
            if !ok {
                return bad(
                    "rivers.json",
                    format!("reach {i}: `{name}` {end:?} names no reach or lake it can flow to"),
                );
            }
        }
        if r.points.len() < 2 || r.points.iter().flatten().any(|v| !v.is_finite()) {
            return bad(
                "rivers.json",
                format!("reach {i}: needs two or more finite points"),
            );
        }
    }
    for (i, l) in lakes.iter().enumerate() {
        if l.id as usize != i + 1 {
            return bad(
                "lakes.json",
                format!("lake {i} has id {} (lakes are numbered from 1)", l.id),
            );
        }
        let finite = l
            .rings()
            .flatten()
            .flatten()
            .chain(&l.outlet)
            .all(|v| v.is_finite())
            && l.level_m.is_finite();
        if !finite || l.parts.is_empty() || l.rings().any(|r| r.len() < 3) {
            return bad(
                "lakes.json",
                format!(
                    "lake {}: needs a finite level and one or more parts, each ring of 3+ points",
                    l.id
                ),
            );
        }
        let ok = match l.drains_to {
            ReachEnd::Reach(d) => (d as usize) < reaches.len(),
            ReachEnd::Lake(o) => lake_ok(o) && o != l.id,
            _ => true,
        };
        if !ok {
            return bad(
                "lakes.json",
                format!(
                    "lake {}: drains to {:?}, which does not exist",
                    l.id, l.drains_to
                ),
            );
        }
    }
    for (i, b) in biomes.iter().enumerate() {
        if b.id as usize != i {
            return bad("biomes.json", format!("biome {i} has id {}", b.id));
        }
    }
    Ok(())
}
