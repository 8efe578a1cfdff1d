//! Flow routing on a grid: every node drains to one receiver, every path ends at an outlet.
//!
//! Depressions are routed through their lowest pass with Priority-Flood + ε (Barnes, Lehman &
//! Mulla 2014): flooding inward from the outlets in height order gives each node a "filled"
//! height at least ε above the node it was reached from. Receivers are then the steepest
//! descent on the filled surface, so they always exist and never form a cycle, and the flood's
//! pop order is already outlet-first (a receiver is always lower, so it was popped earlier).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::bake::grid::Grid;

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
fn key(h: f64) -> u64 {
    let b = h.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

impl Routing {
    pub fn compute(grid: &impl Graph, h: &[f64], outlet: &[bool]) -> Routing {
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
            let (mut best, mut best_slope, mut best_d) = (k, 0.0, 0.0);
            grid.each_neighbour(k, |nb, d| {
                let s = (filled[k] - filled[nb]) / d;
                if s > best_slope {
                    best = nb;
                    best_slope = s;
                    best_d = d;
                }
            });
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
