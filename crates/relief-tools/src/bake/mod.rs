//! The baker: generates a flat world from a seed string, deterministically.
//!
//! uplift → erosion (coarse to fine) → climate → hydrology → fine surface, biomes, control
//! and color per region → files. Each step is its own module; see DESIGN §9 and
//! docs/architecture.md.

pub mod aeolian;
pub mod biomes;
pub mod classify;
pub mod climate;
pub mod depressions;
pub mod erosion;
pub mod grid;
pub mod ground;
pub mod hydrology;
pub mod noise;
pub mod planet;
pub mod routing;
pub mod seed;
pub mod shore;
pub mod surface;
pub mod things;
pub mod uplift;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::progress::Progress;
use crate::write::{prepare_world_dir, write, write_tables, write_things, WriteError};
use relief::flat::manifest::{self, Census, FileEntry, Manifest, OverviewInfo, RegionBounds};
use relief::flat::region_writer::{encode_region_derived, CodecProfile};
use relief::flat::RegionLocation;

pub use erosion::ErosionConfig;

/// Version of the generation algorithm, recorded in every manifest. Bump it whenever the
/// same seed would produce different bytes.
/// 4: 36 ground classes from their causes (`classify`), with shore exposure, sediment and
/// height above drainage. 5: the sea floor falls away round the island to 600 m at the
/// world's edge instead of stopping at 72 m along a square. 6: water spreads (each cell's
/// receiver drawn with multiple-flow weights, `routing::Flow::Spread`), so channels branch
/// and bend instead of running straight down the grid's axes. 7: rain falls about half a
/// kilometre downwind of the ascent that condenses it (`climate::precipitation`), so only a
/// range's lee lies in its rain shadow, not the lee of every hill. 8: the wind sorts the
/// loose sediment of dry land (`aeolian`): it lifts what plants cannot hold and lays down
/// the sand dry rivers and open shores supply, downwind. Wetland and swamp need a humid
/// aridity index (P / PET ≥ 0.65) and lie up to 5 m above drainage. 9: rivers' plumes lay
/// mud off their mouths (`ground::plume_mud`), so reefs break there. 10: a world carries
/// the default placement table (`things.json`, [`things::default_table`]).
pub const BAKE_VERSION: u32 = 10;

#[derive(Clone, Debug, PartialEq)]
pub struct BakeConfig {
    pub seed: String,
    /// Side of the square world, metres; a whole number of regions.
    pub size: f64,
    /// Samples per region side (power of two, 64–2048).
    pub region_size: u32,
    /// Metres between samples.
    pub spacing: f64,
    pub sea_level: f64,
    pub erosion: ErosionConfig,
    /// Worker threads for the region pass; 0 = one per core.
    pub threads: usize,
    /// How region layers are stored: raw (fastest to load) or LZ4 (smallest).
    pub codecs: CodecProfile,
}

impl BakeConfig {
    /// The default world for a seed: 4 km square, 512² regions at 1 m, 16 m erosion grid.
    pub fn new(seed: &str) -> BakeConfig {
        BakeConfig {
            seed: seed.to_string(),
            size: 4096.0,
            region_size: 512,
            spacing: 1.0,
            sea_level: 0.0,
            erosion: ErosionConfig {
                top_height: Self::default_top(4096.0),
                ..ErosionConfig::default()
            },
            threads: 0,
            codecs: CodecProfile::Fast,
        }
    }

    /// The default top height for a world of `size` metres: a tenth of its side, 150–1200 m.
    /// Taller peaks on a small island could only stand at the talus angle.
    pub fn default_top(size: f64) -> f64 {
        (0.1 * size).clamp(150.0, 1200.0)
    }

    pub fn region_extent(&self) -> f64 {
        self.region_size as f64 * self.spacing
    }

