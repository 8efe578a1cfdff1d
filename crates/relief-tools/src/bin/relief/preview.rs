//! `relief preview`: the world as a picture — hillshade under a ground-class tint (showing
//! through the water too), lakes, and rivers drawn at their width — with a legend of every
//! class on the map to its right.

use relief::DVec3;
use std::path::Path;
use std::sync::Arc;

use relief::flat::{FormatError, World};
use relief_tools::bake::biomes::BiomeId;

use crate::legend;

pub fn draw(w: &World, px: u32, out: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let m = w.manifest();
    let b = m.region_bounds;
    let extent = w.region_extent();
    let (x0, z0) = (b.min[0] as f64 * extent, b.min[1] as f64 * extent);
    let side =
        ((b.max[0] - b.min[0] + 1) as f64 * extent).max((b.max[1] - b.min[1] + 1) as f64 * extent);
    let mpp = side / px as f64;
    let n = (px * px) as usize;
    // Box-filtered heights per pixel; biome and lake from the sample nearest the centre.
    let mut sum = vec![0.0f64; n];
    let mut cnt = vec![0u32; n];
    let mut biome = vec![0u8; n];
    let mut lake = vec![0u16; n];
    let rs = m.region_size as usize;
    for loc in w.region_locations() {
        let region = match w.read_region(loc) {
            Ok(r) => r,
            Err(FormatError::NoSuchRegion { .. }) => continue,
            Err(e) => return Err(e.into()),
        };
        let (ox, oz) = loc.origin(m.vertex_spacing, m.region_size);
        for y in 0..rs {
            let pz = ((oz + y as f64 * m.vertex_spacing - z0) / mpp) as usize;
            for x in 0..rs {
                let pxl = ((ox + x as f64 * m.vertex_spacing - x0) / mpp) as usize;
                if pxl >= px as usize || pz >= px as usize {
                    continue;
                }
                let p = pz * px as usize + pxl;
                let o = y * rs + x;
                sum[p] += region.height[o] as f64;
                cnt[p] += 1;
                if let Some(bm) = &region.biome {
                    biome[p] = bm[o];
                }
                if let Some(lk) = &region.lake {
                    lake[p] = lake[p].max(lk[o]);
                }
            }
        }
    }
    let height: Vec<f64> = sum
        .iter()
        .zip(&cnt)
        .map(|(s, c)| if *c > 0 { s / *c as f64 } else { 0.0 })
        .collect();
    let colors: Vec<[u8; 3]> = w.biomes().iter().map(|b| b.color).collect();
    let mut rgb = vec![0u8; n * 3];
    let mut counts = vec![0u64; BiomeId::COUNT];
    let p = px as usize;
    for y in 0..p {
        for x in 0..p {
            let i = y * p + x;
            let shade = hillshade(&height, p, mpp, x, y);
            // A class id past the table (a damaged or foreign file) is drawn grey, not counted.
            if let Some(c) = counts.get_mut(biome[i] as usize).filter(|_| cnt[i] > 0) {
                *c += 1;
            }
            let base = if lake[i] != 0 {
                water_tint([60.0, 120.0, 200.0], biome[i])
            } else if height[i] < m.sea() as f64 {
                let d = ((m.sea() as f64 - height[i]) / 60.0).clamp(0.0, 1.0);
                water_tint(
                    [40.0 - 20.0 * d, 110.0 - 50.0 * d, 190.0 - 60.0 * d],
                    biome[i],
                )
            } else {
                let c = colors
                    .get(biome[i] as usize)
                    .copied()
                    .unwrap_or([128, 128, 128]);
                [c[0] as f64, c[1] as f64, c[2] as f64]
            };
            let lit = if lake[i] != 0 || height[i] < m.sea() as f64 {
                0.85 + 0.15 * shade
            } else {
                0.35 + 0.9 * shade
            };
            for c in 0..3 {
                rgb[i * 3 + c] = (base[c] * lit).clamp(0.0, 255.0) as u8;
            }
        }
    }
    for r in w.reaches() {
        let radius = (0.5 * r.width_m as f64 / mpp).max(0.5);
        let col = if r.kind == relief::flat::ReachKind::River {
            [30u8, 80, 200]
        } else {
            [70u8, 130, 215]
        };
        for seg in r.points.windows(2) {
            let (ax, az) = ((seg[0][0] as f64 - x0) / mpp, (seg[0][1] as f64 - z0) / mpp);
            let (bx, bz) = ((seg[1][0] as f64 - x0) / mpp, (seg[1][1] as f64 - z0) / mpp);
            let steps = ((bx - ax).hypot(bz - az) * 2.0).ceil().max(1.0) as usize;
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                let (cx, cz) = (ax + (bx - ax) * t, az + (bz - az) * t);
                let rr = radius.ceil() as i64;
                for dz in -rr..=rr {
                    for dx in -rr..=rr {
                        let (ix, iz) = (cx as i64 + dx, cz as i64 + dz);
                        if ix < 0 || iz < 0 || ix >= p as i64 || iz >= p as i64 {
                            continue;
                        }
                        if ((ix as f64 + 0.5 - cx).powi(2) + (iz as f64 + 0.5 - cz).powi(2)).sqrt()
                            <= radius.max(0.71)
                        {
                            let i = (iz as usize * p + ix as usize) * 3;
                            rgb[i..i + 3].copy_from_slice(&col);
                        }
                    }
                }
            }
        }
    }
    let c = legend::beside(&rgb, px, px, &counts);
    write_rgb(out, c.width, c.height, &c.rgb)
}

