//! The fields ground classes are decided from that routing alone does not give, per node of
//! a bake's coarse grid (flat or cube sphere alike): sediment, height above drainage with the
//! size of the river drained to, and how exposed a shore is to open water.

use std::collections::BinaryHeap;

use crate::bake::routing::{Graph, Routing};

/// Sediment thickness (m) and wetness (0–1, from the topographic wetness index) per node:
/// rivers and lakes hold what they carry, steep ground sheds it; the sea floor has sand near
/// the shore and a thin drape offshore.
pub fn soils(
    g: &impl Graph,
    h: &[f64],
    sea_level: f64,
    ocean: &[bool],
    routing: &Routing,
    area: &[f64],
    lake: &[u16],
) -> (Vec<f64>, Vec<f64>) {
    let n = g.node_count();
    let mut sediment = vec![0.0; n];
    let mut wet = vec![0.0; n];
    for k in 0..n {
        let r = routing.recv[k] as usize;
        let d = routing.dist[k].max(1.0);
        let slope = ((h[k] - h[r]) / d).abs();
        if ocean[k] {
            // Sand the waves and rivers leave near the shore, thinning over ~15 m of depth
            // to a half-metre drape offshore.
            sediment[k] = 0.5 + 3.0 * ((h[k] - sea_level).min(0.0) / 15.0).exp();
            continue;
        }
        let a_km2 = area[k] / 1e6;
        sediment[k] = (0.4 * a_km2.powf(0.35) * (-slope / 0.06).exp()).min(40.0);
        if lake[k] > 0 {
            sediment[k] += 3.0;
        }
        // Water gathers where much drains through a node's contour and the slope is too
        // gentle to shed it (the distance to the receiver stands for the contour's width).
        let twi = (area[k] / d / slope.max(TWI_MIN_SLOPE)).ln();
        wet[k] = smoothstep((twi - (TWI_HALF - TWI_SPAN / 2.0)) / TWI_SPAN);
    }
    (sediment, wet)
}

/// The topographic wetness index ln(a / tan β) (Beven & Kirkby 1979) at which the ground is
/// half saturated, and the span over which it goes from dry to wet: flats and hollows a
/// square kilometre drains into are wet, hillslopes are not.
pub const TWI_HALF: f64 = 11.0;
pub const TWI_SPAN: f64 = 3.0;
/// Slopes gentler than this count as this (a flat's water still moves).
pub const TWI_MIN_SLOPE: f64 = 1e-3;

fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Prodelta mud a river's plume lays at its mouth, metres; and how far the plume reaches
/// per square root of the km² the river drains, metres: a plume's area grows in proportion
/// to its river's discharge (Warrick & Fong 2004), so its reach with the discharge's root.
pub const PLUME_MUD_M: f64 = 5.0;
pub const PLUME_REACH_M: f64 = 200.0;
/// Mud thinner than this is not followed further, metres.
const PLUME_MIN_M: f64 = 0.05;

/// Mud the rivers' plumes lay on the sea floor, metres per node (0 where none reaches):
/// from the mouth of every river (a `channel` node whose receiver is sea),
/// [`PLUME_MUD_M`] thinning as exp(−d / L) with the distance d through
/// the sea, L = [`PLUME_REACH_M`] · √(A in km²) for the area A the river drains. Where
/// plumes meet, the muddier counts. Turbid water is why reefs break at river mouths.
pub fn plume_mud(
    g: &impl Graph,
    ocean: &[bool],
    routing: &Routing,
    area: &[f64],
    channel: &[bool],
) -> Vec<f32> {
    let n = ocean.len();
    // f32: a planet's fine grid has tens of millions of nodes.
    let mut mud = vec![0.0f32; n];
    let mut reach = vec![0.0f32; n];
    // Muddiest first; mud is positive, so its bits order as its values.
    let mut heap = BinaryHeap::new();
    for k in 0..n {
        let r = routing.recv[k] as usize;
        if ocean[k] || r == k || !ocean[r] || !channel[k] {
            continue;
        }
        let l = (PLUME_REACH_M * (area[k] / 1e6).sqrt()) as f32;
        if l > reach[r] {
            (mud[r], reach[r]) = (PLUME_MUD_M as f32, l);
            heap.push(((PLUME_MUD_M as f32).to_bits(), r as u32));
        }
    }
    while let Some((bits, k)) = heap.pop() {
        let (k, here) = (k as usize, f32::from_bits(bits));
        if here < mud[k] {
            continue;
        }
        let l = reach[k] as f64;
        g.each_neighbour(k, |k2, d| {
            let there = (here as f64 * (-d / l).exp()) as f32;
            if ocean[k2] && there > mud[k2] && there as f64 > PLUME_MIN_M {
                (mud[k2], reach[k2]) = (there, l as f32);
                heap.push((there.to_bits(), k2 as u32));
            }
        });
    }
    mud
}

