//! Collision chunks streamed around a focus on a baked world.

mod common;

use relief::DVec3;
use std::sync::Arc;
use std::time::Duration;

use relief::flat::collision::{self, ChunkKey, ChunkSource, CollisionChunk};
use relief::flat::terrain::{Origin, Terrain};
use relief::flat::RegionSource;
use relief::flat::World;
use relief::stream::{Loaders, Source, StreamConfig, Streamer};

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Regions and chunks settled around `focus`; returns the chunks and a query handle.
fn settle_at(
    focus: DVec3,
) -> (
    relief::stream::PieceMap<ChunkKey, CollisionChunk>,
    Terrain,
    Arc<ChunkSource>,
) {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let mut regions = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap();
    assert!(regions.settle(focus, Duration::from_secs(30)));
    let source = Arc::new(ChunkSource::new(world.clone(), regions.resident(), 64.0).unwrap());
    let mut chunks =
        Streamer::new(source.clone(), collision::stream_config(), &Loaders::new(0)).unwrap();
    assert!(chunks.settle(focus, Duration::from_secs(30)));
    assert_eq!(chunks.stats().failures, 0);
    let ready = chunks.resident().read().clone();
    (ready, Terrain::new(world, regions.resident()), source)
}

#[test]
fn every_chunk_within_reach_is_built() {
    let focus = DVec3::new(10.0, 0.0, -20.0);
    let (ready, _, source) = settle_at(focus);
    let mut near = Vec::new();
    source.keys_within(focus, 288.0, &mut near);
    assert!(near.len() > 60, "{} chunks within 288 m", near.len());
    for (key, _) in near {
        let c = ready
            .get(&key)
            .unwrap_or_else(|| panic!("{key:?} not built"));
        assert_eq!(c.samples, 33, "64 m at 2 m spacing");
        assert_eq!(c.heights.len(), 33 * 33);
    }
}

#[test]
fn neighbours_share_identical_edges_across_region_borders() {
    // (0, 0) is a corner of four regions, so chunks here straddle region borders.
    let (ready, _, _) = settle_at(DVec3::ZERO);
    let (mut pairs, mut crossing) = (0, 0);
    for (k, c) in &ready {
        let n = c.samples as usize;
        if let Some(east) = ready.get(&ChunkKey { x: k.x + 1, z: k.z }) {
            for j in 0..n {
                assert!(
                    same(c.heights[j * n + n - 1], east.heights[j * n]),
                    "{k:?} east edge row {j}"
                );
            }
            pairs += 1;
            // The shared edge lies on a region border when it is a multiple of 512 m (8 chunks).
            crossing += ((k.x + 1).rem_euclid(8) == 0) as usize;
        }
        if let Some(north) = ready.get(&ChunkKey { x: k.x, z: k.z + 1 }) {
            for i in 0..n {
                assert!(
                    same(c.heights[(n - 1) * n + i], north.heights[i]),
                    "{k:?} +z edge column {i}"
                );
            }
            pairs += 1;
        }
    }
    assert!(
        pairs > 100 && crossing > 0,
        "{pairs} pairs, {crossing} across a region border"
    );
}

#[test]
fn every_chunk_sample_is_the_ground_height_there() {
    let (ready, terrain, _) = settle_at(DVec3::new(300.0, 0.0, 300.0));
    for c in ready.values() {
        assert!(c.min_height <= c.max_height);
        let n = c.samples as usize;
        for j in 0..n {
            for i in 0..n {
                let (x, z) = (
                    c.corner[0] + i as f64 * c.spacing,
                    c.corner[1] + j as f64 * c.spacing,
                );
                let h = c.heights[j * n + i];
                assert_eq!(
                    h,
                    terrain.height(x, z).height,
                    "{:?} sample ({i}, {j})",
                    c.key
                );
                assert!(h >= c.min_height && h <= c.max_height);
            }
        }
        let size = (n - 1) as f64 * c.spacing;
        assert_eq!(
            c.centre,
            [c.corner[0] + size / 2.0, c.corner[1] + size / 2.0]
        );
    }
}

