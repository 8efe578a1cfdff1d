//! A world's placement table, `things.json`: the kinds of thing that stand on its ground and
//! where each may stand. Read with the world's other tables, checked in full at open (a table
//! that cannot work is a [`FormatError::Table`] naming the field), and compiled here into the
//! numbers placement draws against. docs/formats.md describes the file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::FormatError;
use crate::hash::fnv1a;

/// The file's name beside `biomes.json`.
pub const THINGS_FILE: &str = "things.json";
/// The table version this build reads.
pub const THINGS_VERSION: u32 = 1;
/// The most kinds a table may list.
pub const MAX_KINDS: usize = 256;
/// The closest two things of one kind may stand, and the smallest footprint radius, metres.
pub const MIN_SPACING_M: f64 = 0.1;
/// The widest spacing, footprint or collision size, metres.
pub const MAX_SIZE_M: f64 = 1000.0;
/// The most things a kind may place per square metre.
pub const MAX_DENSITY: f64 = 25.0;
/// The share of the densest possible packing a density may ask for: things at spacing `s`
/// keep at most `FILL / (π s²)` per square metre (a hard-core pattern's limit, see
/// [`Kind::candidates_per_m2`]).
pub const FILL: f64 = 0.9;

/// How far from the focus a kind's things stream: grass near, bushes and rocks in the middle,
/// trees far. Each band streams in chunks of its own size and radii
/// ([`ThingsConfig`](crate::runtime::ThingsConfig)).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    Near,
    #[default]
    Mid,
    Far,
}

impl Band {
    pub const ALL: [Band; 3] = [Band::Near, Band::Mid, Band::Far];

    pub fn name(self) -> &'static str {
        match self {
            Band::Near => "near",
            Band::Mid => "mid",
            Band::Far => "far",
        }
    }
}

/// Which way a thing's up points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Straight up, whatever the slope (trees).
    #[default]
    Upright,
    /// Along the ground's normal (rocks, grass).
    Slope,
}

/// A collision shape, in the thing's own frame before its scale: standing on the ground at
/// its origin, up along its Y.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "lowercase", deny_unknown_fields)]
pub enum ShapeSpec {
    /// Total height (caps included), standing on the ground: centre `height_m / 2` up.
    Capsule { radius_m: f64, height_m: f64 },
    /// Centred `centre_m` up (0 by default: half sunk, as a boulder is).
    Sphere {
        radius_m: f64,
        #[serde(default)]
        centre_m: f64,
    },
    /// Half extents, standing on the ground: centre `half_extents_m[1]` up.
    Box { half_extents_m: [f64; 3] },
}

/// Inclusive bounds; either side may be left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

impl Limit {
    pub fn is_open(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
    fn lo(&self) -> f64 {
        self.min.unwrap_or(f64::NEG_INFINITY)
    }
    fn hi(&self) -> f64 {
        self.max.unwrap_or(f64::INFINITY)
    }
}

/// One kind of thing, as the file states it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindSpec {
    /// Unique in the table; a thing's id is drawn from it, so ids stay put when kinds are
    /// added, removed or reordered.
    pub name: String,
    #[serde(default)]
    pub band: Band,
    /// The ground a thing takes: no two things stand closer than the sum of their footprints.
    pub footprint_m: f64,
    /// The closest two things of this kind stand (at least twice the footprint, its default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spacing_m: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision: Option<ShapeSpec>,
    /// Uniform scale, drawn evenly in [min, max].
    #[serde(default = "one_to_one")]
    pub scale: [f64; 2],
    /// Lean from its up, degrees, drawn evenly in [min, max], toward a random side.
    #[serde(default)]
    pub tilt_deg: [f64; 2],
    #[serde(default)]
    pub align: Align,
    /// Things per square metre by biome name (`biomes.json`); `"*"` for every biome not
    /// named. A biome not listed gets none.
    pub density: BTreeMap<String, f64>,
    /// Ground slope, degrees from level.
    #[serde(default, skip_serializing_if = "Limit::is_open")]
    pub slope_deg: Limit,
    /// Ground height, metres.
    #[serde(default, skip_serializing_if = "Limit::is_open")]
    pub height_m: Limit,
    /// 0 (dry) to 1 (at the water's edge): see docs/formats.md.
    #[serde(default, skip_serializing_if = "Limit::is_open")]
    pub wetness: Limit,
    /// Distance to the nearest river or lake water, metres (read up to
    /// [`WATER_REACH_M`](super::place::WATER_REACH_M)).
    #[serde(default, skip_serializing_if = "Limit::is_open")]
    pub water_m: Limit,
}