/// Height above drainage (metres above the channel node, or sea outlet, each node drains to)
/// and the area that channel gathers (km²; 0 where a node drains straight to the sea).
/// `channel` marks the nodes that are channels.
pub fn drainage(
    h: &[f64],
    routing: &Routing,
    area: &[f64],
    channel: &[bool],
) -> (Vec<f64>, Vec<f64>) {
    let n = h.len();
    let mut base = vec![0.0; n];
    let mut gathers = vec![0.0; n];
    // Outlets first, each node after its receiver: one pass.
    for &k in &routing.order {
        let k = k as usize;
        let r = routing.recv[k] as usize;
        if channel[k] || r == k {
            base[k] = h[k];
            gathers[k] = if channel[k] { area[k] / 1e6 } else { 0.0 };
        } else {
            base[k] = base[r];
            gathers[k] = gathers[r];
        }
    }
    let above = (0..n).map(|k| (h[k] - base[k]).max(0.0)).collect();
    (above, gathers)
}

/// Rays cast from each shore node and the distances sampled along each.
pub const EXPOSURE_RAYS: usize = 16;
pub const EXPOSURE_STEPS: usize = 32;
/// Heights (relative to sea level) at which a node may be a shore or shallow sea and so gets
/// an exposure: the photic depth down, the beach's reach up, with a margin.
pub const EXPOSURE_BAND_M: (f64, f64) = (-45.0, 6.0);