/// The clipmap around (x, z) as the renderer would see it: each pixel takes the finest level
/// whose window covers it, hillshaded, and each level's window is outlined in its own colour,
/// so a person can see the rings nest and line up.
pub fn draw_clipmap(
    world: Arc<World>,
    focus: [f64; 2],
    px: u32,
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    use relief::lod::{Clipmap, ClipmapConfig};

    let (_regions, terrain) = settled(&world, DVec3::new(focus[0], 0.0, focus[1]))?;
    let cfg = ClipmapConfig::default();
    let mut map = Clipmap::new(cfg)?;
    map.update(DVec3::new(focus[0], 0.0, focus[1]), &terrain);

    // Show out to the third level: wide enough for the rings, close enough to see level 0.
    let shown = (cfg.levels as usize).min(3);
    let half = cfg.size as f64 / 2.0 * map.level(shown - 1).spacing;
    let mpp = 2.0 * half / px as f64;
    let p = px as usize;
    let mut h = vec![0f64; p * p];
    let mut which = vec![0u8; p * p];
    for y in 0..p {
        for x in 0..p {
            let (wx, wz) = (
                focus[0] - half + (x as f64 + 0.5) * mpp,
                focus[1] - half + (y as f64 + 0.5) * mpp,
            );
            for k in 0..cfg.levels as usize {
                let s = map.level(k).spacing;
                if let Some(v) = map.cell(k, (wx / s).floor() as i64, (wz / s).floor() as i64) {
                    h[y * p + x] = v as f64;
                    which[y * p + x] = k as u8;
                    break;
                }
            }
        }
    }
    let ring = [
        [255u8, 80, 60],
        [255, 200, 40],
        [80, 220, 90],
        [60, 170, 255],
        [200, 90, 255],
        [255, 255, 255],
    ];
    let sea = world.manifest().sea();
    let mut rgb = vec![0u8; p * p * 3];
    for y in 0..p {
        for x in 0..p {
            let i = y * p + x;
            let shade = hillshade(&h, p, mpp, x, y);
            let base = if h[i] < sea as f64 {
                [40.0, 90.0, 170.0]
            } else {
                [150.0, 150.0, 130.0]
            };
            let edge = (x > 0 && which[i - 1] != which[i]) || (y > 0 && which[i - p] != which[i]);
            let c = if edge {
                ring[which[i] as usize % ring.len()].map(|v| v as f64)
            } else {
                base.map(|v| v * (0.35 + 0.8 * shade))
            };
            for (k, v) in c.iter().enumerate() {
                rgb[i * 3 + k] = v.clamp(0.0, 255.0) as u8;
            }
        }
    }
    write_png(out, px, &rgb)
}

/// Regions streamed and settled around `at`, and queries over them (keep the streamer while
/// they are read).
pub(crate) fn settled(
    world: &Arc<World>,
    at: DVec3,
) -> Result<
    (
        relief::stream::Streamer<relief::flat::RegionSource>,
        relief::flat::Terrain,
    ),
    relief::ConfigError,
