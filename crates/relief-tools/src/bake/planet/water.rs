//! Rivers and lakes on the fine grid, the flat baker's laws on the sphere: Priority-Flood
//! routing across seams; depressions at least [`LAKE_MIN_AREA_M2`] in area and
//! [`LAKE_MIN_DEPTH`] deep become lakes at their spill level, shallower ones are filled;
//! channels drain at least the river area and are cut to beds that fall strictly to the sea
//! or their lake; large rivers' floods level floodplains beside them; reaches run between confluences with Strahler orders and
//! hydraulic-geometry widths.

use crate::bake::classify::FLOODPLAIN_AREA_KM2;
use crate::bake::ground;
use crate::bake::hydrology::{channel_depth, channel_width, MIN_BED_GRADE};
use crate::bake::routing::{Flow, Graph, Routing};
use relief::planet::tables::{PlanetLake, PlanetReach};
use relief::reach::ReachKind;

use super::fine_grid::FineGrid;

/// A lake must stand this deep at its deepest, metres.
pub const LAKE_MIN_DEPTH: f64 = 1.5;
/// And cover this much, m² (a hectare: smaller ponds are left to the detail a game adds).
pub const LAKE_MIN_AREA_M2: f64 = 10_000.0;
/// A floodplain stands this far above its river's bed, metres.
pub const FLOODPLAIN_RISE_M: f64 = 1.0;

pub struct Water {
    /// The ground after water has shaped it: shallow depressions filled to their spill
    /// level, channels cut to their beds, lake beds as they were.
    pub height: Vec<f64>,
    /// Below sea level (0 m): the outlets.
    pub ocean: Vec<bool>,
    pub routing: Routing,
    /// Drained area per node, m².
    pub area: Vec<f64>,
    /// Lake id per node (1-based; 0 none).
    pub lake: Vec<u16>,
    /// Nodes that are river or creek channels.
    pub channel: Vec<bool>,
    pub lakes: Vec<PlanetLake>,
    pub reaches: Vec<PlanetReach>,
}

/// Finds the water on heights `h` (metres, sea level 0); a channel drains at least
/// `river_area_m2`; `flow` picks each node's receiver.
pub fn analyse(g: &FineGrid, mut h: Vec<f64>, river_area_m2: f64, flow: Flow) -> Water {
    let n = g.node_count();
    let ocean: Vec<bool> = h.iter().map(|&v| v < 0.0).collect();
    let routing = Routing::compute_with(g, &h, &ocean, flow);
    let (lake, lakes) = lakes(g, &mut h, &ocean, &routing);
    let area = routing.accumulate_by(|k| g.area(k));
    let channel: Vec<bool> = (0..n)
        .map(|k| !ocean[k] && lake[k] == 0 && area[k] >= river_area_m2)
        .collect();
    cut_beds(&mut h, &routing, &area, &channel);
    lay_floodplains(&mut h, &routing, &area, &channel, &lake);
    let reaches = reaches(g, &h, &routing, &area, &channel, river_area_m2);
    Water {
        height: h,
        ocean,
        routing,
        area,
        lake,
        channel,
        lakes,
        reaches,
    }
}

/// Connected nodes the flood raised: lakes where deep and wide enough (their beds kept),
/// else filled to the flood's surface so water runs across them.
fn lakes(
    g: &FineGrid,
    h: &mut [f64],
    ocean: &[bool],
    routing: &Routing,
) -> (Vec<u16>, Vec<PlanetLake>) {
    let n = h.len();
    let mut lake = vec![0u16; n];
    let mut lakes = Vec::new();
    let mut seen = vec![false; n];
    let raised = |k: usize, h: &[f64]| !ocean[k] && routing.filled[k] - h[k] > 1e-3;
    let mut nodes = Vec::new();
    for start in 0..n {
        if seen[start] || !raised(start, h) {
            continue;
        }
        nodes.clear();
        nodes.push(start);
        seen[start] = true;
        let mut at = 0;
        while at < nodes.len() {
            let k = nodes[at];
            at += 1;
            g.each_neighbour(k, |k2, _| {
                if !seen[k2] && raised(k2, h) {
                    seen[k2] = true;
                    nodes.push(k2);
                }
            });
        }
        // The spill level: the flood's ε steps put the rest a hair above it.
        let level = nodes
            .iter()
            .map(|&k| routing.filled[k])
            .fold(f64::INFINITY, f64::min);
        let deepest = *nodes
            .iter()
            .min_by(|&&a, &&b| h[a].total_cmp(&h[b]).then(a.cmp(&b)))
            .expect("a component has its start");
        let depth = level - h[deepest];
        let area_m2: f64 = nodes.iter().map(|&k| g.area(k)).sum();
        if depth < LAKE_MIN_DEPTH
            || area_m2 < LAKE_MIN_AREA_M2
            || lakes.len() >= u16::MAX as usize - 1
        {
            for &k in &nodes {
                h[k] = routing.filled[k];
            }
            continue;
        }
        let id = lakes.len() as u32 + 1;
        for &k in &nodes {
            lake[k] = id as u16;
        }
        let c = g.dir(deepest);
        lakes.push(PlanetLake {
            id,
            level_m: level as f32,
            area_m2,
            depth_m: depth as f32,
            centre: [c[0] as f32, c[1] as f32, c[2] as f32],
            radius_m: (area_m2 / std::f64::consts::PI).sqrt() as f32,
        });
    }
    (lake, lakes)
}

