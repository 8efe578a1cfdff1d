//! The fuzz harnesses: one function per target, each taking the fuzzer's bytes. Shared by the
//! libFuzzer binaries in `fuzz_targets/` (nightly, `cargo +nightly fuzz run TARGET`) and by
//! `tests/fuzz_replay.rs`, which replays every saved input on stable so a fixed crash stays
//! fixed.
//!
//! Structure-aware: before parsing, each harness rewrites the checksums its format carries
//! (region header and layer CRCs, overview, pack index, every PLNT table, tile and section,
//! a world manifest's file list) so mutations reach the code behind the CRC check instead of
//! dying at it. A harness passes when the code under test returns — `Ok` or a typed error —
//! without panicking, hanging or allocating past libFuzzer's `-rss_limit_mb`.
//!
//! Only relief's (and relief-tools') public API is used, so this file compiles both inside the
//! fuzz crate and as a module of the stable test.

use std::sync::Arc;
use std::time::Duration;

use relief::codec;
use relief::flat::region::decode_region;
use relief::flat::tables::{BiomesFile, LakesFile, RiversFile};
use relief::flat::{Manifest, Overview};
use relief::planet::format::{decode_fields, decode_index, decode_sections};
use relief::planet::tables::{decode_lakes, decode_reaches};
use relief::planet::{Header, Planet, TileKey};
use relief::runtime::Queries;
use relief::{DVec3, Runtime, RuntimeConfig, World};

/// A harness: runs the code under test on the fuzzer's bytes; returns unless it panics.
pub type Harness = fn(&[u8]);

/// Every target: its name (the `fuzz_targets/` file, the corpus directory) and harness.
pub const TARGETS: &[(&str, Harness)] = &[
    ("region", region),
    ("overview", overview),
    ("codec", codec_target),
    ("manifest", manifest),
    ("rivers", rivers),
    ("lakes", lakes),
    ("biomes", biomes),
    ("things", things),
    ("pack", pack),
    ("planet_header", planet_header),
    ("planet_tables", planet_tables),
    ("planet_tiles", planet_tiles),
    ("world_queries", world_queries),
    ("planet_queries", planet_queries),
    ("terrain3d", terrain3d),
    ("remote", remote),
    ("heightmap", heightmap),
    ("route", route),
    ("baseline", baseline),
];

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
/// The bytes `start .. start + len` of `b`, cut at its end.
fn span(b: &[u8], start: u64, len: u64) -> &[u8] {
    let start = (start.min(b.len() as u64)) as usize;
    let end = (start as u64).saturating_add(len).min(b.len() as u64) as usize;
    &b[start..end]
}

// ---------------------------------------------------------------------------------------
// Checksum fix-ups, one per format (layouts in docs/formats.md).

/// Region file: each layer's CRC over its payload, then the header CRC.
pub fn fix_region(b: &mut [u8]) {
    if b.len() < 24 {
        return;
    }
    let n = u16_at(b, 6);
    let table_end = 24 + 12 * n;
    if table_end > b.len() {
        return;
    }
    let mut at = table_end as u64;
    for i in 0..n {
        let e = 24 + 12 * i;
        let len = u32_at(b, e + 4) as u64;
        let crc = crc32fast::hash(span(b, at, len));
        put_u32(b, e + 8, crc);
        at = at.saturating_add(len);
    }
    let mut h = crc32fast::Hasher::new();
    h.update(&b[..20]);
    h.update(&b[24..table_end]);
    put_u32(b, 20, h.finalize());
}

/// Overview: the payload CRC, then the header CRC.
pub fn fix_overview(b: &mut [u8]) {
    if b.len() < 52 {
        return;
    }
    let len = u32_at(b, 40) as u64;
    let crc = crc32fast::hash(span(b, 52, len));
    put_u32(b, 44, crc);
    let crc = crc32fast::hash(&b[..48]);
    put_u32(b, 48, crc);
}

