//! One tile of every field at the face resolution, read off the fine grid (where water has
//! already shaped the ground) and the coarse climate fields, both sampled across seams; then
//! each sample's ground class, lake, sediment and precipitation. A tile depends only on its
//! key and those fields, so tiles bake in parallel and come out the same on any thread.

use crate::bake::biomes::BiomeId;
use crate::bake::classify::{classify, Site};
use relief::glam::DVec3;
use relief::planet::blob::TileKey;
use relief::planet::cube::{self, Projection};
use relief::planet::format::{PRECIPITATION_SCALE, SEDIMENT_SCALE};

use super::climate;
use super::fine_grid::FineGrid;
use super::sand::Sand;
use super::sphere::SphereGrid;

/// The coarse grid's climate fields.
pub struct Coarse<'a> {
    pub grid: &'a SphereGrid,
    pub precipitation: &'a [f64],
    pub exposure: &'a [f64],
    pub sand: &'a Sand,
    pub pole: DVec3,
}

/// The fine grid's fields: the ground and what water made of it.
pub struct Fine<'a> {
    pub grid: &'a FineGrid,
    pub height: &'a [f32],
    pub sediment: &'a [f32],
    pub wetness: &'a [f32],
    pub above_drainage: &'a [f32],
    pub channel_area_km2: &'a [f32],
    pub lake: &'a [u16],
    pub lake_levels: &'a [f32],
    /// Sand settled on each node, metres.
    pub sand: &'a [f32],
}

/// Tangent of the angle of repose (35°) of a planet's rock, everywhere.
pub const TAN_REPOSE: f64 = 0.7;

/// Per-tile counts for the census.
#[derive(Clone, Debug)]
pub struct Tally {
    pub samples: u64,
    pub ocean: u64,
    pub lake: u64,
    pub biomes: [u64; BiomeId::COUNT],
    pub height_min: f32,
    pub height_max: f32,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            samples: 0,
            ocean: 0,
            lake: 0,
            biomes: [0; BiomeId::COUNT],
            height_min: 0.0,
            height_max: 0.0,
        }
    }
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        if self.samples == 0 {
            self.height_min = o.height_min;
            self.height_max = o.height_max;
        } else {
            self.height_min = self.height_min.min(o.height_min);
            self.height_max = self.height_max.max(o.height_max);
        }
        self.samples += o.samples;
        self.ocean += o.ocean;
        self.lake += o.lake;
        for (a, b) in self.biomes.iter_mut().zip(o.biomes) {
            *a += b;
        }
    }
}

