//! Worlds and planets by URL against a real server: nginx on a loopback port (tests/common/
//! nginx.rs), with relief's fault proxy in front where a test needs faults or a count of
//! requests. The same promises as for local files (tests/faults.rs): loads are the bytes on
//! disk or typed failures, nothing resident is lost, and healing brings everything back.

mod common;

use relief::DVec3;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use common::nginx::{Nginx, TOKEN};
use relief::flat::{RegionLocation, RegionSource, World};
use relief::http::proxy::{Fault, FaultProxy};
use relief::http::HttpOptions;
use relief::planet::{Planet, TileSource};
use relief::stream::{Event, Loaders, Source, Streamer};

fn pack_bytes() -> &'static [u8] {
    common::world_pack()
}

fn planet_bytes() -> &'static [u8] {
    common::planet_blob("http")
}

fn reference() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| World::open(common::world_dir()).unwrap())
}

fn options(cache: Option<&Path>) -> HttpOptions {
    HttpOptions {
        cache_dir: cache.map(Path::to_path_buf),
        cache_budget: 1 << 30,
        timeout: Duration::from_secs(5),
        retries: 1,
        headers: Vec::new(),
        headers_to_other_hosts: false,
    }
}

const HOME: DVec3 = DVec3::new(-1500.0, 0.0, -1500.0);
const THERE: DVec3 = DVec3::new(1200.0, 0.0, 300.0);

fn same_region(loc: &RegionLocation, region: &relief::flat::Region) -> bool {
    let want = reference().read_region(*loc).unwrap();
    (&region.height, &region.control, &region.color) == (&want.height, &want.control, &want.color)
}

fn regions(world: World) -> Streamer<RegionSource> {
    Streamer::new(
        Arc::new(RegionSource::new(Arc::new(world))),
        common::patient(400.0, 5),
        &Loaders::new(0),
    )
    .unwrap()
}

/// Every resident region is the one on disk; returns how many there are.
fn check_resident(s: &Streamer<RegionSource>) -> usize {
    let resident = s.resident();
    let r = resident.read();
    for (loc, region) in r.iter() {
        assert!(
            same_region(loc, region),
            "{loc:?} is not the region on disk"
        );
    }
    r.len()
}

fn server(name: &str) -> Nginx {
    let server = Nginx::start(&common::scratch(&format!("nginx-{name}")));
    server.publish("world.rlpack", pack_bytes(), 1_000_000);
    server
}

#[test]
fn a_pack_streams_over_http_as_it_does_from_disk() {
    let server = server("pack");
    let proxy = FaultProxy::start(server.addr).unwrap();
    let world = World::open_url(&proxy.url("world.rlpack"), &options(None)).unwrap();
    // The opening request, then the manifest, the overview and three tables.
    let opened = proxy.requests();
    assert!(opened <= 5, "opening took {opened} requests");
    assert_eq!(
        world.manifest().files.len(),
        reference().manifest().files.len()
    );

    let mut s = regions(world);
    assert!(s.settle(HOME, Duration::from_secs(60)));
    let loaded = check_resident(&s);
    assert!(loaded > 0);
    // One ranged GET per region, never a region in pieces.
    assert_eq!(proxy.requests() - opened, loaded as u64);

    // The runtime opens the same URL, telling a pack from a planet by its first bytes.
    let runtime = relief::Runtime::open_url(
        &server.url("world.rlpack"),
        &options(None),
        relief::runtime::RuntimeConfig::default(),
    )
    .unwrap();
    assert!(!runtime.ground().is_planet());
}

