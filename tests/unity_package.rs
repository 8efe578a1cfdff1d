//! The Unity package as Unity would take it, without Unity: every file's `.meta`, the plugin
//! import settings, the sample scenes' references, and the tarball `bindings/unity-package`
//! builds. Its assemblies compiled as Unity compiles them are in tests/unity_compile.rs; the
//! C# layer's own tests (NUnit under Mono) in tests/csharp.rs.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{must, native, package_entries, root, run};

/// Unity ignores files without a .meta inside a package (packages are read-only), and warns
/// of a .meta without its file, so every file and folder of the package has one and every
/// .meta has its file — in the checkout too, which a git URL installs as it is. The native
/// libraries' import settings wait beside it (bindings/unity-plugins) for
/// bindings/unity-package to put them in with their libraries.
#[test]
fn every_package_file_and_folder_has_a_meta() {
    let all = package_entries("");
    let mut problems = Vec::new();
    for p in &all {
        let name = p.to_string_lossy();
        match name.strip_suffix(".meta") {
            Some(file) if !Path::new(file).exists() => problems.push(format!("{name}: orphan")),
            Some(_) => {}
            // A folder ending in `~` (Samples~) is one Unity skips: no .meta of its own.
            None if name.ends_with('~') => {}
            None if !Path::new(&format!("{name}.meta")).exists() => {
                problems.push(format!("{name}: no .meta"))
            }
            None => {}
        }
    }
    assert!(all.len() > 20 && problems.is_empty(), "{problems:#?}");
}

/// The package's `guid` → path (of the file the .meta describes), from every .meta.
fn package_guids() -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    for p in package_entries("") {
        if !p.extension().is_some_and(|e| e == "meta") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let guid = text
            .lines()
            .find_map(|l| l.strip_prefix("guid: "))
            .unwrap_or_else(|| panic!("{}: no guid", p.display()));
        let file = p.with_extension("");
        let before = out.insert(guid.to_string(), file.clone());
        assert!(
            before.is_none(),
            "guid {guid} twice: {file:?} and {before:?}"
        );
    }
    out
}

/// The fields Unity serializes for the MonoBehaviour in `cs` (its `[SerializeField]`s and
/// those of ReliefStreaming when it derives from it).
fn serialized_fields(cs: &Path) -> BTreeSet<String> {
    let mut text = std::fs::read_to_string(cs).unwrap();
    if text.contains(": ReliefStreaming") {
        text +=
            &std::fs::read_to_string(root().join("bindings/unity/Components/ReliefStreaming.cs"))
                .unwrap();
    }
    let mut fields = BTreeSet::new();
    for line in text.lines() {
        let l = line.trim();
        if !l.starts_with("[SerializeField") {
            continue;
        }
        // `[SerializeField, Range(0.25f, 16f)] float mainThreadBudgetMs = 2f;`
        let decl = &l[l.rfind(']').unwrap() + 1..];
        let decl = decl.split(['=', ';']).next().unwrap();
        fields.insert(decl.split_whitespace().last().unwrap().to_string());
    }
    fields
}

