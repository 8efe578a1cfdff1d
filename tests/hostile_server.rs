//! Worlds and planets by URL from a server that lies (tests/common/hostile.rs): a programmable
//! HTTP/1.1 server on a loopback port that serves a file's real bytes, or claims a terabyte,
//! drops `Content-Range`, answers a range with the whole file, cuts or pads bodies, closes
//! without answering, compresses, changes its ETag, sends 100,000 header lines, redirects in
//! a loop or to another origin, and spoils some answers once. tests/http.rs holds relief to
//! a real server; this file holds it to one that misbehaves on purpose.
//!
//! Whatever the server does, an open or a load fails quickly as a typed error with a small
//! allocation (the largest single one is measured, as in tests/declared_sizes.rs), nothing
//! resident is lost, no byte of another version or a spoiled answer is ever loaded or served
//! from the disk cache, the caller's headers stay with the URL's own origin unless allowed
//! further, secrets in a URL reach neither messages nor the cache, and header injection is
//! refused before anything is sent. Every option below has a 2 s timeout and at most one
//! retry, so no case can hang.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use common::hostile::{Hostile, Misbehaviour, Request};
use common::largest::{alone, largest_during, side_by_side};
use relief::flat::{RegionLocation, RegionSource, World};
use relief::http::client::MAX_REDIRECTS;
use relief::http::{HttpBytes, HttpError, HttpOptions, HEAD_BYTES};
use relief::io::ReadAt;
use relief::planet::Planet;
use relief::stream::{Event, Loaders, Streamer};
use relief::{DVec3, FormatError};

#[global_allocator]
static GLOBAL: common::largest::Largest = common::largest::Largest;

/// What refusing a lie may cost at once: the lies below claim a terabyte.
const ALLOCATION_LIMIT: usize = 80 << 20;
const TIB: u64 = 1 << 40;
/// How long a refusal may take: every request here has a 2 s timeout.
const QUICK: Duration = Duration::from_secs(5);

fn options(cache: Option<&Path>) -> HttpOptions {
    HttpOptions {
        cache_dir: cache.map(Path::to_path_buf),
        cache_budget: 1 << 30,
        timeout: Duration::from_secs(2),
        retries: 0,
        headers: Vec::new(),
        headers_to_other_hosts: false,
    }
}

fn with_retries(retries: u32) -> HttpOptions {
    HttpOptions {
        retries,
        ..options(None)
    }
}

fn pack_bytes() -> &'static [u8] {
    common::world_pack()
}

fn planet_bytes() -> &'static [u8] {
    common::planet_blob("hostile")
}

fn world_server() -> Hostile {
    Hostile::start("/world.rlpack", pack_bytes().to_vec())
}

fn reference() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| World::open(common::world_dir()).unwrap())
}

/// The HTTP error under a format error, if that is what it is.
fn http_error(e: &FormatError) -> Option<&HttpError> {
    match e {
        FormatError::Io { source, .. } => source.get_ref()?.downcast_ref::<HttpError>(),
        _ => None,
    }
}

const HOME: DVec3 = DVec3::new(-1500.0, 0.0, -1500.0);
const THERE: DVec3 = DVec3::new(1200.0, 0.0, 300.0);

/// A streamer over `world` that retries a failed load every few milliseconds, `attempts`
/// times at most, and keeps everything it loaded.
fn regions_trying(world: World, attempts: u32) -> Streamer<RegionSource> {
    let mut config = common::patient(400.0, 5);
    config.max_attempts = attempts;
    Streamer::new(
        Arc::new(RegionSource::new(Arc::new(world))),
        config,
        &Loaders::new(0),
    )
    .unwrap()
}

fn regions(world: World) -> Streamer<RegionSource> {
    regions_trying(world, u32::MAX)
}

/// Every resident region is the one on disk; returns how many there are.
fn check_resident(s: &Streamer<RegionSource>) -> usize {
    let resident = s.resident();
    let r = resident.read();
    for (loc, region) in r.iter() {
        let want = reference().read_region(*loc).unwrap();
        assert!(
            (&region.height, &region.control, &region.color)
                == (&want.height, &want.control, &want.color),
            "{loc:?} is not the region on disk"
        );
    }
    r.len()
}

type Snapshot = HashMap<RegionLocation, Arc<relief::flat::Region>>;

fn snapshot(s: &Streamer<RegionSource>) -> Snapshot {
    s.resident()
        .read()
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .collect()
}

/// Everything resident in `before` is still resident, the very same region.
fn nothing_lost(before: &Snapshot, s: &Streamer<RegionSource>, what: &str) {
    let now = snapshot(s);
    for (k, region) in before {
        assert!(
            now.get(k).is_some_and(|r| Arc::ptr_eq(r, region)),
            "{what}: {k:?} lost or replaced"
        );
    }
}

