//! Imported hydrology on real terrain: a 3″ DEM of northern Tennessee (matplotlib's sample
//! `jacksboro_fault_dem.npz`; tests/fixtures/jacksboro/README.md has its origin and licence),
//! imported as `relief import heightmap --spacing 74.6,92.5` would, with the default rules.
//! What is asserted are laws a wrong hydrology breaks: lakes only where water stands, every
//! reach joined to what it flows into, area conserved down the network, Strahler order
//! continuing through lakes, lake outlines as large as the lake layer.

mod common;

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use relief::flat::tables::{ring_area, Lake, ReachEnd};
use relief::{RegionLocation, World};
use relief_tools::import::heightmap::{cut, resample_square, Heightmap};
use relief_tools::import::{write_world, ImportSettings};

const DEM: &str = "tests/fixtures/jacksboro/jacksboro_fault_dem.npz";

/// One member of an `.npz` (a zip of `.npy` arrays, deflated or stored): its dtype, shape
/// and little-endian bytes.
fn npy(zip: &[u8], name: &str) -> (String, Vec<usize>, Vec<u8>) {
    let want = format!("{name}.npy");
    // A local file header: signature, then the name at offset 30.
    let start = (0..zip.len() - 30)
        .find(|&i| {
            zip[i..i + 4] == *b"PK\x03\x04"
                && zip[i + 30..].starts_with(want.as_bytes())
                && u16::from_le_bytes([zip[i + 26], zip[i + 27]]) as usize == want.len()
        })
        .unwrap_or_else(|| panic!("{want} is not in the archive"));
    let method = u16::from_le_bytes([zip[start + 8], zip[start + 9]]);
    let extra = u16::from_le_bytes([zip[start + 28], zip[start + 29]]) as usize;
    let data = &zip[start + 30 + want.len() + extra..];
    let mut raw = Vec::new();
    match method {
        // The deflate stream ends itself; what follows it is the next header.
        8 => {
            flate2::read::DeflateDecoder::new(data)
                .read_to_end(&mut raw)
                .unwrap();
        }
        0 => {
            let size = u32::from_le_bytes(zip[start + 22..start + 26].try_into().unwrap());
            raw = data[..size as usize].to_vec();
        }
        m => panic!("zip method {m}"),
    }
    assert_eq!(&raw[..6], b"\x93NUMPY");
    let (len, at) = match raw[6] {
        1 => (u16::from_le_bytes([raw[8], raw[9]]) as usize, 10),
        _ => (
            u32::from_le_bytes(raw[8..12].try_into().unwrap()) as usize,
            12,
        ),
    };
    let header = std::str::from_utf8(&raw[at..at + len]).unwrap();
    let field = |key: &str| {
        let i = header.find(key).unwrap() + key.len();
        header[i..].trim_start_matches([' ', ':', '\''])
    };
    let descr = field("'descr'").split('\'').next().unwrap().to_string();
    assert!(field("'fortran_order'").starts_with("False"));
    let shape = field("'shape'");
    let shape: Vec<usize> = shape[1..shape.find(')').unwrap()]
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    (descr, shape, raw[at + len..].to_vec())
}

fn scalar(zip: &[u8], name: &str) -> f64 {
    let (descr, shape, bytes) = npy(zip, name);
    assert_eq!((descr.as_str(), shape.len()), ("<f8", 0), "{name}");
    f64::from_le_bytes(bytes[..8].try_into().unwrap())
}

/// The DEM in metres, and its cells' east–west and north–south sides in metres on the
/// WGS 84 ellipsoid at the map's middle latitude.
fn dem() -> (Heightmap, f64, f64) {
    let zip = std::fs::read(DEM).unwrap();
    let (descr, shape, bytes) = npy(&zip, "elevation");
    assert_eq!((descr.as_str(), &shape[..]), ("<i2", &[344, 403][..]));
    let heights: Vec<f32> = bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32)
        .collect();
    let (dx, dy) = (scalar(&zip, "dx"), scalar(&zip, "dy"));
    let lat = ((scalar(&zip, "ymin") + scalar(&zip, "ymax")) / 2.0).to_radians();
    let (a, e2) = (6_378_137.0, 6.694_379_990_14e-3);
    let w = (1.0 - e2 * lat.sin().powi(2)).sqrt();
    let (prime, meridian) = (a / w, a * (1.0 - e2) / w.powi(3));
    let east = prime * lat.cos() * dx.to_radians();
    let north = meridian * dy.to_radians();
    let hm = Heightmap {
        width: shape[1],
        depth: shape[0],
        heights,
    };
    (hm, east, north)
}

struct Imported {
    world: World,
    /// Samples of ground the map gave.
    cells: usize,
    spacing: f64,
}

fn import(name: &str, dx: f64, dz: f64) -> Imported {
    let (hm, ..) = dem();
    let (hm, spacing) = resample_square(hm, dx, dz).unwrap();
    let cells = hm.heights.iter().filter(|h| h.is_finite()).count();
    let regions = cut(&hm, 512).unwrap();
    let settings = ImportSettings::new(name, 512, spacing);
    let out = common::scratch(name);
    write_world(&regions, &settings, &out, &relief_tools::Silent).unwrap();
    Imported {
        world: World::open(&out).unwrap(),
        cells,
        spacing,
    }
}

