//! The planet baker's water, checked against the laws it claims: every drop reaches the sea
//! once, every channel drains on a falling bed to the sea or a lake, lake sizes have the
//! power-law tail real lake districts show, and stream length grows with drained area as
//! Hack's law says.

use std::sync::OnceLock;

use relief_tools::bake::planet::{landscape, Landscape, PlanetConfig};
use relief_tools::Silent;

/// The default 1024² planet: its fine grid is the face (6.3 M nodes, 77 m cells).
fn land() -> &'static Landscape {
    static L: OnceLock<Landscape> = OnceLock::new();
    L.get_or_init(|| landscape(&PlanetConfig::new("relief"), &Silent).expect("landscape"))
}

/// Least-squares slope of y against x.
fn fitted_slope(pts: &[(f64, f64)]) -> f64 {
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let cov: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let var: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    cov / var
}

#[test]
fn every_channel_drains_to_the_sea_or_a_lake_on_a_falling_bed() {
    let w = &land().water;
    let n = w.height.len();
    let channels = (0..n).filter(|&k| w.channel[k]).count();
    assert!(
        channels > 1000,
        "a network to check: {channels} channel nodes"
    );
    for k in (0..n).filter(|&k| w.channel[k]) {
        let mut at = k;
        for _ in 0..n {
            let r = w.routing.recv[at] as usize;
            if r == at || w.ocean[r] || w.lake[r] != 0 {
                assert!(w.ocean[r] || w.lake[r] != 0, "node {at} ends on land");
                break;
            }
            assert!(
                w.channel[r],
                "a channel never leaves its valley: {at} → {r}"
            );
            assert!(
                w.height[r] < w.height[at],
                "bed rises from {at} ({}) to {r} ({})",
                w.height[at],
                w.height[r]
            );
            at = r;
        }
    }
    // Every cell's water is counted once: the areas at the outlets sum to the sphere.
    let outlets: f64 = (0..n)
        .filter(|&k| w.routing.recv[k] as usize == k)
        .map(|k| w.area[k])
        .sum();
    let sphere = 4.0 * std::f64::consts::PI * land().fine.radius.powi(2);
    assert!(
        (outlets / sphere - 1.0).abs() < 1e-9,
        "{outlets} of {sphere}"
    );
    // And the reaches stored from them fall too, ending where another reach starts, in a
    // lake or at sea.
    let heads: std::collections::HashSet<[u32; 3]> = w
        .reaches
        .iter()
        .map(|r| r.points[0])
        .map(|p| [p[0].to_bits(), p[1].to_bits(), p[2].to_bits()])
        .collect();
    for r in &w.reaches {
        assert!(
            r.points.windows(2).all(|p| p[1][3] <= p[0][3]),
            "reach {}",
            r.id
        );
        let end = r.points[r.points.len() - 1];
        let d = relief::DVec3::new(end[0] as f64, end[1] as f64, end[2] as f64);
        let k = land().fine.nearest(d);
        let joins = heads.contains(&[end[0].to_bits(), end[1].to_bits(), end[2].to_bits()]);
        assert!(
            joins || w.ocean[k] || w.lake[k] != 0,
            "reach {} ends nowhere",
            r.id
        );
    }
}