/// Walks `s` to `there` until some load has failed and at least `min` has passed; panics on
/// a load or an unload meanwhile. Returns the failures.
fn walk_failing(
    s: &mut Streamer<RegionSource>,
    there: DVec3,
    min: Duration,
    what: &str,
) -> Vec<FormatError> {
    while s.poll_event().is_some() {} // what settling left
    let start = Instant::now();
    let mut failed = Vec::new();
    while start.elapsed() < min || failed.is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: no load failed"
        );
        s.update(there);
        while let Some(e) = s.poll_event() {
            match e {
                Event::Failed { error, .. } => failed.push(error),
                Event::Loaded { key, .. } => panic!("{what}: {key:?} loaded"),
                Event::Unloaded { key } => panic!("{what}: {key:?} unloaded"),
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    failed
}

/// Opens the world from a fresh server misbehaving as `m`: the error, what the server saw.
/// Fails the test if the open succeeds or is slow.
fn open_under(m: Misbehaviour, options: &HttpOptions) -> (FormatError, Vec<Request>) {
    let server = world_server();
    server.set(m.clone());
    let start = Instant::now();
    let r = World::open_url(&server.url(), options);
    let took = start.elapsed();
    let Err(e) = r else {
        panic!("{m:?}: the world opened")
    };
    assert!(took < QUICK, "{m:?}: refused after {took:?}");
    (e, server.requests())
}

/// A server whose Content-Range claims a 1 TiB file, its first bytes the planet's: the
/// header's own length refuses it in the opening request, and nothing is sized by the
/// claim.
#[test]
fn a_planet_claiming_a_terabyte_is_refused_at_once_with_a_small_allocation() {
    let _alone = alone();
    let blob = planet_bytes();
    let server = Hostile::start("/planet.plnt", blob.to_vec());
    server.set(Misbehaviour::ClaimTotal(TIB));
    let start = Instant::now();
    let (r, largest) = largest_during(|| Planet::open_url(&server.url(), &options(None)));
    let took = start.elapsed();
    match r {
        // The header's length against the source's: named as a mismatch, not truncation.
        Err(FormatError::Corrupt(m)) => assert!(
            m.contains(&format!(
                "the file is {} bytes, the source {TIB}",
                blob.len()
            )),
            "{m}"
        ),
        Err(e) => panic!("not the header's refusal: {e}"),
        Ok(_) => panic!("a planet claiming a terabyte opened"),
    }
    assert!(
        largest < ALLOCATION_LIMIT,
        "asked for {largest} bytes at once"
    );
    assert!(took < QUICK, "refused after {took:?}");
    assert!(server.count() <= 2, "{} requests", server.count());
    // Honest, the same server's planet opens.
    server.set(Misbehaviour::Honest);
    Planet::open_url(&server.url(), &options(None)).unwrap();
}

/// The same lie about a pack, which does not record its own length: a terabyte of zeros after
/// a real pack is a pack, so it opens, streams the real regions, and allocates little doing so.
#[test]
fn a_pack_claiming_a_terabyte_costs_no_more_than_its_real_bytes() {
    let _alone = alone();
    let server = world_server();
    server.set(Misbehaviour::ClaimTotal(TIB));
    reference();
    let start = Instant::now();
    let (streamer, largest) = largest_during(|| {
        let world = World::open_url(&server.url(), &options(None)).unwrap();
        let mut s = regions(world);
        assert!(s.settle(HOME, Duration::from_secs(30)));
        s
    });
    assert!(
        largest < ALLOCATION_LIMIT,
        "asked for {largest} bytes at once"
    );
    assert!(check_resident(&streamer) > 0);
    assert!(start.elapsed() < Duration::from_secs(30));
    // Every request asked for a range within the real bytes.
    for r in server.requests() {
        let range = r.header("range").expect("a ranged GET");
        let end: u64 = range.rsplit('-').next().unwrap().parse().unwrap();
        assert!(end < pack_bytes().len() as u64, "{range}");
    }
}

/// The real pack with the index entry of `name` claiming `length` bytes, the index's CRC
/// made good: a pack whose index agrees with a server claiming a terabyte.
fn pack_claiming(name: &str, length: u64) -> Vec<u8> {
    let mut b = pack_bytes().to_vec();
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let (count, index_len) = (word(&b, 8), word(&b, 12) as usize);
    let mut at = 16;
    let mut found = false;
    for _ in 0..count {
        let n = u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize;
        if &b[at + 2..at + 2 + n] == name.as_bytes() {
            let length_at = at + 2 + n + 8;
            b[length_at..length_at + 8].copy_from_slice(&length.to_le_bytes());
            found = true;
        }
        at += 2 + n + 16;
    }
    assert!(found, "{name} is not in the pack");
    let crc = crc32fast::hash(&b[..16 + index_len]);
    b[16 + index_len..20 + index_len].copy_from_slice(&crc.to_le_bytes());
    b
}

/// A pack whose index says its manifest is 1 GiB long (the most a whole file may be), on a
/// server whose Content-Range agrees by claiming a terabyte: the manifest's read must not
/// size its buffer by the claim before a byte of it has arrived.
#[test]
fn a_pack_declaring_a_gigabyte_manifest_on_a_lying_server_allocates_little() {
    let _alone = alone();
    let claimed = relief::flat::store::MAX_WHOLE_FILE;
    let server = Hostile::start(
        "/world.rlpack",
        pack_claiming(relief::flat::manifest::MANIFEST_FILE, claimed),
    );
    server.set(Misbehaviour::ClaimTotal(TIB));
    refused_quickly_and_cheaply(|| World::open_url(&server.url(), &options(None)).err());
}

/// Runs an open that must fail (`open` gives its error, `None` if it opened), and checks it
/// failed quickly with a small largest allocation.
fn refused_quickly_and_cheaply<E: std::fmt::Debug>(open: impl FnOnce() -> Option<E>) {
    let start = Instant::now();
    let (e, largest) = largest_during(open);
    assert!(e.is_some(), "opened");
    assert!(
        largest < ALLOCATION_LIMIT,
        "{e:?}: asked for {largest} bytes at once"
    );
    assert!(
        start.elapsed() < QUICK,
        "refused after {:?}",
        start.elapsed()
    );
}

/// A planet whose header, resealed, claims a terabyte file and tables of nearly
/// `MAX_TABLE_BYTES` (faces enlarged so the tile index fills them), on a server claiming the
/// same terabyte: the tables' read must not size its buffer by the claim before the bytes
/// arrive.
#[test]
fn a_planet_declaring_tables_at_the_cap_on_a_lying_server_allocates_little() {
    use relief::planet::format::{
        Header, FIELD_BYTES, HEADER_BYTES, INDEX_ENTRY_BYTES, MAX_FACE_RESOLUTION, MAX_TABLE_BYTES,
        SECTION_BYTES,
    };
    let _alone = alone();
    let mut b = planet_bytes().to_vec();
    let h = Header::decode(&b[..HEADER_BYTES], b.len() as u64).unwrap();
    let (fields, sections, tile) = (
        h.field_count as u64,
        h.section_count as u64,
        h.tile_size as u64,
    );
    // Tiles per face edge so the index takes all but a MiB of the cap.
    let per_tile = fields * 6 * INDEX_ENTRY_BYTES as u64;
    let room = MAX_TABLE_BYTES - (1 << 20);
    let mut k = ((room / per_tile) as f64).sqrt() as u64;
    while k * k * per_tile > room {
        k -= 1;
    }
    k = k.min((MAX_FACE_RESOLUTION as u64) / tile);
    let face = k * tile;
    assert!(face <= MAX_FACE_RESOLUTION as u64, "{face}");
    let index_offset = (HEADER_BYTES + fields as usize * FIELD_BYTES + 4) as u64;
    assert_eq!(index_offset, h.index_offset);
    let sections_offset = index_offset + k * k * per_tile + 4;
    let data_offset = sections_offset + sections * SECTION_BYTES as u64 + 4;
    let put_u64 = |b: &mut [u8], at: usize, v: u64| b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    b[24..28].copy_from_slice(&(face as u32).to_le_bytes());
    put_u64(&mut b, 96, sections_offset);
    put_u64(&mut b, 104, data_offset);
    put_u64(&mut b, 112, TIB);
    let crc = crc32fast::hash(&b[..124]);
    b[124..128].copy_from_slice(&crc.to_le_bytes());
    let claimed = Header::decode(&b[..HEADER_BYTES], TIB).expect("a header that passes");
    assert!(claimed.tables_end() - HEADER_BYTES as u64 > MAX_TABLE_BYTES / 2);

    let server = Hostile::start("/planet.plnt", b);
    server.set(Misbehaviour::ClaimTotal(TIB));
    refused_quickly_and_cheaply(|| Planet::open_url(&server.url(), &options(None)).err());
}

#[test]
fn a_206_without_content_range_is_refused() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::NoContentRange, &with_retries(1));
    match http_error(&e) {
        Some(HttpError::BadResponse { detail, .. }) => {
            assert!(detail.contains("without Content-Range"), "{detail}")
        }
        _ => panic!("{e}"),
    }
    // Not a fault worth another try.
    assert_eq!(seen.len(), 1);
}

