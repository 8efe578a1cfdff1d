//! First visits as a game's first minutes see them: every region loaded once, each kept (as
//! the streamer keeps what it loads, so nothing freed is there to reuse), in a fresh process,
//! against a raw read of the same files into memory already faulted in, page cache warm.
//!
//! In the process that ran the routes, glibc would hand loads the pages earlier passes freed,
//! already faulted in, and flatter the ratio; so each mode runs in a child process of this
//! same binary (`relief bench WORLD --first-visit-child MODE`, hidden) that prints its
//! figures on one line. Modes:
//!
//! - `fresh`: loads allocate their maps, as with no pool;
//! - `pooled`: the maps come from a pool whose buffers were faulted in before the loads, as
//!   idle loader threads keep them (`RegionSource::idle`).
//!
//! A planet is measured the same way over the bench's sample tiles: every field of each
//! tile read and decoded once and kept, against a raw read of the same stored bytes.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use relief::planet::{Planet, TileKey};
use relief::pool::{Buffer, BufferPool};
use relief::World;

use super::figures::Figures;
use crate::process::minor_faults;

/// Regions loaded in a child: enough for a steady figure, few enough that a big world's
/// first visit stays a few hundred megabytes.
const MAX_REGIONS: usize = 64;

pub const MODES: [&str; 2] = ["fresh", "pooled"];

