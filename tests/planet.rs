//! PLNT planets end to end: bake small planets, open them, read every tile; the v6 prefix;
//! the polar axis; damaged blobs.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use relief::bake::planet::{bake_planet, PlanetConfig};
use relief::bake::Silent;
use relief::planet::tables::PlanetCensus;
use relief::planet::{Blob, Samples, TileKey};

/// A 128² face planet (tiles of 32², erosion on 64²): small enough to bake in seconds.
pub fn small(seed: &str) -> PlanetConfig {
    let mut c = PlanetConfig::new(seed);
    c.face_resolution = 128;
    c.tile_size = 32;
    c.erosion_resolution = 64;
    c
}

fn baked() -> &'static (PathBuf, PlanetCensus) {
    static P: OnceLock<(PathBuf, PlanetCensus)> = OnceLock::new();
    P.get_or_init(|| {
        let out = common::scratch("planet").with_extension("plnt");
        let census = bake_planet(&small("relief"), &out, &Silent).expect("bake");
        (out, census)
    })
}

#[test]
fn a_baked_planet_opens_and_every_tile_reads() {
    let (path, census) = baked();
    println!("{census:#?}");
    let blob = Blob::open(path).unwrap();
    let h = blob.header();
    assert_eq!((h.version, h.face_resolution, h.tile_size), (7, 128, 32));
    assert_eq!(blob.fields().len(), 5);
    let mut n = 0;
    for face in 0..6u8 {
        for ty in 0..4u16 {
            for tx in 0..4u16 {
                let key = TileKey { face, tx, ty };
                for f in 0..5 {
                    let s = blob.read_tile(f, key).unwrap();
                    assert_eq!(s.bytes() / blob.fields()[f].ty.size(), 32 * 32);
                    if let Samples::F32(v) = &s {
                        assert!(v.iter().all(|x| x.is_finite()));
                    }
                }
                n += 1;
            }
        }
    }
    assert_eq!(n, 96);
    assert!(
        census.ocean_share > 0.3 && census.ocean_share < 0.8,
        "{census:?}"
    );
    assert!(census.reaches > 0 && census.river_km + census.creek_km > 0.0);
    assert!(census.height_max > 1000.0 && census.height_min < -1000.0);
}

#[allow(dead_code)]
fn unused(_: &Path) {}
