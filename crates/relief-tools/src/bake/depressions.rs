//! Ground water can't leave by running downhill: which depressions hold lakes, and what
//! becomes of the rest.
//!
//! A depression is a connected set of nodes that Priority-Flood (Barnes, Lehman & Mulla 2014)
//! lifts: ground lower than every way out. Its depth is the deepest node below the spill
//! level. Those passing [`LakeRules`] hold lakes at their spill level. The rest are *filled*
//! to the spill level (Priority-Flood + ε: water crosses them on an almost flat surface) or
//! *breached*: a channel is cut from the depression's lowest node back along the flood's way
//! out, over the lowest pass, falling all the way (Lindsay 2016, "Efficient hybrid
//! breaching-filling sink removal methods for flow path enforcement in digital elevation
//! models", Hydrological Processes 30(6); the complete breach along Priority-Flood's back
//! links). Breaching is what a hydrologist does to a DEM's small pits and to the digital dams
//! of its noise, roads and bridges across valley floors: water runs on down the valley rather
//! than spreading over a filled flat or standing in a lake that isn't there.
//!
//! Ground can also say where water stands: a flat water surface, which DEMs show as a patch of
//! exactly one height (a reservoir is a flat, not a pit). With [`LakeRules::flats`], a flat of
//! enough cells and area, most of whose surroundings rise above it, is a lake at its height.

use crate::bake::grid::Grid;
use crate::bake::routing::{key, Routing, FILL_EPSILON};

/// How depressions too small to hold a lake are removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Depressions {
    /// Cut a channel out over the lowest pass (Lindsay 2016): imports' default.
    Breach,
    /// Fill to the spill level (Barnes 2014).
    Fill,
    /// Filled, like `fill`, but with the bake's lenient lake thresholds as defaults and no
    /// flat lakes: every depression 1.5 m deep and 3,000 m² becomes a lake (what imports did
    /// before; hand-made ground, whose basins are meant).
    Lakes,
}

/// Which depressions and flats become lakes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LakeRules {
    pub depressions: Depressions,
    /// A depression's deepest node below its spill level, metres.
    pub min_depth_m: f64,
    /// A depression's or flat's area, m² (nodes × cell area).
    pub min_area_m2: f64,
    /// Nodes, so the area floor holds at any spacing (3,000 m² is under one 90 m cell).
    pub min_cells: usize,
    /// Flat water surfaces become lakes too.
    pub flats: bool,
}

/// Heights within this of a flat's first node belong to the flat, metres.
pub const FLAT_TOLERANCE_M: f64 = 1e-3;
/// The fewest nodes a flat lake has, whatever [`LakeRules::min_cells`] says.
pub const FLAT_MIN_CELLS: usize = 4;

impl LakeRules {
    /// The bake's rule: every depression 1.5 m deep and 3,000 m² is a lake (its lakes are
    /// made on purpose: uplift and erosion leave basins where it wants lakes).
    pub const BAKE: LakeRules = LakeRules {
        depressions: Depressions::Lakes,
        min_depth_m: 1.5,
        min_area_m2: 3_000.0,
        min_cells: 1,
        flats: false,
    };

    /// An import's defaults for `depressions`. Breaching and filling keep as lakes only
    /// depressions 30 m deep, 0.1 km² and 16 cells (deeper than the digital dams across DEM
    /// valley floors, 5–25 m) and flat water surfaces; `lakes` keeps the bake's thresholds
    /// (and a 4-cell floor), and no flats.
    pub fn import(depressions: Depressions) -> LakeRules {
        match depressions {
            Depressions::Lakes => LakeRules {
                depressions,
                min_cells: 4,
                ..LakeRules::BAKE
            },
            _ => LakeRules {
                depressions,
                min_depth_m: 30.0,
                min_area_m2: 100_000.0,
                min_cells: 16,
                flats: true,
            },
        }
    }

    fn keeps(&self, depth: f64, cells: usize, cell_area: f64) -> bool {
        depth >= self.min_depth_m
            && cells as f64 * cell_area >= self.min_area_m2
            && cells >= self.min_cells
    }
}

/// What became of the depressions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Depressions breached or filled.
    pub breached: usize,
    pub filled: usize,
    /// Lakes in depressions, and on flat water surfaces.
    pub depression_lakes: usize,
    pub flat_lakes: usize,
}

