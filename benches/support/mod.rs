//! The world the benches run on: baked once into target/bench-world (2 km, default settings).

use std::path::PathBuf;

use relief::bake::{self, BakeConfig, Silent};
use relief::World;

#[allow(dead_code)]
pub fn bench_world() -> World {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-world");
    World::open(&dir)
        .or_else(|_| {
            let mut cfg = BakeConfig::new("relief");
            cfg.size = 2048.0;
            bake::bake(&cfg, &dir, &Silent).expect("bake the bench world");
            World::open(&dir)
        })
        .expect("open the bench world")
}

/// The planet the benches run on: 6 × 512², tiles of 256² (the big planet's tile size), baked
/// once into target/bench-planet.plnt.
#[allow(dead_code)]
pub fn bench_planet() -> relief::planet::Planet {
    use relief::bake::planet::{bake_planet, PlanetConfig};
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-planet.plnt");
    relief::planet::Planet::open(&path)
        .or_else(|_| {
            let mut cfg = PlanetConfig::new("relief");
            cfg.face_resolution = 512;
            bake_planet(&cfg, &path, &Silent).expect("bake the bench planet");
            relief::planet::Planet::open(&path)
        })
        .expect("open the bench planet")
}
