//! Every query against brute force on a baked world, including region edges and corners.

mod common;

use relief::DVec3;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::RwLock;
use relief::flat::terrain::{Origin, Terrain};
use relief::flat::RegionSource;
use relief::flat::{Control, Region, RegionLocation, World};
use relief::stream::{Loaders, PieceMap, StreamConfig, Streamer};
use relief_tools::bake::seed::Rng;

struct Fixture {
    world: Arc<World>,
    regions: PieceMap<RegionLocation, Region>,
    terrain: Terrain,
}

fn everything_resident() -> Fixture {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let regions: PieceMap<RegionLocation, Region> = world
        .region_locations()
        .map(|l| (l, Arc::new(world.read_region(l).unwrap())))
        .collect();
    let terrain = Terrain::new(world.clone(), Arc::new(RwLock::new(regions.clone())));
    Fixture {
        world,
        regions,
        terrain,
    }
}

impl Fixture {
    /// Brute force: the sample at global index (gi, gj), clamped to the world.
    fn sample(&self, gi: i64, gj: i64) -> f32 {
        let m = self.world.manifest();
        let n = m.region_size as i64;
        let b = m.region_bounds;
        let gi = gi.clamp(b.min[0] as i64 * n, (b.max[0] as i64 + 1) * n - 1);
        let gj = gj.clamp(b.min[1] as i64 * n, (b.max[1] as i64 + 1) * n - 1);
        let r =
            &self.regions[&RegionLocation::new(gi.div_euclid(n) as i32, gj.div_euclid(n) as i32)];
        r.height[(gj.rem_euclid(n) * n + gi.rem_euclid(n)) as usize]
    }
    fn brute_height(&self, x: f64, z: f64) -> f32 {
        let s = self.world.manifest().vertex_spacing;
        let (fx, fz) = (x / s, z / s);
        let (i, j) = (fx.floor() as i64, fz.floor() as i64);
        let (tx, tz) = ((fx - i as f64) as f32, (fz - j as f64) as f32);
        let a = self.sample(i, j) + (self.sample(i + 1, j) - self.sample(i, j)) * tx;
        let b = self.sample(i, j + 1) + (self.sample(i + 1, j + 1) - self.sample(i, j + 1)) * tx;
        a + (b - a) * tz
    }
}

/// Random points, plus points on every region edge and corner.
fn probe_points(world: &World, count: usize) -> Vec<[f64; 2]> {
    let m = world.manifest();
    let e = world.region_extent();
    let b = m.region_bounds;
    let (x0, x1) = (b.min[0] as f64 * e, (b.max[0] + 1) as f64 * e);
    let mut rng = Rng::new(7, 7);
    let mut pts: Vec<[f64; 2]> = (0..count)
        .map(|_| [rng.range(x0, x1 - 1e-6), rng.range(x0, x1 - 1e-6)])
        .collect();
    for lx in b.min[0]..=b.max[0] + 1 {
        for lz in b.min[1]..=b.max[1] + 1 {
            let (cx, cz) = (lx as f64 * e, lz as f64 * e);
            for (dx, dz) in [
                (0.0, 0.0),
                (-0.5, 0.0),
                (0.0, -0.5),
                (-0.25, -0.75),
                (0.3, 17.1),
                (17.6, 0.0),
            ] {
                pts.push([
                    (cx + dx * m.vertex_spacing).clamp(x0, x1 - 1e-6),
                    (cz + dz * m.vertex_spacing).clamp(x0, x1 - 1e-6),
                ]);
            }
        }
    }
    pts
}

#[test]
fn height_matches_brute_force_bilinear_everywhere() {
    let f = everything_resident();
    for p in probe_points(&f.world, 20_000) {
        let got = f.terrain.height(p[0], p[1]);
        assert!(matches!(got.origin, Origin::Region(_)));
        let want = f.brute_height(p[0], p[1]);
        assert!(
            (got.height - want).abs() <= 1e-3,
            "at {p:?}: {} vs {want}",
            got.height
        );
    }
}

#[test]
fn height_is_exact_at_samples_and_continuous_across_region_edges() {
    let f = everything_resident();
    let s = f.world.manifest().vertex_spacing;
    let e = f.world.region_extent();
    for (gi, gj) in [
        (0i64, 0i64),
        (127, 127),
        (128, 128),
        (-1, -1),
        (-128, 127),
        (255, 0),
        (-1024, -1024),
        (1023, 1023),
    ] {
        assert_eq!(
            f.terrain.height(gi as f64 * s, gj as f64 * s).height,
            f.sample(gi, gj),
            "sample ({gi}, {gj})"
        );
    }
    // Crossing a region edge changes the height by no more than the slope allows.
    let mut worst = 0.0f32;
    for k in -3..3 {
        for t in 0..50 {
            let edge = k as f64 * e;
            let z = -1000.0 + t as f64 * 37.3;
            let (a, b) = (
                f.terrain.height(edge - 1e-3, z).height,
                f.terrain.height(edge + 1e-3, z).height,
            );
            worst = worst.max((a - b).abs());
        }
    }
    assert!(worst < 0.05, "a step of {worst} m at a region edge");
}