fn one_to_one() -> [f64; 2] {
    [1.0, 1.0]
}

/// The file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThingsFile {
    pub version: u32,
    pub kinds: Vec<KindSpec>,
}

/// A collision shape with its size, before a thing's scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Capsule { radius: f32, height: f32 },
    Sphere { radius: f32 },
    Box { half_extents: [f32; 3] },
}

impl Shape {
    /// The code the C ABI and bindings use: 1 capsule, 2 sphere, 3 box.
    pub fn code(&self) -> u32 {
        match self {
            Shape::Capsule { .. } => 1,
            Shape::Sphere { .. } => 2,
            Shape::Box { .. } => 3,
        }
    }

    /// The shape of [`Shape::code`] `code` with [`Shape::dims`] `dims` (a box for any
    /// other code).
    pub fn from_code(code: u32, d: [f32; 3]) -> Shape {
        match code {
            1 => Shape::Capsule {
                radius: d[0],
                height: d[1],
            },
            2 => Shape::Sphere { radius: d[0] },
            _ => Shape::Box { half_extents: d },
        }
    }

    /// Capsule (radius, total height, 0), sphere (radius, 0, 0), box (half extents).
    pub fn dims(&self) -> [f32; 3] {
        match *self {
            Shape::Capsule { radius, height } => [radius, height, 0.0],
            Shape::Sphere { radius } => [radius, 0.0, 0.0],
            Shape::Box { half_extents } => half_extents,
        }
    }
}

/// A kind, compiled: what placement compares against.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    pub name: String,
    pub band: Band,
    pub footprint: f64,
    /// The closest two of this kind stand: `max(spacing_m, 2 · footprint_m)`.
    pub spacing: f64,
    pub shape: Option<Shape>,
    /// How far up the thing's Y the shape's centre sits, before scale.
    pub shape_centre: f32,
    pub scale: [f64; 2],
    pub tilt: [f64; 2],
    pub align: Align,
    /// Drawn from the name: what a thing's id and draws start from.
    pub salt: u64,
    /// Candidates per square metre by biome id (see [`Kind::candidates_per_m2`]).
    pub candidates: Vec<f64>,
    /// The largest of `candidates`.
    pub candidates_max: f64,
    /// Things per square metre by biome id, as the table asks.
    pub density: Vec<f64>,
    /// Cosines of the slope limits: a site's normal's Y must lie in [lo, hi].
    pub normal_y: [f64; 2],
    pub height: [f64; 2],
    pub wetness: [f64; 2],
    pub water: [f64; 2],
    /// Whether wetness or water distance is limited (each site's water is then looked up).
    pub reads_water: bool,
    /// Bigger kinds take their ground first: higher wins, ties to the higher draw.
    pub rank: u32,
}

impl Kind {
    /// How many candidates per square metre give `density` things once every candidate
    /// within the spacing of a higher-priority one gives way (Matérn's second hard-core
    /// process: candidates at rate λ keep `(1 − e^(−λπr²)) / (πr²)`, inverted here). Exact
    /// where the density is the same all around; `libm`, so the same on every machine.
    pub fn candidates_per_m2(density: f64, spacing: f64) -> f64 {
        let a = std::f64::consts::PI * spacing * spacing;
        -libm::log(1.0 - density * a) / a
    }
}

/// A world's compiled table.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub kinds: Vec<Kind>,
}

impl Rules {
    /// No kinds: a world without `things.json`.
    pub fn none() -> Rules {
        Rules { kinds: Vec::new() }
    }

