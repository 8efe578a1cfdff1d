//! Biomes: the Whittaker temperature × precipitation plane for land, plus the classes that
//! terrain rather than climate decides: sea floor, shelf, beach, lake bed, wetland, bare rock
//! above the angle of repose, and snow.

use crate::flat::tables::Biome;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum BiomeId {
    SeaFloor = 0,
    Shelf = 1,
    Beach = 2,
    LakeBed = 3,
    Wetland = 4,
    BareRock = 5,
    Snow = 6,
    Tundra = 7,
    Taiga = 8,
    Grassland = 9,
    Shrubland = 10,
    TemperateForest = 11,
    TemperateRainforest = 12,
    Desert = 13,
    Savanna = 14,
    TropicalSeasonalForest = 15,
    TropicalRainforest = 16,
}

/// (id, name, display color, Terrain3D ground texture slot).
const TABLE: [(BiomeId, &str, [u8; 3], u8); 17] = [
    (BiomeId::SeaFloor, "sea floor", [28, 58, 112], texture::SAND),
    (BiomeId::Shelf, "shelf", [58, 108, 168], texture::SAND),
    (BiomeId::Beach, "beach", [226, 210, 160], texture::SAND),
    (BiomeId::LakeBed, "lake bed", [70, 128, 186], texture::MUD),
    (BiomeId::Wetland, "wetland", [92, 128, 98], texture::MUD),
    (
        BiomeId::BareRock,
        "bare rock",
        [138, 132, 126],
        texture::ROCK,
    ),
    (BiomeId::Snow, "snow", [244, 244, 250], texture::SNOW),
    (BiomeId::Tundra, "tundra", [168, 168, 138], texture::MOSS),
    (BiomeId::Taiga, "taiga", [62, 98, 72], texture::FOREST_FLOOR),
    (
        BiomeId::Grassland,
        "grassland",
        [170, 190, 110],
        texture::GRASS,
    ),
    (
        BiomeId::Shrubland,
        "shrubland",
        [160, 150, 92],
        texture::DRY_GRASS,
    ),
    (
        BiomeId::TemperateForest,
        "temperate forest",
        [72, 128, 62],
        texture::FOREST_FLOOR,
    ),
    (
        BiomeId::TemperateRainforest,
        "temperate rainforest",
        [40, 108, 72],
        texture::MOSS,
    ),
    (BiomeId::Desert, "desert", [220, 196, 140], texture::SAND),
    (
        BiomeId::Savanna,
        "savanna",
        [190, 180, 92],
        texture::DRY_GRASS,
    ),
    (
        BiomeId::TropicalSeasonalForest,
        "tropical seasonal forest",
        [100, 150, 52],
        texture::FOREST_FLOOR,
    ),
    (
        BiomeId::TropicalRainforest,
        "tropical rainforest",
        [30, 118, 42],
        texture::FOREST_FLOOR,
    ),
];

/// Terrain3D texture slots the baker paints with (a world's texture list must follow it).
pub mod texture {
    pub const GRASS: u8 = 0;
    pub const DRY_GRASS: u8 = 1;
    pub const FOREST_FLOOR: u8 = 2;
    pub const DIRT: u8 = 3;
    pub const ROCK: u8 = 4;
    pub const SAND: u8 = 5;
    pub const SNOW: u8 = 6;
    pub const MUD: u8 = 7;
    pub const GRAVEL: u8 = 8;
    pub const MOSS: u8 = 9;
}

impl BiomeId {
    pub const COUNT: usize = TABLE.len();

    pub fn name(self) -> &'static str {
        TABLE[self as usize].1
    }
    pub fn color(self) -> [u8; 3] {
        TABLE[self as usize].2
    }
    pub fn texture(self) -> u8 {
        TABLE[self as usize].3
    }
    pub fn is_water(self) -> bool {
        matches!(self, BiomeId::SeaFloor | BiomeId::Shelf | BiomeId::LakeBed)
    }
}

