//! Worlds from terrain made elsewhere: Terrain3D regions (`relief import terrain3d`) or a
//! heightmap from another tool (`relief import heightmap`) become a relief world with the
//! maps exactly as given, and rivers, lakes, biomes and an overview worked out from them.
//!
//! The importer keeps heights, control words and colors bit for bit. What a bake would
//! generate comes from them instead: the hydrology (depression filling, flow routing,
//! accumulation, reaches and lakes, as in [`crate::bake::hydrology`]) runs on block means of
//! the heights ([`coarse`]), which are also the overview; the lake layer marks samples below
//! their lake's level; the biome layer is the base texture id of each control word, named by
//! the caller's table or `texture N`.

pub mod coarse;
pub mod heightmap;
pub mod terrain3d;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::bake::depressions::{self, Depressions, LakeRules};
use crate::bake::routing::Flow;
use crate::bake::{self, hydrology};
use crate::progress::Progress;
use crate::write::{self, WriteError};
use relief::flat::control::Control;
use relief::flat::manifest::{self, Census, FileEntry, Manifest, OverviewInfo, RegionBounds};
use relief::flat::region_writer::{encode_region, CodecProfile};
use relief::flat::tables::Biome;
use relief::flat::{Region, RegionLocation};

/// Precipitation assumed everywhere on imported ground, mm a year: it only scales the
/// rivers' discharge figures, never where they run.
pub const IMPORT_PRECIPITATION_MM: f64 = 800.0;

/// The highest and deepest ground an import takes, metres: ten times Everest, and below any
/// ocean trench; a value beyond is a no-data marker (±3.4e38) or a mistake of scale, and
/// would flatten the ε steps routing relies on.
pub const MAX_HEIGHT_M: f32 = 100_000.0;

/// One region's maps as imported: `region_size²` samples each, row-major with X fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedRegion {
    pub location: RegionLocation,
    pub height: Vec<f32>,
    /// Terrain3D control words; `None` imports as [`Control::BLANK`] everywhere.
    pub control: Option<Vec<u32>>,
    /// RGBA8; `None` imports as Terrain3D's blank color (white, roughness 0.5).
    pub color: Option<Vec<[u8; 4]>>,
}

/// How to turn imported regions into a world.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportSettings {
    /// What the world is called in its manifest's `seed` field (e.g. `terrain3d:demo`).
    pub name: String,
    /// Samples per region side (a power of two, 64–2048).
    pub region_size: u32,
    /// Metres between samples.
    pub vertex_spacing: f64,
    /// Ground below this is sea: water leaves the world there. `None`: no sea; water leaves
    /// only over the world's edge and into holes and missing regions.
    pub sea_level: Option<f32>,
    /// Which depressions and flat water surfaces hold lakes, and whether the rest are
    /// breached or filled ([`LakeRules::import`] of breaching by default, a DEM's rule;
    /// `relief import terrain3d` uses `lakes`, hand-made ground's).
    pub lakes: LakeRules,
    /// Biome names by Terrain3D texture id; ids not named become `texture N`.
    pub biome_names: BTreeMap<u8, String>,
    /// The placement table the world carries (`things.json`), its densities keyed by those
    /// biome names; `None`: no placed things.
    pub things: Option<relief::things::ThingsFile>,
    pub codecs: CodecProfile,
    /// Worker threads for the region pass; 0 = one per core.
    pub threads: usize,
}

