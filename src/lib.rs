//! relief: a streaming terrain runtime for game engines.
//!
//! - [`world`]: the flat-world format (Terrain3D-style regions) and its reader.
//! - [`bake`]: the world generator behind `relief bake`.

pub mod bake;
pub mod clipmap;
pub mod collision;
pub mod ffi;
pub mod planet;
pub mod query;
pub mod stream;
pub mod world;

pub use world::{FormatError, Region, RegionLocation, World};
