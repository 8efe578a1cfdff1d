//! relief's tools, beside the runtime they write for (they use the `relief` crate; it never
//! uses them):
//!
//! - [`bake`]: the world generator behind `relief bake` (flat worlds and planets).
//! - [`import`]: worlds from terrain made elsewhere: heightmaps ([`import::heightmap`]: r16,
//!   f32 and PNG, cut into regions) and Terrain3D data directories, with the baker's
//!   hydrology worked out on them.
//! - [`terrain3d`]: Terrain3D's region files, read and written; a world exported as one.
//! - [`write`]: a world directory written file by file, manifest last.
//! - [`progress`]: how long steps report progress ([`Silent`] in tests).
//! - [`bench`]: what `relief bench` reads and writes (route files, reports) and its
//!   comparison rule.
//!
//! The `relief` command (`src/bin/relief`) drives all of them.

pub mod bake;
pub mod bench;
pub mod import;
pub mod progress;
pub mod terrain3d;
pub mod write;

pub use progress::{Progress, Silent};
