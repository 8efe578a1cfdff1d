//! Terrain3D's own files: region `.res` files (a Godot compressed container around Godot's
//! binary resource serialisation of a `Terrain3DRegion`), read as untrusted input and
//! written as Terrain3D writes them.
//!
//! - [`container`]: the `RSCC` container (zstd blocks);
//! - [`binres`]: Godot 4's binary resource format, the variant types a region holds;
//! - [`region`]: a `Terrain3DRegion` out of a parsed resource: size, spacing, height range
//!   and the three maps, bit for bit; and the resource Terrain3D writes for one;
//! - [`export`]: a relief world written as a data directory Terrain3D loads.
//!
//! The color map's mip chain is [`relief::flat::mips`](relief::flat::mips) (the Godot
//! extension builds it too); a data directory read into a world is
//! [`import::terrain3d`](crate::import::terrain3d).

use std::path::{Path, PathBuf};

pub mod binres;
pub mod container;
pub mod export;
pub mod region;

pub use region::{RegionFile, Terrain3dRegion};

/// Terrain3D's blank color map value: white, alpha 0.5 (a neutral roughness modifier).
pub const BLANK_COLOR: [u8; 4] = [255, 255, 255, 127];

/// The region files of a Terrain3D data directory (`terrain3d*.res`), sorted by name.
pub fn region_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("terrain3d") && name.ends_with(".res") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Why a Terrain3D file can't be read.
#[derive(Debug, thiserror::Error)]
pub enum ResError {
    #[error("not a Godot resource (magic {found:02x?})")]
    BadMagic { found: Vec<u8> },
    #[error("unsupported compression {0} (Terrain3D writes 2, zstd)")]
    UnsupportedCompression(u32),
    #[error("truncated: {what} at byte {at} runs past the end")]
    Truncated { what: &'static str, at: u64 },
    #[error("corrupt at byte {at}: {problem}")]
    Corrupt { at: u64, problem: String },
    #[error("block {block} doesn't decompress: {message}")]
    Decompress { block: usize, message: String },
    #[error("unsupported variant type {tag} at byte {at}")]
    UnsupportedVariant { tag: u32, at: u64 },
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The resource reads but is not a region Terrain3D could have written.
    #[error("not a Terrain3D region: {0}")]
    NotARegion(String),
}
