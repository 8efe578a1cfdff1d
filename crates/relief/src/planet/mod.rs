//! PLNT planets: a cube sphere of six faces, each tiled, stored in one blob (docs/formats.md)
//! that opens by reading its header and index only and serves tiles with positioned reads or a
//! caller's reader.

pub mod blob;
pub mod collision;
pub mod cube;
pub mod format;
pub mod opened;
mod ring_build;
mod ring_worker;
pub mod rings;
pub mod stream;
pub mod tables;
pub mod terrain;
pub mod things;
pub mod writer;

pub use blob::{Blob, Samples, TileKey};
pub use cube::Projection;
pub use format::{FieldInfo, Header, SampleType};
pub use opened::{Planet, PlanetTile};
#[doc(hidden)]
pub use ring_worker::inject_panic as inject_ring_panic;
pub use stream::TileSource;
pub use terrain::{PlanetOrigin, PlanetTerrain};
pub use writer::{BlobSpec, BlobWriter};