/// The ground with its depressions dealt with, and its lakes.
pub struct Shaped {
    /// Heights with small depressions breached or filled; lake beds kept.
    pub height: Vec<f64>,
    /// Lake id per node (1-based), 0 for none.
    pub lake: Vec<u16>,
    /// Each lake's water level, by id − 1.
    pub levels: Vec<f64>,
    /// Each lake's nodes, by id − 1.
    pub lakes: Vec<Vec<usize>>,
    pub counts: Counts,
}

/// Finds the lakes in `h` by `rules` and breaches or fills every other depression.
pub fn shape(grid: &Grid, h: &[f64], outlet: &[bool], rules: &LakeRules) -> Shaped {
    let n = grid.len();
    let cell = grid.dx * grid.dx;
    let filled = Routing::compute(grid, h, outlet).filled;
    let wet: Vec<bool> = (0..n)
        .map(|k| !outlet[k] && filled[k] - h[k] > 1e-3)
        .collect();
    let mut out = Shaped {
        height: h.to_vec(),
        lake: vec![0u16; n],
        levels: Vec::new(),
        lakes: Vec::new(),
        counts: Counts::default(),
    };
    let mut small = Vec::new();
    let mut seen = vec![false; n];
    for start in 0..n {
        if !wet[start] || seen[start] {
            continue;
        }
        let comp = grow(grid, start, &mut seen, |k| wet[k]);
        let depth = comp.iter().map(|&k| filled[k] - h[k]).fold(0.0, f64::max);
        if rules.keeps(depth, comp.len(), cell) && out.lakes.len() < u16::MAX as usize {
            let level = comp
                .iter()
                .map(|&k| filled[k])
                .fold(f64::INFINITY, f64::min);
            out.add_lake(comp, level);
            out.counts.depression_lakes += 1;
        } else {
            small.push(comp);
        }
    }
    if rules.flats {
        for flat in flats(grid, h, outlet, &out.lake, rules) {
            if out.lakes.len() == u16::MAX as usize {
                break;
            }
            let level = flat.iter().map(|&k| h[k]).fold(f64::MIN, f64::max);
            out.add_lake(flat, level);
            out.counts.flat_lakes += 1;
        }
    }
    match rules.depressions {
        Depressions::Breach => {
            breach(grid, &mut out.height, outlet, &out.lake, &out.levels);
            out.counts.breached = small.len();
        }
        Depressions::Fill | Depressions::Lakes => {
            for &k in small.iter().flatten() {
                if out.lake[k] == 0 {
                    out.height[k] = filled[k];
                }
            }
            out.counts.filled = small.len();
        }
    }
    out
}

impl Shaped {
    fn add_lake(&mut self, nodes: Vec<usize>, level: f64) {
        let id = self.lakes.len() as u16 + 1;
        for &k in &nodes {
            self.lake[k] = id;
        }
        self.levels.push(level);
        self.lakes.push(nodes);
    }
}

/// Makes water leave each lake at one place, as it leaves a real lake: where a lake drains
/// out to more than one node (a flat water surface whose shore the DEM puts a little below
/// it in places), every node of the lake is routed across it to the exit whose receiver is
/// lowest (ties: the lower index), along a breadth-first tree from that exit. Lakes that
/// already leave by one node keep their routing.
pub fn one_outlet_each(grid: &Grid, rt: &mut Routing, lake: &[u16], lakes: usize) {
    let n = lake.len();
    // Each lake's lowest exit node, and whether its water leaves to more than one node.
    let mut exit: Vec<Option<usize>> = vec![None; lakes + 1];
    let mut several = vec![false; lakes + 1];
    for k in 0..n {
        let l = lake[k] as usize;
        let r = rt.recv[k] as usize;
        if l == 0 || r == k || lake[r] as usize == l {
            continue;
        }
        match exit[l] {
            None => exit[l] = Some(k),
            Some(e) => {
                let re = rt.recv[e] as usize;
                several[l] |= re != r;
                if rt.filled[r]
                    .total_cmp(&rt.filled[re])
                    .then(r.cmp(&re))
                    .is_lt()
                {
                    exit[l] = Some(k);
                }
            }
        }
    }
    if !several.contains(&true) {
        return;
    }
    let mut recv = rt.recv.clone();
    let mut dist = rt.dist.clone();
    let mut seen = vec![false; n];
    for l in (1..=lakes).filter(|&l| several[l]) {
        let Some(e) = exit[l] else { continue };
        grow_from(
            grid,
            e,
            &mut seen,
            |k| lake[k] as usize == l,
            |nb, c, d| {
                recv[nb] = c as u32;
                dist[nb] = d;
            },
        );
    }
    // Outlets first, each node after its receiver.
    let mut donors: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    for (k, &r) in recv.iter().enumerate() {
        if r as usize == k {
            order.push(k as u32);
        } else {
            donors[r as usize].push(k as u32);
        }
    }
    let mut q = 0;
    while q < order.len() {
        let c = order[q] as usize;
        q += 1;
        order.extend_from_slice(&donors[c]);
    }
    // Every exit's way out falls below its lake's level, so no way out comes back to it; a
    // node left out would mean a cycle, and the flood's routing is kept instead.
    if order.len() == n {
        (rt.recv, rt.dist, rt.order) = (recv, dist, order);
    }
}

