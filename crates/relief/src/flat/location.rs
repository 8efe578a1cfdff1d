//! Region locations and their geometry, following Terrain3D: location = floor(pos / spacing /
//! region_size); sample (x, y) of region L sits at (L * region_size + (x, y)) * spacing, with
//! image row y pointing to world +Z.

use serde::{Deserialize, Serialize};

/// A region's location on the region grid (Terrain3D's `Vector2i` region location).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RegionLocation {
    pub x: i32,
    pub z: i32,
}

impl RegionLocation {
    pub const fn new(x: i32, z: i32) -> Self {
        RegionLocation { x, z }
    }

    /// The region containing world position (`px`, `pz`).
    pub fn containing(px: f64, pz: f64, spacing: f64, region_size: u32) -> Self {
        let extent = spacing * region_size as f64;
        RegionLocation {
            x: (px / extent).floor() as i32,
            z: (pz / extent).floor() as i32,
        }
    }

    /// World position of this region's sample (0, 0), its minimum corner.
    pub fn origin(self, spacing: f64, region_size: u32) -> (f64, f64) {
        let extent = spacing * region_size as f64;
        (self.x as f64 * extent, self.z as f64 * extent)
    }

    /// File name inside a world's `regions/` directory, spelled as Terrain3D spells its own
    /// (`_%02d` for non-negative parts, `%03d` for negative ones): (0,0) → `region_00_00.rlr`,
    /// (-1,2) → `region-01_02.rlr`.
    pub fn file_name(self) -> String {
        self.name_with("region", "rlr")
    }

    /// The name Terrain3D gives this region's file in its data directory: (0,0) →
    /// `terrain3d_00_00.res`, (1,-2) → `terrain3d_01-02.res`.
    pub fn terrain3d_file_name(self) -> String {
        self.name_with("terrain3d", "res")
    }

    fn name_with(self, prefix: &str, ext: &str) -> String {
        fn part(v: i32) -> String {
            if v >= 0 {
                format!("_{v:02}")
            } else {
                format!("{v:03}")
            }
        }
        format!("{prefix}{}{}.{ext}", part(self.x), part(self.z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn file_names_follow_terrain3d() {
        assert_eq!(RegionLocation::new(0, 0).file_name(), "region_00_00.rlr");
        assert_eq!(RegionLocation::new(-1, 2).file_name(), "region-01_02.rlr");
        assert_eq!(RegionLocation::new(1, -2).file_name(), "region_01-02.rlr");
        assert_eq!(RegionLocation::new(-16, 15).file_name(), "region-16_15.rlr");
        let t = RegionLocation::new(1, -2).terrain3d_file_name();
        assert_eq!(t, "terrain3d_01-02.res");
        assert_eq!(
            RegionLocation::from_terrain3d_file_name(&t),
            Some(RegionLocation::new(1, -2))
        );
        assert_eq!(
            RegionLocation::from_terrain3d_file_name("terrain3d_00_00.tres"),
            None
        );
    }

    proptest! {
        #[test]
        fn every_sample_lies_in_its_region(x in -16i32..16, z in -16i32..16, sx in 0u32..512, sz in 0u32..512,
                                           spacing in prop::sample::select(vec![0.25f64, 0.5, 1.0, 2.0, 16.0])) {
            let loc = RegionLocation::new(x, z);
            let (ox, oz) = loc.origin(spacing, 512);
            let px = ox + sx as f64 * spacing;
            let pz = oz + sz as f64 * spacing;
            prop_assert_eq!(RegionLocation::containing(px, pz, spacing, 512), loc);
        }
    }
}

impl RegionLocation {
    /// Inverse of [`RegionLocation::file_name`].
    pub fn from_file_name(name: &str) -> Option<RegionLocation> {
        Self::from_name_with(name, "region", ".rlr")
    }

    /// Inverse of [`RegionLocation::terrain3d_file_name`].
    pub fn from_terrain3d_file_name(name: &str) -> Option<RegionLocation> {
        Self::from_name_with(name, "terrain3d", ".res")
    }

    fn from_name_with(name: &str, prefix: &str, ext: &str) -> Option<RegionLocation> {
        let rest = name.strip_prefix(prefix)?.strip_suffix(ext)?;
        let split = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == '_' || *c == '-')?
            .0;
        let part = |s: &str| -> Option<i32> {
            let (sign, digits) = match s.as_bytes().first()? {
                b'_' => (1, &s[1..]),
                b'-' => (-1, &s[1..]),
                _ => return None,
            };
            if digits.len() < 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some(sign * digits.parse::<i32>().ok()?)
        };
        Some(RegionLocation::new(
            part(&rest[..split])?,
            part(&rest[split..])?,
        ))
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn file_names_parse_back(x in -5000i32..5000, z in -5000i32..5000) {
            let loc = RegionLocation::new(x, z);
            prop_assert_eq!(RegionLocation::from_file_name(&loc.file_name()), Some(loc));
        }
    }

    #[test]
    fn foreign_names_are_rejected() {
        for bad in [
            "region_0_00.rlr",
            "terrain3d_00_00.res",
            "region_00.rlr",
            "region_00_0x.rlr",
            "region__00_00.rlr",
        ] {
            assert_eq!(RegionLocation::from_file_name(bad), None, "{bad}");
        }
    }
}
