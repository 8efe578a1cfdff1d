//! The nodes' per-frame code end to end, on a small baked world and a small baked planet,
//! with an engine side that records what Godot would be asked to do: what it ends up holding
//! (regions, tiles, bodies, far-ground layers) is exactly what the runtime has resident.

use relief::DVec3;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use relief::flat::terrain::Origin;
use relief::lod::ClipmapConfig;
use relief::planet::PlanetOrigin;
use relief::runtime::{ChunkId, CollisionConfig, PieceKey};
use relief::things::{ThingChunk, ThingKey};
use relief::{Runtime, RuntimeConfig};
use relief_godot::drive::{Driver, Engine};
use relief_godot::far::FarGround;
use relief_godot::maps::{ImageBytes, RegionMaps};
use relief_godot::shape::ShapeData;
use relief_godot::things::{run_bounds, RunBounds};
use relief_tools::bake::{self, BakeConfig};
use relief_tools::Silent;

/// What the engine holds after each call, as the Godot side would.
#[derive(Default)]
struct Recorder {
    regions: HashMap<PieceKey, RegionMaps>,
    tiles: HashMap<PieceKey, ImageBytes>,
    bodies: HashMap<ChunkId, ShapeData>,
    /// Every body ever handed over, dropped or not: what a whole walk's checks read.
    handed: Vec<ShapeData>,
    layers: HashMap<usize, Vec<u8>>,
    things: HashMap<ThingKey, (Arc<ThingChunk>, Vec<RunBounds>)>,
    moves: usize,
    failures: Vec<String>,
}

impl Engine for Recorder {
    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps) {
        self.regions.insert(key, maps);
    }
    fn tile_ready(&mut self, key: PieceKey, height: ImageBytes) {
        self.tiles.insert(key, height);
    }
    fn piece_unloaded(&mut self, key: PieceKey) {
        // Only what was handed over is ever unloaded (Terrain3D errors on anything else).
        let held = self.regions.remove(&key).is_some() || self.tiles.remove(&key).is_some();
        assert!(held, "{key:?} unloaded but never handed over");
    }
    fn piece_failed(&mut self, _: PieceKey, message: &str) {
        self.failures.push(message.into());
    }
    fn chunk_ready(&mut self, id: ChunkId, shape: ShapeData) {
        self.handed.push(shape.clone());
        self.bodies.insert(id, shape);
    }
    fn chunk_dropped(&mut self, id: ChunkId) {
        assert!(
            self.bodies.remove(&id).is_some(),
            "{id:?} dropped but never built"
        );
    }
    fn level_changed(&mut self, level: usize, bytes: &[u8]) {
        self.layers.insert(level, bytes.to_vec());
    }
    fn levels_moved(&mut self, _: &FarGround) {
        self.moves += 1;
    }
    fn things_ready(&mut self, key: ThingKey, chunk: Arc<ThingChunk>, bounds: Vec<RunBounds>) {
        assert!(
            self.things.insert(key, (chunk, bounds)).is_none(),
            "{key:?} drawn twice without a drop"
        );
    }
    fn things_dropped(&mut self, key: ThingKey) {
        assert!(
            self.things.remove(&key).is_some(),
            "{key:?} dropped but never drawn"
        );
    }
}

