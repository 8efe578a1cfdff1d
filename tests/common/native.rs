//! Builds and worlds for the tests that call relief as a native library (C and C#): the
//! release cdylib and staticlib, the real default world (baked by the release CLI) and its
//! pack.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

pub struct Native {
    /// target/release: librelief.so, librelief.a, the relief CLI.
    pub lib_dir: PathBuf,
    /// The default world (seed "relief"), as a directory and as a pack.
    pub world: PathBuf,
    pub pack: PathBuf,
    /// A small PLNT planet (6 × 256², tiles of 64²).
    pub planet: PathBuf,
    /// Scratch space for this test binary's builds.
    pub scratch: PathBuf,
}

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a command, returning its output; panics only if it can't be started.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"))
}

/// Every file and folder of the Unity package (`bindings/unity`) under `sub` ("" for all),
/// sorted, leaving out `Tests/Fixtures~` (what the C# test links in; Unity skips it, git
/// ignores it).
pub fn package_entries(sub: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.ends_with("Tests/Fixtures~") {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            }
            out.push(p);
        }
    }
    let mut v = Vec::new();
    walk(&root().join("bindings/unity").join(sub), &mut v);
    v.sort();
    v
}

/// Every `.cs` file of the Unity package under `sub`, sorted.
pub fn package_sources(sub: &str) -> Vec<PathBuf> {
    package_entries(sub)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect()
}

/// Fails the test, saying how to get it, unless `name` is on the PATH.
pub fn tool(name: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{name}` is missing: run .ci/deps (Debian: apt-get install mono-mcs mono-runtime nunit-console libnunit-cil-dev)"
    );
}

/// Runs a command; its output if it succeeded, else what it printed (stdout, then stderr).
pub fn outcome(cmd: &mut Command) -> Result<Output, String> {
    let out = run(cmd);
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Fails the test with a command's output unless it succeeded.
pub fn must(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Builds the release library and CLI (cheap when CI already has), bakes the default world
/// once per target directory, and packs it.
pub fn native() -> &'static Native {
    static NATIVE: OnceLock<Native> = OnceLock::new();
    NATIVE.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let target = tmp.parent().expect("target dir");
        must(Command::new(env!("CARGO")).current_dir(root()).args([
            "build",
            "--release",
            "--quiet",
        ]));
        let lib_dir = target.join("release");
        let cli = lib_dir.join(format!("relief{}", std::env::consts::EXE_SUFFIX));
        let world = tmp.join("native-default-world");
        let pack = tmp.join("native-default-world.rlpack");
        // A half-written world fails `info`, and one from an older bake would be baked again
        // by every `relief` process that opens it, concurrently: bake it afresh here, once.
        let fresh = run(Command::new(&cli).arg("info").arg(&world))
            .status
            .success()
            && relief::World::open(&world)
                .is_ok_and(|w| w.manifest().bake_version == relief_tools::bake::BAKE_VERSION);
        if !fresh {
            let _ = std::fs::remove_dir_all(&world);
            must(Command::new(&cli).args(["bake", "--out"]).arg(&world));
            let _ = std::fs::remove_file(&pack);
        }
        if !pack.exists() {
            must(Command::new(&cli).arg("pack").arg(&world).arg(&pack));
        }
        let planet = tmp.join("native-planet.plnt");
        let fresh = run(Command::new(&cli).arg("info").arg(&planet))
            .status
            .success()
            && relief::planet::Planet::open(&planet).is_ok_and(|p| {
                p.blob().header().bake_version == relief_tools::bake::planet::PLANET_BAKE_VERSION
            });
        if !fresh {
            must(
                Command::new(&cli)
                    .args([
                        "bake",
                        "--planet",
                        "--face-resolution",
                        "256",
                        "--tile-size",
                        "64",
                    ])
                    .args(["--erosion-resolution", "128", "--out"])
                    .arg(&planet),
            );
        }
        let scratch = tmp.join(format!("native-{}", env!("CARGO_CRATE_NAME")));
        std::fs::create_dir_all(&scratch).unwrap();
        Native {
            lib_dir,
            world,
            pack,
            planet,
            scratch,
        }
    })
}

/// Keeps a native run's closing lines in target/tmp/summaries/NAME.txt: `.ci/test` prints
/// them after `cargo test` (which hides a passing test's output).
pub fn record_summary(name: &str, text: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("summaries");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.txt")), text).unwrap();
}
