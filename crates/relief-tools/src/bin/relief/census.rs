//! `relief info`: a census a person can read.

use std::fmt::Write;

use relief::flat::{ReachKind, World};
use relief::things::{Band, Rules};
use relief_tools::bake::biomes::BiomeId;

pub fn describe(w: &World) -> String {
    let m = w.manifest();
    let c = &m.census;
    let side = (m.region_bounds.max[0] - m.region_bounds.min[0] + 1) as f64 * w.region_extent();
    let depth = (m.region_bounds.max[1] - m.region_bounds.min[1] + 1) as f64 * w.region_extent();
    let bytes: u64 = m.files.values().map(|f| f.bytes).sum();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "world    {}  (seed \"{}\", fnv1a {}, format v{}, bake v{})",
        w.source_name().display(),
        m.seed,
        m.seed_hash,
        m.format_version,
        m.bake_version
    );
    // Shares are of the ground given: holes and padding past an imported map's edge apart.
    let holes = match c.holes {
        0 => String::new(),
        h => format!("; {:.2} M of holes and padding apart", h as f64 / 1e6),
    };
    let _ = writeln!(
        s,
        "size     {:.2} km × {:.2} km: {} regions of {}² at {} m ({:.2} M samples of ground{holes}), {:.1} MB on disk",
        side / 1000.0,
        depth / 1000.0,
        m.region_bounds.count(),
        m.region_size,
        m.vertex_spacing,
        c.samples as f64 / 1e6,
        bytes as f64 / 1e6
    );
    let sea = match m.sea_level {
        Some(level) => format!("sea level {level} m"),
        None => "no sea".into(),
    };
    let _ = writeln!(
        s,
        "height   {:.1} m … {:.1} m, {sea}",
        m.height_range[0], m.height_range[1]
    );
    let _ = match m.sea_level {
        Some(_) => writeln!(
            s,
            "water    ocean {:.1} %, lakes {:.2} % of the ground",
            100.0 * c.ocean_share,
            100.0 * c.lake_share
        ),
        None => writeln!(
            s,
            "water    lakes {:.2} % of the ground",
            100.0 * c.lake_share
        ),
    };
    // `+ 0.0`: an empty f64 sum is −0.0, which would print as "-0.0 km".
    let km = |kind: ReachKind| {
        w.reaches()
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.length_m as f64)
            .sum::<f64>()
            / 1000.0
            + 0.0
    };
    let top_order = w.reaches().iter().map(|r| r.order).max().unwrap_or(0);
    let widest = w.reaches().iter().map(|r| r.width_m).fold(0.0f32, f32::max);
    let _ = writeln!(
        s,
        "rivers   {:.1} km of river and {:.1} km of creek in {} reaches; Strahler order up to {}, widest {:.1} m",
        km(ReachKind::River),
        km(ReachKind::Creek),
        w.reaches().len(),
        top_order,
        widest
    );
    match w
        .lakes()
        .iter()
        .max_by(|a, b| a.area_m2.total_cmp(&b.area_m2))
    {
        Some(big) => {
            let _ = writeln!(
                s,
                "lakes    {}; largest is lake {}, {:.0} m² at level {:.2} m, {:.1} m deep",
                w.lakes().len(),
                big.id,
                big.area_m2,
                big.level_m,
                big.depth_m
            );
        }
        None => {
            let _ = writeln!(s, "lakes    none");
        }
    }
    s += &things_line(w.things());
    s += &class_table(
        &c.biome_shares,
        c.samples,
        "world",
        1.0 - c.ocean_share - c.lake_share,
    );
    s
}

/// The census of ground classes in seed 000's form: class, province, cells, share of the
/// world (or sphere) and of land, largest first. Classes relief's baker writes carry their
/// province; an imported world's own names have none. `land` is the share of samples above
/// water, used where the names are not the baker's.
fn class_table(
    shares: &std::collections::BTreeMap<String, f64>,
    samples: u64,
    of: &str,
    land: f64,
) -> String {
    let known = |name: &str| BiomeId::all().find(|b| b.name() == name);
    // Land: every known class not under water; unknown names count as land by `land`.
    let all_known = shares.keys().all(|n| known(n).is_some());
    let land_share = if all_known {
        shares
            .iter()
            .filter(|(n, _)| known(n).is_some_and(|b| !b.is_water()))
            .map(|(_, v)| v)
            .sum::<f64>()
    } else {
        land
    };
    let mut rows: Vec<(&String, &f64)> = shares.iter().collect();
    rows.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
    let mut s = String::new();
    let present = rows.iter().filter(|(_, v)| **v > 0.0).count();
    let declared = if all_known {
        BiomeId::COUNT
    } else {
        rows.len()
    };
    let _ = writeln!(
        s,
        "classes  {present} present of {declared}; land {:.1} % of the {of}",
        100.0 * land_share
    );
    let _ = writeln!(
        s,
        "  {:<26} {:<15} {:>12} {:>9} {:>8}  what it is",
        "class",
        "province",
        "cells",
        format!("of {of}"),
        "of land"
    );
    for (name, &share) in rows {
        let class = known(name);
        let province = class.map_or("—", |b| b.province().name());
        let water = class.is_some_and(|b| b.is_water());
        let of_land = if water || land_share <= 0.0 {
            "—".to_string()
        } else {
            format!("{:.2} %", 100.0 * share / land_share)
        };
        let _ = writeln!(
            s,
            "  {:<26} {:<15} {:>12} {:>8.3} % {:>8}  {}",
            name,
            province,
            (share * samples as f64).round() as u64,
            100.0 * share,
            of_land,
            class.map_or("", |b| b.what())
        );
    }
    s
}