impl ImportSettings {
    pub fn new(name: &str, region_size: u32, vertex_spacing: f64) -> ImportSettings {
        ImportSettings {
            name: name.into(),
            region_size,
            vertex_spacing,
            sea_level: None,
            lakes: LakeRules::import(Depressions::Breach),
            biome_names: BTreeMap::new(),
            things: None,
            codecs: CodecProfile::Fast,
            threads: 0,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{0}")]
    Settings(String),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Terrain3d {
        path: PathBuf,
        source: crate::terrain3d::ResError,
    },
    #[error("{path}: {problem}")]
    Heightmap { path: PathBuf, problem: String },
    /// A file refused before it was parsed: not a regular file, or larger than relief reads.
    #[error(transparent)]
    Read(#[from] relief::FormatError),
}

impl From<WriteError> for ImportError {
    fn from(e: WriteError) -> ImportError {
        ImportError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

/// What an import made.
#[derive(Clone, Debug)]
pub struct ImportReport {
    pub regions: usize,
    /// Bytes of maps taken in (height, control and color, 12 a sample).
    pub map_bytes: u64,
    /// Bytes of the world written.
    pub bytes: u64,
    pub reaches: usize,
    pub lakes: usize,
    pub height_range: [f32; 2],
    pub census: Census,
    /// Samples per side of a hydrology node.
    pub hydrology_factor: usize,
    /// Depressions breached or filled, and lakes by what made them.
    pub depressions: depressions::Counts,
}

/// The biome classes of an import: one per distinct name among the texture ids in use, in
/// texture id order, and the class of each of the 32 texture ids.
pub fn biome_classes(names: &BTreeMap<u8, String>, used: &[bool; 32]) -> (Vec<Biome>, [u8; 32]) {
    // Distinct enough colors for `relief preview`, in class order.
    const PALETTE: [[u8; 3]; 12] = [
        [96, 140, 62],
        [150, 120, 80],
        [130, 130, 130],
        [210, 190, 130],
        [60, 100, 60],
        [235, 235, 240],
        [170, 150, 60],
        [110, 80, 60],
        [80, 130, 120],
        [180, 100, 80],
        [120, 110, 160],
        [70, 70, 70],
    ];
    let mut biomes: Vec<Biome> = Vec::new();
    let mut class = [0u8; 32];
    for id in (0..32u8).filter(|&i| used[i as usize]) {
        let name = names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("texture {id}"));
        class[id as usize] = match biomes.iter().position(|b| b.name == name) {
            Some(i) => i as u8,
            None => {
                let i = biomes.len() as u8;
                biomes.push(Biome {
                    id: i,
                    name,
                    color: PALETTE[i as usize % PALETTE.len()],
                });
                i
            }
        };
    }
    if biomes.is_empty() {
        biomes.push(Biome {
            id: 0,
            name: "texture 0".into(),
            color: PALETTE[0],
        });
    }
    (biomes, class)
}

/// Checks the regions fit the settings: sizes, spacing, locations, no location twice.
fn check(regions: &[ImportedRegion], s: &ImportSettings) -> Result<RegionBounds, ImportError> {
    let bad = |m: String| Err(ImportError::Settings(m));
    if !s.region_size.is_power_of_two() || !(64..=2048).contains(&s.region_size) {
        return bad(format!(
            "region size {} must be a power of two from 64 to 2048",
            s.region_size
        ));
    }
    if !(manifest::MIN_SPACING..=manifest::MAX_SPACING).contains(&s.vertex_spacing) {
        return bad(format!(
            "vertex spacing {} m must be within {}–{} m",
            s.vertex_spacing,
            manifest::MIN_SPACING,
            manifest::MAX_SPACING
        ));
    }
    if let Some(sea) = s.sea_level.filter(|h| !h.is_finite()) {
        return bad(format!("sea level {sea} m is not a height"));
    }
    let l = &s.lakes;
    let metres = |v: f64| v.is_finite() && v >= 0.0;
    if !(metres(l.min_depth_m) && metres(l.min_area_m2)) {
        return bad(format!(
            "lake depth {} m and area {} m² must be finite and not negative",
            l.min_depth_m, l.min_area_m2
        ));
    }
    let Some(first) = regions.first() else {
        return bad("there are no regions to import".into());
    };
    let n = (s.region_size as usize).pow(2);
    let mut bounds = RegionBounds {
        min: [first.location.x, first.location.z],
        max: [first.location.x, first.location.z],
    };
    let mut seen = std::collections::HashSet::new();
    for r in regions {
        let l = r.location;
        if ![l.x, l.z]
            .iter()
            .all(|c| c.abs() <= manifest::MAX_REGION_COORD)
        {
            return bad(format!("region {l:?} lies too far out"));
        }
        if !seen.insert(l) {
            return bad(format!("region {l:?} is given twice"));
        }
        let lens = [
            Some(r.height.len()),
            r.control.as_ref().map(Vec::len),
            r.color.as_ref().map(Vec::len),
        ];
        if lens.iter().flatten().any(|&len| len != n) {
            return bad(format!(
                "region {l:?}: every map must hold {} × {} samples",
                s.region_size, s.region_size
            ));
        }
        bounds.min = [bounds.min[0].min(l.x), bounds.min[1].min(l.z)];
        bounds.max = [bounds.max[0].max(l.x), bounds.max[1].max(l.z)];
    }
    if !regions.iter().any(|r| (0..n).any(|k| coarse::stands(r, k))) {
        return bad("there is no ground: every sample is a hole, no data or not finite".into());
    }
    for r in regions {
        if let Some(k) = (0..n).find(|&k| coarse::stands(r, k) && r.height[k].abs() > MAX_HEIGHT_M)
        {
            return bad(format!(
                "region {:?}: a sample {} m high is no ground (heights are within ±{MAX_HEIGHT_M} \
                 m): a no-data value? (relief import heightmap --no-data V)",
                r.location, r.height[k]
            ));
        }
    }
    Ok(bounds)
}

/// Writes `regions` as a relief world into `out` (created if missing; an earlier world there
/// is replaced). The manifest is written last, so an interrupted import never leaves a world
/// that opens.
pub fn write_world(
    regions: &[ImportedRegion],
    s: &ImportSettings,
    out: &Path,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    let bounds = check(regions, s)?;
    let coarse = coarse::build(
        regions,
        bounds,
        s.region_size,
        s.vertex_spacing,
        s.sea_level,
    );
    let grid = coarse.grid;
    // Everything the reader checks of what is written is checked before anything is: the
    // overview (its grid follows the regions' extent) must read back.
    let overview = grid.overview(&coarse.height);
    relief::flat::overview::Overview::decode(&overview.encode()).map_err(|e| {
        ImportError::Settings(format!(
            "regions spanning {:?}..{:?} give an overview relief can't read ({e}): import \
             regions that lie closer together",
            bounds.min, bounds.max
        ))
    })?;
    let manifest_path = write::prepare_world_dir(out)?;
    let precip = vec![IMPORT_PRECIPITATION_MM; grid.len()];
    // Imported ground keeps steepest descent: its valleys are real, and the same file must
    // always give the same rivers without a seed.
    let hydro = hydrology::analyse(
        &grid,
        &coarse.height,
        &coarse.outlet,
        &precip,
        Flow::Steepest,
        &s.lakes,
    );
    let mut levels = vec![f32::INFINITY];
    levels.extend(hydro.lakes.iter().map(|l| l.level_m));

    let mut used = [false; 32];
    for r in regions {
        match &r.control {
            Some(c) => c.iter().for_each(|&w| used[(w >> 27) as usize] = true),
            None => used[0] = true,
        }
    }
    let (biome_table, class) = biome_classes(&s.biome_names, &used);
    // A table naming a biome this world doesn't have is refused before any region is written.
    if let Some(table) = &s.things {
        let names: Vec<&str> = biome_table.iter().map(|b| b.name.as_str()).collect();
        relief::things::Rules::compile(table, &names)
            .map_err(|e| ImportError::Settings(format!("--things: {e}")))?;
    }

    let sea = s.sea_level.unwrap_or(f32::NEG_INFINITY);
    let size = s.region_size as usize;
    type Written = Result<(FileEntry, Tally), ImportError>;
    let results: Mutex<Vec<Option<Written>>> = Mutex::new(regions.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let threads = match s.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        t => t,
    };
    progress.start("regions", regions.len() as u64);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(regions.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(r) = regions.get(i) else { break };
                let (x0, z0) = r.location.origin(s.vertex_spacing, s.region_size);
                let mut tally = Tally::new(biome_table.len());
                let control = r
                    .control
                    .clone()
                    .unwrap_or_else(|| vec![Control::BLANK; size * size]);
                let mut biome = vec![0u8; size * size];
                let mut lake = vec![0u16; size * size];
                for k in 0..size * size {
                    biome[k] = class[(control[k] >> 27) as usize];
                    let h = r.height[k];
                    if !coarse::stands(r, k) {
                        continue;
                    }
                    let (x, z) = (
                        x0 + (k % size) as f64 * s.vertex_spacing,
                        z0 + (k / size) as f64 * s.vertex_spacing,
                    );
                    // At or below: a lake on a flat water surface stands at its height.
                    let id = hydro.lake[grid.nearest(x, z)];
                    let in_lake = id != 0 && h <= levels[id as usize];
                    lake[k] = if in_lake { id } else { 0 };
                    tally.add(h, in_lake, h < sea && !in_lake, biome[k]);
                }
                let region = Region {
                    location: r.location,
                    size: s.region_size,
                    height: r.height.clone().into(),
                    control: Some(control.into()),
                    color: Some(
                        r.color
                            .clone()
                            .unwrap_or_else(|| vec![crate::terrain3d::BLANK_COLOR; size * size])
                            .into(),
                    ),
                    biome: Some(biome.into()),
                    lake: Some(lake.into()),
                    mips: Vec::new(),
                };
                let path = out.join(Manifest::region_path(r.location));
                let written = write::write(&path, &encode_region(&region, s.codecs))
                    .map(|e| (e, tally))
                    .map_err(ImportError::from);
                results.lock().unwrap()[i] = Some(written);
                progress.inc(1);
            });
        }
    });
    progress.finish();

