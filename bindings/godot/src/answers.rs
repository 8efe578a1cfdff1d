//! Query answers as the fields of the Dictionaries GDScript receives, in a fixed order, with
//! the `text` a debug overlay prints. Plain Rust (no engine types): the node turns each
//! [`Field`] list into a `Dictionary` one entry per field.

use relief::flat::tables::{Biome, ReachKind};
use relief::flat::terrain::{Ground, LakeAt, RiverAt};
use relief::planet::terrain::{PlanetLakeAt, PlanetRiverAt};

/// One Dictionary value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

pub type Fields = Vec<(&'static str, Value)>;

/// `{reach, kind ("river"/"creek"), width, distance, bed_height, in_water, nearest_x,
/// nearest_z, text}`.
pub fn river(r: &RiverAt) -> Fields {
    let mut f = river_fields(r);
    f.insert(6, ("nearest_x", Value::Float(r.nearest[0])));
    f.insert(7, ("nearest_z", Value::Float(r.nearest[1])));
    f
}

/// A planet's river answer: the flat one's fields, the nearest point as `nearest_x`,
/// `nearest_y`, `nearest_z` (planet frame, on the sea-level sphere), and the same `text`.
pub fn planet_river(r: &PlanetRiverAt) -> Fields {
    let flat = RiverAt {
        reach: r.reach,
        kind: r.kind,
        width_m: r.width_m,
        distance_m: r.distance_m,
        bed_m: r.bed_m,
        has_water: r.has_water,
        nearest: [r.nearest[0], r.nearest[2]],
    };
    let mut f = river_fields(&flat);
    for (k, (name, at)) in [("nearest_x", 0), ("nearest_y", 1), ("nearest_z", 2)]
        .into_iter()
        .enumerate()
    {
        f.insert(6 + k, (name, Value::Float(r.nearest[at])));
    }
    f
}

fn river_fields(r: &RiverAt) -> Fields {
    let kind = match r.kind {
        ReachKind::River => "river",
        ReachKind::Creek => "creek",
    };
    vec![
        ("reach", Value::Int(r.reach as i64)),
        ("kind", Value::Text(kind.into())),
        ("width", Value::Float(r.width_m as f64)),
        ("distance", Value::Float(r.distance_m as f64)),
        ("bed_height", Value::Float(r.bed_m as f64)),
        ("in_water", Value::Bool(r.has_water)),
        ("text", Value::Text(r.to_string())),
    ]
}

/// A planet's lake answer: the flat one's fields and text.
pub fn planet_lake(l: &PlanetLakeAt) -> Fields {
    lake(&LakeAt {
        lake: l.lake,
        level_m: l.level_m,
        distance_m: l.distance_m,
        inside: l.inside,
    })
}

/// A planet's ground: `{biome (name, "" if none), biome_id (-1 if none), text}`.
pub fn planet_ground(biome: Option<(u8, &str)>) -> Fields {
    let (id, name) = biome.map_or((-1, ""), |(id, name)| (id as i64, name));
    let text = if name.is_empty() {
        "no biome".to_string()
    } else {
        name.to_string()
    };
    vec![
        ("biome", Value::Text(name.into())),
        ("biome_id", Value::Int(id)),
        ("text", Value::Text(text)),
    ]
}

/// `{lake, level, distance, inside, text}`.
pub fn lake(l: &LakeAt) -> Fields {
    vec![
        ("lake", Value::Int(l.lake as i64)),
        ("level", Value::Float(l.level_m as f64)),
        ("distance", Value::Float(l.distance_m as f64)),
        ("inside", Value::Bool(l.inside)),
        ("text", Value::Text(l.to_string())),
    ]
}

/// `{biome (name, "" if none), base_texture, overlay_texture, blend (0–1), hole, lake (id,
/// 0 if none), text}`; `biomes` is the world's table, by id.
pub fn ground(g: &Ground, biomes: &[Biome]) -> Fields {
    let c = g.control;
    let biome = g
        .biome
        .and_then(|id| biomes.get(id as usize))
        .map(|b| b.name.clone())
        .unwrap_or_default();
    let mut text = if biome.is_empty() {
        format!("texture {}", c.base)
    } else {
        format!("{biome}, texture {}", c.base)
    };
    if c.blend > 0 {
        text += &format!(
            " blending into {} ({:.0} %)",
            c.overlay,
            c.blend as f64 / 2.55
        );
    }
    if c.hole {
        text += ", a hole";
    }
    vec![
        ("biome", Value::Text(biome)),
        ("base_texture", Value::Int(c.base as i64)),
        ("overlay_texture", Value::Int(c.overlay as i64)),
        ("blend", Value::Float(c.blend as f64 / 255.0)),
        ("hole", Value::Bool(c.hole)),
        ("lake", Value::Int(g.lake.unwrap_or(0) as i64)),
        ("text", Value::Text(text)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::flat::Control;
    use relief::RegionLocation;

    fn get<'a>(f: &'a Fields, key: &str) -> &'a Value {
        &f.iter().find(|(k, _)| *k == key).unwrap().1
    }

    #[test]
    fn a_river_answer_carries_every_field_and_its_text() {
        let r = RiverAt {
            reach: 382,
            kind: ReachKind::River,
            width_m: 12.0,
            distance_m: 13.5,
            bed_m: 4.25,
            has_water: false,
            nearest: [10.5, -3.0],
        };
        let f = river(&r);
        assert_eq!(f.len(), 9);
        assert_eq!(get(&f, "reach"), &Value::Int(382));
        assert_eq!(get(&f, "kind"), &Value::Text("river".into()));
        assert_eq!(get(&f, "bed_height"), &Value::Float(4.25));
        assert_eq!(get(&f, "in_water"), &Value::Bool(false));
        assert_eq!(get(&f, "nearest_z"), &Value::Float(-3.0));
        assert_eq!(
            get(&f, "text"),
            &Value::Text("river reach 382, 12.0 m wide, 13.5 m away".into())
        );
    }

    #[test]
    fn a_planet_river_answer_has_the_flat_fields_its_3d_nearest_point_and_the_same_text() {
        let r = PlanetRiverAt {
            reach: 28,
            kind: ReachKind::Creek,
            width_m: 4.2,
            distance_m: 0.0,
            bed_m: -1.5,
            has_water: true,
            nearest: relief::DVec3::new(1.0, 2.0, 3.0),
        };
        let f = planet_river(&r);
        let keys: Vec<&str> = f.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            keys,
            [
                "reach",
                "kind",
                "width",
                "distance",
                "bed_height",
                "in_water",
                "nearest_x",
                "nearest_y",
                "nearest_z",
                "text"
            ]
        );
        assert_eq!(get(&f, "nearest_y"), &Value::Float(2.0));
        assert_eq!(
            get(&f, "text"),
            &Value::Text("creek reach 28, 4.2 m wide, 0.0 m away, in the water".into())
        );
        let l = planet_lake(&PlanetLakeAt {
            lake: 3,
            level_m: 12.5,
            distance_m: 40.0,
            inside: false,
        });
        assert_eq!(
            get(&l, "text"),
            &Value::Text("lake 3 at level 12.50 m, 40.0 m away".into())
        );
        let g = planet_ground(Some((4, "taiga")));
        assert_eq!(get(&g, "biome_id"), &Value::Int(4));
        assert_eq!(get(&planet_ground(None), "biome_id"), &Value::Int(-1));
    }

    #[test]
    fn a_lake_answer_says_inside_or_how_far() {
        let l = LakeAt {
            lake: 7,
            level_m: 2.0,
            distance_m: 0.0,
            inside: true,
        };
        let f = lake(&l);
        assert_eq!(get(&f, "inside"), &Value::Bool(true));
        assert_eq!(
            get(&f, "text"),
            &Value::Text("in lake 7 (level 2.00 m)".into())
        );
    }

    #[test]
    fn a_ground_answer_names_its_biome_and_textures() {
        let names: Vec<Biome> = ["ocean", "beach"]
            .iter()
            .enumerate()
            .map(|(id, name)| Biome {
                id: id as u8,
                name: name.to_string(),
                color: [0, 0, 0],
            })
            .collect();
        let control = Control {
            base: 3,
            overlay: 5,
            blend: 255,
            hole: true,
            ..Control::default()
        };
        let g = Ground {
            control,
            biome: Some(1),
            lake: None,
            region: RegionLocation { x: 0, z: 0 },
        };
        let f = ground(&g, &names);
        assert_eq!(get(&f, "biome"), &Value::Text("beach".into()));
        assert_eq!(get(&f, "blend"), &Value::Float(1.0));
        assert_eq!(get(&f, "lake"), &Value::Int(0));
        assert_eq!(
            get(&f, "text"),
            &Value::Text("beach, texture 3 blending into 5 (100 %), a hole".into())
        );
        // An id past the table has no name, and says only its texture.
        let g = Ground {
            biome: Some(9),
            control: Control::default(),
            ..g
        };
        let f = ground(&g, &names);
        assert_eq!(get(&f, "biome"), &Value::Text(String::new()));
        assert_eq!(get(&f, "text"), &Value::Text("texture 0".into()));
    }
}