/// Hack's law: the longest flow path above a point of a river grows as its drained area to
/// a power h of 0.5–0.7 (Hack 1957 measured 0.6; Rigon et al. 1996 find 0.5–0.6 in basins
/// the world over). Below ½ basins would widen as they grow, as on a dome whose rivers run
/// off side by side; at 1, they would be strips. The fit is over the median length in each
/// bin of area (half a unit of ln A wide), so the many small channels do not outweigh the
/// few large ones.
#[test]
fn stream_length_grows_with_area_as_hacks_law_says() {
    let w = &land().water;
    let n = w.height.len();
    // Longest path above each node, upstream first (the reverse of the outlet-first order).
    let mut longest = vec![0.0f64; n];
    for &k in w.routing.order.iter().rev() {
        let (k, r) = (k as usize, w.routing.recv[k as usize] as usize);
        if r != k && !w.ocean[k] {
            longest[r] = longest[r].max(longest[k] + w.routing.dist[k]);
        }
    }
    let mut bins: std::collections::BTreeMap<i64, Vec<f64>> = Default::default();
    for k in (0..n).filter(|&k| w.channel[k]) {
        let bin = (w.area[k].ln() / 0.5).floor() as i64;
        bins.entry(bin).or_default().push(longest[k].ln());
    }
    let pts: Vec<(f64, f64)> = bins
        .into_iter()
        .filter(|(_, v)| v.len() >= 20)
        .map(|(bin, mut v)| {
            v.sort_by(f64::total_cmp);
            ((bin as f64 + 0.5) * 0.5, v[v.len() / 2])
        })
        .collect();
    // Over two decades of area at least.
    assert!(pts.len() >= 10, "{} bins", pts.len());
    let h = fitted_slope(&pts);
    println!("Hack exponent {h:.3} over {} bins of area", pts.len());
    assert!((0.5..=0.7).contains(&h), "Hack exponent {h:.3}");
}

/// Lakes from flooded depressions: many small, few large, the count above an area falling
/// as a power of it (Korcak's law; the exponent is about 1 in lake districts the world over).
#[test]
fn lake_sizes_have_a_power_law_tail() {
    let lakes = &land().water.lakes;
    assert!(lakes.len() >= 100, "{} lakes", lakes.len());
    let mut areas: Vec<f64> = lakes.iter().map(|l| l.area_m2).collect();
    areas.sort_by(|a, b| b.total_cmp(a));
    // N(> A) against A over the tail: from the 5th largest to the smallest tenth.
    let tail = &areas[4..areas.len() * 9 / 10];
    let pts: Vec<(f64, f64)> = tail
        .iter()
        .enumerate()
        .map(|(i, a)| (a.ln(), ((i + 5) as f64).ln()))
        .collect();
    let b = -fitted_slope(&pts);
    println!("{} lakes, Korcak exponent {b:.3}", lakes.len());
    assert!((0.6..=1.4).contains(&b), "exponent {b:.3}");
    // A power law, not one size: the largest is orders of magnitude past the median.
    let median = areas[areas.len() / 2];
    assert!(areas[0] > 100.0 * median, "{} vs {median}", areas[0]);
    // And each lake holds at least the minimum area and depth.
    for l in lakes {
        assert!(
            l.area_m2 >= relief_tools::bake::planet::water::LAKE_MIN_AREA_M2,
            "{l:?}"
        );
        assert!(
            l.depth_m as f64 >= relief_tools::bake::planet::water::LAKE_MIN_DEPTH,
            "{l:?}"
        );
    }
}

/// Floodplains: beside every river draining at least 50 km², no ground the floods reach
/// (twice bankfull depth and a metre) stands higher than the floodplain's rise above the bed.
#[test]
fn floods_level_the_ground_beside_large_rivers() {
    use relief_tools::bake::classify::FLOODPLAIN_AREA_KM2;
    use relief_tools::bake::hydrology::{channel_depth, channel_width};
    use relief_tools::bake::planet::water::FLOODPLAIN_RISE_M;
    let w = &land().water;
    let (above, gathers) =
        relief_tools::bake::ground::drainage(&w.height, &w.routing, &w.area, &w.channel);
    let mut levelled = 0;
    for k in 0..w.height.len() {
        if w.channel[k] || w.lake[k] != 0 || w.ocean[k] || gathers[k] < FLOODPLAIN_AREA_KM2 {
            continue;
        }
        let reach = 2.0 * channel_depth(channel_width(gathers[k] * 1e6)) + 1.0;
        if above[k] < reach {
            assert!(
                above[k] <= FLOODPLAIN_RISE_M + 1e-9,
                "node {k}: {:.2} m above a river of {:.0} km², within the flood's {reach:.2} m",
                above[k],
                gathers[k]
            );
            levelled += 1;
        }
    }
    assert!(levelled > 1000, "{levelled} floodplain nodes");
}

