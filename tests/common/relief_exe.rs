//! The `relief` command for tests, built by cargo on first use. Included by path by the
//! Godot binding's tests too (`bindings/godot/tests/editor_commands.rs`), which run the
//! command lines its editor plugin builds.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The `relief` command. It is the tools crate's binary, so cargo does not build it for this
/// package's tests (nor set `CARGO_BIN_EXE_relief`): the first call builds it, with the
/// profile these tests were built with, beside them (a no-op when it is fresh).
pub fn relief_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        // target/<profile>/deps/<this test>: the command lands in target/<profile>.
        let test = std::env::current_exe().expect("the test's own path");
        let dir = test
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>");
        let profile = if dir.ends_with("release") {
            "release"
        } else {
            "test"
        };
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("target dir");
        let built = std::process::Command::new(env!("CARGO"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "build",
                "--quiet",
                "--profile",
                profile,
                "-p",
                "relief-tools",
                "--bin",
                "relief",
            ])
            .arg("--target-dir")
            .arg(target)
            .status()
            .expect("run cargo");
        assert!(built.success(), "cargo could not build the relief command");
        dir.join(format!("relief{}", std::env::consts::EXE_SUFFIX))
    })
}
