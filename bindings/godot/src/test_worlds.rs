//! Small baked worlds the unit tests share: a 512 m world of four 128² regions at 2 m,
//! baked into a fresh directory, and the same packed.

use std::path::PathBuf;

use relief_tools::bake::{self, BakeConfig};

/// A fresh scratch directory named for `name` and this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relief-godot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The small world baked as `dir/w`.
pub fn small_world(dir: &std::path::Path) -> PathBuf {
    let mut cfg = BakeConfig::new("godot-tests");
    (cfg.size, cfg.region_size, cfg.spacing) = (512.0, 128, 2.0);
    cfg.erosion.top_height = BakeConfig::default_top(cfg.size);
    let world = dir.join("w");
    bake::bake(&cfg, &world, &relief_tools::Silent).unwrap();
    world
}

/// The small world packed as `dir/w.rlpack`.
pub fn small_pack(dir: &std::path::Path) -> PathBuf {
    let pack = dir.join("w.rlpack");
    relief::World::open(small_world(dir))
        .unwrap()
        .write_pack(&pack)
        .unwrap();
    pack
}

/// Every region's heights as bits, by location: two worlds read the same if these match.
pub fn height_bits(w: &relief::World) -> std::collections::BTreeMap<(i32, i32), Vec<u32>> {
    w.region_locations()
        .map(|loc| {
            let bits = w
                .read_region(loc)
                .unwrap()
                .height
                .iter()
                .map(|h| h.to_bits())
                .collect();
            ((loc.x, loc.z), bits)
        })
        .collect()
}
