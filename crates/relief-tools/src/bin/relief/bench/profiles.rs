//! The compact profile against the fast (raw) one on the same regions: each region is
//! encoded both ways into a scratch directory beside the world, then loaded from each in
//! turn (read, check, decode, and in compact the color map rebuilt), warm and cold. This is
//! the choice a game makes when it ships a world, so both halves load as the streamer's
//! loads do: from files, into maps from a pool.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use relief::flat::region;
use relief::flat::region_writer::{encode_region_derived, CodecProfile};
use relief::pool::BufferPool;
use relief::{RegionLocation, World};

use super::figures::Figures;
use super::{cpu_time, drop_from_page_cache};
use crate::timing::median as median_of;

/// Regions compared: spread over the world, so sea and mountains both count.
const MOST_REGIONS: usize = 8;
const ROUNDS: usize = 5;

/// `per_region`: bytes of one region's maps, what the pool holds two of.
pub fn figures(
    world: &World,
    dir: &Path,
    per_region: usize,
    fig: &mut Figures,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut locs: Vec<RegionLocation> = world.region_locations().collect();
    locs.sort_by_key(|l| (l.z, l.x));
    let step = locs.len().div_ceil(MOST_REGIONS).max(1);
    let locs: Vec<RegionLocation> = locs.into_iter().step_by(step).collect();
    let scratch = Scratch::beside(dir)?;
    let tint = world.tint_recipe();
    let (mut fast, mut compact) = (Vec::new(), Vec::new());
    let (mut fast_bytes, mut compact_bytes) = (0u64, 0u64);
    for &loc in &locs {
        let r = world.read_region(loc)?;
        for (profile, files, bytes) in [
            (CodecProfile::Fast, &mut fast, &mut fast_bytes),
            (CodecProfile::Compact, &mut compact, &mut compact_bytes),
        ] {
            let encoded = encode_region_derived(&r, profile, tint.as_ref());
            *bytes += encoded.len() as u64;
            files.push((
                loc,
                scratch.write(&format!("{profile:?}-{}", loc.file_name()), &encoded)?,
            ));
        }
    }
    let pool = Arc::new(BufferPool::new(per_region * 2));
    let load_all = |files: &[(RegionLocation, PathBuf)]| -> Result<(), relief::FormatError> {
        for (loc, path) in files {
            let mut f = File::open(path).map_err(|e| relief::FormatError::Io {
                path: path.clone(),
                source: e,
            })?;
            let len = f.metadata().map_or(0, |m| m.len());
            std::hint::black_box(region::read_region_from(
                &mut f,
                len,
                Some(*loc),
                Some(&pool),
            )?);
        }
        Ok(())
    };
    load_all(&fast)?; // fault the pool in, warm the page cache
    load_all(&compact)?;
    fig.set("profiles.regions", locs.len() as f64);
    fig.set(
        "profiles.compact_size_ratio",
        fast_bytes as f64 / compact_bytes as f64,
    );
    for (name, cold) in [("warm", false), ("cold", true)] {
        let (mut fast_s, mut compact_s, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let time =
                |files: &[(RegionLocation, PathBuf)]| -> Result<Option<f64>, relief::FormatError> {
                    if cold {
                        if !files.iter().all(|(_, p)| drop_from_page_cache(p)) {
                            return Ok(None);
                        }
                        let t = Instant::now();
                        load_all(files)?;
                        Ok(Some(t.elapsed().as_secs_f64()))
                    } else {
                        // CPU time: a warm read is a copy this thread does, and preemption drops out.
                        let mut r = Ok(());
                        let d = cpu_time(|| r = load_all(files));
                        r.map(|()| Some(d.as_secs_f64()))
                    }
                };
            let (Some(f), Some(c)) = (time(&fast)?, time(&compact)?) else {
                break;
            };
            fast_s.push(f);
            compact_s.push(c);
            ratios.push(c / f);
        }
        if ratios.len() == ROUNDS {
            let per_region = |v: &mut Vec<f64>| median_of(v) * 1e3 / locs.len() as f64;
            fig.set(&format!("profiles.fast_{name}_ms"), per_region(&mut fast_s));
            fig.set(
                &format!("profiles.compact_{name}_ms"),
                per_region(&mut compact_s),
            );
            fig.set(
                &format!("profiles.compact_{name}_per_fast"),
                median_of(&mut ratios),
            );
        }
    }
    Ok(())
}

pub fn print(m: &Figures) {
    println!(
        "\ncompact profile vs fast (raw) on the same {} regions, one thread, medians of {ROUNDS}: {:.2}× smaller",
        m.of("profiles.regions"),
        m.of("profiles.compact_size_ratio")
    );
    for (name, key) in [("warm page cache", "warm"), ("cold page cache", "cold")] {
        match m.get(&format!("profiles.compact_{key}_per_fast")) {
            Some(ratio) => println!(
                "  {name}: compact {:.2} ms a region vs fast {:.2} ms: ratio {ratio:.2}",
                m.of(&format!("profiles.compact_{key}_ms")),
                m.of(&format!("profiles.fast_{key}_ms")),
            ),
            None => println!(
                "  {name}: not measured (this platform cannot drop a file from the page cache)"
            ),
        }
    }
}

/// A directory of encoded regions, removed when dropped. Beside the world rather than in the
/// temp directory, which may be a tmpfs whose pages can't leave the cache.
struct Scratch(PathBuf);

impl Scratch {
    fn beside(world: &Path) -> std::io::Result<Scratch> {
        let name = format!(".relief-bench-profiles-{}", std::process::id());
        let dir = world
            .parent()
            .map(|p| p.join(&name))
            .filter(|d| std::fs::create_dir_all(d).is_ok())
            .unwrap_or_else(|| std::env::temp_dir().join(&name));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }

    /// Writes and syncs a file: a page still dirty can't be dropped from the cache.
    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let path = self.0.join(name);
        let mut f = File::create(&path)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        Ok(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
