//! Flow routing on a grid: every node drains to one receiver, every path ends at an outlet.
//!
//! Depressions are routed through their lowest pass with Priority-Flood + ε (Barnes, Lehman &
//! Mulla 2014): flooding inward from the outlets in height order gives each node a "filled"
//! height at least ε above the node it was reached from. Receivers are then the steepest
//! descent on the filled surface, so they always exist and never form a cycle, and the flood's
//! pop order is already outlet-first (a receiver is always lower, so it was popped earlier).
//!
//! Each node then drains to one neighbour on the filled surface ([`Flow`]): the steepest
//! (D8), or one drawn with multiple-flow weights. Steepest descent sends water down a plane
//! in straight parallel lines that never meet, one cell apart, however long the slope; real
//! water spreads down a plane and gathers wherever the ground curves in. Multiple-flow
//! routing (Freeman 1991) splits each node's water among its lower neighbours in proportion
//! to slope^1.1. A drawn receiver keeps the drainage a tree (reaches, Strahler orders and the
//! implicit erosion solver need one receiver) while its expectation is Freeman's split, the
//! idea of Fairfield & Leymarie's Rho8 (1991): on a plane, flow paths wander and merge into
//! a branching network instead of running side by side.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::bake::grid::Grid;
use crate::bake::seed::mix;

/// Nodes and their neighbours with distances: a flat grid, or the cube sphere (whose
/// neighbours span face seams).
pub trait Graph {
    fn node_count(&self) -> usize;
    /// Calls `f(neighbour, distance in metres)` for each neighbour of `k`.
    fn each_neighbour(&self, k: usize, f: impl FnMut(usize, f64));
}

impl Graph for Grid {
    fn node_count(&self) -> usize {
        Grid::len(self)
    }
    #[inline]
    fn each_neighbour(&self, k: usize, f: impl FnMut(usize, f64)) {
        Grid::each_neighbour(self, k, f)
    }
}

/// Rise per step across a filled depression, metres.
pub const FILL_EPSILON: f64 = 1e-5;

/// Freeman's (1991) multiple-flow exponent: each lower neighbour's share ∝ slope^1.1.
pub const SPREAD_EXPONENT: f64 = 1.1;

/// How each node picks its receiver among its lower neighbours on the filled surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// The steepest descent (D8 on a grid).
    Steepest,
    /// One lower neighbour drawn with probability ∝ slope^[`SPREAD_EXPONENT`], from a hash
    /// of the seed and the node (so the same seed gives the same tree on any machine).
    Spread { seed: u64 },
}

#[derive(Clone, Debug)]
pub struct Routing {
    /// Heights with every depression filled to its spill level (plus ε steps).
    pub filled: Vec<f64>,
    /// Receiver of each node; an outlet is its own receiver.
    pub recv: Vec<u32>,
    /// Distance to the receiver, metres (0 at outlets).
    pub dist: Vec<f64>,
    /// Every node once, each after its receiver (outlets first).
    pub order: Vec<u32>,
}

