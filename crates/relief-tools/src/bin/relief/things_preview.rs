//! `relief preview WORLD --things X,Z`: the placed things of a 256 m square around (x, z), a
//! dot per thing the size of its footprint, coloured by kind, over the ground's hillshade
//! tinted by its class; every band placed, as the runtime would, from the regions there. The
//! kinds, their colours and counts are printed.

use std::path::Path;
use std::sync::Arc;

use relief::flat::things::ThingSource;
use relief::flat::World;
use relief::runtime::ThingsConfig;
use relief::stream::Source;
use relief::things::Band;
use relief::DVec3;

use crate::preview::{hillshade, settled, write_png};

/// The square drawn, metres a side.
pub const SIDE_M: f64 = 256.0;

/// Kind colours, in kind order, repeating past the last.
const PALETTE: [[u8; 3]; 8] = [
    [20, 90, 40],
    [90, 160, 40],
    [200, 120, 40],
    [150, 150, 160],
    [230, 220, 90],
    [60, 180, 200],
    [200, 60, 150],
    [250, 250, 250],
];

pub fn draw(
    world: Arc<World>,
    focus: [f64; 2],
    px: u32,
    out: &Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let rules = world.things().clone();
    if rules.is_empty() {
        return Err(format!(
            "{} has no placement table (things.json)",
            world.source_name().display()
        )
        .into());
    }
    let centre = DVec3::new(focus[0], 0.0, focus[1]);
    let (_regions, terrain) = settled(&world, centre)?;

    let (p, mpp) = (px as usize, SIDE_M / px as f64);
    let (x0, z0) = (focus[0] - SIDE_M / 2.0, focus[1] - SIDE_M / 2.0);
    let mut h = vec![0f64; p * p];
    let mut tint = vec![[128u8; 3]; p * p];
    for y in 0..p {
        for x in 0..p {
            let (wx, wz) = (x0 + (x as f64 + 0.5) * mpp, z0 + (y as f64 + 0.5) * mpp);
            h[y * p + x] = terrain.height(wx, wz).height as f64;
            if let Some(b) = terrain.ground(wx, wz).and_then(|g| g.biome) {
                tint[y * p + x] = world.biomes().get(b as usize).map_or([128; 3], |b| b.color);
            }
        }
    }
    let mut rgb = vec![0u8; p * p * 3];
    for i in 0..p * p {
        let shade = hillshade(&h, p, mpp, i % p, i / p);
        for k in 0..3 {
            rgb[i * 3 + k] = (tint[i][k] as f64 * (0.45 + 0.6 * shade)).clamp(0.0, 255.0) as u8;
        }
    }

    // Every band's chunks over the square, drawn near band last (smallest on top).
    let config = ThingsConfig::default();
    let mut counts = vec![0usize; rules.kinds.len()];
    for band in [Band::Far, Band::Mid, Band::Near] {
        if !rules.has_band(band) {
            continue;
        }
        let source = ThingSource::new(
            terrain.clone(),
            rules.clone(),
            band,
            config.band(band).chunk_size_m,
        )?;
        let mut keys = Vec::new();
        source.keys_within(centre, SIDE_M / std::f64::consts::SQRT_2, &mut keys);
        for (key, _) in keys {
            let chunk = source.load(key)?;
            for run in &chunk.runs {
                let kind = &rules.kinds[run.kind as usize];
                let colour = PALETTE[run.kind as usize % PALETTE.len()];
                let r = (kind.footprint / mpp).max(0.7);
                for i in run.start as usize..(run.start + run.count) as usize {
                    let pos = chunk.positions[i];
                    let (cx, cz) = ((pos[0] as f64 - x0) / mpp, (pos[2] as f64 - z0) / mpp);
                    if !(0.0..p as f64).contains(&cx) || !(0.0..p as f64).contains(&cz) {
                        continue;
                    }
                    counts[run.kind as usize] += 1;
                    dot(&mut rgb, p, cx, cz, r, colour);
                }
            }
        }
    }
    for (k, kind) in rules.kinds.iter().enumerate() {
        let c = PALETTE[k % PALETTE.len()];
        println!(
            "  {:<10} {:<5} rgb({}, {}, {}) {:>7}",
            kind.name,
            kind.band.name(),
            c[0],
            c[1],
            c[2],
            counts[k]
        );
    }
    write_png(out, px, &rgb)
}

/// A filled disc of radius `r` pixels at (cx, cz).
fn dot(rgb: &mut [u8], p: usize, cx: f64, cz: f64, r: f64, colour: [u8; 3]) {
    let reach = r.ceil() as i64;
    for dz in -reach..=reach {
        for dx in -reach..=reach {
            let (ix, iz) = (cx as i64 + dx, cz as i64 + dz);
            if ix < 0 || iz < 0 || ix >= p as i64 || iz >= p as i64 {
                continue;
            }
            if (ix as f64 + 0.5 - cx).hypot(iz as f64 + 0.5 - cz) <= r {
                let i = (iz as usize * p + ix as usize) * 3;
                rgb[i..i + 3].copy_from_slice(&colour);
            }
        }
    }
}
