//! The Unity package compiled the way Unity compiles it, without Unity.
//!
//! Unity builds one assembly per `.asmdef` from the scripts under its folder, referencing
//! exactly the assemblies it names: the other asmdefs in `references`; every UnityEngine
//! module unless `noEngineReferences` is set, and then none at all; the DLLs in
//! `precompiledReferences` when `overrideReferences` is set. Scripts outside any asmdef (an
//! imported sample) go to Assembly-CSharp, which references every `autoReferenced` asmdef and
//! every module. Every assembly gets the same defines: the version's (`UNITY_5_3_OR_NEWER` …
//! `UNITY_2021_3_OR_NEWER`), the target platform's, the scripting backend's (`ENABLE_IL2CPP`
//! or `ENABLE_MONO`), and in the editor `UNITY_EDITOR` and `UNITY_INCLUDE_TESTS`; an asmdef
//! whose `defineConstraints` are not all defined is not compiled. Sources (UnityCsReference):
//! `Editor/Mono/Scripting/ScriptCompilation/EditorBuildRules.cs`, `CustomScriptAssembly.cs`,
//! `EditorCompilation.cs`; the version list is what Unity 2021.3 prints.
//!
//! Here each define set — the editor targeting standalone, Android and iOS, and the Android,
//! iOS, Linux, Windows and macOS players under IL2CPP and under Mono, all with the Input
//! Manager active, and the editor and an Android player with only the Input System package
//! active (installed, its assembly referenced where named, its `versionDefines` set; and once
//! with the package removed but still named in Player Settings) — compiles every asmdef that
//! applies, in dependency order, with `mcs` against the UnityEngine stand-ins in
//! tests/unity-stub (one DLL per module, as Unity ships them). `mcs -langversion:7.2` takes a
//! subset of Unity's C# 9, and Mono's 4.x class library stands for Unity's ".NET Framework"
//! API level; its ".NET Standard 2.1" level is not checked (no reference assembly for it is
//! reachable here).
//!
//! The package's IL2CPP rules are checked on what was compiled (tests/unity-check): every
//! delegate of a type handed to native code (`[UnmanagedFunctionPointer]`) is made from a
//! static method marked `[AOT.MonoPInvokeCallback]` of that type, and no code of the package
//! reflects on types at run time.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{must, outcome, package_entries, root, run, tool};

/// The version defines Unity 2021.3 sets (package.json's `unity`).
const VERSION: &[&str] = &[
    "UNITY_5_3_OR_NEWER",
    "UNITY_5_4_OR_NEWER",
    "UNITY_5_5_OR_NEWER",
    "UNITY_5_6_OR_NEWER",
    "UNITY_2017_1_OR_NEWER",
    "UNITY_2017_2_OR_NEWER",
    "UNITY_2017_3_OR_NEWER",
    "UNITY_2017_4_OR_NEWER",
    "UNITY_2018_1_OR_NEWER",
    "UNITY_2018_2_OR_NEWER",
    "UNITY_2018_3_OR_NEWER",
    "UNITY_2018_4_OR_NEWER",
    "UNITY_2019_1_OR_NEWER",
    "UNITY_2019_2_OR_NEWER",
    "UNITY_2019_3_OR_NEWER",
    "UNITY_2019_4_OR_NEWER",
    "UNITY_2020_1_OR_NEWER",
    "UNITY_2020_2_OR_NEWER",
    "UNITY_2020_3_OR_NEWER",
    "UNITY_2021_1_OR_NEWER",
    "UNITY_2021_2_OR_NEWER",
    "UNITY_2021_3_OR_NEWER",
    "UNITY_2021_3",
    "UNITY_2021",
    "CSHARP_7_3_OR_NEWER",
];

