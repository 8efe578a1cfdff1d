//! `relief bake --planet`: a cube-sphere planet from a seed string. Continents and mountain
//! belts from 3-D noise; stream-power erosion and flow routing on a coarse cube-sphere grid
//! whose neighbours span face seams; lakes and river reaches; climate from latitude about
//! the polar axis; biomes, sediment and precipitation; then every tile at the face
//! resolution with detail synthesised up to it and wind-blown sand settled into its lows,
//! written to one PLNT blob.

pub mod climate;
pub mod detail;
pub mod erode;
pub mod fine_grid;
pub mod sand;
pub mod shape;
pub mod shore;
pub mod sphere;
pub mod tiles;
pub mod water;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::bake::biomes;
use crate::bake::climate::RUNOFF_REFERENCE_MM;
use crate::bake::ground;
use crate::bake::noise::Noise3;
use crate::bake::routing::{Flow, Graph};
use crate::progress::Progress;
use relief::error::FormatError;
use relief::glam::DVec3;
use relief::hash::fnv1a;
use relief::planet::blob::TileKey;
use relief::planet::cube::{self, Projection};
use relief::planet::format::{self, standard_fields};
use relief::planet::tables::{encode_lakes, encode_reaches, PlanetCensus, PlanetReach};
use relief::planet::writer::{encode_tile, BlobSpec, BlobWriter};
use relief::reach::ReachKind;

/// The planet baker's algorithm version (in every blob's header). 3: sediment stored as u16
/// millimetres (1/1024 m) instead of f32, and tiles written with LZ4-HC. 4: 36 ground classes
/// from their causes (`bake::classify`), with shore exposure and height above drainage.
/// 5: rivers, lakes, soils and drainage found on the fine grid (the face resolution, or half
/// of it past 2048²) and channels cut into the ground; a continental shelf. 6: low coasts
/// take Dean's shoreface and a beach (`shore`); exposure spreads from the shore's nodes;
/// floods level floodplains beside rivers draining 50 km² or more. 7: water spreads, in
/// erosion and on the fine grid (each node's receiver drawn with multiple-flow weights,
/// `routing::Flow::Spread`), so networks branch instead of running in parallel lines.
/// 8: erosion runs to its steady state (K = 1 against 2·10⁻⁴), so the valleys are cut by
/// rivers rather than left from the continents' domes: Hack's law holds, and low coasts
/// give coastal plains; its discharge is drained area weighted by runoff
/// (`bake::climate::runoff`), so deserts' rivers cut slowly and dry closed basins stay closed.
/// 9: wind-blown sand (`sand`, `bake::aeolian`): dry rivers drop their load, the winds carry
/// it downwind to basins and desert margins, and it settles into the lows of the ground,
/// raising it: sand seas with dunes in the hot deserts. Wetness is the topographic wetness
/// index (`ground::soils`), and wetland needs a humid climate: marshes in wet hollows and
/// flats rather than only beside a few large rivers. 10: rivers' plumes lay mud off their
/// mouths (`ground::plume_mud`), so reefs break there. 11: a placement table (`THNG`, the
/// flat bake's default, `bake::things`).
pub const PLANET_BAKE_VERSION: u32 = 11;

#[derive(Clone, Debug, PartialEq)]
pub struct PlanetConfig {
    pub seed: String,
    /// Metres.
    pub radius: f64,
    /// Samples per face side (a multiple of `tile_size`).
    pub face_resolution: u32,
    pub tile_size: u32,
    /// Samples per face side of the erosion grid (≤ face resolution).
    pub erosion_resolution: u32,
    /// Unit vector the latitudes are measured from.
    pub polar_axis: DVec3,
    /// Height the highest peak is scaled to, metres.
    pub top: f64,
    /// 7 (every field) or 6 (the v6 fields only).
    pub version: u32,
    /// Worker threads for the tile pass (0 = one per core).
    pub threads: usize,
}

impl PlanetConfig {
    /// The seed's 50 km planet at a 1024² face (use `face_resolution` 4096 for the full one).
    pub fn new(seed: &str) -> PlanetConfig {
        PlanetConfig {
            seed: seed.to_string(),
            radius: 50_000.0,
            face_resolution: 1024,
            tile_size: 256,
            erosion_resolution: 256,
            polar_axis: DVec3::Y,
            top: 2600.0,
            version: format::VERSION,
            threads: 0,
        }
    }

