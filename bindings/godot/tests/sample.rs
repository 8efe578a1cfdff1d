//! The Godot sample (`samples/godot/`) checked without Godot: `project.godot` and every
//! `.tscn` parse; every resource a scene names exists and every reference in it resolves;
//! every node and resource type is Godot's or one relief registers; every property a scene
//! sets on a scripted node is one its script exports; and `build.sh` lays the addon, library
//! and world out where `relief.gdextension` and the scene look for them.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `[tag attr=value …]` section and the `key = value` lines under it.
#[derive(Debug)]
struct Section {
    tag: String,
    attrs: BTreeMap<String, String>,
    props: Vec<(String, String)>,
}

impl Section {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs.get(key).map(String::as_str)
    }
}

/// Godot's text resource and project format: comments (`;`), section headers, properties.
/// Values stay as written except that a quoted string loses its quotes.
fn parse(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for (n, line) in text.lines().map(str::trim).enumerate() {
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .unwrap_or_else(|| panic!("line {n}: {line}"));
            let (tag, rest) = inner.split_once(' ').unwrap_or((inner, ""));
            out.push(Section {
                tag: tag.into(),
                attrs: attributes(rest),
                props: Vec::new(),
            });
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("line {n}: not key = value: {line}"));
        if out.is_empty() {
            // Keys before the first section (project.godot's config_version).
            out.push(Section {
                tag: String::new(),
                attrs: BTreeMap::new(),
                props: Vec::new(),
            });
        }
        out.last_mut()
            .unwrap()
            .props
            .push((key.trim().into(), unquote(value.trim()).into()));
    }
    out
}

/// `a=1 b="x y" c=PackedStringArray("p", "q")`: values may hold spaces inside quotes or
/// brackets.
fn attributes(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=').expect("attr=value");
        let (mut depth, mut quoted, mut end) = (0i32, false, after.len());
        for (i, c) in after.char_indices() {
            match c {
                '"' => quoted = !quoted,
                '(' | '[' if !quoted => depth += 1,
                ')' | ']' if !quoted => depth -= 1,
                ' ' if !quoted && depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.insert(key.trim().into(), unquote(&after[..end]).into());
        rest = after[end..].trim();
    }
    out
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
}

/// The ids inside every `Name("id")` call in `value`.
fn calls<'a>(value: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("{name}(\"");
    value
        .match_indices(&open)
        .map(|(at, _)| {
            let rest = &value[at + open.len()..];
            &rest[..rest.find('"').expect("closing quote")]
        })
        .collect()
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/godot")
}

fn res(root: &Path, path: &str) -> PathBuf {
    root.join(path.strip_prefix("res://").expect("a res:// path"))
}

/// The classes relief registers: every `#[derive(GodotClass)]` struct in the crate.
fn relief_classes() -> HashSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = HashSet::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut derives = false;
        for line in text.lines() {
            derives |= line.contains("#[derive(GodotClass)]");
            if let (true, Some(rest)) = (derives, line.strip_prefix("pub struct ")) {
                out.insert(rest.split([' ', '{']).next().unwrap().to_string());
                derives = false;
            }
        }
    }
    out
}

/// The Godot classes the sample uses, as Godot 4.4 names them.
const GODOT_CLASSES: &[&str] = &[
    "Node",
    "Node3D",
    "MeshInstance3D",
    "CharacterBody3D",
    "CollisionShape3D",
    "Camera3D",
    "DirectionalLight3D",
    "WorldEnvironment",
    "CanvasLayer",
    "ShaderMaterial",
    "CapsuleShape3D",
    "CapsuleMesh",
    "Environment",
    "Script",
    "Shader",
];

/// `@export var name` declarations in a GDScript.
fn exported(script: &str) -> HashSet<String> {
    script
        .lines()
        .filter_map(|l| l.trim().strip_prefix("@export var "))
        .map(|rest| rest.split([' ', ':']).next().unwrap().to_string())
        .collect()
}

