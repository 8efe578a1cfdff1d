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
pub struct Lake {
    /// 1-based; 0 in the lake layer means "no lake".
    pub id: u32,
    /// Water surface height, metres.
    pub level_m: f32,
    pub area_m2: f64,
    /// Deepest point below the level, metres.
    pub depth_m: f32,
    /// Shoreline polygon [x, z], counter-clockwise seen from above (+Y), not closed.
    pub outline: Vec<[f32; 2]>,
    /// Where the lake spills, [x, z].
    pub outlet: [f32; 2],
    /// What the outlet flows into.
    pub drains_to: ReachEnd,
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

pub const TABLES_VERSION: u32 = 1;

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
            .outline
            .iter()
            .flatten()
            .chain(&l.outlet)
            .all(|v| v.is_finite())
            && l.level_m.is_finite();
        if !finite || l.outline.len() < 3 {
            return bad(
                "lakes.json",
                format!(
                    "lake {}: needs a finite level and outline of 3+ points",
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