    /// Samples per face side of the grid rivers and lakes are found on: the face resolution,
    /// or half of it past 2048² (two cells of 19 m on the 4096² planet), and never past
    /// 4096² (a fine grid of 100 M nodes takes about 6 GB to route).
    pub fn water_resolution(&self) -> u32 {
        let n = self.face_resolution;
        if n <= 2048 {
            n
        } else {
            (n / 2).min(4096)
        }
    }

    fn thread_count(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        } else {
            self.threads
        }
    }

    fn check(&self) -> Result<(), FormatError> {
        let bad = |m: String| Err(FormatError::Corrupt(format!("planet bake: {m}")));
        let (n, t) = (self.face_resolution, self.tile_size);
        if !(8..=16_384).contains(&n) || t < 8 || n % t != 0 {
            return bad(format!(
                "face resolution {n} must be a multiple of the tile size {t}"
            ));
        }
        if !(8..=n).contains(&self.erosion_resolution) {
            return bad(format!(
                "erosion resolution {} must be 8–{n}",
                self.erosion_resolution
            ));
        }
        if !(self.radius.is_finite() && self.radius >= 1000.0) {
            return bad(format!("radius {} m (at least 1 km)", self.radius));
        }
        let p = self.polar_axis;
        if ((p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - 1.0).abs() > 1e-9 {
            return bad(format!("polar axis {p:?} must be a unit vector"));
        }
        if !(6..=7).contains(&self.version) {
            return bad(format!("version {}", self.version));
        }
        Ok(())
    }
}

/// One tile's stored bytes per field and its census counts.
type BakedTile = (Vec<Vec<u8>>, tiles::Tally);

/// Everything a planet's tiles are made from: the coarse grid with its climate, and the
/// fine grid with the ground after water has shaped it.
pub struct Landscape {
    pub grid: sphere::SphereGrid,
    /// Mean annual precipitation per coarse node, mm.
    pub precipitation: Vec<f64>,
    /// Shore exposure per coarse node (see [`ground::exposure`]).
    pub exposure: Vec<f64>,
    /// Wind-blown sand per coarse node.
    pub sand: sand::Sand,
    /// The depth of sand settled on each fine node, metres (in `water.height` already).
    pub sand_depth: Vec<f32>,
    pub fine: fine_grid::FineGrid,
    pub water: water::Water,
}

/// The planet's ground, climate and water, as [`bake_planet`] makes them before its tiles.
pub fn landscape(cfg: &PlanetConfig, progress: &dyn Progress) -> Result<Landscape, FormatError> {
    cfg.check()?;
    let seed = fnv1a(&cfg.seed);
    let grid = sphere::SphereGrid::new(cfg.erosion_resolution, cfg.radius, Projection::EquiAngular);
    let mut shape = shape::build(&grid, seed);
    // Water spreads: each node's receiver is drawn with multiple-flow weights, so networks
    // branch instead of running in parallel lines (`routing::Flow`).
    let flow = Flow::Spread { seed };
    let setup = erode::ErosionSetup {
        flow,
        ..Default::default()
    };
    // The runoff of the relief as it will stand once scaled to `top`, against 500 mm/yr.
    let runoff = |s: &shape::Shape| {
        let scale = cfg.top / erode::land_top(s).max(1.0);
        let scaled: Vec<f64> = s.height.iter().map(|v| v.max(0.0) * scale).collect();
        climate::runoff_field(&grid, &scaled, &s.ocean, cfg.polar_axis)
            .into_iter()
            .map(|q| q / RUNOFF_REFERENCE_MM)
            .collect()
    };
    erode::erode(&grid, &mut shape, &setup, &runoff, progress);
    erode::rescale_land(&mut shape, cfg.top);
    let precipitation = climate::precipitation(&grid, &shape.height, &shape.ocean, cfg.polar_axis);
    let exposure = sphere_exposure(&grid, &shape.height);
    let sand = sand::blow(
        &grid,
        &shape.height,
        &shape.ocean,
        &precipitation,
        &exposure,
        cfg.polar_axis,
    );

    // Water on the fine grid: rivers drain at least 1/20,000 of the sphere (1.6 km² at
    // R = 50 km) and ten cells.
    progress.start("rivers and lakes", 1);
    let fine = fine_grid::FineGrid::new(cfg.water_resolution(), cfg.radius);
    let detail = Noise3::new(seed, 201);
    let mut ground = detail::heights(&grid, &shape.height, &detail, &fine, cfg.thread_count());
    shore::equilibrate(&fine, &mut ground);
    let sphere_area = 4.0 * std::f64::consts::PI * cfg.radius * cfg.radius;
    let river_area = (sphere_area * 5e-5).max(10.0 * sphere_area / fine.node_count() as f64);
    let mut water = water::analyse(&fine, ground, river_area, flow);
    let sand_depth = sand.settle(&grid, &shape.height, &fine, &mut water, cfg.thread_count());
    progress.finish();
    Ok(Landscape {
        grid,
        precipitation,
        exposure,
        sand,
        sand_depth,
        fine,
        water,
    })
}

