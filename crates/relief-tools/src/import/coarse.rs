//! The coarse grid an imported world's hydrology and overview stand on: block means of the
//! imported heights, at most [`MAX_NODES`] nodes, so rivers and lakes come out of any
//! terrain in seconds whatever its size.
//!
//! Node (i, j) is the mean of the `factor × factor` samples of block (i, j) of the world's
//! bounding rectangle, placed at the block's centre. Holes, non-finite heights and missing
//! regions don't count; a block with none left is a *gap* — water leaves the world there, as
//! it does over the rectangle's border (and below the sea level, when one is given).

use crate::bake::grid::Grid;
use relief::flat::control::Control;
use relief::flat::manifest::RegionBounds;

use super::ImportedRegion;

/// Nodes the coarse grid may have: 512², a quarter of a million, routed in well under a
/// second and stored as an overview of ~1 MB.
pub const MAX_NODES: usize = 512 * 512;

pub struct Coarse {
    pub grid: Grid,
    /// Samples per block side (a power of two).
    pub factor: usize,
    /// Block means; a gap holds the lowest mean of any block (so the overview stays finite).
    pub height: Vec<f64>,
    /// Where water leaves the world: gaps, the border, and blocks below the sea level.
    pub outlet: Vec<bool>,
}

/// Samples the bounding rectangle spans on each axis.
pub fn extent_samples(bounds: RegionBounds, region_size: u32) -> (usize, usize) {
    let n = region_size as usize;
    (
        (bounds.max[0] - bounds.min[0] + 1) as usize * n,
        (bounds.max[1] - bounds.min[1] + 1) as usize * n,
    )
}

/// Whether sample `k` of a region stands (its height is finite and its control word, if
/// any, has no hole).
pub fn stands(r: &ImportedRegion, k: usize) -> bool {
    r.height[k].is_finite()
        && r.control
            .as_ref()
            .map_or(true, |c| !Control::decode(c[k]).hole)
}

pub fn build(
    regions: &[ImportedRegion],
    bounds: RegionBounds,
    region_size: u32,
    spacing: f64,
    sea_level: Option<f32>,
) -> Coarse {
    let (w, d) = extent_samples(bounds, region_size);
    let mut factor = 1usize;
    while w.div_ceil(factor) * d.div_ceil(factor) > MAX_NODES {
        factor *= 2;
    }
    let (nx, nz) = (w.div_ceil(factor), d.div_ceil(factor));
    let mut sum = vec![0.0f64; nx * nz];
    let mut count = vec![0u32; nx * nz];
    let n = region_size as usize;
    for r in regions {
        let gx0 = (r.location.x - bounds.min[0]) as usize * n;
        let gz0 = (r.location.z - bounds.min[1]) as usize * n;
        for y in 0..n {
            let row = (gz0 + y) / factor * nx;
            for x in 0..n {
                let k = y * n + x;
                if stands(r, k) {
                    let node = row + (gx0 + x) / factor;
                    sum[node] += r.height[k] as f64;
                    count[node] += 1;
                }
            }
        }
    }
    let lowest = sum
        .iter()
        .zip(&count)
        .filter(|(_, &c)| c > 0)
        .map(|(s, &c)| s / c as f64)
        .fold(f64::INFINITY, f64::min);
    let lowest = if lowest.is_finite() { lowest } else { 0.0 };
    let height: Vec<f64> = sum
        .iter()
        .zip(&count)
        .map(|(s, &c)| if c > 0 { s / c as f64 } else { lowest })
        .collect();
    let half = (factor as f64 - 1.0) / 2.0;
    let extent = n as f64 * spacing;
    let grid = Grid {
        nx,
        nz,
        dx: factor as f64 * spacing,
        x0: bounds.min[0] as f64 * extent + half * spacing,
        z0: bounds.min[1] as f64 * extent + half * spacing,
    };
    let sea = sea_level.map_or(f64::NEG_INFINITY, f64::from);
    let outlet = (0..nx * nz)
        .map(|k| count[k] == 0 || grid.on_border(k) || height[k] < sea)
        .collect();
    Coarse {
        grid,
        factor,
        height,
        outlet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::RegionLocation;

    fn region(x: i32, z: i32, size: u32, h: impl Fn(usize, usize) -> f32) -> ImportedRegion {
        let n = size as usize;
        ImportedRegion {
            location: RegionLocation::new(x, z),
            height: (0..n * n).map(|k| h(k % n, k / n)).collect(),
            control: None,
            color: None,
        }
    }

    #[test]
    fn nodes_are_block_means_at_block_centres_and_gaps_drain() {
        // Two regions of 64² side by side in a 3×1 rectangle (the last missing), heights
        // equal to the global sample column: each block mean is its centre column.
        let bounds = RegionBounds {
            min: [-1, 0],
            max: [1, 0],
        };
        let regions = [
            region(-1, 0, 64, |x, _| x as f32),
            region(0, 0, 64, |x, _| 64.0 + x as f32),
        ];
        let c = build(&regions, bounds, 64, 2.0, None);
        assert_eq!(c.factor, 1, "192 × 64 nodes fit");
        let regions: Vec<ImportedRegion> = (0..3)
            .map(|rx| region(rx - 1, 0, 1024, move |x, _| (rx * 1024) as f32 + x as f32))
            .collect();
        let bounds = RegionBounds {
            min: [-1, 0],
            max: [2, 0],
        };
        let c = build(&regions, bounds, 1024, 1.0, None);
        // 4096 × 1024 samples: factor 4 gives 1024 × 256 = 262,144 nodes.
        assert_eq!((c.factor, c.grid.nx, c.grid.nz), (4, 1024, 256));
        assert_eq!(c.grid.x0, -1024.0 + 1.5);
        for i in [1usize, 100, 700] {
            let k = c.grid.idx(i, 5);
            assert_eq!(c.height[k], (4 * i) as f64 + 1.5, "node {i}");
            assert!(!c.outlet[k]);
        }
        let gap = c.grid.idx(900, 5);
        assert!(c.outlet[gap], "the missing region drains");
        assert_eq!(c.height[gap], 1.5, "gaps take the lowest mean");
        assert!(c.outlet[c.grid.idx(3, 0)], "the border drains");
    }

    #[test]
    fn holes_and_non_finite_heights_do_not_count() {
        let bounds = RegionBounds {
            min: [0, 0],
            max: [0, 0],
        };
        let mut r = region(0, 0, 64, |_, _| 10.0);
        r.height[64 + 1] = f32::NAN;
        r.height[64 + 2] = 1e9;
        let mut control = vec![0u32; 64 * 64];
        control[64 + 2] = Control {
            hole: true,
            ..Control::default()
        }
        .encode();
        r.control = Some(control);
        let c = build(&[r], bounds, 64, 1.0, Some(5.0));
        assert_eq!(c.height[c.grid.idx(1, 1)], 10.0);
        assert!(
            c.outlet[c.grid.idx(1, 1)],
            "a NaN sample is a gap at factor 1"
        );
        assert_eq!(c.height[c.grid.idx(2, 1)], 10.0);
        assert!(c.outlet[c.grid.idx(2, 1)], "so is a hole");
        assert!(!c.outlet[c.grid.idx(3, 1)], "above the sea");
    }
}
