//! End-to-end checks on baked worlds: determinism, and geomorphology that would fail if the
//! physics were wrong.

mod common;

use std::collections::HashMap;

use relief::flat::{ReachEnd, RegionLocation, World};
use relief_tools::bake::{self, hydrology};
use relief_tools::Silent;

#[test]
fn the_same_seed_bakes_byte_identical_worlds() {
    let mut cfg = common::small_config("twice").clone_with_size(1024.0, 128);
    cfg.spacing = 1.0;
    let (a, b) = (common::scratch("twice-a"), common::scratch("twice-b"));
    bake::bake(&cfg, &a, &Silent).unwrap();
    cfg.threads = 1; // a different thread count must not change a byte
    bake::bake(&cfg, &b, &Silent).unwrap();
    let (fa, fb) = (common::walk(&a), common::walk(&b));
    assert_eq!(fa.len(), fb.len());
    assert!(fa.len() > 60);
    for (x, y) in fa.iter().zip(&fb) {
        assert_eq!(x.strip_prefix(&a).unwrap(), y.strip_prefix(&b).unwrap());
        assert!(
            std::fs::read(x).unwrap() == std::fs::read(y).unwrap(),
            "{} differs",
            x.display()
        );
    }
    // And a different seed gives a different world.
    let c = common::scratch("twice-c");
    let mut other = cfg.clone();
    other.seed = "another".into();
    bake::bake(&other, &c, &Silent).unwrap();
    assert_ne!(
        std::fs::read(a.join("overview.rlo")).unwrap(),
        std::fs::read(c.join("overview.rlo")).unwrap()
    );
}

trait Resize {
    fn clone_with_size(self, size: f64, region: u32) -> Self;
}
impl Resize for bake::BakeConfig {
    fn clone_with_size(mut self, size: f64, region: u32) -> Self {
        self.size = size;
        self.region_size = region;
        self
    }
}

#[test]
fn the_baked_world_opens_and_every_region_reads_back() {
    let w = World::open(common::world_dir()).unwrap();
    let m = w.manifest();
    assert_eq!(m.region_bounds.count(), 64);
    assert_eq!(w.verify().unwrap(), 64);
    let [lo, hi] = m.height_range;
    for loc in w.region_locations() {
        let r = w.read_region(loc).unwrap();
        assert_eq!(r.location, loc);
        assert!(r.height.iter().all(|h| (lo..=hi).contains(h)));
        assert!(r
            .biome
            .as_ref()
            .unwrap()
            .iter()
            .all(|&b| (b as usize) < w.biomes().len()));
        assert!(r
            .lake
            .as_ref()
            .unwrap()
            .iter()
            .all(|&l| (l as usize) <= w.lakes().len()));
    }
    assert!(
        m.census.ocean_share > 0.2 && m.census.ocean_share < 0.8,
        "an island: {}",
        m.census.ocean_share
    );
    assert!(
        hi > 150.0,
        "erosion reached towards the requested top: {hi}"
    );
    assert!(
        !w.reaches().is_empty() && !w.lakes().is_empty(),
        "{} reaches, {} lakes",
        w.reaches().len(),
        w.lakes().len()
    );
}

#[test]
fn every_reach_ends_at_the_sea_a_lake_or_another_reach() {
    let w = World::open(common::world_dir()).unwrap();
    let sea = w.manifest().sea();
    for r in w.reaches() {
        let last = *r.points.last().unwrap();
        match r.to {
            ReachEnd::Sea => assert!(
                last[2] <= sea,
                "reach {} meets the sea with its bed at {}",
                r.id,
                last[2]
            ),
            ReachEnd::Lake(id) => {
                let lake = &w.lakes()[id as usize - 1];
                assert_eq!(lake.id, id);
                assert!(
                    last[2] <= lake.level_m,
                    "reach {} enters lake {id} above its level",
                    r.id
                );
            }
            ReachEnd::Reach(d) => {
                let down = &w.reaches()[d as usize];
                assert!(d < r.id, "reaches flow into lower ids");
                assert_eq!(
                    down.points[0], last,
                    "reach {} ends where reach {d} begins",
                    r.id
                );
            }
            other => panic!("reach {} ends in {other:?}: a pit", r.id),
        }
    }
}

#[test]
fn every_reach_bed_descends() {
    let w = World::open(common::world_dir()).unwrap();
    for r in w.reaches() {
        for p in r.points.windows(2) {
            assert!(
                p[1][2] < p[0][2],
                "reach {} rises from {} to {}",
                r.id,
                p[0][2],
                p[1][2]
            );
        }
        assert!(r.drop_m > 0.0);
    }
}