/// Bakes a planet into the blob at `out`; returns its census.
pub fn bake_planet(
    cfg: &PlanetConfig,
    out: &Path,
    progress: &dyn Progress,
) -> Result<PlanetCensus, FormatError> {
    let Landscape {
        grid,
        precipitation,
        exposure,
        sand,
        sand_depth,
        fine,
        water,
    } = landscape(cfg, progress)?;
    let threads = cfg.thread_count();
    let narrow = |v: Vec<f64>| v.into_iter().map(|x| x as f32).collect::<Vec<f32>>();
    let (sediment, wetness) = ground::soils(
        &fine,
        &water.height,
        0.0,
        &water.ocean,
        &water.routing,
        &water.area,
        &water.lake,
    );
    // The rivers' plumes muddy the sea off their mouths.
    let mud = ground::plume_mud(
        &fine,
        &water.ocean,
        &water.routing,
        &water.area,
        &water.channel,
    );
    let sediment: Vec<f32> = sediment
        .into_iter()
        .zip(mud)
        .map(|(s, m)| (s + m as f64) as f32)
        .collect();
    let wetness = narrow(wetness);
    let (above_drainage, channel_area_km2) =
        ground::drainage(&water.height, &water.routing, &water.area, &water.channel);
    let (above_drainage, channel_area_km2) = (narrow(above_drainage), narrow(channel_area_km2));
    let water::Water {
        height,
        lake,
        lakes,
        reaches,
        ..
    } = water;
    let height = narrow(height);
    let lake_levels: Vec<f32> = lakes.iter().map(|l| l.level_m).collect();
    let coarse = tiles::Coarse {
        grid: &grid,
        precipitation: &precipitation,
        exposure: &exposure,
        sand: &sand,
        pole: cfg.polar_axis,
    };
    let fine = tiles::Fine {
        grid: &fine,
        height: &height,
        sediment: &sediment,
        wetness: &wetness,
        above_drainage: &above_drainage,
        channel_area_km2: &channel_area_km2,
        lake: &lake,
        lake_levels: &lake_levels,
        sand: &sand_depth,
    };

    let mut fields = standard_fields();
    if cfg.version == 6 {
        fields.retain(|f| f.since <= 6);
    }
    let keep = fields.len();
    let (n, t) = (cfg.face_resolution, cfg.tile_size);
    let spec = BlobSpec {
        version: cfg.version,
        bake_version: PLANET_BAKE_VERSION,
        radius: cfg.radius,
        face_resolution: n,
        tile_size: t,
        projection: Projection::EquiAngular,
        polar_axis: cfg.polar_axis,
        height_range: [0.0, 0.0],
        sea_level: 0.0,
        seed: fnv1a(&cfg.seed),
        fields: fields.clone(),
    };
    let mut writer = BlobWriter::create(out, spec)?;
    let tps = (n / t) as usize;
    let keys: Vec<TileKey> = (0..6u8)
        .flat_map(|face| {
            (0..tps).flat_map(move |ty| {
                (0..tps).map(move |tx| TileKey {
                    face,
                    tx: tx as u16,
                    ty: ty as u16,
                })
            })
        })
        .collect();
    progress.start("planet tiles", keys.len() as u64);
    let mut tally = tiles::Tally::default();
    // Batches in key order keep the blob byte-identical at any thread count.
    for batch in keys.chunks(threads * 4) {
        let next = AtomicUsize::new(0);
        let slots: Vec<parking_lot::Mutex<Option<BakedTile>>> = batch
            .iter()
            .map(|_| parking_lot::Mutex::new(None))
            .collect();
        std::thread::scope(|s| {
            for _ in 0..threads.min(batch.len()) {
                s.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&key) = batch.get(k) else { break };
                    let (raw, tally) = tiles::bake_tile(&coarse, &fine, n, t, key);
                    let stored = raw
                        .iter()
                        .zip(&fields)
                        .map(|(r, f)| encode_tile(f, r))
                        .collect();
                    *slots[k].lock() = Some((stored, tally));
                    progress.inc(1);
                });
            }
        });
        for (key, slot) in batch.iter().zip(slots) {
            let (mut stored, t) = slot.into_inner().expect("every tile of the batch baked");
            stored.truncate(keep);
            writer.add_tile(*key, &stored)?;
            tally.add(&t);
        }
    }
    progress.finish();

    let census = census_of(&tally, &reaches, lakes.len(), cfg.radius);
    let overview = overview(fine.grid, fine.height, 64.min(n));
    let biome_names: Vec<String> = biomes::table().into_iter().map(|b| b.name).collect();
    let sections = vec![
        (format::SEED_TEXT, cfg.seed.as_bytes().to_vec()),
        (format::BIOMES, serde_json::to_vec(&biome_names).unwrap()),
        (format::RIVERS, encode_reaches(&reaches)),
        (format::LAKES, encode_lakes(&lakes)),
        (format::OVERVIEW, overview),
        (format::CENSUS, serde_json::to_vec(&census).unwrap()),
        (
            format::THINGS,
            serde_json::to_vec(&crate::bake::things::default_table()).unwrap(),
        ),
    ];
    writer.set_height_range([census.height_min, census.height_max]);
    writer.finish(&sections)?;
    Ok(census)
}