/// Cuts each channel node to its bed: at most the ground minus the channel's depth, and
/// strictly below every channel node draining into it (upstream first, so one pass).
fn cut_beds(h: &mut [f64], routing: &Routing, area: &[f64], channel: &[bool]) {
    for k in 0..h.len() {
        if channel[k] {
            h[k] -= channel_depth(channel_width(area[k]));
        }
    }
    for &k in routing.order.iter().rev() {
        let k = k as usize;
        let r = routing.recv[k] as usize;
        if channel[k] && r != k && channel[r] {
            h[r] = h[r].min(h[k] - MIN_BED_GRADE * routing.dist[k]);
        }
    }
}

/// Floodplains (seed 003's law): ground beside a river draining at least
/// [`FLOODPLAIN_AREA_KM2`], low enough above it for the river's floods to reach, is levelled
/// by what the floods leave to the river's bed plus [`FLOODPLAIN_RISE_M`]. Floods reach
/// twice the channel's bankfull depth and a metre above its bed.
/// How high above its bed a river draining `river_km2` floods, metres: twice its bankfull
/// depth and a metre.
pub fn flood_reach_m(river_km2: f64) -> f64 {
    2.0 * channel_depth(channel_width(river_km2 * 1e6)) + 1.0
}

fn lay_floodplains(h: &mut [f64], routing: &Routing, area: &[f64], channel: &[bool], lake: &[u16]) {
    let (above, gathers) = ground::drainage(h, routing, area, channel);
    for k in 0..h.len() {
        let river_km2 = gathers[k];
        if channel[k] || lake[k] != 0 || h[k] < 0.0 || river_km2 < FLOODPLAIN_AREA_KM2 {
            continue;
        }
        if above[k] < flood_reach_m(river_km2) {
            h[k] -= (above[k] - FLOODPLAIN_RISE_M).max(0.0);
        }
    }
}

/// River reaches: from each source or confluence down to the next confluence, a lake or the
/// sea, every node a point (direction and bed).
fn reaches(
    g: &FineGrid,
    h: &[f64],
    routing: &Routing,
    area: &[f64],
    channel: &[bool],
    river_area_m2: f64,
) -> Vec<PlanetReach> {
    let n = h.len();
    let mut donors = vec![0u8; n];
    let mut strahler = vec![0u8; n];
    let mut top_count = vec![0u8; n];
    // Upstream first: every node after its donors in reverse flood order.
    for &k in routing.order.iter().rev() {
        let k = k as usize;
        if !channel[k] {
            continue;
        }
        if strahler[k] == 0 {
            strahler[k] = 1;
        } else if top_count[k] >= 2 {
            strahler[k] += 1;
        }
        let r = routing.recv[k] as usize;
        if r != k && channel[r] {
            donors[r] = donors[r].saturating_add(1);
            if strahler[k] > strahler[r] {
                strahler[r] = strahler[k];
                top_count[r] = 1;
            } else if strahler[k] == strahler[r] {
                top_count[r] = top_count[r].saturating_add(1);
            }
        }
    }
    let point = |k: usize, bed: f64| {
        let d = g.dir(k);
        [d[0] as f32, d[1] as f32, d[2] as f32, bed as f32]
    };
    let mut reaches = Vec::new();
    for &k in routing.order.iter().rev() {
        let k = k as usize;
        if !channel[k] || donors[k] == 1 {
            continue; // reaches start at sources and confluences
        }
        let head_area = area[k];
        let mut pts = Vec::new();
        let mut at = k;
        loop {
            pts.push(point(at, h[at]));
            let r = routing.recv[at] as usize;
            if r == at {
                break;
            }
            if !channel[r] || donors[r] != 1 {
                // The mouth: the next reach's head, a lake's shore or the sea.
                pts.push(point(r, h[r].min(h[at])));
                break;
            }
            at = r;
        }
        if pts.len() < 2 {
            continue;
        }
        let mouth_area = area[at];
        reaches.push(PlanetReach {
            id: reaches.len() as u32,
            kind: if mouth_area >= 10.0 * river_area_m2 {
                ReachKind::River
            } else {
                ReachKind::Creek
            },
            order: strahler[at],
            head_width_m: channel_width(head_area) as f32,
            width_m: channel_width(mouth_area) as f32,
            drains_km2: (mouth_area / 1e6) as f32,
            points: pts,
        });
    }
    reaches
}
