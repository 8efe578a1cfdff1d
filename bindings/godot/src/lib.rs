//! The relief GDExtension: relief's streaming terrain as Godot 4.4+ nodes.
//!
//! Every conversion from relief's data to what the engine takes lives in plain Rust modules
//! with no engine types ([`maps`], [`shape`], [`prepare`], [`answers`]), unit-tested with `cargo test -p relief-godot`
//! since no Godot binary runs in CI; the engine-facing classes stay thin.

pub mod answers;
pub mod drive;
pub mod far;
pub mod maps;
mod node;
mod planet;
pub mod prepare;
pub mod shape;
mod terrain;
mod world;

use godot::prelude::*;

struct ReliefExtension;

#[gdextension]
unsafe impl ExtensionLibrary for ReliefExtension {}