fn tennessee() -> &'static Imported {
    static W: OnceLock<Imported> = OnceLock::new();
    W.get_or_init(|| {
        let (_, east, north) = dem();
        import("real-tennessee", east, north)
    })
}

#[test]
fn the_cells_are_as_wide_as_the_latitude_makes_them() {
    let (hm, east, north) = dem();
    assert!((74.4..74.8).contains(&east), "{east}");
    assert!((92.3..92.7).contains(&north), "{north}");
    // Resampled to square cells of the east–west side, the map keeps its extent in metres.
    let t = tennessee();
    assert_eq!(t.spacing, east);
    let m = t.world.manifest();
    assert_eq!(m.census.samples as usize, t.cells);
    let rows = t.cells / hm.width;
    assert!(((rows - 1) as f64 * east - (hm.depth - 1) as f64 * north).abs() < east);
}

/// The DEM's valley floors rise and fall by 5–25 m: before breaching, 696 depressions made
/// 587 lakes over 4.9 % of the map. Breached, lakes are the flat water the DEM shows and
/// little else, and the census is over the ground given, not its padding.
#[test]
fn lakes_stand_only_where_the_ground_says_water_stands() {
    let t = tennessee();
    let m = t.world.manifest();
    assert_eq!(m.sea_level, None, "no sea was asked for");
    assert_eq!(m.census.ocean_share, 0.0);
    assert_eq!(m.census.holes as usize, 512 * 512 - t.cells);
    let share = m.census.lake_share;
    assert!(share > 0.002 && share < 0.015, "lakes cover {share}");
    let lakes = t.world.lakes();
    assert!(lakes.len() <= 12, "{} lakes", lakes.len());
    let cell = t.spacing * t.spacing;
    // The flat at 305 m is water: at least a square kilometre of lake at one level, read off
    // the flat (depth unknown, so 0).
    let flat: f64 = lakes
        .iter()
        .filter(|l| l.depth_m == 0.0)
        .map(|l| l.area_m2)
        .sum();
    assert!(flat > 1e6, "{flat} m² of flat water");
    assert!(lakes.iter().all(|l| l.area_m2 >= 16.0 * cell - 1.0));
}

/// Every ring of every lake, parts and islands, together cover the lake layer's samples:
/// within one cell a ring (the rings cut the staircase's corners).
#[test]
fn lake_outlines_cover_the_lake_layer() {
    let t = tennessee();
    let region = t.world.read_region(RegionLocation::new(0, 0)).unwrap();
    let mut layer: HashMap<u16, usize> = HashMap::new();
    for &id in region.lake.as_ref().unwrap().iter() {
        if id != 0 {
            *layer.entry(id).or_default() += 1;
        }
    }
    let cell = t.spacing * t.spacing;
    for l in t.world.lakes() {
        let outline: f64 = l.rings().map(ring_area).sum();
        let samples = layer.get(&(l.id as u16)).copied().unwrap_or(0) as f64 * cell;
        let rings = l.rings().count() as f64;
        assert!(
            (outline - samples).abs() <= rings * cell,
            "lake {}: outline {outline} m², layer {samples} m², {rings} rings",
            l.id
        );
        assert!((l.area_m2 - samples).abs() <= 0.5 * cell, "lake {}", l.id);
    }
}

/// The order a lake passes on, by the documented rule (docs/formats.md).
fn lake_order(lakes: &[Lake], into: &HashMap<u32, Vec<u8>>, l: u32) -> u8 {
    let mut orders = into.get(&l).cloned().unwrap_or_default();
    for u in lakes.iter().filter(|u| u.drains_to == ReachEnd::Lake(l)) {
        orders.push(lake_order(lakes, into, u.id));
    }
    strahler(&orders)
}

fn strahler(orders: &[u8]) -> u8 {
    match orders.iter().max() {
        None => 1,
        Some(&m) if orders.iter().filter(|&&o| o == m).count() > 1 => m + 1,
        Some(&m) => m,
    }
}