#[test]
fn the_project_names_its_main_scene_godot_4_4_and_jolt() {
    let root = sample();
    let project = parse(&std::fs::read_to_string(root.join("project.godot")).unwrap());
    let prop = |tag: &str, key: &str| -> String {
        project
            .iter()
            .filter(|s| s.tag == tag)
            .flat_map(|s| &s.props)
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("[{tag}] {key} missing"))
    };
    assert_eq!(prop("", "config_version"), "5", "Godot 4's project format");
    let main = prop("application", "run/main_scene");
    assert!(res(&root, &main).is_file(), "{main}");
    assert!(prop("application", "config/features").contains("\"4.4\""));
    assert_eq!(prop("physics", "3d/physics_engine"), "Jolt Physics");
}

#[test]
fn every_scene_resolves_its_resources_nodes_types_and_exports() {
    let root = sample();
    let relief = relief_classes();
    assert!(relief.contains("ReliefTerrain") && relief.contains("ReliefWorld"));
    let known = |t: &str| relief.contains(t) || GODOT_CLASSES.contains(&t);
    let scenes: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tscn"))
        .collect();
    assert!(!scenes.is_empty());
    for scene in scenes {
        let sections = parse(&std::fs::read_to_string(&scene).unwrap());
        let name = scene.display();
        let head = &sections[0];
        assert_eq!(head.tag, "gd_scene", "{name}");
        assert_eq!(head.attr("format"), Some("3"), "{name}");
        let (mut ext, mut sub) = (HashMap::new(), HashSet::new());
        for s in &sections {
            match s.tag.as_str() {
                "ext_resource" => {
                    let (path, kind) = (s.attr("path").unwrap(), s.attr("type").unwrap());
                    assert!(res(&root, path).is_file(), "{name}: {path} missing");
                    assert!(known(kind), "{name}: type {kind}");
                    let id = s.attr("id").unwrap();
                    assert!(ext.insert(id, path).is_none(), "{name}: ext id {id} twice");
                }
                "sub_resource" => {
                    let kind = s.attr("type").unwrap();
                    assert!(known(kind), "{name}: type {kind}");
                    assert!(sub.insert(s.attr("id").unwrap()), "{name}: sub id twice");
                }
                _ => {}
            }
        }
        let resources = sections
            .iter()
            .filter(|s| s.tag == "ext_resource" || s.tag == "sub_resource")
            .count();
        assert_eq!(
            head.attr("load_steps").and_then(|v| v.parse().ok()),
            Some(resources + 1),
            "{name}: load_steps"
        );
        let mut nodes: Vec<String> = Vec::new();
        for s in &sections {
            for (key, value) in &s.props {
                for id in calls(value, "ExtResource") {
                    assert!(ext.contains_key(id), "{name}: {key} names ext {id}");
                }
                for id in calls(value, "SubResource") {
                    assert!(sub.contains(id), "{name}: {key} names sub {id}");
                }
            }
            if s.tag != "node" {
                continue;
            }
            let node = s.attr("name").unwrap();
            assert!(known(s.attr("type").unwrap()), "{name}: node {node}");
            let path = match s.attr("parent") {
                None => {
                    assert!(nodes.is_empty(), "{name}: a second root {node}");
                    ".".to_string()
                }
                Some(parent) => {
                    assert!(nodes.iter().any(|n| n == parent), "{name}: {node}'s parent");
                    if parent == "." {
                        node.to_string()
                    } else {
                        format!("{parent}/{node}")
                    }
                }
            };
            // A scripted node sets only what its script exports (besides Node properties).
            let script = s.props.iter().find(|(k, _)| k == "script");
            if let Some((_, value)) = script {
                let id = calls(value, "ExtResource")[0];
                let exports = exported(&std::fs::read_to_string(res(&root, ext[id])).unwrap());
                for (key, _) in &s.props {
                    let node_property = ["script", "transform", "visible"].contains(&key.as_str());
                    assert!(
                        node_property || exports.contains(key),
                        "{name}: {node} sets {key}, which its script does not export"
                    );
                }
            }
            nodes.push(path);
        }
        // Node paths in properties point at nodes of the scene (any, earlier or later).
        for s in sections.iter().filter(|s| s.tag == "node") {
            for (key, value) in &s.props {
                let base = match s.attr("parent") {
                    None => ".".to_string(),
                    Some(".") => s.attr("name").unwrap().to_string(),
                    Some(p) => format!("{p}/{}", s.attr("name").unwrap()),
                };
                for target in calls(value, "NodePath") {
                    let resolved = resolve(&base, target);
                    assert!(
                        resolved == "." || nodes.contains(&resolved),
                        "{name}: {key} = {target}: no node {resolved}"
                    );
                }
            }
        }
    }
}

