//! Replays every saved fuzz input on stable: each target's corpus (`fuzz/corpus/TARGET/`) and
//! every crash found so far (`fuzz/regressions/TARGET/`, kept after its fix), through the same
//! harness the libFuzzer binaries run. A crash that comes back fails `cargo test` here, on any
//! machine, nightly or not.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod harness;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    v.retain(|p| p.is_file());
    v.sort();
    v
}

/// Runs `target` over every file in `dir`, naming the file that panics.
fn replay(target: &str, run: harness::Harness, dir: &Path) -> usize {
    let files = inputs(dir);
    for f in &files {
        let data = std::fs::read(f).unwrap();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            panic!(
                "{target}: {} panics; reproduce with `cargo +nightly fuzz run {target} {}`",
                f.display(),
                f.display()
            );
        }
    }
    files.len()
}

#[test]
fn every_corpus_input_runs_clean() {
    for &(target, run) in harness::TARGETS {
        let n = replay(target, run, &root().join("corpus").join(target));
        assert!(
            n > 0,
            "{target} has no corpus: run fuzz/seed-corpora (and commit what it writes)"
        );
    }
}

#[test]
fn every_past_crash_stays_fixed() {
    let mut total = 0;
    for &(target, run) in harness::TARGETS {
        total += replay(target, run, &root().join("regressions").join(target));
    }
    // Directories must name real targets, or their inputs would silently never run.
    for dir in ["corpus", "regressions"] {
        for d in std::fs::read_dir(root().join(dir)).unwrap() {
            let name = d.unwrap().file_name().into_string().unwrap();
            assert!(
                harness::TARGETS.iter().any(|(t, _)| *t == name),
                "fuzz/{dir}/{name} is not a target in fuzz/src/lib.rs"
            );
        }
    }
    assert!(
        total > 0,
        "no regression inputs found under fuzz/regressions"
    );
}

/// The baked seeds of a target (`seed-*`, from fuzz/seed-corpora), not what fuzzing added.
fn seeds(target: &str) -> Vec<PathBuf> {
    let mut v = inputs(&root().join("corpus").join(target));
    v.retain(|p| {
        p.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("seed-")
    });
    v
}

/// The fix-ups really make checksums hold: a baked region, damaged in its payload and fixed
/// up, fails on its content (or decodes), never on its CRC.
#[test]
fn the_fixups_get_past_every_checksum() {
    let region = seeds("region")
        .into_iter()
        .map(|f| std::fs::read(f).unwrap())
        .find(|b| relief::flat::region::decode_region(b, None).is_ok())
        .expect("a seed region that decodes");
    let mut damaged = region.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x5a;
    let err = relief::flat::region::decode_region(&damaged, None).unwrap_err();
    assert!(
        err.to_string().contains("CRC") || err.to_string().contains("checksum"),
        "{err}"
    );
    harness::fix_region(&mut damaged);
    if let Err(e) = relief::flat::region::decode_region(&damaged, None) {
        let e = e.to_string();
        assert!(!e.contains("CRC") && !e.contains("checksum"), "{e}");
    }

    let pack = seeds("world_queries")
        .into_iter()
        .map(|f| std::fs::read(f).unwrap())
        .find(|b| b.starts_with(b"RLPK"))
        .expect("a seed pack");
    let fixed = harness::fix_world_pack(&pack).expect("the seed pack unpacks");
    relief::World::open_pack("fixed", Box::new(fixed)).expect("a repacked world opens");
}
