//! The fine surface, one region at a time: the eroded grid interpolated bicubically, detail
//! noise on top (rougher where the land is steep), river channels carved along each reach so
//! the bed falls with it, lakes filled to their level, then a biome and a Terrain3D control
//! word per sample, and the color map painted from the biomes (`flat::tint`). Every sample is a pure function of its position and the shared
//! coarse fields, so regions are generated in parallel and still byte-identical.

use std::collections::HashMap;

use crate::bake::aeolian;
use crate::bake::biomes::{self, texture, BiomeId};
use crate::bake::classify::{self, Site};
use crate::bake::climate::ClimateSetup;
use crate::bake::grid::Grid;
use crate::bake::ground;
use crate::bake::hydrology::{channel_depth, Hydrology, CREEK_AREA_M2};
use crate::bake::noise::Noise;
use relief::flat::control::Control;
use relief::flat::location::RegionLocation;
use relief::flat::region::Region;
use relief::flat::tint::TintRecipe;
use relief::layer::plain;

/// Heights are stored to 1/1024 m: below any visible step, and it lets LZ4 find runs.
pub const HEIGHT_QUANTUM: f64 = 1.0 / 1024.0;
const NAVIGABLE_SLOPE: f64 = 0.9; // tan 42°: the party slides above this
const DETAIL_WAVELENGTH: f64 = 48.0;

/// One straight piece of a reach's centreline.
#[derive(Clone, Copy, Debug)]
struct Segment {
    a: (f64, f64),
    b: (f64, f64),
    bed: (f64, f64),
    half_width: (f64, f64),
}

impl Segment {
    fn reach(&self) -> f64 {
        let hw = self.half_width.0.max(self.half_width.1);
        hw + bank(hw)
    }
}

fn bank(half_width: f64) -> f64 {
    (2.0 * half_width).max(4.0)
}

/// Coarse fields shared by every region.
pub struct Surface {
    pub grid: Grid,
    pub height: Vec<f64>,
    pub lake: Vec<u16>,
    pub lake_levels: Vec<f64>,
    pub precip: Vec<f64>,
    pub tan_repose: Vec<f64>,
    pub wetness: Vec<f64>,
    pub sediment: Vec<f64>,
    /// Height above drainage (m) and the area of the channel drained to (km²).
    pub above_drainage: Vec<f64>,
    pub channel_area_km2: Vec<f64>,
    pub exposure: Vec<f64>,
    pub roughness: Vec<f64>,
    pub climate: ClimateSetup,
    pub sea_level: f64,
    pub region_size: u32,
    pub spacing: f64,
    detail: Noise,
    tint: TintRecipe,
    segments: Vec<Segment>,
    by_region: HashMap<RegionLocation, Vec<u32>>,
}

/// What a region contributed to the world's census.
#[derive(Clone, Debug)]
pub struct RegionCensus {
    pub min_height: f32,
    pub max_height: f32,
    pub ocean: u64,
    pub lake: u64,
    pub biomes: [u64; BiomeId::COUNT],
}

impl Default for RegionCensus {
    fn default() -> RegionCensus {
        RegionCensus {
            min_height: 0.0,
            max_height: 0.0,
            ocean: 0,
            lake: 0,
            biomes: [0; BiomeId::COUNT],
        }
    }
}