/// Pack: the index CRC.
pub fn fix_pack(b: &mut [u8]) {
    if b.len() < 16 {
        return;
    }
    let end = 16 + u32_at(b, 12) as usize;
    if end + 4 <= b.len() {
        let crc = crc32fast::hash(&b[..end]);
        put_u32(b, end, crc);
    }
}

/// Whether a table ending at `end` has room for its 4-byte CRC in `len` bytes.
fn fits(end: u64, len: usize) -> bool {
    end.checked_add(4).is_some_and(|e| e <= len as u64)
}

/// PLNT: every tile and section CRC, the index, section and field table CRCs, the header
/// CRC — inner first, since each table's CRC covers the entries just fixed.
pub fn fix_planet(b: &mut [u8]) {
    if b.len() < 128 {
        return;
    }
    let fields = u32_at(b, 36) as usize;
    let (n, t) = (u32_at(b, 24) as u64, u32_at(b, 28) as u64);
    let tiles = if t == 0 || n % t != 0 {
        0
    } else {
        (fields as u64)
            .saturating_mul(6)
            .saturating_mul((n / t).pow(2))
    };
    let index = u64_at(b, 88);
    let entries = tiles.min(1 << 16);
    if let Some(end) = index.checked_add(16 * entries) {
        if fits(end, b.len()) && tiles == entries {
            let index = index as usize;
            for k in 0..entries as usize {
                let e = index + 16 * k;
                let crc = crc32fast::hash(span(b, u64_at(b, e), u32_at(b, e + 8) as u64));
                put_u32(b, e + 12, crc);
            }
            let end = end as usize;
            let crc = crc32fast::hash(&b[index..end]);
            put_u32(b, end, crc);
        }
    }
    let sections = (u32_at(b, 76) as u64).min(64);
    let table = u64_at(b, 96);
    if let Some(end) = table.checked_add(24 * sections) {
        if fits(end, b.len()) {
            let table = table as usize;
            for k in 0..sections as usize {
                let e = table + 24 * k;
                let crc = crc32fast::hash(span(b, u64_at(b, e + 8), u64_at(b, e + 16)));
                put_u32(b, e + 4, crc);
            }
            let end = end as usize;
            let crc = crc32fast::hash(&b[table..end]);
            put_u32(b, end, crc);
        }
    }
    let end = 128 + 32 * fields.min(64);
    if end + 4 <= b.len() {
        let crc = crc32fast::hash(&b[128..end]);
        put_u32(b, end, crc);
    }
    let crc = crc32fast::hash(&b[..124]);
    put_u32(b, 124, crc);
}

/// The files of a pack, read loosely (no checks: the fuzzer's pack may be anything).
fn unpack(b: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    if b.len() < 16 || b[..4] != *b"RLPK" {
        return None;
    }
    let count = u32_at(b, 8) as usize;
    let mut at = 16;
    let mut files = Vec::new();
    for _ in 0..count.min(256) {
        let name_len = u16_at(b.get(at..at + 2)?, 0);
        let name = std::str::from_utf8(b.get(at + 2..at + 2 + name_len)?).ok()?;
        let e = at + 2 + name_len;
        let (offset, len) = (
            u64_at(b.get(e..e + 8)?, 0),
            u64_at(b.get(e + 8..e + 16)?, 0),
        );
        files.push((name.to_string(), span(b, offset, len).to_vec()));
        at = e + 16;
    }
    Some(files)
}

/// A well-formed pack of `files` (the writer's layout: index, then 16-byte aligned files).
fn repack(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let index_len: usize = files.iter().map(|(n, _)| 2 + n.len() + 16).sum();
    let mut at = (16 + index_len + 4).next_multiple_of(16) as u64;
    let mut out = Vec::new();
    out.extend_from_slice(b"RLPK");
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(files.len() as u32).to_le_bytes());
    out.extend_from_slice(&(index_len as u32).to_le_bytes());
    for (name, bytes) in files {
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        at = (at + bytes.len() as u64).next_multiple_of(16);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    for (_, bytes) in files {
        out.resize(out.len().next_multiple_of(16), 0);
        out.extend_from_slice(bytes);
    }
    out
}