/// A server ignoring Range answers with the whole file: refused unread when the file is
/// longer than the opening request asked for, accepted when it is not.
#[test]
fn a_whole_file_for_a_range_is_refused_unless_the_first_request_covers_it() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::WholeFile, &with_retries(1));
    match http_error(&e) {
        Some(HttpError::RangeIgnored { length, .. }) => {
            assert_eq!(*length, pack_bytes().len() as u64)
        }
        _ => panic!("{e}"),
    }
    assert_eq!(seen.len(), 1);

    let small: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    let server = Hostile::start("/small.bin", small.clone());
    server.set(Misbehaviour::WholeFile);
    let bytes = HttpBytes::open(&server.url(), &options(None)).unwrap();
    assert_eq!(bytes.length(), 1000);
    let mut out = vec![0u8; 300];
    bytes.read_at(600, &mut out).unwrap();
    assert_eq!(out, small[600..900]);
    assert_eq!(server.count(), 1, "the first answer held it all");

    // One byte longer than the opening request: refused.
    let big = vec![7u8; HEAD_BYTES as usize + 1];
    let server = Hostile::start("/big.bin", big);
    server.set(Misbehaviour::WholeFile);
    match HttpBytes::open(&server.url(), &options(None)) {
        Err(HttpError::RangeIgnored { length, .. }) => assert_eq!(length, HEAD_BYTES + 1),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn a_truncated_body_is_tried_again_then_a_typed_failure() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::Truncate, &with_retries(1));
    match http_error(&e) {
        Some(HttpError::Truncated { expected, got, .. }) => {
            assert_eq!((*expected, *got), (HEAD_BYTES, HEAD_BYTES / 2))
        }
        _ => panic!("{e}"),
    }
    // A transient fault: the one retry allowed, no more.
    assert_eq!(seen.len(), 2);
}