/// The river network read from its tables alone: each reach ends where the next begins, in
/// a lake or off the map; beds fall; drained area grows down every reach and is conserved at
/// every join; Strahler order follows its rule through lakes; reaches from a lake start at
/// its shore; and no reach draining 10 km² or more is order 1 (48 of 368 were, when lake
/// outflows read as joins).
#[test]
fn the_network_is_continuous_conserves_area_and_orders_through_lakes() {
    let t = tennessee();
    let (reaches, lakes) = (t.world.reaches(), t.world.lakes());
    assert!(reaches.len() > 1000);
    let m = t.world.manifest();
    let extent = t.world.region_extent();
    let lo = m.region_bounds.min[0] as f64 * extent;
    let width = 403.0 * t.spacing;
    let depth = (t.cells / 403) as f64 * t.spacing;
    let off_map = |p: [f32; 3]| {
        let (x, z) = (p[0] as f64 - lo, p[1] as f64 - lo);
        x < 1.5 * t.spacing
            || z < 1.5 * t.spacing
            || x > width - 2.5 * t.spacing
            || z > depth - 2.5 * t.spacing
    };
    let mut into_reach: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, r) in reaches.iter().enumerate() {
        assert!(r.points.windows(2).all(|w| w[1][2] < w[0][2]), "reach {i}");
        assert!(r.drains_km2 >= r.head_drains_km2, "reach {i}");
        let last = *r.points.last().unwrap();
        match r.to {
            ReachEnd::Reach(d) => {
                assert_eq!(last, reaches[d as usize].points[0], "reach {i} into {d}");
                into_reach.entry(d).or_default().push(i);
            }
            ReachEnd::Lake(l) => {
                let lake = &lakes[l as usize - 1];
                let near = lake.contains(last[0] as f64, last[1] as f64)
                    || lake
                        .rings()
                        .flatten()
                        .any(|q| (q[0] - last[0]).hypot(q[1] - last[1]) < 1.5 * t.spacing as f32);
                assert!(near, "reach {i} ends at {last:?}, not in lake {l}");
            }
            ReachEnd::Sea => assert!(off_map(last), "reach {i} leaves at {last:?}"),
            other => panic!("reach {i} flows to {other:?}"),
        }
    }
    // Area in = area out: a head drains at least what flows into it.
    let cell_km2 = t.spacing * t.spacing / 1e6;
    for (i, r) in reaches.iter().enumerate() {
        let upstream: f64 = into_reach.get(&(i as u32)).map_or(0.0, |v| {
            v.iter().map(|&u| reaches[u].drains_km2 as f64).sum()
        });
        assert!(
            r.head_drains_km2 as f64 >= upstream * (1.0 - 1e-5),
            "reach {i}: head drains {} km², {upstream} km² flows in",
            r.head_drains_km2
        );
    }
    let map_km2 = t.cells as f64 * cell_km2;
    let to_edge: f64 = reaches
        .iter()
        .filter(|r| r.to == ReachEnd::Sea)
        .map(|r| r.drains_km2 as f64)
        .sum();
    assert!(
        to_edge <= map_km2 * (1.0 + 1e-5),
        "{to_edge} of {map_km2} km²"
    );
    assert!(to_edge > 0.5 * map_km2, "most of the map drains by rivers");

    // Strahler order, recomputed from the tables by the documented rule.
    let mut orders: HashMap<u32, Vec<u8>> = HashMap::new();
    for (i, r) in reaches.iter().enumerate().rev() {
        let mut incoming: Vec<u8> = into_reach.get(&(i as u32)).map_or(Vec::new(), |v| {
            v.iter().map(|&u| reaches[u].order).collect()
        });
        if let ReachEnd::Lake(l) = r.from {
            incoming.push(lake_order(lakes, &orders, l));
        }
        assert_eq!(r.order, strahler(&incoming), "reach {i}");
        if let ReachEnd::Lake(l) = r.to {
            orders.entry(l).or_default().push(r.order);
        }
    }
    let big: Vec<_> = reaches.iter().filter(|r| r.drains_km2 >= 10.0).collect();
    assert!(big.len() > 100);
    assert_eq!(big.iter().filter(|r| r.order == 1).count(), 0);
    // Water leaving a lake is a reach from that lake, starting at its shore, and it leaves
    // each lake at one place.
    let outflows: Vec<_> = reaches
        .iter()
        .filter(|r| matches!(r.from, ReachEnd::Lake(_)))
        .collect();
    assert!(!outflows.is_empty());
    for l in lakes {
        let n = outflows
            .iter()
            .filter(|r| r.from == ReachEnd::Lake(l.id))
            .count();
        assert!(n <= 1, "lake {} has {n} outflows", l.id);
    }
    for r in outflows {
        let ReachEnd::Lake(l) = r.from else {
            unreachable!()
        };
        let lake = &lakes[l as usize - 1];
        let head = r.points[0];
        let d = lake
            .rings()
            .flatten()
            .map(|q| (q[0] - head[0]).hypot(q[1] - head[1]))
            .fold(f32::INFINITY, f32::min);
        assert!(
            d < 1.5 * t.spacing as f32,
            "a reach from lake {l} starts {d} m off it"
        );
    }
}

/// One spacing for a map whose cells are 74.6 × 92.5 m makes its rivers 19 % too short (or
/// too long): the same DEM's rivers at the true spacings are between the two.
#[test]
fn one_spacing_for_oblong_cells_gets_the_rivers_length_wrong() {
    let river_km = |w: &World| {
        w.reaches()
            .iter()
            .filter(|r| r.kind == relief::flat::ReachKind::River)
            .map(|r| r.length_m as f64)
            .sum::<f64>()
            / 1e3
    };
    let (_, east, north) = dem();
    let right = river_km(&tennessee().world);
    let short = river_km(&import("real-east", east, east).world);
    let long = river_km(&import("real-north", north, north).world);
    assert!(
        short < 0.9 * right && long > 1.1 * right,
        "{short} {right} {long}"
    );
}