/// A world pack whose every checksum holds: regions and overview fixed up, the manifest's
/// `files` rewritten to the files' real lengths and CRCs (when it parses as JSON at all).
pub fn fix_world_pack(b: &[u8]) -> Option<Vec<u8>> {
    let mut files = unpack(b)?;
    for (name, bytes) in &mut files {
        if name.ends_with(".rlr") {
            fix_region(bytes);
        } else if name.ends_with(".rlo") {
            fix_overview(bytes);
        }
    }
    let sums: Vec<(String, u64, u32)> = files
        .iter()
        .map(|(n, b)| (n.clone(), b.len() as u64, crc32fast::hash(b)))
        .collect();
    if let Some((_, manifest)) = files.iter_mut().find(|(n, _)| n == "world.json") {
        if let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(manifest) {
            if let Some(listed) = json.get_mut("files").and_then(|f| f.as_object_mut()) {
                for (name, len, crc) in &sums {
                    if let Some(entry) = listed.get_mut(name).and_then(|e| e.as_object_mut()) {
                        entry.insert("bytes".into(), (*len).into());
                        entry.insert("crc32".into(), (*crc).into());
                    }
                }
            }
            *manifest = serde_json::to_vec(&json).ok()?;
        }
    }
    Some(repack(&files))
}

// ---------------------------------------------------------------------------------------
// The harnesses.

/// A region file, any layer set and codec.
pub fn region(data: &[u8]) {
    let mut b = data.to_vec();
    fix_region(&mut b);
    if let Ok(region) = decode_region(&b, None) {
        // A region that decodes is whole: every map has size² samples.
        let n = (region.size as usize).pow(2);
        assert_eq!(region.height.len(), n);
    }
}

/// An overview file.
pub fn overview(data: &[u8]) {
    let mut b = data.to_vec();
    fix_overview(&mut b);
    if let Ok(o) = Overview::decode(&b) {
        let _ = o.height(o.origin_x + o.spacing * 1.5, o.origin_z - 3.0);
    }
}

/// Every codec on any stored bytes: byte 0 the codec, byte 1 the element size, bytes 2..4
/// the decoded element count (so at most 64 Ki elements), the rest stored.
pub fn codec_target(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let Ok(c) = codec::Codec::from_code(data[0]) else {
        return;
    };
    let elem = [1, 2, 4][data[1] as usize % 3];
    let count = u16_at(data, 2);
    let mut out = vec![0u8; count * elem];
    let decoded = codec::decode(c, elem, &data[4..], &mut out).is_ok();
    let encodable = c != codec::Codec::Fixed1024DeltaLz4 || codec::fits_fixed1024(&out);
    if decoded && encodable {
        // What decodes re-encodes (where the codec can hold it: fixed1024 only takes
        // heights on its 1/1024 m grid) and decodes back to the same bytes.
        let again = codec::encode(c, elem, &out);
        let mut back = vec![0u8; out.len()];
        if codec::decode(c, elem, &again, &mut back).is_ok() {
            assert_eq!(back, out);
        }
    }
}

/// A world manifest (`world.json`).
pub fn manifest(data: &[u8]) {
    let Ok(m) = serde_json::from_slice::<Manifest>(data) else {
        return;
    };
    if m.validate().is_ok() {
        let _ = m.layer_kinds();
        let count = m.region_bounds.count();
        assert_eq!(
            m.region_bounds.locations().take(4096).count(),
            count.min(4096)
        );
    }
}

/// `rivers.json`.
pub fn rivers(data: &[u8]) {
    if let Ok(f) = serde_json::from_slice::<RiversFile>(data) {
        let _ = relief::flat::tables::validate(&f.reaches, &[], &[]);
    }
}