#[test]
fn a_body_longer_than_the_range_is_refused_unread() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::LongBody, &with_retries(1));
    match http_error(&e) {
        Some(HttpError::BadResponse { detail, .. }) => assert!(
            detail.contains(&format!(
                "{} bytes sent for a {HEAD_BYTES}-byte range",
                HEAD_BYTES + common::hostile::EXTRA as u64
            )),
            "{detail}"
        ),
        _ => panic!("{e}"),
    }
    assert_eq!(seen.len(), 1);
}

#[test]
fn a_connection_closed_without_an_answer_is_a_transport_failure() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::Reset, &with_retries(1));
    assert!(
        matches!(http_error(&e), Some(HttpError::Transport { .. })),
        "{e}"
    );
    assert_eq!(seen.len(), 2, "one try and one retry");
}

/// relief asks for `identity`; a server that compresses anyway sends bytes that are not the
/// file's. They fail the format's checks, and nothing of them is kept: with the server
/// gone, the cache has no record to open the URL from.
#[test]
fn a_compressed_answer_is_never_taken_for_the_file() {
    let _shared = side_by_side();
    let server = world_server();
    let cache = common::scratch("hostile-gzip-cache");
    server.set(Misbehaviour::Gzip);
    let Err(e) = World::open_url(&server.url(), &options(Some(&cache))) else {
        panic!("a compressed answer opened as a world")
    };
    assert!(
        server.requests()[0].header("accept-encoding") == Some("identity"),
        "{:?}",
        server.requests()[0]
    );
    server.set(Misbehaviour::Reset);
    let Err(offline) = World::open_url(&server.url(), &options(Some(&cache))) else {
        panic!("the cache kept the compressed answer ({e})")
    };
    assert!(
        matches!(http_error(&offline), Some(HttpError::Transport { .. })),
        "{offline}"
    );
    server.set(Misbehaviour::Honest);
    let mut s = regions(World::open_url(&server.url(), &options(Some(&cache))).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(30)));
    assert!(check_resident(&s) > 0);
    let _ = std::fs::remove_dir_all(&cache);
}

/// ureq reads a bounded head; 100,000 header lines (2 MB) fail the request, cheaply.
#[test]
fn a_hundred_thousand_header_lines_fail_cleanly_and_cheaply() {
    let _alone = alone();
    let server = world_server();
    server.set(Misbehaviour::ManyHeaders(100_000));
    let start = Instant::now();
    let (r, largest) = largest_during(|| World::open_url(&server.url(), &with_retries(1)));
    let took = start.elapsed();
    let Err(e) = r else {
        panic!("opened through 100,000 header lines")
    };
    assert!(
        matches!(http_error(&e), Some(HttpError::Transport { .. })),
        "{e}"
    );
    assert!(
        largest < ALLOCATION_LIMIT,
        "asked for {largest} bytes at once"
    );
    assert!(took < QUICK, "refused after {took:?}");
    assert_eq!(server.count(), 2, "one try and one retry");
}

