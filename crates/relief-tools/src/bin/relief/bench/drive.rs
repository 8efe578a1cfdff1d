//! One route driven through a runtime at 60 frames a second, as a game's main loop would:
//! update, events, the control workload timed in the same frame, then sleep to the frame's
//! end. What each frame cost is kept for the plot; the route's figures come from them.

use relief::DVec3;
use std::time::{Duration, Instant};

use relief::runtime::ChunkLookup;
use relief::stream::Event;
use relief::{Runtime, RuntimeEvent};

use super::figures::Figures;
use crate::process::{rss, thread_cpu};
use crate::timing::{micros, millis, percentile};

pub const FRAME_HZ: f64 = 60.0;

/// A fixed workload shaped like an update: hashed lookups scattered over 64 KiB of tables
/// (update() walks its slot map, key list and queue), about as long as update()'s median.
/// Timed in the same frames as update(), it is what every frame cost is measured against:
/// its tail is the machine's (preemption, caches gone cold during the frame's sleep), not
/// relief's.
#[inline(never)]
pub fn control_work(table: &[u64]) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mask = table.len() - 1; // a power of two
    for i in 0..190u64 {
        x = x.rotate_left(7)
            ^ table[(x as usize ^ i as usize) & mask].wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    x
}

/// The control's table: 64 KiB.
pub fn control_table() -> Vec<u64> {
    (0..8192u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect()
}

/// What one frame cost, for the plot.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    /// Seconds since the route's first frame.
    pub t: f32,
    /// The pieces' streamer inside update(), the whole update(), and the control.
    pub pieces_us: f32,
    pub total_us: f32,
    pub control_us: f32,
    /// Bytes the pieces' streamer holds (ready, cached, in flight) and the process's RSS
    /// (sampled every tenth frame), MB.
    pub held_mb: f32,
    pub rss_mb: f32,
    /// Pieces that arrived in this frame.
    pub loads: u16,
}

/// A route's frames and figures.
pub struct Driven {
    pub frames: Vec<Frame>,
    pub figures: Figures,
}

/// What a route needs besides its positions.
pub struct Setup<'a> {
    /// Where frame `f` stands: the focus and the camera.
    pub at: &'a dyn Fn(usize) -> (DVec3, DVec3),
    pub frames: usize,
    /// The median time to read one piece's stored bytes, raw, in this run.
    pub piece_read: Duration,
}

