//! A relief world written as a Terrain3D data directory: one `terrain3d_XX_YY.res` per
//! region, each the container, resource layout and property order Terrain3D 1.0 writes
//! itself ([`Terrain3dRegion::to_resource`]), with the color map's full mip chain.
//!
//! Everything that could stop the export is checked before the first file is written:
//! Terrain3D keeps regions in a 32×32 map (locations −16…15 on each axis), and a directory
//! already holding region files this world would not overwrite is refused rather than mixed.
//! Each file is then made in a fresh temporary file beside its place (never written through
//! a file or symlink already there), and only when every region has read, checked and
//! encoded are they renamed into place: a damaged region leaves the directory as it was.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::progress::Progress;
use relief::flat::control::Control;
use relief::{FormatError, RegionLocation, World};

use relief::flat::mips;

use super::{binres, container, region_files, ResError, Terrain3dRegion, BLANK_COLOR};

/// The locations Terrain3D's region map holds, on each axis.
pub const MAP_LOCATIONS: std::ops::RangeInclusive<i32> = -16..=15;
/// The zstd level Godot compresses resources at (its `compression/formats/zstd` default).
pub const ZSTD_LEVEL: i32 = 3;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The world can't be a Terrain3D data directory; nothing was written.
    #[error("can't export to Terrain3D: {0}")]
    DoesNotFit(String),
    #[error(transparent)]
    World(#[from] FormatError),
    /// A region that would not read (damaged, missing): named, and nothing was written.
    #[error("{path}: {source}")]
    Region { path: PathBuf, source: FormatError },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {path}: {source}")]
    Encode { path: PathBuf, source: ResError },
}

/// What an export wrote.
#[derive(Clone, Debug)]
pub struct ExportReport {
    pub files: usize,
    /// Bytes of maps written (height, control and color at full resolution, 12 a sample).
    pub map_bytes: u64,
    /// Bytes of `.res` files written.
    pub bytes: u64,
}

/// Why `world` can't go into `out` as a Terrain3D data directory, if it can't.
pub fn check(world: &World, out: &Path) -> Result<(), ExportError> {
    let m = world.manifest();
    if !(64..=2048).contains(&m.region_size) || !m.region_size.is_power_of_two() {
        return Err(ExportError::DoesNotFit(format!(
            "region size {} is not one Terrain3D has (64, 128, …, 2048)",
            m.region_size
        )));
    }
    let mut outside: Vec<RegionLocation> = world
        .region_locations()
        .filter(|l| !MAP_LOCATIONS.contains(&l.x) || !MAP_LOCATIONS.contains(&l.z))
        .collect();
    outside.sort_by_key(|l| (l.z, l.x));
    if let Some(first) = outside.first() {
        let b = m.region_bounds;
        return Err(ExportError::DoesNotFit(format!(
            "{} of its {} regions (the first at ({}, {})) lie outside Terrain3D's 32×32 region \
             map, locations −16…15 on each axis; the world spans {}…{} by {}…{}",
            outside.len(),
            world.region_locations().count(),
            first.x,
            first.z,
            b.min[0],
            b.max[0],
            b.min[1],
            b.max[1]
        )));
    }
    if out.is_dir() {
        let ours: std::collections::HashSet<String> = world
            .region_locations()
            .map(|l| l.terrain3d_file_name())
            .collect();
        let files = region_files(out)
            .map_err(|e| ExportError::DoesNotFit(format!("{}: {e}", out.display())))?;
        if let Some(stray) = files
            .iter()
            .find(|p| !ours.contains(p.file_name().and_then(|n| n.to_str()).unwrap_or("")))
        {
            return Err(ExportError::DoesNotFit(format!(
                "{} already holds {}, which this world has no region for: Terrain3D would load \
                 it beside the export (remove it, or export into an empty directory)",
                out.display(),
                stray.display()
            )));
        }
    }
    Ok(())
}

/// The Terrain3D region of one relief region: its maps as they are (control and color blank
/// where the world has none), its height range over standing samples, the world's spacing.
pub fn terrain3d_region(world: &World, region: &relief::Region) -> Terrain3dRegion {
    let n = (region.size as usize).pow(2);
    let control = region
        .control
        .as_ref()
        .map_or_else(|| vec![Control::BLANK; n], |c| c.to_vec());
    let (lo, hi) = region
        .height
        .iter()
        .zip(&control)
        .filter(|(h, &c)| h.is_finite() && !Control::decode(c).hole)
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), (&h, _)| {
            (lo.min(h), hi.max(h))
        });
    Terrain3dRegion {
        version: super::region::DATA_VERSION,
        region_size: region.size,
        vertex_spacing: Some(world.manifest().vertex_spacing),
        height_range: if lo <= hi {
            [lo as f64, hi as f64]
        } else {
            [0.0, 0.0]
        },
        height: region.height.to_vec(),
        control,
        color: region
            .color
            .as_ref()
            .map_or_else(|| vec![BLANK_COLOR; n], |c| c.to_vec()),
    }
}

