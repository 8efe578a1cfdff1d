//! The runtime object end to end, on a small baked world and a small baked planet: one update
//! a frame drives pieces, levels and chunks in order; one event stream; parts optional.

mod common;

use relief::DVec3;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use relief::lod::{Clipmap, ClipmapConfig};
use relief::planet::rings::PlanetRings;
use relief::runtime::{BadFocus, ChunkId, CollisionConfig, Lod, PieceKey, Queries, UpdateError};
use relief::stream::{Event, StreamConfig};
use relief::things::ThingKey;
use relief::{Runtime, RuntimeConfig, RuntimeError, RuntimeEvent};
use relief_tools::bake::planet::bake_planet;
use relief_tools::Silent;

fn small_levels() -> ClipmapConfig {
    ClipmapConfig {
        levels: 4,
        size: 64,
        base_spacing: 16.0,
    }
}

/// What a walk's events add up to.
#[derive(Default)]
struct Tally {
    /// Pieces loaded and not unloaded since: what the engine would hold.
    held: HashSet<PieceKey>,
    chunks_held: HashSet<ChunkId>,
    things_held: HashSet<ThingKey>,
    piece_loads: usize,
    chunk_loads: usize,
    dirty_events: usize,
    /// The rectangle count of the last LevelsDirty event in the last drain.
    last_dirty: Option<usize>,
    failures: usize,
}

impl Tally {
    fn drain(&mut self, rt: &mut Runtime) {
        self.last_dirty = None;
        while let Some(e) = rt.poll_event() {
            match e {
                RuntimeEvent::Piece(Event::Loaded { key, .. }) => {
                    assert!(self.held.insert(key), "{key:?} loaded twice");
                    self.piece_loads += 1;
                }
                RuntimeEvent::Piece(Event::Unloaded { key }) => {
                    assert!(self.held.remove(&key), "{key:?} unloaded, never loaded")
                }
                RuntimeEvent::Chunk(Event::Loaded { key, .. }) => {
                    assert!(self.chunks_held.insert(key), "{key:?} ready twice");
                    self.chunk_loads += 1;
                }
                RuntimeEvent::Chunk(Event::Unloaded { key }) => {
                    assert!(
                        self.chunks_held.remove(&key),
                        "{key:?} dropped, never ready"
                    )
                }
                RuntimeEvent::Things(Event::Loaded { key, .. }) => {
                    assert!(self.things_held.insert(key), "{key:?} ready twice")
                }
                RuntimeEvent::Things(Event::Unloaded { key }) => {
                    assert!(
                        self.things_held.remove(&key),
                        "{key:?} dropped, never ready"
                    )
                }
                e @ (RuntimeEvent::Piece(Event::Failed { .. })
                | RuntimeEvent::Chunk(Event::Failed { .. })
                | RuntimeEvent::Things(Event::Failed { .. })) => {
                    eprintln!("failed: {e:?}");
                    self.failures += 1
                }
                RuntimeEvent::LevelsDirty { rects } => {
                    assert!(rects > 0);
                    self.last_dirty = Some(rects);
                    self.dirty_events += 1;
                }
                RuntimeEvent::LevelsFailed { message } => panic!("the levels failed: {message}"),
                RuntimeEvent::Overflow { dropped } => panic!("{dropped} events dropped"),
            }
        }
    }
}

/// Every level cell the runtime keeps equals what a clipmap built from scratch now reads: so
/// every region that arrived after a cell was first filled refreshed it.
fn assert_levels_fresh(rt: &Runtime, focus: DVec3) {
    let Some(Lod::Flat(levels, terrain)) = rt.lod() else {
        panic!("a flat runtime keeps a flat clipmap")
    };
    let mut fresh = Clipmap::new(*levels.config()).unwrap();
    fresh.update(focus, terrain);
    for k in 0..levels.config().levels as usize {
        assert_eq!(levels.level(k).origin(), fresh.level(k).origin());
        assert_eq!(
            levels.level(k).storage(),
            fresh.level(k).storage(),
            "level {k}"
        );
    }
}

