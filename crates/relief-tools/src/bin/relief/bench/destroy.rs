//! How long dropping a runtime holds the thread that drops it (a game's main thread, in
//! `relief_runtime_destroy` or Unity's `OnDisable`): with its loaders idle, and with every
//! loader stalled in a load, as behind a server that never answers. The stall is relief's
//! slowdown knob (a 30 s sleep at the start of every load, process-wide, like a read a
//! stalled server holds until its timeout), set only for that runtime and put back after.

use std::time::{Duration, Instant};

use relief::flat::World;
use relief::stream::slowdown;
use relief::{DVec3, Runtime, RuntimeConfig};

use super::figures::Figures;
use crate::timing::millis;

/// Each loads' stall: longer than any destroy could wait for it.
const STALL: Duration = Duration::from_secs(30);

/// `destroy.*`: the drop's time, idle and stalled, and how many loads were in flight (queued
/// or stalled in a loader) when it was dropped.
pub fn figures(
    world: &std::sync::Arc<World>,
    config: RuntimeConfig,
    at: DVec3,
    fig: &mut Figures,
) -> Result<(), Box<dyn std::error::Error>> {
    // Idle: everything around `at` loaded, nothing in flight.
    let mut rt = Runtime::new(world.clone(), config.clone())?;
    rt.settle(at, Duration::from_secs(60))?;
    let t = Instant::now();
    drop(rt);
    fig.set("destroy.idle_ms", millis(t.elapsed()));

    // Stalled: every load sleeps; a few frames let each loader take one.
    let before = slowdown::get();
    slowdown::set(before.0, STALL);
    let mut rt = Runtime::new(world.clone(), config)?;
    for _ in 0..10 {
        rt.update(at)?;
        std::thread::sleep(Duration::from_millis(5));
    }
    let s = rt.stats();
    let in_flight = s.pieces.in_flight + s.chunks.as_ref().map_or(0, |c| c.in_flight);
    let t = Instant::now();
    drop(rt);
    let took = t.elapsed();
    slowdown::set(before.0, before.1);
    fig.set("destroy.stalled_ms", millis(took));
    fig.set("destroy.stalled_in_flight", in_flight as f64);
    Ok(())
}

pub fn print(m: &Figures) {
    if m.get("destroy.stalled_ms").is_some() {
        println!(
            "destroy: {:.2} ms idle; {:.2} ms with {} loads in flight and every loader stalled in one ({} s each)",
            m.of("destroy.idle_ms"),
            m.of("destroy.stalled_ms"),
            m.of("destroy.stalled_in_flight"),
            STALL.as_secs()
        );
    }
}