/// The `biomes.json` table.
pub fn table() -> Vec<Biome> {
    TABLE
        .iter()
        .map(|(id, name, color, _)| Biome {
            id: *id as u8,
            name: name.to_string(),
            color: *color,
        })
        .collect()
}

/// Everything that decides one sample's biome.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    pub height: f64,
    pub sea_level: f64,
    /// Mean annual temperature, °C.
    pub temperature: f64,
    /// Mean annual precipitation, mm.
    pub precipitation: f64,
    /// Gradient magnitude (rise over run).
    pub slope: f64,
    /// Tangent of the local rock's angle of repose.
    pub tan_repose: f64,
    pub in_lake: bool,
    /// 0..1: flat ground where much water gathers.
    pub wetness: f64,
}

pub const SNOW_BELOW_C: f64 = -3.0;
pub const SHELF_DEPTH: f64 = 20.0;
pub const BEACH_ABOVE_SEA: f64 = 1.5;

pub fn classify(s: &Site) -> BiomeId {
    let above = s.height - s.sea_level;
    if s.in_lake {
        return BiomeId::LakeBed;
    }
    if above < -SHELF_DEPTH {
        return BiomeId::SeaFloor;
    }
    if above < 0.0 {
        return BiomeId::Shelf;
    }
    if s.slope > s.tan_repose {
        return BiomeId::BareRock;
    }
    if s.temperature < SNOW_BELOW_C {
        return BiomeId::Snow;
    }
    if above < BEACH_ABOVE_SEA && s.slope < 0.2 {
        return BiomeId::Beach;
    }
    if s.wetness > 0.5 && s.temperature > 0.0 {
        return BiomeId::Wetland;
    }
    whittaker(s.temperature, s.precipitation)
}

/// Whittaker's plane, simplified to straight boundaries.
pub fn whittaker(t: f64, p: f64) -> BiomeId {
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
            p if p < 650.0 => BiomeId::Grassland,
            p if p < 1000.0 => BiomeId::Shrubland,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whittaker_corners() {
        assert_eq!(whittaker(25.0, 3000.0), BiomeId::TropicalRainforest);
        assert_eq!(whittaker(25.0, 200.0), BiomeId::Desert);
        assert_eq!(whittaker(0.0, 800.0), BiomeId::Taiga);
        assert_eq!(whittaker(0.0, 100.0), BiomeId::Tundra);
        assert_eq!(whittaker(10.0, 1500.0), BiomeId::TemperateForest);
    }

    #[test]
    fn terrain_classes_override_climate() {
        let base = Site {
            height: 100.0,
            sea_level: 0.0,
            temperature: 10.0,
            precipitation: 1500.0,
            slope: 0.1,
            tan_repose: 0.8,
            in_lake: false,
            wetness: 0.0,
        };
        assert_eq!(classify(&base), BiomeId::TemperateForest);
        assert_eq!(classify(&Site { slope: 1.2, ..base }), BiomeId::BareRock);
        assert_eq!(
            classify(&Site {
                height: -5.0,
                ..base
            }),
            BiomeId::Shelf
        );
        assert_eq!(
            classify(&Site {
                height: -50.0,
                ..base
            }),
            BiomeId::SeaFloor
        );
        assert_eq!(
            classify(&Site {
                height: 1.0,
                ..base
            }),
            BiomeId::Beach
        );
        assert_eq!(
            classify(&Site {
                in_lake: true,
                ..base
            }),
            BiomeId::LakeBed
        );
        assert_eq!(
            classify(&Site {
                temperature: -6.0,
                ..base
            }),
            BiomeId::Snow
        );
        assert_eq!(
            classify(&Site {
                wetness: 0.9,
                ..base
            }),
            BiomeId::Wetland
        );
        for (i, b) in table().iter().enumerate() {
            assert_eq!(b.id as usize, i, "biomes.json ids are indices");
        }
    }
}
