//! Writing a world directory: what a bake and an import both do once their maps are made.
//! The manifest is written last (after [`prepare_world_dir`] removed any earlier one), so an
//! interrupted write never leaves a world that opens.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use relief::flat::manifest::{self, FileEntry};
use relief::flat::overview::Overview;
use relief::flat::tables::{self, BiomesFile, LakesFile, RiversFile};
use relief::flat::{BIOMES_FILE, LAKES_FILE, OVERVIEW_FILE, RIVERS_FILE, THINGS_FILE};
use relief::things::ThingsFile;

/// A file of a world that could not be written (or a directory that could not be made).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct WriteError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// Writes one file of a world whole or not at all (a fresh temporary file renamed into place:
/// never written through a file or symlink already there), returning its manifest entry.
pub fn write(path: &Path, bytes: &[u8]) -> Result<FileEntry, WriteError> {
    relief::io::write_atomic(path, bytes).map_err(|source| WriteError {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(FileEntry::of(bytes))
}

/// Readies `out` for a world: creates it and `regions/`, removes the manifest (so a world
/// interrupted from here on never opens) and any region files an earlier world left. Returns
/// the manifest's path, to be written last.
pub fn prepare_world_dir(out: &Path) -> Result<PathBuf, WriteError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| WriteError { path, source }
    };
    let manifest_path = out.join(manifest::MANIFEST_FILE);
    let regions_dir = out.join("regions");
    std::fs::create_dir_all(&regions_dir).map_err(io(&regions_dir))?;
    match std::fs::remove_file(&manifest_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&manifest_path)(e)),
        _ => {}
    }
    for entry in std::fs::read_dir(&regions_dir).map_err(io(&regions_dir))? {
        let path = entry.map_err(io(&regions_dir))?.path();
        if path.extension().is_some_and(|e| e == "rlr") {
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(manifest_path)
}

/// Writes a placement table as `things.json` into `out`, listing it in `files`.
pub fn write_things(
    out: &Path,
    table: &ThingsFile,
    files: &mut BTreeMap<String, FileEntry>,
) -> Result<(), WriteError> {
    let json = manifest::pretty_json(table);
    files.insert(THINGS_FILE.into(), write(&out.join(THINGS_FILE), &json)?);
    Ok(())
}

/// Writes the overview and the three tables into `out`, listing each in `files`.
pub fn write_tables(
    out: &Path,
    overview: &Overview,
    reaches: Vec<tables::Reach>,
    lakes: Vec<tables::Lake>,
    biomes: Vec<tables::Biome>,
    files: &mut BTreeMap<String, FileEntry>,
) -> Result<(), WriteError> {
    files.insert(
        OVERVIEW_FILE.to_string(),
        write(&out.join(OVERVIEW_FILE), &overview.encode())?,
    );
    let version = tables::TABLES_VERSION;
    let rivers = manifest::pretty_json(&RiversFile { version, reaches });
    files.insert(RIVERS_FILE.into(), write(&out.join(RIVERS_FILE), &rivers)?);
    let lakes = manifest::pretty_json(&LakesFile { version, lakes });
    files.insert(LAKES_FILE.into(), write(&out.join(LAKES_FILE), &lakes)?);
    let biomes = manifest::pretty_json(&BiomesFile { version, biomes });
    files.insert(BIOMES_FILE.into(), write(&out.join(BIOMES_FILE), &biomes)?);
    Ok(())
}
