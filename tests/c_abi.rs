//! Real C callers: the samples (a streaming walk, every query), the hostile-input program and
//! a caller built against an older release's header, each built against the shared and the
//! static library and run under AddressSanitizer and UndefinedBehaviorSanitizer, and the
//! shared build once more under valgrind (which sees the same code either way, 20× slower).
//! Any sanitizer report, valgrind error, leak or failed check fails the test.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{must, native, record_summary, root, run};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Link {
    Shared,
    Static,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Check {
    Sanitizers,
    Valgrind,
}

fn build(source: &Path, link: Link, check: Check) -> PathBuf {
    let n = native();
    let stem = source.file_stem().unwrap().to_str().unwrap();
    let exe = n
        .scratch
        .join(format!("{stem}-{link:?}-{check:?}").to_lowercase());
    let mut cc = Command::new("cc");
    // Samples are C99; the tests may use C11 (threads.c needs <stdatomic.h>).
    let std = if source.starts_with(root().join("samples")) {
        "-std=c99"
    } else {
        "-std=c11"
    };
    // A caller from an older release is built against that release's header alone.
    let include = if source.starts_with(root().join("tests/abi")) {
        root().join("tests/abi")
    } else {
        root().join("include")
    };
    cc.arg(std)
        .args(["-Wall", "-Wextra", "-Werror", "-pedantic", "-g", "-O1"])
        .arg("-I")
        .arg(include)
        .arg(source)
        .arg("-o")
        .arg(&exe);
    if check == Check::Sanitizers {
        cc.args([
            "-fsanitize=address,undefined",
            "-fno-omit-frame-pointer",
            "-fno-sanitize-recover=all",
        ]);
    }
    match link {
        Link::Shared => {
            cc.arg("-L").arg(&n.lib_dir).arg("-lrelief");
            cc.arg(format!("-Wl,-rpath,{}", n.lib_dir.display()));
        }
        Link::Static => {
            cc.arg(n.lib_dir.join("librelief.a"))
                .args(["-lpthread", "-ldl"]);
        }
    }
    cc.args(["-lm", "-lpthread"]);
    must(&mut cc);
    if check == Check::Sanitizers {
        // A sanitizer run proves nothing if the sanitizer isn't in the program.
        let symbols = must(Command::new("nm").arg(&exe)).stdout;
        let symbols = String::from_utf8_lossy(&symbols);
        assert!(
            symbols.contains("__asan_init") && symbols.contains("__ubsan"),
            "{} was built without ASan and UBSan",
            exe.display()
        );
    }
    exe
}

fn check_run(exe: &Path, args: &[&Path], check: Check) -> Result<String, String> {
    let mut cmd = match check {
        Check::Sanitizers => {
            let mut c = Command::new(exe);
            c.env(
                "ASAN_OPTIONS",
                "detect_leaks=1:abort_on_error=0:exitcode=97",
            )
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
            c
        }
        Check::Valgrind => {
            let mut c = Command::new("valgrind");
            c.args([
                "-q",
                "--error-exitcode=98",
                "--leak-check=full",
                "--show-leak-kinds=definite,indirect",
                "--errors-for-leak-kinds=definite,indirect",
            ])
            .arg(exe);
            c
        }
    };
    // cargo test puts target/debug on LD_LIBRARY_PATH, which outranks the rpath: a stale
    // debug librelief.so there would stand in for the release library under test.
    let out = run(cmd.args(args).env_remove("LD_LIBRARY_PATH"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!("{} ({}):\n{text}", exe.display(), out.status))
    }
}

/// Every program, both links under the sanitizers, the shared one under valgrind; reports all
/// failures together.
fn run_matrix(source: &str, args: &[&Path], expect: &str) {
    run_checks(source, args, expect, &[Check::Sanitizers, Check::Valgrind]);
}

