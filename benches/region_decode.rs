//! Region decode speed, per codec, against a plain copy of the same bytes.
//!
//! `cargo bench --bench region_decode` bakes a small world once (target/bench-world) and
//! decodes one of its 512² land regions, and reads it from disk whole and as a collision
//! chunk reads it (heights only). It also prints each codec's compression ratio on
//! the real height layer, which is how the default codecs were chosen, and times the height
//! pyramid the loader builds after each decode.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use relief::codec::{self, Codec};
use relief::flat::region::{decode_region, LayerKind, Region};
use relief::flat::region_writer::{encode_region, CodecProfile};
use relief::flat::{RegionLocation, World};

mod support;

/// The region with the most relief (the hardest case for the height codec), and where it is.
fn land_region(world: &World) -> (RegionLocation, Region) {
    let spread = |r: &Region| {
        r.height.iter().cloned().fold(f32::MIN, f32::max)
            - r.height.iter().cloned().fold(f32::MAX, f32::min)
    };
    world
        .region_locations()
        .map(|loc| (loc, world.read_region(loc).unwrap()))
        .max_by(|a, b| spread(&a.1).total_cmp(&spread(&b.1)))
        .unwrap()
}

fn bytes_of(r: &Region, kind: LayerKind) -> Vec<u8> {
    match kind {
        LayerKind::Height => r.height.iter().flat_map(|v| v.to_le_bytes()).collect(),
        LayerKind::Control => r
            .control
            .as_ref()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        LayerKind::Color => r
            .color
            .as_ref()
            .unwrap()
            .iter()
            .flatten()
            .copied()
            .collect(),
        LayerKind::Biome => r.biome.as_ref().unwrap().to_vec(),
        LayerKind::Lake => r
            .lake
            .as_ref()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
    }
}

fn benches(c: &mut Criterion) {
    let world = support::bench_world();
    let (loc, region) = land_region(&world);
    println!("\ncompression ratio (raw ÷ stored) on a real 512² region:");
    for kind in LayerKind::ALL {
        let raw = bytes_of(&region, kind);
        let row: Vec<String> = Codec::SAMPLE_CODECS
            .iter()
            .filter(|&&c| {
                c.supports(kind.elem_size())
                    && (c != Codec::Fixed1024DeltaLz4
                        || (kind == LayerKind::Height && codec::fits_fixed1024(&raw)))
            })
            .map(|&c| {
                format!(
                    "{} {:.2}×",
                    c.name(),
                    raw.len() as f64 / codec::encode(c, kind.elem_size(), &raw).len() as f64
                )
            })
            .collect();
        println!("  {:<8} {}", kind.name(), row.join(", "));
    }

    let raw = bytes_of(&region, LayerKind::Height);
    let mut g = c.benchmark_group("height_layer_512");
    g.throughput(Throughput::Bytes(raw.len() as u64));
    let mut out = vec![0u8; raw.len()];
    g.bench_function("baseline_copy", |b| {
        b.iter(|| out.copy_from_slice(black_box(&raw)))
    });
    for codec in Codec::SAMPLE_CODECS {
        let stored = codec::encode(codec, 4, &raw);
        g.bench_function(codec.name(), |b| {
            b.iter(|| codec::decode(codec, 4, black_box(&stored), &mut out).unwrap())
        });
    }
    g.finish();

    for kind in LayerKind::ALL {
        let raw = bytes_of(&region, kind);
        let mut g = c.benchmark_group(format!("layer_{}", kind.name()));
        g.throughput(Throughput::Bytes(raw.len() as u64));
        let mut out = vec![0u8; raw.len()];
        for codec in [Codec::Raw, Codec::Lz4, Codec::ShuffleLz4] {
            let stored = codec::encode(codec, kind.elem_size(), &raw);
            g.bench_function(codec.name(), |b| {
                b.iter(|| {
                    codec::decode(codec, kind.elem_size(), black_box(&stored), &mut out).unwrap()
                })
            });
        }
        g.finish();
    }

    // The height pyramid the loader builds after every decode, against copying the layer.
    let mut g = c.benchmark_group("mips_512");
    g.throughput(Throughput::Bytes(raw.len() as u64));
    let heights: Vec<f32> = region.height.to_vec();
    let mut copy = vec![0f32; heights.len()];
    g.bench_function("baseline_copy", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&heights)))
    });
    let mut pyramid = region.clone();
    g.bench_function("build_mips", |b| {
        b.iter(|| black_box(&mut pyramid).build_mips())
    });
    g.finish();

    let file = encode_region(&region, CodecProfile::Small);
    let raw_file = encode_region(&region, CodecProfile::Fast);
    let mut g = c.benchmark_group("region_512");
    g.throughput(Throughput::Bytes(region.resident_bytes() as u64));
    g.bench_function("decode_all_layers_small", |b| {
        b.iter(|| decode_region(black_box(&file), None).unwrap())
    });
    g.bench_function("decode_all_layers_fast", |b| {
        b.iter(|| decode_region(black_box(&raw_file), None).unwrap())
    });
    g.finish();

    // What a collision chunk whose region is not resident reads from the file (page cache
    // warm): the height layer alone, against the whole region a game would stream.
    let mut g = c.benchmark_group("cold_chunk_read_512");
    g.bench_function("whole_region", |b| {
        b.iter(|| world.read_region(black_box(loc)).unwrap())
    });
    g.bench_function("heights_only", |b| {
        b.iter(|| world.read_region_heights(black_box(loc)).unwrap())
    });
    g.finish();
}

criterion_group! {
    name = decode;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = benches
}
criterion_main!(decode);
