//! Configs, as a Rust caller meets them: each part's `validate` names the field that cannot
//! work, every constructor that takes a config refuses exactly what `validate` refuses (with
//! the same error), and no config — NaN, infinite, zero, huge — panics, overflows or hangs
//! anything reachable from the Rust API.

mod common;

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use relief::flat::{RegionSource, World};
use relief::http::HttpOptions;
use relief::lod::{Clipmap, ClipmapConfig};
use relief::planet::rings::PlanetRings;
use relief::runtime::{BandConfig, CollisionConfig, ThingsConfig};
use relief::stream::{Loaders, StreamConfig, Streamer};
use relief::{ConfigError, DVec3, Runtime, RuntimeConfig, RuntimeError};

fn world() -> Arc<World> {
    static WORLD: std::sync::OnceLock<Arc<World>> = std::sync::OnceLock::new();
    WORLD
        .get_or_init(|| Arc::new(World::open(common::world_dir()).unwrap()))
        .clone()
}

type Spoil = fn(&mut RuntimeConfig);

/// One field made wrong, and the path `validate` must name.
const WRONG: &[(&str, Spoil)] = &[
    ("pieces.load_radius", |c| c.pieces.load_radius = f64::NAN),
    ("pieces.load_radius", |c| c.pieces.load_radius = -1.0),
    ("pieces.load_radius", |c| {
        c.pieces.load_radius = f64::INFINITY;
        c.pieces.drop_radius = f64::INFINITY;
    }),
    ("pieces.drop_radius", |c| {
        c.pieces.drop_radius = c.pieces.load_radius - 1.0
    }),
    ("pieces.drop_radius", |c| c.pieces.drop_radius = f64::NAN),
    ("loader_threads", |c| c.loader_threads = 257),
    ("loader_threads", |c| c.loader_threads = usize::MAX),
    ("pieces.budget_bytes", |c| c.pieces.budget_bytes = 0),
    ("pieces.update_budget", |c| {
        c.pieces.update_budget = Duration::MAX
    }),
    ("pieces.max_attempts", |c| c.pieces.max_attempts = 0),
    ("pieces.retry_delay", |c| {
        c.pieces.retry_delay = Duration::MAX
    }),
    ("collision.stream.load_radius", |c| {
        c.collision.as_mut().unwrap().stream.load_radius = -0.5
    }),
    ("collision.stream.max_attempts", |c| {
        c.collision.as_mut().unwrap().stream.max_attempts = 0
    }),
    ("collision.chunk_size_m", |c| {
        c.collision.as_mut().unwrap().chunk_size_m = f64::NAN
    }),
    ("collision.chunk_size_m", |c| {
        c.collision.as_mut().unwrap().chunk_size_m = -64.0
    }),
    ("things.near.chunk_size_m", |c| {
        c.things.as_mut().unwrap().near.chunk_size_m = f64::NAN
    }),
    ("things.far.chunk_size_m", |c| {
        c.things.as_mut().unwrap().far.chunk_size_m = 2000.0
    }),
    ("things.mid.stream.drop_radius", |c| {
        c.things.as_mut().unwrap().mid.stream.drop_radius = 1.0
    }),
    ("lod.levels", |c| c.lod.as_mut().unwrap().levels = 0),
    ("lod.levels", |c| c.lod.as_mut().unwrap().levels = u32::MAX),
    ("lod.size", |c| c.lod.as_mut().unwrap().size = 127),
    ("lod.size", |c| c.lod.as_mut().unwrap().size = 0),
    ("lod.size", |c| c.lod.as_mut().unwrap().size = u32::MAX),
    // Each within its own bounds, too many cells together.
    ("lod.size", |c| {
        let l = c.lod.as_mut().unwrap();
        (l.levels, l.size) = (24, 4096);
    }),
    ("lod.base_spacing", |c| {
        c.lod.as_mut().unwrap().base_spacing = 0.0
    }),
    ("lod.base_spacing", |c| {
        c.lod.as_mut().unwrap().base_spacing = f64::NAN
    }),
    // Finite, but the coarsest level's side is not.
    ("lod.base_spacing", |c| {
        c.lod.as_mut().unwrap().base_spacing = 1e306
    }),
    ("event_capacity", |c| c.event_capacity = 15),
    ("event_capacity", |c| c.event_capacity = usize::MAX),
];