/// Maps an f64 to a u64 with the same order (for the heap key; deterministic tie-break by index).
#[inline]
pub(crate) fn key(h: f64) -> u64 {
    let b = h.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

impl Routing {
    /// Steepest-descent routing: [`Routing::compute_with`] and [`Flow::Steepest`].
    pub fn compute(grid: &impl Graph, h: &[f64], outlet: &[bool]) -> Routing {
        Routing::compute_with(grid, h, outlet, Flow::Steepest)
    }

    /// Routes heights `h` (one per node) to the nodes marked `outlet`; `flow` picks each
    /// node's receiver among its lower neighbours on the filled surface.
    pub fn compute_with(grid: &impl Graph, h: &[f64], outlet: &[bool], flow: Flow) -> Routing {
        let n = grid.node_count();
        let mut filled = h.to_vec();
        let mut seen = vec![false; n];
        let mut heap = BinaryHeap::new();
        let mut order = Vec::with_capacity(n);
        // Only outlets on the shore need to be in the flood's queue; those with nothing but
        // outlets around (the open sea) go first as they are, which keeps the queue small.
        for k in 0..n {
            if outlet[k] {
                seen[k] = true;
                let mut shore = false;
                grid.each_neighbour(k, |nb, _| shore |= !outlet[nb]);
                if shore {
                    heap.push(Reverse((key(filled[k]), k as u32)));
                } else {
                    order.push(k as u32);
                }
            }
        }
        while let Some(Reverse((_, c))) = heap.pop() {
            let c = c as usize;
            order.push(c as u32);
            let fc = filled[c];
            grid.each_neighbour(c, |nb, _| {
                if !seen[nb] {
                    seen[nb] = true;
                    if filled[nb] < fc + FILL_EPSILON {
                        filled[nb] = fc + FILL_EPSILON;
                    }
                    heap.push(Reverse((key(filled[nb]), nb as u32)));
                }
            });
        }
        assert_eq!(
            order.len(),
            n,
            "every node must be reachable from an outlet"
        );

        let mut recv: Vec<u32> = (0..n as u32).collect();
        let mut dist = vec![0.0; n];
        for k in 0..n {
            if outlet[k] {
                continue;
            }
            let (best, best_d) = match flow {
                Flow::Steepest => steepest(grid, &filled, k),
                Flow::Spread { seed } => drawn(grid, &filled, k, seed),
            };
            debug_assert_ne!(
                best, k,
                "Priority-Flood + ε leaves every inland node a lower neighbour"
            );
            recv[k] = best as u32;
            dist[k] = best_d;
        }
        Routing {
            filled,
            recv,
            dist,
            order,
        }
    }

    /// Sums `weight` down the drainage tree: each node gets its own weight plus everything
    /// that drains through it (drainage area when the weight is cell area).
    pub fn accumulate(&self, weight: &[f64]) -> Vec<f64> {
        self.accumulate_by(|k| weight[k])
    }

    /// [`Routing::accumulate`] with each node's weight worked out when needed.
    pub fn accumulate_by(&self, weight: impl Fn(usize) -> f64) -> Vec<f64> {
        let mut acc: Vec<f64> = (0..self.recv.len()).map(weight).collect();
        for &k in self.order.iter().rev() {
            let r = self.recv[k as usize] as usize;
            if r != k as usize {
                acc[r] += acc[k as usize];
            }
        }
        acc
    }
}

/// The lower neighbour of `k` with the steepest descent, and its distance.
fn steepest(grid: &impl Graph, filled: &[f64], k: usize) -> (usize, f64) {
    let (mut best, mut best_slope, mut best_d) = (k, 0.0, 0.0);
    grid.each_neighbour(k, |nb, d| {
        let s = (filled[k] - filled[nb]) / d;
        if s > best_slope {
            best = nb;
            best_slope = s;
            best_d = d;
        }
    });
    (best, best_d)
}

/// A lower neighbour of `k` drawn with weight slope^[`SPREAD_EXPONENT`], and its distance.
/// Any lower neighbour is a valid receiver: the flood popped it before `k`.
fn drawn(grid: &impl Graph, filled: &[f64], k: usize, seed: u64) -> (usize, f64) {
    let mut lower = [(0usize, 0.0f64, 0.0f64); 8];
    let (mut count, mut total) = (0, 0.0);
    grid.each_neighbour(k, |nb, d| {
        let s = (filled[k] - filled[nb]) / d;
        if s > 0.0 && count < lower.len() {
            let w = s.powf(SPREAD_EXPONENT);
            lower[count] = (nb, d, w);
            total += w;
            count += 1;
        }
    });
    let u = (mix(seed ^ mix(k as u64)) >> 11) as f64 / (1u64 << 53) as f64;
    let mut pick = u * total;
    for &(nb, d, w) in &lower[..count] {
        if pick < w {
            return (nb, d);
        }
        pick -= w;
    }
    // Rounding left the draw past the last weight: it is the last one.
    match count {
        0 => (k, 0.0),
        c => (lower[c - 1].0, lower[c - 1].1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pit_drains_through_its_lowest_pass() {
        // 5×5 bowl: border high except one low notch at (4, 2); centre is a pit.
        let grid = Grid {
            nx: 5,
            nz: 5,
            dx: 1.0,
            x0: 0.0,
            z0: 0.0,
        };
        let mut h = vec![10.0; 25];
        for j in 1..4 {
            for i in 1..4 {
                h[grid.idx(i, j)] = 5.0;
            }
        }
        h[grid.idx(2, 2)] = 1.0;
        h[grid.idx(4, 2)] = 3.0;
        let outlet: Vec<bool> = (0..25).map(|k| k == grid.idx(4, 2)).collect();
        let rt = Routing::compute(&grid, &h, &outlet);
        // Follow the pit's receivers: must reach the notch without cycling.
        let mut k = grid.idx(2, 2);
        for _ in 0..25 {
            if outlet[k] {
                break;
            }
            assert!(rt.filled[rt.recv[k] as usize] < rt.filled[k]);
            k = rt.recv[k] as usize;
        }
        assert_eq!(k, grid.idx(4, 2));
        assert!(
            rt.filled[grid.idx(2, 2)] > 5.0,
            "the pit is filled to the bowl's spill level"
        );
        let area = rt.accumulate(&[1.0; 25]);
        assert_eq!(
            area[grid.idx(4, 2)],
            25.0,
            "everything drains to the one outlet"
        );
    }
}

/// Least-squares slope of y against x (tests fit the laws' exponents with it).
#[cfg(test)]
pub(crate) fn fitted_slope(pts: &[(f64, f64)]) -> f64 {
    let c = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / c,
        pts.iter().map(|p| p.1).sum::<f64>() / c,
    );
    let cov: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let var: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    cov / var
}

#[cfg(test)]
mod spread_tests {
    use super::*;

    /// Flow down a plane tilted along z: outlets on the low row.
    fn plane(n: usize, flow: Flow) -> (Grid, Routing, Vec<f64>) {
        let grid = Grid {
            nx: n,
            nz: n,
            dx: 10.0,
            x0: 0.0,
            z0: 0.0,
        };
        let h: Vec<f64> = (0..grid.len()).map(|k| grid.ij(k).1 as f64).collect();
        let outlet: Vec<bool> = (0..grid.len()).map(|k| grid.ij(k).1 == 0).collect();
        let rt = Routing::compute_with(&grid, &h, &outlet, flow);
        let area = rt.accumulate(&vec![1.0; grid.len()]);
        (grid, rt, area)
    }

    /// Hack's exponent: the longest flow path above each node against its drained area, fitted
    /// in log–log over nodes draining at least `min_area` cells.
    fn hack_exponent(rt: &Routing, area: &[f64], min_area: f64) -> f64 {
        let mut len = vec![0.0f64; area.len()];
        for &k in rt.order.iter().rev() {
            let (k, r) = (k as usize, rt.recv[k as usize] as usize);
            if r != k {
                len[r] = len[r].max(len[k] + rt.dist[k]);
            }
        }
        let pts: Vec<(f64, f64)> = (0..area.len())
            .filter(|&k| area[k] >= min_area && len[k] > 0.0)
            .map(|k| (area[k].ln(), len[k].ln()))
            .collect();
        fitted_slope(&pts)
    }

    /// Steepest descent runs water down a plane in parallel lines that never meet (every
    /// outlet gets one column, length ∝ area); spread flow gathers it into a branching network
    /// whose length grows as area^⅔ (Scheidegger's random network, the limit of a random walk
    /// down a plane), drawn the same way for the same seed.
    #[test]
    fn water_spreading_down_a_plane_gathers_into_a_branching_network() {
        let n = 160;
        let (grid, d8, d8_area) = plane(n, Flow::Steepest);
        let largest = |area: &[f64]| (0..n).map(|i| area[grid.idx(i, 0)]).fold(0.0, f64::max);
        assert!(
            (0..n).all(|i| d8_area[grid.idx(i, 0)] == n as f64),
            "steepest descent: each outlet drains its own column"
        );
        let h8 = hack_exponent(&d8, &d8_area, 10.0);
        assert!(
            (h8 - 1.0).abs() < 0.05,
            "steepest descent: Hack exponent {h8:.3}"
        );

        let (_, spread, area) = plane(n, Flow::Spread { seed: 7 });
        let outlets = largest(&area) / n as f64;
        assert!(
            outlets >= 10.0,
            "the largest basin drains {outlets:.1} columns"
        );
        let h = hack_exponent(&spread, &area, 10.0);
        assert!((0.6..=0.75).contains(&h), "Hack exponent {h:.3}");
        let (_, again, _) = plane(n, Flow::Spread { seed: 7 });
        assert_eq!(again.recv, spread.recv, "same seed, same tree");
        let (_, other, _) = plane(n, Flow::Spread { seed: 8 });
        assert_ne!(other.recv, spread.recv, "another seed, another tree");
        // Every receiver is lower on the filled surface, so the drainage is a tree.
        for k in 0..grid.len() {
            let r = spread.recv[k] as usize;
            assert!(r == k || spread.filled[r] < spread.filled[k]);
        }
    }
}