/// Every sample of every chunk of the world, edges and corners included, placed by the
/// documented formula (world x = `corner_x + i·spacing`, z likewise), is the height query's
/// answer there with every region resident: bit for bit, holes aside (NaN in the chunk).
#[test]
fn every_sample_of_every_chunk_of_the_world_is_the_queried_height() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let mut regions = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        common::patient(1e6, 10),
        &Loaders::new(0),
    )
    .unwrap();
    assert!(regions.settle(DVec3::ZERO, Duration::from_secs(120)));
    let terrain = Terrain::new(world.clone(), regions.resident());
    for size in [64.0, 46.0] {
        let source = ChunkSource::new(world.clone(), regions.resident(), size).unwrap();
        let mut keys = Vec::new();
        source.keys_within(DVec3::ZERO, 1e9, &mut keys);
        let (mut samples, mut worst, mut edge, mut outside) = (0usize, 0.0f32, 0usize, 0usize);
        let e = world.region_extent();
        let b = world.manifest().region_bounds;
        let far = [(b.max[0] + 1) as f64 * e, (b.max[1] + 1) as f64 * e];
        for (key, _) in &keys {
            let c = source.load(*key).unwrap();
            let n = c.samples as usize;
            for j in 0..n {
                for i in 0..n {
                    let (x, z) = (
                        c.corner[0] + i as f64 * c.spacing,
                        c.corner[1] + j as f64 * c.spacing,
                    );
                    let (h, q) = (c.heights[j * n + i], terrain.height(x, z));
                    // Holes, and ground past the world's edge that a chunk reaching beyond it
                    // repeats (the query answers there from the overview).
                    if h.is_nan() || q.origin == Origin::Outside {
                        outside += (q.origin == Origin::Outside) as usize;
                        continue;
                    }
                    assert!(matches!(q.origin, Origin::Region(_)), "{q:?}");
                    let q = q.height;
                    worst = worst.max((h - q).abs());
                    assert_eq!(h, q, "{key:?} sample ({i}, {j}) at ({x}, {z})");
                    edge += (x >= far[0] - c.spacing || z >= far[1] - c.spacing) as usize;
                    samples += 1;
                }
            }
        }
        println!(
            "{size} m: {} chunks, {samples} samples ({edge} on the far edges, {outside} past \
             them): worst {worst} m",
            keys.len()
        );
        // 64 m divides the world: the last samples lie on its far edge. 46 m does not: the
        // last chunks reach past it.
        assert!(edge > 0, "the far edges' last cells were swept");
        assert_eq!(outside > 0, size == 46.0, "{outside} samples past the edge");
    }
}

#[test]
fn a_chunk_builds_from_region_files_when_no_region_is_resident() {
    let (ready, _, _) = settle_at(DVec3::new(-700.0, 0.0, 500.0));
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let cold = ChunkSource::new(world, Arc::new(Default::default()), 64.0).unwrap();
    // Every chunk the streamer built from resident regions, built again from the files'
    // heights alone (read once per region, shared by its chunks): the same chunk.
    assert!(ready.len() > 20);
    for (key, warm) in &ready {
        assert_eq!(&cold.load(*key).unwrap(), &**warm, "{key:?}");
    }
    assert!(
        ChunkSource::new(
            Arc::new(World::open(common::world_dir()).unwrap()),
            Arc::new(Default::default()),
            63.0
        )
        .is_err(),
        "63 m is not a whole number of 2 m samples"
    );
}

