//! A lake's shore as polygons: every part of its water and every island, traced along the
//! cell edges between lake and land.
//!
//! Edges are directed with the lake on their left, so a part's outline runs counter-clockwise
//! and an island's clockwise. Where two lake cells touch only at a corner the walk turns as far
//! left as it can, which keeps them apart: parts are 4-connected, and land is 8-connected (a
//! land cell touching the shore at a corner is shore, not an island). Each ring is then the
//! midpoints of its edges, which cuts the staircase's corners: a ring's area differs from its
//! cells' by half a cell (the four more convex than concave corners a ring turns through,
//! an eighth of a cell each).

use std::collections::BTreeMap;

use crate::bake::grid::Grid;
use relief::flat::tables::{ring_contains, LakePart};

/// Corners in doubled integer coordinates: cell (i, j) spans (2i ± 1, 2j ± 1).
type Corner = (isize, isize);

/// Every part of lake `id` in `lake` (one id per grid node), whose nodes are `nodes`,
/// largest first, each with the islands it holds.
pub fn parts(grid: &Grid, lake: &[u16], id: u16, nodes: &[usize]) -> Vec<LakePart> {
    let mut outers: Vec<(f64, Vec<[f32; 2]>)> = Vec::new();
    let mut islands: Vec<Vec<[f32; 2]>> = Vec::new();
    for ring in rings(grid, lake, id, nodes) {
        let area = doubled_area(&ring);
        let points = midpoints(grid, &ring);
        if area > 0.0 {
            outers.push((area, points));
        } else {
            islands.push(points);
        }
    }
    outers.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut parts: Vec<LakePart> = outers
        .iter()
        .map(|(_, outline)| LakePart {
            outline: outline.clone(),
            islands: Vec::new(),
        })
        .collect();
    for island in islands {
        // The smallest part around the island holds it (parts nest only through islands).
        let (x, z) = (island[0][0] as f64, island[0][1] as f64);
        let holder = (0..outers.len())
            .rev()
            .find(|&i| ring_contains(&outers[i].1, x, z));
        if let Some(i) = holder {
            parts[i].islands.push(island);
        }
    }
    parts
}

/// The rings of cell edges around lake `id` (its nodes: `nodes`), in doubled corner
/// coordinates.
fn rings(grid: &Grid, lake: &[u16], id: u16, nodes: &[usize]) -> Vec<Vec<Corner>> {
    let inside = |i: isize, j: isize| {
        i >= 0
            && j >= 0
            && (i as usize) < grid.nx
            && (j as usize) < grid.nz
            && lake[grid.idx(i as usize, j as usize)] == id
    };
    // Each corner's outgoing edges (at most two: a corner where lake cells touch diagonally).
    let mut out: BTreeMap<Corner, Vec<Corner>> = BTreeMap::new();
    for &k in nodes {
        let (i, j) = grid.ij(k);
        let (i, j) = (i as isize, j as isize);
        let (l, r, b, t) = (2 * i - 1, 2 * i + 1, 2 * j - 1, 2 * j + 1);
        if !inside(i, j - 1) {
            out.entry((l, b)).or_default().push((r, b));
        }
        if !inside(i + 1, j) {
            out.entry((r, b)).or_default().push((r, t));
        }
        if !inside(i, j + 1) {
            out.entry((r, t)).or_default().push((l, t));
        }
        if !inside(i - 1, j) {
            out.entry((l, t)).or_default().push((l, b));
        }
    }
    let mut rings = Vec::new();
    let starts: Vec<Corner> = out.keys().copied().collect();
    for start in starts {
        // A corner may start a ring, or two where parts touch; each walk takes its edges.
        while let Some(first) = out.get_mut(&start).and_then(|v| v.pop()) {
            let mut ring = vec![start];
            let (mut prev, mut cur) = (start, first);
            while cur != start {
                ring.push(cur);
                let Some(next) = out.get_mut(&cur).and_then(|v| take_leftmost(v, prev, cur)) else {
                    break; // unreachable: every corner a ring enters it also leaves
                };
                (prev, cur) = (cur, next);
            }
            rings.push(ring);
        }
    }
    rings
}

