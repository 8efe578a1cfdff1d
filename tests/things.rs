//! Placed things streamed on a baked world (its default table): the laws of placement held by
//! every thing of every chunk built, the same bytes on any thread count, load order or
//! rebuild, and the runtime's events and lookup.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use relief::flat::things::ThingSource;
use relief::flat::{Terrain, World};
use relief::runtime::{ThingHit, ThingsConfig};
use relief::stream::{Event, Source};
use relief::things::{Band, Rules, ThingChunk, ThingKey};
use relief::{DVec3, Runtime, RuntimeConfig, RuntimeEvent};

fn world() -> Arc<World> {
    static WORLD: std::sync::OnceLock<Arc<World>> = std::sync::OnceLock::new();
    WORLD
        .get_or_init(|| Arc::new(World::open(common::world_dir()).unwrap()))
        .clone()
}

/// Runtime settled at each of `foci` in turn with `threads` loaders; every thing chunk built
/// on the way, as last built.
fn walk(threads: usize, foci: &[DVec3]) -> HashMap<ThingKey, Arc<ThingChunk>> {
    let config = RuntimeConfig {
        loader_threads: threads,
        ..things_only()
    };
    let mut rt = Runtime::new(world(), config).unwrap();
    let mut built = HashMap::new();
    for &f in foci {
        assert!(rt.settle(f, Duration::from_secs(120)).unwrap());
        while let Some(e) = rt.poll_event() {
            if let RuntimeEvent::Things(Event::Loaded { key, .. }) = e {
                built.insert(key, rt.thing_lookup().get(key).unwrap());
            }
            assert!(
                !matches!(e, RuntimeEvent::Things(Event::Failed { .. })),
                "{e:?}"
            );
        }
    }
    built
}

/// Regions and things, no collision or levels.
fn things_only() -> RuntimeConfig {
    RuntimeConfig {
        collision: None,
        lod: None,
        ..RuntimeConfig::default()
    }
}

/// Near the island's middle, off its central peak.
fn centre() -> DVec3 {
    let w = world();
    let (b, side) = (w.manifest().region_bounds, w.region_extent());
    let at = |axis: usize, t: f64| {
        let (lo, hi) = (b.min[axis] as f64 * side, (b.max[axis] + 1) as f64 * side);
        lo + (hi - lo) * t
    };
    DVec3::new(at(0, 0.4), 0.0, at(1, 0.6))
}