/// The editor's defines; `ENABLE_UNITY_COLLECTIONS_CHECKS` is the native-container safety
/// system's, on in the editor and off in players, so code under it (ReliefThings' safety
/// handles) is compiled in the editor sets.
const EDITOR: &[&str] = &[
    "UNITY_EDITOR",
    "UNITY_EDITOR_64",
    "UNITY_EDITOR_LINUX",
    "UNITY_INCLUDE_TESTS",
    "ENABLE_MONO",
    "ENABLE_UNITY_COLLECTIONS_CHECKS",
];
const ANDROID: &[&str] = &["UNITY_ANDROID", "UNITY_ANDROID_API", "PLATFORM_ANDROID"];
const IOS: &[&str] = &["UNITY_IOS", "UNITY_IPHONE", "PLATFORM_IOS"];
const LINUX: &[&str] = &[
    "UNITY_STANDALONE",
    "UNITY_STANDALONE_LINUX",
    "PLATFORM_STANDALONE",
    "PLATFORM_STANDALONE_LINUX",
];
const WINDOWS: &[&str] = &[
    "UNITY_STANDALONE",
    "UNITY_STANDALONE_WIN",
    "PLATFORM_STANDALONE",
    "PLATFORM_STANDALONE_WIN",
];
const MACOS: &[&str] = &[
    "UNITY_STANDALONE",
    "UNITY_STANDALONE_OSX",
    "PLATFORM_STANDALONE",
    "PLATFORM_STANDALONE_OSX",
];

/// The input system a project has active (Player Settings → Active Input Handling): the
/// Input Manager (Unity 2021.3's default), or only the Input System package, which is then
/// installed and its assembly referenced.
const LEGACY_INPUT: &[&str] = &["ENABLE_LEGACY_INPUT_MANAGER"];
const NEW_INPUT: &[&str] = &["ENABLE_INPUT_SYSTEM"];

/// Every define set the package is compiled with: a name, its defines past VERSION, and
/// whether the Input System package is installed (Active Input Handling can name it after the
/// package was removed: the define stays, the assembly goes).
fn targets() -> Vec<(String, Vec<&'static str>, bool)> {
    let mut out = Vec::new();
    for (name, platform) in [("standalone", LINUX), ("android", ANDROID), ("ios", IOS)] {
        let defines = [EDITOR, platform, LEGACY_INPUT].concat();
        out.push((format!("editor-{name}"), defines, false));
    }
    for (name, platform) in [
        ("android", ANDROID),
        ("ios", IOS),
        ("linux", LINUX),
        ("windows", WINDOWS),
        ("macos", MACOS),
    ] {
        for backend in ["ENABLE_IL2CPP", "ENABLE_MONO"] {
            let tag = backend.trim_start_matches("ENABLE_").to_lowercase();
            let defines = [platform, &[backend], LEGACY_INPUT].concat();
            out.push((format!("{name}-{tag}"), defines, false));
        }
    }
    out.push((
        "editor-standalone-inputsystem".into(),
        [EDITOR, LINUX, NEW_INPUT].concat(),
        true,
    ));
    out.push((
        "android-il2cpp-inputsystem".into(),
        [ANDROID, &["ENABLE_IL2CPP"], NEW_INPUT].concat(),
        true,
    ));
    out.push((
        "android-il2cpp-inputsystem-removed".into(),
        [ANDROID, &["ENABLE_IL2CPP"], NEW_INPUT].concat(),
        false,
    ));
    out
}

/// The Input System package's assembly, as tests/unity-stub's stand-in declares it, and the
/// package it comes in.
const INPUT_SYSTEM: &str = "Unity.InputSystem";
const INPUT_SYSTEM_PACKAGE: &str = "com.unity.inputsystem";

/// UnityEngine's modules, as the stand-ins in tests/unity-stub declare them; CoreModule first
/// (the others build on it).
const MODULES: &[&str] = &[
    "UnityEngine.CoreModule",
    "UnityEngine.PhysicsModule",
    "UnityEngine.TerrainModule",
    "UnityEngine.InputLegacyModule",
    "UnityEngine.IMGUIModule",
    "UnityEngine.AndroidJNIModule",
    "UnityEngine.ImageConversionModule",
];

/// The editor's own assembly, which every assembly compiled for the editor references (and
/// an editor-only one always): UnityCsReference, Editor/Mono/Scripting/ScriptCompilation/
/// EditorBuildRules.cs ("Add Unity editor assemblies (UnityEditor.dll) to all assemblies when
/// building inside the editor").
const UNITY_EDITOR: &str = "UnityEditor";