    pub fn validate(&self) -> Result<(), BakeError> {
        let bad = |m: String| Err(BakeError::Config(m));
        if !self.region_size.is_power_of_two() || !(64..=2048).contains(&self.region_size) {
            return bad(format!(
                "region size {} must be a power of two from 64 to 2048",
                self.region_size
            ));
        }
        if !(0.25..=100.0).contains(&self.spacing) {
            return bad(format!(
                "vertex spacing {} m must be within 0.25–100 m",
                self.spacing
            ));
        }
        let regions = self.size / self.region_extent();
        if regions < 1.0 || regions.fract() != 0.0 {
            return bad(format!(
                "world size {} m must be a whole number of {} m regions",
                self.size,
                self.region_extent()
            ));
        }
        let levels = self.erosion.steps.len().max(1) as u32;
        let coarsest = self.erosion.finest_spacing * 2f64.powi(levels as i32 - 1);
        if (self.size / coarsest).fract() != 0.0 || self.size / coarsest < 8.0 {
            return bad(format!(
                "world size {} m must be at least 8 cells of the coarsest erosion grid ({coarsest} m) and a whole number of them",
                self.size
            ));
        }
        if !self.sea_level.is_finite() {
            return bad(format!("sea level {} m is not a height", self.sea_level));
        }
        if self.erosion.top_height.is_nan() || self.erosion.top_height <= 10.0 {
            return bad(format!(
                "top height {} m must be above 10 m",
                self.erosion.top_height
            ));
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    #[error("bake settings: {0}")]
    Config(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What a bake made and how long each step took.
#[derive(Clone, Debug)]
pub struct BakeReport {
    pub regions: usize,
    pub bytes: u64,
    pub reaches: usize,
    pub lakes: usize,
    pub census: Census,
    pub height_range: [f32; 2],
    pub seconds: Vec<(&'static str, f64)>,
}

impl From<WriteError> for BakeError {
    fn from(e: WriteError) -> BakeError {
        BakeError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

/// Bakes a world into `out` (created if missing; an earlier world there is replaced). The
/// manifest is written last, so an interrupted bake never leaves a world that opens.
pub fn bake(
    cfg: &BakeConfig,
    out: &Path,
    progress: &dyn Progress,
) -> Result<BakeReport, BakeError> {
    cfg.validate()?;
    let mut seconds = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str, seconds: &mut Vec<(&'static str, f64)>| {
        seconds.push((name, clock.elapsed().as_secs_f64()));
        clock = Instant::now();
    };
    let manifest_path = prepare_world_dir(out)?;

    let seed = relief::hash::fnv1a(&cfg.seed);
    let extent = cfg.region_extent();
    let count = (cfg.size / extent).round() as i32;
    let loc_min = -(count / 2);
    let (x0, z0) = (loc_min as f64 * extent, loc_min as f64 * extent);

    let tectonics = uplift::Tectonics::from_seed(seed, cfg.size, x0, z0);
    let mut erosion_cfg = cfg.erosion.clone();
    erosion_cfg.sea_level = cfg.sea_level;
    let eroded = erosion::erode(&tectonics, x0, z0, cfg.size, &erosion_cfg, progress);
    lap("erosion", &mut seconds);

    let grid = eroded.fields.grid;
    let climate = climate::ClimateSetup::from_seed(seed);
    let precip = climate::precipitation(&grid, &eroded.height, &eroded.fields.ocean, &climate);
    lap("climate", &mut seconds);
    let flow = routing::Flow::Spread { seed };
    let hydro = hydrology::analyse(
        &grid,
        &eroded.height,
        &eroded.fields.ocean,
        &precip,
        flow,
        &depressions::LakeRules::BAKE,
    );
    lap("hydrology", &mut seconds);

    let surface = surface::Surface::new(
        seed,
        grid,
        &hydro,
        precip,
        eroded.fields.tan_repose.clone(),
        &eroded.fields.ocean,
        climate,
        cfg.sea_level,
        cfg.region_size,
        cfg.spacing,
    );
    let bounds = RegionBounds {
        min: [loc_min, loc_min],
        max: [loc_min + count - 1, loc_min + count - 1],
    };
    let locations: Vec<RegionLocation> = bounds.locations().collect();
    // What paints the color maps, for the compact profile to store instead of them.
    let tint = surface::tint_recipe(seed);
    type Written = Result<(FileEntry, surface::RegionCensus), WriteError>;
    let results: Mutex<Vec<Option<Written>>> =
        Mutex::new((0..locations.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let threads = if cfg.threads == 0 {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    } else {
        cfg.threads
    };
    progress.start("regions", locations.len() as u64);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(locations.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&loc) = locations.get(i) else { break };
                let (region, census) = surface.region(loc);
                let path = out.join(Manifest::region_path(loc));
                let bytes = encode_region_derived(&region, cfg.codecs, Some(&tint));
                let r = write(&path, &bytes).map(|e| (e, census));
                results.lock().unwrap()[i] = Some(r);
                progress.inc(1);
            });
        }
    });
    progress.finish();
    lap("regions", &mut seconds);

    let mut files = BTreeMap::new();
    let mut totals = surface::RegionCensus {
        min_height: f32::INFINITY,
        max_height: f32::NEG_INFINITY,
        ..Default::default()
    };
    for (loc, r) in locations.iter().zip(results.into_inner().unwrap()) {
        let (entry, c) = r.expect("every region was generated")?;
        files.insert(Manifest::region_path(*loc), entry);
        totals.min_height = totals.min_height.min(c.min_height);
        totals.max_height = totals.max_height.max(c.max_height);
        totals.ocean += c.ocean;
        totals.lake += c.lake;
        for (t, v) in totals.biomes.iter_mut().zip(c.biomes) {
            *t += v;
        }
    }

    let overview = grid.overview(&hydro.height);
    let biome_table = biomes::table();
    let (reaches, lakes) = (hydro.reaches.len(), hydro.lakes.len());
    write_tables(
        out,
        &overview,
        hydro.reaches,
        hydro.lakes,
        biome_table.clone(),
        &mut files,
    )?;
    write_things(out, &things::default_table(), &mut files)?;

    let samples = locations.len() as u64 * (cfg.region_size as u64).pow(2);
    // A baked world has no holes: every sample stands.
    let census = Census {
        samples,
        holes: 0,
        ocean_share: totals.ocean as f64 / samples as f64,
        lake_share: totals.lake as f64 / samples as f64,
        biome_shares: biome_table
            .iter()
            .zip(totals.biomes)
            .filter(|(_, n)| *n > 0)
            .map(|(b, n)| (b.name.clone(), n as f64 / samples as f64))
            .collect(),
    };
    let bytes: u64 = files.values().map(|f| f.bytes).sum();
    let manifest = Manifest {
        format: manifest::FORMAT_NAME.into(),
        format_version: manifest::FORMAT_VERSION,
        bake_version: BAKE_VERSION,
        seed: cfg.seed.clone(),
        seed_hash: format!("{seed:016x}"),
        region_size: cfg.region_size,
        vertex_spacing: cfg.spacing,
        region_bounds: bounds,
        height_range: [totals.min_height, totals.max_height],
        sea_level: Some(cfg.sea_level as f32),
        layers: Manifest::all_layers(),
        overview: OverviewInfo::of(&overview),
        files,
        census: census.clone(),
    };
    write(&manifest_path, &manifest::pretty_json(&manifest))?;
    lap("write", &mut seconds);
    Ok(BakeReport {
        regions: locations.len(),
        bytes,
        reaches,
        lakes,
        census,
        height_range: manifest.height_range,
        seconds,
    })
}