    /// Parses and checks a table against the world's biome names (by id). Every problem is a
    /// [`FormatError::Table`] naming the field: `kinds[2].density.Taiga: …`.
    pub fn parse(json: &[u8], biomes: &[&str]) -> Result<Rules, FormatError> {
        let de = &mut serde_json::Deserializer::from_slice(json);
        let file: ThingsFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            bad(
                if path == "." { "" } else { &path },
                e.into_inner().to_string(),
            )
        })?;
        Rules::compile(&file, biomes)
    }

    /// Checks and compiles a table already read.
    pub fn compile(file: &ThingsFile, biomes: &[&str]) -> Result<Rules, FormatError> {
        if file.version != THINGS_VERSION {
            return Err(FormatError::UnsupportedVersion {
                what: "things table",
                found: file.version,
                supported: THINGS_VERSION,
            });
        }
        if file.kinds.len() > MAX_KINDS {
            return Err(bad(
                "kinds",
                format!("{} kinds, at most {MAX_KINDS}", file.kinds.len()),
            ));
        }
        let mut kinds = Vec::with_capacity(file.kinds.len());
        for (i, spec) in file.kinds.iter().enumerate() {
            let field = format!("kinds[{i}]");
            if file.kinds[..i].iter().any(|k| k.name == spec.name) {
                return Err(bad(&field, format!("a second kind named `{}`", spec.name)));
            }
            kinds.push(compile_kind(&field, spec, biomes)?);
        }
        // Rank: by footprint, then spacing, then name, smallest first (all distinct: names
        // are unique), so the order never depends on the table's.
        let mut order: Vec<usize> = (0..kinds.len()).collect();
        order.sort_by(|&a, &b| {
            let (ka, kb) = (&kinds[a], &kinds[b]);
            ka.footprint
                .total_cmp(&kb.footprint)
                .then(ka.spacing.total_cmp(&kb.spacing))
                .then(ka.name.cmp(&kb.name))
        });
        for (rank, i) in order.into_iter().enumerate() {
            kinds[i].rank = rank as u32;
        }
        Ok(Rules { kinds })
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Whether any kind streams in `band`.
    pub fn has_band(&self, band: Band) -> bool {
        self.kinds.iter().any(|k| k.band == band)
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }
}

fn bad(field: &str, problem: impl Into<String>) -> FormatError {
    let problem = problem.into();
    FormatError::Table {
        table: THINGS_FILE,
        problem: if field.is_empty() {
            problem
        } else {
            format!("{field}: {problem}")
        },
    }
}

/// `Err` unless `v` is finite and within [lo, hi].
fn within(field: &str, v: f64, lo: f64, hi: f64) -> Result<f64, FormatError> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(bad(
            field,
            format!("must be a number from {lo} to {hi}, is {v}"),
        ))
    }
}

fn pair(field: &str, v: [f64; 2], lo: f64, hi: f64) -> Result<[f64; 2], FormatError> {
    within(&format!("{field}[0]"), v[0], lo, hi)?;
    within(&format!("{field}[1]"), v[1], lo, hi)?;
    if v[0] > v[1] {
        return Err(bad(field, format!("[{}, {}] runs backwards", v[0], v[1])));
    }
    Ok(v)
}

fn limit(field: &str, l: &Limit) -> Result<[f64; 2], FormatError> {
    for (side, v) in [("min", l.min), ("max", l.max)] {
        if let Some(v) = v {
            if !v.is_finite() {
                return Err(bad(&format!("{field}.{side}"), format!("is {v}")));
            }
        }
    }
    if l.lo() > l.hi() {
        return Err(bad(
            field,
            format!("min {} is above max {}", l.lo(), l.hi()),
        ));
    }
    Ok([l.lo(), l.hi()])
}