#[test]
fn a_planet_streams_over_http_as_it_does_from_disk() {
    let server = server("planet");
    server.publish("planet.plnt", planet_bytes(), 1_000_000);
    let proxy = FaultProxy::start(server.addr).unwrap();
    let planet = Planet::open_url(&proxy.url("planet.plnt"), &options(None)).unwrap();
    let opened = proxy.requests();
    assert!(opened <= 2, "opening took {opened} requests");
    // `relief info URL` tells a planet from a pack by the first bytes, as the runtime does.
    let info = std::process::Command::new(common::relief_exe())
        .args(["info", &server.url("planet.plnt")])
        .env("XDG_CACHE_HOME", common::scratch("http-info-cache"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&info.stdout);
    assert!(
        info.status.success() && said.starts_with("planet"),
        "{said}{}",
        String::from_utf8_lossy(&info.stderr)
    );
    let reference = Planet::open_bytes("<reference>", Box::new(planet_bytes().to_vec())).unwrap();

    let r = planet.radius();
    // Over the last face's centre: its tiles are the blob's last bytes, well past what the
    // opening request brought, whatever the tiles compress to.
    let d = relief::planet::cube::direction(planet.blob().header().projection, 5, 0.0, 0.0);
    let mut s = Streamer::new(
        Arc::new(TileSource::new(Arc::new(planet))),
        common::patient(r * 0.3, 5),
        &Loaders::new(0),
    )
    .unwrap();
    assert!(s.settle(d * r, Duration::from_secs(60)));
    let resident = s.resident();
    let tiles = resident.read();
    assert!(!tiles.is_empty());
    for (key, tile) in tiles.iter() {
        assert_eq!(**tile, reference.read_tile(*key).unwrap(), "{key:?}");
    }
    // One GET per tile (its fields lie together), none for a tile inside the bytes the
    // opening request brought.
    let loads = proxy.requests() - opened;
    let blob = reference.blob();
    let fields: Vec<usize> = (0..blob.fields().len()).collect();
    let beyond = tiles
        .keys()
        .filter(|&&k| {
            let span = blob.span(k, &fields).unwrap();
            span.offset + span.length as u64 > relief::http::HEAD_BYTES
        })
        .count() as u64;
    assert!(
        beyond > 0,
        "every tile lay in the opening bytes: test nothing"
    );
    assert!(
        loads >= beyond && loads <= tiles.len() as u64,
        "{loads} GETs, {beyond} tiles beyond"
    );

    let runtime = relief::Runtime::open_url(
        &server.url("planet.plnt"),
        &options(None),
        relief::runtime::RuntimeConfig::default(),
    )
    .unwrap();
    assert!(runtime.ground().is_planet());
}

/// Walks `s` to `there` while `proxy` injects `fault`, until some load has failed (and at
/// least `min` long); asserts nothing loaded, nothing unloaded. Returns the failures' texts.
fn walk_under_fault(s: &mut Streamer<RegionSource>, there: DVec3, min: Duration) -> Vec<String> {
    while s.poll_event().is_some() {} // what settling left
    let start = Instant::now();
    let mut failed = Vec::new();
    while start.elapsed() < min || failed.is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no load failed");
        s.update(there);
        while let Some(e) = s.poll_event() {
            match e {
                Event::Failed { error, .. } => failed.push(error.to_string()),
                Event::Loaded { key, .. } => panic!("{key:?} loaded through a fault"),
                Event::Unloaded { key } => panic!("{key:?} unloaded under a fault"),
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    failed
}

fn snapshot<S: Source>(s: &Streamer<S>) -> HashMap<S::Key, Arc<S::Item>>
where
    S::Key: Copy + Eq + std::hash::Hash,
{
    s.resident()
        .read()
        .iter()
        .map(|(k, v)| (*k, v.clone()))
        .collect()
}

#[test]
fn faults_become_failed_loads_and_lose_nothing() {
    let server = server("faults");
    let proxy = FaultProxy::start(server.addr).unwrap();
    for (fault, says) in [
        (Fault::Drop, ""),
        (Fault::Unavailable, "HTTP 503"),
        (Fault::Truncate, "truncated"),
        (Fault::Stall, "timed out"),
    ] {
        proxy.set(Fault::Pass);
        let mut opts = options(None);
        opts.timeout = Duration::from_millis(800);
        let world = World::open_url(&proxy.url("world.rlpack"), &opts).unwrap();
        let mut s = regions(world);
        assert!(s.settle(HOME, Duration::from_secs(60)));
        while s.poll_event().is_some() {}
        let before = snapshot(&s);

        proxy.set(fault);
        let failed = walk_under_fault(&mut s, THERE, Duration::from_millis(300));
        assert!(
            failed
                .iter()
                .all(|e| e.contains(says) && e.contains("world.rlpack")),
            "{fault:?}: {failed:?}"
        );
        let now = snapshot(&s);
        for (k, item) in &before {
            assert!(
                Arc::ptr_eq(&now[k], item),
                "{fault:?}: {k:?} lost or changed"
            );
        }

        proxy.set(Fault::Pass);
        assert!(
            s.settle(THERE, Duration::from_secs(60)),
            "{fault:?}: healed"
        );
        check_resident(&s);
    }
}

#[test]
fn a_file_replaced_on_the_server_is_reported_and_never_mixed() {
    let server = server("swap");
    let url = server.url("world.rlpack");
    let world = World::open_url(&url, &options(None)).unwrap();
    let mut s = regions(world);
    assert!(s.settle(HOME, Duration::from_secs(60)));
    let before = snapshot(&s);

    // A deploy replaces the file: another length, so no byte of it could pass for the old.
    let mut v2 = pack_bytes().to_vec();
    v2.extend_from_slice(&[0u8; 64]);
    server.publish("world.rlpack", &v2, 2_000_000);
    let failed = walk_under_fault(&mut s, THERE, Duration::from_millis(100));
    assert!(
        failed.iter().all(|e| e.contains("changed on the server")),
        "{failed:?}"
    );
    let now = snapshot(&s);
    for (k, item) in &before {
        assert!(Arc::ptr_eq(&now[k], item), "{k:?} lost or changed");
    }

    // Same bytes, a new modification time: a new ETag, also a replaced file.
    server.publish("world.rlpack", pack_bytes(), 3_000_000);
    let world = World::open_url(&url, &options(None)).unwrap();
    let mut s = regions(world);
    assert!(s.settle(HOME, Duration::from_secs(60)));
    server.publish("world.rlpack", pack_bytes(), 4_000_000);
    let failed = walk_under_fault(&mut s, THERE, Duration::from_millis(100));
    assert!(failed.iter().all(|e| e.contains("changed on the server")));

    // Reopened, the new version streams.
    let mut s = regions(World::open_url(&url, &options(None)).unwrap());
    assert!(s.settle(THERE, Duration::from_secs(60)));
    check_resident(&s);
}

#[test]
fn servers_that_ignore_range_refuse_tokens_or_lack_the_file_are_clear_errors() {
    let server = server("errors");
    let message = |url: &str, opts: &HttpOptions| match World::open_url(url, opts) {
        Ok(_) => panic!("{url} opened"),
        Err(e) => e.to_string(),
    };
    server.publish("norange/world.rlpack", pack_bytes(), 1_000_000);
    let m = message(&server.url("norange/world.rlpack"), &options(None));
    assert!(m.contains("ignores Range"), "{m}");

    // A presigned URL's query (its signature) never shows in a message.
    let m = message(
        &server.url("missing.rlpack?X-Amz-Signature=s3cr3t"),
        &options(None),
    );
    assert!(m.contains("missing.rlpack: file is missing"), "{m}");
    assert!(!m.contains("s3cr3t"), "{m}");

    server.publish("private/world.rlpack", pack_bytes(), 1_000_000);
    let url = server.url("private/world.rlpack");
    let m = message(&url, &options(None));
    assert!(m.contains("access denied"), "{m}");
    let mut opts = options(None);
    opts.headers.push(("Authorization".into(), TOKEN.into()));
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(60)));
    check_resident(&s);

    // Nothing listening at all.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let m = message(&format!("http://{dead}/world.rlpack"), &options(None));
    assert!(m.contains("world.rlpack"), "{m}");
}

fn cache_entries(dir: &Path) -> Vec<PathBuf> {
    common::walk(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "rce"))
        .collect()
}

