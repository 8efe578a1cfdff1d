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
            breach(grid, &mut out.height, outlet, &out.lake, &filled);
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

/// The D8-connected nodes from `start` for which `member` holds, marking them seen.
fn grow(
    grid: &Grid,
    start: usize,
    seen: &mut [bool],
    member: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut comp = vec![start];
    seen[start] = true;
    let mut q = 0;
    while q < comp.len() {
        let c = comp[q];
        q += 1;
        grid.each_neighbour(c, |nb, _| {
            if !seen[nb] && member(nb) {
                seen[nb] = true;
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
/// enough (it was made so when that node was reached), so the walk back stops there. Lake
/// nodes are flooded at their level and never cut: water crosses a lake to its outlet.
fn breach(grid: &Grid, z: &mut [f64], outlet: &[bool], lake: &[u16], filled: &[f64]) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = grid.len();
    // Lake nodes flood at their filled level, so no lake looks like a pit to breach.
    let level = |z: &[f64], k: usize| if lake[k] != 0 { filled[k] } else { z[k] };
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
            if lake[nb] == 0 {
                if z[nb] < zc {
                    // Cut the way out down from here (through the world's edge too, where
                    // the edge is higher: water leaves there).
                    let mut want = z[nb];
                    let mut p = c;
                    while lake[p] == 0 {
                        want -= FILL_EPSILON;
                        if z[p] <= want {
                            break;
                        }
                        z[p] = want;
                        if outlet[p] {
                            break;
                        }
                        p = from[p] as usize;
                    }
                } else if z[nb] < zc + FILL_EPSILON {
                    z[nb] = zc + FILL_EPSILON;
                }
            }
            heap.push(Reverse((key(level(z, nb)), nb as u32)));
        });
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
            for d in [Depressions::Breach, Depressions::Fill, Depressions::Lakes] {
                let s = shape(&g, &h, &outlet, &LakeRules::import(d));
                prop_assert!(drains(&g, &s.height, &outlet, &s.lake), "{:?}", d);
                for ((&after, &before), &lake) in s.height.iter().zip(&h).zip(&s.lake) {
                    if lake == 0 {
                        match d {
                            Depressions::Breach => prop_assert!(after <= before + 1e-3),
                            _ => prop_assert!(after >= before),
                        }
                    }
                }
            }
        }
    }
}