fn compile_kind(field: &str, spec: &KindSpec, biomes: &[&str]) -> Result<Kind, FormatError> {
    let f = |name: &str| format!("{field}.{name}");
    if spec.name.is_empty() || spec.name.len() > 64 || spec.name.chars().any(char::is_control) {
        return Err(bad(
            &f("name"),
            "must be 1 to 64 bytes with no control characters",
        ));
    }
    let footprint = within(
        &f("footprint_m"),
        spec.footprint_m,
        MIN_SPACING_M / 2.0,
        MAX_SIZE_M,
    )?;
    let spacing = match spec.spacing_m {
        Some(s) => within(&f("spacing_m"), s, MIN_SPACING_M, MAX_SIZE_M)?,
        None => 0.0,
    }
    .max(2.0 * footprint);
    let size = |name: &str, v: f64| within(&f(&format!("collision.{name}")), v, 0.01, MAX_SIZE_M);
    let (shape, shape_centre) = match spec.collision {
        None => (None, 0.0),
        Some(ShapeSpec::Capsule { radius_m, height_m }) => {
            let (r, h) = (size("radius_m", radius_m)?, size("height_m", height_m)?);
            if h < 2.0 * r {
                return Err(bad(
                    &f("collision.height_m"),
                    format!("{h} m is less than the capsule's two caps ({} m)", 2.0 * r),
                ));
            }
            let shape = Shape::Capsule {
                radius: r as f32,
                height: h as f32,
            };
            (Some(shape), (h / 2.0) as f32)
        }
        Some(ShapeSpec::Sphere { radius_m, centre_m }) => {
            let r = size("radius_m", radius_m)?;
            let c = within(&f("collision.centre_m"), centre_m, -MAX_SIZE_M, MAX_SIZE_M)?;
            (Some(Shape::Sphere { radius: r as f32 }), c as f32)
        }
        Some(ShapeSpec::Box { half_extents_m: e }) => {
            for (i, v) in e.iter().enumerate() {
                size(&format!("half_extents_m[{i}]"), *v)?;
            }
            let half_extents = [e[0] as f32, e[1] as f32, e[2] as f32];
            (Some(Shape::Box { half_extents }), e[1] as f32)
        }
    };
    let scale = pair(&f("scale"), spec.scale, 0.01, 100.0)?;
    let tilt_deg = pair(&f("tilt_deg"), spec.tilt_deg, 0.0, 90.0)?;
    let slope = limit(&f("slope_deg"), &spec.slope_deg)?;
    let slope = [slope[0].clamp(0.0, 90.0), slope[1].clamp(0.0, 90.0)];
    let rad = std::f64::consts::PI / 180.0;

    // Densities by biome id: named ones, then "*" for the rest.
    let most = FILL / (std::f64::consts::PI * spacing * spacing);
    let mut density = vec![0.0; biomes.len()];
    let mut named = vec![false; biomes.len()];
    for (name, &d) in &spec.density {
        let field = f(&format!("density.{name}"));
        if !(d.is_finite() && d >= 0.0) {
            return Err(bad(
                &field,
                format!("must be 0 or more things per m², is {d}"),
            ));
        }
        if d > MAX_DENSITY.min(most) {
            return Err(bad(
                &field,
                format!(
                    "{d} things per m² cannot stand {spacing} m apart: at most {:.4} \
                     ({FILL} / (π · spacing²)), and never above {MAX_DENSITY}",
                    MAX_DENSITY.min(most)
                ),
            ));
        }
        if name == "*" {
            continue;
        }
        let Some(id) = biomes.iter().position(|b| b == name) else {
            return Err(bad(
                &field,
                format!(
                    "no biome is called `{name}` (this world's: {})",
                    biomes.join(", ")
                ),
            ));
        };
        density[id] = d;
        named[id] = true;
    }
    if let Some(&d) = spec.density.get("*") {
        for (id, v) in density.iter_mut().enumerate() {
            if !named[id] {
                *v = d;
            }
        }
    }
    let candidates: Vec<f64> = density
        .iter()
        .map(|&d| Kind::candidates_per_m2(d, spacing))
        .collect();
    let water = limit(&f("water_m"), &spec.water_m)?;
    let wetness = limit(&f("wetness"), &spec.wetness)?;
    Ok(Kind {
        name: spec.name.clone(),
        band: spec.band,
        footprint,
        spacing,
        shape,
        shape_centre,
        scale,
        tilt: [tilt_deg[0] * rad, tilt_deg[1] * rad],
        align: spec.align,
        salt: fnv1a(&spec.name),
        candidates_max: candidates.iter().cloned().fold(0.0, f64::max),
        candidates,
        density,
        // A steeper slope is a smaller normal Y.
        normal_y: [libm::cos(slope[1] * rad), libm::cos(slope[0] * rad)],
        height: limit(&f("height_m"), &spec.height_m)?,
        reads_water: !(spec.water_m.is_open() && spec.wetness.is_open()),
        wetness,
        water,
        rank: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIOMES: &[&str] = &["sea", "grassland", "forest"];

    fn table(kind: &str) -> Vec<u8> {
        format!(r#"{{"version": 1, "kinds": [{kind}]}}"#).into_bytes()
    }

    fn problem(kind: &str) -> String {
        match Rules::parse(&table(kind), BIOMES) {
            Err(FormatError::Table { table, problem }) => {
                assert_eq!(table, THINGS_FILE);
                problem
            }
            other => panic!("{kind}: {other:?}"),
        }
    }

    #[test]
    fn a_table_compiles_with_its_defaults() {
        let r = Rules::parse(
            &table(
                r#"{"name": "pine", "band": "far", "footprint_m": 1.0, "spacing_m": 5,
                    "collision": {"shape": "capsule", "radius_m": 0.3, "height_m": 8},
                    "density": {"forest": 0.01, "*": 0.001}, "slope_deg": {"max": 30}},
                   {"name": "tuft", "band": "near", "footprint_m": 0.1, "align": "slope",
                    "density": {"grassland": 4}}"#,
            ),
            BIOMES,
        )
        .unwrap();
        let pine = &r.kinds[0];
        assert_eq!(
            (pine.band, pine.spacing, pine.scale),
            (Band::Far, 5.0, [1.0, 1.0])
        );
        assert_eq!(pine.density, vec![0.001, 0.001, 0.01]);
        assert_eq!(pine.shape_centre, 4.0);
        assert!((pine.normal_y[0] - 30f64.to_radians().cos()).abs() < 1e-12);
        assert_eq!(pine.normal_y[1], 1.0);
        let tuft = &r.kinds[1];
        assert_eq!(tuft.spacing, 0.2, "twice the footprint");
        assert_eq!(tuft.density, vec![0.0, 4.0, 0.0]);
        assert!(!tuft.reads_water && tuft.shape.is_none());
        assert!(
            pine.rank > tuft.rank,
            "the bigger kind takes its ground first"
        );
    }

    /// Matérn II keeps (1 − e^(−λπr²)) / (πr²) of λ candidates: the inverse round-trips.
    #[test]
    fn candidate_rate_inverts_the_hard_core_thinning() {
        for (d, r) in [(0.01, 3.0), (0.2, 1.0), (4.0, 0.2), (1e-6, 50.0)] {
            let a = std::f64::consts::PI * r * r;
            let l = Kind::candidates_per_m2(d, r);
            assert!(
                ((1.0 - (-l * a).exp()) / a - d).abs() < 1e-9 * d.max(1.0),
                "{d} {r}"
            );
        }
    }

    #[test]
    fn bad_tables_name_the_field() {
        let k = |extra: &str| {
            format!(r#"{{"name": "a", "footprint_m": 1, "density": {{"forest": 0.01}}{extra}}}"#)
        };
        for (extra, field) in [
            (r#", "spacing_m": -1"#, "kinds[0].spacing_m"),
            (r#", "scale": [2, 1]"#, "kinds[0].scale"),
            (r#", "tilt_deg": [0, 91]"#, "kinds[0].tilt_deg[1]"),
            (
                r#", "slope_deg": {"min": 40, "max": 10}"#,
                "kinds[0].slope_deg",
            ),
            (
                r#", "collision": {"shape": "capsule", "radius_m": 1, "height_m": 1}"#,
                "kinds[0].collision.height_m",
            ),
            (
                r#", "collision": {"shape": "box", "half_extents_m": [1, 0, 1]}"#,
                "kinds[0].collision.half_extents_m[1]",
            ),
        ] {
            let p = problem(&k(extra));
            assert!(p.starts_with(field), "{extra}: {p}");
        }
        let p = problem(r#"{"name": "a", "footprint_m": 1, "density": {"swamp": 0.01}}"#);
        assert!(p.starts_with("kinds[0].density.swamp: no biome"), "{p}");
        // 10⁹ things in a 64 m chunk is 2.4·10⁵ per m²: refused, with the most it may be.
        let p = problem(r#"{"name": "a", "footprint_m": 0.05, "density": {"forest": 244140}}"#);
        assert!(
            p.starts_with("kinds[0].density.forest: 244140 things"),
            "{p}"
        );
        let p = problem(r#"{"name": "a", "footprint_m": 1, "density": {"forest": -0.1}}"#);
        assert!(p.starts_with("kinds[0].density.forest"), "{p}");
        let two = r#"{"name": "a", "footprint_m": 1, "density": {}},
                     {"name": "a", "footprint_m": 1, "density": {}}"#;
        assert!(problem(two).starts_with("kinds[1]: a second kind"));
        // NaN is not JSON; a string where a number goes is the parser's error.
        assert!(
            problem(r#"{"name": "a", "footprint_m": "x", "density": {}}"#).contains("footprint_m")
        );
        assert!(
            problem(r#"{"name": "a", "footprint_m": 1, "density": {}, "colour": 1}"#)
                .contains("colour")
        );
        assert!(matches!(
            Rules::parse(br#"{"version": 2, "kinds": []}"#, BIOMES),
            Err(FormatError::UnsupportedVersion { found: 2, .. })
        ));
    }
}