/// A relative node path from node `from` (a scene path, "." for the root) to the scene path
/// it names.
fn resolve(from: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if from == "." {
        Vec::new()
    } else {
        from.split('/').collect()
    };
    for p in target.split('/') {
        match p {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            name => parts.push(name),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

#[test]
fn build_sh_puts_the_library_where_the_gdextension_and_the_world_where_the_scene_look() {
    let root = sample();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("godot-sample");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let (lib, pack, tool) = (
        out.join("built.so"),
        out.join("built.rlpack"),
        out.join("built-relief"),
    );
    std::fs::write(&lib, b"the library").unwrap();
    std::fs::write(&pack, b"the world").unwrap();
    std::fs::write(&tool, b"the command").unwrap();
    let status = Command::new("bash")
        .arg(root.join("build.sh"))
        .env("LIB", &lib)
        .env("PACK", &pack)
        .env("TOOL", &tool)
        .env("SAMPLE_DIR", &out)
        .status()
        .unwrap();
    assert!(status.success());
    // The library where the .gdextension's linux x86_64 entries point.
    let ext =
        parse(&std::fs::read_to_string(out.join("addons/relief/relief.gdextension")).unwrap());
    let libraries = ext.iter().find(|s| s.tag == "libraries").unwrap();
    for (key, path) in &libraries.props {
        if key.starts_with("linux.") && key.ends_with(".x86_64") {
            assert_eq!(
                std::fs::read(res(&out, path)).unwrap(),
                b"the library",
                "{key}"
            );
            // The relief command beside it, where the editor plugin looks first after
            // $RELIEF_TOOL (relief_godot::commands::find_tool).
            let beside = res(&out, path).with_file_name("relief");
            assert_eq!(std::fs::read(beside).unwrap(), b"the command", "{key}");
        }
    }
    // The editor plugin the project enables is in the addon.
    let project = parse(&std::fs::read_to_string(root.join("project.godot")).unwrap());
    let plugins = project
        .iter()
        .find(|s| s.tag == "editor_plugins")
        .and_then(|s| s.props.iter().find(|(k, _)| k == "enabled"))
        .map(|(_, v)| v.clone())
        .expect("[editor_plugins] enabled");
    for cfg in calls(&plugins, "PackedStringArray") {
        let cfg = cfg.trim_matches('"');
        assert!(res(&out, cfg).is_file(), "{cfg}");
        let plugin = parse(&std::fs::read_to_string(res(&out, cfg)).unwrap());
        let script = plugin[0].props.iter().find(|(k, _)| k == "script").unwrap();
        assert!(
            res(&out, cfg).with_file_name(&script.1).is_file(),
            "{}",
            script.1
        );
    }
    // The world where the scene's ReliefWorld looks, and every script of the addon.
    let scene = parse(&std::fs::read_to_string(root.join("main.tscn")).unwrap());
    let world = scene
        .iter()
        .find(|s| s.attr("type") == Some("ReliefWorld"))
        .and_then(|s| s.props.iter().find(|(k, _)| k == "path"))
        .map(|(_, v)| v.clone())
        .unwrap();
    assert_eq!(std::fs::read(res(&out, &world)).unwrap(), b"the world");
    assert!(out.join("addons/relief/terrain3d_bridge.gd").is_file());
}
