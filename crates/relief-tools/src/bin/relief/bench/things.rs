//! `things.*`: placed things, on a world or planet that has them. How fast one loader places
//! each band's chunks around the middle (things per second, per-chunk time), what a chunk holds in
//! memory, and what things add to a frame: the first route's whole update (its first ten
//! seconds at most) with things on against the same with them off, in this run. The hand-over on the main thread is
//! each route's own (`<route>.things_handover_*`, drive.rs).

use std::time::Duration;

use relief::runtime::{Ground, ThingStream, ThingsConfig};
use relief::stream::Source;
use relief::things::Band;
use relief::{DVec3, Runtime, RuntimeConfig};

use super::cpu_time;
use super::drive::{drive, Setup};
use super::figures::Figures;
use crate::timing::{millis, percentile};

/// The most frames of the first route driven with things on and off: ten seconds each.
const MOST_FRAMES: usize = 600;

/// `things.*` figures; none where the ground has no placement table.
pub fn figures(
    ground: &Ground,
    config: &RuntimeConfig,
    at: &dyn Fn(usize) -> (DVec3, DVec3),
    frames: usize,
    mid: DVec3,
    piece_read: Duration,
    fig: &mut Figures,
) -> Result<(), Box<dyn std::error::Error>> {
    let rules = match ground {
        Ground::Flat(w) => w.things().clone(),
        Ground::Planet(p) => p.things()?.clone(),
    };
    if rules.is_empty() {
        return Ok(());
    }
    let bands = ThingsConfig::default();
    let mut f = Figures::default();

    // Placement on this thread, pieces resident around the middle.
    let mut rt = Runtime::new(
        ground.clone(),
        RuntimeConfig {
            collision: None,
            lod: None,
            ..config.clone()
        },
    )?;
    rt.settle(mid, Duration::from_secs(60))?;
    let (mut all_things, mut all_time) = (0usize, Duration::ZERO);
    for band in Band::ALL.into_iter().filter(|b| rules.has_band(*b)) {
        let c = bands.band(band);
        let source = ThingStream::new(rt.queries(), rules.clone(), band, c.chunk_size_m)?;
        let mut keys = Vec::new();
        source.keys_within(mid, c.stream.load_radius, &mut keys);
        let (mut times, mut things) = (Vec::with_capacity(keys.len()), 0usize);
        for (key, _) in &keys {
            let mut n = 0;
            times.push(cpu_time(|| n = source.load(*key).map_or(0, |c| c.len())));
            things += n;
        }
        let total: Duration = times.iter().sum();
        times.sort();
        let name = band.name();
        f.set(&format!("{name}_chunks"), keys.len() as f64);
        f.set(
            &format!("{name}_per_chunk"),
            things as f64 / keys.len().max(1) as f64,
        );
        f.set(
            &format!("{name}_per_s"),
            things as f64 / total.as_secs_f64().max(1e-9),
        );
        f.set(
            &format!("{name}_chunk_p50_ms"),
            millis(percentile(&times, 50.0)),
        );
        f.set(
            &format!("{name}_chunk_p99_ms"),
            millis(percentile(&times, 99.0)),
        );
        all_things += things;
        all_time += total;
    }
    let rate = all_things as f64 / all_time.as_secs_f64().max(1e-9);
    f.set("per_s", rate);
    f.set("ms_per_8000", 8000.0 / rate.max(1e-9) * 1e3);
    drop(rt);

    // Memory: what a built chunk of each band holds, settled around the middle.
    let mut rt = Runtime::new(ground.clone(), config.clone())?;
    rt.settle(mid, Duration::from_secs(60))?;
    for (band, s) in Band::ALL.into_iter().zip(rt.stats().things) {
        if let Some(s) = s {
            f.set(
                &format!("{}_bytes_per_chunk", band.name()),
                s.ready_bytes as f64 / s.ready.max(1) as f64,
            );
        }
    }
    drop(rt);

    // The walking route with things on, then off.
    for (name, things) in [("on", config.things.clone()), ("off", None)] {
        let mut rt = Runtime::new(
            ground.clone(),
            RuntimeConfig {
                things,
                ..config.clone()
            },
        )?;
        let d = drive(
            &mut rt,
            &Setup {
                at,
                frames: frames.min(MOST_FRAMES),
                piece_read,
            },
        )?;
        for k in [
            "total_p50_us",
            "total_p99_us",
            "total_max_us",
            "cpu_p50_per_control",
        ] {
            f.set(&format!("{name}_{k}"), d.figures.of(k));
        }
    }
    f.set(
        "on_total_p50_per_off",
        f.of("on_total_p50_us") / f.of("off_total_p50_us").max(1e-9),
    );
    fig.absorb("things", f);
    Ok(())
}

/// The things section of the text report, if the world has things.
pub fn print(m: &Figures, routes: &[super::report::RouteId]) {
    if m.get("things.per_s").is_none() {
        return;
    }
    println!(
        "things: placed on one loader at {:.0} things/s (8,000 in {:.1} ms)",
        m.of("things.per_s"),
        m.of("things.ms_per_8000")
    );
    for band in Band::ALL {
        let f = |k: &str| m.of(&format!("things.{}_{k}", band.name()));
        if m.get(&format!("things.{}_per_s", band.name())).is_some() {
            println!(
                "  {:<4} {:.0} things/s, {:.0} a chunk, chunk p50 {:.2} ms, p99 {:.2} ms, {:.0} KB a chunk",
                band.name(),
                f("per_s"),
                f("per_chunk"),
                f("chunk_p50_ms"),
                f("chunk_p99_ms"),
                f("bytes_per_chunk") / 1e3
            );
        }
    }
    println!(
        "  the first route's update with things on: p50 {:.1} µs, p99 {:.1} µs; off: {:.1} / {:.1} µs (p50 ratio {:.2})",
        m.of("things.on_total_p50_us"),
        m.of("things.on_total_p99_us"),
        m.of("things.off_total_p50_us"),
        m.of("things.off_total_p99_us"),
        m.of("things.on_total_p50_per_off")
    );
    for r in routes {
        let f = |k: &str| m.of(&format!("{}.{k}", r.name));
        if f("thing_chunks") > 0.0 {
            println!(
                "  {:<8} {} chunks handed over on the main thread: p50 {:.2} µs, p99 {:.2} µs, max {:.2} µs",
                r.name,
                f("thing_chunks"),
                f("things_handover_p50_us"),
                f("things_handover_p99_us"),
                f("things_handover_max_us")
            );
        }
    }
}