/// Chunks on the world's far edges share their last row or column with regions that don't
/// exist; they build, repeating the world's last samples there, instead of failing.
#[test]
fn chunks_on_the_far_edges_build() {
    let world = Arc::new(World::open(common::world_dir()).unwrap());
    let m = world.manifest();
    let e = world.region_extent();
    let b = m.region_bounds;
    let far = [
        (b.max[0] + 1) as f64 * e - 1.0,
        (b.max[1] + 1) as f64 * e - 1.0,
    ];
    let resident = Streamer::new(
        Arc::new(RegionSource::new(world.clone())),
        StreamConfig::default(),
        &Loaders::new(0),
    )
    .unwrap()
    .resident();
    let source = ChunkSource::new(world.clone(), resident, 64.0).unwrap();
    let key = source.key_at(far[0], far[1]);
    let mut wanted = Vec::new();
    source.keys_within(DVec3::new(far[0], 0.0, far[1]), 1.0, &mut wanted);
    assert!(
        wanted.iter().any(|(k, _)| *k == key),
        "the corner chunk is in the world"
    );
    let chunk = source.load(key).expect("the far corner's chunk builds");
    let n = chunk.samples as usize;
    // Inside, samples are the ground; the shared far row and column repeat the last samples.
    let (x0, z0) = (chunk.corner[0], chunk.corner[1]);
    let at = |i: usize, j: usize| chunk.heights[j * n + i];
    let s = chunk.spacing;
    let (x, z) = (x0 + 3.0 * s, z0 + 5.0 * s);
    let region = world.read_region(relief::RegionLocation::new(
        (x / e).floor() as i32,
        (z / e).floor() as i32,
    ));
    let size = m.region_size as usize;
    let (i, j) = (
        ((x - (x / e).floor() * e) / s) as usize,
        ((z - (z / e).floor() * e) / s) as usize,
    );
    assert_eq!(at(3, 5), region.unwrap().height[j * size + i]);
    assert_eq!(at(n - 1, 5), at(n - 2, 5));
    assert_eq!(at(5, n - 1), at(5, n - 2));
}

/// A region's heights read alone are the whole region's height and control, every region;
/// the other maps are left unread. A damaged layer a chunk doesn't use doesn't stop its
/// heights; a damaged height layer is a checksum error, never wrong ground.
#[test]
fn heights_read_alone_are_the_regions_and_only_their_layers_are_checked() {
    let world = World::open(common::world_dir()).unwrap();
    for loc in world.region_locations() {
        let whole = world.read_region(loc).unwrap();
        let heights = world.read_region_heights(loc).unwrap();
        assert_eq!(heights.height.to_vec(), whole.height.to_vec(), "{loc:?}");
        assert_eq!(
            heights.control.as_ref().map(|c| c.to_vec()),
            whole.control.as_ref().map(|c| c.to_vec())
        );
        assert!(heights.color.is_none() && heights.biome.is_none() && heights.lake.is_none());
    }
    let dir = common::copy_world("collision-damaged-layers");
    let loc = world.region_locations().next().unwrap();
    let file = dir.join(World::open(&dir).unwrap().region_path(loc));
    let bytes = std::fs::read(&file).unwrap();
    let header = relief::flat::region::read_header(&bytes).unwrap();
    let layer = |kind| header.layers.iter().find(|l| l.kind == kind).unwrap();
    let damage = |at: usize| {
        let mut b = bytes.clone();
        b[at] ^= 0x40;
        std::fs::write(&file, b).unwrap();
        World::open(&dir).unwrap()
    };
    let last = header.layers.last().unwrap();
    assert!(!matches!(
        last.kind,
        relief::flat::LayerKind::Height | relief::flat::LayerKind::Control
    ));
    let w = damage(last.offset + last.stored_len / 2);
    assert!(w.read_region(loc).is_err(), "the whole region is refused");
    assert_eq!(
        w.read_region_heights(loc).unwrap().height.to_vec(),
        world.read_region(loc).unwrap().height.to_vec()
    );
    let h = layer(relief::flat::LayerKind::Height);
    let w = damage(h.offset + h.stored_len / 2);
    assert!(matches!(
        w.read_region_heights(loc),
        Err(relief::flat::FormatError::Checksum { .. })
    ));
}