#[test]
fn width_grows_as_drained_area_to_the_0_4() {
    let w = World::open(common::world_dir()).unwrap();
    let mut joins = 0;
    let mut doublings = 0;
    for down in w.reaches().iter().filter(|r| r.from == ReachEnd::Join) {
        for up in w
            .reaches()
            .iter()
            .filter(|r| r.to == ReachEnd::Reach(down.id))
        {
            joins += 1;
            let area_ratio = down.head_drains_km2 as f64 / up.drains_km2 as f64;
            let width_ratio = down.head_width_m as f64 / up.width_m as f64;
            let expected = area_ratio.powf(0.4);
            assert!(
                (width_ratio / expected - 1.0).abs() < 0.05,
                "join into reach {}: area ×{area_ratio:.2}, width ×{width_ratio:.3}",
                down.id
            );
            if (1.8..=2.2).contains(&area_ratio) {
                doublings += 1;
                assert!(
                    (width_ratio / 2f64.powf(0.4) - 1.0).abs() <= 0.05,
                    "a doubling widens by 1.32×, got {width_ratio:.3}"
                );
            }
        }
    }
    assert!(joins >= 10, "only {joins} confluences");
    assert!(doublings >= 1, "no confluence doubled the drained area");
}

#[test]
fn strahler_order_follows_its_rule() {
    let w = World::open(common::world_dir()).unwrap();
    for r in w.reaches() {
        let ups: Vec<u8> = w
            .reaches()
            .iter()
            .filter(|u| u.to == ReachEnd::Reach(r.id))
            .map(|u| u.order)
            .collect();
        let expected = match ups.iter().max() {
            None => 1,
            Some(&m) if ups.iter().filter(|&&o| o == m).count() >= 2 => m + 1,
            Some(&m) => m,
        };
        // A reach leaving a lake takes its order from the reaches entering that lake.
        if !matches!(r.from, ReachEnd::Lake(_)) {
            assert_eq!(r.order, expected, "reach {}", r.id);
        }
    }
}

#[test]
fn channels_are_carved_into_the_one_metre_surface() {
    let w = World::open(common::world_dir()).unwrap();
    let m = w.manifest();
    let mut regions = HashMap::new();
    let mut checked = 0;
    for r in w.reaches() {
        for p in &r.points[..r.points.len() - 1] {
            let (x, z) = (p[0] as f64, p[1] as f64);
            let loc = RegionLocation::containing(x, z, m.vertex_spacing, m.region_size);
            let region = regions
                .entry(loc)
                .or_insert_with(|| w.read_region(loc).unwrap());
            let (ox, oz) = loc.origin(m.vertex_spacing, m.region_size);
            let (i, j) = (
                ((x - ox) / m.vertex_spacing).round() as usize,
                ((z - oz) / m.vertex_spacing).round() as usize,
            );
            if i >= region.size as usize || j >= region.size as usize {
                continue;
            }
            let h = region.height[j * region.size as usize + i] as f64;
            let rim = p[2] as f64 + 0.5 * hydrology::channel_depth(r.width_m as f64) + 0.05;
            assert!(
                h <= rim,
                "reach {} at ({x:.1}, {z:.1}): ground {h:.2} m above the channel rim {rim:.2} m",
                r.id
            );
            checked += 1;
        }
    }
    assert!(checked > 200);
}

#[test]
fn lakes_are_big_and_deep_enough_and_hold_water_in_the_lake_layer() {
    let w = World::open(common::world_dir()).unwrap();
    for l in w.lakes() {
        assert!(
            l.area_m2 >= hydrology::LAKE_MIN_AREA_M2,
            "lake {} is {} m²",
            l.id,
            l.area_m2
        );
        assert!(
            l.depth_m as f64 >= hydrology::LAKE_MIN_DEPTH_M,
            "lake {} is {} m deep",
            l.id,
            l.depth_m
        );
        assert!(!l.parts.is_empty() && l.rings().all(|r| r.len() >= 4));
    }
    let wet: usize = w
        .region_locations()
        .map(|loc| {
            w.read_region(loc)
                .unwrap()
                .lake
                .unwrap()
                .iter()
                .filter(|&&v| v != 0)
                .count()
        })
        .sum();
    assert!(wet > 1000, "the lake layer marks {wet} samples");
}