/// `lakes.json`.
pub fn lakes(data: &[u8]) {
    if let Ok(f) = serde_json::from_slice::<LakesFile>(data) {
        let _ = relief::flat::tables::validate(&[], &f.lakes, &[]);
    }
}

/// `biomes.json`.
pub fn biomes(data: &[u8]) {
    if let Ok(f) = serde_json::from_slice::<BiomesFile>(data) {
        let _ = relief::flat::tables::validate(&[], &[], &f.biomes);
    }
}

/// `things.json` against the baker's biomes; a table that compiles then places each band
/// in a small square over ground that varies (every biome, slopes, holes, water near and
/// far) and lays the things out as a chunk. Placement's work is bounded by the table's own
/// caps (kinds, densities against spacings, cells per chunk), never by the bytes.
pub fn things(data: &[u8]) {
    use relief::things::place::place;
    use relief::things::{Band, Rules, Square, ThingChunk, ThingKey};
    let table = relief_tools::bake::biomes::table();
    let names: Vec<&str> = table.iter().map(|b| b.name.as_str()).collect();
    let Ok(rules) = Rules::parse(data, &names) else {
        return;
    };
    let square = Square {
        x0: -8.0,
        z0: 24.0,
        size: 16.0,
    };
    for band in Band::ALL {
        let things = place(&rules, 7, band, square, &FuzzGround(names.len() as u8));
        let key = ThingKey {
            band,
            face: 0,
            x: 0,
            z: 0,
        };
        let chunk = ThingChunk::new(key, DVec3::ZERO, &rules, &things);
        assert_eq!(chunk.len(), things.len());
        assert!(chunk.rows.iter().flatten().all(|v| v.is_finite()));
    }
}

/// Ground for [`things`]: stripes of every biome, rolling slopes, a hole and a river.
struct FuzzGround(u8);

impl relief::things::Sites for FuzzGround {
    fn biome(&self, _: u8, x: f64, z: f64) -> Option<u8> {
        let hole = (x - 4.0).abs() < 1.0 && (z - 30.0).abs() < 1.0;
        (!hole).then(|| ((x + z).rem_euclid(f64::from(self.0))) as u8)
    }
    fn site(&self, s: &relief::things::Spot) -> Option<relief::things::Site> {
        let biome = self.biome(s.plane, s.x, s.z)?;
        let (x, z) = (s.x, s.z);
        let normal = DVec3::new((x * 0.3).sin(), 1.0, (z * 0.2).cos()).normalize();
        let height = 40.0 + 30.0 * (x * 0.05).sin();
        Some(relief::things::Site {
            height,
            position: DVec3::new(x, height, z),
            normal,
            frame: relief::things::WORLD_FRAME,
            biome,
            in_lake: z > 36.0 && x > 0.0,
        })
    }
    fn water(
        &self,
        s: &relief::things::Spot,
        _: &relief::things::Site,
        _: bool,
    ) -> relief::things::Water {
        let distance = s.x.abs().min(relief::things::WATER_REACH_M);
        relief::things::Water {
            distance,
            wetness: (1.0 - distance / 64.0).max(0.0),
            wet: distance < 1.0,
        }
    }
}

/// A pack: its index (fixed up), then every file it lists.
pub fn pack(data: &[u8]) {
    let mut b = data.to_vec();
    fix_pack(&mut b);
    let Ok(p) = relief::flat::store::Pack::open("fuzz.rlpack", Box::new(b.clone())) else {
        return;
    };
    let store = relief::flat::Store::Pack(p);
    for name in [
        "world.json",
        "overview.rlo",
        "rivers.json",
        "regions/region_00_00.rlr",
    ] {
        if let Ok(len) = store.len(name) {
            if let Ok(bytes) = store.read(name) {
                assert_eq!(bytes.len() as u64, len);
            }
        }
    }
    // Opening the pack as a world goes through every table it holds.
    let _ = World::open_pack("fuzz.rlpack", Box::new(b));
}

