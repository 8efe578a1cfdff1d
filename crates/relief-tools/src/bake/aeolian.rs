//! Wind-blown sand, for flat worlds and planets alike. Sand seas need a supply, sand the
//! wind can lift, and somewhere the wind drops it (Kocurek & Lancaster 1999): here the
//! supply is the loose sediment rivers and lakes leave, the wind lifts it where the ground
//! is too dry for plants to hold it (the aridity index, as in Lancaster's 1988 dune
//! mobility index), and carries it downwind until it settles, soon where plants trap it,
//! far over bare ground. So the upwind edge of a desert is stripped to gravel and rock (a
//! reg), and the sand lies downwind of where it came from, thickest where the desert meets
//! ground that holds it.

use crate::bake::classify::EXPOSED;
use crate::bake::climate::{aridity_index, runoff, RUNOFF_REFERENCE_MM};
use crate::bake::grid::Grid;
use crate::bake::routing::Routing;

/// The prevailing wind over a graph's nodes: each node's upwind neighbour and the distance
/// to it, and every node once in downwind order (a node after its upwind neighbour, except
/// where the wind closes a loop round a planet; see [`drift`]).
pub struct Wind {
    /// The neighbour the wind comes from; a node is its own where there is no wind.
    pub upwind: Vec<u32>,
    /// Metres to the upwind neighbour.
    pub dist: Vec<f64>,
    /// Nodes, upwind first.
    pub order: Vec<u32>,
    /// Whether the order wraps round (a planet's zonal winds): the march then runs twice,
    /// so sand that crosses the wrap arrives.
    pub wraps: bool,
}

impl Wind {
    /// One wind over a flat grid, blowing towards `angle` (radians in the (x, z) plane):
    /// each node's upwind neighbour is the one of its eight most nearly against the wind.
    pub fn uniform(grid: &Grid, angle: f64) -> Wind {
        let (wx, wz) = (angle.cos(), angle.sin());
        let n = grid.len();
        let mut upwind = vec![0u32; n];
        let mut dist = vec![0.0; n];
        for k in 0..n {
            let (x, z) = grid.pos(k);
            let (mut best, mut best_dot, mut best_d) = (k, 0.0, 0.0);
            grid.each_neighbour(k, |k2, d| {
                let (x2, z2) = grid.pos(k2);
                let against = -((x2 - x) * wx + (z2 - z) * wz) / d;
                if against > best_dot + 1e-9 {
                    (best, best_dot, best_d) = (k2, against, d);
                }
            });
            upwind[k] = best as u32;
            dist[k] = best_d;
        }
        let along: Vec<f64> = (0..n)
            .map(|k| {
                let (x, z) = grid.pos(k);
                x * wx + z * wz
            })
            .collect();
        Wind::along(upwind, dist, &along, false)
    }

    /// A wind from each node's `upwind` neighbour (at `dist` metres), its nodes ordered by
    /// how far `along` the wind each lies.
    pub fn along(upwind: Vec<u32>, dist: Vec<f64>, along: &[f64], wraps: bool) -> Wind {
        let mut order: Vec<u32> = (0..upwind.len() as u32).collect();
        order.sort_by(|&a, &b| along[a as usize].total_cmp(&along[b as usize]));
        Wind {
            upwind,
            dist,
            order,
            wraps,
        }
    }
}

/// Rock every node sheds over a sand sea's age, metres: the load its rivers carry off.
pub const DENUDATION_M: f64 = 10.0;
/// The deposition coefficient G of Davy & Lague's (2009) ξ–q law as FastScape writes it
/// (Yuan et al. 2019): 1 is the balance between carrying and dropping.
pub const DEPOSITION_G: f64 = 1.0;
/// Sand the waves throw up on an open shore (exposure at least [`EXPOSED`]), metres: the
/// supply onshore winds blow inland as coastal dunes.
pub const SHORE_SAND_M: f64 = 2.0;

