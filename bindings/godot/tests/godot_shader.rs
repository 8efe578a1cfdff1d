//! The sample's far-ground shader (`samples/godot/far_ground.gdshader`) compiled the closest
//! way there is without Godot: Godot's shading language is GLSL with a header of its own, so
//! the shader is turned into GLSL ES 3.00 (what the Compatibility renderer, GLES3 and WebGL 2
//! run) by the few rewrites Godot's own compiler makes (uniform hints and defaults dropped,
//! varyings as `out`/`in`, `vertex()`/`fragment()` called from `main`, the built-ins it uses
//! declared) and validated by glslang for both stages. And its contract with the node: every
//! uniform `node.rs` sets is declared, and every declared uniform is set by the node or by
//! `far_ground.gd`, or is one of the colours a developer tunes.
//!
//! What this does not catch: anything only Godot's own shader compiler rejects (its
//! stricter rules on, say, integer division), which no tool here has.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shader() -> String {
    std::fs::read_to_string(repo().join("samples/godot/far_ground.gdshader")).unwrap()
}

/// `uniform TYPE NAME[N] : hints = default;` → (TYPE, NAME).
fn uniforms(src: &str) -> Vec<(String, String)> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("uniform "))
        .map(|l| {
            let decl = l.split([':', '=', ';']).next().unwrap().trim();
            let (ty, name) = decl.split_once(' ').unwrap();
            (
                ty.to_string(),
                name.split('[').next().unwrap().trim().to_string(),
            )
        })
        .collect()
}

/// One stage of the shader as GLSL ES 3.00.
fn glsl(src: &str, stage: &str) -> String {
    let mut out = String::from(
        "#version 300 es\nprecision highp float;\nprecision highp int;\n\
         precision highp sampler2DArray;\n",
    );
    out += if stage == "vert" {
        "vec3 VERTEX;\nvec3 NORMAL;\n"
    } else {
        "vec3 ALBEDO;\nfloat ROUGHNESS;\nout vec4 relief_colour;\n"
    };
    // Each stage gets its own entry function only, as Godot compiles them.
    let other = if stage == "vert" {
        "void fragment()"
    } else {
        "void vertex()"
    };
    let mut skipping = false;
    for line in src.lines() {
        let t = line.trim();
        if line.starts_with(other) {
            skipping = true;
        }
        if skipping {
            skipping = line != "}";
            continue;
        }
        if t.starts_with("shader_type") || t.starts_with("render_mode") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("uniform ") {
            let decl = rest.split([':', '=', ';']).next().unwrap().trim();
            out += &format!("uniform {decl};\n");
        } else if let Some(rest) = t.strip_prefix("varying ") {
            out += &format!("{} {rest}\n", if stage == "vert" { "out" } else { "in" });
        } else {
            out += line;
            out += "\n";
        }
    }
    out += if stage == "vert" {
        "void main() {\n\tVERTEX = vec3(0.0);\n\tvertex();\n\tgl_Position = vec4(VERTEX + NORMAL, 1.0);\n}\n"
    } else {
        "void main() {\n\tfragment();\n\trelief_colour = vec4(ALBEDO, ROUGHNESS);\n}\n"
    };
    out
}

#[test]
fn the_far_ground_shader_compiles_as_glsl_es_3_for_both_stages() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("godot-shader");
    std::fs::create_dir_all(&dir).unwrap();
    let src = shader();
    for stage in ["vert", "frag"] {
        let file = dir.join(format!("far_ground.{stage}"));
        std::fs::write(&file, glsl(&src, stage)).unwrap();
        let out = Command::new("glslangValidator")
            .arg(&file)
            .output()
            .expect("glslangValidator (glslang-tools, installed by .ci/deps)");
        assert!(
            out.status.success(),
            "{stage}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A shader with a type error fails the same route (the check can fail).
#[test]
fn a_broken_shader_does_not_compile() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("godot-shader-broken");
    std::fs::create_dir_all(&dir).unwrap();
    let src = shader().replace("ivec2 i1 = (i0 + 1) % n;", "ivec2 i1 = (i0 + 1.5) % n;");
    assert_ne!(src, shader());
    let file = dir.join("broken.vert");
    std::fs::write(&file, glsl(&src, "vert")).unwrap();
    let out = Command::new("glslangValidator")
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn every_uniform_is_set_by_the_node_or_the_sample_and_every_set_one_exists() {
    let src = shader();
    let declared: BTreeSet<String> = uniforms(&src).into_iter().map(|(_, n)| n).collect();
    // What node.rs's FarTextures::apply sets: its `("name", value)` pairs.
    let node =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/node.rs")).unwrap();
    let apply = &node[node.find("pub fn apply(").unwrap()..];
    let params = &apply[apply.find("let params").unwrap()..];
    let params = &params[..params.find("];").unwrap()];
    let set_by_node: BTreeSet<String> = params
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(set_by_node.len() >= 12, "{set_by_node:?}");
    for name in &set_by_node {
        assert!(
            declared.contains(name),
            "the node sets `{name}`, which the shader lacks"
        );
    }
    // What far_ground.gd sets, and what a developer tunes.
    let script = std::fs::read_to_string(repo().join("samples/godot/far_ground.gd")).unwrap();
    let set_by_script: BTreeSet<String> = script
        .match_indices("set_shader_parameter(\"")
        .map(|(at, _)| script[at + 22..].split('"').next().unwrap().to_string())
        .collect();
    let tuned = [
        "sea_level",
        "sea_color",
        "low_color",
        "high_color",
        "high_at",
    ];
    for name in &declared {
        assert!(
            set_by_node.contains(name)
                || set_by_script.contains(name)
                || tuned.contains(&name.as_str()),
            "nothing sets `{name}`"
        );
    }
}