/// The sample scenes are what Unity would load: every object reference resolves in the scene,
/// every asset reference to a file of the package, and each script's fields in the scene are
/// exactly the fields it serializes (a renamed field would silently reset to its default).
#[test]
fn the_sample_scenes_reference_what_exists() {
    let guids = package_guids();
    let mut scenes = 0;
    for sample in ["FlatWorld", "Planet"] {
        let path = root().join(format!("bindings/unity/Samples~/{sample}/{sample}.unity"));
        let text = std::fs::read_to_string(&path).unwrap();
        scenes += 1;
        let docs: Vec<&str> = text.split("--- !u!").skip(1).collect();
        let ids: BTreeSet<u64> = docs
            .iter()
            .map(|d| {
                let head = d.lines().next().unwrap();
                head.split('&').nth(1).unwrap().trim().parse().unwrap()
            })
            .collect();
        let mut behaviours = 0;
        for doc in &docs {
            // References inside the scene.
            for (i, _) in doc.match_indices("{fileID: ") {
                let rest = &doc[i + 9..];
                let id: u64 = rest[..rest.find([',', '}']).unwrap()].parse().unwrap();
                let external = rest[..rest.find('}').unwrap()].contains("guid:");
                assert!(
                    id == 0 || external || ids.contains(&id),
                    "{sample}: fileID {id} is no object of the scene"
                );
            }
            // References to the package's assets.
            for (i, _) in doc.match_indices("guid: ") {
                let g = &doc[i + 6..i + 6 + 32];
                assert!(
                    guids.contains_key(g),
                    "{sample}: guid {g} is no package file"
                );
            }
            if !doc.contains("\nMonoBehaviour:") {
                continue;
            }
            behaviours += 1;
            let line = doc.lines().find(|l| l.contains("m_Script:")).unwrap();
            let g = &line[line.find("guid: ").unwrap() + 6..][..32];
            let cs = &guids[g];
            assert!(cs.extension().is_some_and(|e| e == "cs"), "{cs:?}");
            let written: BTreeSet<String> = doc
                .split("m_EditorClassIdentifier:")
                .nth(1)
                .unwrap()
                .lines()
                .skip(1)
                .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
                .map(|l| l.trim().split(':').next().unwrap().to_string())
                .collect();
            assert_eq!(
                written,
                serialized_fields(cs),
                "{sample}: the scene's {} fields against the script's",
                cs.display()
            );
        }
        assert!(behaviours >= 3, "{sample}: {behaviours} scripts");
    }
    assert_eq!(scenes, 2);
}

/// Each native library's import settings enable it on its platform and nowhere else, and
/// iOS, where it is linked statically, is the platform Native.cs imports `__Internal` on.
#[test]
fn each_plugin_is_imported_for_its_platform_only() {
    let expected = [
        (
            "Linux/x86_64/librelief.so",
            &["Editor: Editor", "Standalone: Linux64"][..],
            "OS: Linux",
        ),
        (
            "Windows/x86_64/relief.dll",
            &["Editor: Editor", "Standalone: Win64"][..],
            "OS: Windows",
        ),
        (
            "macOS/librelief.dylib",
            &["Editor: Editor", "Standalone: OSXUniversal"][..],
            "OS: OSX",
        ),
        (
            "Android/arm64-v8a/librelief.so",
            &["Android: Android"][..],
            "CPU: ARM64",
        ),
        ("iOS/librelief.a", &["iPhone: iOS"][..], "CPU: ARM64"),
    ];
    for (lib, platforms, setting) in expected {
        let meta = root().join(format!("bindings/unity-plugins/{lib}.meta"));
        let text = std::fs::read_to_string(&meta).unwrap();
        assert!(text.contains("PluginImporter:"), "{lib}");
        assert!(text.contains(setting), "{lib}: no `{setting}`");
        // Blocks: `- first:\n      <platform>\n    second:\n      enabled: N`.
        let enabled: Vec<&str> = text
            .split("  - first:\n")
            .skip(1)
            .filter(|b| b.contains("enabled: 1"))
            .map(|b| b.lines().next().unwrap().trim())
            .collect();
        assert_eq!(enabled, platforms, "{lib}: enabled on");
    }
    let native = std::fs::read_to_string(root().join("bindings/unity/Runtime/Native.cs")).unwrap();
    let internal = native.find("\"__Internal\"").expect("an __Internal import");
    let condition = native[..internal].rfind("#if").unwrap();
    assert!(
        native[condition..internal].contains("UNITY_IOS"),
        "__Internal is imported on iOS"
    );
}

