//! Small baked worlds shared by the integration tests (baked once per test binary).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use relief_tools::bake::{self, BakeConfig};
use relief_tools::Silent;

/// The default 4 km island at 2 m spacing: 64 regions of 256², the default erosion grid,
/// so the hydrology is the default world's at a quarter of the samples.
pub fn small_config(seed: &str) -> BakeConfig {
    let mut cfg = BakeConfig::new(seed);
    cfg.region_size = 256;
    cfg.spacing = 2.0;
    cfg
}

/// A 128² face planet (tiles of 32², erosion on 64²): small enough to bake in seconds.
pub fn small_planet(seed: &str) -> relief_tools::bake::planet::PlanetConfig {
    let mut c = relief_tools::bake::planet::PlanetConfig::new(seed);
    c.face_resolution = 128;
    c.tile_size = 32;
    c.erosion_resolution = 64;
    c
}

pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The shared test world (the default seed, "relief"), baked on first use.
pub fn world_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch(&format!("world-{}", env!("CARGO_CRATE_NAME")));
        bake::bake(&small_config("relief"), &dir, &Silent).expect("bake the test world");
        dir
    })
}

/// The shared test world as a pack's bytes, packed on first use.
pub fn world_pack() -> &'static [u8] {
    static PACK: OnceLock<Vec<u8>> = OnceLock::new();
    PACK.get_or_init(|| std::fs::read(world_pack_path()).unwrap())
}

/// [`world_dir`]'s world as a pack file, written on first use.
pub fn world_pack_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let out = scratch(&format!("pack-{}", env!("CARGO_CRATE_NAME"))).with_extension("rlpack");
        relief::flat::World::open(world_dir())
            .unwrap()
            .write_pack(&out)
            .unwrap();
        out
    })
}

/// A small planet's blob ([`small_planet`] of `seed`), baked on first use (one seed per
/// test binary).
pub fn planet_blob(seed: &str) -> &'static [u8] {
    static BLOB: OnceLock<Vec<u8>> = OnceLock::new();
    BLOB.get_or_init(|| {
        let out = scratch(&format!("planet-{}", env!("CARGO_CRATE_NAME"))).with_extension("plnt");
        relief_tools::bake::planet::bake_planet(&small_planet(seed), &out, &Silent).unwrap();
        std::fs::read(&out).unwrap()
    })
}

/// Copies a baked world so a test can damage it.
pub fn copy_world(name: &str) -> PathBuf {
    let src = world_dir();
    let dst = scratch(name);
    std::fs::create_dir_all(dst.join("regions")).unwrap();
    for entry in walk(src) {
        let rel = entry.strip_prefix(src).unwrap();
        std::fs::copy(&entry, dst.join(rel)).unwrap();
    }
    dst
}

pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A streamer for fault tests: retries a failed load every `retry_ms` forever and keeps
/// everything once loaded (no drop radius or budget in the way), so faults can't unload
/// anything and "nothing resident is lost" is exact.
pub fn patient(load_radius: f64, retry_ms: u64) -> relief::stream::StreamConfig {
    relief::stream::StreamConfig {
        load_radius,
        drop_radius: 1e7,
        budget_bytes: 1 << 30,
        max_attempts: u32::MAX,
        retry_delay: std::time::Duration::from_millis(retry_ms),
        ..relief::stream::StreamConfig::default()
    }
}

pub mod c_events;
pub mod hostile;
pub mod largest;
pub mod native;
pub mod nginx;
pub mod planets;
pub mod relief_exe;

pub use relief_exe::relief_exe;

/// Runs the `relief` command: whether it succeeded, its stdout and its stderr.
pub fn relief(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(relief_exe())
        .args(args)
        .output()
        .expect("run relief");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