#[test]
fn a_redirect_loop_ends_after_the_most_redirects_allowed() {
    let _shared = side_by_side();
    let (e, seen) = open_under(Misbehaviour::RedirectLoop, &with_retries(1));
    match http_error(&e) {
        Some(HttpError::BadResponse { detail, .. }) => assert!(
            detail.contains(&format!("more than {MAX_REDIRECTS} redirects")),
            "{detail}"
        ),
        _ => panic!("{e}"),
    }
    // The first request and MAX_REDIRECTS redirects followed; a loop is not retried.
    assert_eq!(seen.len(), MAX_REDIRECTS as usize + 1);
    assert!(seen.iter().all(|r| r.path() == "/world.rlpack"));
}

/// Each misbehaviour switched on mid-stream: the loads it answers fail as its typed error,
/// nothing loads and nothing resident is lost or replaced, and once the server is honest
/// again everything wanted loads, the regions on disk.
#[test]
fn misbehaviours_mid_stream_fail_loads_and_lose_nothing() {
    let _shared = side_by_side();
    type Check = fn(&FormatError) -> bool;
    let cases: [(Misbehaviour, Check); 9] = [
        (Misbehaviour::NoContentRange, |e| {
            matches!(http_error(e), Some(HttpError::BadResponse { .. }))
        }),
        (Misbehaviour::WholeFile, |e| {
            matches!(http_error(e), Some(HttpError::RangeIgnored { .. }))
        }),
        (Misbehaviour::Truncate, |e| {
            matches!(http_error(e), Some(HttpError::Truncated { .. }))
        }),
        (Misbehaviour::LongBody, |e| {
            matches!(http_error(e), Some(HttpError::BadResponse { .. }))
        }),
        (Misbehaviour::Reset, |e| {
            matches!(http_error(e), Some(HttpError::Transport { .. }))
        }),
        (Misbehaviour::ManyHeaders(100_000), |e| {
            matches!(http_error(e), Some(HttpError::Transport { .. }))
        }),
        (Misbehaviour::RedirectLoop, |e| {
            matches!(http_error(e), Some(HttpError::BadResponse { .. }))
        }),
        (Misbehaviour::Status(500), |e| {
            matches!(http_error(e), Some(HttpError::Status { status: 500, .. }))
        }),
        // Garbage of the right length: the region's own checks refuse it.
        (Misbehaviour::Gzip, |e| http_error(e).is_none()),
    ];
    let server = world_server();
    for (m, check) in cases {
        let what = format!("{m:?}");
        server.set(Misbehaviour::Honest);
        let mut s = regions(World::open_url(&server.url(), &options(None)).unwrap());
        assert!(s.settle(HOME, Duration::from_secs(30)), "{what}");
        let before = snapshot(&s);
        assert!(!before.is_empty());

        server.set(m);
        let failed = walk_failing(&mut s, THERE, Duration::from_millis(200), &what);
        for e in &failed {
            assert!(check(e), "{what}: {e}");
        }
        nothing_lost(&before, &s, &what);

        server.set(Misbehaviour::Honest);
        assert!(s.settle(THERE, Duration::from_secs(30)), "{what}: healed");
        check_resident(&s);
        nothing_lost(&before, &s, &what);
    }
}

/// Junk after an honest answer, on a connection kept open: whatever the next answer on that
/// connection becomes, every region that loads is the one on disk, and all of them load.
#[test]
fn junk_after_an_answer_never_becomes_the_next_answer() {
    let _shared = side_by_side();
    let server = world_server();
    let mut s = regions(World::open_url(&server.url(), &options(None)).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(30)));
    server.set(Misbehaviour::Overrun);
    assert!(s.settle(THERE, Duration::from_secs(30)));
    assert!(s.settle(HOME, Duration::from_secs(30)));
    assert!(check_resident(&s) > 0);
}

/// Reads one after another on one thread need one connection: ureq pools a connection once
/// its answer's body has been read to its end, and relief keeps 32 per host for that. Every
/// request on a new connection costs a round trip more, and over HTTPS a TLS handshake.
#[test]
fn reads_one_after_another_reuse_one_connection() {
    let _shared = side_by_side();
    let server = world_server();
    let bytes = HttpBytes::open(&server.url(), &options(None)).unwrap();
    let mut out = vec![0u8; 4096];
    for i in 0..5u64 {
        let at = HEAD_BYTES + i * 10_000;
        bytes.read_at(at, &mut out).unwrap();
        assert_eq!(out, pack_bytes()[at as usize..at as usize + 4096]);
    }
    assert_eq!(server.count(), 6);
    assert!(
        server.connections() <= 2,
        "{} connections for 6 requests",
        server.connections()
    );
}