/// Removes and returns the edge out of `cur` that turns furthest left coming from `prev`.
fn take_leftmost(edges: &mut Vec<Corner>, prev: Corner, cur: Corner) -> Option<Corner> {
    let (dx, dz) = (cur.0 - prev.0, cur.1 - prev.1);
    // Cross product > 0 is a left turn; straight on scores 0; a right turn is negative.
    let turn = |n: &Corner| dx * (n.1 - cur.1) - dz * (n.0 - cur.0);
    let best = (0..edges.len()).max_by_key(|&i| turn(&edges[i]))?;
    Some(edges.swap_remove(best))
}

/// Twice the signed area of a ring in doubled coordinates (positive: counter-clockwise).
fn doubled_area(ring: &[Corner]) -> f64 {
    (0..ring.len())
        .map(|a| {
            let (p, q) = (ring[a], ring[(a + 1) % ring.len()]);
            (p.0 * q.1 - q.0 * p.1) as f64
        })
        .sum()
}

fn midpoints(grid: &Grid, ring: &[Corner]) -> Vec<[f32; 2]> {
    let half = grid.dx / 2.0;
    (0..ring.len())
        .map(|a| {
            let (p, q) = (ring[a], ring[(a + 1) % ring.len()]);
            let (mx, mz) = ((p.0 + q.0) as f64 / 2.0, (p.1 + q.1) as f64 / 2.0);
            [(grid.x0 + mx * half) as f32, (grid.z0 + mz * half) as f32]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use relief::flat::tables::ring_area;

    fn nodes_of(lake: &[u16], id: u16) -> Vec<usize> {
        (0..lake.len()).filter(|&k| lake[k] == id).collect()
    }

    fn grid(n: usize) -> Grid {
        Grid {
            nx: n,
            nz: n,
            dx: 10.0,
            x0: 0.0,
            z0: 0.0,
        }
    }

    #[test]
    fn a_square_lake_is_one_counter_clockwise_ring() {
        let g = grid(6);
        let mut lake = vec![0u16; 36];
        for j in 1..4 {
            for i in 1..4 {
                lake[g.idx(i, j)] = 1;
            }
        }
        let p = parts(&g, &lake, 1, &nodes_of(&lake, 1));
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].outline.len(), 12, "3×3 cells have 12 boundary edges");
        assert!(p[0].islands.is_empty());
        // Nine cells of 100 m², less half a cell for the cut corners.
        assert_eq!(ring_area(&p[0].outline), 850.0);
    }

    #[test]
    fn corner_touching_cells_are_two_parts_and_an_enclosed_cell_is_an_island() {
        let g = grid(8);
        let mut lake = vec![0u16; 64];
        lake[g.idx(1, 1)] = 1;
        lake[g.idx(2, 2)] = 1;
        let p = parts(&g, &lake, 1, &nodes_of(&lake, 1));
        assert_eq!(p.len(), 2, "two cells touching at a corner are two parts");
        assert!(p.iter().all(|p| p.outline.len() == 4));
        let mut ring = vec![0u16; 64];
        for j in 3..6 {
            for i in 3..6 {
                ring[g.idx(i, j)] = 2;
            }
        }
        ring[g.idx(4, 4)] = 0;
        let p = parts(&g, &ring, 2, &nodes_of(&ring, 2));
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].islands.len(), 1, "the land cell in the middle");
        assert!(ring_area(&p[0].islands[0]) < 0.0, "islands run clockwise");
    }

    proptest! {
        /// Over random lakes: every lake cell's centre is in the lake by the even-odd rule
        /// over all rings, every other cell's is not, and the rings' area is the cells' area
        /// within a cell a ring.
        #[test]
        fn rings_cover_exactly_the_lake_cells(cells in proptest::collection::vec(any::<bool>(), 100)) {
            let g = grid(10);
            let lake: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
            let p = parts(&g, &lake, 1, &nodes_of(&lake, 1));
            let rings: Vec<&Vec<[f32; 2]>> =
                p.iter().flat_map(|p| std::iter::once(&p.outline).chain(&p.islands)).collect();
            for (k, &id) in lake.iter().enumerate() {
                let (x, z) = g.pos(k);
                let hits = rings.iter().filter(|r| ring_contains(r, x, z)).count();
                prop_assert_eq!(hits % 2 == 1, id == 1, "cell {}", k);
            }
            let area: f64 = rings.iter().map(|r| ring_area(r)).sum();
            let cells = lake.iter().filter(|&&l| l == 1).count() as f64 * 100.0;
            prop_assert!((area - cells).abs() <= rings.len() as f64 * 100.0, "{} vs {}", area, cells);
            prop_assert!(p.iter().all(|p| ring_area(&p.outline) > 0.0));
        }
    }
}
