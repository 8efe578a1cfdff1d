//! Clipmap levels on a baked world: toroidal updates, dirty rectangles, agreement, fallback.

mod common;

use relief::DVec3;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::RwLock;
use relief::flat::terrain::Terrain;
use relief::flat::RegionSource;
use relief::flat::World;
use relief::lod::{Clipmap, ClipmapConfig, DirtyRect};
use relief::stream::{Loaders, StreamConfig, Streamer};

/// Every region resident (the test world is 4 km: a 6 km load radius takes it all).
fn all_resident() -> (Terrain, Streamer<RegionSource>) {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let cfg = StreamConfig {
        load_radius: 6000.0,
        drop_radius: 6000.0,
        ..StreamConfig::default()
    };
    let mut s = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        cfg,
        &Loaders::new(0),
    )
    .unwrap();
    assert!(s.settle(DVec3::ZERO, Duration::from_secs(60)));
    (Terrain::new(world, s.resident()), s)
}

fn config() -> ClipmapConfig {
    ClipmapConfig {
        levels: 4,
        size: 64,
        base_spacing: 16.0,
    }
}

fn inside(r: &DirtyRect, k: usize, x: u32, z: u32) -> bool {
    r.level as usize == k && x >= r.x && x < r.x + r.width && z >= r.z && z < r.z + r.depth
}

#[test]
fn incremental_moves_match_a_full_rebuild_and_touch_only_dirty_cells() {
    let (terrain, _s) = all_resident();
    let cfg = config();
    let mut map = Clipmap::new(cfg).unwrap();
    map.update(DVec3::new(-900.0, 0.0, 250.0), &terrain);
    let mut focus = DVec3::new(-900.0, 0.0, 250.0);
    for step in 0..60 {
        focus[0] += 23.0 + (step % 5) as f64 * 9.0;
        focus[2] -= 11.0 * ((step % 3) as f64 - 1.0);
        let before: Vec<Vec<f32>> = (0..cfg.levels as usize)
            .map(|k| map.level(k).storage().to_vec())
            .collect();
        let dirty = map.update(focus, &terrain).to_vec();
        let mut fresh = Clipmap::new(cfg).unwrap();
        fresh.update(focus, &terrain);
        for (k, before) in before.iter().enumerate() {
            assert_eq!(map.level(k).origin(), fresh.level(k).origin());
            let o = fresh.level(k).origin().unwrap();
            for j in o[1]..o[1] + cfg.size as i64 {
                for i in o[0]..o[0] + cfg.size as i64 {
                    assert_eq!(
                        map.cell(k, i, j),
                        fresh.cell(k, i, j),
                        "level {k} cell ({i}, {j}) after step {step}"
                    );
                }
            }
            let n = cfg.size as usize;
            for z in 0..n {
                for x in 0..n {
                    if !dirty.iter().any(|r| inside(r, k, x as u32, z as u32)) {
                        assert_eq!(
                            map.level(k).storage()[z * n + x],
                            before[z * n + x],
                            "level {k} storage ({x}, {z}) changed outside the dirty rectangles"
                        );
                    }
                }
            }
        }
        let touched: u32 = dirty.iter().map(|r| r.width * r.depth).sum();
        assert!(
            touched < cfg.levels * cfg.size * cfg.size / 2,
            "a small move rewrote {touched} cells"
        );
    }
    // Standing still rewrites nothing.
    assert!(map.update(focus, &terrain).is_empty());
}

