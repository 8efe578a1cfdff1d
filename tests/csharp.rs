//! The C# layer (bindings/unity/Runtime) under Mono against the real library: compiled with
//! `mcs -langversion:7.2` (the subset Unity also takes), then its NUnit tests run with
//! nunit-console. They check every struct's size and field offsets, every constant and the
//! version against a C program compiled from include/relief.h, then open, stream and query.
//! Needs Mono: `.ci/deps` installs it.

mod common;

use std::path::Path;
use std::process::Command;

use common::native::{must, native, package_sources, record_summary, root, run, tool};

/// A C program printing what the C compiler makes of every struct and constant in the header.
fn layout_program(header: &str) -> String {
    let mut body = String::new();
    let mut lines = header.lines();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("typedef struct ") {
            let Some(name) = rest.strip_suffix(" {") else {
                continue; // an opaque handle
            };
            body += &format!("    printf(\"struct {name} %zu\\n\", sizeof({name}));\n");
            for field in lines.by_ref() {
                let field = field.trim();
                if field.starts_with('}') {
                    break;
                }
                if field.starts_with("//") || field.is_empty() {
                    continue;
                }
                let decl = field.trim_end_matches(';');
                // `double origin[3]` is the member `origin`.
                let decl = decl.split('[').next().unwrap();
                let member = decl.rsplit([' ', '*']).next().unwrap();
                body += &format!(
                    "    printf(\"field {name}.{member} %zu\\n\", offsetof({name}, {member}));\n"
                );
            }
        } else if let Some(rest) = line.strip_prefix("#define RELIEF_") {
            let name = rest.split_whitespace().next().unwrap();
            if name != "H" && !name.starts_with("VERSION_") {
                body += &format!(
                    "    printf(\"const RELIEF_{name} %llu\\n\", (unsigned long long)RELIEF_{name});\n"
                );
            }
        }
    }
    format!(
        "#include <stddef.h>\n#include <stdio.h>\n#include \"relief.h\"\n\nint main(void) {{\n{body}    printf(\"version %s\\n\", RELIEF_VERSION_STRING);\n    return 0;\n}}\n"
    )
}

#[test]
fn every_export_has_a_p_invoke_declaration() {
    let header = std::fs::read_to_string(root().join("include/relief.h")).unwrap();
    let cs = std::fs::read_to_string(root().join("bindings/unity/Runtime/Native.cs")).unwrap();
    // Parameters in a declaration's parentheses: commas + 1, or 0 for `()` / `(void)`.
    let arity = |params: &str| {
        let p = params.trim();
        if p.is_empty() || p == "void" {
            0
        } else {
            p.split(',').count()
        }
    };
    let mut n = 0;
    let lines: Vec<&str> = header.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // A declaration's first line: `<type> relief_name(`; typedefs and continuations aside.
        let Some(paren) = line
            .find('(')
            .filter(|_| !line.starts_with([' ', '#', '/', 't']))
        else {
            continue;
        };
        let name = line[..paren].rsplit([' ', '*']).next().unwrap();
        let returns_void = line.starts_with("void ");
        // The whole declaration, which cbindgen may wrap over several lines.
        let mut decl = String::new();
        for l in &lines[i..] {
            decl += l;
            if l.contains(");") {
                break;
            }
        }
        let c_params = &decl[decl.find('(').unwrap() + 1..decl.rfind(')').unwrap()];
        n += 1;
        let import = cs
            .lines()
            .find(|l| l.contains("DllImport") && l.contains(&format!(" {name}(")))
            .unwrap_or_else(|| {
                panic!("{name} has no DllImport in bindings/unity/Runtime/Native.cs")
            });
        let cs_params = &import[import.find(&format!(" {name}(")).unwrap() + name.len() + 2
            ..import.rfind(')').unwrap()];
        assert_eq!(
            arity(cs_params),
            arity(c_params),
            "{name}: the DllImport takes {} parameters, the header {}",
            arity(cs_params),
            arity(c_params)
        );
        assert_eq!(
            import.contains(" extern void "),
            returns_void,
            "{name}: void in one and not the other"
        );
    }
    assert!(n >= 40, "found only {n} functions in the header");
}