/// The five fields' raw little-endian samples (height f32, biome u8, lake u16, sediment u16
/// in [`SEDIMENT_SCALE`] steps, precipitation u16 in [`PRECIPITATION_SCALE`] steps), in the
/// standard field order.
pub fn bake_tile(c: &Coarse, f: &Fine, n: u32, t: u32, key: TileKey) -> (Vec<Vec<u8>>, Tally) {
    let p = Projection::EquiAngular;
    let cell = f.grid.radius * std::f64::consts::FRAC_PI_2 / n as f64;
    let w = t as usize + 2;
    // Heights over the tile and a one-sample border (for slopes), the border continuing the
    // face's own projection just past its edge.
    let mut hh = vec![0.0f64; w * w];
    let mut dirs = vec![DVec3::ZERO; w * w];
    let mut stencils = Vec::with_capacity(w * w);
    for ((h, d), k) in hh.iter_mut().zip(&mut dirs).zip(0..) {
        let gi = key.tx as f64 * t as f64 + (k % w) as f64 - 1.0;
        let gj = key.ty as f64 * t as f64 + (k / w) as f64 - 1.0;
        *d = cube::direction(
            p,
            key.face as usize,
            cube::coord_of(gi, n),
            cube::coord_of(gj, n),
        );
        let st = f.grid.stencil(*d);
        *h = f.grid.sample_at(&st, f.height);
        stencils.push(st);
    }
    let tt = (t * t) as usize;
    let mut height = Vec::with_capacity(tt * 4);
    let mut biome = Vec::with_capacity(tt);
    let mut lake = Vec::with_capacity(tt * 2);
    let mut sediment = Vec::with_capacity(tt * 2);
    let mut precip = Vec::with_capacity(tt * 2);
    let mut tally = Tally {
        height_min: f32::INFINITY,
        height_max: f32::NEG_INFINITY,
        ..Tally::default()
    };
    for j in 1..w - 1 {
        for i in 1..w - 1 {
            let k = j * w + i;
            let (h, d) = (hh[k], dirs[k]);
            let gx = (hh[k + 1] - hh[k - 1]) / (2.0 * cell);
            let gz = (hh[k + w] - hh[k - w]) / (2.0 * cell);
            let slope = (gx * gx + gz * gz).sqrt();
            let node = f.grid.nearest(d);
            let lake_id = f.lake[node];
            let level = if lake_id > 0 {
                f.lake_levels[lake_id as usize - 1] as f64
            } else {
                f64::MIN
            };
            let in_lake = lake_id > 0 && h < level;
            let fine = &stencils[k];
            // One stencil for the coarse fields at this sample.
            let st = c.grid.stencil(d);
            let soil = f.grid.sample_at(fine, f.sediment).max(0.0);
            // On dry land the wind has sorted the loose sediment (`sand`).
            let soil = if h >= 0.0 && !in_lake {
                c.sand
                    .sediment(c.grid, &st, soil, f.grid.sample_at(fine, f.sand))
            } else {
                soil
            };
            let rain = c.grid.sample_at(&st, c.precipitation).max(0.0);
            let site = Site {
                height: h,
                sea_level: 0.0,
                temperature: climate::temperature(d, h, c.pole),
                precipitation: rain,
                slope,
                tan_repose: TAN_REPOSE,
                lake_depth: if in_lake { level - h } else { 0.0 },
                wetness: f.grid.sample_at(fine, f.wetness),
                sediment: soil,
                above_drainage: f.grid.sample_at(fine, f.above_drainage),
                channel_area_km2: f.channel_area_km2[node] as f64,
                exposure: shore_exposure(c.grid, &st, c.exposure),
            };
            let b = classify(&site);
            let sed = if b == BiomeId::BareRock { 0.0 } else { soil };
            height.extend_from_slice(&(h as f32).to_le_bytes());
            biome.push(b as u8);
            lake.extend_from_slice(&(if in_lake { lake_id } else { 0 }).to_le_bytes());
            sediment.extend_from_slice(
                &((sed / SEDIMENT_SCALE as f64).round().min(65_535.0) as u16).to_le_bytes(),
            );
            precip.extend_from_slice(
                &((rain / PRECIPITATION_SCALE as f64).round().min(65_535.0) as u16).to_le_bytes(),
            );
            tally.samples += 1;
            tally.ocean += (h < 0.0 && !in_lake) as u64;
            tally.lake += in_lake as u64;
            tally.biomes[b as usize] += 1;
            tally.height_min = tally.height_min.min(h as f32);
            tally.height_max = tally.height_max.max(h as f32);
        }
    }
    (vec![height, biome, lake, sediment, precip], tally)
}

/// Exposure belongs to the shore: only the coarse nodes that are on one (exposure above 0)
/// are blended, with their bilinear weights renormalised, so a beach between a sea node and
/// a land node that stands well above the water carries the shore's exposure rather than
/// half of it. 0 where no node of the stencil is on a shore.
fn shore_exposure(g: &SphereGrid, st: &cube::Stencil, exposure: &[f64]) -> f64 {
    let (mut sum, mut total) = (0.0, 0.0);
    for (at, w) in st.at.iter().zip(st.weights()) {
        if let Some((f, i, j)) = *at {
            let v = exposure[g.index(f, i, j)];
            if v > 0.0 {
                sum += w * v;
                total += w;
            }
        }
    }
    if total > 0.0 {
        sum / total
    } else {
        0.0
    }
}
