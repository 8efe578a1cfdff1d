//! The world the benches run on: baked once into target/bench-world (2 km, default settings).

use std::path::PathBuf;

use relief::bake::{self, BakeConfig, Silent};
use relief::World;

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