/// The child: loads and prints `raw_s raw_cached_s load_s faults loads`.
pub fn child(ground: &Path, mode: &str) -> Result<(), String> {
    if !MODES.contains(&mode) {
        return Err(format!("--first-visit-child {mode}: want fresh or pooled"));
    }
    if relief::planet::opened::is_planet_file(ground) {
        return planet_child(ground, mode);
    }
    let world = World::open(ground).map_err(|e| format!("{}: {e}", ground.display()))?;
    let locs: Vec<_> = world.region_locations().take(MAX_REGIONS).collect();
    let paths = super::OnDisk::regions(&world, &locs)?;
    let pool = Arc::new(BufferPool::new(0));
    if mode == "pooled" {
        let lens = world
            .read_region(locs[0])
            .map_err(|e| e.to_string())?
            .layer_lens();
        pool.set_room(lens.iter().sum::<usize>() * locs.len());
        pool.prefault(&lens, locs.len());
    }
    // Two raw reads of the same bytes, each in reads of a megabyte (as a load reads a
    // layer), page cache warm, into 64-byte aligned memory already faulted in (on this
    // project's AMD machines the kernel's copy into a destination 16 bytes past a line,
    // where a large allocation starts, runs 3× slower; the baseline must not be the slow
    // one): into a buffer per region, kept, as a load keeps its maps (the same memory
    // traffic: the baseline of the ratios); and into one megabyte reused, whose destination
    // stays in cache (the copy's ceiling, reported beside it).
    let mut kept_raw: Vec<Buffer> = paths
        .iter()
        .map(|p| Buffer::zeroed(p.len as usize))
        .collect();
    let mut one = Buffer::zeroed(1 << 20);
    let kept_round = || -> Result<f64, String> {
        let t = Instant::now();
        for (p, buf) in paths.iter().zip(kept_raw.iter_mut()) {
            p.read_into(buf)?;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    let one_round = || -> Result<f64, String> {
        let t = Instant::now();
        for p in &paths {
            p.read_through(&mut one)?;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    timed(kept_round, one_round, || {
        locs.iter()
            .map(|&l| world.read_region_into(l, Some(&pool)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())
    })
}

/// The child's line, `raw_s raw_cached_s load_s faults loads`: the two raw reads, medians of
/// five after a round that warms the page cache (the first reads of a fresh process run well
/// below the rest), then `load` once (every piece loaded and kept), its page faults counted.
fn timed<T>(
    mut kept_round: impl FnMut() -> Result<f64, String>,
    mut one_round: impl FnMut() -> Result<f64, String>,
    load: impl FnOnce() -> Result<Vec<T>, String>,
) -> Result<(), String> {
    let (mut kept_s, mut one_s) = (Vec::new(), Vec::new());
    kept_round()?;
    one_round()?;
    for _ in 0..5 {
        kept_s.push(kept_round()?);
        one_s.push(one_round()?);
    }
    let (raw_s, cached_s) = (
        crate::timing::median(&mut kept_s),
        crate::timing::median(&mut one_s),
    );
    let faults = minor_faults();
    let t = Instant::now();
    let kept = load()?;
    let load_s = t.elapsed().as_secs_f64();
    let faults = match (faults, minor_faults()) {
        (Some(a), Some(b)) => b.saturating_sub(a) as f64,
        _ => -1.0,
    };
    println!("{raw_s} {cached_s} {load_s} {faults} {}", kept.len());
    Ok(())
}

/// [`child`] for a planet: the bench's sample tiles, each field's stored bytes read raw
/// (pread, page cache warm) into a kept buffer, already faulted in, against each tile loaded
/// once and kept.
fn planet_child(ground: &Path, mode: &str) -> Result<(), String> {
    use std::os::unix::fs::FileExt;
    let planet =
        relief::planet::Planet::open(ground).map_err(|e| format!("{}: {e}", ground.display()))?;
    let (keys, _) = sample_tiles(&planet);
    let spans: Vec<(u64, usize)> = keys
        .iter()
        .flat_map(|&k| {
            let blob = planet.blob();
            (0..blob.fields().len()).filter_map(move |f| blob.entry(f, k))
        })
        .map(|e| (e.offset, e.length as usize))
        .collect();
    let pool = Arc::new(BufferPool::new(0));
    if mode == "pooled" {
        let lens = planet.tile_lens();
        pool.set_room(lens.iter().sum::<usize>() * keys.len());
        pool.prefault(&lens, keys.len());
    }
    let file = std::fs::File::open(ground).map_err(|e| format!("{}: {e}", ground.display()))?;
    let mut kept_raw: Vec<Buffer> = spans.iter().map(|&(_, len)| Buffer::zeroed(len)).collect();
    let mut one = Buffer::zeroed(spans.iter().map(|s| s.1).max().unwrap_or(0));
    let io = |e: std::io::Error| format!("{}: {e}", ground.display());
    let kept_round = || -> Result<f64, String> {
        let t = Instant::now();
        for (&(offset, _), buf) in spans.iter().zip(kept_raw.iter_mut()) {
            file.read_exact_at(buf, offset).map_err(io)?;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    let one_round = || -> Result<f64, String> {
        let t = Instant::now();
        for &(offset, len) in &spans {
            file.read_exact_at(&mut one[..len], offset).map_err(io)?;
        }
        Ok(t.elapsed().as_secs_f64())
    };
    timed(kept_round, one_round, || {
        keys.iter()
            .map(|&k| planet.read_tile_in(k, Some(&pool)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())
    })
}

/// The parent: runs each mode in a child and adds its figures.
pub fn figures(ground: &Path, fig: &mut Figures) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    for mode in MODES {
        let out = std::process::Command::new(&exe)
            .arg("bench")
            .arg(ground)
            .args(["--first-visit-child", mode])
            .output()
            .map_err(|e| format!("first-visit child: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let v: Vec<f64> = text
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let [raw_s, cached_s, load_s, faults, loads] = v[..] else {
            return Err(format!(
                "first-visit child ({mode}) said `{}` {}",
                text.trim(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        };
        let name = if mode == "fresh" {
            "first_visit"
        } else {
            "first_visit_pooled"
        };
        fig.set(
            "throughput.first_visit_raw_ms",
            raw_s * 1e3 / loads.max(1.0),
        );
        fig.set(
            "throughput.first_visit_raw_cached_ms",
            cached_s * 1e3 / loads.max(1.0),
        );
        fig.set(
            &format!("throughput.{name}_ratio"),
            raw_s / load_s.max(1e-9),
        );
        fig.set(
            &format!("throughput.{name}_ms"),
            load_s * 1e3 / loads.max(1.0),
        );
        if faults >= 0.0 {
            fig.set(
                &format!("throughput.{name}_faults"),
                faults / loads.max(1.0),
            );
        }
    }
    Ok(())
}

/// The first-visit lines of the report, per `piece` (region or tile).
pub fn print(m: &Figures, piece: &str) {
    for (name, key) in [
        ("maps allocated", "first_visit"),
        ("maps from a faulted-in pool", "first_visit_pooled"),
    ] {
        println!(
            "  first visits, fresh process, {name}: {:.2} ms a {piece}, {:.0} page faults each: ratio {:.2}",
            m.of(&format!("throughput.{key}_ms")),
            m.of(&format!("throughput.{key}_faults")),
            m.of(&format!("throughput.{key}_ratio")),
        );
    }
}

/// Tiles of the first 4 × 4 of each face, and the stored bytes of all their fields: what the
/// throughput and first-visit sections load.
pub fn sample_tiles(planet: &Planet) -> (Vec<TileKey>, u64) {
    let h = planet.blob().header();
    let side = h.face_resolution / h.tile_size;
    let keys: Vec<TileKey> = (0..6u8)
        .flat_map(|face| {
            (0..4u16).flat_map(move |ty| (0..4u16).map(move |tx| TileKey { face, tx, ty }))
        })
        .filter(|k| (k.tx as u32) < side && (k.ty as u32) < side)
        .collect();
    let fields = planet.blob().fields().len();
    let stored = keys
        .iter()
        .map(|&k| {
            (0..fields)
                .map(|f| planet.blob().entry(f, k).map_or(0, |e| e.length as u64))
                .sum::<u64>()
        })
        .sum();
    (keys, stored)
}