#[test]
fn the_batch_call_agrees_with_single_queries() {
    let f = everything_resident();
    let pts = probe_points(&f.world, 5_000);
    let mut out = vec![0.0; pts.len()];
    assert_eq!(f.terrain.heights(&pts, &mut out), pts.len());
    for (p, h) in pts.iter().zip(&out) {
        assert_eq!(*h, f.terrain.height(p[0], p[1]).height);
    }
}

#[test]
fn with_nothing_resident_the_overview_answers_and_says_so() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let t = Terrain::new(world.clone(), Arc::new(RwLock::new(PieceMap::default())));
    let h = t.height(123.4, -567.8);
    assert_eq!(h.origin, Origin::Overview);
    assert_eq!(h.height, world.overview().height(123.4, -567.8));
    assert_eq!(t.height(1e6, 0.0).origin, Origin::Outside);
    assert!(t.ground(10.0, 10.0).is_none());
    assert_eq!(t.normal(0.0, 0.0).1, Origin::Overview);
    let nan = t.height(f64::NAN, 0.0);
    assert!(nan.height.is_nan() && nan.origin == Origin::Outside);
}

#[test]
fn normals_are_unit_and_tilt_downhill() {
    let f = everything_resident();
    for p in probe_points(&f.world, 500) {
        let (n, _) = f.terrain.normal(p[0], p[1]);
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!((len - 1.0).abs() < 1e-4 && n[1] > 0.0);
        let s = f.world.manifest().vertex_spacing;
        let dhdx = (f.brute_height(p[0] + s, p[1]) - f.brute_height(p[0] - s, p[1])) as f64;
        if dhdx.abs() > 0.5 {
            assert_eq!(
                (n[0] as f64).signum(),
                -dhdx.signum(),
                "the normal leans away from the uphill side"
            );
        }
    }
}

#[test]
fn ground_and_biome_decode_the_nearest_sample() {
    let f = everything_resident();
    let s = f.world.manifest().vertex_spacing;
    let n = f.world.manifest().region_size as i64;
    for p in probe_points(&f.world, 3_000) {
        let g = f.terrain.ground(p[0], p[1]).unwrap();
        let (gi, gj) = ((p[0] / s).round() as i64, (p[1] / s).round() as i64);
        let b = f.world.manifest().region_bounds;
        let (gi, gj) = (
            gi.clamp(b.min[0] as i64 * n, (b.max[0] as i64 + 1) * n - 1),
            gj.clamp(b.min[1] as i64 * n, (b.max[1] as i64 + 1) * n - 1),
        );
        let r = &f.regions[&g.region];
        let k = (gj.rem_euclid(n) * n + gi.rem_euclid(n)) as usize;
        assert_eq!(g.control, Control::decode(r.control.as_ref().unwrap()[k]));
        assert_eq!(g.biome, Some(r.biome.as_ref().unwrap()[k]));
        let (id, name) = f.terrain.biome(p[0], p[1]).unwrap();
        assert_eq!(name, f.world.biomes()[id as usize].name);
    }
}

fn seg_distance(a: [f32; 3], b: [f32; 3], p: [f64; 2]) -> f64 {
    let (ax, az, bx, bz) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
    let (vx, vz) = (bx - ax, bz - az);
    let t =
        (((p[0] - ax) * vx + (p[1] - az) * vz) / (vx * vx + vz * vz).max(1e-12)).clamp(0.0, 1.0);
    ((p[0] - ax - t * vx).powi(2) + (p[1] - az - t * vz).powi(2)).sqrt()
}

