//! Records the git revision the crate was built from, for `relief bench` results
//! (`RELIEF_GIT_REV`: the commit checked out, or `unknown` outside a git checkout). Changes
//! not yet committed are not marked: the script re-runs when the commit changes, not on
//! every edit.

use std::path::Path;
use std::process::Command;

fn main() {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let rev = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=RELIEF_GIT_REV={rev}");
    // Re-run when the checked-out commit changes. Only files that exist: a missing one
    // would make Cargo re-run the script on every build.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = Path::new(&dir);
        let mut watched = vec![dir.join("HEAD"), dir.join("packed-refs")];
        if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(dir.join(r));
        }
        for f in watched.iter().filter(|f| f.exists()) {
            println!("cargo:rerun-if-changed={}", f.display());
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
