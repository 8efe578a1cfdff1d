//! The soak, short: `relief soak` over the default world and a small planet, once for
//! 300,000 frames (resident memory must stay within the soak's tolerance after warm-up) and
//! once, shorter, under valgrind (no leaks, no errors).
//! The full million-frame soak is `relief soak` with its defaults.

mod common;

use std::process::Command;

use common::native::{must, native, record_summary, run};

/// One soak at a time: the judged one measures memory as loads fill it, and a valgrind run
/// beside it would take the CPU its loaders need.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn soak(frames: &str, speed: &str) -> Command {
    let n = native();
    let mut cmd = Command::new(n.lib_dir.join("relief"));
    cmd.args(["soak", "--frames", frames, "--speed", speed, "--world"])
        .arg(&n.world)
        .arg("--planet")
        .arg(&n.planet);
    cmd
}

#[test]
fn a_short_soak_keeps_memory_flat() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = must(&mut soak("300000", "100"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("(flat)").count(), 2, "{text}");
    record_summary(
        "soak",
        &text
            .lines()
            .filter(|l| l.contains("(flat)"))
            .map(|l| format!("soak, {l}\n"))
            .collect::<String>(),
    );
}

#[test]
fn a_soak_under_valgrind_leaks_nothing() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        run(Command::new("valgrind").arg("--version"))
            .status
            .success(),
        "valgrind is missing: run .ci/deps"
    );
    // Too short to judge memory (the soak says so and only runs): this run is for leaks.
    let inner = soak("3000", "100");
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "--leak-check=full",
        "--errors-for-leak-kinds=definite",
        "--error-exitcode=99",
        "--quiet",
    ])
    .arg(inner.get_program())
    .args(inner.get_args());
    let out = run(&mut cmd);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{err}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!err.contains("definitely lost"), "{err}");
    record_summary(
        "soak-valgrind",
        "soak under valgrind: 3000 frames per ground, no leaks, no errors\n",
    );
}