#[test]
fn river_finds_the_same_nearest_reach_as_a_scan() {
    let f = everything_resident();
    for p in probe_points(&f.world, 3_000) {
        let brute = f
            .world
            .reaches()
            .iter()
            .flat_map(|r| {
                r.points
                    .windows(2)
                    .map(move |w| (r.id, seg_distance(w[0], w[1], p)))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        match f.terrain.river(p[0], p[1], 150.0) {
            Some(hit) => {
                assert!(
                    (hit.distance_m as f64 - brute.1).abs() < 1e-3,
                    "at {p:?}: {} vs {}",
                    hit.distance_m,
                    brute.1
                );
                assert!(brute.1 <= 150.0);
                let reach = &f.world.reaches()[hit.reach as usize];
                assert!(
                    hit.width_m >= reach.head_width_m.min(reach.width_m) - 1e-4
                        && hit.width_m <= reach.width_m.max(reach.head_width_m) + 1e-4
                );
                assert_eq!(hit.has_water, hit.distance_m <= hit.width_m / 2.0);
            }
            None => assert!(brute.1 > 150.0, "missed a reach {} m away", brute.1),
        }
    }
}

#[test]
fn lake_finds_the_containing_or_nearest_lake_like_a_scan() {
    let f = everything_resident();
    let lakes = f.world.lakes();
    assert!(!lakes.is_empty());
    // Probe around every lake as well as at random.
    let mut pts = probe_points(&f.world, 1_000);
    for ring in lakes.iter().flat_map(|l| l.rings()) {
        for (k, q) in ring.iter().enumerate().step_by(3) {
            let c = ring[(k + ring.len() / 2) % ring.len()];
            pts.push([
                q[0] as f64 * 0.7 + c[0] as f64 * 0.3,
                q[1] as f64 * 0.7 + c[1] as f64 * 0.3,
            ]);
            pts.push([
                q[0] as f64 * 1.3 - c[0] as f64 * 0.3,
                q[1] as f64 * 1.3 - c[1] as f64 * 0.3,
            ]);
        }
    }
    for p in pts {
        let got = f.terrain.lake(p[0], p[1], 1e9).unwrap();
        let lake = &lakes[got.lake as usize - 1];
        let shore = |l: &relief::flat::Lake| {
            l.rings()
                .flat_map(|r| {
                    (0..r.len()).map(move |k| {
                        let (a, b) = (r[k], r[(k + 1) % r.len()]);
                        seg_distance([a[0], a[1], 0.0], [b[0], b[1], 0.0], p)
                    })
                })
                .fold(f64::INFINITY, f64::min)
        };
        // A scan by the even-odd rule over every ring of every lake.
        let holder = lakes.iter().find(|l| l.contains(p[0], p[1]));
        assert_eq!(got.inside, holder.is_some(), "at {p:?}");
        if got.inside {
            assert_eq!(got.distance_m, 0.0);
            assert_eq!(got.lake, holder.unwrap().id);
        } else {
            let nearest = lakes
                .iter()
                .map(|l| (l.id, shore(l)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            assert_eq!(got.lake, nearest.0);
            assert!((got.distance_m as f64 - nearest.1).abs() < 1e-3);
            assert_eq!(got.level_m, lake.level_m);
        }
    }
}

#[test]
fn queries_run_on_other_threads_while_the_streamer_moves() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let mut s = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap();
    let terrain = Terrain::new(world, s.resident());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..2)
        .map(|t| {
            let (terrain, stop) = (terrain.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut answered = [0usize; 2];
                let mut k = 0.0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    k += 1.0;
                    let h = terrain.height(-1800.0 + (k * 7.3 + t as f64) % 3600.0, 300.0);
                    assert!(h.height.is_finite());
                    answered[matches!(h.origin, Origin::Region(_)) as usize] += 1;
                    let _ = terrain.river(k % 2000.0 - 1000.0, 0.0, 100.0);
                }
                answered
            })
        })
        .collect();
    for step in 0..300 {
        s.update(DVec3::new(-1800.0 + step as f64 * 12.0, 0.0, 300.0));
        std::thread::sleep(Duration::from_millis(2));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        let [overview, region] = r.join().expect("a query thread panicked");
        assert!(region > 0 && overview + region > 100);
    }
}

/// Not a position: every query says so (None, or the Outside origin) instead of answering
/// sample (0, 0) or reaching the spatial index with a NaN; a NaN radius finds nothing.
#[test]
fn non_finite_positions_and_radii_answer_nothing() {
    let f = everything_resident();
    let t = &f.terrain;
    // The point (0, 0) itself has ground, so an answer there would be a wrong answer.
    assert!(t.ground(0.0, 0.0).is_some());
    for (x, z) in [
        (f64::NAN, 0.0),
        (0.0, f64::NAN),
        (f64::INFINITY, 0.0),
        (0.0, f64::NEG_INFINITY),
    ] {
        assert!(t.ground(x, z).is_none(), "ground at ({x}, {z})");
        assert!(t.biome(x, z).is_none(), "biome at ({x}, {z})");
        assert!(t.river(x, z, 1e9).is_none(), "river at ({x}, {z})");
        assert!(t.lake(x, z, 1e9).is_none(), "lake at ({x}, {z})");
        assert_eq!(t.normal(x, z).1, Origin::Outside, "normal at ({x}, {z})");
        assert_eq!(
            t.height(x, z).origin,
            Origin::Outside,
            "height at ({x}, {z})"
        );
    }
    assert!(t.river(0.0, 0.0, f64::NAN).is_none());
    assert!(t.lake(0.0, 0.0, f64::NAN).is_none());
    assert!(t.river(0.0, 0.0, 1e9).is_some());
}