impl Surface {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        seed: u64,
        grid: Grid,
        hydro: &Hydrology,
        precip: Vec<f64>,
        tan_repose: Vec<f64>,
        ocean: &[bool],
        climate: ClimateSetup,
        sea_level: f64,
        region_size: u32,
        spacing: f64,
    ) -> Surface {
        let n = grid.len();
        let h = &hydro.height;
        let slope: Vec<f64> = (0..n)
            .map(|k| {
                let r = hydro.routing.recv[k] as usize;
                if r == k {
                    0.0
                } else {
                    ((h[k] - h[r]) / hydro.routing.dist[k]).max(0.0)
                }
            })
            .collect();
        let wetness: Vec<f64> = (0..n)
            .map(|k| {
                if ocean[k] || hydro.lake[k] != 0 {
                    return 0.0;
                }
                let gathers = smoothstep(libm::log10(hydro.area[k] / 1e4), 0.5, 2.0);
                gathers * (1.0 - smoothstep(slope[k], 0.004, 0.02))
            })
            .collect();
        let roughness: Vec<f64> = (0..n)
            .map(|k| {
                let steep = smoothstep(slope[k], 0.05, 0.7);
                let low = smoothstep(h[k] - sea_level, 0.0, 6.0);
                let dry = if hydro.lake[k] != 0 { 0.3 } else { 1.0 };
                (0.25 + 2.4 * steep) * (0.15 + 0.85 * low) * dry
            })
            .collect();
        let (sediment, _) = ground::soils(
            &grid,
            h,
            sea_level,
            ocean,
            &hydro.routing,
            &hydro.area,
            &hydro.lake,
        );
        let channel: Vec<bool> = (0..n)
            .map(|k| !ocean[k] && hydro.lake[k] == 0 && hydro.area[k] >= CREEK_AREA_M2)
            .collect();
        let (above_drainage, channel_area_km2) =
            ground::drainage(h, &hydro.routing, &hydro.area, &channel);
        let exposure = flat_exposure(&grid, h, sea_level);
        // The rivers' plumes muddy the sea off their mouths.
        let mud = ground::plume_mud(&grid, ocean, &hydro.routing, &hydro.area, &channel);
        let sediment: Vec<f64> = sediment
            .iter()
            .zip(mud)
            .map(|(s, m)| s + m as f64)
            .collect();
        let sediment = blow_sand(&grid, hydro, sediment, &precip, &exposure, ocean, &climate);
        let mut lake_levels = vec![0.0];
        lake_levels.extend(hydro.lakes.iter().map(|l| l.level_m as f64));

        let mut segments = Vec::new();
        for reach in &hydro.reaches {
            let total = reach.length_m.max(1e-3) as f64;
            let mut walked = 0.0;
            for w in reach.points.windows(2) {
                let (a, b) = (
                    (w[0][0] as f64, w[0][1] as f64),
                    (w[1][0] as f64, w[1][1] as f64),
                );
                let len = libm::hypot(b.0 - a.0, b.1 - a.1);
                let width = |s: f64| {
                    let t = (s / total).clamp(0.0, 1.0);
                    0.5 * (reach.head_width_m as f64
                        + (reach.width_m as f64 - reach.head_width_m as f64) * t)
                };
                segments.push(Segment {
                    a,
                    b,
                    bed: (w[0][2] as f64, w[1][2] as f64),
                    half_width: (width(walked), width(walked + len)),
                });
                walked += len;
            }
        }
        let extent = spacing * region_size as f64;
        let mut by_region: HashMap<RegionLocation, Vec<u32>> = HashMap::new();
        for (i, s) in segments.iter().enumerate() {
            let m = s.reach() + 2.0 * spacing;
            let (x0, x1) = (s.a.0.min(s.b.0) - m, s.a.0.max(s.b.0) + m);
            let (z0, z1) = (s.a.1.min(s.b.1) - m, s.a.1.max(s.b.1) + m);
            for rz in (z0 / extent).floor() as i32..=(z1 / extent).floor() as i32 {
                for rx in (x0 / extent).floor() as i32..=(x1 / extent).floor() as i32 {
                    by_region
                        .entry(RegionLocation::new(rx, rz))
                        .or_default()
                        .push(i as u32);
                }
            }
        }
        Surface {
            grid,
            height: h.clone(),
            lake: hydro.lake.clone(),
            lake_levels,
            precip,
            tan_repose,
            wetness,
            sediment,
            above_drainage,
            channel_area_km2,
            exposure,
            roughness,
            climate,
            sea_level,
            region_size,
            spacing,
            detail: Noise::new(seed, 21),
            tint: tint_recipe(seed),
            segments,
            by_region,
        }
    }

    /// Catmull-Rom bicubic of the coarse heights (smooth, and exact at grid nodes) from the
    /// stencil's taps along each axis: a region's columns share their x taps and its rows
    /// their z taps, so they are worked out once.
    fn coarse_height_at(&self, x: &Taps, z: &Taps) -> f64 {
        let g = &self.grid;
        let mut sum = 0.0;
        for (&jj, wzb) in z.node.iter().zip(&z.weight) {
            let mut row = 0.0;
            for (&ii, wxa) in x.node.iter().zip(&x.weight) {
                row += wxa * self.height[g.idx(ii, jj)];
            }
            sum += wzb * row;
        }
        sum
    }

    /// Generates one region's maps and its census.
    pub fn region(&self, loc: RegionLocation) -> (Region, RegionCensus) {
        let n = self.region_size as usize;
        let a = n + 2; // one sample of apron on every side, for slopes at the edges
        let (ox, oz) = loc.origin(self.spacing, self.region_size);
        let s = self.spacing;
        let pos = |i: usize, j: usize| (ox + (i as f64 - 1.0) * s, oz + (j as f64 - 1.0) * s);

        let mut h = vec![0.0f64; a * a];
        let g = &self.grid;
        let xs: Vec<f64> = (0..a).map(|i| pos(i, 0).0).collect();
        let x_taps: Vec<Taps> = xs.iter().map(|&x| Taps::at(x, g.x0, g.dx, g.nx)).collect();
        let mut detail = vec![0.0; a];
        for (j, row) in h.chunks_exact_mut(a).enumerate() {
            let z = pos(0, j).1;
            let z_taps = Taps::at(z, g.z0, g.dx, g.nz);
            self.detail
                .fbm_row(&xs, z, DETAIL_WAVELENGTH, 5, 0.5, &mut detail);
            for (((v, &x), xt), d) in row.iter_mut().zip(&xs).zip(&x_taps).zip(&detail) {
                let amp = g.sample(&self.roughness, x, z);
                *v = self.coarse_height_at(xt, &z_taps) + amp * d;
            }
        }

        // Channels: inside a channel the surface is the bed's profile (so the centreline is
        // exactly the monotone bed); on the banks it blends back to the ground.
        let mut channel = vec![f64::INFINITY; a * a];
        let mut banks = vec![f64::INFINITY; a * a];
        for &si in self
            .by_region
            .get(&loc)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
        {
            let seg = &self.segments[si as usize];
            let m = seg.reach();
            let to_i = |x: f64| ((x - ox) / s + 1.0).clamp(0.0, (a - 1) as f64);
            let to_j = |z: f64| ((z - oz) / s + 1.0).clamp(0.0, (a - 1) as f64);
            let (i0, i1) = (
                to_i(seg.a.0.min(seg.b.0) - m).floor() as usize,
                to_i(seg.a.0.max(seg.b.0) + m).ceil() as usize,
            );
            let (j0, j1) = (
                to_j(seg.a.1.min(seg.b.1) - m).floor() as usize,
                to_j(seg.a.1.max(seg.b.1) + m).ceil() as usize,
            );
            let (vx, vz) = (seg.b.0 - seg.a.0, seg.b.1 - seg.a.1);
            let len2 = (vx * vx + vz * vz).max(1e-12);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    let (x, z) = pos(i, j);
                    let t = (((x - seg.a.0) * vx + (z - seg.a.1) * vz) / len2).clamp(0.0, 1.0);
                    let d = libm::hypot(x - (seg.a.0 + t * vx), z - (seg.a.1 + t * vz));
                    let hw = seg.half_width.0 + (seg.half_width.1 - seg.half_width.0) * t;
                    let bed = seg.bed.0 + (seg.bed.1 - seg.bed.0) * t;
                    let rim = bed + 0.5 * channel_depth(2.0 * hw);
                    let k = j * a + i;
                    if d <= hw {
                        let u = d / hw;
                        channel[k] = channel[k].min(bed + (rim - bed) * u * u);
                    } else if d < hw + bank(hw) {
                        let u = (d - hw) / bank(hw);
                        let blend = u * u * (3.0 - 2.0 * u);
                        banks[k] = banks[k].min(rim + (h[k] - rim).max(0.0) * blend);
                    }
                }
            }
        }
        for k in 0..a * a {
            h[k] = if channel[k].is_finite() {
                channel[k]
            } else {
                h[k].min(banks[k])
            };
            // + 0.0 turns −0.0 into 0.0, which the fixed-point height codec stores exactly.
            h[k] = (h[k] / HEIGHT_QUANTUM).round() * HEIGHT_QUANTUM + 0.0;
        }

        let mut region = Region {
            location: loc,
            size: self.region_size,
            height: vec![0.0; n * n].into(),
            control: Some(vec![0; n * n].into()),
            color: Some(vec![[0; 4]; n * n].into()),
            biome: Some(vec![0; n * n].into()),
            lake: Some(vec![0; n * n].into()),
            mips: Vec::new(),
        };
        let mut census = RegionCensus {
            min_height: f32::INFINITY,
            max_height: f32::NEG_INFINITY,
            ..Default::default()
        };
        let control = region.control.as_mut().unwrap();
        let (biome, lake) = (
            region.biome.as_mut().unwrap(),
            region.lake.as_mut().unwrap(),
        );
        for y in 0..n {
            let row_sea_level = self.climate.sea_level_at(pos(0, y + 1).1);
            for x in 0..n {
                let (i, j) = (x + 1, y + 1);
                let k = j * a + i;
                let (px, pz) = pos(i, j);
                let hh = h[k];
                let gx = (h[k + 1] - h[k - 1]) / (2.0 * s);
                let gz = (h[k + a] - h[k - a]) / (2.0 * s);
                let slope = libm::sqrt(gx * gx + gz * gz);
                let node = self.grid.nearest(px, pz);
                let lake_id = self.lake[node];
                let level = self.lake_levels[lake_id as usize];
                let in_lake = lake_id != 0 && hh < level;
                let site = Site {
                    height: hh,
                    sea_level: self.sea_level,
                    temperature: ClimateSetup::lapsed(row_sea_level, hh),
                    precipitation: self.grid.sample(&self.precip, px, pz),
                    slope,
                    tan_repose: self.tan_repose[node],
                    lake_depth: if in_lake { level - hh } else { 0.0 },
                    wetness: self.grid.sample(&self.wetness, px, pz),
                    sediment: self.grid.sample(&self.sediment, px, pz),
                    above_drainage: self.grid.sample(&self.above_drainage, px, pz),
                    channel_area_km2: self.channel_area_km2[node],
                    exposure: self.grid.sample(&self.exposure, px, pz),
                };
                let b = classify::classify(&site);
                let o = y * n + x;
                region.height[o] = hh as f32;
                biome[o] = b as u8;
                lake[o] = if in_lake { lake_id } else { 0 };
                let in_channel = channel[k].is_finite();
                control[o] = paint(b, slope / site.tan_repose, in_channel, slope);

                census.min_height = census.min_height.min(hh as f32);
                census.max_height = census.max_height.max(hh as f32);
                census.biomes[b as usize] += 1;
                census.ocean += (hh < self.sea_level && !in_lake) as u64;
                census.lake += in_lake as u64;
            }
        }
        // The recipe a compact region stores instead of the map: the loader repaints it.
        self.tint
            .paint(
                loc,
                self.region_size,
                region.biome.as_deref().unwrap(),
                plain::bytes_mut(region.color.as_mut().unwrap()),
            )
            .expect("every biome id is in the palette");
        (region, census)
    }
}

