//! relief: a streaming terrain runtime for game engines.
//!
//! - [`flat`]: flat worlds (Terrain3D-style regions): format, reader, region streaming,
//!   queries, collision chunks, clipmap cells.
//! - [`planet`]: PLNT planets (cube sphere): blob format, tiles, queries, collision, LOD rings.
//! - [`runtime`]: [`Runtime`], one object that streams either kind of ground: pieces,
//!   collision, far-ground levels and queries, driven by one update a frame.
//! - [`stream`]: the streamer, generic over what it streams.
//! - [`lod`]: the toroidal window of clipmap levels shared by flat clipmaps and planet rings.
//! - [`error`], [`io`]: what every format shares: [`FormatError`], [`io::ReadAt`].
//! - [`pool`]: buffers kept for reuse, so loads write into memory already faulted in.
//! - [`ffi`]: the C ABI (`include/relief.h`).
//! - [`bake`]: the world generator behind `relief bake`.
//! - [`import`], [`terrain3d`]: worlds from Terrain3D data directories and heightmaps, and
//!   worlds written back as Terrain3D region files.

pub mod bake;
pub mod codec;
pub mod error;
pub mod ffi;
pub mod flat;
pub mod hash;
pub mod http;
pub mod import;
pub mod io;
pub mod layer;
pub mod lod;
pub mod planet;
pub mod pool;
pub mod progress;
pub mod reach;
pub mod runtime;
pub mod stream;
pub mod terrain3d;
pub mod write;

pub use error::FormatError;
pub use flat::{Region, RegionLocation, World};
pub use runtime::{Runtime, RuntimeConfig, RuntimeError, RuntimeEvent};