/// A new ETag on every answer: each load fails as "changed", none mixes a byte of another
/// version in, and the verdict stands — when the opened version comes back, relief still
/// sends nothing, since its index may describe a file that has since been replaced twice.
#[test]
fn a_changing_etag_is_a_changed_file_and_never_mixed() {
    let _shared = side_by_side();
    let server = world_server();
    let mut s = regions(World::open_url(&server.url(), &options(None)).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(30)));
    let before = snapshot(&s);

    server.set(Misbehaviour::ChangingEtag);
    let at = server.count();
    let failed = walk_failing(&mut s, THERE, Duration::from_millis(100), "changing");
    for e in &failed {
        assert!(
            matches!(http_error(e), Some(HttpError::Changed { .. })),
            "{e}"
        );
    }
    assert!(server.count() > at);
    // Each request carried the opened version's ETag in If-Range.
    for r in &server.requests()[at..] {
        assert_eq!(r.header("if-range"), Some(server.etag()), "{r:?}");
    }

    server.set(Misbehaviour::Honest);
    let at = server.count();
    let failed = walk_failing(&mut s, THERE, Duration::from_millis(200), "changed");
    assert!(failed
        .iter()
        .all(|e| matches!(http_error(e), Some(HttpError::Changed { .. }))));
    assert_eq!(
        server.count(),
        at,
        "fetched after the file was seen changed"
    );
    nothing_lost(&before, &s, "changed");

    let mut s = regions(World::open_url(&server.url(), &options(None)).unwrap());
    assert!(s.settle(THERE, Duration::from_secs(30)));
    check_resident(&s);
}

/// The cache heals: bytes a server spoiled are staged but never served, so the next session
/// fetches them again from a server that has since been fixed, and a third finds everything
/// in the cache.
#[test]
fn spoiled_answers_are_never_served_from_the_cache() {
    let _shared = side_by_side();
    const SPOILED: u32 = 2;
    let server = world_server();
    let url = server.url();
    let cache = common::scratch("hostile-heal-cache");
    let opts = options(Some(&cache));

    // Session 1: the next two region answers are wrong bytes of the right length; one
    // attempt per region, so those two stay failed.
    let world = World::open_url(&url, &opts).unwrap();
    let opened = server.count();
    server.set(Misbehaviour::CorruptOnce(SPOILED));
    let mut s = regions_trying(world, 1);
    assert!(s.settle(HOME, Duration::from_secs(30)));
    let (mut loaded, mut failed) = (HashSet::new(), HashSet::new());
    while let Some(e) = s.poll_event() {
        match e {
            Event::Loaded { key, .. } => assert!(loaded.insert(key)),
            Event::Failed { key, error, .. } => {
                assert!(http_error(&error).is_none(), "{error}");
                assert!(failed.insert(key), "{key:?} tried twice");
            }
            Event::Unloaded { key } => panic!("{key:?} unloaded"),
        }
    }
    assert_eq!(server.misbehaviour(), Misbehaviour::CorruptOnce(0));
    assert_eq!(failed.len(), SPOILED as usize, "loaded {loaded:?}");
    assert!(!loaded.is_empty());
    assert_eq!(check_resident(&s), loaded.len());
    let first: HashSet<String> = server.requests()[opened..]
        .iter()
        .map(|r| r.header("range").unwrap().to_string())
        .collect();
    drop(s);

    // Session 2, the server honest: everything loads, and only the spoiled regions are
    // fetched again (with the open's request).
    server.set(Misbehaviour::Honest);
    let at = server.count();
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(30)));
    assert_eq!(check_resident(&s), loaded.len() + failed.len());
    let again = &server.requests()[at..];
    assert_eq!(
        again.len(),
        1 + SPOILED as usize,
        "the open and the spoiled regions: {again:?}"
    );
    for r in &again[1..] {
        assert!(first.contains(r.header("range").unwrap()), "{r:?}");
    }
    drop(s);

    // Session 3: the open's request, and the rest from the cache.
    let at = server.count();
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(30)));
    assert_eq!(check_resident(&s), loaded.len() + failed.len());
    assert_eq!(server.count() - at, 1);
    let _ = std::fs::remove_dir_all(&cache);
}

