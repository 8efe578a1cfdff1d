//! Query speed on one thread with the queried regions resident: `cargo bench --bench queries`.

mod support;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parking_lot::RwLock;
use relief::flat::collision::{ChunkKey, ChunkSource};
use relief::flat::terrain::Terrain;
use relief::lod::{Clipmap, ClipmapConfig};
use relief::stream::Source;

fn benches(c: &mut Criterion) {
    let world = Arc::new(support::bench_world());
    let resident: relief::stream::PieceMap<_, _> = world
        .region_locations()
        .map(|l| (l, Arc::new(world.read_region(l).unwrap())))
        .collect();
    let resident = Arc::new(RwLock::new(resident));
    let terrain = Terrain::new(world.clone(), resident.clone());
    // Points spread over the island, a different one each iteration.
    let pts: Vec<[f64; 2]> = (0..4096)
        .map(|i| {
            let a = i as f64 * 0.618_033_988_7;
            [
                -900.0 + (a % 1.0) * 1800.0,
                -900.0 + (i as f64 / 4096.0) * 1800.0,
            ]
        })
        .collect();
    let mut i = 0usize;
    let mut next = || {
        i = (i + 1) % pts.len();
        pts[i]
    };

    let mut g = c.benchmark_group("query");
    g.bench_function("height", |b| {
        b.iter(|| {
            let p = next();
            black_box(terrain.height(p[0], p[1]))
        })
    });
    g.bench_function("normal", |b| {
        b.iter(|| {
            let p = next();
            black_box(terrain.normal(p[0], p[1]))
        })
    });
    g.bench_function("ground", |b| {
        b.iter(|| {
            let p = next();
            black_box(terrain.ground(p[0], p[1]))
        })
    });
    g.bench_function("river_within_100m", |b| {
        b.iter(|| {
            let p = next();
            black_box(terrain.river(p[0], p[1], 100.0))
        })
    });
    g.bench_function("lake", |b| {
        b.iter(|| {
            let p = next();
            black_box(terrain.lake(p[0], p[1], 2000.0))
        })
    });
    g.finish();

    // A 64 m collision chunk (65×65 at 1 m) from resident regions, straddling a region corner.
    let chunks = ChunkSource::new(world.clone(), resident, 64.0).unwrap();
    let mut g = c.benchmark_group("collision");
    g.bench_function("build_chunk_64m", |b| {
        b.iter(|| chunks.load(black_box(ChunkKey { x: -1, z: -1 })).unwrap())
    });
    g.finish();

    // Clipmap: all six 128² levels from scratch, and a step that exposes one level-0 column.
    let mut g = c.benchmark_group("clipmap");
    g.bench_function("full_rebuild_6x128", |b| {
        b.iter(|| {
            let mut m = Clipmap::new(ClipmapConfig::default()).unwrap();
            m.update(black_box(relief::DVec3::new(10.0, 0.0, 20.0)), &terrain);
            m
        })
    });
    let mut m = Clipmap::new(ClipmapConfig::default()).unwrap();
    m.update(relief::DVec3::ZERO, &terrain);
    let mut east = false;
    g.bench_function("step_one_cell", |b| {
        b.iter(|| {
            east = !east;
            m.update(
                black_box(relief::DVec3::new(if east { 16.0 } else { 0.0 }, 0.0, 0.0)),
                &terrain,
            )
            .len()
        })
    });
    g.finish();

    // A 256×256 grid at 0.37 m, the shape a clipmap or a physics probe asks for.
    let grid: Vec<[f64; 2]> = (0..256 * 256)
        .map(|k| {
            [
                -300.0 + (k % 256) as f64 * 0.37,
                -300.0 + (k / 256) as f64 * 0.37,
            ]
        })
        .collect();
    let mut out = vec![0f32; grid.len()];
    let mut g = c.benchmark_group("batch");
    g.throughput(Throughput::Elements(grid.len() as u64));
    g.bench_function("heights_256x256", |b| {
        b.iter(|| terrain.heights(black_box(&grid), &mut out))
    });
    g.finish();
}

criterion_group! {
    name = queries;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(queries);