/// The D8-connected nodes from `start` for which `member` holds, marking them seen.
fn grow(
    grid: &Grid,
    start: usize,
    seen: &mut [bool],
    member: impl Fn(usize) -> bool,
) -> Vec<usize> {
    grow_from(grid, start, seen, member, |_, _, _| {})
}

/// [`grow`], telling `reached(node, from, distance)` how breadth-first search reached each
/// node after `start`.
fn grow_from(
    grid: &Grid,
    start: usize,
    seen: &mut [bool],
    member: impl Fn(usize) -> bool,
    mut reached: impl FnMut(usize, usize, f64),
) -> Vec<usize> {
    let mut comp = vec![start];
    seen[start] = true;
    let mut q = 0;
    while q < comp.len() {
        let c = comp[q];
        q += 1;
        grid.each_neighbour(c, |nb, d| {
            if !seen[nb] && member(nb) {
                seen[nb] = true;
                reached(nb, c, d);
                comp.push(nb);
            }
        });
    }
    comp
}

/// Flat water surfaces: nodes within [`FLAT_TOLERANCE_M`] of one height, enough of them by
/// `rules`, not outlets or lakes already, and with more than half of the steps off the flat
/// climbing (water stands in a flat the ground rises around; a plateau or a whole flat map
/// is not a lake).
fn flats(
    grid: &Grid,
    h: &[f64],
    outlet: &[bool],
    lake: &[u16],
    rules: &LakeRules,
) -> Vec<Vec<usize>> {
    let cell = grid.dx * grid.dx;
    let free = |k: usize| !outlet[k] && lake[k] == 0;
    let mut seen = vec![false; grid.len()];
    let mut found = Vec::new();
    for start in 0..grid.len() {
        if seen[start] || !free(start) {
            continue;
        }
        let at = h[start];
        let flat = grow(grid, start, &mut seen, |k| {
            free(k) && (h[k] - at).abs() <= FLAT_TOLERANCE_M
        });
        let cells = flat.len();
        if cells < rules.min_cells.max(FLAT_MIN_CELLS) || (cells as f64) * cell < rules.min_area_m2
        {
            continue;
        }
        let (mut steps, mut climbing) = (0usize, 0usize);
        for &k in &flat {
            grid.each_neighbour(k, |nb, _| {
                let on_flat = free(nb) && (h[nb] - at).abs() <= FLAT_TOLERANCE_M;
                if !on_flat {
                    steps += 1;
                    climbing += (h[nb] > at + FLAT_TOLERANCE_M) as usize;
                }
            });
        }
        if 2 * climbing > steps {
            found.push(flat);
        }
    }
    found
}

