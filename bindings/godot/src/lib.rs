//! The relief GDExtension: relief's streaming terrain as Godot 4.4+ nodes.
//!
//! Every conversion from relief's data to what the engine takes lives in plain Rust modules
//! with no engine types ([`maps`], [`shape`], [`prepare`], [`answers`]), unit-tested with `cargo test -p relief-godot`
//! since no Godot binary runs in CI; the engine-facing classes stay thin.

pub mod answers;
pub mod apk;
mod ask;
pub mod commands;
pub mod drive;
mod editor_tool;
pub mod far;
pub mod feed;
mod file_access;
mod instances;
mod loader;
pub mod maps;
mod node;
mod planet;
pub mod prepare;
mod queries;
pub mod reader;
pub mod rings;
pub mod shape;
pub mod shared;
mod terrain;
mod terrain3d_feed;
#[cfg(test)]
mod test_worlds;
mod thing_set;
pub mod things;
mod world;
pub mod world_files;

use godot::prelude::*;

struct ReliefExtension;

#[gdextension]
unsafe impl ExtensionLibrary for ReliefExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            loader::register();
        }
    }

    fn on_stage_deinit(stage: InitStage) {
        if stage == InitStage::Scene {
            loader::unregister();
        }
    }
}
