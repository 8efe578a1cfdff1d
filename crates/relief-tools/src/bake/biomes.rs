//! The ground classes a bake writes (the biome layer's ids, `biomes.json`): their names,
//! colours, ground textures and provinces. What decides a sample's class is in
//! [`crate::bake::classify`].

use relief::flat::tables::Biome;

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
    // Bake version 5 on (ids above are unchanged, so older worlds still read).
    Reef = 17,
    RockyReef = 18,
    Seagrass = 19,
    TidalFlat = 20,
    SaltMarsh = 21,
    Mangrove = 22,
    Estuary = 23,
    LakeShore = 24,
    Swamp = 25,
    Floodplain = 26,
    SaltFlat = 27,
    Scree = 28,
    Canyon = 29,
    AlpineMeadow = 30,
    Moraine = 31,
    Ice = 32,
    ConiferForest = 33,
    Steppe = 34,
    Dunes = 35,
}

/// The groups a census reports classes in (seed 000's provinces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Province {
    OceanFloor,
    ReefAndMeadow,
    Coast,
    FreshWater,
    Arid,
    RockAndAlpine,
    IceAndTundra,
    Forest,
    GrassAndSteppe,
}

impl Province {
    pub fn name(self) -> &'static str {
        match self {
            Province::OceanFloor => "ocean floor",
            Province::ReefAndMeadow => "reef & meadow",
            Province::Coast => "coast",
            Province::FreshWater => "fresh water",
            Province::Arid => "arid",
            Province::RockAndAlpine => "rock & alpine",
            Province::IceAndTundra => "ice & tundra",
            Province::Forest => "forest",
            Province::GrassAndSteppe => "grass & steppe",
        }
    }
}

use Province as P;

/// (id, name, display color, Terrain3D ground texture slot, province, what it is).
type Row = (BiomeId, &'static str, [u8; 3], u8, Province, &'static str);

