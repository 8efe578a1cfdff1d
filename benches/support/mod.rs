//! The world the benches run on: baked once into target/bench-world (2 km, default settings),
//! and again whenever the baker's version moves on.

use std::path::PathBuf;

/// The repository's root: the benches' package sits in benches/, and every path starts above
/// it.
#[allow(dead_code)]
pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Where the bench planet is baked.
#[allow(dead_code)]
pub fn planet_path() -> PathBuf {
    root().join("target/bench-planet.plnt")
}

use relief::World;
use relief_tools::bake::{self, BakeConfig};
use relief_tools::Silent;

#[allow(dead_code)]
pub fn bench_world() -> World {
    let dir = root().join("target/bench-world");
    World::open(&dir)
        .map_err(|e| e.to_string())
        // A world from an older baker is baked again: the benches measure what bakes today.
        .and_then(|w| match w.manifest().bake_version {
            bake::BAKE_VERSION => Ok(w),
            v => Err(format!("bake version {v}")),
        })
        .or_else(|_| {
            let _ = std::fs::remove_dir_all(&dir);
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
    use relief_tools::bake::planet::{bake_planet, PlanetConfig, PLANET_BAKE_VERSION};
    let path = planet_path();
    relief::planet::Planet::open(&path)
        .map_err(|e| e.to_string())
        // A planet from an older baker is baked again: the benches measure what bakes today.
        .and_then(|p| match p.blob().header().bake_version {
            PLANET_BAKE_VERSION => Ok(p),
            v => Err(format!("bake version {v}")),
        })
        .or_else(|_| {
            let mut cfg = PlanetConfig::new("relief");
            cfg.face_resolution = 512;
            bake_planet(&cfg, &path, &Silent).expect("bake the bench planet");
            relief::planet::Planet::open(&path)
        })
        .expect("open the bench planet")
}