/// Settles around the route's start (a game's loading screen), then drives every frame.
pub fn drive(rt: &mut Runtime, s: &Setup) -> Result<Driven, Box<dyn std::error::Error>> {
    let chunks: Option<ChunkLookup> = rt.chunk_lookup().cloned();
    let (start, start_camera) = (s.at)(0);
    rt.update_with_camera(start, start_camera)?;
    rt.settle(start, Duration::from_secs(60))?;
    rt.update_with_camera(start, start_camera)?;
    while rt.poll_event().is_some() {}
    // The route's loads, not the loading screen's: those pay for memory no load has freed
    // yet (first visits are measured on their own, in a fresh process).
    rt.clear_timings();
    let base_rss = rss().map_or(0, |r| r.0);
    let before = rt.stats();
    let chunks_before = before.chunks.as_ref().map_or(0, |c| c.loads);
    let table = control_table();
    let frame = Duration::from_secs_f64(1.0 / FRAME_HZ);
    let mut frames = Vec::with_capacity(s.frames);
    let (mut pieces, mut totals, mut lods, mut control) = (
        Vec::with_capacity(s.frames),
        Vec::with_capacity(s.frames),
        Vec::with_capacity(s.frames),
        Vec::with_capacity(s.frames),
    );
    // The main thread's CPU time in update() and in the control, where the clock exists.
    let (mut update_cpu, mut control_cpu) =
        (Vec::with_capacity(s.frames), Vec::with_capacity(s.frames));
    // What `stats()` costs, called once a frame as a game's HUD would.
    let mut stats_time = Vec::with_capacity(s.frames);
    let (mut loads, mut drops, mut failures, mut late) = (0usize, 0usize, 0usize, 0usize);
    // A thing chunk's hand-over on the main thread: found by its key, each kind's buffer
    // reached (what an engine then uploads as it is).
    let mut handover = Vec::with_capacity(1024);
    let (mut peak, mut peak_rss, mut rss_now, mut sink) = (0usize, base_rss, base_rss, 0u64);
    for f in 0..s.frames {
        let tick = Instant::now();
        let (focus, camera) = (s.at)(f);
        let cpu0 = thread_cpu();
        rt.update_with_camera(focus, camera)?;
        let cpu1 = thread_cpu();
        let mut arrived = 0u16;
        while let Some(e) = rt.poll_event() {
            match e {
                RuntimeEvent::Piece(Event::Loaded { .. }) => arrived += 1,
                RuntimeEvent::Piece(Event::Unloaded { .. }) => drops += 1,
                RuntimeEvent::Piece(Event::Failed { .. })
                | RuntimeEvent::Chunk(Event::Failed { .. })
                | RuntimeEvent::Things(Event::Failed { .. }) => failures += 1,
                RuntimeEvent::Things(Event::Loaded { key, .. }) => {
                    let t = Instant::now();
                    if let Some(c) = rt.thing_lookup().get(key) {
                        for r in &c.runs {
                            let rows = &c.rows[r.start as usize..][..r.count as usize];
                            sink = sink.wrapping_add(rows.as_ptr() as u64 ^ rows.len() as u64);
                        }
                    }
                    handover.push(t.elapsed());
                }
                _ => {}
            }
        }
        loads += arrived as usize;
        let spent = rt.timings();
        late += chunks.as_ref().is_some_and(|c| !c.is_built_at(focus)) as usize;
        let (t0, cpu2) = (Instant::now(), thread_cpu());
        sink = sink.wrapping_add(control_work(&table));
        let (ctl, cpu3) = (t0.elapsed(), thread_cpu());
        if let (Some(a), Some(b), Some(c), Some(d)) = (cpu0, cpu1, cpu2, cpu3) {
            update_cpu.push(b.saturating_sub(a));
            control_cpu.push(d.saturating_sub(c));
        }
        let t_stats = Instant::now();
        let stats = rt.stats();
        stats_time.push(t_stats.elapsed());
        let st = stats.pieces;
        let held = st.ready_bytes + st.cached_bytes + st.in_flight_bytes;
        peak = peak.max(held);
        if f % 10 == 0 {
            rss_now = rss().map_or(0, |r| r.0);
            peak_rss = peak_rss.max(rss_now);
        }
        pieces.push(spent.pieces);
        totals.push(spent.total);
        lods.push(spent.lod);
        control.push(ctl);
        frames.push(Frame {
            t: (f as f64 / FRAME_HZ) as f32,
            pieces_us: micros(spent.pieces) as f32,
            total_us: micros(spent.total) as f32,
            control_us: micros(ctl) as f32,
            held_mb: (held as f64 / 1e6) as f32,
            rss_mb: (rss_now as f64 / 1e6) as f32,
            loads: arrived,
        });
        if let Some(rest) = frame.checked_sub(tick.elapsed()) {
            std::thread::sleep(rest);
        }
    }
    std::hint::black_box(sink);
    let stats = rt.stats();
    let st = &stats.pieces;
    let lod_mean = lods.iter().sum::<Duration>() / lods.len().max(1) as u32;
    // Each frame's cost in units of the control timed in the same frame.
    let per_frame = |v: &[Duration], control: &[Duration]| -> Vec<f64> {
        let mut r: Vec<f64> = v
            .iter()
            .zip(control)
            .map(|(a, c)| a.as_secs_f64() / c.as_secs_f64().max(1e-9))
            .collect();
        r.sort_by(f64::total_cmp);
        r
    };
    let (rp, rt, rl) = (
        per_frame(&pieces, &control),
        per_frame(&totals, &control),
        per_frame(&lods, &control),
    );
    let rc = per_frame(&update_cpu, &control_cpu);
    for v in [
        &mut pieces,
        &mut totals,
        &mut lods,
        &mut control,
        &mut update_cpu,
        &mut stats_time,
        &mut handover,
    ] {
        v.sort();
    }
    let us = |v: &[Duration], p: f64| micros(percentile(v, p));
    let max = |v: &[Duration]| micros(v.last().copied().unwrap_or_default());
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let mut fig = Figures::default();
    fig.set("frames", s.frames as f64);
    fig.set("update_p50_us", us(&pieces, 50.0));
    fig.set("update_p99_us", us(&pieces, 99.0));
    fig.set("update_max_us", max(&pieces));
    fig.set("total_p50_us", us(&totals, 50.0));
    fig.set("total_p99_us", us(&totals, 99.0));
    fig.set("total_max_us", max(&totals));
    fig.set("control_p50_us", us(&control, 50.0));
    fig.set("control_p99_us", us(&control, 99.0));
    fig.set("control_max_us", max(&control));
    fig.set("lod_p50_us", us(&lods, 50.0));
    fig.set("lod_p99_us", us(&lods, 99.0));
    fig.set("lod_max_us", max(&lods));
    fig.set("lod_mean_us", micros(lod_mean));
    fig.set("stats_p50_us", us(&stats_time, 50.0));
    fig.set("stats_max_us", max(&stats_time));
    // The cost of each frame in units of the control timed in the same frame, at the median
    // and the 90th percentile. Pairing within a frame cancels what the machine did to that
    // frame (frequency, caches gone cold in the sleep); the ratio of two p99s over a few
    // hundred frames is two single frames and swings by 2× between runs. In CPU time, the
    // thread's preemption by other work on the machine drops out as well: those are the
    // tightly gated ones (see figures::ROUTE_GATES).
    for (name, v) in [("update", &rp), ("total", &rt), ("lod", &rl)] {
        fig.set(&format!("{name}_p50_per_control"), percentile(v, 50.0));
        fig.set(&format!("{name}_p90_per_control"), percentile(v, 90.0));
    }
    if !rc.is_empty() {
        fig.set("cpu_p50_us", us(&update_cpu, 50.0));
        fig.set("cpu_p99_us", us(&update_cpu, 99.0));
        fig.set("cpu_max_us", max(&update_cpu));
        fig.set("cpu_p50_per_control", percentile(&rc, 50.0));
        fig.set("cpu_p90_per_control", percentile(&rc, 90.0));
    }
    fig.set("loads", loads as f64);
    fig.set("drops", drops as f64);
    fig.set("failures", failures as f64);
    fig.set("ready_p50_ms", millis(st.latency_p50));
    fig.set("ready_p99_ms", millis(st.latency_p99));
    fig.set("load_p50_ms", millis(st.load_p50));
    fig.set("load_mean_ms", millis(st.load_mean));
    fig.set(
        "load_mean_per_p50",
        ratio(millis(st.load_mean), millis(st.load_p50)),
    );
    fig.set(
        "ready_p50_per_read",
        ratio(millis(st.latency_p50), millis(s.piece_read)),
    );
    fig.set("peak_mb", peak as f64 / 1e6);
    fig.set("budget_mb", st.budget_bytes as f64 / 1e6);
    fig.set(
        "peak_per_budget",
        ratio(peak as f64, st.budget_bytes as f64),
    );
    fig.set("rss_start_mb", base_rss as f64 / 1e6);
    fig.set("rss_peak_mb", peak_rss as f64 / 1e6);
    fig.set(
        "rss_growth_mb",
        peak_rss.saturating_sub(base_rss) as f64 / 1e6,
    );
    fig.set(
        "budgets_mb",
        (st.budget_bytes + stats.chunks.as_ref().map_or(0, |c| c.budget_bytes)) as f64 / 1e6,
    );
    let built = stats.chunks.as_ref().map_or(0, |c| c.loads) - chunks_before;
    fig.set("chunks", built as f64);
    fig.set("late_frames", late as f64);
    fig.set("thing_chunks", handover.len() as f64);
    fig.set("things_handover_p50_us", us(&handover, 50.0));
    fig.set("things_handover_p99_us", us(&handover, 99.0));
    fig.set("things_handover_max_us", max(&handover));
    fig.set("late_share", ratio(late as f64, s.frames as f64));
    Ok(Driven {
        frames,
        figures: fig,
    })
}
