//! Rivers and lakes on the sphere grid: Priority-Flood routing (across seams), lakes where
//! the flood stands deep enough, river reaches traced between confluences with Strahler
//! orders and hydraulic-geometry widths.

use crate::bake::hydrology::channel_width;
use crate::bake::routing::{Graph, Routing};
use crate::flat::ReachKind;
use crate::planet::tables::{PlanetLake, PlanetReach};

use super::sphere::SphereGrid;

/// A lake must stand this deep at its deepest, metres.
pub const LAKE_MIN_DEPTH: f64 = 1.5;

pub struct Water {
    pub routing: Routing,
    /// Drained area per node, m².
    pub area: Vec<f64>,
    /// Lake id per node (1-based; 0 none).
    pub lake: Vec<u16>,
    pub lakes: Vec<PlanetLake>,
    pub reaches: Vec<PlanetReach>,
}

pub fn analyse(g: &SphereGrid, h: &[f64], ocean: &[bool], river_area_m2: f64) -> Water {
    let n = g.node_count();
    let routing = Routing::compute(g, h, ocean);
    let area = routing.accumulate(&g.area);

    // Lakes: connected nodes the flood raised, deep enough at their deepest.
    let mut lake = vec![0u16; n];
    let mut lakes = Vec::new();
    let mut seen = vec![false; n];
    let raised = |k: usize| !ocean[k] && routing.filled[k] - h[k] > 1e-3;
    for start in 0..n {
        if seen[start] || !raised(start) {
            continue;
        }
        let mut nodes = vec![start];
        seen[start] = true;
        let mut at = 0;
        while at < nodes.len() {
            let k = nodes[at];
            at += 1;
            g.each_neighbour(k, |k2, _| {
                if !seen[k2] && raised(k2) {
                    seen[k2] = true;
                    nodes.push(k2);
                }
            });
        }
        let level = nodes
            .iter()
            .map(|&k| routing.filled[k])
            .fold(f64::MIN, f64::max);
        let deepest = *nodes
            .iter()
            .min_by(|&&a, &&b| h[a].total_cmp(&h[b]))
            .unwrap();
        let depth = level - h[deepest];
        if depth < LAKE_MIN_DEPTH || nodes.len() < 2 || lakes.len() >= u16::MAX as usize - 1 {
            continue;
        }
        let id = lakes.len() as u32 + 1;
        let area_m2: f64 = nodes.iter().map(|&k| g.area[k]).sum();
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

    // Channels: land nodes outside lakes draining enough area.
    let channel: Vec<bool> = (0..n)
        .map(|k| !ocean[k] && lake[k] == 0 && area[k] >= river_area_m2)
        .collect();
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
            let d = g.dir(at);
            pts.push([d[0] as f32, d[1] as f32, d[2] as f32, h[at] as f32]);
            let r = routing.recv[at] as usize;
            if r == at {
                break;
            }
            let end = !channel[r] || donors[r] != 1;
            if end {
                let d = g.dir(r);
                let bed = if ocean[r] { 0.0 } else { h[r] };
                pts.push([d[0] as f32, d[1] as f32, d[2] as f32, bed as f32]);
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
    Water {
        routing,
        area,
        lake,
        lakes,
        reaches,
    }
}