#[test]
fn the_csharp_layer_passes_its_nunit_tests_under_mono() {
    for t in ["mcs", "mono", "nunit-console", "cc"] {
        tool(t);
    }
    let n = native();
    let dir = &n.scratch;

    // What C makes of the header.
    let header = std::fs::read_to_string(root().join("include/relief.h")).unwrap();
    let layout_c = dir.join("layout.c");
    std::fs::write(&layout_c, layout_program(&header)).unwrap();
    let layout_exe = dir.join("layout");
    must(
        Command::new("cc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(root().join("include"))
            .arg(&layout_c)
            .arg("-o")
            .arg(&layout_exe),
    );
    let layout = must(&mut Command::new(&layout_exe)).stdout;
    let layout_txt = dir.join("layout.txt");
    std::fs::write(&layout_txt, &layout).unwrap();

    // The package's runtime and its tests, compiled as Unity would take them.
    let runtime = dir.join("Relief.dll");
    must(
        Command::new("mcs")
            .args([
                "-langversion:7.2",
                "-unsafe",
                "-warnaserror",
                "-target:library",
            ])
            .arg(format!("-out:{}", runtime.display()))
            .args(package_sources("Runtime")),
    );
    let tests = dir.join("Relief.Tests.dll");
    let nunit = "/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll";
    assert!(
        Path::new(nunit).exists(),
        "{nunit} is missing: run .ci/deps"
    );
    must(
        Command::new("mcs")
            .args(["-langversion:7.2", "-unsafe", "-target:library"])
            .arg(format!("-out:{}", tests.display()))
            .arg(format!("-r:{}", runtime.display()))
            .arg(format!("-r:{nunit}"))
            .args(package_sources("Tests")),
    );

    // The tests find their inputs in the package (Tests/Fixtures~, which Unity skips and git
    // ignores), as they would in Unity's Test Runner: links to the baked world, its pack and
    // the planet; what C makes of the header; the pack's URL on a loopback server.
    let fixtures = root().join("bindings/unity/Tests/Fixtures~");
    let _ = std::fs::remove_dir_all(&fixtures);
    std::fs::create_dir_all(&fixtures).unwrap();
    // Files hard-linked (a symlink's FileInfo.Length under Mono is the link's own), the
    // world's directory symlinked.
    std::os::unix::fs::symlink(&n.world, fixtures.join("world")).unwrap();
    for (name, target) in [("world.rlpack", &n.pack), ("planet.plnt", &n.planet)] {
        let to = fixtures.join(name);
        if std::fs::hard_link(target, &to).is_err() {
            std::fs::copy(target, &to).unwrap();
        }
    }
    std::fs::copy(&layout_txt, fixtures.join("layout.txt")).unwrap();
    let server = common::nginx::Nginx::start(&dir.join("nginx"));
    server.publish("world.rlpack", &std::fs::read(&n.pack).unwrap(), 1_000_000);
    std::fs::write(fixtures.join("url.txt"), server.url("world.rlpack")).unwrap();
    let out = run(Command::new("nunit-console")
        .arg(&tests)
        .args(["-nologo", "-labels"])
        .current_dir(dir)
        .env("LD_LIBRARY_PATH", &n.lib_dir)
        // The CLI ReliefToolTests run, as the editor window runs it.
        .env(
            "RELIEF_TOOL",
            n.lib_dir
                .join(format!("relief{}", std::env::consts::EXE_SUFFIX)),
        ));
    drop(server);
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}{}", String::from_utf8_lossy(&out.stderr));
    let summary = text
        .lines()
        .find(|l| l.starts_with("Tests run:"))
        .unwrap_or("no summary");
    record_summary(
        "csharp",
        &format!("C# layer, NUnit under Mono: {summary}\n"),
    );
    assert!(
        out.status.success() && summary.contains("Errors: 0, Failures: 0"),
        "NUnit under Mono: {summary}\n{text}"
    );
}
