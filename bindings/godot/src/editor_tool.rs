//! `ReliefEditorTool`: what the editor plugin (`addons/relief/editor/`) asks of the
//! extension: where the `relief` command is, and the command line for each job
//! ([`commands`](crate::commands)). The plugin runs them on a thread and shows their output.

use std::path::Path;

use godot::prelude::*;

use crate::commands;
use crate::world::globalize;

/// The `relief` command lines behind the editor's Relief dock and world inspector.
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct ReliefEditorTool {}

fn args(v: Vec<String>) -> PackedStringArray {
    v.iter().map(GString::from).collect()
}

/// A `res://` or `user://` path as the file system's (the command runs outside Godot).
fn disk(path: &GString) -> String {
    globalize(&path.to_string())
}

#[godot_api]
impl ReliefEditorTool {
    /// The `relief` command, first found of `$RELIEF_TOOL`,
    /// `res://addons/relief/bin/<platform>/relief[.exe]` and the `PATH`; "" if none.
    #[func]
    fn tool_path(&self) -> GString {
        let addon = disk(&GString::from("res://addons/relief"));
        let found = commands::find_tool(
            std::env::var_os("RELIEF_TOOL"),
            Path::new(&addon),
            std::env::var_os("PATH"),
        );
        found.map_or_else(GString::new, |p| {
            GString::from(&p.to_string_lossy().to_string())
        })
    }

    /// Where the command is looked for, in words, for a "not found" message.
    #[func]
    fn where_looked(&self) -> GString {
        GString::from(&format!(
            "$RELIEF_TOOL, res://addons/relief/bin/{}/{} (build.sh puts it there) and the PATH",
            commands::platform_dir(),
            commands::exe_name()
        ))
    }

    /// `relief info`: the world's census, as text.
    #[func]
    fn info(&self, world: GString) -> PackedStringArray {
        args(commands::info(&disk(&world)))
    }

    /// `relief preview` into `png`, `pixels` a side.
    #[func]
    fn preview(&self, world: GString, png: GString, pixels: i64) -> PackedStringArray {
        args(commands::preview(
            &disk(&world),
            &disk(&png),
            pixels.clamp(16, 8192) as u32,
        ))
    }

    /// `relief bake`: a flat world `size_m` a side into directory `out`.
    #[func]
    fn bake(&self, seed: GString, size_m: i64, out: GString) -> PackedStringArray {
        args(commands::bake(
            &seed.to_string(),
            size_m.clamp(0, u32::MAX as i64) as u32,
            &disk(&out),
        ))
    }

    /// `relief bake --planet`: a planet of `radius_m`, `face_resolution` samples a face side.
    #[func]
    fn bake_planet(
        &self,
        seed: GString,
        radius_m: f64,
        face_resolution: i64,
        out: GString,
    ) -> PackedStringArray {
        let faces = face_resolution.clamp(0, u32::MAX as i64) as u32;
        args(commands::bake_planet(
            &seed.to_string(),
            radius_m,
            faces,
            &disk(&out),
        ))
    }

    /// `relief pack`: a world directory into one `.rlpack`.
    #[func]
    fn pack(&self, world_dir: GString, out: GString) -> PackedStringArray {
        args(commands::pack(&disk(&world_dir), &disk(&out)))
    }

    /// `relief import heightmap` into a pack: the file's full range onto [min, max] metres.
    #[func]
    fn import_heightmap(
        &self,
        file: GString,
        out: GString,
        min: f64,
        max: f64,
        spacing: f64,
    ) -> PackedStringArray {
        args(commands::import_heightmap(
            &disk(&file),
            &disk(&out),
            min,
            max,
            spacing,
        ))
    }

    /// `relief import terrain3d`: a Terrain3D data directory into a pack.
    #[func]
    fn import_terrain3d(&self, data_dir: GString, out: GString) -> PackedStringArray {
        args(commands::import_terrain3d(&disk(&data_dir), &disk(&out)))
    }
}