/// A PLNT header against the length of the bytes it heads.
pub fn planet_header(data: &[u8]) {
    let mut b = data.to_vec();
    if b.len() >= 128 {
        let crc = crc32fast::hash(&b[..124]);
        put_u32(&mut b, 124, crc);
    }
    if let Ok(h) = Header::decode(&b, b.len() as u64) {
        let _ = h.tiles_per_field();
    }
}

/// A PLNT blob's tables: field table, tile index, section table and the sections they point
/// at (rivers, lakes), each parsed from the fixed-up bytes.
pub fn planet_tables(data: &[u8]) {
    let mut b = data.to_vec();
    fix_planet(&mut b);
    let Ok(h) = Header::decode(&b, b.len() as u64) else {
        // Tables on their own, without a header to place them.
        let _ = decode_reaches(data);
        let _ = decode_lakes(data);
        return;
    };
    let from = |offset: u64| &b[(offset as usize).min(b.len())..];
    if let Ok(fields) = decode_fields(from(128), h.field_count as usize) {
        let _ = decode_index(from(h.index_offset), &fields, &h);
    }
    if let Ok(sections) = decode_sections(from(h.sections_offset), h.section_count as usize, &h) {
        for s in sections {
            let bytes = span(&b, s.offset, s.length);
            let _ = decode_reaches(bytes);
            let _ = decode_lakes(bytes);
        }
    }
}

/// A whole PLNT blob opened from memory: its tables, overview and (up to 96) tiles.
pub fn planet_tiles(data: &[u8]) {
    let mut b = data.to_vec();
    fix_planet(&mut b);
    let Ok(planet) = Planet::open_bytes("fuzz.plnt", Box::new(b)) else {
        return;
    };
    let _ = planet.reaches();
    let _ = planet.lakes();
    let _ = planet.overview();
    let _ = planet.things();
    let tps = (planet.face_resolution() / planet.tile_size().max(1)).min(4) as u16;
    let mut read = 0;
    for face in 0..6u8 {
        for ty in 0..tps {
            for tx in 0..tps {
                if read < 96 {
                    let _ = planet.read_tile(TileKey { face, tx, ty });
                    read += 1;
                }
            }
        }
    }
}

/// Positions to query: eight pairs of fractions in [-0.25, 1.25] from the input's tail
/// (deterministic for an input, outside the world now and then).
fn fractions(data: &[u8]) -> Vec<[f64; 2]> {
    let tail = &data[data.len().saturating_sub(16)..];
    (0..8)
        .map(|k| {
            let a = *tail.get(2 * k).unwrap_or(&128) as f64 / 255.0;
            let b = *tail.get(2 * k + 1).unwrap_or(&128) as f64 / 255.0;
            [a * 1.5 - 0.25, b * 1.5 - 0.25]
        })
        .collect()
}

/// A small runtime config: everything on, reaches small, so a world settles quickly.
fn small_config() -> RuntimeConfig {
    let mut config = RuntimeConfig::default();
    config.pieces.load_radius = 256.0;
    config.pieces.drop_radius = 320.0;
    if let Some(lod) = &mut config.lod {
        lod.levels = 3;
        lod.size = 32;
    }
    config
}