/// Breaches every depression outside the lakes: a Priority-Flood from the outlets keeps, for
/// each node, the node it was reached from; when it reaches a node lower than that one (inside
/// a depression, over its lowest pass), the way back to the outlet is lowered so it falls by
/// at least ε a step from the new node. Each way is already falling beyond the first node low
/// enough (it was made so when that node was reached), so the walk back stops there. Lakes
/// flood at their level and are never cut: a lake below the way it is reached by has the way
/// cut down to its level (the dam before a flat lake), and a node whose way out would have to
/// pass a lake below its level is filled instead, like any node a step above the one it was
/// reached from.
fn breach(grid: &Grid, z: &mut [f64], outlet: &[bool], lake: &[u16], levels: &[f64]) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = grid.len();
    let level = |z: &[f64], k: usize| match lake[k] {
        0 => z[k],
        id => levels[id as usize - 1],
    };
    let mut from = vec![u32::MAX; n];
    let mut seen = vec![false; n];
    let mut heap = BinaryHeap::new();
    for k in 0..n {
        if outlet[k] {
            seen[k] = true;
            heap.push(Reverse((key(z[k]), k as u32)));
        }
    }
    while let Some(Reverse((_, c))) = heap.pop() {
        let c = c as usize;
        let zc = level(z, c);
        grid.each_neighbour(c, |nb, _| {
            if seen[nb] {
                return;
            }
            seen[nb] = true;
            from[nb] = c as u32;
            let low = level(z, nb);
            let cut = low < zc && way_down(z, outlet, lake, &from, c, low, false);
            if cut {
                way_down(z, outlet, lake, &from, c, low, true);
            } else if lake[nb] == 0 && z[nb] < zc + FILL_EPSILON {
                z[nb] = zc + FILL_EPSILON;
            }
            heap.push(Reverse((key(level(z, nb)), nb as u32)));
        });
    }
}