#[test]
fn each_wrong_field_is_named_and_the_runtime_refuses_it_alike() {
    assert!(RuntimeConfig::default().validate().is_ok());
    for (field, spoil) in WRONG {
        let mut config = RuntimeConfig::default();
        spoil(&mut config);
        let e = config.validate().expect_err(field);
        assert_eq!(e.field, *field, "{e}");
        assert!(e.to_string().starts_with(&format!("{field}: ")), "{e}");
        match Runtime::new(world(), config) {
            Err(RuntimeError::Config(got)) => assert_eq!(got, e),
            Err(other) => panic!("{field}: {other}"),
            Ok(_) => panic!("{field}: a runtime started on {e}"),
        }
    }
}

#[test]
fn a_chunk_size_the_world_cannot_hold_is_named_too() {
    // 63.5 m is not a whole number of this world's 2 m samples: valid on its own, refused
    // by the ground.
    let mut config = RuntimeConfig::default();
    config.collision.as_mut().unwrap().chunk_size_m = 63.5;
    assert!(config.validate().is_ok());
    match Runtime::new(world(), config) {
        Err(RuntimeError::Config(e)) => assert_eq!(e.field, "collision.chunk_size_m", "{e}"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a runtime started with 63.5 m chunks of 2 m samples"),
    }
    // 1024 m chunks of grass (up to 1.5 per m²) would hold 1.6 million things: refused by
    // the table the world carries, naming the band's chunk size.
    let mut config = RuntimeConfig::default();
    config.things.as_mut().unwrap().near.chunk_size_m = 1024.0;
    assert!(config.validate().is_ok());
    match Runtime::new(world(), config) {
        Err(RuntimeError::Config(e)) => assert_eq!(e.field, "things.near.chunk_size_m", "{e}"),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a runtime started with 1024 m chunks of grass"),
    }
}

#[test]
fn a_part_used_alone_refuses_what_its_config_refuses() {
    let bad = StreamConfig {
        budget_bytes: 0,
        ..StreamConfig::default()
    };
    let source = Arc::new(RegionSource::new(world()));
    match Streamer::new(source, bad.clone(), &Loaders::new(0)) {
        Err(e) => assert_eq!(e, bad.validate().unwrap_err()),
        Ok(_) => panic!("a streamer started with no budget"),
    }
    let odd = ClipmapConfig {
        size: 33,
        ..ClipmapConfig::default()
    };
    assert_eq!(Clipmap::new(odd).err().unwrap().field, "size");
    assert_eq!(PlanetRings::new(odd).err().unwrap().field, "size");
    let collision = CollisionConfig {
        chunk_size_m: f64::INFINITY,
        ..CollisionConfig::default()
    };
    assert_eq!(collision.validate().unwrap_err().field, "chunk_size_m");
}

#[test]
fn http_options_name_what_cannot_be_sent() {
    let check = |spoil: fn(&mut HttpOptions), field: &str| {
        let mut o = HttpOptions::default();
        spoil(&mut o);
        let e = o.validate().expect_err(field);
        assert_eq!(e.field, field, "{e}");
        // Refused before anything is sent: no server listens here.
        let Err(err) = relief::http::HttpBytes::open("http://127.0.0.1:9/x.rlpack", &o) else {
            panic!("opened with {e}");
        };
        assert!(err.to_string().contains(&e.to_string()), "{err}");
    };
    assert!(HttpOptions::default().validate().is_ok());
    check(|o| o.timeout = Duration::ZERO, "timeout");
    check(|o| o.timeout = Duration::from_secs(7200), "timeout");
    check(|o| o.retries = 11, "retries");
    check(
        |o| o.headers = vec![(String::new(), "x".into())],
        "headers[0]",
    );
    check(
        |o| {
            o.headers = vec![
                ("Authorization".into(), "Bearer abc".into()),
                ("Bad Name".into(), "x".into()),
            ]
        },
        "headers[1]",
    );
    check(
        |o| o.headers = vec![("X-Token".into(), "a\r\nInjected: yes".into())],
        "headers[0]",
    );
}

// Values from the edges of each field's type and just either side of each bound.

fn metres() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        f64::NAN,
        f64::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1e-9,
        64.0,
        300.0,
        512.0,
        704.0,
        1e6,
        1e300,
        f64::MAX,
        f64::INFINITY,
    ])
}

fn durations() -> impl Strategy<Value = Duration> {
    prop::sample::select(vec![
        Duration::ZERO,
        Duration::from_micros(500),
        Duration::from_secs(1),
        Duration::from_millis(1001),
        Duration::from_secs(3600),
        Duration::from_secs(3601),
        Duration::MAX,
    ])
}

