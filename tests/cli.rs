//! The `relief` command on a baked world: what a person runs and reads.

mod common;

use common::relief;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn info_prints_a_census() {
    let dir = common::world_dir().to_str().unwrap().to_string();
    let (ok, out, err) = relief(&["info", &dir, "--verify"]);
    assert!(ok, "{err}");
    // The placement table's kinds, each under its band, as the world holds them.
    let world = relief::World::open(&dir).unwrap();
    let line = out.lines().find(|l| l.starts_with("things ")).expect(&out);
    let rules = world.things();
    assert!(
        line.contains(&format!("{} kinds", rules.kinds.len())),
        "{line}"
    );
    for band in relief::things::Band::ALL {
        let names: Vec<&str> = rules
            .kinds
            .iter()
            .filter(|k| k.band == band)
            .map(|k| k.name.as_str())
            .collect();
        assert!(
            line.contains(&format!("{} {}", band.name(), names.join(", "))),
            "{band:?}: {line}"
        );
    }
    for word in [
        "64 regions of 256²",
        "ocean",
        "km of river",
        "km of creek",
        "reaches",
        "lakes",
        "classes  ",
        "province",
        "of land",
        "verified 64 regions",
    ] {
        assert!(out.contains(word), "`{word}` missing from:\n{out}");
    }
}

/// The figure `relief info --collision` prints: its worst distance in metres and how many
/// samples it compared.
fn collision_figures(out: &str) -> (f64, usize) {
    let line = out
        .lines()
        .find(|l| l.starts_with("collision: "))
        .unwrap_or_else(|| panic!("no collision line in:\n{out}"));
    let worst = line
        .split("worst ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let compared = line.split("; ").nth(1).unwrap().split(' ').next().unwrap();
    (worst.parse().unwrap(), compared.parse().unwrap())
}

/// `info --collision` builds every chunk, measures every sample against the height query,
/// and reports the worst: none off the ground on the test world (at the default size and at
/// one that leaves partial chunks at the edges) nor on a planet; a size the ground can't hold
/// is refused naming the range.
#[test]
fn info_measures_every_collision_sample_against_the_ground() {
    let dir = common::world_dir().to_str().unwrap().to_string();
    for size in ["0", "46"] {
        let (ok, out, err) = relief(&["info", &dir, "--collision", "--chunk-size", size]);
        assert!(ok, "{err}");
        let (worst, compared) = collision_figures(&out);
        assert_eq!(worst, 0.0, "{out}");
        // The whole 4 km world at 2 m: 2049² samples and more, each chunk's edges shared.
        assert!(compared > 2049 * 2049, "{out}");
    }
    let planet = common::scratch("cli-collision").with_extension("plnt");
    std::fs::write(&planet, common::planet_blob("relief")).unwrap();
    let planet = planet.to_str().unwrap();
    let (ok, out, err) = relief(&["info", planet, "--collision", "--chunk-size", "5000"]);
    assert!(ok, "{err}");
    let (worst, compared) = collision_figures(&out);
    assert!(worst <= 0.01 && compared > 6 * 128 * 128, "{out}");
    let (ok, _, err) = relief(&["info", planet, "--collision", "--chunk-size", "1e7"]);
    assert!(
        !ok && err.contains("chunk_size_m") && err.contains("samples of"),
        "{err}"
    );
}

#[test]
fn preview_writes_a_png_of_the_requested_size() {
    let png = common::scratch("preview").with_extension("png");
    let dir = common::world_dir().to_str().unwrap().to_string();
    let (ok, _, err) = relief(&[
        "preview",
        &dir,
        "--out",
        png.to_str().unwrap(),
        "--pixels",
        "300",
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // IHDR: width and height, big-endian, at bytes 16..24: the 300² map and the legend's
    // 250 px panel to its right, as tall as the map or the list of classes.
    assert_eq!(
        u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
        300 + 250
    );
    assert!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()) >= 300);
}

#[test]
fn bad_arguments_and_bad_worlds_fail_with_a_message() {
    let (ok, _, err) = relief(&["bake", "--out", "/nonexistent-dir/x", "--size", "1000"]);
    assert!(
        !ok && err.contains("whole number of 512 m regions"),
        "{err}"
    );
    let (ok, _, err) = relief(&["info", "/nonexistent-world"]);
    assert!(!ok && err.contains("missing"), "{err}");
}

#[test]
fn demo_streams_a_route_and_reports_regions_collision_and_clipmap() {
    let dir = common::world_dir().to_str().unwrap().to_string();
    let (ok, out, err) = relief(&["demo", "--world", &dir, "--seconds", "2"]);
    assert!(ok, "{err}");
    for word in [
        "down the longest river",
        "flying across",
        "regions loaded",
        "update():",
        "loading screen",
        "collision:",
        "chunks of 64 m built",
        "clipmap:",
        "cells rewritten",
        "p99",
        "reach",
        "lake",
        "memory: peak",
    ] {
        assert!(out.contains(word), "`{word}` missing from:\n{out}");
    }
}

#[test]
fn demo_bakes_the_default_world_when_it_is_missing() {
    let cache = common::scratch("xdg-cache");
    let out = Command::new(common::relief_exe())
        .args(["demo", "--seconds", "1"])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("baking it"), "{text}");
    assert!(cache.join("relief/default/world.json").exists());
}

#[test]
fn preview_draws_the_clipmap_rings_around_a_point() {
    let png = common::scratch("clipmap").with_extension("png");
    let dir = common::world_dir().to_str().unwrap().to_string();
    let (ok, _, err) = relief(&[
        "preview",
        &dir,
        "--out",
        png.to_str().unwrap(),
        "--pixels",
        "200",
        "--clipmap",
        "-300,150",
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 200);
    let (ok, _, err) = relief(&[
        "preview",
        &dir,
        "--out",
        png.to_str().unwrap(),
        "--clipmap",
        "12",
    ]);
    assert!(!ok && err.contains("X,Z"), "{err}");
}

/// `demo --world` names a world that is the user's: one that does not open is an error that
/// says why, and it is left exactly as it was (a damaged byte once had the directory deleted
/// and the default world baked in its place); a URL is opened, never baked into a directory
/// named like it.
#[test]
fn demo_never_replaces_a_named_world_it_cannot_open() {
    let dir = common::copy_world("demo-damaged");
    let manifest = dir.join("world.json");
    let mut text = std::fs::read(&manifest).unwrap();
    text[0] = b'[';
    std::fs::write(&manifest, &text).unwrap();
    let snapshot = || -> Vec<(PathBuf, Vec<u8>)> {
        common::walk(&dir)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect()
    };
    let before = snapshot();
    let (ok, _, err) = relief(&["demo", "--world", dir.to_str().unwrap(), "--seconds", "1"]);
    assert!(!ok && err.contains("only where nothing exists"), "{err}");
    assert!(before == snapshot(), "the named world changed");

    // Nothing listens on port 9 of loopback: an error, and no directory made for the URL.
    let cwd = common::scratch("demo-url-cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = Command::new(common::relief_exe())
        .args([
            "demo",
            "--world",
            "http://127.0.0.1:9/w.rlpack",
            "--seconds",
            "1",
        ])
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let made: Vec<_> = std::fs::read_dir(&cwd).unwrap().flatten().collect();
    assert!(made.is_empty(), "{made:?}");
}
