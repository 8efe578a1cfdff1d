//! A band's chunks, whatever the ground: the sizes allowed, the caps a table and a size must
//! keep (checked when the runtime starts, so no chunk is ever cut short by surprise), and the
//! memory a chunk is expected to take before the first is built.

use super::place::{cells_for, margins, MAX_CELLS_PER_CHUNK, MAX_THINGS_PER_CHUNK};
use super::rules::{Band, Rules};
use crate::config::ConfigError;

/// The smallest and largest thing chunk, metres.
pub const CHUNK_M: std::ops::RangeInclusive<f64> = 4.0..=1024.0;

/// `Err` naming `chunk_size_m` unless `size` is within [`CHUNK_M`].
pub fn check_chunk_size(size: f64) -> Result<(), ConfigError> {
    if size.is_finite() && CHUNK_M.contains(&size) {
        return Ok(());
    }
    Err(ConfigError::new(
        "chunk_size_m",
        format!(
            "must be {} to {} m, is {size}",
            CHUNK_M.start(),
            CHUNK_M.end()
        ),
    ))
}

/// `Err` naming `chunk_size_m` unless `band`'s chunks of `size_m` metres (of their plane,
/// which spans up to `stretch` of its metres for one of the ground's) are within
/// [`CHUNK_M`], expect at most [`MAX_THINGS_PER_CHUNK`] things and draw at most
/// [`MAX_CELLS_PER_CHUNK`] candidate cells a kind.
pub fn check_band(rules: &Rules, band: Band, size_m: f64, stretch: f64) -> Result<(), ConfigError> {
    check_chunk_size(size_m)?;
    let mut expected = 0.0;
    for (kind, margin) in rules.kinds.iter().zip(margins(rules, band)) {
        let Some(margin) = margin else { continue };
        if cells_for(kind, size_m, margin * stretch) > MAX_CELLS_PER_CHUNK {
            return Err(ConfigError::new(
                "chunk_size_m",
                format!(
                    "{size_m} m chunks of `{}` ({} m apart) would draw more than {} \
                     candidate cells each: use smaller chunks",
                    kind.name, kind.spacing, MAX_CELLS_PER_CHUNK
                ),
            ));
        }
        if kind.band == band {
            expected += densest(kind) * size_m * size_m;
        }
    }
    if expected > MAX_THINGS_PER_CHUNK as f64 {
        return Err(ConfigError::new(
            "chunk_size_m",
            format!(
                "{size_m} m chunks of the {} band would hold up to {expected:.0} things, \
                 more than {MAX_THINGS_PER_CHUNK}: use smaller chunks",
                band.name()
            ),
        ));
    }
    Ok(())
}

/// A guess at a chunk's bytes for the budget before the first is built: `band`'s densest
/// biome filling a chunk of `size_m` metres.
pub fn estimate_bytes(rules: &Rules, band: Band, size_m: f64) -> usize {
    let area = size_m * size_m;
    let things: f64 = rules
        .kinds
        .iter()
        .filter(|k| k.band == band)
        .map(|k| densest(k) * area)
        .sum();
    (things.min(MAX_THINGS_PER_CHUNK as f64) as usize) * 136 + 256
}

fn densest(kind: &super::rules::Kind) -> f64 {
    kind.density.iter().cloned().fold(0.0, f64::max)
}
