//! Rivers and lakes read off the eroded (or imported) heights; nothing is drawn.
//!
//! Lakes are where [`depressions`](crate::bake::depressions) finds them (the bake: every
//! depression at least 3,000 m² in area and 1.5 m deep, at its spill level); other
//! depressions are breached or filled. Water then follows the chosen [`Flow`]; a node is a
//! creek once 0.045 km² drains through it and a river at 0.45 km². A reach is the channel
//! between two joins, or from a lake's outlet. Width follows hydraulic geometry, w ∝ A^0.4
//! (Leopold & Maddock 1953), and each bed falls strictly all the way to the sea or its lake.

use crate::bake::depressions::{self, Counts, LakeRules};
use crate::bake::grid::Grid;
use crate::bake::routing::{Flow, Routing};
use crate::bake::shore;
use relief::flat::tables::{Lake, Reach, ReachEnd, ReachKind};

pub const CREEK_AREA_M2: f64 = 45_000.0;
pub const RIVER_AREA_M2: f64 = 450_000.0;
/// The bake's lake thresholds ([`LakeRules::BAKE`]).
pub const LAKE_MIN_AREA_M2: f64 = LakeRules::BAKE.min_area_m2;
pub const LAKE_MIN_DEPTH_M: f64 = LakeRules::BAKE.min_depth_m;
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
    /// What became of the depressions.
    pub depressions: Counts,
}