#[test]
fn a_flat_walk_drives_every_part_in_order_through_one_event_stream() {
    let config = RuntimeConfig {
        lod: Some(small_levels()),
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::open(common::world_dir(), config).unwrap();
    assert!(!rt.ground().is_planet());
    let start = DVec3::new(-700.0, 0.0, 300.0);
    assert!(rt.settle(start, Duration::from_secs(60)).unwrap());
    let mut tally = Tally::default();
    tally.drain(&mut rt);
    let stats = rt.stats();
    assert_eq!(
        tally.held.len(),
        stats.pieces.ready,
        "one LOADED per ready region"
    );
    assert_eq!(
        tally.chunks_held.len(),
        stats.chunks.as_ref().unwrap().ready
    );
    assert!(tally.chunk_loads > 10 && tally.dirty_events > 0);
    let lookup = rt.chunk_lookup().unwrap();
    assert!(
        lookup.is_built_at(start),
        "the loading screen builds the ground underfoot"
    );
    // Regions arrived after the first fill; each refreshed the cells over it.
    assert_levels_fresh(&rt, start);

    // Walk east at 40 m a frame: regions come and go, chunks follow, levels stay exact.
    let mut focus = start;
    let mut frames_dirty = 0;
    for _ in 0..60 {
        focus[0] += 40.0;
        rt.update(focus).unwrap();
        frames_dirty += !rt.dirty().is_empty() as usize;
        tally.drain(&mut rt);
        // One update, one LevelsDirty event, naming exactly its rectangles.
        let dirty = (!rt.dirty().is_empty()).then_some(rt.dirty().len());
        assert_eq!(tally.last_dirty, dirty);
    }
    assert!(rt.settle(focus, Duration::from_secs(60)).unwrap());
    tally.drain(&mut rt);
    assert_levels_fresh(&rt, focus);
    assert!(
        frames_dirty > 30,
        "the levels moved with the focus ({frames_dirty} frames)"
    );
    let stats = rt.stats();
    assert_eq!(tally.failures, 0);
    assert_eq!(tally.held.len(), stats.pieces.ready);
    assert_eq!(
        tally.chunks_held.len(),
        stats.chunks.as_ref().unwrap().ready
    );
    assert!(
        tally.piece_loads > stats.pieces.ready,
        "the walk loaded new regions"
    );
    assert!(stats.lod_cells_total > 0 && stats.update_max >= stats.update_p50);
    // A standing frame rewrites nothing and says nothing.
    rt.update(focus).unwrap();
    assert!(rt.dirty().is_empty());
    assert!(rt.poll_event().is_none());
    // The query handle reads what the runtime streams.
    let terrain = rt.queries().flat().unwrap();
    assert_eq!(
        rt.queries().height(focus),
        terrain.height(focus[0], focus[2]).height
    );
    assert!(matches!(
        terrain.height(focus[0], focus[2]).origin,
        relief::flat::terrain::Origin::Region(_)
    ));
}

#[test]
fn parts_are_optional_and_a_bad_focus_changes_nothing() {
    let config = RuntimeConfig {
        collision: None,
        lod: None,
        things: None,
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::open(common::world_dir(), config).unwrap();
    assert!(rt.chunks().is_none() && rt.chunk_lookup().is_none() && rt.lod().is_none());
    assert!(rt.things().is_none() && rt.stats().things == [None, None, None]);
    assert!(rt.settle(DVec3::ZERO, Duration::from_secs(60)).unwrap());
    let mut loaded = 0;
    while let Some(e) = rt.poll_event() {
        match e {
            RuntimeEvent::Piece(Event::Loaded { .. }) => loaded += 1,
            other => panic!("only regions stream here: {other:?}"),
        }
    }
    assert_eq!(loaded, rt.stats().pieces.ready);
    assert!(rt.stats().chunks.is_none());
    let before = rt.stats().pieces;
    assert!(matches!(
        rt.update(DVec3::new(f64::NAN, 0.0, 0.0)),
        Err(UpdateError::Focus(BadFocus::NotFinite(_)))
    ));
    assert_eq!(rt.stats().pieces.wanted, before.wanted);
    assert!(rt.update(DVec3::new(f64::INFINITY, 0.0, 1.0)).is_err());
    // A chunk size the world can't hold is refused at creation.
    let bad = RuntimeConfig {
        collision: Some(CollisionConfig {
            chunk_size_m: 1.5,
            ..CollisionConfig::default()
        }),
        ..RuntimeConfig::default()
    };
    assert!(Runtime::open(common::world_dir(), bad).is_err());
}

fn planet_path() -> &'static PathBuf {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let out = common::scratch("runtime-planet").with_extension("plnt");
        bake_planet(&common::small_planet("relief"), &out, &Silent).expect("bake");
        out
    })
}

