//! Rivers and lakes read off the eroded heights; nothing is drawn.
//!
//! Depressions at least 3,000 m² in area and 1.5 m deep become lakes at their spill level;
//! shallower ones are filled. Water then follows steepest descent; a node is a creek once
//! 0.045 km² drains through it and a river at 0.45 km². A reach is the channel between two
//! joins. Width follows hydraulic geometry, w ∝ A^0.4 (Leopold & Maddock 1953), and each bed
//! falls strictly all the way to the sea or its lake.

use crate::bake::grid::Grid;
use crate::bake::routing::{Flow, Routing};
use relief::flat::tables::{Lake, Reach, ReachEnd, ReachKind};

pub const CREEK_AREA_M2: f64 = 45_000.0;
pub const RIVER_AREA_M2: f64 = 450_000.0;
pub const LAKE_MIN_AREA_M2: f64 = 3_000.0;
pub const LAKE_MIN_DEPTH_M: f64 = 1.5;
/// Width at 1 km² drained; w = WIDTH_AT_KM2 · (A / km²)^0.4.
pub const WIDTH_AT_KM2: f64 = 4.0;
pub const WIDTH_EXPONENT: f64 = 0.4;
/// The gentlest a bed may fall, so every bed strictly descends.
pub const MIN_BED_GRADE: f64 = 1e-4;
/// Share of precipitation that runs off rather than evaporating.
const RUNOFF: f64 = 0.45;
const SECONDS_PER_YEAR: f64 = 31_556_952.0;

pub fn channel_width(area_m2: f64) -> f64 {
    WIDTH_AT_KM2 * libm::pow(area_m2 / 1e6, WIDTH_EXPONENT)
}

/// Depth of the channel below the surrounding ground, metres.
pub fn channel_depth(width: f64) -> f64 {
    0.3 + 0.25 * libm::pow(width, 0.6)
}

pub struct Hydrology {
    /// Heights with small depressions filled; lake beds kept.
    pub height: Vec<f64>,
    pub routing: Routing,
    /// Drained area per node, m².
    pub area: Vec<f64>,
    /// Lake id per node (1-based), 0 for none.
    pub lake: Vec<u16>,
    pub lakes: Vec<Lake>,
    pub reaches: Vec<Reach>,
}

