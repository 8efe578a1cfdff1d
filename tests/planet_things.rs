//! Placed things on planets keep the table's laws where a flat world has none to break:
//! across chunk edges, face seams and cube corners no two things stand closer than their
//! spacing (measured between points on the sea-level sphere), every thing stands on the
//! ground the height query answers, densities hold per square metre of ground wherever the
//! cube's cells are stretched, and a chunk is the same bytes whichever order, thread or
//! residency built it.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use relief::planet::cube;
use relief::planet::things::PlanetThingSource;
use relief::planet::{Planet, PlanetTerrain};
use relief::stream::{Event, Resident, Source};
use relief::things::place::spacing_between;
use relief::things::{Align, Band, ThingChunk, ThingKey};
use relief::{DVec3, Runtime, RuntimeConfig, RuntimeEvent};

use common::planets::{resident, rolling, write_planet_with};

const RADIUS: f64 = 3000.0;

/// Trees in the far band, rocks (along the slope) in the middle one, one biome.
const TABLE: &str = r#"{"version": 1, "kinds": [
  {"name": "tree", "band": "far", "footprint_m": 1.5, "spacing_m": 5,
   "density": {"ground": 0.008}, "slope_deg": {"max": 40}, "tilt_deg": [0, 4]},
  {"name": "rock", "band": "mid", "footprint_m": 0.8, "spacing_m": 2, "align": "slope",
   "density": {"*": 0.05}}
]}"#;

/// A 3 km planet of rolling hills (faces of 256², 18 m samples) with [`TABLE`].
fn hills() -> Arc<Planet> {
    static PLANET: std::sync::OnceLock<Arc<Planet>> = std::sync::OnceLock::new();
    PLANET
        .get_or_init(|| {
            let out = common::scratch("planet-things-hills").with_extension("plnt");
            let waves = vec![
                (30.0, 900.0, DVec3::new(1.0, 0.3, 0.2).normalize()),
                (12.0, 310.0, DVec3::new(-0.2, 0.5, 1.0).normalize()),
            ];
            let ground = rolling(RADIUS, waves);
            write_planet_with(&out, RADIUS, 256, 64, |d| ground(d) + 60.0, Some(TABLE));
            Arc::new(Planet::open(&out).unwrap())
        })
        .clone()
}

fn source(terrain: &PlanetTerrain, band: Band, size: f64) -> PlanetThingSource {
    let rules = terrain.planet().things().unwrap().clone();
    PlanetThingSource::new(terrain.clone(), rules, band, size).unwrap()
}

/// Every chunk of `source` within `radius` of direction `d`, built.
fn around(source: &PlanetThingSource, d: DVec3, radius: f64) -> Vec<ThingChunk> {
    let mut keys = Vec::new();
    source.keys_within(d * RADIUS, radius, &mut keys);
    keys.iter()
        .map(|(k, _)| source.build(*k).unwrap())
        .collect()
}