/// Every query the runtime answers, at `points`.
fn query_everything(rt: &Runtime, points: &[DVec3]) {
    let queries = rt.queries();
    let mut out = vec![0f32; points.len()];
    for &p in points {
        let _ = queries.height(p);
        if let Some(chunks) = rt.chunk_lookup() {
            let _ = chunks.is_built_at(p);
        }
    }
    match queries {
        Queries::Flat(t) => {
            let flat: Vec<[f64; 2]> = points.iter().map(|p| [p[0], p[2]]).collect();
            let _ = t.heights(&flat, &mut out);
            for p in &flat {
                let _ = t.normal(p[0], p[1]);
                let _ = t.ground(p[0], p[1]);
                let _ = t.biome(p[0], p[1]);
                let _ = t.river(p[0], p[1], 500.0);
                let _ = t.lake(p[0], p[1], 500.0);
            }
        }
        Queries::Planet(t) => {
            let _ = t.heights(points, &mut out);
            for &p in points {
                let _ = t.normal(p);
                let _ = t.biome(p);
                let _ = t.sediment(p);
                let _ = t.precipitation(p);
                let _ = t.river(p, 2000.0);
                let _ = t.lake(p, 2000.0);
                let _ = t.lat_lon(p);
            }
        }
    }
}

/// Streams a runtime over `ground` to each point in turn (settling briefly), then queries.
fn walk(rt: &mut Runtime, points: &[DVec3]) {
    for &p in points.iter().take(3) {
        let _ = rt.settle(p, Duration::from_secs(2));
        while rt.poll_event().is_some() {}
    }
    query_everything(rt, points);
}

/// A world pack with every checksum fixed up: opened, streamed and queried.
pub fn world_queries(data: &[u8]) {
    let Some(b) = fix_world_pack(data) else {
        return;
    };
    let Ok(world) = World::open_pack("fuzz.rlpack", Box::new(b)) else {
        return;
    };
    let m = world.manifest();
    let extent = world.region_extent();
    let (x0, z0) = (
        m.region_bounds.min[0] as f64 * extent,
        m.region_bounds.min[1] as f64 * extent,
    );
    let (w, d) = (
        (m.region_bounds.max[0] - m.region_bounds.min[0] + 1) as f64 * extent,
        (m.region_bounds.max[1] - m.region_bounds.min[1] + 1) as f64 * extent,
    );
    let points: Vec<DVec3> = fractions(data)
        .iter()
        .map(|f| DVec3::new(x0 + f[0] * w, 0.0, z0 + f[1] * d))
        .collect();
    let Ok(mut rt) = Runtime::new(Arc::new(world), small_config()) else {
        return;
    };
    walk(&mut rt, &points);
}

/// A PLNT blob with every checksum fixed up: streamed and queried.
pub fn planet_queries(data: &[u8]) {
    let mut b = data.to_vec();
    fix_planet(&mut b);
    let Ok(planet) = Planet::open_bytes("fuzz.plnt", Box::new(b)) else {
        return;
    };
    let r = planet.radius();
    let points: Vec<DVec3> = fractions(data)
        .iter()
        .map(|f| {
            let (lat, lon) = ((f[0] - 0.5) * 180.0, (f[1] - 0.5) * 360.0);
            let (lat, lon) = (lat.to_radians(), lon.to_radians());
            DVec3::new(
                r * lat.cos() * lon.cos(),
                r * lat.sin(),
                r * lat.cos() * lon.sin(),
            )
        })
        .collect();
    let Ok(mut rt) = Runtime::new(Arc::new(planet), small_config()) else {
        return;
    };
    walk(&mut rt, &points);
}

/// A Terrain3D region file (`terrain3d_XX_YY.res`): `RSCC`-compressed or a plain `RSRC`
/// resource; any other input is taken as the stream inside a container (what the zstd
/// blocks hold), so mutations reach Godot's resource format itself rather than dying in
/// zstd. What parses is written back and must parse to the same resource; a region that
/// reads has every map whole.
pub fn terrain3d(data: &[u8]) {
    use relief_tools::terrain3d::{binres, RegionFile};
    let parsed = if data.starts_with(b"RSCC") || data.starts_with(binres::MAGIC) {
        RegionFile::parse(data).map(|f| f.resource)
    } else {
        binres::parse(data)
    };
    let Ok(resource) = parsed else { return };
    let written = binres::write(&resource, false);
    let again = binres::parse(&written).expect("what is written parses");
    // Compared as written, bit for bit: a NaN in a float never equals itself.
    assert_eq!(binres::write(&again, false), written);
    if let Ok(region) = (RegionFile { resource }).region() {
        let n = (region.region_size as usize).pow(2);
        assert_eq!(
            (
                region.height.len(),
                region.control.len(),
                region.color.len()
            ),
            (n, n, n)
        );
    }
}