/// 0 below `lo`, 1 above `hi`, a smooth cubic between.
fn smoothstep(x: f64, lo: f64, hi: f64) -> f64 {
    let t = ((x - lo) / (hi - lo)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The control word: the biome's ground as base, rock (or gravel in channels) as overlay,
/// blended by how close the slope is to the rock's angle of repose.
/// Exposure of every node of a flat world's grid: rays in the plane, and the sea beyond the
/// baked area open (the island sits in an ocean).
/// The loose sediment after the wind has sorted it ([`aeolian`]): dry land keeps what plants
/// hold of `sediment` and gains the sand dry rivers and open shores supply, blown along the
/// world's one prevailing wind. Sea and lakes keep theirs.
fn blow_sand(
    grid: &Grid,
    hydro: &Hydrology,
    sediment: Vec<f64>,
    precip: &[f64],
    exposure: &[f64],
    ocean: &[bool],
    climate: &ClimateSetup,
) -> Vec<f64> {
    let n = grid.len();
    let h = &hydro.height;
    let temperature: Vec<f64> = (0..n)
        .map(|k| climate.temperature(grid.pos(k).1, h[k]))
        .collect();
    let (mobile, laid) = aeolian::blow(
        &aeolian::Wind::uniform(grid, climate.wind_angle),
        &hydro.routing,
        &vec![grid.dx * grid.dx; n],
        h,
        precip,
        &temperature,
        exposure,
        ocean,
    );
    (0..n)
        .map(|k| {
            if ocean[k] || hydro.lake[k] != 0 {
                sediment[k]
            } else {
                sediment[k] * (1.0 - mobile[k]) + laid[k]
            }
        })
        .collect()
}

fn flat_exposure(grid: &Grid, h: &[f64], sea_level: f64) -> Vec<f64> {
    let (w, d) = (grid.nx as f64 * grid.dx, grid.nz as f64 * grid.dx);
    let dirs: Vec<(f64, f64)> = (0..ground::EXPOSURE_RAYS)
        .map(|r| {
            let a = r as f64 * std::f64::consts::TAU / ground::EXPOSURE_RAYS as f64;
            (libm::cos(a), libm::sin(a))
        })
        .collect();
    ground::exposure(h, sea_level, grid.dx, 10_000.0, 3.0 * grid.dx, |k, ray| {
        let (x, z) = grid.pos(k);
        let (dx, dz) = dirs[ray];
        move |dist: f64| {
            let (px, pz) = (x + dist * dx, z + dist * dz);
            let outside = px < grid.x0 || pz < grid.z0 || px > grid.x0 + w || pz > grid.z0 + d;
            outside || grid.sample(h, px, pz) < sea_level
        }
    })
}

fn paint(b: BiomeId, steepness: f64, in_channel: bool, slope: f64) -> u32 {
    let (overlay, blend) = if in_channel {
        (texture::GRAVEL, 0.8)
    } else if b == BiomeId::BareRock {
        (texture::DIRT, 0.15)
    } else {
        let t = ((steepness - 0.45) / 0.5).clamp(0.0, 1.0);
        (texture::ROCK, t * t * (3.0 - 2.0 * t))
    };
    Control {
        base: b.texture(),
        overlay,
        blend: (blend * 255.0).round() as u8,
        navigation: slope < NAVIGABLE_SLOPE && !b.is_water() && !in_channel,
        ..Default::default()
    }
    .encode()
}

/// The color recipe of a bake with this seed: the biome table's colors, jittered by the seed.
pub fn tint_recipe(seed: u64) -> TintRecipe {
    TintRecipe {
        seed,
        palette: biomes::table().iter().map(|b| b.color).collect(),
    }
}

/// One axis of the bicubic stencil at a coordinate: the four grid nodes (clamped to the grid)
/// and their Catmull-Rom weights.
struct Taps {
    node: [usize; 4],
    weight: [f64; 4],
}

impl Taps {
    /// The taps at world coordinate `c` on an axis of `n` nodes from `origin`, `dx` apart.
    fn at(c: f64, origin: f64, dx: f64, n: usize) -> Taps {
        let f = ((c - origin) / dx).clamp(0.0, (n - 1) as f64);
        // Clamped non-negative, so truncation is floor (and no libm call).
        let i = f as isize;
        let t = f - i as f64;
        let (t2, t3) = (t * t, t * t * t);
        Taps {
            node: std::array::from_fn(|a| (i + a as isize - 1).clamp(0, n as isize - 1) as usize),
            weight: [
                0.5 * (-t3 + 2.0 * t2 - t),
                0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
                0.5 * (-3.0 * t3 + 4.0 * t2 + t),
                0.5 * (t3 - t2),
            ],
        }
    }
}