pub fn analyse(grid: &Grid, h: &[f64], ocean: &[bool], precip: &[f64], flow: Flow) -> Hydrology {
    let n = grid.len();
    let cell = grid.dx * grid.dx;
    let first = Routing::compute_with(grid, h, ocean, flow);

    // Depressions: connected nodes the flood lifted.
    let wet: Vec<bool> = (0..n)
        .map(|k| !ocean[k] && first.filled[k] - h[k] > 1e-3)
        .collect();
    let mut lake = vec![0u16; n];
    let mut height = h.to_vec();
    let mut lake_nodes: Vec<Vec<usize>> = Vec::new();
    let mut levels = Vec::new();
    let mut seen = vec![false; n];
    for start in 0..n {
        if !wet[start] || seen[start] {
            continue;
        }
        let mut comp = vec![start];
        seen[start] = true;
        let mut q = 0;
        while q < comp.len() {
            let c = comp[q];
            q += 1;
            grid.each_neighbour(c, |nb, _| {
                if wet[nb] && !seen[nb] {
                    seen[nb] = true;
                    comp.push(nb);
                }
            });
        }
        let depth = comp
            .iter()
            .map(|&k| first.filled[k] - h[k])
            .fold(0.0, f64::max);
        let area = comp.len() as f64 * cell;
        if area >= LAKE_MIN_AREA_M2
            && depth >= LAKE_MIN_DEPTH_M
            && lake_nodes.len() < u16::MAX as usize
        {
            let id = lake_nodes.len() as u16 + 1;
            for &k in &comp {
                lake[k] = id;
            }
            levels.push(
                comp.iter()
                    .map(|&k| first.filled[k])
                    .fold(f64::INFINITY, f64::min),
            );
            lake_nodes.push(comp);
        } else {
            for &k in &comp {
                height[k] = first.filled[k];
            }
        }
    }

    let rt = Routing::compute_with(grid, &height, ocean, flow);
    let area = rt.accumulate(&vec![cell; n]);
    let runoff: Vec<f64> = precip
        .iter()
        .map(|p| p / 1000.0 * RUNOFF * cell / SECONDS_PER_YEAR)
        .collect();
    let discharge = rt.accumulate(&runoff);
    let channel: Vec<bool> = (0..n)
        .map(|k| !ocean[k] && lake[k] == 0 && area[k] >= CREEK_AREA_M2)
        .collect();

    // Inputs of each channel node: donors that are channel or lake nodes.
    let mut inputs = vec![0u8; n];
    let mut lake_input = vec![0u16; n];
    for k in 0..n {
        let r = rt.recv[k] as usize;
        if r != k && channel[r] && (channel[k] || lake[k] != 0) {
            inputs[r] = inputs[r].saturating_add(1);
            if lake[k] != 0 {
                lake_input[r] = lake[k];
            }
        }
    }
    let is_head = |k: usize| channel[k] && !(inputs[k] == 1 && lake_input[k] == 0);

    // Beds, upstream first: at most the ground minus channel depth, and strictly below every
    // channel node draining into it.
    let mut bed: Vec<f64> = (0..n)
        .map(|k| height[k] - channel_depth(channel_width(area[k])))
        .collect();
    for &k in rt.order.iter().rev() {
        let k = k as usize;
        let r = rt.recv[k] as usize;
        if channel[k] && r != k {
            let limit = bed[k] - MIN_BED_GRADE * rt.dist[k];
            if channel[r] {
                bed[r] = bed[r].min(limit);
            } else {
                // The mouth point in the sea or a lake: the ground there, or lower.
                bed[r] = height[r].min(bed[r]).min(limit);
            }
        }
    }

    // Reach ids in outlet-first order, so a reach always flows into a lower id.
    let mut reach_of = vec![u32::MAX; n];
    let heads: Vec<usize> = rt
        .order
        .iter()
        .map(|&k| k as usize)
        .filter(|&k| is_head(k))
        .collect();
    for (id, &k) in heads.iter().enumerate() {
        reach_of[k] = id as u32;
    }
    let mut reaches = Vec::with_capacity(heads.len());
    for (id, &head) in heads.iter().enumerate() {
        let from = match (inputs[head], lake_input[head]) {
            (0, _) => ReachEnd::Source,
            (1, l) if l != 0 => ReachEnd::Lake(l as u32),
            _ => ReachEnd::Join,
        };
        let mut nodes = vec![head];
        let mut cur = head;
        let (to, end) = loop {
            let nx = rt.recv[cur] as usize;
            if ocean[nx] {
                break (ReachEnd::Sea, nx);
            }
            if lake[nx] != 0 {
                break (ReachEnd::Lake(lake[nx] as u32), nx);
            }
            if is_head(nx) {
                break (ReachEnd::Reach(reach_of[nx]), nx);
            }
            reach_of[nx] = id as u32;
            nodes.push(nx);
            cur = nx;
        };
        let mouth = *nodes.last().unwrap();
        let mut points: Vec<[f64; 3]> = nodes
            .iter()
            .chain(std::iter::once(&end))
            .map(|&k| {
                let (x, z) = grid.pos(k);
                [x, z, bed[k]]
            })
            .collect();
        points = chaikin(&points);
        let length: f64 = points
            .windows(2)
            .map(|w| libm::hypot(w[1][0] - w[0][0], w[1][1] - w[0][1]))
            .sum();
        reaches.push(Reach {
            id: id as u32,
            kind: if area[mouth] >= RIVER_AREA_M2 {
                ReachKind::River
            } else {
                ReachKind::Creek
            },
            order: 1,
            width_m: channel_width(area[mouth]) as f32,
            head_width_m: channel_width(area[head]) as f32,
            discharge_m3s: discharge[mouth] as f32,
            drains_km2: (area[mouth] / 1e6) as f32,
            head_drains_km2: (area[head] / 1e6) as f32,
            length_m: length as f32,
            drop_m: (points[0][2] - points[points.len() - 1][2]) as f32,
            from,
            to,
            points: points
                .iter()
                .map(|p| [p[0] as f32, p[1] as f32, p[2] as f32])
                .collect(),
        });
    }
    strahler(&mut reaches);

    let lakes = lake_nodes
        .iter()
        .enumerate()
        .map(|(i, nodes)| {
            let id = i as u16 + 1;
            let exit = nodes
                .iter()
                .copied()
                .filter(|&k| lake[rt.recv[k] as usize] != id)
                .max_by(|&a, &b| area[a].total_cmp(&area[b]).then(b.cmp(&a)))
                .unwrap_or(nodes[0]);
            let pass = rt.recv[exit] as usize;
            let drains_to = downstream_of(pass, &rt, ocean, &lake, &reach_of, id);
            let (ox, oz) = grid.pos(pass);
            let level = levels[i];
            Lake {
                id: id as u32,
                level_m: level as f32,
                area_m2: nodes.len() as f64 * cell,
                depth_m: nodes.iter().map(|&k| level - height[k]).fold(0.0, f64::max) as f32,
                outline: outline(grid, &lake, id),
                outlet: [ox as f32, oz as f32],
                drains_to,
            }
        })
        .collect();
    Hydrology {
        height,
        routing: rt,
        area,
        lake,
        lakes,
        reaches,
    }
}