/// The loose sand at each node before the wind (metres): what rivers drop on the way to
/// the sea, plus [`SHORE_SAND_M`] on open shores (`exposure` ≥ [`EXPOSED`]).
///
/// Every land node sheds [`DENUDATION_M`] over its area (`area`, m²). Each node drops the
/// share 1 − exp(−G a / Ã) of the load reaching it (Davy & Lague's deposition, its length
/// proportional to discharge), where a is its own area and Ã its drained area weighted by
/// `runoff` (each node's runoff over a reference: 1 is the reference climate). A wet
/// river carries its load to the sea; a dry wash drops it within a few cells, in fans and
/// playas, the sand seas' supply. `routing` drains every node, outlets first.
pub fn supply(
    routing: &Routing,
    area: &[f64],
    runoff: &[f64],
    exposure: &[f64],
    sea: &[bool],
) -> Vec<f64> {
    let n = area.len();
    let wet = routing.accumulate_by(|k| area[k] * runoff[k].max(0.0));
    let mut load = vec![0.0f64; n];
    let mut sand = vec![0.0f64; n];
    for &k in routing.order.iter().rev() {
        let k = k as usize;
        if sea[k] {
            continue; // delivered to the sea
        }
        load[k] += DENUDATION_M * area[k];
        let dropped = load[k] * (1.0 - (-DEPOSITION_G * area[k] / wet[k].max(1e-9)).exp());
        sand[k] = dropped / area[k]
            + if exposure[k] >= EXPOSED {
                SHORE_SAND_M
            } else {
                0.0
            };
        let r = routing.recv[k] as usize;
        if r != k {
            load[r] += load[k] - dropped;
        }
    }
    sand
}

/// The wind's work over a world, in one call: each node's [`mobility`] from its
/// `precipitation` (mm/yr) and `temperature` (°C), the rivers' and shores' [`supply`] with
/// runoff (Budyko, over [`RUNOFF_REFERENCE_MM`]), and the sand [`drift`] lays down along
/// `wind`. Returns (mobility, sand laid down in metres) per node.
#[allow(clippy::too_many_arguments)]
pub fn blow(
    wind: &Wind,
    routing: &Routing,
    area: &[f64],
    height: &[f64],
    precipitation: &[f64],
    temperature: &[f64],
    exposure: &[f64],
    sea: &[bool],
) -> (Vec<f64>, Vec<f64>) {
    let n = height.len();
    let mobile: Vec<f64> = (0..n)
        .map(|k| mobility(precipitation[k], temperature[k]))
        .collect();
    let runoff: Vec<f64> = (0..n)
        .map(|k| runoff(precipitation[k], temperature[k]) / RUNOFF_REFERENCE_MM)
        .collect();
    let supplied = supply(routing, area, &runoff, exposure, sea);
    let laid = drift(wind, height, &supplied, &mobile, sea);
    (mobile, laid)
}

/// How far sand goes over bare ground before it settles, metres: the length over which a
/// saturated flux adjusts to a change in ground, some kilometres for a sand sea's margin.
pub const SALTATION_M: f64 = 4_000.0;
/// How far it goes over ground plants hold, metres: a vegetated margin catches the sand
/// within a few hundred metres.
pub const TRAPPED_M: f64 = 300.0;
/// The UNEP aridity index (P / PET) below which the ground is bare enough for every grain
/// to move (arid and hyper-arid), and above which plants hold it all (dry sub-humid).
pub const MOBILE_BELOW_AI: f64 = 0.2;
pub const HELD_ABOVE_AI: f64 = 0.5;

/// The share of loose sand the wind can move, 0…1, from precipitation `p` (mm/yr) and
/// temperature `t` (°C): the aridity index P / PET with Holdridge's PET, mobile below
/// [`MOBILE_BELOW_AI`], held above [`HELD_ABOVE_AI`], linear between. Frozen ground (no
/// evaporation) holds its sand.
pub fn mobility(p: f64, t: f64) -> f64 {
    let ai = aridity_index(p, t);
    ((HELD_ABOVE_AI - ai) / (HELD_ABOVE_AI - MOBILE_BELOW_AI)).clamp(0.0, 1.0)
}

/// How far upwind the wind "remembers" the ground, metres: the length of the upwind mean a
/// node's height is measured against to tell a basin from a rise.
pub const UPWIND_M: f64 = 4_000.0;
/// How much a low slows the wind: its reach shrinks e-fold for every this many metres the
/// ground lies below the upwind mean (and grows over rises, up to e² either way).
pub const SHELTER_M: f64 = 50.0;

