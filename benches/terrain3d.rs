//! Terrain3D files in and out, on the demo region (1024², tests/fixtures/terrain3d-demo/).
//!
//! `cargo bench --bench terrain3d` times, on the same region in the same run:
//! - `t3d_parse`: decompressing and parsing Terrain3D's own file into its three maps — what
//!   reading a Terrain3D region costs any loader (the peer comparison);
//! - `relief_read`: relief loading the same region after `relief import` (the `fast` profile
//!   an import writes by default, from the page cache), and `relief_read_small` in the `small`
//!   (LZ4) profile;
//! - `raw_read`: reading the relief region file's bytes, the floor any loader of it sits on;
//! - `export`: one region to the bytes of a `.res` file (mip chain, resource, zstd);
//! - `import`: one region to a relief world (hydrology, overview, region file written).
//!
//! Throughput is the maps' bytes (height, control, color: 12 a sample), so every figure is
//! MB/s of maps and the per-sample time is 1 / (throughput / 12).

mod support;

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use relief::flat::region_writer::CodecProfile;
use relief::{RegionLocation, World};
use relief_tools::import::terrain3d as import;
use relief_tools::import::{write_world, ImportSettings};
use relief_tools::terrain3d::{export, RegionFile};
use relief_tools::Silent;

fn fixture_dir() -> PathBuf {
    support::root().join("tests/fixtures/terrain3d-demo")
}

fn scratch(name: &str) -> PathBuf {
    let dir = support::root().join("target/bench-terrain3d").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn bench(c: &mut Criterion) {
    let file = std::fs::read(fixture_dir().join("terrain3d_00_00.res")).unwrap();
    let data = import::read_data_dir(&fixture_dir(), None, 1).unwrap();
    let maps = 12 * data.regions[0].height.len() as u64;
    let mut worlds = Vec::new();
    for (name, codecs) in [("fast", CodecProfile::Fast), ("small", CodecProfile::Small)] {
        let dir = scratch(name);
        let mut s = ImportSettings::new("bench", data.region_size, data.vertex_spacing);
        s.codecs = codecs;
        s.threads = 1;
        write_world(&data.regions, &s, &dir, &Silent).unwrap();
        worlds.push(World::open(&dir).unwrap());
    }
    let loc = RegionLocation::new(0, 0);
    let rlr = worlds[0].region_path(loc);

    let mut g = c.benchmark_group("terrain3d");
    g.throughput(Throughput::Bytes(maps));
    g.bench_function("t3d_parse", |b| {
        b.iter(|| black_box(RegionFile::parse(&file).unwrap().region().unwrap()))
    });
    g.bench_function("relief_read", |b| {
        b.iter(|| black_box(worlds[0].read_region(loc).unwrap()))
    });
    g.bench_function("relief_read_small", |b| {
        b.iter(|| black_box(worlds[1].read_region(loc).unwrap()))
    });
    g.bench_function("raw_read", |b| {
        b.iter(|| black_box(std::fs::read(&rlr).unwrap()))
    });
    let region = worlds[0].read_region(loc).unwrap();
    g.bench_function("export", |b| {
        b.iter(|| black_box(export::region_file_bytes(&worlds[0], &region, "res://t").unwrap()))
    });
    let out = scratch("import");
    let mut s = ImportSettings::new("bench", data.region_size, data.vertex_spacing);
    s.threads = 1;
    g.bench_function("import", |b| {
        b.iter(|| black_box(write_world(&data.regions, &s, &out, &Silent).unwrap()))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