/// A cube corner (faces +X, +Y, +Z meet), the middle of a seam, a face's middle.
fn places() -> [(&'static str, DVec3); 3] {
    [
        ("corner", DVec3::new(1.0, 1.0, 1.0).normalize()),
        ("seam", DVec3::new(1.0, 0.0, 1.0).normalize()),
        ("middle", DVec3::new(0.2, 1.0, -0.1).normalize()),
    ]
}

/// One thing as a user reads it from its chunk: the chunk's origin plus the row's
/// translation, and the row's basis columns.
fn placed(c: &ThingChunk, i: usize) -> (DVec3, [DVec3; 3]) {
    let r = c.rows[i].map(f64::from);
    let o = DVec3::from_array(c.origin);
    (
        o + DVec3::new(r[3], r[7], r[11]),
        [
            DVec3::new(r[0], r[4], r[8]),
            DVec3::new(r[1], r[5], r[9]),
            DVec3::new(r[2], r[6], r[10]),
        ],
    )
}

/// At a cube corner, on a seam and mid-face: every thing of both bands stands on the ground
/// (as its chunk's rows place it), upright ones along the radial within their tilt, with a
/// unique id, and no two closer than their spacing along the sea-level sphere — whichever
/// chunks and faces they came from.
#[test]
fn things_keep_their_spacing_across_chunks_seams_and_corners() {
    let planet = hills();
    let (_tiles, terrain) = resident(&planet);
    let rules = planet.things().unwrap().clone();
    for (name, d) in places() {
        let mut all: Vec<(u16, DVec3, ThingKey)> = Vec::new();
        let mut faces = HashSet::new();
        for (band, size) in [(Band::Far, 128.0), (Band::Mid, 64.0)] {
            for c in around(&source(&terrain, band, size), d, 260.0) {
                faces.insert(c.key.face);
                for run in &c.runs {
                    let kind = &rules.kinds[run.kind as usize];
                    for i in run.start as usize..(run.start + run.count) as usize {
                        let (p, [x, y, z]) = placed(&c, i);
                        let ground = RADIUS + terrain.height(p).height as f64;
                        assert!(
                            (p.length() - ground).abs() < 0.01,
                            "{name}: {} at {p} is {} m off the ground",
                            kind.name,
                            p.length() - ground
                        );
                        let s = c.scales[i] as f64;
                        for (a, b) in [(x, y), (y, z), (z, x)] {
                            assert!(a.dot(b).abs() < 1e-3 * s * s, "{name}: not rigid");
                        }
                        if kind.align == Align::Upright {
                            let up = y / s;
                            let lean = up.angle_between(p.normalize());
                            assert!(lean <= kind.tilt[1] + 1e-3, "{name}: leans {lean}");
                        }
                        all.push((run.kind as u16, p, c.key));
                    }
                }
            }
        }
        let per_kind = |k: u16| all.iter().filter(|t| t.0 == k).count();
        assert!(per_kind(0) > 100 && per_kind(1) > 1000, "{name}: {all:?}");
        if name != "middle" {
            assert!(faces.len() >= 2, "{name}: chunks on faces {faces:?}");
        }
        if name == "corner" {
            assert_eq!(faces.len(), 3, "{name}");
        }
        // Spacing between points on the sea-level sphere, bucketed by 8 m cells of direction.
        let cell = 8.0;
        let bucket = |p: DVec3| (p.normalize() * RADIUS / cell).floor().as_ivec3();
        let mut grid: HashMap<_, Vec<usize>> = HashMap::new();
        for (i, t) in all.iter().enumerate() {
            grid.entry(bucket(t.1)).or_default().push(i);
        }
        let mut pairs = 0usize;
        for (i, a) in all.iter().enumerate() {
            let b0 = bucket(a.1);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let near = grid.get(&(b0 + relief::glam::IVec3::new(dx, dy, dz)));
                        for &j in near.into_iter().flatten().filter(|&&j| j > i) {
                            let b = &all[j];
                            let (ka, kb) = (&rules.kinds[a.0 as usize], &rules.kinds[b.0 as usize]);
                            let least = spacing_between(ka, kb, a.0 == b.0);
                            let chord = (a.1.normalize() - b.1.normalize()).length() * RADIUS;
                            assert!(
                                chord >= least,
                                "{name}: {} in {:?} and {} in {:?} are {chord} m apart, at \
                                 least {least}",
                                ka.name,
                                a.2,
                                kb.name,
                                b.2
                            );
                            pairs += 1;
                        }
                    }
                }
            }
        }
        assert!(pairs > 1000, "{name}: {pairs} pairs compared");
    }
}

/// On level ground, a kind's things per square metre of ground (the chunks' own areas on
/// the sphere, from the cube's solid angles) match the table within 4 % at a cube corner,
/// mid-seam and mid-face, where a face's plane covers 0.77, 0.71 and 1 of its area.
#[test]
fn densities_hold_per_square_metre_of_ground_everywhere() {
    let dir = common::scratch("planet-things-level");
    std::fs::create_dir_all(&dir).unwrap();
    let table = r#"{"version": 1, "kinds": [{"name": "tuft", "band": "mid",
        "footprint_m": 0.2, "spacing_m": 1.5, "density": {"*": 0.08}}]}"#;
    let path = write_planet_with(
        &dir.join("level.plnt"),
        RADIUS,
        128,
        64,
        |_| 5.0,
        Some(table),
    );
    let planet = Arc::new(Planet::open(&path).unwrap());
    let (_tiles, terrain) = resident(&planet);
    let s = source(&terrain, Band::Mid, 64.0);
    let half = s.faces().half();
    let plane = |x: f64| (x / half * std::f64::consts::FRAC_PI_4).tan();
    for (name, d) in places().into_iter().rev() {
        let chunks = around(&s, d, 200.0);
        let things: usize = chunks.iter().map(ThingChunk::len).sum();
        let area: f64 = chunks
            .iter()
            .map(|c| {
                let q = s.square(c.key);
                let (u0, v0) = (plane(q.x0), plane(q.z0));
                let (u1, v1) = (plane(q.x0 + q.size), plane(q.z0 + q.size));
                cube::plane_solid_angle(u0, v0, u1, v1) * RADIUS * RADIUS
            })
            .sum();
        let density = things as f64 / area;
        eprintln!("{name}: {things} things over {area:.0} m², {density} a m²");
        assert!(
            (density / 0.08 - 1.0).abs() < 0.04,
            "{name}: {things} things over {area:.0} m², {density} a m²"
        );
    }
}

