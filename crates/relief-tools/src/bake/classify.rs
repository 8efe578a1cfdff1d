//! What decides a sample's ground class: one law per class over fields the baker computes
//! (temperature from insolation and lapse rate, precipitation from the wind over the relief,
//! slope against the rock's angle of repose, lake depth, sediment, height above drainage, the
//! size of the river drained to, and how exposed a shore is to open water). Flat worlds and
//! planets use the same classifier, so a small island's ground follows its climate and
//! relief as a planet's does. Each constant below is a claim the tests check on the classes
//! that carry it.

use crate::bake::biomes::BiomeId;
use crate::bake::climate::aridity_index;

/// Everything that decides one sample's class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Site {
    pub height: f64,
    pub sea_level: f64,
    /// Mean annual temperature, °C (at sea level over water: the sea's surface).
    pub temperature: f64,
    /// Mean annual precipitation, mm.
    pub precipitation: f64,
    /// Gradient magnitude (rise over run).
    pub slope: f64,
    /// Tangent of the local rock's angle of repose.
    pub tan_repose: f64,
    /// Lake water over the sample, metres; 0 outside lakes.
    pub lake_depth: f64,
    /// 0…1: flat ground where much water gathers.
    pub wetness: f64,
    /// Loose sediment over bedrock, metres.
    pub sediment: f64,
    /// Height above the channel (or sea) the sample drains to, metres.
    pub above_drainage: f64,
    /// Area that channel gathers, km².
    pub channel_area_km2: f64,
    /// 0 (sheltered) … 1 (open water to the fetch limit in every direction); shores and
    /// shallow sea only, 0 elsewhere.
    pub exposure: f64,
}

/// Depth of the shelf break, metres: shelf above it, sea floor below.
pub const SHELF_BREAK_M: f64 = 120.0;
/// The tidal frame: shores within this many metres of sea level are intertidal.
pub const TIDE_M: f64 = 1.5;
/// Beach sand reaches this far above sea level on an exposed shore.
pub const BEACH_ABOVE_M: f64 = 2.5;
/// A shore at least this exposed is open coast (beach, reef); less is sheltered.
pub const EXPOSED: f64 = 0.35;
/// Reef-building coral: the photic window and the warmest water.
pub const REEF_MIN_DEPTH_M: f64 = 2.0;
pub const REEF_MAX_DEPTH_M: f64 = 40.0;
pub const REEF_MIN_SEA_C: f64 = 20.0;
/// Reefs need clear water: less sediment than this on the bottom (so none off a river's
/// mouth, where its plume lays mud: `ground::plume_mud`).
pub const REEF_MAX_SEDIMENT_M: f64 = 3.0;
/// A reef on a bottom steeper than this is a rocky reef.
pub const ROCKY_BOTTOM_SLOPE: f64 = 0.25;
/// Seagrass: shallower than this, on soft bottom, sheltered, not freezing.
pub const SEAGRASS_MAX_DEPTH_M: f64 = 12.0;
pub const SOFT_BOTTOM_M: f64 = 1.0;
/// Mangroves where the sea is at least this warm; salt marsh where cooler.
pub const MANGROVE_MIN_C: f64 = 20.0;
/// A river mouth is an estuary when its river drains at least this much.
pub const ESTUARY_AREA_KM2: f64 = 20.0;
/// Rooted lake plants stop at this depth: lake shore above, lake bed below.
pub const ROOTED_PLANT_DEPTH_M: f64 = 3.0;
/// A lake dries to a salt flat where the climate is this dry (evaporation beats inflow).
pub const SALT_FLAT_MAX_MM: f64 = 350.0;
pub const SALT_FLAT_MIN_C: f64 = 5.0;
/// The ice line: glaciers where the mean annual temperature is below it and there is snow
/// enough to feed them; drifted snow where it is too dry.
pub const ICE_LINE_C: f64 = -6.0;
pub const ICE_MIN_MM: f64 = 250.0;
/// The ice's maximum extent was this much colder: moraine lies where the ice line then
/// reached, within the band of its terminus.
pub const GLACIAL_COOLING_C: f64 = 6.0;
pub const MORAINE_BAND_C: f64 = 2.0;
/// Talus: slopes within this fraction of the angle of repose (and below it) are scree.
pub const SCREE_FRACTION: f64 = 0.85;
/// Canyons: walls this steep (fraction of repose), within this height of a river draining at
/// least this much, in land this dry.
pub const CANYON_FRACTION: f64 = 0.45;
pub const CANYON_DEPTH_M: f64 = 200.0;
pub const CANYON_AREA_KM2: f64 = 10.0;
pub const CANYON_MAX_MM: f64 = 600.0;
/// Floodplains: flats this close above a river draining at least this much.
pub const FLOODPLAIN_ABOVE_M: f64 = 2.0;
pub const FLOODPLAIN_AREA_KM2: f64 = 50.0;
pub const FLOODPLAIN_SLOPE: f64 = 0.02;
/// Wetland and swamp: saturated ground (wetness from the topographic wetness index, see
/// `ground::soils`) this close above drainage, where the climate has water to spare: an
/// aridity index (P / PET) of humid land or wetter, so a dry wash is not a marsh.
pub const WETLAND_ABOVE_M: f64 = 5.0;
pub const WETLAND_WETNESS: f64 = 0.5;
pub const WETLAND_MIN_AI: f64 = 0.65;
pub const SWAMP_MIN_C: f64 = 15.0;
pub const SWAMP_MIN_MM: f64 = 1200.0;
/// The tree line as an isotherm; above it, on mountains, alpine meadow.
pub const TREE_LINE_C: f64 = 1.0;
pub const ALPINE_ABOVE_M: f64 = 600.0;
/// Dunes: hot, dry, sandy, and on ground no steeper than sand banks against (climbing
/// dunes and sand ramps lie on slopes up to about 11°; Lancaster & Tchakerian 1996).
pub const DUNE_MIN_C: f64 = 18.0;
pub const DUNE_MAX_MM: f64 = 250.0;
pub const DUNE_SAND_M: f64 = 2.0;
pub const DUNE_MAX_SLOPE: f64 = 0.2;