/// `source` with both links under each of `checks`.
fn run_checks(source: &str, args: &[&Path], expect: &str, checks: &[Check]) {
    let name = Path::new(source)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let source = root().join(source);
    let mut failed = Vec::new();
    let mut lines = String::new();
    for link in [Link::Shared, Link::Static] {
        for &check in checks {
            if (link, check) == (Link::Static, Check::Valgrind) {
                continue;
            }
            let exe = build(&source, link, check);
            let result = check_run(&exe, args, check);
            let verdict = if matches!(&result, Ok(t) if t.contains(expect)) {
                "passed"
            } else {
                "FAILED"
            };
            lines += &format!("C {name}, {link:?} library, {check:?}: {verdict}\n");
            match result {
                Ok(text) if text.contains(expect) => {
                    println!("--- {} ({link:?}, {check:?}) ---\n{text}", exe.display())
                }
                Ok(text) => failed.push(format!("{}: no `{expect}` in:\n{text}", exe.display())),
                Err(e) => failed.push(e),
            }
        }
    }
    record_summary(&format!("c-{name}"), &lines);
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn the_runtime_walk_sample_runs_clean() {
    let n = native();
    run_matrix(
        "samples/c/runtime_walk.c",
        &[&n.world, Path::new("240")],
        "chunks built",
    );
}

#[test]
fn the_queries_sample_runs_clean() {
    let n = native();
    run_matrix("samples/c/queries.c", &[&n.pack], "batch:");
}

/// Structs that grow keep old callers working: a program built against 0.2.0's header (before
/// `relief_runtime_stats` grew its progress fields), run against this library under ASan
/// (every struct it passes is a heap block of exactly the old size) and valgrind.
#[test]
fn a_caller_built_against_an_older_header_streams_queries_and_reads_stats() {
    let n = native();
    let header = std::fs::read_to_string(root().join("tests/abi/relief-0.2.0.h")).unwrap();
    let current = std::fs::read_to_string(root().join("include/relief.h")).unwrap();
    assert!(
        header.contains("#define RELIEF_VERSION_STRING \"0.2.0\"") && header != current,
        "tests/abi/relief-0.2.0.h is 0.2.0's header, and this relief's has moved on"
    );
    run_matrix("tests/abi/old_caller.c", &[&n.world], "old caller:");
}

/// The first released size relief accepts for each struct is its size in 0.2.0's header, as
/// a C compiler lays it out; and every struct that carries a size is in the list.
#[test]
fn first_released_sizes_are_the_old_headers() {
    let n = native();
    let sizes = relief_c::first_released_sizes();
    let mut body = String::new();
    for (name, _) in &sizes {
        body += &format!("    printf(\"{name} %zu\\n\", sizeof({name}));\n");
    }
    let src = n.scratch.join("first_sizes.c");
    std::fs::write(
        &src,
        format!("#include <stdio.h>\n#include \"relief-0.2.0.h\"\nint main(void) {{\n{body}    return 0;\n}}\n"),
    )
    .unwrap();
    let exe = n.scratch.join("first_sizes");
    must(
        Command::new("cc")
            .arg("-I")
            .arg(root().join("tests/abi"))
            .arg(&src)
            .arg("-o")
            .arg(&exe),
    );
    let out = String::from_utf8(must(&mut Command::new(&exe)).stdout).unwrap();
    let expected: String = sizes
        .iter()
        .map(|(name, first)| format!("{name} {first}\n"))
        .collect();
    assert_eq!(out, expected);
    let header = std::fs::read_to_string(root().join("tests/abi/relief-0.2.0.h")).unwrap();
    let sized = header
        .split("typedef struct ")
        .filter(|t| {
            t.contains("uint32_t struct_size;")
                || t.contains("relief_event {")
                || t.contains("relief_dirty_rect {")
        })
        .count();
    assert_eq!(
        sized,
        sizes.len(),
        "a struct with a size is missing from the list"
    );
}

#[test]
fn hostile_input_gets_its_status_every_time() {
    let n = native();
    run_matrix(
        "tests/c/hostile.c",
        &[&n.world, &n.pack, &n.planet],
        ", 0 failed",
    );
}

/// Query threads, updates and a destroy racing through the ABI (under TSan in .ci/tsan);
/// here under ASan and UBSan (valgrind serialises threads, so it would prove little slowly).
#[test]
fn threads_race_through_the_abi_cleanly() {
    let n = native();
    run_checks(
        "tests/c/threads.c",
        &[&n.world],
        "destroyed mid-query: clean",
        &[Check::Sanitizers],
    );
}

/// The C++ wrapper (include/relief.hpp) as a game programmer uses it: its sample streams,
/// reads regions and chunks through spans, and queries from a second thread, on a world and
/// a planet, built with g++ -std=c++17 under ASan, UBSan and LeakSanitizer; and the wrapper
/// compiles with exceptions and RTTI off, as many engines build.
#[test]
fn the_cpp_wrapper_sample_runs_clean_under_sanitizers() {
    let n = native();
    let exe = n.scratch.join("stream_and_query");
    let flags = [
        "-std=c++17",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-g",
        "-O1",
    ];
    must(
        Command::new("c++")
            .args(flags)
            .args([
                "-fsanitize=address,undefined",
                "-fno-omit-frame-pointer",
                "-fno-sanitize-recover=all",
            ])
            .arg("-I")
            .arg(root().join("include"))
            .arg(root().join("samples/cpp/stream_and_query.cpp"))
            .arg("-o")
            .arg(&exe)
            .arg("-L")
            .arg(&n.lib_dir)
            .arg("-lrelief")
            .arg(format!("-Wl,-rpath,{}", n.lib_dir.display()))
            .args(["-lpthread", "-ldl", "-lm"]),
    );
    must(
        Command::new("c++")
            .args(flags)
            .args(["-fno-exceptions", "-fno-rtti", "-c", "-o", "/dev/null"])
            .arg("-I")
            .arg(root().join("include"))
            .arg(root().join("samples/cpp/no_exceptions_check.cpp")),
    );
    let mut lines = String::new();
    for ground in [&n.world, &n.planet] {
        let text = check_run(&exe, &[ground.as_path()], Check::Sanitizers)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(text.contains(", 0 failed"), "{text}");
        println!("--- {} ---\n{text}", ground.display());
        lines += &format!("C++ sample on {}: clean\n", ground.display());
    }
    record_summary("cpp-sample", &lines);
}

#[test]
fn the_planet_walk_sample_runs_clean() {
    let n = native();
    run_matrix(
        "samples/c/planet_walk.c",
        &[&n.planet, Path::new("150")],
        "batch:",
    );
}