#[rustfmt::skip]
const TABLE: [Row; 36] = [
    (BiomeId::SeaFloor, "sea floor", [28, 58, 112], texture::SAND, P::OceanFloor, "below the shelf break"),
    (BiomeId::Shelf, "shelf", [58, 108, 168], texture::SAND, P::OceanFloor, "continental shelf, sea level to the shelf break"),
    (BiomeId::Beach, "beach", [226, 210, 160], texture::SAND, P::Coast, "sand at the waterline of an exposed shore"),
    (BiomeId::LakeBed, "lake bed", [70, 128, 186], texture::MUD, P::FreshWater, "a lake's floor below the rooted-plant depth"),
    (BiomeId::Wetland, "wetland", [92, 128, 98], texture::MUD, P::FreshWater, "marsh: saturated ground just above drainage"),
    (BiomeId::BareRock, "bare rock", [138, 132, 126], texture::ROCK, P::RockAndAlpine, "slopes above the angle of repose"),
    (BiomeId::Snow, "snow", [244, 244, 250], texture::SNOW, P::IceAndTundra, "cold and too dry for a glacier: wind-drifted snow"),
    (BiomeId::Tundra, "tundra", [168, 168, 138], texture::MOSS, P::IceAndTundra, "cold and dry"),
    (BiomeId::Taiga, "taiga", [62, 98, 72], texture::FOREST_FLOOR, P::Forest, "cold and wet boreal forest"),
    (BiomeId::Grassland, "grassland", [170, 190, 110], texture::GRASS, P::GrassAndSteppe, "temperate and dry"),
    (BiomeId::Shrubland, "shrubland", [160, 150, 92], texture::DRY_GRASS, P::GrassAndSteppe, "temperate, between grass and forest"),
    (BiomeId::TemperateForest, "temperate forest", [72, 128, 62], texture::FOREST_FLOOR, P::Forest, "temperate and wet"),
    (BiomeId::TemperateRainforest, "temperate rainforest", [40, 108, 72], texture::MOSS, P::Forest, "temperate and very wet"),
    (BiomeId::Desert, "desert", [220, 196, 140], texture::SAND, P::Arid, "too dry for grass"),
    (BiomeId::Savanna, "savanna", [190, 180, 92], texture::DRY_GRASS, P::GrassAndSteppe, "hot with a dry season"),
    (BiomeId::TropicalSeasonalForest, "tropical seasonal forest", [100, 150, 52], texture::FOREST_FLOOR, P::Forest, "hot and wet"),
    (BiomeId::TropicalRainforest, "tropical rainforest", [30, 118, 42], texture::FOREST_FLOOR, P::Forest, "hot and very wet"),
    (BiomeId::Reef, "reef", [96, 196, 190], texture::SAND, P::ReefAndMeadow, "coral framework in warm, clear, photic water"),
    (BiomeId::RockyReef, "rocky reef", [84, 156, 160], texture::ROCK, P::ReefAndMeadow, "coral veneer on a steep rocky bottom"),
    (BiomeId::Seagrass, "seagrass", [70, 140, 110], texture::MUD, P::ReefAndMeadow, "a meadow on soft, sheltered, photic bottom"),
    (BiomeId::TidalFlat, "tidal flat", [150, 140, 118], texture::MUD, P::Coast, "bare intertidal mud on a sheltered shore"),
    (BiomeId::SaltMarsh, "salt marsh", [120, 146, 104], texture::MOSS, P::Coast, "herbs above high water on a sheltered, cool shore"),
    (BiomeId::Mangrove, "mangrove", [52, 104, 66], texture::MUD, P::Coast, "intertidal forest on a sheltered, warm shore"),
    (BiomeId::Estuary, "estuary", [96, 130, 150], texture::MUD, P::Coast, "a drowned river mouth"),
    (BiomeId::LakeShore, "lake shore", [104, 150, 132], texture::MUD, P::FreshWater, "a lake's emergent-plant belt, shallower than rooted plants reach"),
    (BiomeId::Swamp, "swamp", [70, 100, 70], texture::MUD, P::FreshWater, "ponded, saturated, wooded: warm and wet"),
    (BiomeId::Floodplain, "floodplain", [140, 168, 100], texture::GRASS, P::FreshWater, "flats a large river floods"),
    (BiomeId::SaltFlat, "salt flat", [236, 230, 214], texture::SAND, P::Arid, "evaporite where an arid closed basin dries"),
    (BiomeId::Scree, "scree", [150, 140, 128], texture::GRAVEL, P::RockAndAlpine, "talus just under the angle of repose"),
    (BiomeId::Canyon, "canyon", [176, 110, 80], texture::ROCK, P::RockAndAlpine, "steep walls a river cut through dry land"),
    (BiomeId::AlpineMeadow, "alpine meadow", [150, 170, 120], texture::GRASS, P::RockAndAlpine, "above the tree line, below the snow"),
    (BiomeId::Moraine, "moraine", [160, 150, 140], texture::GRAVEL, P::RockAndAlpine, "till left at the ice's maximum extent"),
    (BiomeId::Ice, "ice", [214, 232, 246], texture::SNOW, P::IceAndTundra, "glacier: above the ice line with snow to feed it"),
    (BiomeId::ConiferForest, "conifer forest", [48, 90, 62], texture::FOREST_FLOOR, P::Forest, "cold-temperate and wet"),
    (BiomeId::Steppe, "steppe", [184, 176, 120], texture::DRY_GRASS, P::GrassAndSteppe, "cool, dry, flat"),
    (BiomeId::Dunes, "dunes", [232, 204, 150], texture::SAND, P::Arid, "sand seas: hot, dry, sandy, open"),
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
    pub fn province(self) -> Province {
        TABLE[self as usize].4
    }
    /// What the class is, in a few words (the census prints it).
    pub fn what(self) -> &'static str {
        TABLE[self as usize].5
    }
    /// Every class, in id order.
    pub fn all() -> impl Iterator<Item = BiomeId> {
        TABLE.iter().map(|t| t.0)
    }
    /// The class with id `id`.
    pub fn from_id(id: u8) -> Option<BiomeId> {
        TABLE.get(id as usize).map(|t| t.0)
    }
    /// Under water: sea, reef and meadow, lake floor (the census's "of land" leaves them out).
    pub fn is_water(self) -> bool {
        matches!(
            self.province(),
            Province::OceanFloor | Province::ReefAndMeadow
        ) || matches!(
            self,
            BiomeId::LakeBed | BiomeId::LakeShore | BiomeId::Estuary
        )
    }
}

/// The `biomes.json` table.
pub fn table() -> Vec<Biome> {
    TABLE
        .iter()
        .map(|(id, name, color, ..)| Biome {
            id: *id as u8,
            name: name.to_string(),
            color: *color,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_indices_and_names_are_unique() {
        let mut names = std::collections::BTreeSet::new();
        for (i, b) in table().iter().enumerate() {
            assert_eq!(b.id as usize, i, "biomes.json ids are indices");
            assert_eq!(BiomeId::from_id(i as u8).unwrap() as usize, i);
            assert!(names.insert(b.name.clone()), "{} twice", b.name);
        }
        const { assert!(BiomeId::COUNT >= 30) };
        assert!(BiomeId::from_id(BiomeId::COUNT as u8).is_none());
    }
}