/// Exposure per node, 0…1: the mean over [`EXPOSURE_RAYS`] directions of the open-water
/// fetch (how far the ray runs before land, up to `max_fetch` metres) over `max_fetch`. A
/// node gets one only if it is in [`EXPOSURE_BAND_M`] and water lies within `shore_reach`
/// metres of it in some direction; elsewhere 0 ("not a shore"). Sixteen rays, because eight
/// alias: a 45° gap either fully counts or vanishes, so bays flicker between sheltered and
/// exposed. `ray(k, r)` sets up ray `r` from node `k` once (its origin and direction) and
/// returns what says whether the point `distance` metres along it is sea.
pub fn exposure<R: Fn(f64) -> bool>(
    h: &[f64],
    sea_level: f64,
    first_step: f64,
    max_fetch: f64,
    shore_reach: f64,
    ray: impl Fn(usize, usize) -> R + Sync,
) -> Vec<f64> {
    let steps: Vec<f64> = (0..EXPOSURE_STEPS)
        .map(|i| {
            let t = i as f64 / (EXPOSURE_STEPS - 1) as f64;
            first_step * (max_fetch / first_step).powf(t)
        })
        .collect();
    let one = |k: usize| -> f64 {
        let above = h[k] - sea_level;
        if above < EXPOSURE_BAND_M.0 || above > EXPOSURE_BAND_M.1 {
            return 0.0;
        }
        let mut total = 0.0;
        let mut shore = above < 0.0;
        for r in 0..EXPOSURE_RAYS {
            let water = ray(k, r);
            let mut fetch = max_fetch;
            let mut was_water = above < 0.0;
            for &d in &steps {
                let w = water(d);
                if w && d <= shore_reach {
                    shore = true;
                }
                // Fetch is open water: it ends where the ray first meets land after water
                // (a land node's rays start on land, and cross it to the sea first).
                if !w && was_water {
                    fetch = d;
                    break;
                }
                if !w && d > shore_reach && !was_water {
                    fetch = 0.0; // inland along this ray
                    break;
                }
                was_water |= w;
            }
            total += fetch / max_fetch;
        }
        if shore {
            (total / EXPOSURE_RAYS as f64).max(f64::MIN_POSITIVE)
        } else {
            0.0
        }
    };
    let n = h.len();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = n.div_ceil(threads).max(1);
    let mut out = vec![0.0; n];
    std::thread::scope(|s| {
        for (c, part) in out.chunks_mut(chunk).enumerate() {
            let one = &one;
            s.spawn(move || {
                for (i, v) in part.iter_mut().enumerate() {
                    *v = one(c * chunk + i);
                }
            });
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::grid::Grid;

    /// A coast along x = 0 (sea at x < 0) with a bay cut into the land at z ∈ [800, 1200].
    fn coast() -> (Grid, Vec<f64>) {
        let g = Grid {
            nx: 200,
            nz: 200,
            dx: 10.0,
            x0: -1000.0,
            z0: 0.0,
        };
        let h = (0..g.len())
            .map(|k| {
                let (x, z) = g.pos(k);
                let bay = (800.0..1200.0).contains(&z) && x < 400.0;
                if x < 0.0 || bay {
                    -5.0
                } else {
                    1.0 + x / 100.0
                }
            })
            .collect();
        (g, h)
    }

    fn exposure_of(g: &Grid, h: &[f64]) -> Vec<f64> {
        exposure(h, 0.0, 10.0, 2000.0, 30.0, |k, ray| {
            let (x, z) = g.pos(k);
            let a = ray as f64 * std::f64::consts::TAU / EXPOSURE_RAYS as f64;
            move |d: f64| {
                let (px, pz) = (x + d * a.cos(), z + d * a.sin());
                let inside = (g.x0..g.x0 + g.nx as f64 * g.dx).contains(&px)
                    && (g.z0..g.z0 + g.nz as f64 * g.dx).contains(&pz);
                !inside || g.sample(h, px, pz) < 0.0
            }
        })
    }

    #[test]
    fn an_open_shore_is_exposed_a_bay_head_sheltered_and_inland_no_shore() {
        let (g, h) = coast();
        let e = exposure_of(&g, &h);
        let at = |x: f64, z: f64| e[g.nearest(x, z)];
        let open = at(5.0, 300.0);
        let bay_head = at(405.0, 1000.0);
        assert!(open >= crate::bake::classify::EXPOSED, "open shore {open}");
        assert!(
            bay_head < open * 0.6 && bay_head > 0.0,
            "bay head {bay_head} vs {open}"
        );
        assert_eq!(at(300.0, 300.0), 0.0, "inland, 300 m from the sea");
        assert!(at(-900.0, 300.0) > 0.5, "open sea");
    }

    #[test]
    fn drainage_is_height_above_the_channel_drained_to() {
        // A valley: heights rise away from a channel along x = 50, which falls to the sea.
        let g = Grid {
            nx: 101,
            nz: 50,
            dx: 10.0,
            x0: 0.0,
            z0: 0.0,
        };
        let h: Vec<f64> = (0..g.len())
            .map(|k| {
                let (i, j) = g.ij(k);
                if j == 0 {
                    -1.0
                } else {
                    j as f64 * 0.5 + (i as f64 - 50.0).abs() * 2.0
                }
            })
            .collect();
        let ocean: Vec<bool> = h.iter().map(|&v| v < 0.0).collect();
        let r = Routing::compute(&g, &h, &ocean);
        let area = r.accumulate(&vec![100.0; g.len()]);
        let channel: Vec<bool> = (0..g.len()).map(|k| g.ij(k).0 == 50 && !ocean[k]).collect();
        let (above, gathers) = drainage(&h, &r, &area, &channel);
        let k = g.idx(60, 20);
        // It drains across the slope to the channel node beside it in the valley floor.
        assert!((20.0..=30.0).contains(&above[k]), "{}", above[k]);
        assert!(gathers[k] > 0.0);
        assert_eq!(above[g.idx(50, 20)], 0.0);
    }

    /// Wetness follows the topographic wetness index: the nearly flat floor of a valley is
    /// wet, its hillsides are dry, and the same floor falling 10 % sheds its water.
    #[test]
    fn a_valley_floor_is_wet_and_its_hillsides_dry() {
        let g = Grid {
            nx: 101,
            nz: 200,
            dx: 10.0,
            x0: 0.0,
            z0: 0.0,
        };
        let valley = |fall: f64| -> Vec<f64> {
            (0..g.len())
                .map(|k| {
                    let (i, j) = g.ij(k);
                    if j == 0 {
                        -1.0
                    } else {
                        j as f64 * 10.0 * fall + (i as f64 - 50.0).abs() * 2.0
                    }
                })
                .collect()
        };
        let wet_at = |fall: f64, i: usize, j: usize| {
            let h = valley(fall);
            let ocean: Vec<bool> = h.iter().map(|&v| v < 0.0).collect();
            let r = Routing::compute(&g, &h, &ocean);
            let area = r.accumulate(&vec![100.0; g.len()]);
            let (_, wet) = soils(&g, &h, 0.0, &ocean, &r, &area, &vec![0; g.len()]);
            wet[g.idx(i, j)]
        };
        // Five rows from the valley's head: the floor gathers 0.05 km².
        let floor = wet_at(0.001, 50, 195);
        assert!(floor > 0.9, "valley floor {floor:.2}");
        assert!(wet_at(0.001, 70, 195) < 0.1, "hillside");
        let steep = wet_at(0.1, 50, 195);
        assert!(
            steep < floor * 0.5,
            "a steeper floor sheds its water: {steep:.2}"
        );
    }

    /// A river reaching the sea through a coast: its plume muddies the bottom off its
    /// mouth, thinning offshore, and leaves the coast a kilometre along nearly clear; a river
    /// draining four times as much reaches twice as far.
    #[test]
    fn a_rivers_plume_muddies_the_sea_off_its_mouth_only() {
        let (g, mut h) = coast();
        // A valley down the middle of the land gathers it to one mouth at z = 1000.
        for (k, v) in h.iter_mut().enumerate() {
            let (x, z) = g.pos(k);
            if x >= 0.0 {
                *v = 1.0 + x / 100.0 + (z - 1000.0).abs() / 50.0;
            }
        }
        let ocean: Vec<bool> = h.iter().map(|&v| v < 0.0).collect();
        let r = Routing::compute(&g, &h, &ocean);
        let mud_for = |cell_m2: f64| {
            let area = r.accumulate(&vec![cell_m2; g.len()]);
            let channel: Vec<bool> = area.iter().map(|&a| a >= 1e5).collect();
            plume_mud(&g, &ocean, &r, &area, &channel)
        };
        let mud = mud_for(100.0);
        let at = |m: &[f32], x: f64, z: f64| m[g.nearest(x, z)] as f64;
        assert!(at(&mud, -15.0, 1000.0) > 3.0, "off the mouth");
        let (near, far) = (at(&mud, -60.0, 1000.0), at(&mud, -300.0, 1000.0));
        assert!(
            near > far && far > 0.0,
            "thinning offshore: {near:.2} → {far:.2}"
        );
        let along = at(&mud, -15.0, 0.0);
        assert!(along < 0.5, "a kilometre along the coast: {along:.2}");
        assert!(
            mud.iter().zip(&ocean).all(|(&m, &o)| o || m == 0.0),
            "no mud on land"
        );
        let bigger = mud_for(400.0);
        let spread = |m: &[f32]| m.iter().filter(|&&v| v > 1.0).count();
        assert!(
            spread(&bigger) > 2 * spread(&mud),
            "{} vs {}",
            spread(&bigger),
            spread(&mud)
        );
    }
}