/// The bytes of a region's `.res` file. `res_dir` is the `res://` directory the file will
/// live in (its path is recorded in the file, as Godot records it).
pub fn region_file_bytes(
    world: &World,
    region: &relief::Region,
    res_dir: &str,
) -> Result<Vec<u8>, ResError> {
    let t = terrain3d_region(world, region);
    let chain = mips::rgba8_with_mips(t.region_size, &t.color);
    let name = region.location.terrain3d_file_name();
    let path = format!("{}/{name}", res_dir.trim_end_matches('/'));
    // A stable uid per world and location, so exporting again gives the same files; Godot's
    // uids are non-negative 63-bit numbers.
    let uid = relief::hash::fnv1a(&format!("{}/{name}", world.manifest().seed_hash)) >> 1;
    let resource = t.to_resource(&chain[4 * t.color.len()..], &path, Some(uid));
    // Inside the container the stream starts at its header: Godot's loader reads the `RSCC`
    // magic instead of `RSRC`, then the header straight out of the decompressed blocks.
    container::compress(&binres::write(&resource, false), ZSTD_LEVEL)
}

/// Writes every region of `world` into `out` as Terrain3D region files, on `threads`
/// threads (0 = one per core), after [`check`]. `res_dir` defaults to `res://` and the
/// directory's name.
pub fn export(
    world: &World,
    out: &Path,
    res_dir: Option<&str>,
    threads: usize,
    progress: &dyn Progress,
) -> Result<ExportReport, ExportError> {
    check(world, out)?;
    std::fs::create_dir_all(out).map_err(|source| ExportError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let res_dir = res_dir.map_or_else(
        || {
            let dir = out
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("terrain");
            format!("res://{dir}")
        },
        str::to_string,
    );
    let mut locations: Vec<RegionLocation> = world.region_locations().collect();
    locations.sort_by_key(|l| (l.z, l.x));
    // Each region's temporary file, the path it goes to and its length; or what failed.
    type Staged = Result<(PathBuf, PathBuf, u64), ExportError>;
    let written: Mutex<Vec<Staged>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        t => t,
    };
    progress.start("regions", locations.len() as u64);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(locations.len()) {
            scope.spawn(|| {
                while let Some(&loc) = locations.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let path = out.join(loc.terrain3d_file_name());
                    let r = world
                        .read_region(loc)
                        .map_err(|source| ExportError::Region {
                            path: world.region_path(loc),
                            source,
                        })
                        .and_then(|region| {
                            region_file_bytes(world, &region, &res_dir).map_err(|source| {
                                ExportError::Encode {
                                    path: path.clone(),
                                    source,
                                }
                            })
                        })
                        .and_then(|bytes| {
                            stage(&path, &bytes).map_err(|source| ExportError::Io {
                                path: path.clone(),
                                source,
                            })
                        });
                    written.lock().unwrap().push(r);
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish();
    let staged = written.into_inner().unwrap();
    let mut ready = Vec::with_capacity(staged.len());
    let mut first_error = None;
    for r in staged {
        match r {
            Ok(s) => ready.push(s),
            Err(e) => first_error = first_error.or(Some(e)),
        }
    }
    if let Some(e) = first_error {
        for (tmp, _, _) in &ready {
            let _ = std::fs::remove_file(tmp);
        }
        return Err(e);
    }
    let mut bytes = 0;
    for (k, (tmp, path, len)) in ready.iter().enumerate() {
        if let Err(source) = std::fs::rename(tmp, path) {
            for (tmp, _, _) in &ready[k..] {
                let _ = std::fs::remove_file(tmp);
            }
            return Err(ExportError::Io {
                path: path.clone(),
                source,
            });
        }
        bytes += len;
    }
    let size = world.manifest().region_size as u64;
    Ok(ExportReport {
        files: locations.len(),
        map_bytes: locations.len() as u64 * size * size * 12,
        bytes,
    })
}

/// Writes `bytes` into a fresh temporary file beside `path`: (that file, `path`, length).
fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<(PathBuf, PathBuf, u64)> {
    use std::io::Write;
    let (mut file, tmp) = relief::io::create_temp_beside(path)?;
    if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_data()) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok((tmp, path.to_path_buf(), bytes.len() as u64))
}