const NUNIT: &str = "/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll";

/// One assembly Unity would compile: an asmdef, or Assembly-CSharp for the imported samples.
#[derive(Debug)]
struct Assembly {
    name: String,
    references: Vec<String>,
    /// Assembly-CSharp: it also references every installed package's assembly.
    every_package: bool,
    /// `versionDefines`: (package, define), the define set while the package is installed.
    version_defines: Vec<(String, String)>,
    engine: bool,
    /// `includePlatforms: ["Editor"]`: compiled in the editor only.
    editor_only: bool,
    precompiled: Vec<String>,
    constraints: Vec<String>,
    auto_referenced: bool,
    unsafe_code: bool,
    sources: Vec<PathBuf>,
}

fn strings(v: &serde_json::Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The scripts Unity compiles into the asmdef in `dir`: every `.cs` below it, leaving out
/// folders Unity skips (ending in `~`, or hidden) and folders with an asmdef of their own.
fn scripts(dir: &Path, top: bool, out: &mut Vec<PathBuf>) {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    if !top
        && entries
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "asmdef"))
    {
        return;
    }
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !name.ends_with('~') && !name.starts_with('.') {
                scripts(&p, false, out);
            }
        } else if name.ends_with(".cs") {
            out.push(p);
        }
    }
}

/// The package's asmdefs, and Assembly-CSharp holding every sample as Unity imports them
/// (copied into Assets/Samples, where no asmdef covers them).
fn package_assemblies() -> Vec<Assembly> {
    let mut out = Vec::new();
    for p in package_entries("") {
        if !p.extension().is_some_and(|e| e == "asmdef") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let include = strings(&v, "includePlatforms");
        assert!(
            (include.is_empty() || include == ["Editor"])
                && strings(&v, "excludePlatforms").is_empty(),
            "{}: platform lists other than [\"Editor\"] are not emulated here",
            p.display()
        );
        let mut sources = Vec::new();
        scripts(p.parent().unwrap(), true, &mut sources);
        sources.sort();
        out.push(Assembly {
            name: v["name"].as_str().unwrap().to_string(),
            references: strings(&v, "references"),
            every_package: false,
            version_defines: v["versionDefines"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|d| {
                            let s = |k: &str| d[k].as_str().unwrap().to_string();
                            (s("name"), s("define"))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            engine: !v["noEngineReferences"].as_bool().unwrap_or(false),
            editor_only: include == ["Editor"],
            precompiled: if v["overrideReferences"].as_bool().unwrap_or(false) {
                strings(&v, "precompiledReferences")
            } else {
                Vec::new()
            },
            constraints: strings(&v, "defineConstraints"),
            auto_referenced: v["autoReferenced"].as_bool().unwrap_or(true),
            unsafe_code: v["allowUnsafeCode"].as_bool().unwrap_or(false),
            sources,
        });
    }
    let mut samples = Vec::new();
    scripts(&root().join("bindings/unity/Samples~"), false, &mut samples);
    samples.sort();
    let auto: Vec<String> = out
        .iter()
        .filter(|a| a.auto_referenced)
        .map(|a| a.name.clone())
        .collect();
    out.push(Assembly {
        name: "Assembly-CSharp".into(),
        references: auto,
        every_package: true,
        version_defines: Vec::new(),
        engine: true,
        editor_only: false,
        precompiled: Vec::new(),
        constraints: Vec::new(),
        auto_referenced: false,
        unsafe_code: false,
        sources: samples,
    });
    out
}

/// `mcs` on `sources` into `out`, with these references and defines; the compiler's words.
fn mcs(
    out: &Path,
    refs: &[PathBuf],
    defines: &[&str],
    unsafe_code: bool,
    sources: &[PathBuf],
) -> Result<(), String> {
    let mut c = Command::new("mcs");
    c.args(["-langversion:7.2", "-warnaserror", "-target:library"])
        .arg(format!("-out:{}", out.display()));
    if unsafe_code {
        c.arg("-unsafe");
    }
    if !defines.is_empty() {
        c.arg(format!("-define:{}", defines.join(";")));
    }
    for r in refs {
        c.arg(format!("-r:{}", r.display()));
    }
    outcome(c.args(sources)).map(|_| ())
}

/// Compiles the stand-in modules into `dir`; their paths, then UnityEditor's.
fn modules(dir: &Path) -> (Vec<PathBuf>, PathBuf) {
    let mut built: Vec<PathBuf> = Vec::new();
    for m in MODULES {
        let dll = dir.join(format!("{m}.dll"));
        let src = root().join(format!("tests/unity-stub/{m}.cs"));
        // Each module builds on CoreModule alone, as Unity's do for these types; unsafe, since
        // NativeArrayUnsafeUtility's members take and give pointers.
        let refs: Vec<PathBuf> = built.iter().take(1).cloned().collect();
        mcs(&dll, &refs, &[], true, &[src]).unwrap_or_else(|e| panic!("{m}: {e}"));
        built.push(dll);
    }
    let editor = dir.join(format!("{UNITY_EDITOR}.dll"));
    let src = root().join(format!("tests/unity-stub/{UNITY_EDITOR}.cs"));
    mcs(&editor, &built, &[], false, &[src]).unwrap_or_else(|e| panic!("{UNITY_EDITOR}: {e}"));
    (built, editor)
}

/// Compiles every assembly that applies under `defines` into `dir`, in dependency order,
/// with `installed` packages' assemblies (assembly, package, DLL) beside the engine's; the
/// names compiled, or the first failure. A reference to an assembly that is neither the
/// package's nor installed is skipped, as Unity skips it (an optional package's), and an
/// asmdef's `versionDefines` are defined while their package is installed.
fn compile_package(
    dir: &Path,
    (modules, editor): &(Vec<PathBuf>, PathBuf),
    installed: &[(&str, &str, PathBuf)],
    assemblies: &[Assembly],
    defines: &[&str],
) -> Result<Vec<String>, String> {
    let ours = |name: &String| assemblies.iter().any(|a| &a.name == name);
    std::fs::create_dir_all(dir).unwrap();
    let mut built: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut skipped = Vec::new();
    while built.len() + skipped.len() < assemblies.len() {
        let before = built.len() + skipped.len();
        for a in assemblies {
            if built.contains_key(&a.name) || skipped.contains(&a.name) {
                continue;
            }
            let in_editor = defines.contains(&"UNITY_EDITOR");
            if !a.constraints.iter().all(|c| defines.contains(&c.as_str()))
                || (a.editor_only && !in_editor)
            {
                skipped.push(a.name.clone());
                continue;
            }
            if !a
                .references
                .iter()
                .filter(|r| ours(r))
                .all(|r| built.contains_key(r))
            {
                continue;
            }
            let mut refs: Vec<PathBuf> = a
                .references
                .iter()
                .filter(|r| ours(r))
                .map(|r| built[r].clone())
                .collect();
            for (name, _, dll) in installed {
                if a.every_package || a.references.iter().any(|r| r == name) {
                    refs.push(dll.clone());
                }
            }
            let mut defines = defines.to_vec();
            for (package, define) in &a.version_defines {
                if installed.iter().any(|(_, p, _)| p == package) {
                    defines.push(define);
                }
            }
            if a.engine {
                refs.extend(modules.iter().cloned());
                if in_editor {
                    refs.push(editor.clone());
                }
            }
            for p in &a.precompiled {
                assert_eq!(
                    p, "nunit.framework.dll",
                    "{}: unknown precompiled DLL",
                    a.name
                );
                refs.push(NUNIT.into());
            }
            let dll = dir.join(format!("{}.dll", a.name));
            mcs(&dll, &refs, &defines, a.unsafe_code, &a.sources)
                .map_err(|e| format!("{}: {e}", a.name))?;
            built.insert(a.name.clone(), dll);
        }
        assert!(
            built.len() + skipped.len() > before,
            "references that never resolve: {assemblies:#?}"
        );
    }
    Ok(built.into_keys().collect())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relief-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_assembly_compiles_for_every_target_as_unity_compiles_it() {
    tool("mcs");
    assert!(
        Path::new(NUNIT).exists(),
        "{NUNIT} is missing: run .ci/deps"
    );
    let dir = scratch("unity-compile");
    let modules = modules(&dir);
    let input_package = (
        INPUT_SYSTEM,
        INPUT_SYSTEM_PACKAGE,
        dir.join(format!("{INPUT_SYSTEM}.dll")),
    );
    let src = root().join(format!("tests/unity-stub/{INPUT_SYSTEM}.cs"));
    mcs(&input_package.2, &modules.0[..1], &[], false, &[src]).unwrap();
    let assemblies = package_assemblies();
    let names: Vec<&str> = assemblies.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Relief.Unity",
            "Relief.Editor",
            "Relief.Runtime",
            "Relief.Tests",
            "Assembly-CSharp"
        ],
        "the package's assemblies"
    );
    let runtime = &assemblies[2];
    assert!(
        !runtime.engine,
        "Relief.Runtime is meant to see no UnityEngine"
    );

    // Two at a time: the machine CI runs on has 2 cores.
    let targets = targets();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = parking_lot::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, extra, input_system)) = targets.get(i) else {
                    break;
                };
                let defines = [VERSION, extra].concat();
                let installed: &[(&str, &str, PathBuf)] = if *input_system {
                    std::slice::from_ref(&input_package)
                } else {
                    &[]
                };
                let r =
                    compile_package(&dir.join(name), &modules, installed, &assemblies, &defines);
                results.lock().push((name.clone(), r));
            });
        }
    });
    let mut results = results.into_inner();
    results.sort();
    let mut failures = Vec::new();
    for (name, r) in &results {
        match r {
            Ok(built) => {
                // The tests and the editor assembly are compiled in the editor only,
                // everything else everywhere.
                let want = if name.starts_with("editor") { 5 } else { 3 };
                assert_eq!(built.len(), want, "{name}: {built:?}");
                println!("{name}: {}", built.join(", "));
            }
            Err(e) => failures.push(format!("--- {name}\n{e}")),
        }
    }
    assert_eq!(results.len(), 16);
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // What was compiled keeps IL2CPP's rules (the Android IL2CPP player's assemblies).
    tool("mono");
    let check = dir.join("il2cpp-rules.exe");
    must(
        Command::new("mcs")
            .args(["-langversion:7.2", "-warnaserror"])
            .arg(format!("-out:{}", check.display()))
            .arg(root().join("tests/unity-check/Il2cppRules.cs")),
    );
    let player = dir.join("android-il2cpp");
    let mut c = Command::new("mono");
    c.arg(&check);
    for a in ["Relief.Runtime", "Relief.Unity", "Assembly-CSharp"] {
        c.arg(player.join(format!("{a}.dll")));
    }
    let out = must(c.env(
        "MONO_PATH",
        format!("{}:{}", player.display(), dir.display()),
    ));
    println!("{}", String::from_utf8_lossy(&out.stdout));

    // And the check can fail: a callback from an instance method, one without the attribute,
    // and a lookup by reflection are three breaches.
    let bad = dir.join("Bad.cs");
    std::fs::write(&bad, BAD_CALLBACKS).unwrap();
    let bad_dll = dir.join("Bad.dll");
    mcs(&bad_dll, &[], &[], false, &[bad]).unwrap();
    let out = run(Command::new("mono").arg(&check).arg(&bad_dll));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success() && text.contains(": 3 problems"),
        "the rules let bad callbacks through:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Breaks each IL2CPP rule once.