/// What water leaving a lake at `start` reaches first: a reach, the sea or another lake.
fn downstream_of(
    start: usize,
    rt: &Routing,
    ocean: &[bool],
    lake: &[u16],
    reach_of: &[u32],
    own: u16,
) -> ReachEnd {
    let mut k = start;
    loop {
        if ocean[k] {
            return ReachEnd::Sea;
        }
        if lake[k] != 0 && lake[k] != own {
            return ReachEnd::Lake(lake[k] as u32);
        }
        if reach_of[k] != u32::MAX {
            return ReachEnd::Reach(reach_of[k]);
        }
        let r = rt.recv[k] as usize;
        if r == k {
            return ReachEnd::Sea;
        }
        k = r;
    }
}

/// Strahler order; reaches flow into lower ids, so one pass from the highest id suffices.
fn strahler(reaches: &mut [Reach]) {
    let n = reaches.len();
    let mut ups: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut lake_ups: std::collections::HashMap<u32, Vec<u8>> = Default::default();
    for id in (0..n).rev() {
        let incoming = match reaches[id].from {
            ReachEnd::Lake(l) => lake_ups.get(&l).cloned().unwrap_or_default(),
            _ => std::mem::take(&mut ups[id]),
        };
        let order = match incoming.iter().max() {
            None => 1,
            Some(&mx) if incoming.iter().filter(|&&o| o == mx).count() >= 2 => mx + 1,
            Some(&mx) => mx,
        };
        reaches[id].order = order;
        match reaches[id].to {
            ReachEnd::Reach(d) => ups[d as usize].push(order),
            ReachEnd::Lake(l) => lake_ups.entry(l).or_default().push(order),
            _ => {}
        }
    }
}

/// One pass of Chaikin corner cutting with the end points kept: D8 zigzags become curves,
/// and every new point is a convex mix of two neighbours, so a falling bed keeps falling.
fn chaikin(p: &[[f64; 3]]) -> Vec<[f64; 3]> {
    if p.len() < 3 {
        return p.to_vec();
    }
    let mix = |a: &[f64; 3], b: &[f64; 3], t: f64| {
        [
            a[0] + (b[0] - a[0]) * t,
            a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t,
        ]
    };
    let mut out = vec![p[0]];
    for (i, w) in p.windows(2).enumerate() {
        if i > 0 {
            out.push(mix(&w[0], &w[1], 0.25));
        }
        if i + 2 < p.len() {
            out.push(mix(&w[0], &w[1], 0.75));
        }
    }
    out.push(p[p.len() - 1]);
    out
}

