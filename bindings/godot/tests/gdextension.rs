//! The `.gdextension` file against what the build produces: its entry symbol is the one the
//! library exports, its API level is 4.4, and every platform's library path names the file
//! cargo makes for that platform, inside `res://addons/relief/bin/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `[section]` → key → value (quotes removed), as Godot's ConfigFile reads the file.
fn parse(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut section = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
            continue;
        }
        let (key, value) = line.split_once('=').expect("key = value");
        out.entry(section.clone())
            .or_default()
            .insert(key.trim().into(), value.trim().trim_matches('"').into());
    }
    out
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn gdextension() -> BTreeMap<String, BTreeMap<String, String>> {
    let path = manifest_dir().join("addons/relief/relief.gdextension");
    parse(&std::fs::read_to_string(&path).unwrap())
}

/// The shared library this test run links against: cargo compiles the crate's cdylib in the
/// same rustc run as the rlib the tests use, into the directory holding the test binary.
/// Asking cargo for a build of its own instead would resolve features without the
/// workspace's dev-dependencies and rebuild godot from scratch (minutes), so that is only the
/// fallback.
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let beside = exe.with_file_name("librelief_godot.so");
    if beside.is_file() {
        return beside;
    }
    cargo_build_library()
}

/// The shared library `cargo build -p relief-godot` makes here, asked of cargo itself.
fn cargo_build_library() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "-p",
            "relief-godot",
            "--profile",
            "test",
            "--message-format=json",
        ])
        .current_dir(manifest_dir())
        .output()
        .expect("run cargo build");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "relief_godot")
        .flat_map(|m| m["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f.as_str().map(PathBuf::from))
        .find(|f| f.extension().is_some_and(|e| e == "so"))
        .expect("a cdylib among the artifacts")
}

#[test]
fn the_configuration_is_api_level_4_4_with_gdexts_entry_symbol() {
    let g = gdextension();
    let c = &g["configuration"];
    assert_eq!(c["entry_symbol"], "gdext_rust_init");
    assert_eq!(c["compatibility_minimum"], "4.4");
}

#[test]
fn every_platform_names_the_file_cargo_makes_for_it() {
    let g = gdextension();
    let libs = &g["libraries"];
    for platform in ["linux", "windows", "macos", "android", "ios"] {
        assert!(
            libs.keys().any(|k| k.starts_with(platform)),
            "no {platform} library"
        );
    }
    for (key, path) in libs {
        let platform = key.split('.').next().unwrap();
        let want = match platform {
            "linux" | "android" => "librelief_godot.so",
            "windows" => "relief_godot.dll",
            // iOS: a dynamic library, which Godot's iOS export wraps in a .framework and
            // embeds (editor/export/ios: a .dylib GDExtension library becomes a framework).
            "macos" | "ios" => "librelief_godot.dylib",
            _ => panic!("{key}: unexpected platform"),
        };
        assert!(
            path.starts_with("res://addons/relief/bin/"),
            "{key}: {path}"
        );
        assert!(
            path.ends_with(&format!("/{want}")),
            "{key}: {path}, want {want}"
        );
        // Debug and release load the same file (one build per platform is shipped).
        let twin = key
            .replace(".debug", ".release")
            .replace(".release", ".debug");
        assert_eq!(libs.get(&twin), Some(path), "{key} and {twin} differ");
    }
    assert!(
        libs.contains_key("linux.release.x86_64")
            && libs.contains_key("android.release.arm64")
            && libs.contains_key("ios.release")
    );
}

#[test]
fn the_built_library_is_the_one_named_and_exports_the_entry_symbol() {
    let lib = built_library();
    let g = gdextension();
    let named = &g["libraries"]["linux.release.x86_64"];
    assert_eq!(
        lib.file_name().unwrap().to_str().unwrap(),
        named.rsplit('/').next().unwrap()
    );
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&lib)
        .output()
        .expect("nm (binutils)");
    let symbols = String::from_utf8_lossy(&nm.stdout);
    let entry = &g["configuration"]["entry_symbol"];
    assert!(
        symbols.lines().any(|l| l.ends_with(&format!(" T {entry}"))),
        "{} does not export {entry}",
        lib.display()
    );
}