    let mut files = BTreeMap::new();
    let mut total = Tally::new(biome_table.len());
    for (r, w) in regions.iter().zip(results.into_inner().unwrap()) {
        let (entry, t) = w.expect("every region was written")?;
        files.insert(Manifest::region_path(r.location), entry);
        total.merge(&t);
    }
    let (reaches, lakes) = (hydro.reaches.len(), hydro.lakes.len());
    let hydro_counts = hydro.depressions;
    write::write_tables(
        out,
        &overview,
        hydro.reaches,
        hydro.lakes,
        biome_table.clone(),
        &mut files,
    )?;
    if let Some(table) = &s.things {
        write::write_things(out, table, &mut files)?;
    }

    // Shares of the ground given: holes and padding past the map's edge apart.
    let samples = total.standing;
    let share = |n: u64| n as f64 / samples.max(1) as f64;
    let census = Census {
        samples,
        holes: (regions.len() * size * size) as u64 - samples,
        ocean_share: share(total.ocean),
        lake_share: share(total.lake),
        biome_shares: biome_table
            .iter()
            .zip(&total.biomes)
            .filter(|(_, &n)| n > 0)
            .map(|(b, &n)| (b.name.clone(), share(n)))
            .collect(),
    };
    let height_range = if total.min <= total.max {
        [total.min, total.max]
    } else {
        [0.0, 0.0]
    };
    let manifest = Manifest {
        format: manifest::FORMAT_NAME.into(),
        format_version: manifest::FORMAT_VERSION,
        bake_version: bake::BAKE_VERSION,
        seed: s.name.clone(),
        seed_hash: format!("{:016x}", relief::hash::fnv1a(&s.name)),
        region_size: s.region_size,
        vertex_spacing: s.vertex_spacing,
        region_bounds: bounds,
        height_range,
        sea_level: s.sea_level,
        layers: Manifest::all_layers(),
        overview: OverviewInfo::of(&overview),
        files,
        census: census.clone(),
    };
    write::write(&manifest_path, &manifest::pretty_json(&manifest))?;
    Ok(ImportReport {
        regions: regions.len(),
        map_bytes: (regions.len() * size * size) as u64 * 12,
        bytes: manifest.files.values().map(|f| f.bytes).sum(),
        reaches,
        lakes,
        height_range,
        census,
        hydrology_factor: coarse.factor,
        depressions: hydro_counts,
    })
}

/// Counts over standing samples: how many, height range, lake, sea and biome samples.
struct Tally {
    min: f32,
    max: f32,
    standing: u64,
    lake: u64,
    ocean: u64,
    biomes: Vec<u64>,
}

impl Tally {
    fn new(classes: usize) -> Tally {
        Tally {
            min: f32::INFINITY,
            max: f32::NEG_INFINITY,
            standing: 0,
            lake: 0,
            ocean: 0,
            biomes: vec![0; classes],
        }
    }
    fn add(&mut self, h: f32, lake: bool, ocean: bool, biome: u8) {
        self.min = self.min.min(h);
        self.max = self.max.max(h);
        self.standing += 1;
        self.lake += lake as u64;
        self.ocean += ocean as u64;
        self.biomes[biome as usize] += 1;
    }
    fn merge(&mut self, o: &Tally) {
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        self.standing += o.standing;
        self.lake += o.lake;
        self.ocean += o.ocean;
        for (a, b) in self.biomes.iter_mut().zip(&o.biomes) {
            *a += b;
        }
    }
}