/// The class of one sample.
pub fn classify(s: &Site) -> BiomeId {
    let above = s.height - s.sea_level;
    if s.lake_depth > 0.0 {
        return lake(s);
    }
    if above < -TIDE_M {
        return sea(s, -above);
    }
    if above < BEACH_ABOVE_M && s.slope < 0.2 {
        if let Some(b) = shore(s, above) {
            return b;
        }
    }
    land(s, above)
}

fn lake(s: &Site) -> BiomeId {
    if s.precipitation < SALT_FLAT_MAX_MM && s.temperature >= SALT_FLAT_MIN_C {
        BiomeId::SaltFlat
    } else if s.lake_depth < ROOTED_PLANT_DEPTH_M {
        BiomeId::LakeShore
    } else {
        BiomeId::LakeBed
    }
}

fn sea(s: &Site, depth: f64) -> BiomeId {
    let photic = (REEF_MIN_DEPTH_M..=REEF_MAX_DEPTH_M).contains(&depth);
    if photic
        && s.temperature >= REEF_MIN_SEA_C
        && s.sediment < REEF_MAX_SEDIMENT_M
        && s.exposure >= EXPOSED
    {
        return if s.slope > ROCKY_BOTTOM_SLOPE {
            BiomeId::RockyReef
        } else {
            BiomeId::Reef
        };
    }
    if depth <= SEAGRASS_MAX_DEPTH_M
        && s.sediment >= SOFT_BOTTOM_M
        && s.exposure < EXPOSED
        && s.temperature > 0.0
    {
        return BiomeId::Seagrass;
    }
    if depth < SHELF_BREAK_M {
        BiomeId::Shelf
    } else {
        BiomeId::SeaFloor
    }
}

/// Low, gentle ground at the sea: open coast is beach; sheltered coast is estuary at a large
/// river's mouth, else tidal flat, salt marsh or mangrove by tide and warmth. None where the
/// sample is not on a shore (exposure 0 and no river: inland lowland).
fn shore(s: &Site, above: f64) -> Option<BiomeId> {
    let intertidal = above <= TIDE_M;
    if s.exposure >= EXPOSED {
        return Some(BiomeId::Beach);
    }
    if s.exposure <= 0.0 {
        return None; // not on a shore
    }
    if intertidal && s.channel_area_km2 >= ESTUARY_AREA_KM2 && s.above_drainage < TIDE_M {
        return Some(BiomeId::Estuary);
    }
    if !intertidal {
        return None;
    }
    Some(if s.temperature >= MANGROVE_MIN_C {
        BiomeId::Mangrove
    } else if above < 0.0 {
        BiomeId::TidalFlat
    } else {
        BiomeId::SaltMarsh
    })
}