/// The same chunks, bit for bit, from a source holding every tile and walking one way on
/// this thread, and from one holding none (reading tiles itself) walking the other way on
/// two others.
#[test]
fn the_same_things_on_any_thread_order_and_residency() {
    let planet = hills();
    let (_tiles, terrain) = resident(&planet);
    let bare = PlanetTerrain::new(planet.clone(), Resident::default()).unwrap();
    for (band, size) in [(Band::Far, 128.0), (Band::Mid, 64.0)] {
        let held = source(&terrain, band, size);
        let reading = source(&bare, band, size);
        let d = places()[0].1;
        let mut keys = Vec::new();
        held.keys_within(d * RADIUS, 200.0, &mut keys);
        let keys: Vec<ThingKey> = keys.into_iter().map(|(k, _)| k).collect();
        let one: Vec<ThingChunk> = keys.iter().map(|k| held.build(*k).unwrap()).collect();
        let two: Vec<ThingChunk> = std::thread::scope(|scope| {
            let halves: Vec<_> = keys
                .rchunks(keys.len().div_ceil(2))
                .map(|part| {
                    let reading = &reading;
                    scope.spawn(move || {
                        part.iter()
                            .rev()
                            .map(|k| reading.build(*k).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let by_key: HashMap<ThingKey, &ThingChunk> = two.iter().map(|c| (c.key, c)).collect();
        assert_eq!(by_key.len(), one.len());
        for c in &one {
            assert!(!c.is_empty() || band == Band::Far);
            assert_eq!(Some(&c), by_key.get(&c.key), "{:?}", c.key);
        }
    }
}

/// A runtime on a planet streams its things: chunks ready near the focus as events, and
/// `within` finds exactly the built things in a radius, nearest first, by distance along
/// the sphere.
#[test]
fn a_planet_runtime_streams_things_and_finds_them() {
    let planet = hills();
    let config = RuntimeConfig {
        collision: None,
        lod: None,
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::new(planet.clone(), config).unwrap();
    let focus = places()[1].1 * (RADIUS + 80.0);
    assert!(rt.settle(focus, Duration::from_secs(120)).unwrap());
    let mut ready = HashSet::new();
    while let Some(e) = rt.poll_event() {
        if let RuntimeEvent::Things(e) = e {
            match e {
                Event::Loaded { key, .. } => assert!(ready.insert(key)),
                Event::Failed { key, error, .. } => panic!("{key:?}: {error}"),
                _ => {}
            }
        }
    }
    let bands: HashSet<Band> = ready.iter().map(|k| k.band).collect();
    assert_eq!(bands, HashSet::from([Band::Mid, Band::Far]));
    let lookup = rt.thing_lookup();
    let radius = 60.0;
    let mut hits = Vec::new();
    assert!(lookup.within(focus, radius, &mut hits) > 10);
    let along = |p: DVec3| p.normalize().angle_between(focus.normalize()) * RADIUS;
    let mut expected = HashSet::new();
    for key in &ready {
        let c = lookup.get(*key).unwrap();
        for i in 0..c.len() {
            if along(placed(&c, i).0) <= radius - 1e-3 {
                expected.insert(c.ids[i]);
            }
        }
    }
    let found: HashSet<u64> = hits.iter().map(|h| h.id).collect();
    assert!(
        expected.is_subset(&found),
        "{} missed",
        expected.difference(&found).count()
    );
    for w in hits.windows(2) {
        assert!(w[0].distance <= w[1].distance);
    }
    for h in &hits {
        assert!((along(h.position) - h.distance).abs() < 1e-3 && h.distance <= radius);
    }
}

/// A baked planet places its default table's things: every thing stands on a biome its
/// kind grows in, on a slope within its limit, above the sea and out of lakes and river
/// water, and the runtime's kind names are the table's.
#[test]
fn a_baked_planet_places_its_default_table() {
    let planet = Arc::new(
        Planet::open_bytes("baked", Box::new(common::planet_blob("relief").to_vec())).unwrap(),
    );
    let rules = planet.things().unwrap().clone();
    assert!(rules.kinds.len() >= 4, "{} kinds", rules.kinds.len());
    let (_tiles, terrain) = resident(&planet);
    let names = planet.biome_names().unwrap();
    // Land somewhere: the first of a spiral of points that stands above the sea.
    let land = (0..400)
        .map(|i| {
            let t = i as f64 * 0.37;
            terrain.position_at(60.0 * (t * 0.7).sin(), 170.0 * (t * 0.3).cos())
        })
        .find(|p| terrain.height(*p).height > 40.0)
        .expect("land");
    let mut count = 0;
    for band in Band::ALL.into_iter().filter(|b| rules.has_band(*b)) {
        let s = source(&terrain, band, 64.0);
        for c in around(&s, land.normalize(), 300.0) {
            for run in &c.runs {
                let kind = &rules.kinds[run.kind as usize];
                for i in run.start as usize..(run.start + run.count) as usize {
                    let (p, _) = placed(&c, i);
                    let (biome, name) = terrain.biome(p).unwrap();
                    assert!(
                        kind.density[biome as usize] > 0.0,
                        "{} on {name}",
                        kind.name
                    );
                    let height = terrain.height(p).height;
                    assert!(height >= 0.0, "{} in the sea", kind.name);
                    let level = f64::from(terrain.normal(p).0.dot(p.normalize().as_vec3()));
                    assert!(level >= kind.normal_y[0] - 1e-3, "{} too steep", kind.name);
                    let lake = terrain.lake(p, 0.0);
                    assert!(!lake.is_some_and(|l| l.inside), "{} in a lake", kind.name);
                    let river = terrain.river(p, 100.0);
                    assert!(
                        !river.is_some_and(|r| r.has_water),
                        "{} in a river",
                        kind.name
                    );
                    assert!(names.len() > biome as usize);
                    count += 1;
                }
            }
        }
    }
    assert!(count > 100, "{count} things");
}

/// The streamer's contract: `keys_within` names exactly the chunks whose distance is within
/// the radius (against every chunk of the planet), at a cube corner, on a seam, mid-face and
/// off a face's corner; and no chunk's distance changes by more than `moved` says the focus
/// moved, so a plan can be skipped until it has.
#[test]
fn keys_within_are_exactly_the_chunks_in_reach_and_moves_bound_distances() {
    let planet = hills();
    let (_tiles, terrain) = resident(&planet);
    let s = source(&terrain, Band::Far, 128.0);
    let per = ((2.0 * s.faces().half() / s.chunk_metres()).round()) as i32;
    let every: Vec<ThingKey> = (0..6u8)
        .flat_map(|face| {
            (0..per).flat_map(move |z| {
                (0..per).map(move |x| ThingKey {
                    band: Band::Far,
                    face,
                    x,
                    z,
                })
            })
        })
        .collect();
    let mut points: Vec<DVec3> = places().iter().map(|(_, d)| *d).collect();
    points.push(DVec3::new(1.0, 0.98, 1.02).normalize());
    for d in points {
        for radius in [0.0, 150.0, 512.0] {
            let focus = d * (RADIUS + 30.0);
            let mut got = Vec::new();
            s.keys_within(focus, radius, &mut got);
            let got: HashSet<ThingKey> = got.into_iter().map(|(k, _)| k).collect();
            let want: HashSet<ThingKey> = every
                .iter()
                .copied()
                .filter(|k| s.distance(*k, focus) <= radius)
                .collect();
            assert_eq!(got, want, "{d} within {radius}");
            assert!(!want.is_empty());
        }
        let to = (d + DVec3::new(0.003, -0.002, 0.001)).normalize() * RADIUS;
        let moved = s.moved(d * RADIUS, to);
        for k in every.iter().filter(|k| s.distance(**k, to) < 2000.0) {
            let change = (s.distance(*k, d * RADIUS) - s.distance(*k, to)).abs();
            assert!(change <= moved + 1e-6, "{k:?}: {change} > {moved}");
        }
    }
}

/// Rivers gathered once near a chunk answer as the whole index does for every point within
/// the reach they were gathered for: the same distance and water, on a baked planet's rivers.
#[test]
fn rivers_gathered_near_a_place_answer_as_the_index_does() {
    let planet = Arc::new(
        Planet::open_bytes("baked", Box::new(common::planet_blob("relief").to_vec())).unwrap(),
    );
    let terrain = PlanetTerrain::new(planet.clone(), Resident::default()).unwrap();
    let reaches = planet.reaches().unwrap();
    let r = planet.radius();
    let (mut compared, mut found) = (0, 0);
    for reach in reaches.iter().step_by(reaches.len().div_ceil(12).max(1)) {
        let p = reach.points[reach.points.len() / 2];
        let centre = DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64) * r;
        let near = terrain.rivers_near(centre, 3000.0);
        for k in 0..200 {
            let t = k as f64 * 0.61;
            let offset = DVec3::new(t.sin(), (t * 1.7).cos(), (t * 0.3).sin()) * (k as f64 * 9.0);
            let at = (centre + offset).normalize() * r;
            let radius = 3000.0 - offset.length() - 1.0;
            let (a, b) = (
                terrain.river(at, radius),
                terrain.river_among(&near, at, radius),
            );
            assert_eq!(a.is_some(), b.is_some(), "{at}");
            if let (Some(a), Some(b)) = (a, b) {
                assert_eq!((a.distance_m, a.has_water), (b.distance_m, b.has_water));
                found += 1;
            }
            compared += 1;
        }
    }
    assert!(compared > 1000 && found > 500, "{found} of {compared}");
}