/// Exposure of every coarse node: rays along great circles (p cos φ + t sin φ), so cube
/// seams are no matter by construction.
fn sphere_exposure(g: &sphere::SphereGrid, h: &[f64]) -> Vec<f64> {
    let cell = g.radius * std::f64::consts::FRAC_PI_2 / g.m as f64;
    let max_fetch = (20_000.0f64).min(g.radius);
    let angles: Vec<(f64, f64)> = (0..ground::EXPOSURE_RAYS)
        .map(|r| {
            let a = r as f64 * std::f64::consts::TAU / ground::EXPOSURE_RAYS as f64;
            (a.cos(), a.sin())
        })
        .collect();
    ground::exposure(h, 0.0, cell, max_fetch, 3.0 * cell, |k, ray| {
        // The great circle from the node's direction d along tangent t, set up once a ray.
        let d = g.dir(k);
        let seed = if d.y.abs() < 0.9 { DVec3::Y } else { DVec3::X };
        let e = cube::normalize(seed.cross(d));
        let n = d.cross(e);
        let (c, s) = angles[ray];
        let t = c * e + s * n;
        move |dist: f64| {
            let phi = dist / g.radius;
            let (cp, sp) = (phi.cos(), phi.sin());
            g.sample(h, d * cp + t * sp) < 0.0
        }
    })
}

fn census_of(t: &tiles::Tally, reaches: &[PlanetReach], lakes: usize, radius: f64) -> PlanetCensus {
    let s = t.samples.max(1) as f64;
    let mut shares = std::collections::BTreeMap::new();
    for (k, &count) in t.biomes.iter().enumerate() {
        if count > 0 {
            let name = biomes::table()[k].name.clone();
            shares.insert(name, count as f64 / s);
        }
    }
    let km = |kind: ReachKind| {
        reaches
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| {
                r.points
                    .windows(2)
                    .map(|p| {
                        let a = DVec3::new(p[0][0] as f64, p[0][1] as f64, p[0][2] as f64);
                        let b = DVec3::new(p[1][0] as f64, p[1][1] as f64, p[1][2] as f64);
                        cube::angle(a, b) * radius / 1000.0
                    })
                    .sum::<f64>()
            })
            .sum::<f64>()
    };
    PlanetCensus {
        samples: t.samples,
        ocean_share: t.ocean as f64 / s,
        lake_share: t.lake as f64 / s,
        biome_shares: shares,
        river_km: km(ReachKind::River),
        creek_km: km(ReachKind::Creek),
        reaches: reaches.len() as u32,
        river_points: reaches.iter().map(|r| r.points.len() as u64).sum(),
        lakes: lakes as u32,
        height_min: t.height_min,
        height_max: t.height_max,
    }
}

/// The OVRV section: u32 m, then 6·m² f32 heights at cell centres of an m² face grid.
fn overview(g: &fine_grid::FineGrid, h: &[f32], m: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + 6 * (m as usize).pow(2) * 4);
    out.extend_from_slice(&m.to_le_bytes());
    for face in 0..6 {
        for j in 0..m {
            for i in 0..m {
                let d = cube::direction(
                    Projection::EquiAngular,
                    face,
                    cube::coord_of(i as f64, m),
                    cube::coord_of(j as f64, m),
                );
                out.extend_from_slice(&(g.sample_at(&g.stencil(d), h) as f32).to_le_bytes());
            }
        }
    }
    out
}
