//! Every GDScript file in the repository parses and lints clean with gdtoolkit 4.x (installed
//! by `.ci/deps` into `target/gdtoolkit`): no Godot binary runs here, so this is how the
//! scripts are checked at all.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A gdtoolkit command: from `target/gdtoolkit` if `.ci/deps` put it there, else the PATH's.
fn tool(name: &str) -> PathBuf {
    let local = repo().join("target/gdtoolkit/bin").join(name);
    if local.exists() {
        local
    } else {
        PathBuf::from(name)
    }
}

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != ".git" && name != ".godot" {
                scripts(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "gd") {
            out.push(path);
        }
    }
}

fn run(tool_name: &str, args: &[&str], files: &[PathBuf]) {
    let out = Command::new(tool(tool_name))
        .args(args)
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("{tool_name}: {e} (run .ci/deps to install gdtoolkit)"));
    assert!(
        out.status.success(),
        "{tool_name}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_gdscript_parses_and_lints_clean() {
    let mut files = Vec::new();
    scripts(&repo(), &mut files);
    for script in ["terrain3d_bridge.gd", "samples/godot/walker.gd"] {
        assert!(
            files.iter().any(|f| f.ends_with(script)),
            "{script} is among {files:?}"
        );
    }
    run("gdparse", &[], &files);
    run("gdlint", &[], &files);
    run("gdformat", &["--check"], &files);
}
