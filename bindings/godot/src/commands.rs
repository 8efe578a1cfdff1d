//! The `relief` command lines the editor plugin runs (`addons/relief/editor/`), and where it
//! finds the command. The editor bakes, imports, packs, counts and previews with the
//! library's own tool rather than a second implementation in GDScript; the plugin only
//! collects the fields and shows what the command prints. No engine types:
//! `tests/editor_commands.rs` runs each command line here against the real `relief` command.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The `relief` command's file name on this platform.
pub fn exe_name() -> String {
    format!("relief{}", std::env::consts::EXE_SUFFIX)
}

/// The folder under `addons/relief/bin/` for this platform, as `relief.gdextension` names
/// them (`build.sh` puts the command beside the library there).
pub fn platform_dir() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "aarch64") => "linux-arm64",
        ("linux", _) => "linux-x86_64",
        ("windows", _) => "windows-x86_64",
        ("macos", _) => "macos",
        _ => "unsupported",
    }
}

/// The command to run, first found of: `$RELIEF_TOOL`, the addon's
/// `bin/<platform>/relief[.exe]` (under `addon_dir`, the addon's folder on disk), and
/// `relief` on the `PATH`.
pub fn find_tool(
    env: Option<OsString>,
    addon_dir: &Path,
    path: Option<OsString>,
) -> Option<PathBuf> {
    if let Some(p) = env.filter(|p| !p.is_empty()).map(PathBuf::from) {
        return p.is_file().then_some(p);
    }
    let bundled = addon_dir.join("bin").join(platform_dir()).join(exe_name());
    if bundled.is_file() {
        return Some(bundled);
    }
    std::env::split_paths(&path?)
        .map(|dir| dir.join(exe_name()))
        .find(|p| p.is_file())
}

fn strings<const N: usize>(args: [&str; N]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// `relief info`: a world's or planet's census, as text.
pub fn info(world: &str) -> Vec<String> {
    strings(["info", world])
}

/// `relief preview`: a PNG of the world (hillshade, ground classes, rivers, lakes, legend),
/// `pixels` a side (a planet's twice as wide).
pub fn preview(world: &str, png: &str, pixels: u32) -> Vec<String> {
    strings([
        "preview",
        world,
        "--out",
        png,
        "--pixels",
        &pixels.to_string(),
    ])
}

/// `relief bake`: a flat world `size_m` metres a side into the directory `out`, stored
/// compact (what to ship).
pub fn bake(seed: &str, size_m: u32, out: &str) -> Vec<String> {
    let size = size_m.to_string();
    strings([
        "bake", "--seed", seed, "--size", &size, "--codecs", "compact", "--out", out,
    ])
}

/// `relief bake --planet`: a PLNT planet of `radius_m` with `face_resolution` samples a
/// cube-face side.
pub fn bake_planet(seed: &str, radius_m: f64, face_resolution: u32, out: &str) -> Vec<String> {
    let (radius, faces) = (radius_m.to_string(), face_resolution.to_string());
    strings([
        "bake",
        "--planet",
        "--seed",
        seed,
        "--radius",
        &radius,
        "--face-resolution",
        &faces,
        "--out",
        out,
    ])
}

/// `relief pack`: a world directory as one `.rlpack` (what a game exports).
pub fn pack(world_dir: &str, out: &str) -> Vec<String> {
    strings(["pack", world_dir, out])
}

/// `relief import heightmap`: a heightmap (`.r16`/`.raw`, `.f32`, grayscale PNG) as a pack,
/// its full range mapped onto `[min, max]` metres, `spacing` metres between samples.
pub fn import_heightmap(file: &str, out: &str, min: f64, max: f64, spacing: f64) -> Vec<String> {
    let (range, spacing) = (format!("{min},{max}"), spacing.to_string());
    strings([
        "import",
        "heightmap",
        file,
        "--pack",
        out,
        "--height-range",
        &range,
        "--spacing",
        &spacing,
    ])
}

/// `relief import terrain3d`: a Terrain3D data directory as a pack.
pub fn import_terrain3d(data_dir: &str, out: &str) -> Vec<String> {
    strings(["import", "terrain3d", data_dir, "--pack", out])
}