fn land(s: &Site, above: f64) -> BiomeId {
    let (t, p) = (s.temperature, s.precipitation);
    if s.slope > s.tan_repose {
        return BiomeId::BareRock;
    }
    if t < ICE_LINE_C {
        return if p >= ICE_MIN_MM {
            BiomeId::Ice
        } else {
            BiomeId::Snow
        };
    }
    if s.slope > SCREE_FRACTION * s.tan_repose {
        return BiomeId::Scree;
    }
    let glacial_terminus = ICE_LINE_C + GLACIAL_COOLING_C;
    if t < glacial_terminus
        && t >= glacial_terminus - MORAINE_BAND_C
        && p >= ICE_MIN_MM
        && s.slope < 0.5 * s.tan_repose
    {
        return BiomeId::Moraine;
    }
    if s.slope > CANYON_FRACTION * s.tan_repose
        && s.above_drainage < CANYON_DEPTH_M
        && s.channel_area_km2 >= CANYON_AREA_KM2
        && p < CANYON_MAX_MM
    {
        return BiomeId::Canyon;
    }
    if s.above_drainage < FLOODPLAIN_ABOVE_M
        && s.channel_area_km2 >= FLOODPLAIN_AREA_KM2
        && s.slope < FLOODPLAIN_SLOPE
        && t > 0.0
    {
        return BiomeId::Floodplain;
    }
    if s.wetness > WETLAND_WETNESS
        && s.above_drainage < WETLAND_ABOVE_M
        && t > 0.0
        && aridity_index(p, t) >= WETLAND_MIN_AI
    {
        return if t >= SWAMP_MIN_C && p >= SWAMP_MIN_MM {
            BiomeId::Swamp
        } else {
            BiomeId::Wetland
        };
    }
    if t < TREE_LINE_C && above >= ALPINE_ABOVE_M && p >= 300.0 {
        return BiomeId::AlpineMeadow;
    }
    if t >= DUNE_MIN_C && p < DUNE_MAX_MM && s.sediment >= DUNE_SAND_M && s.slope < DUNE_MAX_SLOPE {
        return BiomeId::Dunes;
    }
    whittaker(t, p, s.slope)
}

/// Whittaker's temperature × precipitation plane, simplified to straight boundaries, with
/// the cold-temperate conifer belt and the flat dry steppe split out.
pub fn whittaker(t: f64, p: f64, slope: f64) -> BiomeId {
    match (t, p) {
        (t, _) if t < -5.0 => BiomeId::Tundra,
        (t, p) if t < 3.0 => {
            if p < 300.0 {
                BiomeId::Tundra
            } else {
                BiomeId::Taiga
            }
        }
        (t, p) if t < 20.0 => match p {
            p if p < 300.0 => BiomeId::Desert,
            p if p < 500.0 && t < 12.0 && slope < 0.08 => BiomeId::Steppe,
            p if p < 650.0 => BiomeId::Grassland,
            p if p < 1000.0 => BiomeId::Shrubland,
            _ if t < 8.0 => BiomeId::ConiferForest,
            p if p < 2000.0 => BiomeId::TemperateForest,
            _ => BiomeId::TemperateRainforest,
        },
        (_, p) => match p {
            p if p < 400.0 => BiomeId::Desert,
            p if p < 1300.0 => BiomeId::Savanna,
            p if p < 2500.0 => BiomeId::TropicalSeasonalForest,
            _ => BiomeId::TropicalRainforest,
        },
    }
}

