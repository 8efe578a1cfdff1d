//! Where sand meets the sea, the waves set the shape of the ground. Below the waterline the
//! shoreface takes Dean's equilibrium profile, depth = A·y^(2/3) at y metres offshore (Dean
//! 1977; A ≈ 0.1 m^(1/3) for medium sand), out to the closure depth past which waves no
//! longer move the bed. Above it a beach face climbs at a sand beach's slope to the berm
//! the swash builds, and a backshore runs at the berm's height. Only low coasts get them:
//! where the ground stands higher than [`LOW_COAST_M`] near the water it is a cliff, and a
//! rocky coast keeps its shape.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::bake::routing::Graph;

use super::fine_grid::FineGrid;

/// Dean's shape parameter for medium sand, m^(1/3).
pub const DEAN_A: f64 = 0.1;
/// The closure depth: waves move sand no deeper, metres.
pub const CLOSURE_DEPTH_M: f64 = 8.0;
/// The berm's height above sea level, the beach face's slope, and the beach's width from
/// the waterline to where the ground takes over again, metres.
pub const BERM_M: f64 = 2.0;
pub const BEACH_FACE: f64 = 0.08;
pub const BEACH_WIDTH_M: f64 = 150.0;
/// Ground higher than this within the beach's width is a cliff: left as it is.
pub const LOW_COAST_M: f64 = 12.0;

/// Distance offshore at which Dean's profile reaches the closure depth, metres.
pub fn closure_distance() -> f64 {
    (CLOSURE_DEPTH_M / DEAN_A).powf(1.5)
}

/// Dean's equilibrium depth `y` metres offshore.
pub fn dean_depth(y: f64) -> f64 {
    DEAN_A * y.max(0.0).powf(2.0 / 3.0)
}

/// The beach's height `x` metres inland: the face up to the berm, then the berm.
pub fn beach_height(x: f64) -> f64 {
    (BEACH_FACE * x.max(0.0)).min(BERM_M)
}

fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Reshapes the ground `h` (metres, sea level 0) near every shore.
pub fn equilibrate(g: &FineGrid, h: &mut [f64]) {
    let reach = closure_distance().max(2.0 * BEACH_WIDTH_M);
    let dist = shore_distance(g, h, reach);
    for (k, v) in h.iter_mut().enumerate() {
        let d = dist[k] as f64;
        if !d.is_finite() {
            continue;
        }
        if *v < 0.0 {
            // Blend into the sea floor as it was past the closure distance.
            let w = smoothstep(d / closure_distance());
            *v = -(dean_depth(d) * (1.0 - w) + -*v * w);
        } else if *v <= LOW_COAST_M {
            let w = smoothstep((d - BEACH_WIDTH_M) / BEACH_WIDTH_M);
            *v = v.min(beach_height(d)) * (1.0 - w) + *v * w;
        }
    }
}

/// Distance from each node to the waterline, metres, through its own side (land or sea),
/// out to `reach`; infinite beyond it. The waterline crosses each land–sea edge where the
/// heights, taken linearly along the edge, pass zero.
pub fn shore_distance(g: &FineGrid, h: &[f64], reach: f64) -> Vec<f32> {
    let n = h.len();
    let mut dist = vec![f32::INFINITY; n];
    let mut heap = BinaryHeap::new();
    for k in 0..n {
        let wet = h[k] < 0.0;
        let mut best = f64::INFINITY;
        g.each_neighbour(k, |k2, d| {
            if (h[k2] < 0.0) != wet {
                let t = h[k] / (h[k] - h[k2]);
                best = best.min(t * d);
            }
        });
        if best.is_finite() {
            dist[k] = best as f32;
            heap.push(Reverse(((best as f32).to_bits(), k as u32)));
        }
    }
    // Dijkstra outwards, each side on its own; non-negative f32 bits order as the values.
    while let Some(Reverse((bits, k))) = heap.pop() {
        let (k, here) = (k as usize, f32::from_bits(bits));
        if here > dist[k] {
            continue;
        }
        let wet = h[k] < 0.0;
        g.each_neighbour(k, |k2, d| {
            let there = here + d as f32;
            if (h[k2] < 0.0) == wet && there < dist[k2] && (there as f64) <= reach {
                dist[k2] = there;
                heap.push(Reverse((there.to_bits(), k2 as u32)));
            }
        });
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planet whose ground is a plane through its centre tilted at `grade` (metres of
    /// height per metre from the plane x = 0, measured along the surface).
    fn tilted(g: &FineGrid, grade: f64) -> Vec<f64> {
        (0..g.node_count())
            .map(|k| grade * g.radius * g.dir(k)[0].asin())
            .collect()
    }

    #[test]
    fn a_low_coast_takes_deans_profile_offshore_and_a_beach_onshore() {
        let g = FineGrid::new(256, 20_000.0); // 123 m cells
        let grade = 0.004; // 4 m a kilometre: a coastal plain
        let before = tilted(&g, grade);
        let mut h = before.clone();
        equilibrate(&g, &mut h);
        let (mut sea, mut land) = (0, 0);
        for k in 0..g.node_count() {
            // Along the surface from the waterline (the great circle x = 0).
            let y = g.radius * g.dir(k)[0].asin().abs();
            if before[k] < 0.0 && y < 0.25 * closure_distance() {
                // Where the blend has hardly begun, the depth is Dean's.
                let want = dean_depth(y);
                assert!(
                    (-h[k] - want).abs() < 0.15 * want + 0.2,
                    "{y} m out: {} vs {want}",
                    -h[k]
                );
                sea += 1;
            }
            if before[k] >= 0.0 && y < 0.5 * BEACH_WIDTH_M {
                assert!(h[k] <= beach_height(y) + 0.3, "{y} m in: {}", h[k]);
                assert!(h[k] >= 0.0, "the beach stays above the water");
                land += 1;
            }
            if y > closure_distance().max(2.0 * BEACH_WIDTH_M) + 200.0 {
                assert_eq!(h[k], before[k], "untouched {y} m from the shore");
            }
        }
        assert!(
            sea > 100 && land > 100,
            "{sea} sea and {land} land nodes checked"
        );
    }

    #[test]
    fn a_cliff_keeps_its_shape() {
        let g = FineGrid::new(128, 20_000.0);
        let before = tilted(&g, 0.5);
        let mut h = before.clone();
        equilibrate(&g, &mut h);
        for k in 0..g.node_count() {
            if before[k] > LOW_COAST_M {
                assert_eq!(h[k], before[k]);
            }
        }
    }
}