/// Every thing stands on the ground the height query answers, on a biome its kind grows
/// in, on a slope within its limit, out of rivers and lakes, and no closer to another than
/// their spacing, across every chunk and band built around the island's middle.
#[test]
fn every_thing_keeps_the_tables_laws() {
    let w = world();
    let rules = w.things().clone();
    assert!(!rules.is_empty(), "a baked world carries the default table");
    let built = walk(1, &[centre()]);
    let mut rt = Runtime::new(
        w.clone(),
        RuntimeConfig {
            collision: None,
            lod: None,
            things: None,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(rt.settle(centre(), Duration::from_secs(120)).unwrap());
    let terrain = rt.queries().flat().unwrap().clone();
    let mut all = Vec::new();
    let mut per_kind = vec![0usize; rules.kinds.len()];
    for c in built.values() {
        for run in &c.runs {
            for i in run.start as usize..(run.start + run.count) as usize {
                let p = c.positions[i];
                let (x, z) = (p[0] as f64, p[2] as f64);
                all.push((run.kind, c.ids[i], x, z));
                per_kind[run.kind as usize] += 1;
                check_site(&terrain, &rules, run.kind as usize, [x, p[1] as f64, z]);
            }
        }
    }
    assert!(
        per_kind.iter().filter(|&&n| n > 0).count() >= 3,
        "{per_kind:?}"
    );
    // Spacing: f32 positions are within a millimetre of the f64 ones placement compared.
    all.sort_by(|a, b| a.2.total_cmp(&b.2));
    let widest = rules.kinds.iter().map(|k| k.spacing).fold(0.0, f64::max);
    for (i, a) in all.iter().enumerate() {
        for b in all[i + 1..].iter().take_while(|b| b.2 - a.2 < widest) {
            let (ka, kb) = (&rules.kinds[a.0 as usize], &rules.kinds[b.0 as usize]);
            let least = relief::things::place::spacing_between(ka, kb, a.0 == b.0);
            let d = ((a.2 - b.2).powi(2) + (a.3 - b.3).powi(2)).sqrt();
            assert!(
                d >= least - 1e-3,
                "{} {} and {} {} {d} m apart",
                ka.name,
                a.1,
                kb.name,
                b.1
            );
        }
    }
    let ids: HashSet<u64> = all.iter().map(|a| a.1).collect();
    assert_eq!(ids.len(), all.len(), "ids are unique");
}

fn check_site(terrain: &Terrain, rules: &Rules, kind: usize, p: [f64; 3]) {
    let k = &rules.kinds[kind];
    let h = terrain.height(p[0], p[2]);
    assert!(matches!(h.origin, relief::flat::terrain::Origin::Region(_)));
    assert!(
        (h.height as f64 - p[1]).abs() < 1e-3,
        "{} at {p:?} floats off {h:?}",
        k.name
    );
    let g = terrain.ground(p[0], p[2]).unwrap();
    assert!(!g.control.hole);
    assert!(
        k.density[g.biome.unwrap() as usize] > 0.0,
        "{} on biome {:?}",
        k.name,
        g.biome
    );
    assert!(g.lake.map_or(true, |l| l == 0), "{} in a lake", k.name);
    let (n, _) = terrain.normal(p[0], p[2]);
    assert!(
        n.y as f64 >= k.normal_y[0] - 1e-6,
        "{} on a slope of normal {n}",
        k.name
    );
    if let Some(r) = terrain.river(p[0], p[2], 100.0) {
        assert!(!r.has_water, "{} in {r}", k.name);
    }
}

/// One loader walking east, three settling the same places in the opposite order: every
/// chunk both built is the same, bit for bit (transforms, ids, colliders).
#[test]
fn the_same_things_on_any_thread_count_and_order() {
    let c = centre();
    let foci: Vec<DVec3> = (0..3)
        .map(|i| c + DVec3::new(i as f64 * 150.0, 0.0, 0.0))
        .collect();
    let one = walk(1, &foci);
    let reversed: Vec<DVec3> = foci.iter().rev().copied().collect();
    let three = walk(3, &reversed);
    let mut shared = 0;
    for (key, a) in &one {
        if let Some(b) = three.get(key) {
            assert_eq!(a, b, "{key:?}");
            shared += 1;
        }
    }
    assert!(shared > 20, "{shared} chunks in common");
    // And a chunk built by a source of its own, nothing resident (its regions read from
    // their files), is the same again.
    let w = world();
    let terrain = Terrain::new(w.clone(), Default::default());
    let config = ThingsConfig::default();
    for band in Band::ALL {
        let source = ThingSource::new(
            terrain.clone(),
            w.things().clone(),
            band,
            config.band(band).chunk_size_m,
        )
        .unwrap();
        let key = source.key_at(c.x, c.z);
        assert_eq!(&source.load(key).unwrap(), one[&key].as_ref(), "{key:?}");
    }
}

/// A chunk that is dropped, evicted and wanted again comes back the same.
#[test]
fn a_chunk_dropped_and_wanted_again_is_the_same() {
    let c = centre();
    let first = walk(2, &[c]);
    // Budgets a quarter above what one place wants: going away and back evicts.
    let mut config = things_only();
    let mut probe = Runtime::new(world(), config.clone()).unwrap();
    assert!(probe.settle(c, Duration::from_secs(120)).unwrap());
    let wanted = probe.stats().things;
    let things = config.things.as_mut().unwrap();
    for band in Band::ALL {
        let b = match band {
            Band::Near => &mut things.near,
            Band::Mid => &mut things.mid,
            Band::Far => &mut things.far,
        };
        b.stream.budget_bytes = wanted[band as usize].as_ref().unwrap().ready_bytes * 5 / 4;
    }
    let mut rt = Runtime::new(world(), config).unwrap();
    let away = c + DVec3::new(1500.0, 0.0, 0.0);
    for f in [c, away, c] {
        assert!(rt.settle(f, Duration::from_secs(120)).unwrap());
    }
    let mut again = 0;
    rt.for_each_built_thing_chunk(|key| {
        if let Some(a) = first.get(&key) {
            assert_eq!(
                a.as_ref(),
                rt.thing_lookup().get(key).unwrap().as_ref(),
                "{key:?}"
            );
            again += 1;
        }
    });
    assert!(again > 20, "{again}");
    let s = rt.stats();
    assert!(
        s.things.iter().flatten().map(|s| s.evictions).sum::<u64>() > 0,
        "nothing was evicted"
    );
}

/// Things near a point: every built thing within the radius, nearest first, and no other.
#[test]
fn things_within_a_radius_are_every_built_one_and_no_other() {
    let c = centre();
    let config = things_only();
    let mut rt = Runtime::new(world(), config).unwrap();
    assert!(rt.settle(c, Duration::from_secs(120)).unwrap());
    let lookup = rt.thing_lookup().clone();
    for r in [0.0, 3.0, 25.0, 80.0] {
        let mut hits: Vec<ThingHit> = Vec::new();
        let n = lookup.within(c, r, &mut hits);
        assert_eq!(n, hits.len());
        assert!(hits.windows(2).all(|w| w[0].distance <= w[1].distance));
        let mut want = HashSet::new();
        rt.for_each_built_thing_chunk(|key| {
            let chunk = lookup.get(key).unwrap();
            for (i, p) in chunk.positions.iter().enumerate() {
                let d = ((p[0] as f64 - c.x).powi(2) + (p[2] as f64 - c.z).powi(2)).sqrt();
                if d <= r {
                    want.insert(chunk.ids[i]);
                }
            }
        });
        let got: HashSet<u64> = hits.iter().map(|h| h.id).collect();
        assert_eq!(got, want, "radius {r}");
        for h in &hits {
            let chunk = lookup.get(h.chunk).unwrap();
            assert_eq!(chunk.ids[h.index as usize], h.id);
            assert_eq!(chunk.kind_of(h.index as usize), Some(h.kind));
        }
        if r >= 25.0 {
            assert!(
                !hits.is_empty(),
                "nothing within {r} m of the island's middle"
            );
        }
    }
    let mut none = Vec::new();
    assert_eq!(lookup.within(DVec3::NAN, 10.0, &mut none), 0);
    assert_eq!(lookup.within(c, f64::INFINITY, &mut none), 0);
}

/// Each event keeps the streamer's laws: a chunk is ready once before each drop, and
/// what is built is what the events leave ready.
#[test]
fn thing_events_alternate_and_match_what_is_built() {
    let c = centre();
    let config = things_only();
    let mut rt = Runtime::new(world(), config).unwrap();
    let mut held = HashSet::new();
    for i in 0..4 {
        let f = c + DVec3::new(i as f64 * 200.0, 0.0, 0.0);
        assert!(rt.settle(f, Duration::from_secs(120)).unwrap());
        while let Some(e) = rt.poll_event() {
            match e {
                RuntimeEvent::Things(Event::Loaded { key, .. }) => assert!(held.insert(key)),
                RuntimeEvent::Things(Event::Unloaded { key }) => assert!(held.remove(&key)),
                RuntimeEvent::Things(Event::Failed { .. }) => panic!("{e:?}"),
                _ => {}
            }
        }
        let mut built = HashSet::new();
        rt.for_each_built_thing_chunk(|k| {
            built.insert(k);
        });
        assert_eq!(built, held);
        assert!(
            held.iter().any(|k| k.band == Band::Near) && held.iter().any(|k| k.band == Band::Far)
        );
    }
}
