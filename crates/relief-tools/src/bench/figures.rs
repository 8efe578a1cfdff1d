//! Figures: every number a bench run measures, by name, and which of them a comparison
//! gates on (the ones that are ratios to something measured in the same run).
//!
//! Names are `<route>.<figure>` for a route (`walking.update_p99_per_control`) and
//! `<section>.<figure>` for the rest (`queries.height_us`); docs/bench.md lists them all.

use std::collections::BTreeMap;

/// A run's figures by name. Absent means not measured (a cold read this platform can't do).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Figures(pub BTreeMap<String, f64>);

impl Figures {
    pub fn set(&mut self, name: &str, value: f64) {
        self.0.insert(name.to_string(), value);
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.get(name).copied()
    }

    /// The figure, or zero when it wasn't measured (for the text report).
    pub fn of(&self, name: &str) -> f64 {
        self.get(name).unwrap_or(0.0)
    }

    /// Adds `other`'s figures under `prefix.`.
    pub fn absorb(&mut self, prefix: &str, other: Figures) {
        for (k, v) in other.0 {
            self.0.insert(format!("{prefix}.{k}"), v);
        }
    }

    /// Each figure's median over runs (the middle value; the lower middle for an even count).
    pub fn medians(runs: &[Figures]) -> Figures {
        let mut out = Figures::default();
        let names: std::collections::BTreeSet<&String> =
            runs.iter().flat_map(|r| r.0.keys()).collect();
        for name in names {
            let mut v: Vec<f64> = runs.iter().filter_map(|r| r.get(name)).collect();
            out.set(name, median(&mut v));
        }
        out
    }
}

/// The median of some figures: the middle value, the lower middle for an even count; zero
/// when there are none. Sorts `v` (total order).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0.0)
}

/// Which way a figure gets better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Lower,
    Higher,
}

/// How a comparison treats a figure: worse means beyond `rel` (a fraction of the baseline's
/// median) plus `abs` (in the figure's own unit), and every run worse than every baseline run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gate {
    pub better: Better,
    pub rel: f64,
    pub abs: f64,
}

const fn lower(rel: f64, abs: f64) -> Gate {
    Gate {
        better: Better::Lower,
        rel,
        abs,
    }
}

const fn higher(rel: f64) -> Gate {
    Gate {
        better: Better::Higher,
        rel,
        abs: 0.0,
    }
}

/// Route figures a comparison gates on: per-frame ratios to the control in the same frame,
/// ratios to a raw read or a full rebuild in the same run, to the budget, or shares of the
/// route's frames. The frame's cost is gated tightly in the main thread's CPU time, where
/// neither preemption nor another process on the machine can reach it, and loosely (2×) in
/// wall time, which a shared machine moves by 40–60 % between identical runs minutes apart
/// (seen on CI). Medians get tighter thresholds than tails; p99 and max are reported, not
/// gated (over a few hundred frames they are single frames, and swing by 2× between
/// identical runs here).
const ROUTE_GATES: [(&str, Gate); 10] = [
    ("cpu_p50_per_control", lower(0.25, 0.0)),
    ("cpu_p90_per_control", lower(0.5, 0.0)),
    ("update_p50_per_control", lower(1.0, 0.0)),
    ("total_p50_per_control", lower(1.0, 0.0)),
    // A full rebuild's own time is bimodal across processes here (4.9 or 7.1 ms, same
    // build, idle machine), so a ratio to it moves by 1.45× without a change.
    ("lod_mean_per_rebuild", lower(1.0, 0.0)),
    ("ready_p50_per_read", lower(0.5, 0.0)),
    ("peak_per_budget", lower(0.1, 0.02)),
    ("late_share", lower(0.5, 0.02)),
    // Any failure where the baseline had none, in every run.
    ("failures", lower(0.0, 0.5)),
    ("lod_p90_per_control", lower(1.0, 0.0)),
];

/// Section figures a comparison gates on.
const SECTION_GATES: [(&str, Gate); 9] = [
    ("throughput.warm_ratio", higher(0.2)),
    // The same regions encoded by the same build: it moves only when a codec or profile does.
    ("profiles.compact_size_ratio", higher(0.01)),
    // Cold reads wait on the disk and stay on the wall clock: another process moves them by
    // up to 45 % (docs/bench.md).
    ("throughput.cold_ratio", higher(0.6)),
    ("queries.batch_height_per_control", lower(0.5, 0.0)),
    ("queries.height_per_control", lower(0.5, 0.0)),
    ("queries.normal_per_control", lower(0.5, 0.0)),
    ("queries.river_per_control", lower(0.5, 0.0)),
    ("queries.lake_per_control", lower(0.5, 0.0)),
    // Bimodal across processes (see lod_mean_per_rebuild).
    ("clipmap.full_rebuild_per_control", lower(1.0, 0.0)),
];

/// The gate for a figure name, if a comparison judges it.
pub fn gate(name: &str) -> Option<Gate> {
    if let Some((_, g)) = SECTION_GATES.iter().find(|(n, _)| *n == name) {
        return Some(*g);
    }
    let (_, figure) = name.split_once('.')?;
    ROUTE_GATES
        .iter()
        .find(|(n, _)| *n == figure)
        .map(|(_, g)| *g)
}
