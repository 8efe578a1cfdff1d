//! The classifier's laws against random sites and textbook cases.
use super::*;
use crate::bake::seed::Rng;

fn random_site(rng: &mut Rng) -> Site {
    // Skewed towards the thresholds' ranges so every class comes up.
    let height = match rng.range(0.0, 1.0) {
        x if x < 0.3 => rng.range(-300.0, -1.5),
        x if x < 0.5 => rng.range(-3.0, 3.0),
        _ => rng.range(0.0, 3000.0),
    };
    let tan_repose = rng.range(0.6, 0.9);
    Site {
        height,
        sea_level: 0.0,
        temperature: rng.range(-15.0, 30.0),
        precipitation: rng.range(0.0, 3500.0),
        slope: rng.range(0.0, 1.0) * rng.range(0.0, 1.2),
        tan_repose,
        lake_depth: if rng.range(0.0, 1.0) < 0.1 {
            rng.range(0.1, 20.0)
        } else {
            0.0
        },
        wetness: rng.range(0.0, 1.0),
        sediment: rng.range(0.0, 10.0),
        above_drainage: rng.range(0.0, 1.0) * rng.range(0.0, 300.0),
        channel_area_km2: rng.range(0.0, 1.0) * rng.range(0.0, 200.0),
        exposure: if rng.range(0.0, 1.0) < 0.2 {
            0.0
        } else {
            rng.range(0.0, 1.0)
        },
    }
}

#[test]
fn every_class_comes_from_its_cause_and_every_class_is_reachable() {
    let mut rng = Rng::new(17, 1);
    let mut seen = [0u32; BiomeId::COUNT];
    for _ in 0..400_000 {
        let s = random_site(&mut rng);
        let b = classify(&s);
        assert!(cause_holds(b, &s), "{b:?} without its cause at {s:?}");
        seen[b as usize] += 1;
    }
    for b in BiomeId::all() {
        assert!(seen[b as usize] > 0, "{b:?} never classified");
    }
}

fn base() -> Site {
    Site {
        height: 100.0,
        sea_level: 0.0,
        temperature: 10.0,
        precipitation: 1500.0,
        slope: 0.1,
        tan_repose: 0.8,
        lake_depth: 0.0,
        wetness: 0.0,
        sediment: 0.5,
        above_drainage: 50.0,
        channel_area_km2: 0.0,
        exposure: 0.0,
    }
}

#[test]
fn the_laws_decide_their_textbook_cases() {
    let b = base();
    let c = |s: Site| classify(&s);
    assert_eq!(c(b), BiomeId::TemperateForest);
    assert_eq!(c(Site { slope: 0.9, ..b }), BiomeId::BareRock);
    assert_eq!(c(Site { slope: 0.7, ..b }), BiomeId::Scree);
    assert_eq!(
        c(Site {
            temperature: -8.0,
            ..b
        }),
        BiomeId::Ice
    );
    let dry_cold = Site {
        temperature: -8.0,
        precipitation: 100.0,
        ..b
    };
    assert_eq!(c(dry_cold), BiomeId::Snow);
    assert_eq!(
        c(Site {
            temperature: -1.0,
            ..b
        }),
        BiomeId::Moraine
    );
    // A warm ridge's two flanks: the wet one forest, the dry one desert.
    assert_eq!(
        c(Site {
            temperature: 24.0,
            precipitation: 2800.0,
            ..b
        }),
        BiomeId::TropicalRainforest
    );
    assert_eq!(
        c(Site {
            temperature: 24.0,
            precipitation: 150.0,
            ..b
        }),
        BiomeId::Desert
    );
    let sand = Site {
        temperature: 24.0,
        precipitation: 150.0,
        sediment: 5.0,
        slope: 0.02,
        ..b
    };
    assert_eq!(c(sand), BiomeId::Dunes);
    // Sea: depth, light, warmth and exposure.
    let sea = Site {
        height: -10.0,
        temperature: 26.0,
        exposure: 0.8,
        sediment: 0.5,
        ..b
    };
    assert_eq!(c(sea), BiomeId::Reef);
    assert_eq!(
        c(Site {
            height: -60.0,
            ..sea
        }),
        BiomeId::Shelf
    );
    assert_eq!(
        c(Site {
            height: -500.0,
            ..sea
        }),
        BiomeId::SeaFloor
    );
    assert_eq!(c(Site { slope: 0.4, ..sea }), BiomeId::RockyReef);
    assert_eq!(
        c(Site {
            temperature: 12.0,
            exposure: 0.1,
            sediment: 2.0,
            ..sea
        }),
        BiomeId::Seagrass
    );
    // Shores.
    let shore = Site {
        height: 1.0,
        slope: 0.01,
        exposure: 0.6,
        ..b
    };
    assert_eq!(c(shore), BiomeId::Beach);
    assert_eq!(
        c(Site {
            exposure: 0.1,
            ..shore
        }),
        BiomeId::SaltMarsh
    );
    assert_eq!(
        c(Site {
            exposure: 0.1,
            temperature: 25.0,
            ..shore
        }),
        BiomeId::Mangrove
    );
    assert_eq!(
        c(Site {
            exposure: 0.1,
            height: -1.0,
            ..shore
        }),
        BiomeId::TidalFlat
    );
    let mouth = Site {
        exposure: 0.1,
        channel_area_km2: 80.0,
        above_drainage: 0.5,
        ..shore
    };
    assert_eq!(c(mouth), BiomeId::Estuary);
    // Fresh water.
    let lake = Site {
        lake_depth: 10.0,
        ..b
    };
    assert_eq!(c(lake), BiomeId::LakeBed);
    assert_eq!(
        c(Site {
            lake_depth: 1.0,
            ..b
        }),
        BiomeId::LakeShore
    );
    assert_eq!(
        c(Site {
            precipitation: 200.0,
            temperature: 20.0,
            ..lake
        }),
        BiomeId::SaltFlat
    );
    let low = Site {
        above_drainage: 1.0,
        slope: 0.005,
        ..b
    };
    assert_eq!(
        c(Site {
            channel_area_km2: 100.0,
            ..low
        }),
        BiomeId::Floodplain
    );
    assert_eq!(
        c(Site {
            wetness: 0.9,
            ..low
        }),
        BiomeId::Wetland
    );
    assert_eq!(
        c(Site {
            wetness: 0.9,
            temperature: 25.0,
            precipitation: 2000.0,
            ..low
        }),
        BiomeId::Swamp
    );
    // Mountains and dry valleys.
    let high = Site {
        height: 1500.0,
        temperature: 0.0,
        precipitation: 800.0,
        ..b
    };
    assert_eq!(c(high), BiomeId::AlpineMeadow);
    let gorge = Site {
        slope: 0.5,
        precipitation: 300.0,
        channel_area_km2: 40.0,
        above_drainage: 80.0,
        ..b
    };
    assert_eq!(c(gorge), BiomeId::Canyon);
    assert_eq!(
        c(Site {
            temperature: 5.0,
            precipitation: 1400.0,
            ..b
        }),
        BiomeId::ConiferForest
    );
    assert_eq!(
        c(Site {
            temperature: 6.0,
            precipitation: 400.0,
            slope: 0.02,
            ..b
        }),
        BiomeId::Steppe
    );
}