prop_compose! {
    fn stream_configs()(
        load_radius in metres(),
        drop_radius in metres(),
        budget_bytes in prop::sample::select(vec![0usize, 1, 64 << 20, usize::MAX]),
        update_budget in durations(),
        max_attempts in prop::sample::select(vec![0u32, 1, 4, u32::MAX]),
        retry_delay in durations(),
    ) -> StreamConfig {
        StreamConfig {
            load_radius,
            drop_radius,
            budget_bytes,
            update_budget,
            max_attempts,
            retry_delay,
        }
    }
}

prop_compose! {
    fn clipmap_configs()(
        levels in prop::sample::select(vec![0u32, 1, 6, 24, 25, u32::MAX]),
        size in prop::sample::select(vec![0u32, 1, 2, 3, 64, 4097, u32::MAX]),
        base_spacing in metres(),
    ) -> ClipmapConfig {
        ClipmapConfig { levels, size, base_spacing }
    }
}

prop_compose! {
    fn runtime_configs()(
        pieces in stream_configs(),
        collision in prop::option::of(stream_configs()),
        chunk_size_m in prop::sample::select(vec![f64::NAN, -1.0, 0.0, 1.0, 63.5, 64.0, 1e9]),
        lod in prop::option::of(clipmap_configs()),
        things in prop::option::of((stream_configs(), thing_chunk_sizes(), thing_chunk_sizes())),
        loader_threads in prop::sample::select(vec![0usize, 1, 2, 256, 257, usize::MAX]),
        event_capacity in prop::sample::select(vec![0usize, 15, 16, 4096, 1 << 20, (1 << 20) + 1, usize::MAX]),
    ) -> RuntimeConfig {
        RuntimeConfig {
            pieces,
            collision: collision.map(|stream| CollisionConfig { stream, chunk_size_m }),
            lod,
            things: things.map(|(stream, near, far)| {
                let d = ThingsConfig::default();
                ThingsConfig {
                    near: BandConfig { stream, chunk_size_m: near },
                    far: BandConfig { chunk_size_m: far, ..d.far },
                    ..d
                }
            }),
            loader_threads,
            event_capacity,
        }
    }
}

fn thing_chunk_sizes() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        f64::NAN,
        -1.0,
        0.0,
        3.9,
        4.0,
        64.0,
        1024.0,
        1024.5,
        1e9,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    // Whatever the config: no panic; a refusal names a field of the config and is what
    // `validate` says; a config `validate` passes starts (unless the ground can't hold its
    // chunk size) and streams a frame.
    #[test]
    fn no_config_panics_and_the_runtime_agrees_with_validate(config in runtime_configs()) {
        let checked = config.validate();
        match (&checked, Runtime::new(world(), config.clone())) {
            (Err(e), Err(RuntimeError::Config(got))) => prop_assert_eq!(e, &got),
            (Err(e), Ok(_)) => prop_assert!(false, "started despite {}", e),
            (Ok(()), Err(RuntimeError::Config(got))) => {
                let ground = ["collision.chunk_size_m", "things.near.chunk_size_m",
                    "things.mid.chunk_size_m", "things.far.chunk_size_m"];
                prop_assert!(ground.contains(&got.field.as_str()), "{}", got)
            }
            (Ok(()), Ok(mut rt)) => {
                prop_assert!(rt.update(DVec3::new(10.0, 0.0, 20.0)).is_ok());
                while rt.poll_event().is_some() {}
            }
            (_, Err(other)) => prop_assert!(false, "{}", other),
        }
        if let Err(ConfigError { field, .. }) = checked {
            let known = ["load_radius", "drop_radius", "loader_threads", "budget_bytes",
                "update_budget", "max_attempts", "retry_delay", "chunk_size_m", "levels",
                "size", "base_spacing", "event_capacity"];
            prop_assert!(known.iter().any(|k| field.ends_with(k)), "{}", field);
        }
    }

    #[test]
    fn clipmaps_agree_with_validate(config in clipmap_configs()) {
        let clipmap = Clipmap::new(config);
        let checked = config.validate();
        prop_assert_eq!(clipmap.as_ref().err(), checked.as_ref().err());
        if let Ok(mut c) = clipmap {
            let rects = c.update_with([1.0, 2.0], &mut |_, _, _, _| 0.5).len();
            prop_assert!(rects > 0);
        }
    }
}
