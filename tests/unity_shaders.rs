//! The Unity package's far-ground shader (bindings/unity/Components/Shaders), checked as far as
//! a compiler can without Unity: every `HLSLPROGRAM` of every pass goes through glslang's HLSL
//! front end (vertex and fragment entry points, to SPIR-V) against stand-ins for the pipeline
//! includes it names (tests/unity-shaders: only what the shader uses, each citing where Unity
//! declares it); the built-in and URP programs are then turned into GLSL ES 3.0 by
//! SPIRV-Cross and validated again, as the GLES3 target Android needs (HDRP does not build for
//! GLES). The ShaderLab around them is checked for what each pipeline draws: HDRP `ForwardOnly`
//! and `DepthForwardOnly`, URP `UniversalForwardOnly` (drawn by its forward and deferred
//! paths alike) and `DepthOnly`, each SRP SubShader behind
//! its package, the built-in `ForwardBase` SubShader last and untagged. Every uniform the C#
//! side sets (`Shader.PropertyToID` in FarGroundMesh.cs) is one the shader declares.
//!
//! What this cannot do is run the shader: the CPU twin of its vertex lift
//! (Runtime/FarLift.cs) is what the C# tests hold to the no-crack law.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::native::{outcome, root, run, tool};

fn shaders() -> PathBuf {
    root().join("bindings/unity/Components/Shaders")
}

/// One ShaderLab pass: its SubShader's `RenderPipeline` tag and `PackageRequirements`, its
/// `LightMode`, and its program.
struct Pass {
    pipeline: Option<String>,
    package: Option<String>,
    light_mode: Option<String>,
    program: String,
}

fn quoted_after(text: &str, key: &str) -> Option<String> {
    let at = text.find(key)? + key.len();
    let rest = &text[at..];
    let open = rest.find('"')? + 1;
    let close = open + rest[open..].find('"')?;
    Some(rest[open..close].to_string())
}

/// The passes of a `.shader`, SubShader by SubShader, in order.
fn passes(shader: &str) -> Vec<Pass> {
    let mut out = Vec::new();
    for sub in shader.split("SubShader").skip(1) {
        let (head, _) = sub.split_once("Pass").unwrap_or((sub, ""));
        let pipeline = quoted_after(head, "\"RenderPipeline\" =");
        let package = head
            .contains("PackageRequirements")
            .then(|| quoted_after(head, "PackageRequirements"))
            .flatten();
        for pass in sub.split("Pass\n").skip(1) {
            let Some(start) = pass.find("HLSLPROGRAM") else {
                continue;
            };
            let end = pass.find("ENDHLSL").expect("HLSLPROGRAM without ENDHLSL");
            out.push(Pass {
                pipeline: pipeline.clone(),
                package: package.clone(),
                light_mode: quoted_after(&pass[..start], "\"LightMode\" ="),
                program: pass[start + "HLSLPROGRAM".len()..end].to_string(),
            });
        }
    }
    out
}