#[test]
fn the_disk_cache_stands_in_for_the_network_and_drops_damaged_entries() {
    let server = server("cache");
    let proxy = FaultProxy::start(server.addr).unwrap();
    let url = proxy.url("world.rlpack");
    let cache = common::scratch("http-cache");
    let opts = options(Some(&cache));

    // Cold: everything fetched once, and kept.
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(60)));
    let home = check_resident(&s);
    drop(s);
    let cold = proxy.requests();

    // Warm: reopening asks the server once (is it still the same file?), loads ask nothing.
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(60)));
    assert_eq!(check_resident(&s), home);
    assert_eq!(proxy.requests() - cold, 1, "a warm open and loads");
    drop(s);

    // The network is gone: the cache's record opens the world, what it holds loads, the
    // rest fails cleanly.
    proxy.set(Fault::Drop);
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(60)));
    assert_eq!(check_resident(&s), home);
    let before = snapshot(&s);
    walk_under_fault(&mut s, THERE, Duration::from_millis(100));
    let now = snapshot(&s);
    assert!(before.keys().all(|k| now.contains_key(k)));
    drop(s);

    // Every entry damaged: each is dropped when read and fetched again.
    proxy.set(Fault::Pass);
    let entries = cache_entries(&cache);
    assert!(entries.len() > home);
    for e in &entries {
        let mut raw = std::fs::read(e).unwrap();
        let last = raw.len() - 1;
        raw[last] ^= 0x40;
        std::fs::write(e, raw).unwrap();
    }
    let at = proxy.requests();
    let mut s = regions(World::open_url(&url, &opts).unwrap());
    assert!(s.settle(HOME, Duration::from_secs(60)));
    assert_eq!(check_resident(&s), home);
    // The open, the manifest, overview and tables again, and every region again.
    assert!(
        proxy.requests() - at > home as u64,
        "damaged entries were served"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn two_openers_share_one_cache_directory() {
    let server = server("shared");
    let proxy = FaultProxy::start(server.addr).unwrap();
    let url = proxy.url("world.rlpack");
    let cache = common::scratch("http-shared-cache");
    // Each opener keeps its own cache object on the directory, as two processes would.
    std::thread::scope(|scope| {
        for focus in [HOME, THERE] {
            let (url, cache) = (&url, &cache);
            scope.spawn(move || {
                let mut s = regions(World::open_url(url, &options(Some(cache))).unwrap());
                assert!(s.settle(focus, Duration::from_secs(60)));
                assert!(s.settle(HOME, Duration::from_secs(60)));
                check_resident(&s);
            });
        }
    });
    // Offline, a third loads from what both left.
    proxy.set(Fault::Drop);
    let mut s = regions(World::open_url(&url, &options(Some(&cache))).unwrap());
    assert!(s.settle(THERE, Duration::from_secs(60)));
    assert!(s.settle(HOME, Duration::from_secs(60)));
    check_resident(&s);
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn the_c_abi_opens_by_url_and_checks_its_options() {
    use relief_c::http::{relief_http_options, relief_http_options_default};
    use relief_c::planet::{relief_planet_destroy, relief_planet_open_url};
    use relief_c::world::{relief_world_destroy, relief_world_open, relief_world_open_url};
    use relief_c::*;
    use std::ffi::{CStr, CString};
    let last = || {
        unsafe { CStr::from_ptr(relief_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    };

    let server = server("ffi");
    server.publish("planet.plnt", planet_bytes(), 1_000_000);
    let cache = common::scratch("http-ffi-cache");
    let cache_c = CString::new(cache.to_str().unwrap()).unwrap();
    let mut o: relief_http_options = unsafe { std::mem::zeroed() };
    // The default call, like every call that fills a struct, needs its size first.
    assert_eq!(
        unsafe { relief_http_options_default(&mut o) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    o.struct_size = std::mem::size_of::<relief_http_options>() as u32;
    assert_eq!(
        unsafe { relief_http_options_default(&mut o) },
        RELIEF_STATUS_OK
    );
    assert_eq!(
        o.struct_size as usize,
        std::mem::size_of::<relief_http_options>()
    );
    assert_eq!((o.timeout_ms, o.retries), (10_000, 2));
    o.cache_dir = cache_c.as_ptr();
    let header = CString::new("X-Relief: c").unwrap();
    let headers = [header.as_ptr()];
    o.headers = headers.as_ptr();
    o.header_count = 1;

    let url = CString::new(server.url("world.rlpack")).unwrap();
    let mut world = std::ptr::null_mut();
    assert_eq!(
        unsafe { relief_world_open_url(url.as_ptr(), &o, &mut world) },
        RELIEF_STATUS_OK,
        "{}",
        last()
    );
    assert!(!world.is_null());
    unsafe { relief_world_destroy(world) };
    assert!(cache_entries(&cache).len() > 1, "nothing was cached");
    // relief_world_open takes a URL too, with the defaults.
    let mut world = std::ptr::null_mut();
    let mut defaults: relief_http_options = unsafe { std::mem::zeroed() };
    defaults.struct_size = std::mem::size_of::<relief_http_options>() as u32;
    assert_eq!(
        unsafe { relief_http_options_default(&mut defaults) },
        RELIEF_STATUS_OK
    );
    defaults.cache_budget_bytes = 0; // keep the test out of the user's cache
    assert_eq!(
        unsafe { relief_world_open_url(url.as_ptr(), &defaults, &mut world) },
        RELIEF_STATUS_OK
    );
    unsafe { relief_world_destroy(world) };
    let purl = CString::new(server.url("planet.plnt")).unwrap();
    let mut planet = std::ptr::null_mut();
    assert_eq!(
        unsafe { relief_planet_open_url(purl.as_ptr(), &o, &mut planet) },
        RELIEF_STATUS_OK,
        "{}",
        last()
    );
    unsafe { relief_planet_destroy(planet) };

    // Misuse: typed errors, nothing written.
    let mut world = std::ptr::null_mut();
    let missing = CString::new(server.url("missing.rlpack")).unwrap();
    assert_eq!(
        unsafe { relief_world_open_url(missing.as_ptr(), &o, &mut world) },
        RELIEF_STATUS_NOT_FOUND
    );
    assert!(last().contains("missing.rlpack"));
    assert_eq!(
        unsafe { relief_world_open(missing.as_ptr(), &mut world) },
        RELIEF_STATUS_NOT_FOUND
    );
    assert_eq!(
        unsafe { relief_world_open_url(std::ptr::null(), &o, &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    let mut bad = o;
    bad.struct_size += 8;
    assert_eq!(
        unsafe { relief_world_open_url(url.as_ptr(), &bad, &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last().contains("struct_size"));
    let mut bad = o;
    bad.headers = std::ptr::null();
    assert_eq!(
        unsafe { relief_world_open_url(url.as_ptr(), &bad, &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    let colonless = CString::new("no colon").unwrap();
    let bad_headers = [colonless.as_ptr()];
    let mut bad = o;
    bad.headers = bad_headers.as_ptr();
    assert_eq!(
        unsafe { relief_world_open_url(url.as_ptr(), &bad, &mut world) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    assert!(last().contains("headers[0]"));
    assert!(world.is_null());
    assert_eq!(
        unsafe { relief_http_options_default(std::ptr::null_mut()) },
        RELIEF_STATUS_INVALID_ARGUMENT
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn relief_bench_url_measures_local_cold_warm_and_a_delayed_link() {
    let server = server("bench");
    let out = common::scratch("http-bench").with_extension("json");
    let run = std::process::Command::new(common::relief_exe())
        .arg("bench")
        .arg(server.url("world.rlpack"))
        .args(["--seconds", "0.5", "--rtt-ms", "5", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(text.contains("downloaded whole"), "{text}");
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(doc["bytes"], pack_bytes().len() as u64);
    // The drop behind a stalling proxy is measured (its figure is the bench's to judge, not
    // this test's), and said.
    let ms = |field: &str| doc[field].as_f64().unwrap_or_else(|| panic!("{field}"));
    let (stalled, slowest, answering) = (
        ms("destroy_stalled_ms"),
        ms("destroy_stalled_max_ms"),
        ms("destroy_answering_ms"),
    );
    assert!(
        0.0 <= stalled && stalled <= slowest && answering >= 0.0,
        "{stalled} {slowest} {answering}"
    );
    assert_eq!(doc["destroy_runs"], 9);
    assert!(text.contains("drops of a runtime"), "{text}");
    println!(
        "relief bench URL: destroy behind a stalled server median {stalled:.2} ms, max \
         {slowest:.2} ms; answering {answering:.2} ms"
    );
    let rows = doc["rows"].as_array().unwrap();
    for speed in ["running", "flying"] {
        let of = |source: &str| -> Vec<&serde_json::Value> {
            rows.iter()
                .filter(|r| {
                    r["speed"] == speed && r["source"].as_str().unwrap().starts_with(source)
                })
                .collect()
        };
        let n = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap();
        let (local, cold, warm) = (of("local file")[0], of("URL, cold")[0], of("URL, warm")[0]);
        assert_eq!(n(local, "requests"), 0.0);
        assert!(n(local, "loads") > 0.0);
        // Cold: everything from the server, one request per region beyond the open's few.
        assert!(n(cold, "fetched_bytes") > 0.0);
        assert!(n(cold, "requests") <= n(cold, "loads") + 5.0, "{cold}");
        // Warm: the open asks once whether the file is the same; the rest is the cache's.
        assert_eq!(n(warm, "requests"), 1.0, "{warm}");
        assert!(n(warm, "cache_hits") >= n(warm, "loads"), "{warm}");
        let delayed = of("URL +5 ms");
        assert!(!delayed.is_empty() && delayed.len() <= 4);
        assert!(delayed.iter().all(|r| n(r, "failures") == 0.0));
    }
}
