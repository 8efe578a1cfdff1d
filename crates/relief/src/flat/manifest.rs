//! `world.json`: what a world directory holds and how to check it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::FormatError;
use crate::flat::location::RegionLocation;
use crate::flat::region::LayerKind;

pub const MANIFEST_FILE: &str = "world.json";
pub const FORMAT_NAME: &str = "relief-world";
pub const FORMAT_VERSION: u32 = 1;

/// The finest and coarsest vertex spacing a world may have, metres: finer would make a region
/// a few atoms wide (and every planar loop unbounded), coarser no longer terrain.
pub const MIN_SPACING: f64 = 0.01;
pub const MAX_SPACING: f64 = 10_000.0;
/// Region coordinates stay within ±this on both axes (Terrain3D's own maps span ±16), so
/// every sample index and extent fits in i64 arithmetic with room to spare.
pub const MAX_REGION_COORD: i32 = 1 << 16;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `relief-world`.
    pub format: String,
    pub format_version: u32,
    /// Version of the baker's algorithm; the same seed and version give the same bytes.
    pub bake_version: u32,
    /// The seed text the world was baked from.
    pub seed: String,
    /// FNV-1a 64 of the seed text, hex.
    pub seed_hash: String,
    /// Samples per region side (power of two, 64–2048).
    pub region_size: u32,
    /// Metres between samples (Terrain3D's vertex spacing).
    pub vertex_spacing: f64,
    /// Inclusive range of region locations the world covers.
    pub region_bounds: RegionBounds,
    /// Lowest and highest height in any region, metres.
    pub height_range: [f32; 2],
    /// Ground below this is sea, metres; none for a world without sea (an import given no
    /// `--sea-level`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sea_level: Option<f32>,
    /// Layers every region file carries, by name (`height`, `control`, `color`, `biome`, `lake`).
    pub layers: Vec<String>,
    pub overview: OverviewInfo,
    /// Every file of the world (paths relative to the world directory, `/`-separated) with its
    /// length and CRC-32.
    pub files: BTreeMap<String, FileEntry>,
    /// What the bake made, for `relief info`.
    pub census: Census,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionBounds {
    pub min: [i32; 2],
    pub max: [i32; 2],
}

impl RegionBounds {
    pub fn contains(&self, loc: RegionLocation) -> bool {
        (self.min[0]..=self.max[0]).contains(&loc.x) && (self.min[1]..=self.max[1]).contains(&loc.z)
    }
    pub fn locations(&self) -> impl Iterator<Item = RegionLocation> + '_ {
        (self.min[1]..=self.max[1])
            .flat_map(move |z| (self.min[0]..=self.max[0]).map(move |x| RegionLocation::new(x, z)))
    }
    pub fn count(&self) -> usize {
        ((self.max[0] - self.min[0] + 1) * (self.max[1] - self.min[1] + 1)) as usize
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OverviewInfo {
    pub file: String,
    pub spacing: f64,
    pub width: u32,
    pub depth: u32,
}

impl OverviewInfo {
    /// What the manifest says of `overview`, stored as `overview.rlo`.
    pub fn of(overview: &crate::flat::overview::Overview) -> OverviewInfo {
        OverviewInfo {
            file: crate::flat::OVERVIEW_FILE.into(),
            spacing: overview.spacing,
            width: overview.width,
            depth: overview.depth,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub bytes: u64,
    pub crc32: u32,
}

impl FileEntry {
    pub fn of(bytes: &[u8]) -> FileEntry {
        FileEntry {
            bytes: bytes.len() as u64,
            crc32: crc32fast::hash(bytes),
        }
    }
}

/// Shares are fractions of the world's samples (0–1): the samples its ground stands on,
/// holes and padding apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Census {
    /// Samples of standing ground, which every share is of.
    pub samples: u64,
    /// Samples of the regions that are holes, or padding past an imported map's edge: in no
    /// share.
    #[serde(default)]
    pub holes: u64,
    pub ocean_share: f64,
    pub lake_share: f64,
    /// Biome name → share of samples.
    pub biome_shares: BTreeMap<String, f64>,
}

impl Manifest {
    /// The sea level, or −∞ for a world without sea (so `height < sea()` never holds).
    pub fn sea(&self) -> f32 {
        self.sea_level.unwrap_or(f32::NEG_INFINITY)
    }

    /// Every layer's name, for a world whose regions carry them all.
    pub fn all_layers() -> Vec<String> {
        LayerKind::ALL
            .iter()
            .map(|k| k.name().to_string())
            .collect()
    }

    pub fn region_path(loc: RegionLocation) -> String {
        format!("regions/{}", loc.file_name())
    }

    pub fn layer_kinds(&self) -> Result<Vec<LayerKind>, FormatError> {
        self.layers
            .iter()
            .map(|n| {
                LayerKind::from_name(n)
                    .ok_or_else(|| FormatError::Manifest(format!("unknown layer `{n}`")))
            })
            .collect()
    }

    /// Checks the manifest is self-consistent (not yet that its files match it).
    pub fn validate(&self) -> Result<(), FormatError> {
        let bad = |m: String| Err(FormatError::Manifest(m));
        if self.format != FORMAT_NAME {
            return bad(format!(
                "format is `{}`, expected `{FORMAT_NAME}`",
                self.format
            ));
        }
        if self.format_version != FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion {
                what: "world format",
                found: self.format_version,
                supported: FORMAT_VERSION,
            });
        }
        if !self.region_size.is_power_of_two() || !(64..=2048).contains(&self.region_size) {
            return bad(format!(
                "region_size {} is not a power of two in 64..=2048",
                self.region_size
            ));
        }
        if !(MIN_SPACING..=MAX_SPACING).contains(&self.vertex_spacing) {
            return bad(format!(
                "vertex_spacing {} is not within {MIN_SPACING}..={MAX_SPACING} m",
                self.vertex_spacing
            ));
        }
        let b = self.region_bounds;
        if b.min[0] > b.max[0] || b.min[1] > b.max[1] {
            return bad(format!("region_bounds {:?}..{:?} are empty", b.min, b.max));
        }
        if b.min
            .iter()
            .chain(&b.max)
            .any(|c| !(-MAX_REGION_COORD..=MAX_REGION_COORD).contains(c))
        {
            return bad(format!(
                "region_bounds {:?}..{:?} reach past ±{MAX_REGION_COORD}",
                b.min, b.max
            ));
        }
        let kinds = self.layer_kinds()?;
        if !kinds.contains(&LayerKind::Height) {
            return bad("layers do not include `height`".into());
        }
        if !self.files.contains_key(&self.overview.file) {
            return bad(format!(
                "overview `{}` is not listed in files",
                self.overview.file
            ));
        }
        for path in self.files.keys() {
            if path.starts_with('/') || path.split('/').any(|p| p == ".." || p.is_empty()) {
                return bad(format!("file path `{path}` leaves the world directory"));
            }
        }
        Ok(())
    }
}

/// Pretty JSON, so a person can read the manifest and tables; serde_json prints floats in
/// their shortest round-trip form, so the output is deterministic.
pub fn pretty_json<T: serde::Serialize>(v: &T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(v).expect("tables serialise");
    bytes.push(b'\n');
    bytes
}