impl Recorder {
    /// Everything the engine holds.
    fn held(&self) -> usize {
        self.regions.len() + self.tiles.len() + self.bodies.len() + self.things.len()
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn levels() -> ClipmapConfig {
    ClipmapConfig {
        levels: 4,
        size: 32,
        base_spacing: 16.0,
    }
}

/// Frames at `focus` until the runtime is idle and every prepared piece was handed over.
fn settle(driver: &mut Driver, engine: &mut Recorder, focus: DVec3) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        driver
            .frame(focus, Duration::from_secs(1), Instant::now, engine)
            .unwrap();
        if driver.runtime().is_idle() && driver.preparing() == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "never settled at {focus:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The engine holds one entry per resident piece and built chunk, and its far-ground layers
/// are the levels' storage byte for byte (though only changed levels were ever sent).
fn assert_engine_matches(driver: &Driver, engine: &Recorder) {
    let rt = driver.runtime();
    let stats = rt.stats();
    assert_eq!(
        engine.regions.len() + engine.tiles.len(),
        stats.pieces.ready,
        "one entry per resident piece"
    );
    assert_eq!(engine.bodies.len(), stats.chunks.unwrap().ready);
    // Thing chunks: exactly the built ones, each the runtime's own (no copy), its runs'
    // bounds the ones its rows give.
    let mut built = HashSet::new();
    rt.for_each_built_thing_chunk(|k| {
        built.insert(k);
    });
    assert_eq!(
        engine.things.keys().copied().collect::<HashSet<_>>(),
        built,
        "one drawing per built thing chunk"
    );
    for (key, (chunk, bounds)) in &engine.things {
        let now = rt.thing_lookup().get(*key).unwrap();
        assert!(Arc::ptr_eq(chunk, &now), "{key:?}: the chunk built now");
        assert_eq!(*bounds, run_bounds(chunk));
    }
    let lookup = rt.chunk_lookup().unwrap();
    for (&id, shape) in &engine.bodies {
        let built = lookup.get(id).expect("a body only for a built chunk");
        assert_eq!(shape.width, built.samples());
    }
    let clip = rt.lod().unwrap().clipmap();
    for k in 0..clip.config().levels as usize {
        let want: Vec<u8> = clip
            .level(k)
            .storage()
            .iter()
            .flat_map(|h| h.to_ne_bytes())
            .collect();
        assert_eq!(engine.layers.get(&k), Some(&want), "level {k}");
    }
    assert!(engine.failures.is_empty(), "{:?}", engine.failures);
}

#[test]
fn a_flat_walk_leaves_the_engine_holding_what_is_resident() {
    let dir = scratch("drive-world");
    let mut cfg = BakeConfig::new("drive");
    cfg.size = 1024.0;
    cfg.region_size = 128;
    cfg.spacing = 2.0;
    cfg.erosion.top_height = BakeConfig::default_top(cfg.size);
    bake::bake(&cfg, &dir, &Silent).unwrap();
    let config = RuntimeConfig {
        lod: Some(levels()),
        ..RuntimeConfig::default()
    };
    let mut pieces = config.pieces.clone();
    pieces.load_radius = 300.0;
    pieces.drop_radius = 400.0;
    let rt = Runtime::open(&dir, RuntimeConfig { pieces, ..config }).unwrap();
    let mut driver = Driver::new(rt, 2);
    let mut engine = Recorder::default();

    let mut focus = DVec3::new(-400.0, 0.0, -300.0);
    settle(&mut driver, &mut engine, focus);
    assert!(!engine.regions.is_empty() && !engine.bodies.is_empty());
    let trees: usize = engine.things.values().map(|(c, _)| c.len()).sum();
    assert!(trees > 0, "the world's things drawn");
    assert_engine_matches(&driver, &engine);
    // Each region's height Image is the region's heights.
    let resident = driver.runtime().pieces().regions().unwrap().resident();
    for (key, maps) in &engine.regions {
        let PieceKey::Region(loc) = key else {
            panic!("a tile on a flat world")
        };
        let region = resident.read().get(loc).cloned().unwrap();
        let first = f32::from_ne_bytes(maps.height.bytes[..4].try_into().unwrap());
        assert_eq!(first, region.height[0]);
        assert_eq!(maps.height.bytes.len(), 128 * 128 * 4);
    }

    // Walk across: regions, bodies and levels follow; a frame standing still uploads nothing.
    let moves = engine.moves;
    for _ in 0..40 {
        focus[0] += 20.0;
        let counts = driver
            .frame(focus, Duration::from_secs(1), Instant::now, &mut engine)
            .unwrap();
        assert!(counts.levels <= levels().levels);
    }
    settle(&mut driver, &mut engine, focus);
    assert!(engine.moves > moves, "the levels moved with the focus");

    // Every sample of every body handed over on the whole walk, placed as Godot places a
    // HeightMapShape3D's points (`ShapeData::world_point`), stands where the height query
    // puts the ground, wherever the query reads resident regions (a chunk past what is
    // resident reads the region file itself, where the query answers from the overview).
    let terrain = driver.runtime().queries().flat().unwrap().clone();
    let (mut checked, mut samples) = (0, 0);
    for shape in &engine.handed {
        for k in 0..shape.heights.len() {
            samples += 1;
            let p = shape.world_point(k);
            let at = terrain.height(p[0], p[2]);
            if !matches!(at.origin, Origin::Region(_)) {
                continue;
            }
            checked += 1;
            assert!(
                (p[1] - at.height as f64).abs() < 1e-3,
                "sample {k} at {p:?}: ground {}",
                at.height
            );
        }
    }
    assert!(
        checked * 10 > samples * 9 && engine.handed.len() > 100,
        "{checked} of {samples} samples of {} bodies checked",
        engine.handed.len()
    );
    assert_engine_matches(&driver, &engine);
    let still = driver
        .frame(focus, Duration::from_secs(1), Instant::now, &mut engine)
        .unwrap();
    assert_eq!(still.levels, 0, "nothing changed, nothing re-uploaded");

    // A bad focus changes nothing and says why.
    let err = driver
        .frame(
            DVec3::new(f64::NAN, 0.0, 0.0),
            Duration::ZERO,
            Instant::now,
            &mut engine,
        )
        .unwrap_err();
    assert!(err.to_string().contains("not finite"), "{err}");
    assert_engine_matches(&driver, &engine);

    // Leaving the tree: everything handed over comes back, and nothing else.
    assert_eq!(driver.handed(), engine.held());
    driver.stop(&mut engine);
    assert_eq!(engine.held(), 0);
    assert_eq!(driver.handed(), 0);
}

/// An engine whose node is removed by a signal handler after `limit` pieces: it stops
/// accepting mid-frame, as a node does once `exit_tree` ran under its own frame.
struct Removed {
    inner: Recorder,
    limit: usize,
}

impl Engine for Removed {
    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps) {
        assert!(self.accepting(), "handed after the node left");
        self.inner.region_ready(key, maps);
    }
    fn tile_ready(&mut self, key: PieceKey, height: ImageBytes) {
        self.inner.tile_ready(key, height);
    }
    fn piece_unloaded(&mut self, key: PieceKey) {
        self.inner.piece_unloaded(key);
    }
    fn piece_failed(&mut self, key: PieceKey, message: &str) {
        self.inner.piece_failed(key, message);
    }
    fn chunk_ready(&mut self, id: ChunkId, shape: ShapeData) {
        assert!(self.accepting(), "built after the node left");
        self.inner.chunk_ready(id, shape);
    }
    fn chunk_dropped(&mut self, id: ChunkId) {
        self.inner.chunk_dropped(id);
    }
    fn level_changed(&mut self, level: usize, bytes: &[u8]) {
        self.inner.level_changed(level, bytes);
    }
    fn levels_moved(&mut self, far: &FarGround) {
        self.inner.levels_moved(far);
    }
    fn things_ready(&mut self, key: ThingKey, chunk: Arc<ThingChunk>, bounds: Vec<RunBounds>) {
        assert!(self.accepting(), "drawn after the node left");
        self.inner.things_ready(key, chunk, bounds);
    }
    fn things_dropped(&mut self, key: ThingKey) {
        self.inner.things_dropped(key);
    }
    fn accepting(&self) -> bool {
        self.inner.held() < self.limit
    }
}

#[test]
fn a_node_removed_mid_frame_gets_back_exactly_what_it_was_given() {
    let dir = scratch("drive-removed");
    let mut cfg = BakeConfig::new("drive");
    (cfg.size, cfg.region_size, cfg.spacing) = (1024.0, 128, 2.0);
    cfg.erosion.top_height = BakeConfig::default_top(cfg.size);
    bake::bake(&cfg, &dir, &Silent).unwrap();
    for limit in [0, 1, 3, 7] {
        let rt = Runtime::open(&dir, RuntimeConfig::default()).unwrap();
        let mut driver = Driver::new(rt, 1);
        let mut engine = Removed {
            inner: Recorder::default(),
            limit,
        };
        let focus = DVec3::new(512.0, 0.0, 512.0);
        let deadline = Instant::now() + Duration::from_secs(60);
        // Frames until the runtime has loaded everything near and prepared it all.
        loop {
            driver
                .frame(focus, Duration::from_secs(1), Instant::now, &mut engine)
                .unwrap();
            let rt = driver.runtime();
            if rt.is_idle() && rt.stats().pieces.ready > 0 && driver.preparing() == 0 {
                break;
            }
            assert!(Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(2));
        }
        let held = engine.inner.held();
        assert_eq!(held, limit, "handed until the node left, then nothing");
        assert_eq!(driver.handed(), held);
        driver.stop(&mut engine);
        assert_eq!(engine.inner.held(), 0);
    }
}

#[test]
fn a_planet_walk_hands_over_tiles_and_framed_bodies() {
    let path = scratch("drive-planet").with_extension("plnt");
    let mut c = relief_tools::bake::planet::PlanetConfig::new("drive");
    c.face_resolution = 128;
    c.tile_size = 32;
    c.erosion_resolution = 64;
    relief_tools::bake::planet::bake_planet(&c, &path, &Silent).unwrap();
    // Chunks of 16 samples, 9.8 km at this planet's 613 m: the sphere drops 240 m below a
    // chunk's tangent plane at its corners, so a sample's height must be solved onto the
    // surface for the body to lie on it.
    let spacing = relief::planet::Planet::open(&path).unwrap().spacing();
    let collision = CollisionConfig {
        chunk_size_m: 16.0 * spacing,
        ..CollisionConfig::default()
    };
    let config = RuntimeConfig {
        lod: Some(levels()),
        collision: Some(collision),
        ..RuntimeConfig::default()
    };
    let rt = Runtime::open(&path, config).unwrap();
    let planet = rt.queries().planet().unwrap().clone();
    let mut driver = Driver::new(rt, 1);
    let mut engine = Recorder::default();
    let focus = planet.position_at(20.0, 40.0);
    settle(&mut driver, &mut engine, focus);
    assert!(engine.regions.is_empty() && !engine.tiles.is_empty());
    assert!(!engine.bodies.is_empty());
    assert_engine_matches(&driver, &engine);
    let tile_keys: HashSet<_> = engine.tiles.keys().collect();
    assert!(tile_keys.iter().all(|k| matches!(k, PieceKey::Tile(_))));
    for (key, image) in &engine.tiles {
        let PieceKey::Tile(t) = key else {
            unreachable!()
        };
        let tile = planet.resident().read().get(t).cloned().unwrap();
        assert_eq!(image.size, tile.size);
        let first = f32::from_ne_bytes(image.bytes[..4].try_into().unwrap());
        assert_eq!(first, tile.height[0]);
    }
    // Fly on over a face edge to a cube corner, settling at each of 16 stops. At each, every
    // sample of every body handed over since the last, placed as Godot places a
    // HeightMapShape3D's points, lies on the planet's surface: its distance from the centre
    // is the radius plus the ground's height in its direction, within a centimetre (checked
    // while the tiles under it are resident, where the query reads them).
    let radius = planet.planet().radius();
    let (from, to) = (focus.normalize(), DVec3::ONE.normalize());
    let (mut worst, mut checked, mut samples, mut seen) = (0.0f64, 0usize, 0usize, 0usize);
    for k in 0..=16 {
        let at = from.lerp(to, k as f64 / 16.0).normalize() * radius;
        settle(&mut driver, &mut engine, at);
        for shape in &engine.handed[seen..] {
            for k in 0..shape.heights.len() {
                let p = shape.world_point(k);
                let at = planet.height(p);
                samples += 1;
                if matches!(at.origin, PlanetOrigin::Tile(_)) {
                    worst = worst.max((p.length() - radius - at.height as f64).abs());
                    checked += 1;
                }
            }
        }
        seen = engine.handed.len();
    }
    assert_engine_matches(&driver, &engine);
    // (A body past the resident tiles was built from the tile files; the query answers
    // there from the overview.)
    assert!(
        checked * 4 > samples * 3,
        "{checked} of {samples} samples checked"
    );
    assert!(
        worst <= 0.01 && engine.handed.len() > 10,
        "{worst} m off the surface over {checked} samples of {} bodies",
        engine.handed.len()
    );
}