/// `bindings/unity-package` makes the tarball "Add package from tarball" takes: everything
/// under `package/`, the host library in its Plugins folder with its .meta, no test fixtures,
/// no .meta without its file, and a platform given no library left out whole.
#[test]
fn the_package_tarball_holds_the_package_and_the_host_library() {
    let n = native();
    let out = n.scratch.join("unity-package");
    let _ = std::fs::remove_dir_all(&out);
    let lib = n.lib_dir.join("librelief.so");
    let cli = n.lib_dir.join("relief");
    let made = must(
        Command::new(root().join("bindings/unity-package"))
            .arg("--out")
            .arg(&out)
            .arg(format!("linux-x86_64={}", lib.display()))
            .arg(format!("tool-linux-x86_64={}", cli.display())),
    );
    let tarball = String::from_utf8(made.stdout).unwrap().trim().to_string();
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        Path::new(&tarball).file_name().unwrap().to_string_lossy(),
        format!("com.relief.terrain-{version}.tgz"),
        "named after the package"
    );
    let list = must(Command::new("tar").arg("-tzf").arg(&tarball)).stdout;
    let entries: BTreeSet<String> = String::from_utf8(list)
        .unwrap()
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    for needed in [
        "package/package.json",
        "package/Runtime/Native.cs",
        "package/Components/ReliefPlanet.cs",
        "package/Components/Shaders/ReliefFarGround.shader",
        "package/Samples~/Planet/Planet.unity",
        "package/Plugins/Linux/x86_64/librelief.so",
        "package/Plugins/Linux/x86_64/librelief.so.meta",
        "package/Tools~/linux-x86_64/relief",
        "package/Editor/ReliefWindow.cs",
        "package/CHANGELOG.md",
        "package/LICENSE.md",
    ] {
        assert!(entries.contains(needed), "{needed} missing from {tarball}");
    }
    for e in &entries {
        assert!(
            !e.contains("Fixtures~"),
            "{e}: test fixtures in the package"
        );
        assert!(!e.contains("Plugins/iOS"), "{e}: iOS was given no library");
        if let Some(file) = e.strip_suffix(".meta") {
            assert!(entries.contains(file), "{e} without its file");
        }
    }
    // The library in it is the one given.
    let unpacked = out.join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    must(
        Command::new("tar")
            .arg("-xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&unpacked),
    );
    assert_eq!(
        std::fs::read(unpacked.join("package/Plugins/Linux/x86_64/librelief.so")).unwrap(),
        std::fs::read(&lib).unwrap()
    );
    // And the tool the editor window runs is the one given, and runs.
    let packed_cli = unpacked.join("package/Tools~/linux-x86_64/relief");
    assert_eq!(
        std::fs::read(&packed_cli).unwrap(),
        std::fs::read(&cli).unwrap()
    );
    let info = must(Command::new(&packed_cli).arg("info").arg(&n.pack)).stdout;
    assert!(String::from_utf8_lossy(&info).contains("regions of 512"));
    // A platform it doesn't know is refused before anything is written.
    let bad = run(Command::new(root().join("bindings/unity-package"))
        .arg("--out")
        .arg(out.join("bad"))
        .arg(format!("linux-x86_64={}", lib.display()))
        .arg(format!("tool-linux-x86_64={}", cli.display()))
        .arg("playstation=/dev/null"));
    assert_eq!(bad.status.code(), Some(2));
    assert!(!out.join("bad").exists());
}

/// The package ships under the crate's licence and version.
#[test]
fn the_package_carries_the_crates_licence_and_version() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let field = |text: &str, key: &str, sep: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no {key}"));
        line.split(sep)
            .nth(1)
            .unwrap()
            .trim()
            .trim_matches([',', '"', ' '])
            .to_string()
    };
    let package = std::fs::read_to_string(root().join("bindings/unity/package.json")).unwrap();
    let licence = field(&cargo, "license", "=");
    assert_eq!(field(&package, "\"license\"", ":"), licence);
    assert_eq!(
        field(&package, "\"version\"", ":"),
        field(&cargo, "version", "=")
    );
    let text = std::fs::read_to_string(root().join("bindings/unity/LICENSE.md")).unwrap();
    assert!(text.contains(&format!("`license = \"{licence}\"`")));
    assert!(text.contains("Permission is hereby granted") && text.contains("Apache License"));
    assert!(text.contains("Version 2.0, January 2004"));
}
