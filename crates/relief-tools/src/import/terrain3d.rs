//! A Terrain3D data directory read into regions for [`write_world`](super::write_world): every
//! `terrain3d*.res` in it, its location from its name, its size and spacing from its file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::terrain3d::{region_files, RegionFile};
use relief::RegionLocation;

use super::{ImportError, ImportedRegion};

/// Terrain3D's vertex spacing when neither the files nor the caller say: its default, 1 m.
pub const DEFAULT_VERTEX_SPACING: f64 = 1.0;

/// A data directory's regions.
#[derive(Debug)]
pub struct DataDir {
    pub regions: Vec<ImportedRegion>,
    pub region_size: u32,
    /// From the files, else the caller's, else [`DEFAULT_VERTEX_SPACING`].
    pub vertex_spacing: f64,
    /// Bytes of `.res` files read.
    pub file_bytes: u64,
}

/// Reads every region file in `dir` on `threads` threads (0 = one per core). The spacing is
/// what the files store; `vertex_spacing` fills in where they don't, and disagreeing with
/// them is an error, as are files of different region sizes or spacings.
pub fn read_data_dir(
    dir: &Path,
    vertex_spacing: Option<f64>,
    threads: usize,
) -> Result<DataDir, ImportError> {
    let files = region_files(dir).map_err(|source| ImportError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if files.is_empty() {
        return Err(ImportError::Settings(format!(
            "{} holds no terrain3d*.res region files",
            dir.display()
        )));
    }
    type Read = Result<(ImportedRegion, u32, Option<f64>, u64), ImportError>;
    let results: Mutex<Vec<Option<Read>>> = Mutex::new(files.iter().map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        t => t,
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.min(files.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = files.get(i) else { break };
                let r = read_region_file(path);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    let mut regions = Vec::with_capacity(files.len());
    let (mut size, mut spacing, mut file_bytes) = (None, None::<(f64, &PathBuf)>, 0);
    for (path, r) in files.iter().zip(results.into_inner().unwrap()) {
        let (region, s, v, bytes) = r.expect("every file was read")?;
        file_bytes += bytes;
        match size {
            None => size = Some((s, path)),
            Some((first, other)) if first != s => {
                return Err(ImportError::Settings(format!(
                    "{} is {s}² but {} is {first}²: a data directory has one region size",
                    path.display(),
                    other.display()
                )))
            }
            _ => {}
        }
        if let Some(v) = v {
            match spacing {
                None => spacing = Some((v, path)),
                Some((first, other)) if first != v => {
                    return Err(ImportError::Settings(format!(
                        "{} has vertex spacing {v} m but {} has {first} m",
                        path.display(),
                        other.display()
                    )))
                }
                _ => {}
            }
        }
        regions.push(region);
    }
    let vertex_spacing = match (spacing, vertex_spacing) {
        (Some((v, path)), Some(asked)) if v != asked => {
            return Err(ImportError::Settings(format!(
                "--vertex-spacing {asked} disagrees with {}, which says {v} m",
                path.display()
            )))
        }
        (Some((v, _)), _) => v,
        (None, Some(asked)) => asked,
        (None, None) => DEFAULT_VERTEX_SPACING,
    };
    Ok(DataDir {
        regions,
        region_size: size.expect("one file at least").0,
        vertex_spacing,
        file_bytes,
    })
}

/// One region file: its maps, region size, stored spacing and length.
fn read_region_file(path: &Path) -> Result<(ImportedRegion, u32, Option<f64>, u64), ImportError> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let location = RegionLocation::from_terrain3d_file_name(name).ok_or_else(|| {
        ImportError::Settings(format!(
            "{}: not a Terrain3D region name (terrain3d_XX_YY.res, signs as `_` or `-`)",
            path.display()
        ))
    })?;
    // A region file is at most a container of the largest stream relief parses.
    let bytes = relief::bounds::read_file(path, crate::terrain3d::container::MAX_STREAM)?;
    let terrain3d = |source| ImportError::Terrain3d {
        path: path.to_path_buf(),
        source,
    };
    let r = RegionFile::parse(&bytes)
        .and_then(|f| f.region())
        .map_err(terrain3d)?;
    let region = ImportedRegion {
        location,
        height: r.height,
        control: Some(r.control),
        color: Some(r.color),
    };
    Ok((region, r.region_size, r.vertex_spacing, bytes.len() as u64))
}
