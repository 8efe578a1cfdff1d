//! Placing things on one thread with the regions resident: `cargo bench --bench things`.
//! Each band's densest default chunk (of every fourth across the island); throughput in things, so
//! criterion's elements per second is things placed per second on one loader.

mod support;

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parking_lot::RwLock;
use relief::flat::terrain::Terrain;
use relief::flat::things::ThingSource;
use relief::runtime::ThingsConfig;
use relief::stream::Source;
use relief::things::Band;

fn benches(c: &mut Criterion) {
    let world = Arc::new(support::bench_world());
    let resident: relief::stream::PieceMap<_, _> = world
        .region_locations()
        .map(|l| (l, Arc::new(world.read_region(l).unwrap())))
        .collect();
    let terrain = Terrain::new(world.clone(), Arc::new(RwLock::new(resident)));
    let config = ThingsConfig::default();
    let mut g = c.benchmark_group("things");
    for band in Band::ALL {
        let size = config.band(band).chunk_size_m;
        let source = ThingSource::new(terrain.clone(), world.things().clone(), band, size).unwrap();
        // The chunk with the most things of every fourth one across the world.
        let span = world.region_extent() * 4.0;
        let keys: Vec<_> = (0..(span / size) as i32)
            .step_by(4)
            .flat_map(|j| (0..(span / size) as i32).step_by(4).map(move |i| (i, j)))
            .map(|(i, j)| {
                source.key_at(-span / 2.0 + i as f64 * size, -span / 2.0 + j as f64 * size)
            })
            .collect();
        let (key, n) = keys
            .iter()
            .map(|k| (*k, source.load(*k).unwrap().len()))
            .max_by_key(|(_, n)| *n)
            .unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("place_{}_{size}m", band.name()), |b| {
            b.iter(|| source.load(black_box(key)).unwrap())
        });
    }
    g.finish();
}

criterion_group! {
    name = things;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(things);