/// Whether `b` is a class `s` may carry by its laws' necessary conditions: what the tests
/// (and the baked-world checks) hold every classified sample to. Restated from the constants,
/// not from [`classify`]'s branches, so a wrong branch order shows.
pub fn cause_holds(b: BiomeId, s: &Site) -> bool {
    let above = s.height - s.sea_level;
    let depth = -above;
    let (t, p) = (s.temperature, s.precipitation);
    let dry_land = s.lake_depth <= 0.0 && above >= -TIDE_M;
    match b {
        BiomeId::SeaFloor => depth >= SHELF_BREAK_M && s.lake_depth <= 0.0,
        BiomeId::Shelf => depth > TIDE_M && depth < SHELF_BREAK_M,
        BiomeId::Reef | BiomeId::RockyReef => {
            (REEF_MIN_DEPTH_M..=REEF_MAX_DEPTH_M).contains(&depth)
                && t >= REEF_MIN_SEA_C
                && s.sediment < REEF_MAX_SEDIMENT_M
                && s.exposure >= EXPOSED
                && (b == BiomeId::Reef) == (s.slope <= ROCKY_BOTTOM_SLOPE)
        }
        BiomeId::Seagrass => {
            depth > TIDE_M && depth <= SEAGRASS_MAX_DEPTH_M && s.sediment >= SOFT_BOTTOM_M
        }
        BiomeId::Beach => dry_land && above < BEACH_ABOVE_M && s.exposure >= EXPOSED,
        BiomeId::TidalFlat => (-TIDE_M..0.0).contains(&above) && s.exposure < EXPOSED,
        BiomeId::SaltMarsh => {
            (0.0..=TIDE_M).contains(&above) && s.exposure < EXPOSED && t < MANGROVE_MIN_C
        }
        BiomeId::Mangrove => above.abs() <= TIDE_M && t >= MANGROVE_MIN_C,
        BiomeId::Estuary => above.abs() <= TIDE_M && s.channel_area_km2 >= ESTUARY_AREA_KM2,
        BiomeId::LakeBed => s.lake_depth >= ROOTED_PLANT_DEPTH_M,
        BiomeId::LakeShore => s.lake_depth > 0.0 && s.lake_depth < ROOTED_PLANT_DEPTH_M,
        BiomeId::SaltFlat => s.lake_depth > 0.0 && p < SALT_FLAT_MAX_MM,
        BiomeId::BareRock => s.slope > s.tan_repose,
        BiomeId::Scree => {
            s.slope > SCREE_FRACTION * s.tan_repose && s.slope <= s.tan_repose && t >= ICE_LINE_C
        }
        BiomeId::Ice => t < ICE_LINE_C && p >= ICE_MIN_MM && s.slope <= s.tan_repose,
        BiomeId::Snow => t < ICE_LINE_C && p < ICE_MIN_MM,
        BiomeId::Moraine => {
            (ICE_LINE_C..ICE_LINE_C + GLACIAL_COOLING_C).contains(&t) && s.slope < s.tan_repose
        }
        BiomeId::Canyon => {
            s.channel_area_km2 >= CANYON_AREA_KM2 && p < CANYON_MAX_MM && s.slope <= s.tan_repose
        }
        BiomeId::Floodplain => {
            s.above_drainage < FLOODPLAIN_ABOVE_M && s.channel_area_km2 >= FLOODPLAIN_AREA_KM2
        }
        BiomeId::Wetland | BiomeId::Swamp => {
            s.wetness > WETLAND_WETNESS
                && s.above_drainage < WETLAND_ABOVE_M
                && aridity_index(p, t) >= WETLAND_MIN_AI
                && (b == BiomeId::Wetland || (t >= SWAMP_MIN_C && p >= SWAMP_MIN_MM))
        }
        BiomeId::AlpineMeadow => t < TREE_LINE_C && above >= ALPINE_ABOVE_M,
        BiomeId::Dunes => t >= DUNE_MIN_C && p < DUNE_MAX_MM && s.sediment >= DUNE_SAND_M,
        BiomeId::Tundra => t < 3.0 && (t < -5.0 || p < 300.0),
        BiomeId::Taiga => (-5.0..3.0).contains(&t) && p >= 300.0,
        BiomeId::ConiferForest => (3.0..8.0).contains(&t) && p >= 1000.0,
        BiomeId::Steppe => (3.0..12.0).contains(&t) && (300.0..500.0).contains(&p),
        BiomeId::Grassland => (3.0..20.0).contains(&t) && (300.0..650.0).contains(&p),
        BiomeId::Shrubland => (3.0..20.0).contains(&t) && (650.0..1000.0).contains(&p),
        BiomeId::TemperateForest => (8.0..20.0).contains(&t) && (1000.0..2000.0).contains(&p),
        BiomeId::TemperateRainforest => (8.0..20.0).contains(&t) && p >= 2000.0,
        BiomeId::Desert => t >= 3.0 && p < 400.0,
        BiomeId::Savanna => t >= 20.0 && (400.0..1300.0).contains(&p),
        BiomeId::TropicalSeasonalForest => t >= 20.0 && (1300.0..2500.0).contains(&p),
        BiomeId::TropicalRainforest => t >= 20.0 && p >= 2500.0,
    }
}

#[cfg(test)]
mod tests;