/// Blown sand settles without being made or lost: the sand on the fine grid holds the
/// volume the wind laid on the coarse grid (to within what blending levels between coarse
/// cells moves across a sand sea's edge), none lies in a channel, lake or the sea, and the
/// hot deserts hold sand seas deep enough for dunes.
#[test]
fn blown_sand_settles_into_the_ground_without_being_made_or_lost() {
    use relief_tools::bake::routing::Graph;
    let l = land();
    let (w, fine, g) = (&l.water, &l.fine, &l.grid);
    let mut settled = 0.0;
    let mut deep = 0usize;
    for k in 0..fine.node_count() {
        let d = l.sand_depth[k] as f64;
        assert!(d >= 0.0, "node {k}: negative sand {d}");
        if w.channel[k] || w.lake[k] != 0 || w.ocean[k] {
            assert_eq!(d, 0.0, "node {k}: sand in a channel, lake or the sea");
        }
        settled += d * fine.area(k);
        deep += (d >= 2.0) as usize;
    }
    let blown: f64 = (0..g.node_count())
        .map(|k| l.sand.blown[k] * g.area[k])
        .sum();
    let ratio = settled / blown;
    eprintln!("sand: settled ÷ blown {ratio:.3}, {deep} nodes under 2 m or more");
    assert!(
        blown > 0.0 && (0.8..1.25).contains(&ratio),
        "settled ÷ blown {ratio:.3}"
    );
    assert!(deep > 10_000, "{deep} fine nodes under 2 m of sand or more");
}

/// Coasts have widths real ones have: the low ground a beach can take (above the sea and
/// below [`BEACH_ABOVE_M`]) is, per kilometre of coastline, tens to a few hundred metres
/// wide, as sand beaches are from waterline to backshore (Dean's shoreface and a berm,
/// `planet::shore`), not one cell nor kilometres; and the shelf reaches out a few
/// kilometres before the break at 120 m, not a cell or the width of an ocean.
#[test]
fn beaches_and_shelves_have_the_widths_of_real_coasts() {
    use relief_tools::bake::classify::{BEACH_ABOVE_M, SHELF_BREAK_M};
    let l = land();
    let (w, f) = (&l.water, &l.fine);
    let m = f.m as i64;
    let cell = f.radius * std::f64::consts::FRAC_PI_2 / m as f64;
    let sea = |k: usize| w.height[k] < 0.0;
    let mut crossings = 0u64;
    for face in 0..6 {
        for j in 0..m {
            for i in 0..m - 1 {
                crossings += (sea(f.index(face, i, j)) != sea(f.index(face, i + 1, j))) as u64;
                crossings += (sea(f.index(face, j, i)) != sea(f.index(face, j, i + 1))) as u64;
            }
        }
    }
    // Counting grid edges overstates a coast's length by 4/π on average over directions.
    let coast_m = crossings as f64 * cell * std::f64::consts::PI / 4.0;
    let (mut low, mut shelf) = (0.0, 0.0);
    for k in 0..w.height.len() {
        let h = w.height[k];
        if w.lake[k] == 0 && (0.0..BEACH_ABOVE_M).contains(&h) {
            low += f.area(k);
        }
        if (-SHELF_BREAK_M..0.0).contains(&h) {
            shelf += f.area(k);
        }
    }
    let (beach_m, shelf_km) = (low / coast_m, shelf / coast_m / 1000.0);
    eprintln!(
        "coast {:.0} km: low ground {beach_m:.0} m wide, shelf {shelf_km:.2} km",
        coast_m / 1000.0
    );
    assert!(
        (30.0..300.0).contains(&beach_m),
        "beach ground {beach_m:.0} m wide"
    );
    assert!(
        (0.5..20.0).contains(&shelf_km),
        "shelf {shelf_km:.2} km wide"
    );
}
