//! include/relief.h is an artifact: generated from this crate (the C ABI, crates/relief-c),
//! committed, and checked here. A test of this crate's own, so cbindgen is built only for it
//! (never for the cross-crate tests, whose ThreadSanitizer build instruments every
//! dev-dependency).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root: this crate sits in crates/relief-c.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn generate() -> String {
    let root = root();
    let mut config = cbindgen::Config::from_file(root.join("crates/relief-c/cbindgen.toml"))
        .expect("read cbindgen.toml");
    // The version macros come from Cargo.toml (this test is built from the ABI's own
    // package, whose version is the workspace's), never typed by hand.
    config.after_includes = Some(format!(
        "\n#define RELIEF_VERSION_MAJOR {}\n#define RELIEF_VERSION_MINOR {}\n#define RELIEF_VERSION_PATCH {}\n#define RELIEF_VERSION_STRING \"{}\"",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
        env!("CARGO_PKG_VERSION"),
    ));
    let mut out = Vec::new();
    // Only the ABI crate's own sources (its lib.rs and the modules it declares), not its
    // dependencies'.
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("crates/relief-c/src/lib.rs"))
        .generate()
        .expect("cbindgen parses crates/relief-c")
        .write(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn the_committed_header_is_fresh() {
    let path = root().join("include/relief.h");
    let fresh = generate();
    if std::env::var_os("RELIEF_WRITE_HEADER").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "include/relief.h is stale: run `RELIEF_WRITE_HEADER=1 cargo test -p relief-c --test header` and commit it");
    for name in [
        "relief_world_open",
        "relief_world_destroy",
        "relief_world_get_info",
        "relief_world_open_memory",
        "relief_world_open_reader",
        "relief_runtime_poll_events",
        "relief_runtime_acquire_region",
        "relief_runtime_acquire_chunk",
        "relief_runtime_get_level",
        "relief_terrain_heights",
        "RELIEF_VERSION_MAJOR",
        "relief_last_error_message",
        "relief_version",
        "RELIEF_STATUS_PANIC",
        "struct_size",
    ] {
        assert!(fresh.contains(name), "{name} missing from the header");
    }
}

#[test]
fn the_header_compiles_alone_as_c99_and_cpp17() {
    let header = root().join("include/relief.h");
    assert!(header.exists(), "include/relief.h is missing");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (compiler, std, ext) in [("cc", "-std=c99", "c"), ("c++", "-std=c++17", "cpp")] {
        let src = dir.join(format!("header_alone.{ext}"));
        std::fs::write(
            &src,
            format!(
                "#include \"{}\"\nint main(void) {{ return relief_version() == 0; }}\n",
                header.display()
            ),
        )
        .unwrap();
        let out = Command::new(compiler)
            .args([
                std,
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-fsyntax-only",
            ])
            .arg(&src)
            .output()
            .unwrap_or_else(|e| panic!("run {compiler}: {e}"));
        assert!(
            out.status.success(),
            "{compiler} {std}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every function's comment in the header says which threads may call it and what NULL does
/// (docs/c-api.md states the rest of the conventions once).
#[test]
fn every_function_documents_threads_and_null() {
    let header = generate();
    let mut doc = String::new();
    let mut missing = Vec::new();
    let mut functions = 0;
    for line in header.lines() {
        if let Some(text) = line.strip_prefix("//") {
            doc += text;
            continue;
        }
        let is_fn =
            line.contains('(') && !line.starts_with([' ', '#', 't']) && line.contains("relief_");
        if is_fn {
            functions += 1;
            let name = line[..line.find('(').unwrap()]
                .rsplit([' ', '*'])
                .next()
                .unwrap();
            // The contract proper, not the `# Safety` boilerplate every export carries.
            let contract = doc.split("# Safety").next().unwrap_or("");
            for word in ["Threads", "NULL"] {
                if !contract.contains(word) {
                    missing.push(format!("{name}: no `{word}`"));
                }
            }
        }
        doc.clear();
    }
    assert!(functions >= 40, "only {functions} functions found");
    assert!(missing.is_empty(), "{missing:#?}");
}