/// The sample's export presets, as a developer exporting it meets them: one per platform
/// the extension has libraries for, each shipping the world with no include filter (the
/// extension's resource loader makes `.rlpack`/`.plnt` resources the editor lists, and
/// "Export all resources" exports every listed file), none encrypting it (an encrypted entry
/// is decrypted whole into memory), and every architecture a preset builds for has a library
/// in `relief.gdextension`.
#[test]
fn every_export_preset_ships_the_world_and_finds_a_library() {
    let sample = manifest_dir().join("../../samples/godot");
    let presets = parse(&std::fs::read_to_string(sample.join("export_presets.cfg")).unwrap());
    let libraries = &gdextension()["libraries"];
    // The world the scene streams is one the loader recognizes.
    let scene = std::fs::read_to_string(sample.join("main.tscn")).unwrap();
    let world = scene
        .lines()
        .find_map(|l| l.trim().strip_prefix("path = \"res://world/"))
        .map(|rest| format!("world/{}", rest.trim_end_matches('"')))
        .expect("the scene's ReliefWorld path");
    assert!(relief_godot::world_files::is_world_file(&world), "{world}");

    let mut platforms = Vec::new();
    for (name, preset) in presets.iter().filter(|(n, _)| !n.ends_with(".options")) {
        let options = &presets[&format!("{name}.options")];
        let platform = preset["platform"].as_str();
        platforms.push(platform.to_string());
        assert_eq!(preset["export_filter"], "all_resources", "{name}");
        assert_eq!(
            preset["include_filter"], "",
            "{name}: no filter to remember"
        );
        assert_eq!(preset["encryption_include_filters"], "", "{name}");
        assert_eq!(preset["encrypt_pck"], "false", "{name}");
        // The `.gdextension` feature tags for this preset's platform and architectures.
        let (os, arches): (&str, Vec<&str>) = match platform {
            "Linux" => (
                "linux",
                vec![options["binary_format/architecture"].as_str()],
            ),
            "Windows Desktop" => (
                "windows",
                vec![options["binary_format/architecture"].as_str()],
            ),
            "macOS" | "iOS" => (if platform == "iOS" { "ios" } else { "macos" }, vec![]),
            "Android" => {
                assert_eq!(
                    options["gradle_build/use_gradle_build"], "true",
                    "Android: a Gradle build, so the world can be stored uncompressed"
                );
                let abis = [
                    ("arm64-v8a", "arm64"),
                    ("armeabi-v7a", "arm32"),
                    ("x86_64", "x86_64"),
                    ("x86", "x86_32"),
                ];
                let on = abis
                    .iter()
                    .filter(|(abi, _)| {
                        options
                            .get(&format!("architectures/{abi}"))
                            .is_some_and(|v| v == "true")
                    })
                    .map(|(_, arch)| *arch)
                    .collect();
                ("android", on)
            }
            other => panic!("{name}: a platform relief has no library for: {other}"),
        };
        for build in ["debug", "release"] {
            if arches.is_empty() {
                assert!(
                    libraries.contains_key(&format!("{os}.{build}")),
                    "{name}: {os}.{build}"
                );
            }
            for arch in &arches {
                let key = format!("{os}.{build}.{arch}");
                assert!(libraries.contains_key(&key), "{name}: no library for {key}");
            }
        }
    }
    platforms.sort();
    assert_eq!(
        platforms,
        ["Android", "Linux", "Windows Desktop", "iOS", "macOS"],
        "one preset per platform"
    );
}

/// Loader threads reading `res://` through FileAccess, the resource loader on the editor's
/// scan threads and `ReliefQueries` on a game's threads all need gdext's multi-threaded
/// binding: without `experimental-threads` every engine call off the main thread panics. The
/// feature as cargo resolves it for this crate's godot.
#[test]
fn godot_is_built_with_the_binding_threads_need() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(manifest_dir())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let features = |name: &str| -> Vec<String> {
        let node = nodes
            .iter()
            .find(|n| n["id"].as_str().unwrap().contains(&format!("#{name}@")))
            .unwrap_or_else(|| panic!("{name} resolved"));
        node["features"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect()
    };
    for krate in ["godot", "godot-core", "godot-ffi"] {
        assert!(
            features(krate).iter().any(|f| f == "experimental-threads"),
            "{krate}: {:?}",
            features(krate)
        );
    }
}
