//! The placement table a bake writes (`things.json`): trees where the classifier put forest,
//! shrubs and grass where it put open ground, boulders on rock, scree and moraine, reeds at the
//! water's edge. Densities are of the order field ecology reports (a closed conifer stand
//! holds 300–1,000 stems per hectare; 0.03 per m² is 300), spacing keeps crowns apart, and
//! nothing stands in water or on ground steeper than it could hold on.

use std::collections::BTreeMap;

use relief::things::rules::{Align, Band, KindSpec, Limit, ShapeSpec, ThingsFile, THINGS_VERSION};

fn densities(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(n, d)| (n.to_string(), *d)).collect()
}

fn at_most(v: f64) -> Limit {
    Limit {
        min: None,
        max: Some(v),
    }
}

fn at_least(v: f64) -> Limit {
    Limit {
        min: Some(v),
        max: None,
    }
}

/// A kind with the defaults every one of them starts from.
fn kind(name: &str, band: Band, footprint_m: f64, spacing_m: f64) -> KindSpec {
    KindSpec {
        name: name.into(),
        band,
        footprint_m,
        spacing_m: Some(spacing_m),
        collision: None,
        scale: [1.0, 1.0],
        tilt_deg: [0.0, 0.0],
        align: Align::Upright,
        density: BTreeMap::new(),
        slope_deg: Limit::default(),
        height_m: Limit::default(),
        wetness: Limit::default(),
        water_m: Limit::default(),
    }
}

/// The table every baked world carries; its names are the bake's ground classes
/// ([`crate::bake::biomes`]).
pub fn default_table() -> ThingsFile {
    let conifer = KindSpec {
        collision: Some(ShapeSpec::Capsule {
            radius_m: 0.35,
            height_m: 9.0,
        }),
        scale: [0.75, 1.3],
        tilt_deg: [0.0, 3.0],
        density: densities(&[
            ("taiga", 0.03),
            ("conifer forest", 0.035),
            ("temperate rainforest", 0.015),
            ("alpine meadow", 0.002),
            ("tundra", 0.001),
        ]),
        slope_deg: at_most(35.0),
        water_m: at_least(2.0),
        ..kind("conifer", Band::Far, 1.0, 2.5)
    };
    let broadleaf = KindSpec {
        collision: Some(ShapeSpec::Capsule {
            radius_m: 0.4,
            height_m: 10.0,
        }),
        scale: [0.7, 1.25],
        tilt_deg: [0.0, 4.0],
        density: densities(&[
            ("temperate forest", 0.025),
            ("temperate rainforest", 0.015),
            ("tropical seasonal forest", 0.02),
            ("tropical rainforest", 0.03),
            ("swamp", 0.01),
            ("mangrove", 0.02),
            ("floodplain", 0.005),
            ("savanna", 0.003),
            ("shrubland", 0.002),
            ("grassland", 0.001),
        ]),
        slope_deg: at_most(30.0),
        water_m: at_least(1.0),
        ..kind("broadleaf", Band::Far, 1.4, 3.0)
    };
    let shrub = KindSpec {
        collision: Some(ShapeSpec::Sphere {
            radius_m: 0.6,
            centre_m: 0.4,
        }),
        scale: [0.6, 1.3],
        tilt_deg: [0.0, 8.0],
        density: densities(&[
            ("shrubland", 0.06),
            ("savanna", 0.03),
            ("steppe", 0.02),
            ("grassland", 0.01),
            ("temperate forest", 0.02),
            ("tundra", 0.02),
            ("swamp", 0.03),
            ("alpine meadow", 0.01),
            ("desert", 0.002),
        ]),
        slope_deg: at_most(40.0),
        water_m: at_least(0.5),
        ..kind("shrub", Band::Mid, 0.6, 2.0)
    };
    let boulder = KindSpec {
        collision: Some(ShapeSpec::Sphere {
            radius_m: 0.8,
            centre_m: 0.2,
        }),
        scale: [0.5, 2.0],
        tilt_deg: [0.0, 30.0],
        align: Align::Slope,
        density: densities(&[
            ("bare rock", 0.01),
            ("scree", 0.03),
            ("moraine", 0.04),
            ("canyon", 0.01),
            ("alpine meadow", 0.005),
            ("tundra", 0.005),
            ("desert", 0.002),
        ]),
        slope_deg: at_most(45.0),
        ..kind("boulder", Band::Mid, 0.8, 2.5)
    };
    let grass = KindSpec {
        scale: [0.7, 1.4],
        tilt_deg: [0.0, 10.0],
        align: Align::Slope,
        density: densities(&[
            ("grassland", 1.5),
            ("floodplain", 1.0),
            ("alpine meadow", 1.0),
            ("steppe", 0.8),
            ("savanna", 0.8),
            ("shrubland", 0.4),
            ("tundra", 0.4),
            ("temperate forest", 0.2),
        ]),
        slope_deg: at_most(40.0),
        ..kind("grass", Band::Near, 0.15, 0.4)
    };
    let reeds = KindSpec {
        scale: [0.8, 1.3],
        tilt_deg: [0.0, 6.0],
        density: densities(&[
            ("wetland", 0.8),
            ("swamp", 0.5),
            ("salt marsh", 0.5),
            ("lake shore", 0.6),
            ("floodplain", 0.1),
        ]),
        slope_deg: at_most(15.0),
        wetness: at_least(0.2),
        ..kind("reeds", Band::Near, 0.2, 0.5)
    };
    ThingsFile {
        version: THINGS_VERSION,
        kinds: vec![conifer, broadleaf, shrub, boulder, grass, reeds],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::things::Rules;

    /// Every name is a class the bake writes, every density one the spacing allows.
    #[test]
    fn the_default_table_compiles_against_the_bakes_classes() {
        let biomes = crate::bake::biomes::table();
        let names: Vec<&str> = biomes.iter().map(|b| b.name.as_str()).collect();
        let rules = Rules::compile(&default_table(), &names).unwrap();
        assert_eq!(rules.kinds.len(), 6);
        for band in Band::ALL {
            assert!(rules.has_band(band), "{band:?}");
        }
    }
}