const BAD_CALLBACKS: &str = r#"
using System;
using System.Runtime.InteropServices;
namespace AOT { sealed class MonoPInvokeCallbackAttribute : Attribute { public MonoPInvokeCallbackAttribute(Type t) { } } }
[UnmanagedFunctionPointer(CallingConvention.Cdecl)] delegate void Callback(IntPtr user);
public class Bad
{
    [AOT.MonoPInvokeCallback(typeof(Callback))] void OnInstance(IntPtr user) { }
    static void Unmarked(IntPtr user) { }
    public IntPtr First() { return Marshal.GetFunctionPointerForDelegate(new Callback(OnInstance)); }
    public static IntPtr Second() { return Marshal.GetFunctionPointerForDelegate(new Callback(Unmarked)); }
    public static object Third() { return typeof(Bad).GetMethod("Second"); }
}
"#;

/// Unity calls a MonoBehaviour's messages (Start, Update, OnEnable, …) by name, whatever
/// their access, and logs an error for one declared with parameters: no method of the
/// components or samples takes a message's name with parameters.
#[test]
fn no_component_method_is_a_unity_message_with_parameters() {
    const MESSAGES: &[&str] = &[
        "Awake",
        "Start",
        "Update",
        "LateUpdate",
        "FixedUpdate",
        "OnEnable",
        "OnDisable",
        "OnDestroy",
        "Reset",
        "OnValidate",
        "OnGUI",
    ];
    const DECLARES: &[&str] = &[
        "void",
        "internal",
        "public",
        "protected",
        "private",
        "override",
        "abstract",
        "virtual",
    ];
    let mut problems = Vec::new();
    let mut declared = 0;
    for p in ["Components", "Samples~"]
        .iter()
        .flat_map(|d| common::native::package_sources(d))
    {
        let text = std::fs::read_to_string(&p).unwrap();
        for (i, line) in text.lines().enumerate() {
            let words: Vec<&str> = line
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .collect();
            for m in MESSAGES {
                let Some(at) = line.find(&format!(" {m}(")) else {
                    continue;
                };
                if !words.iter().any(|w| DECLARES.contains(w)) {
                    continue; // a call
                }
                declared += 1;
                let params = &line[at + m.len() + 2..];
                if !params.trim_start().starts_with(')') {
                    problems.push(format!("{}:{}: {}", p.display(), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(declared >= 3, "found only {declared} message declarations");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Unity's built-in packages can be switched off in a project, taking their module with them,
/// so the package names each one it uses (Unity Manual, "Built-in packages":
/// `com.unity.modules.<x>` is `UnityEngine.<X>Module`). Every stand-in module is used (the
/// test below proves each member is); CoreModule and InputLegacyModule are no built-in
/// package; TerrainPhysics is used without naming a type (the TerrainCollider that
/// `Terrain.CreateTerrainGameObject` adds to every tile).
#[test]
fn the_package_depends_on_every_built_in_module_it_uses() {
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("bindings/unity/package.json")).unwrap(),
    )
    .unwrap();
    let declared: std::collections::BTreeSet<String> = manifest["dependencies"]
        .as_object()
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    let mut used: std::collections::BTreeSet<String> = MODULES
        .iter()
        .filter(|m| !["UnityEngine.CoreModule", "UnityEngine.InputLegacyModule"].contains(m))
        .map(|m| {
            let x = m
                .trim_start_matches("UnityEngine.")
                .trim_end_matches("Module");
            format!("com.unity.modules.{}", x.to_lowercase())
        })
        .collect();
    used.insert("com.unity.modules.terrainphysics".into());
    assert_eq!(
        declared, used,
        "package.json's dependencies against the modules used"
    );
    for v in manifest["dependencies"].as_object().unwrap().values() {
        assert_eq!(v, "1.0.0", "built-in packages are all version 1.0.0");
    }
}

/// The stand-ins can't drift into an API of their own: each declaration cites a Scripting
/// Reference page naming it, and each is used by the package.
#[test]
fn every_stand_in_member_is_cited_and_used() {
    let users: String = ["Runtime", "Components", "Editor", "Samples~"]
        .iter()
        .flat_map(|d| common::native::package_sources(d))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let used = |name: &str| {
        users.match_indices(name).any(|(i, _)| {
            let before = users[..i].chars().next_back().unwrap_or(' ');
            let after = users[i + name.len()..].chars().next().unwrap_or(' ');
            !before.is_alphanumeric() && !after.is_alphanumeric() && after != '_'
        })
    };
    // Base classes the used types inherit their used members through, types a used member's
    // signature names (Mesh.SetVertices' flags, the Input System's key controls, IMGUI's
    // options and styles, the editor's update delegate), a class of extension methods
    // (ImageConversion: `texture.LoadImage(bytes)`), and the stubs' helper.
    let structural = [
        "Stub",
        "MeshUpdateFlags",
        "KeyControl",
        "ButtonControl",
        "Component",
        "Behaviour",
        "Collider",
        "Texture",
        "Renderer",
        "ScriptableObject",
        "RenderPipelineAsset",
        "GUIStyle",
        "GUILayoutOption",
        "CallbackFunction",
        "ImageConversion",
    ];
    let mut problems = Vec::new();
    let mut declared = 0;
    for m in MODULES.iter().chain(&[INPUT_SYSTEM, UNITY_EDITOR]) {
        let stub =
            std::fs::read_to_string(root().join(format!("tests/unity-stub/{m}.cs"))).unwrap();
        let lines: Vec<&str> = stub.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(name) = stub_declaration(line) else {
                continue;
            };
            declared += 1;
            // The nearest comment above, skipping sibling declarations, must cite a page that
            // names this declaration (`Transform-position.html`, `Vector3-ctor.html`,
            // `Object-operator_eq.html`; a type by its own page).
            // (The whole comment: it may run over several lines.)
            let above: Vec<&str> = lines[..i].iter().rev().map(|l| l.trim()).collect();
            let start = above
                .iter()
                .position(|l| l.starts_with("//"))
                .unwrap_or(above.len());
            let cite: String = above[start..]
                .iter()
                .take_while(|l| l.starts_with("//"))
                .map(|l| format!("{l} "))
                .collect();
            let cited = cite.contains(".html")
                && match name.as_str() {
                    "operator" => cite.contains("operator"),
                    "ctor" => cite.contains("ctor"),
                    n => cite.contains(n),
                };
            if !cited && name != "Stub" {
                problems.push(format!(
                    "{m} line {}: `{name}` cites no page naming it: {cite:?}",
                    i + 1
                ));
            }
            if !matches!(name.as_str(), "operator" | "ctor")
                && !structural.contains(&name.as_str())
                && !used(&name)
                && !used(name.trim_end_matches("Attribute"))
            {
                problems.push(format!(
                    "{m} line {}: `{name}` is used by nothing in the package: drop it",
                    i + 1
                ));
            }
        }
    }
    assert!(declared > 40, "only {declared} declarations read");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The name a stub line declares: a type, a member, `ctor` for a constructor, `operator` for
/// an operator; None for anything else (fields, braces, comments).
fn stub_declaration(line: &str) -> Option<String> {
    let l = line.trim();
    let l = match l.strip_prefix('[') {
        // `[AttributeUsage(...)] public class X`: the declaration after the attribute.
        Some(_) => l[l.find("] ")? + 2..].trim(),
        None => l,
    };
    if !l.starts_with("public ") {
        return None;
    }
    let words: Vec<&str> = l.split_whitespace().collect();
    for kind in ["class", "struct", "enum"] {
        if let Some(i) = words.iter().position(|w| *w == kind) {
            // `NativeArray<T>` is `NativeArray`.
            let name = words[i + 1].trim_end_matches(['{', ';']);
            return Some(name.split('<').next().unwrap().to_string());
        }
    }
    if !l.contains("Stub.Never()") {
        return None; // a field
    }
    if l.contains(" operator ") {
        return Some("operator".into());
    }
    let head = &l[..l.find(['(', '{']).unwrap()];
    // `GetComponent<T>` is `GetComponent`.
    let name = head
        .split_whitespace()
        .last()
        .unwrap()
        .split('<')
        .next()
        .unwrap();
    // `public Name(` with nothing between: a constructor.
    Some(if head.split_whitespace().count() == 2 {
        "ctor".into()
    } else {
        name.to_string()
    })
}
