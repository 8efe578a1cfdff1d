//! relief: a streaming terrain runtime for game engines — the crate a game ships.
//!
//! - [`runtime`]: [`Runtime`], one object that streams either kind of ground: pieces,
//!   collision, far-ground levels and queries, driven by one update a frame.
//! - [`flat`]: flat worlds (Terrain3D-style regions): format, reader, region streaming,
//!   queries, collision chunks, clipmap cells.
//! - [`planet`]: PLNT planets (cube sphere): blob format, tiles, queries, collision, LOD rings.
//! - [`stream`]: the streamer, generic over what it streams.
//! - [`lod`]: the toroidal window of clipmap levels shared by flat clipmaps and planet rings.
//! - [`codec`], [`layer`], [`reach`]: what flat worlds and planets both store: layer codecs,
//!   maps as slices, a reach's kind.
//! - [`config`]: [`ConfigError`], what every config's `validate` and every constructor taking
//!   one returns for a setting that cannot work, naming the field.
//! - [`error`], [`io`], [`bounds`], `http`, [`hash`]: what every format reads through:
//!   [`FormatError`], the one rule for sizes an input declares,
//!   [`io::ReadAt`] (files, byte ranges, memory, callbacks; URLs with the default feature
//!   `http`, which a game that never streams from a server can turn off to drop ureq and
//!   rustls), FNV-1a.
//! - [`pool`]: buffers kept for reuse, so loads write into memory already faulted in.
//!
//! The C ABI is the `relief-c` crate; the baker, importers and the `relief` command are
//! `relief-tools`.

mod background;
pub mod bounds;
pub mod codec;
pub mod config;
pub mod error;
pub mod flat;
pub mod hash;
#[cfg(feature = "http")]
pub mod http;
pub mod io;
pub mod layer;
pub mod lod;
pub mod planet;
pub mod pool;
pub mod reach;
pub mod recent;
pub mod runtime;
pub mod stream;
pub mod things;

/// glam, the vector crate positions and directions are given in (`DVec3`: f64 metres and
/// unit directions; `Vec3`: f32 normals), re-exported so callers match its version.
pub use glam;
pub use glam::{DVec3, Vec3};

pub use config::ConfigError;
pub use error::FormatError;
pub use flat::{Region, RegionLocation, World};
pub use runtime::{Runtime, RuntimeConfig, RuntimeError, RuntimeEvent, UpdateError};