// ---------------------------------------------------------------------------------------
// Sources that lie, and what users hand the tools.

/// A byte source that answers like a lying server: it claims `claimed` bytes (anything, up
/// to a terabyte and past) and holds `held`; a read past what it holds fails as a truncated
/// answer does. Remote, so readers take their remote paths (a pack file in one read, a
/// planet tile's span in one read, 32 MiB read steps).
struct LyingServer {
    claimed: u64,
    held: Vec<u8>,
}

impl relief::io::ReadAt for LyingServer {
    fn length(&self) -> u64 {
        self.claimed
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let end = offset.checked_add(out.len() as u64);
        // ReadAt's contract: readers stay within the length the source gave.
        assert!(
            end.is_some_and(|e| e <= self.claimed),
            "read of {} bytes at {offset} past the {} claimed",
            out.len(),
            self.claimed
        );
        match end {
            Some(e) if e <= self.held.len() as u64 => {
                out.copy_from_slice(&self.held[offset as usize..e as usize]);
                Ok(())
            }
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the answer ended early",
            )),
        }
    }
    fn is_remote(&self) -> bool {
        true
    }
}

/// A PLNT blob (byte 0 even) or a world pack (odd) on a lying server. The rest of the input
/// is the file, checksums fixed up as `planet_tiles` and `world_queries` fix them; of it the
/// server delivers all but the last `cut` bytes (bytes 9..13, a little-endian u32: a
/// truncated answer) and claims `delta` bytes more (bytes 1..9, a little-endian i64:
/// negative claims fewer, a large one a terabyte). A planet is opened and its sections,
/// overview and up to 24 tiles read; a pack is opened as a world and up to 4 regions read,
/// whole and heights only.
pub fn remote(data: &[u8]) {
    if data.len() < 13 {
        return;
    }
    let (delta, cut) = (u64_at(data, 1), u32_at(data, 9) as usize);
    let mut file = data[13..].to_vec();
    let planet = data[0] % 2 == 0;
    if planet {
        fix_planet(&mut file);
    } else if let Some(fixed) = fix_world_pack(&file) {
        file = fixed;
    } else {
        fix_pack(&mut file);
    }
    let claimed = (file.len() as u64).wrapping_add(delta);
    file.truncate(file.len().saturating_sub(cut));
    let server = Box::new(LyingServer {
        claimed,
        held: file,
    });
    if planet {
        let Ok(planet) = Planet::open_bytes("fuzz.plnt", server) else {
            return;
        };
        let _ = planet.reaches();
        let _ = planet.lakes();
        let _ = planet.biome_names();
        let _ = planet.seed_text();
        let _ = planet.overview();
        let tps = (planet.face_resolution() / planet.tile_size().max(1)).min(2) as u16;
        for face in 0..6u8 {
            for ty in 0..tps {
                for tx in 0..tps {
                    let key = TileKey { face, tx, ty };
                    if (face as u16 + tx + ty) % 2 == 0 {
                        let _ = planet.read_tile(key);
                    } else {
                        let _ = planet.read_heights(key);
                    }
                }
            }
        }
    } else {
        let Ok(world) = World::open_pack("fuzz.rlpack", server) else {
            return;
        };
        let locations: Vec<_> = world.region_locations().take(4).collect();
        for (k, loc) in locations.into_iter().enumerate() {
            let read = if k % 2 == 0 {
                world.read_region(loc)
            } else {
                world.read_region_heights(loc)
            };
            if let Ok(region) = read {
                assert_eq!(region.height.len(), (region.size as usize).pow(2));
            }
        }
    }
}