/// The placement table's kinds by band (`things   6 kinds: near grass, reeds; …`).
pub fn things_line(rules: &Rules) -> String {
    if rules.is_empty() {
        return "things   none (no placement table)\n".into();
    }
    let bands: Vec<String> = Band::ALL
        .into_iter()
        .filter(|b| rules.has_band(*b))
        .map(|b| {
            let names: Vec<&str> = rules
                .kinds
                .iter()
                .filter(|k| k.band == b)
                .map(|k| k.name.as_str())
                .collect();
            format!("{} {}", b.name(), names.join(", "))
        })
        .collect();
    format!(
        "things   {} kinds: {}\n",
        rules.kinds.len(),
        bands.join("; ")
    )
}

/// `relief info` for a PLNT planet: the header and the census the baker stored.
pub fn describe_planet(p: &relief::planet::Planet) -> Result<String, relief::flat::FormatError> {
    let h = p.blob().header();
    let c = p.census()?;
    let bytes = h.file_length;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "planet   {}  (seed \"{}\", fnv1a {}, PLNT v{}, bake v{})",
        p.blob().name().display(),
        p.seed_text()?,
        h.seed,
        h.version,
        h.bake_version
    );
    let _ = writeln!(
        s,
        "size     radius {:.1} km; 6 faces of {}² ({:.1} M samples, {:.1} m cells), tiles of {}², {:?}; {:.1} MB",
        h.radius / 1000.0,
        h.face_resolution,
        c.samples as f64 / 1e6,
        p.spacing(),
        h.tile_size,
        h.projection,
        bytes as f64 / 1e6
    );
    let fields: Vec<String> = p
        .blob()
        .fields()
        .iter()
        .map(|f| format!("{} (v{})", f.name, f.since))
        .collect();
    let _ = writeln!(s, "fields   {}", fields.join(", "));
    let _ = writeln!(
        s,
        "axis     polar axis ({:.3}, {:.3}, {:.3})",
        h.polar_axis[0], h.polar_axis[1], h.polar_axis[2]
    );
    let _ = writeln!(
        s,
        "height   {:.1} m … {:.1} m, sea level {} m",
        h.height_min, h.height_max, h.sea_level
    );
    let _ = writeln!(
        s,
        "water    ocean {:.1} %, lakes {:.2} %",
        100.0 * c.ocean_share,
        100.0 * c.lake_share
    );
    let _ = writeln!(
        s,
        "rivers   {:.1} km of river, {:.1} km of creek in {} reaches ({} points)",
        c.river_km, c.creek_km, c.reaches, c.river_points
    );
    let lakes = p.lakes()?;
    let largest = lakes.iter().max_by(|a, b| a.area_m2.total_cmp(&b.area_m2));
    match largest {
        Some(l) => {
            let _ = writeln!(
                s,
                "lakes    {}; largest is lake {}, {:.2} km² at level {:.1} m, {:.1} m deep",
                lakes.len(),
                l.id,
                l.area_m2 / 1e6,
                l.level_m,
                l.depth_m
            );
        }
        None => {
            let _ = writeln!(s, "lakes    none");
        }
    }
    s += &things_line(p.things()?);
    s += &class_table(
        &c.biome_shares,
        c.samples,
        "sphere",
        1.0 - c.ocean_share - c.lake_share,
    );
    Ok(s)
}

/// Reads every tile of every field and checks it.
pub fn verify_planet(p: &relief::planet::Planet) -> Result<usize, relief::flat::FormatError> {
    let h = p.blob().header();
    let tps = (h.face_resolution / h.tile_size) as u16;
    let mut n = 0;
    for face in 0..6u8 {
        for ty in 0..tps {
            for tx in 0..tps {
                p.read_tile(relief::planet::TileKey { face, tx, ty })?;
                n += 1;
            }
        }
    }
    Ok(n)
}