#[test]
fn a_coarser_cell_is_the_mean_of_the_four_finer_cells() {
    let (terrain, _s) = all_resident();
    let cfg = config();
    let mut map = Clipmap::new(cfg).unwrap();
    map.update(DVec3::new(130.0, 0.0, -70.0), &terrain);
    let world = terrain.world().clone();
    let b = world.manifest().region_bounds;
    let e = world.region_extent();
    let (lo, hi) = (b.min[0] as f64 * e, (b.max[0] + 1) as f64 * e);
    let mut checked = 0;
    for k in 1..cfg.levels as usize {
        let s = map.level(k).spacing;
        let o = map.level(k).origin().unwrap();
        for j in o[1]..o[1] + cfg.size as i64 {
            for i in o[0]..o[0] + cfg.size as i64 {
                let (x0, z0) = (i as f64 * s, j as f64 * s);
                if x0 < lo || z0 < lo || x0 + s > hi || z0 + s > hi {
                    continue; // beyond the world the overview answers
                }
                let fine: Option<Vec<f32>> = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .iter()
                    .map(|(di, dj)| map.cell(k - 1, 2 * i + di, 2 * j + dj))
                    .collect();
                if let Some(f) = fine {
                    let mean = f.iter().sum::<f32>() / 4.0;
                    assert!(
                        (map.cell(k, i, j).unwrap() - mean).abs() < 1e-3,
                        "level {k} cell ({i}, {j})"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} cells compared");
}

#[test]
fn with_nothing_resident_the_overview_answers_then_regions_refresh_it() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let empty = Terrain::new(
        world.clone(),
        Arc::new(RwLock::new(relief::stream::PieceMap::default())),
    );
    let cfg = config();
    let mut map = Clipmap::new(cfg).unwrap();
    let focus = DVec3::new(400.0, 0.0, 400.0);
    map.update(focus, &empty);
    let s0 = map.level(0).spacing;
    let o = map.level(0).origin().unwrap();
    assert_eq!(
        map.cell(0, o[0] + 5, o[1] + 7).unwrap(),
        world.overview().height(
            (o[0] + 5) as f64 * s0 + s0 / 2.0,
            (o[1] + 7) as f64 * s0 + s0 / 2.0
        )
    );

    // Regions arrive: refreshing each brings the map to what a fresh build would show.
    let (terrain, s) = all_resident();
    let mut any = false;
    for loc in s.resident().read().keys() {
        any |= !map.refresh_region(*loc, &terrain).is_empty();
    }
    assert!(any);
    let mut fresh = Clipmap::new(cfg).unwrap();
    fresh.update(focus, &terrain);
    for k in 0..cfg.levels as usize {
        assert_eq!(
            map.level(k).storage(),
            fresh.level(k).storage(),
            "level {k}"
        );
    }
}

/// Levels whose cells are wider than a region (here 64-sample regions, 2 m cells, so any
/// level past 128 m) come from the overview instead of dividing by zero; and the C ABI's
/// widest shape (24 levels) fills on the default test world.
#[test]
fn levels_coarser_than_a_region_come_from_the_overview() {
    let dir = common::scratch("narrow-regions");
    let mut cfg = relief_tools::bake::BakeConfig::new("narrow");
    cfg.size = 1024.0;
    cfg.region_size = 64;
    cfg.spacing = 2.0;
    relief_tools::bake::bake(&cfg, &dir, &relief_tools::Silent).unwrap();
    let world = Arc::new(World::open(&dir).unwrap());
    let mut s = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap();
    assert!(s.settle(DVec3::ZERO, Duration::from_secs(60)));
    let terrain = Terrain::new(world.clone(), s.resident());
    for levels in [6, 24] {
        let mut map = Clipmap::new(ClipmapConfig {
            levels,
            size: 16,
            base_spacing: 16.0,
        })
        .unwrap();
        map.update(DVec3::new(10.0, 0.0, -20.0), &terrain);
        let coarse = map.level(4); // 256 m cells over 128 m regions
        let o = coarse.origin().unwrap();
        let (i, j) = (o[0] + 8, o[1] + 8);
        let s = coarse.spacing;
        assert_eq!(
            map.cell(4, i, j),
            Some(
                world
                    .overview()
                    .height((i as f64 + 0.5) * s, (j as f64 + 0.5) * s)
            )
        );
    }
}