/// A heightmap as `relief import heightmap` reads one, then cut into regions. Byte 0 picks
/// the format (r16, f32, PNG); byte 1's bits: 1 gives `--size` from bytes 4..8 (two
/// little-endian u16, `WxH`), 2 a `--height-range` and 4 a `--scale` (byte 3 sets both); byte
/// 2 the region size (64 to 2048, or a refused one); the rest is the file.
pub fn heightmap(data: &[u8]) {
    use relief_tools::import::heightmap::{cut, decode, Format, Options};
    if data.len() < 8 {
        return;
    }
    let format = [Format::R16, Format::F32, Format::Png][data[0] as usize % 3];
    let (flags, k) = (data[1], data[3] as f64);
    let options = Options {
        format: Some(format),
        size: (flags & 1 != 0).then(|| format!("{}x{}", u16_at(data, 4), u16_at(data, 6))),
        height_range: (flags & 2 != 0).then(|| format!("{},{}", -k, 100.0 * k)),
        scale: (flags & 4 != 0).then_some(k / 64.0),
        offset: -k,
        no_data: (flags & 8 != 0).then_some(k),
    };
    let path = std::path::Path::new("fuzz.heightmap");
    let Ok(hm) = decode(path, &data[8..], format, &options) else {
        return;
    };
    assert_eq!(hm.heights.len(), hm.width * hm.depth);
    let region_size = [64, 128, 256, 512, 1024, 2048, 96, 4096][data[2] as usize % 8];
    let Ok(regions) = cut(&hm, region_size) else {
        return;
    };
    // Every finite sample of the image lands in one region; the rest (no data, NaN, past
    // the image's edge) are holes.
    let n = (region_size as usize).pow(2);
    let mut samples = 0;
    for r in &regions {
        let control = r.control.as_ref().expect("a cut region has control words");
        assert_eq!((r.height.len(), control.len()), (n, n));
        samples += control.iter().filter(|&&c| c & 4 == 0).count();
    }
    let finite = hm.heights.iter().filter(|h| h.is_finite()).count();
    assert_eq!(samples, finite);
}

/// A route file (`relief bench --route`), CSV or JSON: parsed as `RouteFile::read` parses its
/// text, then replayed at a few times; what parses writes back as CSV to the same route.
pub fn route(data: &[u8]) {
    use relief_tools::bench::route_file::{to_csv, RouteFile};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(route) = RouteFile::parse(text) else {
        return;
    };
    let duration = route.duration();
    assert!(duration > 0.0 && duration.is_finite());
    let _ = route.has_camera();
    for t in [
        -1.0,
        0.0,
        duration * 0.37,
        duration * 0.5,
        duration,
        duration + 1.0,
    ] {
        let _ = route.at(t);
    }
    let again = RouteFile::parse(&to_csv(&route.samples)).expect("a route's CSV parses");
    assert_eq!(again.identity(), route.identity());
}

/// A bench baseline (`relief bench --compare BASE.json`): parsed as `Report::read` parses its
/// text (schema and version first, then every field), then compared with itself: comparable
/// exactly when its run count is one a comparison takes, and no figure better or worse.
pub fn baseline(data: &[u8]) {
    use relief_tools::bench::compare::{self, Verdict};
    use relief_tools::bench::figures::Figures;
    use relief_tools::bench::report::{Noise, Report};
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(base) = Report::parse(text) else {
        return;
    };
    let runs = base.runs.len();
    assert_eq!(
        compare::comparable(&base, &base).is_ok(),
        (compare::MIN_RUNS..=compare::MAX_RUNS).contains(&runs)
    );
    let judged = compare::judge_all(&base, &base);
    assert!(judged.iter().all(|j| j.verdict == Verdict::NoChange));
    let _ = compare::table(&judged, &base);
    let _ = Figures::medians(&base.runs);
    let _ = Noise::of(&base.runs, &base.routes);
}