/// Two ports are two origins: a redirect from A to B carries none of the caller's headers
/// unless the options say so; a redirect within A keeps them.
#[test]
fn a_redirect_to_another_origin_drops_the_callers_headers() {
    let _shared = side_by_side();
    let a = Hostile::start("/here", pack_bytes().to_vec());
    let b = Hostile::start("/file", pack_bytes().to_vec());
    a.redirect("/file", &b.url());
    a.redirect("/moved", "/here");
    a.redirect("/moved-absolute", &a.url_of("/here"));
    let secrets = [("X-Api-Key", "secret"), ("Authorization", "Bearer t")];
    let mut opts = options(None);
    opts.headers = secrets
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let carries_all = |r: &Request| secrets.iter().all(|(n, v)| r.header(n) == Some(v));
    let carries_none = |r: &Request| secrets.iter().all(|(n, _)| r.header(n).is_none());

    World::open_url(&a.url_of("/file"), &opts).unwrap();
    let (to_a, to_b) = (a.requests(), b.requests());
    assert!(!to_b.is_empty());
    assert!(to_a.iter().all(carries_all), "{to_a:?}");
    assert!(to_b.iter().all(carries_none), "{to_b:?}");

    opts.headers_to_other_hosts = true;
    World::open_url(&a.url_of("/file"), &opts).unwrap();
    let to_b = &b.requests()[to_b.len()..];
    assert!(!to_b.is_empty());
    assert!(to_b.iter().all(carries_all), "{to_b:?}");

    // Credentials in the URL are the caller's too: B never sees them.
    let at = b.count();
    let with_credentials = format!("http://user:pa55word@127.0.0.1:{}/file", a.port());
    World::open_url(&with_credentials, &opts).unwrap();
    let to_b = &b.requests()[at..];
    assert!(!to_b.is_empty());
    assert!(
        to_b.iter()
            .all(|r| r.header("authorization") != Some("Basic dXNlcjpwYTU1d29yZA==")),
        "{to_b:?}"
    );

    // A redirect out of http(s) is refused, not followed.
    a.redirect("/elsewhere", "file:///etc/passwd");
    match World::open_url(&a.url_of("/elsewhere"), &opts).map(|_| ()) {
        Err(e) => assert!(
            matches!(http_error(&e), Some(HttpError::BadResponse { .. })),
            "{e}"
        ),
        Ok(()) => panic!("followed a redirect to file://"),
    }

    opts.headers_to_other_hosts = false;
    for from in ["/moved", "/moved-absolute"] {
        let at = a.count();
        World::open_url(&a.url_of(from), &opts).unwrap();
        let seen = &a.requests()[at..];
        assert!(seen.iter().any(|r| r.path() == "/here"), "{from}");
        assert!(seen.iter().all(carries_all), "{from}: {seen:?}");
    }
}

/// A URL's credentials and query (a presigned signature) appear in no error message, shown
/// or debugged, whatever the server does, and in no file of the disk cache after a session.
#[test]
fn secrets_in_a_url_reach_neither_messages_nor_the_cache() {
    let _shared = side_by_side();
    let path = "/a-private-path/world.rlpack";
    let server = Hostile::start(path, pack_bytes().to_vec());
    let url = format!(
        "http://user:pa55word@127.0.0.1:{}{path}?sig=S3CRET",
        server.port()
    );
    let secrets: [&[u8]; 4] = [
        b"pa55word",
        b"S3CRET",
        b"a-private-path",
        b"dXNlcjpwYTU1d29yZA",
    ];
    let leaks = |text: &str| {
        secrets[..2]
            .iter()
            .any(|s| text.contains(std::str::from_utf8(s).unwrap()))
    };
    for m in [
        Misbehaviour::Status(404),
        Misbehaviour::Status(503),
        Misbehaviour::Status(403),
        Misbehaviour::Reset,
        Misbehaviour::Truncate,
        Misbehaviour::ManyHeaders(100_000),
        Misbehaviour::RedirectLoop,
    ] {
        server.set(m.clone());
        let Err(e) = World::open_url(&url, &with_retries(1)) else {
            panic!("{m:?}: opened")
        };
        let (shown, debugged) = (e.to_string(), format!("{e:?}"));
        assert!(!leaks(&shown), "{m:?}: {shown}");
        assert!(!leaks(&debugged), "{m:?}: {debugged}");
        // The message still names the file.
        assert!(shown.contains("world.rlpack"), "{m:?}: {shown}");
        let Err(e) = Planet::open_url(&url, &with_retries(0)) else {
            panic!("{m:?}: a planet opened")
        };
        assert!(
            !leaks(&e.to_string()) && !leaks(&format!("{e:?}")),
            "{m:?}: {e}"
        );
    }

    server.set(Misbehaviour::Honest);
    let cache = common::scratch("hostile-secret-cache");
    for _ in 0..2 {
        let mut s = regions(World::open_url(&url, &options(Some(&cache))).unwrap());
        assert!(s.settle(HOME, Duration::from_secs(30)));
        assert!(check_resident(&s) > 0);
    }
    let files = common::walk(&cache);
    assert!(files.len() > 3, "nothing was cached");
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        for secret in secrets {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret),
                "{} holds {}",
                file.display(),
                String::from_utf8_lossy(secret)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
}