#[test]
fn a_planet_runs_through_the_same_object() {
    let config = RuntimeConfig {
        pieces: StreamConfig {
            load_radius: 3000.0,
            drop_radius: 4000.0,
            ..StreamConfig::default()
        },
        collision: Some(CollisionConfig {
            stream: StreamConfig {
                load_radius: 600.0,
                drop_radius: 900.0,
                ..StreamConfig::default()
            },
            chunk_size_m: 0.0,
        }),
        lod: Some(ClipmapConfig {
            levels: 3,
            size: 32,
            base_spacing: 400.0,
        }),
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::open(planet_path(), config).unwrap();
    assert!(rt.ground().is_planet());
    let Queries::Planet(terrain) = rt.queries().clone() else {
        panic!("a planet's queries")
    };
    assert_eq!(rt.update(DVec3::ZERO), Err(BadFocus::PlanetCentre.into()));
    let focus = terrain.position_at(10.0, 20.0);
    assert!(rt.settle(focus, Duration::from_secs(60)).unwrap());
    let mut tally = Tally::default();
    tally.drain(&mut rt);
    assert!(tally.held.iter().all(|k| matches!(k, PieceKey::Tile(_))));
    assert!(tally
        .chunks_held
        .iter()
        .all(|k| matches!(k, ChunkId::Planet(_))));
    assert_eq!(tally.held.len(), rt.stats().pieces.ready);
    assert!(!tally.chunks_held.is_empty() && tally.dirty_events > 0);
    let lookup = rt.chunk_lookup().unwrap();
    let under = lookup
        .get(lookup.key_at(focus).unwrap())
        .expect("built underfoot");
    // A planet chunk's frame is its own tangent frame, on the sphere under its centre.
    let f = under.frame();
    let r = f.origin.length();
    assert!((r - terrain.planet().radius()).abs() < 1e-6);
    assert_eq!(under.heights().len(), (under.samples() as usize).pow(2));
    // Tiles that arrived after the first fill refreshed the rings: they match fresh rings.
    let Some(Lod::Planet(rings, _)) = rt.lod() else {
        panic!("a planet runtime keeps rings")
    };
    let mut fresh = PlanetRings::new(*rings.clipmap().config()).unwrap();
    fresh.update(focus, &terrain);
    assert_eq!(rings.frame(), fresh.frame());
    for k in 0..3 {
        assert_eq!(
            rings.clipmap().level(k).storage(),
            fresh.clipmap().level(k).storage(),
            "level {k}"
        );
    }
    let plane = rt.lod().unwrap().plane();
    assert_eq!(plane.up, rings.frame().unwrap().up);
}

#[test]
fn the_levels_follow_the_camera_and_the_pieces_the_focus() {
    let config = RuntimeConfig {
        collision: None,
        lod: Some(small_levels()),
        ..RuntimeConfig::default()
    };
    let mut rt = Runtime::open(common::world_dir(), config.clone()).unwrap();
    let (focus, camera) = (
        DVec3::new(100.0, 0.0, 100.0),
        DVec3::new(1500.0, 0.0, 1400.0),
    );
    for _ in 0..3 {
        rt.update_with_camera(focus, camera).unwrap();
    }
    // Same levels as a runtime whose focus is the camera; same wanted regions as one whose
    // focus and camera are both the focus.
    let mut by_camera = Runtime::open(common::world_dir(), config.clone()).unwrap();
    let mut by_focus = Runtime::open(common::world_dir(), config).unwrap();
    for _ in 0..3 {
        by_camera.update(camera).unwrap();
        by_focus.update(focus).unwrap();
    }
    let origins = |r: &Runtime| match r.lod() {
        Some(Lod::Flat(levels, _)) => (0..levels.config().levels as usize)
            .map(|k| levels.level(k).origin())
            .collect::<Vec<_>>(),
        _ => panic!("a flat runtime keeps a flat clipmap"),
    };
    assert_eq!(origins(&rt), origins(&by_camera));
    assert_ne!(origins(&rt), origins(&by_focus));
    assert_eq!(rt.stats().pieces.wanted, by_focus.stats().pieces.wanted);
    // A bad camera is refused like a bad focus, and changes nothing.
    let wanted = rt.stats().pieces.wanted;
    assert!(rt
        .update_with_camera(focus, DVec3::new(f64::NAN, 0.0, 0.0))
        .is_err());
    assert!(rt
        .update_with_camera(
            DVec3::new(3000.0, 0.0, 3000.0),
            DVec3::new(0.0, f64::INFINITY, 0.0)
        )
        .is_err());
    assert_eq!(rt.stats().pieces.wanted, wanted);
}

/// Planet chunk sizes round to the nearest size the planet allows (a divisor of the face
/// resolution, 2 samples to half a face, at most 256 chunks a side), as the header says; one
/// outside that range is a config error naming `collision.chunk_size_m` and the range.
#[test]
fn planet_chunk_sizes_round_as_documented_and_the_rest_are_refused_by_name() {
    use relief::planet::collision::PlanetChunkSource;
    let planet = relief::planet::Planet::open(planet_path()).unwrap();
    let (n, at) = (planet.face_resolution(), planet.spacing());
    let allowed: Vec<u32> = PlanetChunkSource::allowed_cells(n).collect();
    assert_eq!(allowed, [2, 4, 8, 16, 32, 64], "a 128² face");
    let open = |size: f64| {
        let config = RuntimeConfig {
            collision: Some(CollisionConfig {
                chunk_size_m: size,
                ..CollisionConfig::default()
            }),
            lod: None,
            ..RuntimeConfig::default()
        };
        Runtime::open(planet_path(), config)
    };
    // Sizes in metres at this planet's spacing, and the samples the docs' rule picks: the
    // nearest allowed (1000 m and 3000 m among them).
    for size in [
        1.0,
        1000.0,
        3000.0,
        5.0 * at,
        6.0 * at,
        23.0 * at,
        64.4 * at,
    ] {
        let want = size / at;
        let nearest = *allowed
            .iter()
            .min_by(|a, b| {
                (**a as f64 - want)
                    .abs()
                    .total_cmp(&(**b as f64 - want).abs())
            })
            .unwrap();
        let cells = if want < 1.5 {
            None // under the smallest allowed by more than half a sample
        } else {
            Some(nearest)
        };
        match (open(size), cells) {
            (Ok(mut rt), Some(cells)) => {
                let focus = DVec3::new(0.0, planet.radius(), 0.0);
                rt.update(focus).unwrap();
                let id = rt.chunk_lookup().unwrap().key_at(focus).unwrap();
                let deadline = std::time::Instant::now() + Duration::from_secs(30);
                let chunk = loop {
                    rt.update(focus).unwrap();
                    if let Some(c) = rt.chunk_lookup().unwrap().get(id) {
                        break c;
                    }
                    assert!(std::time::Instant::now() < deadline, "{size} m never built");
                    std::thread::sleep(Duration::from_millis(2));
                };
                assert_eq!(chunk.samples(), cells + 1, "{size} m");
            }
            (Err(RuntimeError::Config(e)), None) => {
                assert_eq!(e.field, "collision.chunk_size_m", "{e}");
                assert!(e.to_string().contains("2–64 samples"), "{e}");
            }
            (got, want) => panic!("{size} m: {:?} but wanted {want:?}", got.err()),
        }
    }
    // Past half a face, or not a size at all: refused by name.
    for size in [66.0 * at, 1e12, -1.0, f64::NAN, f64::INFINITY] {
        match open(size) {
            Err(RuntimeError::Config(e)) => assert_eq!(e.field, "collision.chunk_size_m", "{e}"),
            other => panic!("{size} m: {:?}", other.err()),
        }
    }
}

/// A flat chunk wider than the world is refused by name; one as wide as it builds.
#[test]
fn a_flat_chunk_no_wider_than_the_world() {
    let world = relief::World::open(common::world_dir()).unwrap();
    let m = world.manifest();
    let b = m.region_bounds;
    let side = ((b.max[0] - b.min[0]).min(b.max[1] - b.min[1]) + 1) as f64 * world.region_extent();
    let config = |size: f64| RuntimeConfig {
        collision: Some(CollisionConfig {
            chunk_size_m: size,
            ..CollisionConfig::default()
        }),
        ..RuntimeConfig::default()
    };
    match Runtime::open(common::world_dir(), config(side + 2.0 * m.vertex_spacing)) {
        Err(RuntimeError::Config(e)) => {
            assert_eq!(e.field, "collision.chunk_size_m", "{e}");
            assert!(e.to_string().contains(&format!("to {side} m")), "{e}");
        }
        other => panic!("{:?}", other.err()),
    }
    let fits = side.min(4096.0 * m.vertex_spacing);
    assert!(Runtime::open(common::world_dir(), config(fits)).is_ok());
}

/// Settle's updates are a loading screen's, not frames: the update figures (the runtime's
/// and each stream's) count the game's own updates alone, and settle's are reported apart.
#[test]
fn settling_is_not_counted_as_frames() {
    let mut rt = Runtime::open(common::world_dir(), RuntimeConfig::default()).unwrap();
    let focus = DVec3::new(100.0, 0.0, 100.0);
    assert!(rt.settle(focus, Duration::from_secs(60)).unwrap());
    let s = rt.stats();
    assert!(
        s.settle_updates >= 1 && s.settle_update_max > Duration::ZERO,
        "{s:?}"
    );
    assert_eq!(s.update_max, Duration::ZERO, "no game frame yet");
    assert_eq!(s.pieces.update_max, Duration::ZERO);
    assert_eq!(s.chunks.as_ref().unwrap().update_max, Duration::ZERO);
    rt.update(focus).unwrap();
    let after = rt.stats();
    assert_eq!(
        after.update_max, after.last.total,
        "one frame: its own time"
    );
    assert_eq!(after.pieces.update_max, after.pieces.update_last);
    assert_eq!(after.settle_updates, s.settle_updates);
    // Settling again adds to settle's count and leaves the frames' figures be.
    rt.settle(DVec3::new(300.0, 0.0, 100.0), Duration::from_secs(60))
        .unwrap();
    let again = rt.stats();
    assert!(again.settle_updates > s.settle_updates);
    assert_eq!(again.update_max, after.update_max);
    assert_eq!(again.pieces.update_max, after.pieces.update_max);
}