/// The sand the wind lays down at each node, metres. At each node the wind lifts the
/// mobile share of the loose sediment there (`supply` × `mobile`, the node's [`mobility`]);
/// what it carries in settles over a reach of [`TRAPPED_M`]…[`SALTATION_M`] by how bare the
/// ground is, shorter where the ground (`height`, m) lies below its upwind mean (a basin,
/// where the wind slows: Wilson's 1973 ergs fill basins) and longer over rises, by
/// [`SHELTER_M`]. Sand blown to sea is lost (beaches feed the land through their own
/// supply), and the sea supplies none. The loose sediment after the wind is `supply` ×
/// (1 − `mobile`) + the result: the sand is moved, never made.
///
/// Along a uniform bare supply on flat ground the laid-down sand rises from nothing at the
/// upwind edge to the supply itself a few [`SALTATION_M`] downwind.
pub fn drift(
    wind: &Wind,
    height: &[f64],
    supply: &[f64],
    mobile: &[f64],
    sea: &[bool],
) -> Vec<f64> {
    let n = supply.len();
    let mut carried = vec![0.0f64; n]; // sand in motion leaving each node, m² per metre of width
    let mut upwind_mean: Vec<f64> = height.iter().map(|h| h.max(0.0)).collect();
    let mut laid = vec![0.0f64; n];
    for _ in 0..if wind.wraps { 2 } else { 1 } {
        for &k in &wind.order {
            let k = k as usize;
            if sea[k] {
                carried[k] = 0.0;
                laid[k] = 0.0;
                upwind_mean[k] = 0.0;
                continue;
            }
            let u = wind.upwind[k] as usize;
            let ds = wind.dist[k].max(1.0);
            let (arriving, mean) = if u == k {
                (0.0, height[k])
            } else {
                (carried[u], upwind_mean[u])
            };
            let m = mobile[k].clamp(0.0, 1.0);
            let speed = ((height[k] - mean) / SHELTER_M).clamp(-2.0, 2.0).exp();
            let reach = (TRAPPED_M + (SALTATION_M - TRAPPED_M) * m) * speed;
            let settles = arriving * (1.0 - (-ds / reach).exp());
            laid[k] = settles / ds;
            carried[k] = arriving - settles + supply[k] * m * ds;
            let w = (-ds / UPWIND_M).exp();
            upwind_mean[k] = mean * w + height[k] * (1.0 - w);
        }
    }
    laid
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of nodes 100 m apart along the wind (node 0 upwind).
    fn strip(n: usize) -> Wind {
        Wind {
            upwind: (0..n as u32).map(|k| k.saturating_sub(1)).collect(),
            dist: vec![100.0; n],
            order: (0..n as u32).collect(),
            wraps: false,
        }
    }

    #[test]
    fn mobility_follows_the_aridity_index() {
        assert_eq!(mobility(100.0, 25.0), 1.0, "hot desert: all of it moves");
        assert_eq!(mobility(2000.0, 25.0), 0.0, "rainforest holds it");
        assert_eq!(mobility(100.0, -5.0), 0.0, "frozen ground holds it");
        let semi = mobility(400.0, 20.0); // AI 0.34
        assert!((0.4..0.7).contains(&semi), "semi-arid {semi}");
        for p in [50.0, 200.0, 400.0, 800.0] {
            assert!(
                mobility(p * 1.3, 20.0) <= mobility(p, 20.0),
                "wetter holds more"
            );
            assert!(mobility(p, 25.0) >= mobility(p, 15.0), "warmer dries");
        }
    }

    /// Dry alluvium from node 100 to 200 in a bare desert that meets grassland at 250: the
    /// upwind part of the source is stripped, the sand lies downwind of it, thickest where
    /// the grassland catches it, and none lies upwind of the source.
    #[test]
    fn sand_lies_downwind_of_its_source_and_piles_where_plants_catch_it() {
        let n = 600;
        let wind = strip(n);
        let flat = vec![10.0; n];
        let supply: Vec<f64> = (0..n)
            .map(|k| if (100..200).contains(&k) { 1.0 } else { 0.0 })
            .collect();
        let mobile: Vec<f64> = (0..n).map(|k| if k < 250 { 1.0 } else { 0.0 }).collect();
        let s = drift(&wind, &flat, &supply, &mobile, &vec![false; n]);
        // What the wind leaves plus what it laid down.
        let s: Vec<f64> = (0..n)
            .map(|k| supply[k] * (1.0 - mobile[k]) + s[k])
            .collect();
        assert!(s[..100].iter().all(|&v| v == 0.0), "nothing upwind");
        assert!(
            s[101] < 0.1,
            "the source's upwind edge is stripped: {}",
            s[101]
        );
        assert!(s[199] > s[120], "thicker downwind across the source");
        assert!(s[240] > 0.0 && s[240] < s[199], "thinning past it");
        assert!(
            s[250] > 3.0 * s[249],
            "the grassland edge catches it: {}",
            s[250]
        );
        assert!(s[300..].iter().all(|&v| v < 1e-3), "and holds it");
        // The sand is moved, not made or lost (all of it lies on land here).
        let total: f64 = s.iter().sum();
        assert!((total - 100.0).abs() < 1e-6, "{total}");
    }

    #[test]
    fn held_ground_keeps_its_sand_and_the_sea_takes_what_reaches_it() {
        let n = 300;
        let wind = strip(n);
        let flat = vec![10.0; n];
        let supply = vec![1.0; n];
        let held = drift(&wind, &flat, &supply, &vec![0.0; n], &vec![false; n]);
        assert!(
            held.iter().all(|&v| v == 0.0),
            "plants hold it where it lies"
        );
        let sea: Vec<bool> = (0..n).map(|k| k >= 150).collect();
        let bare = drift(&wind, &flat, &supply, &vec![1.0; n], &sea);
        let land: f64 = bare[..150].iter().sum();
        assert!(land < 150.0 * 0.9, "sand blows out to sea: {land} of 150 m");
        assert!(
            bare[149] > bare[10],
            "and builds towards the shore it leaves by"
        );
    }

    /// The same supply and wind over a plain with a basin 60 m deep at nodes 300–340: the
    /// wind slows in the basin and drops its sand there.
    #[test]
    fn sand_gathers_in_a_basin_the_wind_crosses() {
        let n = 600;
        let wind = strip(n);
        let ground: Vec<f64> = (0..n)
            .map(|k| if (300..340).contains(&k) { 40.0 } else { 100.0 })
            .collect();
        let supply = vec![1.0; n];
        let s = drift(&wind, &ground, &supply, &vec![1.0; n], &vec![false; n]);
        let mean = |r: std::ops::Range<usize>| s[r.clone()].iter().sum::<f64>() / r.len() as f64;
        let (plain, basin, beyond) = (mean(250..300), mean(300..340), mean(340..380));
        assert!(
            basin > 1.3 * plain,
            "basin {basin:.2} m vs plain {plain:.2} m"
        );
        assert!(beyond < plain, "the rise beyond is stripped: {beyond:.2} m");
        let flat = drift(
            &wind,
            &vec![100.0; n],
            &supply,
            &vec![1.0; n],
            &vec![false; n],
        );
        let moved: f64 = s.iter().sum();
        let level: f64 = flat.iter().sum();
        assert!(
            (moved - level).abs() < 0.05 * level,
            "the basin moves sand, it does not make it: {moved:.1} vs {level:.1}"
        );
    }

    /// A river of 200 nodes draining to the sea at node 0: under the reference climate it
    /// carries about half its load to the sea (1 / (1 + G)); where it is 200 times drier it
    /// drops almost all of it on land, and none of it is lost or made.
    #[test]
    fn dry_rivers_drop_their_load_and_wet_rivers_carry_it_to_the_sea() {
        let n = 201;
        let routing = Routing {
            filled: (0..n).map(|k| k as f64).collect(),
            recv: (0..n as u32).map(|k| k.saturating_sub(1)).collect(),
            dist: vec![100.0; n],
            order: (0..n as u32).collect(),
        };
        let area = vec![1e4; n];
        let sea: Vec<bool> = (0..n).map(|k| k == 0).collect();
        let shed = DENUDATION_M * 1e4 * (n - 1) as f64;
        let delivered = |runoff: f64| {
            let s = supply(&routing, &area, &vec![runoff; n], &vec![0.0; n], &sea);
            let dropped: f64 = s.iter().map(|v| v * 1e4).sum();
            assert!(
                dropped <= shed * (1.0 + 1e-9),
                "made sand: {dropped} of {shed}"
            );
            (shed - dropped) / shed
        };
        let wet = delivered(1.0);
        assert!((0.4..0.6).contains(&wet), "a wet river delivers {wet:.3}");
        let dry = delivered(1.0 / 200.0);
        assert!(dry < 0.02, "a dry wash delivers {dry:.4}");
        let shore = supply(&routing, &area, &vec![1.0; n], &vec![EXPOSED; n], &sea);
        let plain = supply(&routing, &area, &vec![1.0; n], &vec![0.0; n], &sea);
        assert!(
            (shore[5] - plain[5] - SHORE_SAND_M).abs() < 1e-9,
            "an open shore adds its sand"
        );
    }
}