/// A header value or URL holding a line break would write a header of the caller's input's
/// choosing: refused as options, in Rust and through the C ABI, before any request.
#[test]
fn header_injection_is_refused_before_anything_is_sent() {
    use relief_c::http::{relief_http_options, relief_http_options_default};
    use relief_c::planet::{relief_planet_open, relief_planet_open_url};
    use relief_c::world::{relief_world_open, relief_world_open_url};
    use relief_c::{RELIEF_STATUS_INVALID_ARGUMENT, RELIEF_STATUS_OK};
    use std::ffi::CString;

    let _shared = side_by_side();
    let server = world_server();
    let url = server.url();
    let bad_headers = [
        ("X-Ok", "a\r\nX-Injected: 1"),
        ("X-Ok", "a\nX-Injected: 1"),
        ("X-Ok", "a\0b"),
        ("X-Ok\r\nX-Injected", "1"),
        ("X Ok", "1"),
        ("", "1"),
    ];
    for (name, value) in bad_headers {
        let mut opts = options(None);
        opts.headers = vec![
            ("X-Fine".into(), "fine".into()),
            (name.into(), value.into()),
        ];
        match HttpBytes::open(&url, &opts) {
            Err(HttpError::Options(e)) => assert_eq!(e.field, "headers[1]", "{name:?}: {e}"),
            other => panic!("{name:?}: {value:?}: {:?}", other.map(|_| ())),
        }
        assert!(World::open_url(&url, &opts).is_err());
        assert!(Planet::open_url(&url, &opts).is_err());
    }
    for bad_url in [
        format!("{url}\r\nX-Injected: 1"),
        format!("{url} HTTP/1.1\r\nX-Injected: 1"),
        format!("{url}?a=\nb"),
    ] {
        match HttpBytes::open(&bad_url, &options(None)) {
            Err(HttpError::Options(e)) => assert_eq!(e.field, "url"),
            other => panic!("{bad_url:?}: {:?}", other.map(|_| ())),
        }
    }
    assert_eq!(server.count(), 0, "{:?}", server.requests());

    // The C ABI: the same refusals as INVALID_ARGUMENT, nothing opened.
    let mut o: relief_http_options = unsafe { std::mem::zeroed() };
    o.struct_size = std::mem::size_of::<relief_http_options>() as u32;
    assert_eq!(
        unsafe { relief_http_options_default(&mut o) },
        RELIEF_STATUS_OK
    );
    o.timeout_ms = 2000;
    o.retries = 0;
    o.cache_budget_bytes = 0; // no disk cache
    let good_url = CString::new(url.as_str()).unwrap();
    let fine = CString::new("X-Fine: fine").unwrap();
    for header in ["X-Key: a\r\n", "X-Key: a\r\nX-Injected: 1", "X-Key: a\nb"] {
        let header = CString::new(header).unwrap();
        let headers = [fine.as_ptr(), header.as_ptr()];
        let mut bad = o;
        bad.headers = headers.as_ptr();
        bad.header_count = 2;
        let mut world = std::ptr::null_mut();
        assert_eq!(
            unsafe { relief_world_open_url(good_url.as_ptr(), &bad, &mut world) },
            RELIEF_STATUS_INVALID_ARGUMENT,
            "{header:?}"
        );
        assert!(world.is_null());
        let mut planet = std::ptr::null_mut();
        assert_eq!(
            unsafe { relief_planet_open_url(good_url.as_ptr(), &bad, &mut planet) },
            RELIEF_STATUS_INVALID_ARGUMENT,
            "{header:?}"
        );
        assert!(planet.is_null());
    }
    for bad_url in [format!("{url}\r\nX-Injected: 1"), format!("{url}\n")] {
        let bad_url = CString::new(bad_url).unwrap();
        let mut world = std::ptr::null_mut();
        assert_eq!(
            unsafe { relief_world_open_url(bad_url.as_ptr(), &o, &mut world) },
            RELIEF_STATUS_INVALID_ARGUMENT
        );
        assert_eq!(
            unsafe { relief_world_open(bad_url.as_ptr(), &mut world) },
            RELIEF_STATUS_INVALID_ARGUMENT
        );
        assert!(world.is_null());
        let mut planet = std::ptr::null_mut();
        assert_eq!(
            unsafe { relief_planet_open_url(bad_url.as_ptr(), &o, &mut planet) },
            RELIEF_STATUS_INVALID_ARGUMENT
        );
        assert_eq!(
            unsafe { relief_planet_open(bad_url.as_ptr(), &mut planet) },
            RELIEF_STATUS_INVALID_ARGUMENT
        );
        assert!(planet.is_null());
    }
    assert_eq!(server.count(), 0, "{:?}", server.requests());
}