/// Rivers and lakes on heights `h` (one per node), water leaving at the nodes marked `ocean`
/// (the sea, and an import's edges and gaps); `rules` say which depressions and flats hold
/// lakes and how the rest are removed.
pub fn analyse(
    grid: &Grid,
    h: &[f64],
    ocean: &[bool],
    precip: &[f64],
    flow: Flow,
    rules: &LakeRules,
) -> Hydrology {
    let n = grid.len();
    let cell = grid.dx * grid.dx;
    let depressions::Shaped {
        height,
        lake,
        levels,
        lakes: lake_nodes,
        counts,
    } = depressions::shape(grid, h, ocean, rules);

    let mut rt = Routing::compute_with(grid, &height, ocean, flow);
    depressions::one_outlet_each(grid, &mut rt, &lake, levels.len());
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
    // A reach begins at a source, below a join, and wherever water leaves a lake (whatever
    // else joins it there).
    let is_head = |k: usize| channel[k] && (inputs[k] != 1 || lake_input[k] != 0);

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
            (_, l) if l != 0 => ReachEnd::Lake(l as u32),
            (0, _) => ReachEnd::Source,
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
    let lakes: Vec<Lake> = lake_nodes
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
                parts: shore::parts(grid, &lake, id, nodes),
                outlet: [ox as f32, oz as f32],
                drains_to,
            }
        })
        .collect();
    strahler(&mut reaches, &lakes);
    Hydrology {
        height,
        routing: rt,
        area,
        lake,
        lakes,
        reaches,
        depressions: counts,
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

/// Strahler order; reaches flow into lower ids, so one pass from the highest id suffices. A
/// lake passes on the order of what flows into it (reaches, and lakes draining into it), so
/// order continues through lakes; the reach leaving a lake takes that with whatever else
/// joins it at its head.
fn strahler(reaches: &mut [Reach], lakes: &[Lake]) {
    let n = reaches.len();
    let mut ups: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut lake_ups: Vec<Vec<u8>> = vec![Vec::new(); lakes.len() + 1];
    for id in (0..n).rev() {
        let mut incoming = std::mem::take(&mut ups[id]);
        if let ReachEnd::Lake(l) = reaches[id].from {
            incoming.push(lake_order(l, &lake_ups, lakes, 0));
        }
        let order = combine(&incoming);
        reaches[id].order = order;
        match reaches[id].to {
            ReachEnd::Reach(d) => ups[d as usize].push(order),
            ReachEnd::Lake(l) => lake_ups[l as usize].push(order),
            _ => {}
        }
    }
}

/// The order a lake passes on: its inflowing reaches' with the lakes draining into it.
fn lake_order(l: u32, lake_ups: &[Vec<u8>], lakes: &[Lake], depth: usize) -> u8 {
    let mut incoming = lake_ups[l as usize].clone();
    // Lakes drain into one another along a tree; the depth bound only guards a table made
    // by hand.
    if depth < lakes.len() {
        incoming.extend(
            lakes
                .iter()
                .filter(|u| u.drains_to == ReachEnd::Lake(l))
                .map(|u| lake_order(u.id, lake_ups, lakes, depth + 1)),
        );
    }
    combine(&incoming)
}

/// Strahler's rule: 1 for none; the highest, plus one when two or more share it.
fn combine(orders: &[u8]) -> u8 {
    match orders.iter().max() {
        None => 1,
        Some(&mx) if orders.iter().filter(|&&o| o == mx).count() >= 2 => mx.saturating_add(1),
        Some(&mx) => mx,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A lake fed by creeks spills through a notch where another creek joins: the reach
    /// leaving the notch is `from: lake` though its head has inflows besides the lake, and its
    /// order is the lake's (what feeds it) taken with the side creek's.
    #[test]
    fn a_lake_outflow_with_a_creek_joining_at_the_outlet_is_from_the_lake() {
        let grid = Grid {
            nx: 20,
            nz: 20,
            dx: 100.0,
            x0: 0.0,
            z0: 0.0,
        };
        // Floors of the lake bed, the notch, the valley below and three creeks; everything
        // else rises 20 m a cell from the nearest floor.
        let mut floor: Vec<((usize, usize), f64)> = Vec::new();
        for i in 3..=6 {
            for j in 8..=12 {
                floor.push(((i, j), 40.0));
            }
        }
        floor.push(((7, 10), 55.0));
        floor.push(((8, 10), 54.9));
        floor.extend((9..20).map(|i| ((i, 10), 54.5 - 0.5 * (i - 9) as f64)));
        // The side creek comes in on the diagonal, so it meets the notch, not the lake.
        floor.extend((0..9).map(|d| ((7 + d, 11 + d), 55.5 + 0.5 * d as f64)));
        floor.extend((13..20).map(|j| ((4, j), 56.0 + (j - 13) as f64)));
        floor.extend((0..8).map(|j| ((5, j), 56.0 + (7 - j) as f64)));
        let h: Vec<f64> = (0..grid.len())
            .map(|k| {
                let (i, j) = grid.ij(k);
                floor
                    .iter()
                    .map(|&((fi, fj), f)| {
                        let d = (i as isize - fi as isize)
                            .abs()
                            .max((j as isize - fj as isize).abs());
                        f + 20.0 * d as f64
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        let ocean: Vec<bool> = (0..grid.len()).map(|k| grid.on_border(k)).collect();
        let precip = vec![800.0; grid.len()];
        let hy = analyse(&grid, &h, &ocean, &precip, Flow::Steepest, &LakeRules::BAKE);
        assert_eq!(hy.lakes.len(), 1);
        let notch = [700.0f32, 1000.0];
        let out = hy
            .reaches
            .iter()
            .find(|r| r.points[0][0] == notch[0] && r.points[0][1] == notch[1])
            .unwrap_or_else(|| {
                let brief: Vec<_> = hy
                    .reaches
                    .iter()
                    .map(|r| (r.id, r.from, r.to, r.points[0], r.points.len()))
                    .collect();
                panic!("no reach starts at the notch: {brief:?} {:?}", hy.lake)
            });
        assert_eq!(out.from, ReachEnd::Lake(1));
        let joining: Vec<&Reach> = hy
            .reaches
            .iter()
            .filter(|r| r.to == ReachEnd::Reach(out.id))
            .collect();
        assert_eq!(joining.len(), 1, "the side creek joins at the notch");
        let feeding: Vec<u8> = hy
            .reaches
            .iter()
            .filter(|r| r.to == ReachEnd::Lake(1))
            .map(|r| r.order)
            .collect();
        assert!(feeding.len() >= 2, "the creeks feed the lake: {feeding:?}");
        let lake = combine(&feeding);
        assert!(lake >= 2, "two or more order-1 creeks make order 2");
        assert_eq!(out.order, combine(&[lake, joining[0].order]));
    }

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
}