fn pragma(program: &str, name: &str) -> String {
    program
        .lines()
        .find_map(|l| l.trim().strip_prefix(&format!("#pragma {name} ")))
        .unwrap_or_else(|| panic!("no #pragma {name} in\n{program}"))
        .trim()
        .to_string()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relief-shaders-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// glslang's HLSL front end on one entry point; returns the SPIR-V's path.
fn hlsl_to_spirv(source: &Path, stage: &str, entry: &str, out: &Path) -> Result<(), String> {
    outcome(
        Command::new("glslangValidator")
            .args(["-D", "-V", "--auto-map-bindings", "--auto-map-locations"])
            .args(["-S", stage, "-e", entry])
            .arg(format!(
                "-I{}",
                root().join("tests/unity-shaders").display()
            ))
            .arg(format!("-I{}", shaders().display()))
            .arg(source)
            .arg("-o")
            .arg(out),
    )
    .map(|_| ())
}

/// SPIR-V → GLSL ES 3.0 (SPIRV-Cross), then validated by glslang as ES.
fn spirv_to_gles3(spirv: &Path, stage: &str) -> Result<String, String> {
    let glsl = spirv.with_extension(format!("{stage}.es"));
    let o = run(Command::new("spirv-cross")
        .args(["--es", "--version", "300"])
        .arg(spirv)
        .arg("--output")
        .arg(&glsl));
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    let v = run(Command::new("glslangValidator")
        .args(["-S", stage])
        .arg(&glsl));
    let text = std::fs::read_to_string(&glsl).unwrap();
    if v.status.success() {
        Ok(text)
    } else {
        Err(format!("{}\n{text}", String::from_utf8_lossy(&v.stdout)))
    }
}

#[test]
fn every_pass_compiles_for_its_pipeline_and_gles3() {
    tool("glslangValidator");
    tool("spirv-cross");
    let shader = std::fs::read_to_string(shaders().join("ReliefFarGround.shader")).unwrap();
    let all = passes(&shader);
    assert_eq!(
        all.len(),
        5,
        "HDRP's two passes, URP's two, the built-in one"
    );
    let dir = scratch();
    let mut failures = Vec::new();
    for (i, pass) in all.iter().enumerate() {
        let name = format!(
            "{} {}",
            pass.pipeline.as_deref().unwrap_or("built-in"),
            pass.light_mode.as_deref().unwrap_or("untagged")
        );
        let source = dir.join(format!("pass{i}.hlsl"));
        std::fs::write(&source, &pass.program).unwrap();
        for stage in ["vert", "frag"] {
            let entry = pragma(
                &pass.program,
                if stage == "vert" {
                    "vertex"
                } else {
                    "fragment"
                },
            );
            let spirv = dir.join(format!("pass{i}.{stage}.spv"));
            if let Err(e) = hlsl_to_spirv(&source, stage, &entry, &spirv) {
                failures.push(format!("{name} {stage}: {e}"));
                continue;
            }
            if pass.pipeline.as_deref() == Some("HDRenderPipeline") {
                continue; // HDRP builds for no GLES target
            }
            match spirv_to_gles3(&spirv, stage) {
                Ok(glsl) => {
                    if stage == "vert" {
                        // Levels are fetched by index, never filtered: R32F filters nowhere
                        // on GLES3 without an extension.
                        assert!(glsl.contains("texelFetch"), "{name}: no texelFetch");
                        assert!(!glsl.contains("textureLod"), "{name}: a filtered read");
                    }
                }
                Err(e) => failures.push(format!("{name} {stage} as GLES3: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    println!("compiled {} passes", all.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_pipeline_gets_the_passes_it_draws_in_the_order_unity_picks() {
    let shader = std::fs::read_to_string(shaders().join("ReliefFarGround.shader")).unwrap();
    let all = passes(&shader);
    let seen: Vec<(Option<&str>, Option<&str>, Option<&str>)> = all
        .iter()
        .map(|p| {
            (
                p.pipeline.as_deref(),
                p.package.as_deref(),
                p.light_mode.as_deref(),
            )
        })
        .collect();
    let hd = Some("com.unity.render-pipelines.high-definition");
    let urp = Some("com.unity.render-pipelines.universal");
    assert_eq!(
        seen,
        vec![
            (Some("HDRenderPipeline"), hd, Some("ForwardOnly")),
            (Some("HDRenderPipeline"), hd, Some("DepthForwardOnly")),
            (Some("UniversalPipeline"), urp, Some("UniversalForwardOnly")),
            (Some("UniversalPipeline"), urp, Some("DepthOnly")),
            (None, None, Some("ForwardBase")),
        ],
        "HDRP, then URP, each behind its package; the built-in pipeline's untagged SubShader last"
    );
    for p in &all {
        // The lift is shared: a depth pass that moved vertices differently would hide the
        // ground under Depth Priming.
        assert!(
            p.program.contains("#include \"ReliefFarGround.hlsl\"")
                && p.program.contains("reliefLift(vertex)"),
            "every pass lifts with the shared code"
        );
        if p.pipeline.as_deref() == Some("HDRenderPipeline") {
            assert!(
                !p.program.contains("unity_ObjectToWorld"),
                "HDRP renders camera-relative"
            );
        }
    }
}

#[test]
fn every_uniform_the_csharp_sets_is_one_the_shader_declares() {
    let mesh =
        std::fs::read_to_string(root().join("bindings/unity/Components/FarGroundMesh.cs")).unwrap();
    let hlsl = std::fs::read_to_string(shaders().join("ReliefFarGround.hlsl")).unwrap();
    let declared: Vec<String> = hlsl
        .lines()
        .filter(|l| {
            !l.starts_with(' ') && !l.starts_with('/') && !l.starts_with('#') && l.ends_with(';')
        })
        .flat_map(|l| {
            let names = l.split_once(' ').map_or("", |(_, rest)| rest);
            names
                .trim_end_matches(';')
                .split(',')
                .map(|n| n.trim().split('[').next().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let mut set = Vec::new();
    for part in mesh.split("PropertyToID(\"").skip(1) {
        let name = part.split('"').next().unwrap();
        if name == "_Level" {
            for k in 0..8 {
                set.push(format!("_Level{k}"));
            }
        } else {
            set.push(name.to_string());
        }
    }
    assert!(set.len() >= 15, "found only {set:?}");
    for name in &set {
        assert!(
            declared.contains(name),
            "FarGroundMesh sets {name}, which ReliefFarGround.hlsl does not declare ({declared:?})"
        );
    }
}