/// The lake's shoreline: the longest counter-clockwise ring of cell edges between lake and
/// land, returned as the midpoints of those edges (which cuts the staircase's corners).
fn outline(grid: &Grid, lake: &[u16], id: u16) -> Vec<[f32; 2]> {
    use std::collections::BTreeMap;
    let inside = |i: isize, j: isize| {
        i >= 0
            && j >= 0
            && (i as usize) < grid.nx
            && (j as usize) < grid.nz
            && lake[grid.idx(i as usize, j as usize)] == id
    };
    // Corners in doubled integer coordinates; edges directed with the lake on their left.
    let mut edges: BTreeMap<(isize, isize), Vec<(isize, isize)>> = BTreeMap::new();
    for (k, &l) in lake.iter().enumerate() {
        if l != id {
            continue;
        }
        let (i, j) = grid.ij(k);
        let (i, j) = (i as isize, j as isize);
        let (l, r, b, t) = (2 * i - 1, 2 * i + 1, 2 * j - 1, 2 * j + 1);
        if !inside(i, j - 1) {
            edges.entry((l, b)).or_default().push((r, b));
        }
        if !inside(i + 1, j) {
            edges.entry((r, b)).or_default().push((r, t));
        }
        if !inside(i, j + 1) {
            edges.entry((r, t)).or_default().push((l, t));
        }
        if !inside(i - 1, j) {
            edges.entry((l, t)).or_default().push((l, b));
        }
    }
    let mut best: Vec<(isize, isize)> = Vec::new();
    let mut best_area = f64::NEG_INFINITY;
    while let Some((&start, _)) = edges.iter().find(|(_, v)| !v.is_empty()) {
        let mut ring = vec![start];
        let mut cur = start;
        while let Some(next) = edges.get_mut(&cur).and_then(|v| v.pop()) {
            if next == start {
                break;
            }
            ring.push(next);
            cur = next;
        }
        let area: f64 = (0..ring.len())
            .map(|a| {
                let (p, q) = (ring[a], ring[(a + 1) % ring.len()]);
                (p.0 * q.1 - q.0 * p.1) as f64
            })
            .sum();
        if area > best_area {
            best_area = area;
            best = ring;
        }
    }
    let half = grid.dx / 2.0;
    (0..best.len())
        .map(|a| {
            let (p, q) = (best[a], best[(a + 1) % best.len()]);
            let (mx, mz) = ((p.0 + q.0) as f64 / 2.0, (p.1 + q.1) as f64 / 2.0);
            [(grid.x0 + mx * half) as f32, (grid.z0 + mz * half) as f32]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chaikin_keeps_ends_and_falling_beds() {
        let p = vec![
            [0.0, 0.0, 10.0],
            [16.0, 0.0, 9.0],
            [32.0, 16.0, 8.5],
            [48.0, 16.0, 2.0],
        ];
        let c = chaikin(&p);
        assert_eq!(c[0], p[0]);
        assert_eq!(*c.last().unwrap(), p[3]);
        assert!(c.windows(2).all(|w| w[1][2] < w[0][2]));
    }

    #[test]
    fn a_square_lake_outline_is_its_boundary_counter_clockwise() {
        let grid = Grid {
            nx: 6,
            nz: 6,
            dx: 10.0,
            x0: 0.0,
            z0: 0.0,
        };
        let mut lake = vec![0u16; 36];
        for j in 1..4 {
            for i in 1..4 {
                lake[grid.idx(i, j)] = 1;
            }
        }
        let o = outline(&grid, &lake, 1);
        assert_eq!(o.len(), 12, "3×3 cells have 12 boundary edges");
        let area: f32 = (0..o.len())
            .map(|a| o[a][0] * o[(a + 1) % o.len()][1] - o[(a + 1) % o.len()][0] * o[a][1])
            .sum::<f32>()
            / 2.0;
        assert!(area > 0.0, "counter-clockwise");
        assert!(o
            .iter()
            .all(|p| (5.0..=35.0).contains(&p[0]) && (5.0..=35.0).contains(&p[1])));
    }
}