/// Walks the way out back from `p`, each node at least ε below the one before, starting
/// below `low`; lowers it when `apply`. Whether the way can be cut: false when it meets a
/// lake first (the way would pass below the lake's level). The world's edge can be cut:
/// water leaves there.
fn way_down(
    z: &mut [f64],
    outlet: &[bool],
    lake: &[u16],
    from: &[u32],
    mut p: usize,
    low: f64,
    apply: bool,
) -> bool {
    let mut want = low;
    loop {
        if lake[p] != 0 {
            return false;
        }
        want -= FILL_EPSILON;
        if z[p] <= want {
            return true;
        }
        if apply {
            z[p] = want;
        }
        if outlet[p] {
            return true;
        }
        p = from[p] as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn grid(nx: usize, nz: usize, dx: f64) -> Grid {
        Grid {
            nx,
            nz,
            dx,
            x0: 0.0,
            z0: 0.0,
        }
    }

    fn border(g: &Grid) -> Vec<bool> {
        (0..g.len()).map(|k| g.on_border(k)).collect()
    }

    /// Whether no depression is left outside the lakes: Priority-Flood lifts no other node
    /// by more than the millimetre a depression must be deep.
    fn drains(g: &Grid, z: &[f64], outlet: &[bool], lake: &[u16]) -> bool {
        let f = Routing::compute(g, z, outlet).filled;
        (0..g.len()).all(|k| lake[k] != 0 || f[k] - z[k] <= 1e-3)
    }

    /// A valley falling to the east edge with a dam of noise across it 10 m high.
    fn dammed_valley(g: &Grid) -> Vec<f64> {
        (0..g.len())
            .map(|k| {
                let (i, j) = g.ij(k);
                let valley = 100.0 + 0.5 * (g.nx - 1 - i) as f64;
                let sides = 3.0 * (j as f64 - (g.nz / 2) as f64).abs();
                let dam = if i == g.nx / 2 { 10.0 } else { 0.0 };
                valley + sides + dam
            })
            .collect()
    }

    #[test]
    fn a_dam_of_noise_is_breached_not_a_lake_and_only_the_way_out_is_cut() {
        let g = grid(40, 21, 90.0);
        let h = dammed_valley(&g);
        let outlet = border(&g);
        let s = shape(&g, &h, &outlet, &LakeRules::import(Depressions::Breach));
        assert!(
            s.lakes.is_empty(),
            "a 10 m dam holds no lake by the import rules"
        );
        assert_eq!(s.counts.breached, 1);
        assert!(drains(&g, &s.height, &outlet, &s.lake));
        let cut: Vec<usize> = (0..g.len()).filter(|&k| s.height[k] < h[k]).collect();
        assert!(
            !cut.is_empty() && cut.len() <= g.nx,
            "a channel, not the valley: {}",
            cut.len()
        );
        assert!(
            (0..g.len()).all(|k| s.height[k] <= h[k] + 1e-3),
            "breaching only cuts"
        );
        let lakes = shape(&g, &h, &outlet, &LakeRules::BAKE);
        assert_eq!(lakes.lakes.len(), 1, "the bake's rule keeps it as a lake");
        let filled = shape(&g, &h, &outlet, &LakeRules::import(Depressions::Fill));
        assert!(filled.lakes.is_empty() && filled.counts.filled == 1);
        assert!(drains(&g, &filled.height, &outlet, &filled.lake));
        assert!(
            (0..g.len()).all(|k| filled.height[k] >= h[k]),
            "filling only raises"
        );
    }

    #[test]
    fn a_flat_the_ground_rises_around_is_a_lake_and_a_flat_map_is_not() {
        let g = grid(30, 30, 50.0);
        let outlet = border(&g);
        let rules = LakeRules::import(Depressions::Breach);
        // A bowl with a flat floor at 100 m whose east side is open to the edge.
        let h: Vec<f64> = (0..g.len())
            .map(|k| {
                let (i, j) = g.ij(k);
                let d = ((i as f64 - 15.0).powi(2) + (j as f64 - 15.0).powi(2)).sqrt();
                if d < 8.0 || (i > 15 && (13..=17).contains(&j)) {
                    100.0
                } else {
                    100.0 + (d - 7.0) * 5.0
                }
            })
            .collect();
        let s = shape(&g, &h, &outlet, &rules);
        assert_eq!(s.counts.flat_lakes, 1, "{:?}", s.counts);
        assert_eq!(s.levels, [100.0]);
        // Its channel meets the edge along five nodes; routed, it leaves by one.
        let mut rt = Routing::compute(&g, &s.height, &outlet);
        let exits = |rt: &Routing| {
            let mut out: Vec<u32> = (0..g.len())
                .filter(|&k| s.lake[k] == 1 && s.lake[rt.recv[k] as usize] != 1)
                .map(|k| rt.recv[k])
                .collect();
            out.sort();
            out.dedup();
            out.len()
        };
        assert!(exits(&rt) > 1);
        one_outlet_each(&g, &mut rt, &s.lake, s.lakes.len());
        assert_eq!(exits(&rt), 1);
        let mut at = vec![usize::MAX; g.len()];
        for (i, &k) in rt.order.iter().enumerate() {
            at[k as usize] = i;
        }
        assert!(
            (0..g.len()).all(|k| at[rt.recv[k] as usize] <= at[k]),
            "receivers first"
        );
        let area = rt.accumulate(&vec![1.0; g.len()]);
        let total: f64 = (0..g.len())
            .filter(|&k| rt.recv[k] as usize == k)
            .map(|k| area[k])
            .sum();
        assert_eq!(total, g.len() as f64, "every node drains to one outlet");
        let flat = vec![7.0; g.len()];
        assert!(shape(&g, &flat, &outlet, &rules).lakes.is_empty());
        let mesa: Vec<f64> = h.iter().map(|v| 300.0 - v).collect();
        assert!(
            shape(&g, &mesa, &outlet, &rules).lakes.is_empty(),
            "a plateau"
        );
    }

    proptest! {
        /// On random ground every rule leaves water a way downhill from every node outside
        /// the lakes, breaching only ever lowers and filling only ever raises.
        #[test]
        fn every_node_drains_after_breaching_or_filling(seed in any::<u64>(), nx in 3usize..24, nz in 3usize..24) {
            let g = grid(nx, nz, 30.0);
            let mut x = seed | 1;
            let h: Vec<f64> = (0..g.len()).map(|_| { x ^= x << 13; x ^= x >> 7; x ^= x << 17; (x % 2000) as f64 / 10.0 }).collect();
            let outlet = border(&g);
            // Breaching around lakes too: the bake's thresholds keep many.
            let lakes_kept = LakeRules { depressions: Depressions::Breach, ..LakeRules::BAKE };
            let rules = [
                LakeRules::import(Depressions::Breach),
                LakeRules::import(Depressions::Fill),
                LakeRules::import(Depressions::Lakes),
                lakes_kept,
            ];
            for r in rules {
                let d = r.depressions;
                let s = shape(&g, &h, &outlet, &r);
                prop_assert!(drains(&g, &s.height, &outlet, &s.lake), "{:?}", d);
                // Without lakes, breaching only cuts; a way out past a lake's level is filled
                // instead, never above the spill level filling would give.
                let spill = Routing::compute(&g, &h, &outlet).filled;
                for (k, &after) in s.height.iter().enumerate() {
                    if s.lake[k] == 0 {
                        match d {
                            Depressions::Breach if s.lakes.is_empty() => {
                                prop_assert!(after <= h[k] + 1e-3)
                            }
                            Depressions::Breach => prop_assert!(after <= spill[k] + 1e-3),
                            _ => prop_assert!(after >= h[k]),
                        }
                    }
                }
            }
        }
    }
}
