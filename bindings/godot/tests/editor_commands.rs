//! The `relief` command lines the editor plugin runs (`relief_godot::commands`), run as the
//! plugin runs them against the real command, and where the plugin finds the command.

#[path = "../../../tests/common/relief_exe.rs"]
mod relief_exe;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use relief_godot::commands::*;

fn run(tool: &Path, args: &[String]) -> String {
    let out = Command::new(tool).args(args).output().unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "relief {args:?}: {said}");
    said
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relief-godot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Each command line the editor builds, run as the editor runs it: a world baked,
/// packed, counted and previewed; a heightmap imported; a planet baked; and each result
/// opened by the runtime.
#[test]
fn every_editor_command_does_what_the_plugin_says() {
    let tool = relief_exe::relief_exe();
    let dir = scratch("editor");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let (world, pack_file) = (dir.join("island"), dir.join("island.rlpack"));
    run(tool, &bake("editor", 1024, &s(&world)));
    run(tool, &pack(&s(&world), &s(&pack_file)));
    assert!(relief::runtime::Ground::open(&pack_file).is_ok());
    let census = run(tool, &info(&s(&pack_file)));
    assert!(census.contains("region"), "{census}");
    let png = dir.join("island.png");
    run(tool, &preview(&s(&pack_file), &s(&png), 128));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");

    // A 256² 16-bit raw ramp, imported onto [-10, 90] m at 2 m.
    let raw = dir.join("ramp.r16");
    let bytes: Vec<u8> = (0..256 * 256u32)
        .flat_map(|i| ((i % 256) as u16 * 257).to_le_bytes())
        .collect();
    std::fs::write(&raw, bytes).unwrap();
    let imported = dir.join("ramp.rlpack");
    run(
        tool,
        &import_heightmap(&s(&raw), &s(&imported), -10.0, 90.0, 2.0),
    );
    let relief::runtime::Ground::Flat(w) = relief::runtime::Ground::open(&imported).unwrap() else {
        panic!("a flat world")
    };
    assert_eq!(w.manifest().vertex_spacing, 2.0);
    let r = w.manifest().height_range;
    assert!(
        (r[0] + 10.0).abs() < 1e-3 && (r[1] - 90.0).abs() < 1e-3,
        "{r:?}"
    );

    let planet = dir.join("moon.plnt");
    run(tool, &bake_planet("editor", 50_000.0, 64, &s(&planet)));
    assert!(relief::runtime::Ground::open(&planet).unwrap().is_planet());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_tool_is_found_where_the_docs_say_in_that_order() {
    let dir = scratch("find");
    let addon = dir.join("addon");
    let bundled = addon.join("bin").join(platform_dir()).join(exe_name());
    let on_path = dir.join("path").join(exe_name());
    let env = dir.join("env").join(exe_name());
    for p in [&bundled, &on_path, &env] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b"").unwrap();
    }
    let path = Some(OsString::from(on_path.parent().unwrap()));
    assert_eq!(
        find_tool(Some(env.clone().into()), &addon, path.clone()),
        Some(env.clone())
    );
    assert_eq!(find_tool(None, &addon, path.clone()), Some(bundled.clone()));
    std::fs::remove_file(&bundled).unwrap();
    assert_eq!(
        find_tool(Some("".into()), &addon, path.clone()),
        Some(on_path)
    );
    assert_eq!(find_tool(None, &addon, None), None);
    // A $RELIEF_TOOL that names nothing is not silently replaced by another.
    assert_eq!(find_tool(Some(dir.join("nope").into()), &addon, path), None);
    std::fs::remove_dir_all(&dir).ok();
}
