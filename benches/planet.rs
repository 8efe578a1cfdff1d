//! Planet speed: opening a blob, reading one tile's stored bytes against reading and decoding
//! every field of it, the cube-sphere mapping, height queries over resident tiles, a
//! collision chunk's build and a LOD ring re-anchor:
//! `cargo bench --bench planet`.

mod support;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parking_lot::RwLock;
use relief::planet::{cube, Planet, PlanetTerrain, TileKey};

fn benches(c: &mut Criterion) {
    let planet = Arc::new(support::bench_planet());
    let path = support::planet_path();
    let key = TileKey {
        face: 4,
        tx: 1,
        ty: 0,
    };
    let fields = planet.blob().fields().len();
    let stored: u64 = (0..fields)
        .map(|f| planet.blob().entry(f, key).unwrap().length as u64)
        .sum();

    c.bench_function("planet/open (header and tables)", |b| {
        b.iter(|| black_box(Planet::open(&path).unwrap()))
    });

    let mut g = c.benchmark_group("planet/tile");
    g.throughput(Throughput::Bytes(stored));
    g.bench_function("stored bytes of every field, checked", |b| {
        b.iter(|| {
            for f in 0..fields {
                black_box(planet.blob().read_stored(f, key).unwrap());
            }
        })
    });
    g.bench_function("read and decode every field", |b| {
        b.iter(|| black_box(planet.read_tile(key).unwrap()))
    });
    // As the streamer loads: the fields' buffers come back to a pool when the tile drops.
    let pool = std::sync::Arc::new(relief::pool::BufferPool::new(64 << 20));
    g.bench_function("read and decode every field, pooled", |b| {
        b.iter(|| black_box(planet.read_tile_in(key, Some(&pool)).unwrap()))
    });
    g.finish();

    let dirs: Vec<relief::DVec3> = (0..4096)
        .map(|i| {
            let t = i as f64 * 0.618_033_988_7;
            cube::normalize(relief::DVec3::new(
                (t * 7.0).sin(),
                (t * 3.0).cos(),
                (t * 5.0).sin() + 0.1,
            ))
        })
        .collect();
    let mut i = 0;
    c.bench_function("planet/direction → face coordinates → direction", |b| {
        b.iter(|| {
            i = (i + 1) % dirs.len();
            let (f, a, bb) = cube::face_coords(cube::Projection::EquiAngular, dirs[i]);
            black_box(cube::direction(cube::Projection::EquiAngular, f, a, bb))
        })
    });

    // Every tile resident, as after streaming round the whole planet.
    let tps = (planet.face_resolution() / planet.tile_size()) as u16;
    let mut map = relief::stream::PieceMap::default();
    for face in 0..6u8 {
        for ty in 0..tps {
            for tx in 0..tps {
                let k = TileKey { face, tx, ty };
                map.insert(k, Arc::new(planet.read_tile(k).unwrap()));
            }
        }
    }
    let terrain = PlanetTerrain::new(planet.clone(), Arc::new(RwLock::new(map))).unwrap();
    let r = planet.radius();
    let pos: Vec<relief::DVec3> = dirs.iter().map(|&d| d * r).collect();
    let mut i = 0;
    c.bench_function("planet/height", |b| {
        b.iter(|| {
            i = (i + 1) % pos.len();
            black_box(terrain.height(pos[i]))
        })
    });
    let mut out = vec![0f32; pos.len()];
    let mut g = c.benchmark_group("planet/heights");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("4096 positions, one lock", |b| {
        b.iter(|| black_box(terrain.heights(&pos, &mut out)))
    });
    g.finish();

    // A default collision chunk (65² samples) built over resident tiles, each sample's height
    // solved so the point is on the ground, against the baseline of one height query at each
    // of its samples (what a solve costs in lookups).
    use relief::planet::collision::{PlanetChunkKey, PlanetChunkSource};
    use relief::stream::Source;
    let resident = terrain.resident().clone();
    let chunks = PlanetChunkSource::new(planet.clone(), resident, 64).unwrap();
    let key = PlanetChunkKey {
        face: 4,
        x: 2,
        z: 5,
    };
    let built = chunks.load(key).unwrap();
    let at: Vec<relief::DVec3> = (0..built.samples)
        .flat_map(|j| (0..built.samples).map(move |i| (i, j)))
        .map(|(i, j)| {
            let f = built.frame;
            let (x, z) = (
                built.corner[0] + i as f64 * built.spacing,
                built.corner[1] + j as f64 * built.spacing,
            );
            f.origin + x * f.axis_x + z * f.axis_z
        })
        .collect();
    let mut out = vec![0f32; at.len()];
    let mut g = c.benchmark_group("planet/collision chunk (65² samples)");
    g.throughput(Throughput::Elements(at.len() as u64));
    g.bench_function("heights at its samples, one lock (baseline)", |b| {
        b.iter(|| black_box(terrain.heights(&at, &mut out)))
    });
    g.bench_function("build, every sample solved onto the ground", |b| {
        b.iter(|| black_box(chunks.load(key).unwrap()))
    });
    g.finish();

    // A ring re-anchor: what an orbiting focus costs every ~52 frames, every level rebuilt
    // on a new tangent plane over resident tiles.
    let config = relief::lod::ClipmapConfig::default();
    let mut k = 0;
    c.bench_function("planet/rings re-anchor (6 levels of 128²)", |b| {
        b.iter(|| {
            k = (k + 1) % pos.len();
            let mut rings = relief::planet::rings::PlanetRings::new(config).unwrap();
            black_box(rings.update(pos[k], &terrain).len())
        })
    });
}

criterion_group!(planet_benches, benches);
criterion_main!(planet_benches);