> {
    use relief::stream::{Loaders, StreamConfig, Streamer};
    let mut regions = Streamer::new(
        Arc::new(relief::flat::RegionSource::new(world.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )?;
    regions.settle(at, std::time::Duration::from_secs(60));
    let terrain = relief::flat::Terrain::new(world.clone(), regions.resident());
    Ok((regions, terrain))
}

/// Under water, the ground class shows through the water's colour, except where the class
/// is only the water's own floor (sea floor, shelf, lake bed).
fn water_tint(water: [f64; 3], class: u8) -> [f64; 3] {
    match BiomeId::from_id(class) {
        None | Some(BiomeId::SeaFloor | BiomeId::Shelf | BiomeId::LakeBed) => water,
        Some(b) => {
            let c = b.color();
            [0, 1, 2].map(|k| 0.5 * water[k] + 0.5 * c[k] as f64)
        }
    }
}

/// A planet as an equirectangular map (`2·px × px`, latitude about the blob's polar axis):
/// biome tint under a hillshade, sea by depth, lakes, rivers. Tiles are read as needed.
pub fn draw_planet(
    p: &relief::planet::Planet,
    px: u32,
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    use relief::planet::{cube, TileKey};
    let (w, hgt) = (2 * px as usize, px as usize);
    let (n, t) = (p.face_resolution(), p.tile_size());
    let mut tiles = std::collections::HashMap::new();
    let mut height = vec![0.0f64; w * hgt];
    let mut biome = vec![0u8; w * hgt];
    let mut lake = vec![0u16; w * hgt];
    for y in 0..hgt {
        let lat =
            std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) / hgt as f64 * std::f64::consts::PI;
        for x in 0..w {
            let lon = (x as f64 + 0.5) / w as f64 * std::f64::consts::TAU - std::f64::consts::PI;
            let d = cube::from_lat_lon(lat, lon, p.pole());
            let (face, a, b) = cube::face_coords(p.projection(), d);
            let clamp = |v: f64| v.round().clamp(0.0, n as f64 - 1.0) as u32;
            let (i, j) = (clamp(cube::index_of(a, n)), clamp(cube::index_of(b, n)));
            let key = TileKey {
                face: face as u8,
                tx: (i / t) as u16,
                ty: (j / t) as u16,
            };
            let tile = match tiles.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => e.insert(p.read_tile(key)?),
            };
            let k = ((j % t) * t + i % t) as usize;
            height[y * w + x] = tile.height[k] as f64;
            biome[y * w + x] = tile.biome[k];
            lake[y * w + x] = tile.lake[k];
        }
    }
    let colors: Vec<[u8; 3]> = relief_tools::bake::biomes::table()
        .iter()
        .map(|b| b.color)
        .collect();
    let mpp = p.radius() * std::f64::consts::PI / hgt as f64;
    let mut rgb = vec![0u8; w * hgt * 3];
    let mut counts = vec![0u64; BiomeId::COUNT];
    for y in 0..hgt {
        for x in 0..w {
            let i = y * w + x;
            let gx = (height[y * w + (x + 1) % w] - height[y * w + (x + w - 1) % w]) / (2.0 * mpp);
            let gz = (height[(y + 1).min(hgt - 1) * w + x] - height[y.saturating_sub(1) * w + x])
                / (2.0 * mpp);
            let shade = ((0.5 * gx + std::f64::consts::FRAC_1_SQRT_2 + 0.5 * gz)
                / (gx * gx + 1.0 + gz * gz).sqrt())
            .clamp(0.0, 1.0);
            if let Some(c) = counts.get_mut(biome[i] as usize) {
                *c += 1;
            }
            let (base, lit) = if lake[i] != 0 {
                (water_tint([60.0, 120.0, 200.0], biome[i]), 0.9)
            } else if height[i] < 0.0 {
                let d = (-height[i] / 3000.0).clamp(0.0, 1.0);
                (
                    water_tint(
                        [40.0 - 25.0 * d, 110.0 - 70.0 * d, 190.0 - 80.0 * d],
                        biome[i],
                    ),
                    0.9 + 0.1 * shade,
                )
            } else {
                let c = colors
                    .get(biome[i] as usize)
                    .copied()
                    .unwrap_or([128, 128, 128]);
                ([c[0] as f64, c[1] as f64, c[2] as f64], 0.35 + 0.9 * shade)
            };
            for c in 0..3 {
                rgb[i * 3 + c] = (base[c] * lit).clamp(0.0, 255.0) as u8;
            }
        }
    }
    for r in p.reaches()? {
        let col = if r.kind == relief::flat::ReachKind::River {
            [30u8, 80, 200]
        } else {
            [70u8, 130, 215]
        };
        for q in &r.points {
            let d = DVec3::new(q[0] as f64, q[1] as f64, q[2] as f64);
            let (lat, lon) = cube::lat_lon(cube::normalize(d), p.pole());
            let y =
                ((std::f64::consts::FRAC_PI_2 - lat) / std::f64::consts::PI * hgt as f64) as usize;
            let x = ((lon + std::f64::consts::PI) / std::f64::consts::TAU * w as f64) as usize;
            if x < w && y < hgt {
                let i = (y * w + x) * 3;
                rgb[i..i + 3].copy_from_slice(&col);
            }
        }
    }
    let c = legend::beside(&rgb, w as u32, hgt as u32, &counts);
    write_rgb(out, c.width, c.height, &c.rgb)
}

pub(crate) fn write_png(out: &Path, px: u32, rgb: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    write_rgb(out, px, px, rgb)
}

fn write_rgb(out: &Path, w: u32, h: u32, rgb: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::fs::File::create(out)?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    Ok(())
}

/// Lambert shading of pixel (x, y) of a `p × p` height image, `mpp` metres per pixel, lit
/// from the north-west 45° up: 0 (facing away) to 1 (facing the light).
pub(crate) fn hillshade(h: &[f64], p: usize, mpp: f64, x: usize, y: usize) -> f64 {
    let gx = (h[y * p + (x + 1).min(p - 1)] - h[y * p + x.saturating_sub(1)]) / (2.0 * mpp);
    let gz = (h[(y + 1).min(p - 1) * p + x] - h[y.saturating_sub(1) * p + x]) / (2.0 * mpp);
    let (lx, ly, lz) = (-0.5f64, std::f64::consts::FRAC_1_SQRT_2, -0.5);
    ((-gx * lx + ly - gz * lz) / (gx * gx + 1.0 + gz * gz).sqrt()).clamp(0.0, 1.0)
}
