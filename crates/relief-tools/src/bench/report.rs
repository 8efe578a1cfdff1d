//! The bench's results as data: what `--json` writes and `--compare` reads. The schema is
//! versioned ([`SCHEMA_VERSION`]) and documented field by field in docs/bench.md.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::figures::{median, Figures};

pub const SCHEMA: &str = "relief-bench";
/// Bumped whenever a field changes meaning or goes away (adding figures does not bump it).
pub const SCHEMA_VERSION: u32 = 1;
/// The largest baseline read: 16 MiB, a hundred runs of every figure many times over.
pub const MAX_BASELINE_BYTES: u64 = 16 << 20;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub schema: String,
    pub schema_version: u32,
    /// When the run started: seconds since 1970 (UTC).
    pub started: u64,
    pub relief: Build,
    pub machine: Machine,
    pub ground: GroundId,
    pub settings: Settings,
    pub routes: Vec<RouteId>,
    pub noise: Noise,
    /// Every figure of every run, in order.
    pub runs: Vec<Figures>,
    /// Each figure's median over the runs: what the text report prints.
    pub medians: Figures,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    pub version: String,
    /// The commit the binary was built from, or `unknown`.
    pub git: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    pub kernel: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundId {
    /// `flat` or `planet`.
    pub kind: String,
    pub path: String,
    /// What makes two grounds the same for a comparison (seed, size, layout, bytes).
    pub identity: String,
    /// The seed text (flat) or the seed's hash (planet, which stores only the hash).
    pub seed: String,
    /// Side of the world (flat) or radius (planet), metres.
    pub size_m: f64,
    /// Height samples in all: regions × size² or 6 × face².
    pub samples: u64,
    /// Bytes on disk.
    pub bytes: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Seconds per built-in route (a route file plays for its own duration).
    pub seconds: f64,
    pub repeat: usize,
    /// The pieces' memory budget.
    pub budget_mb: f64,
    pub frame_hz: f64,
    /// The test-only slowdown (zero unless set): busy work added to each update and sleep
    /// to each load.
    pub slowdown_update_us: f64,
    pub slowdown_load_ms: f64,
    /// Sections left out with `--skip` (sorted; absent in reports from before it).
    #[serde(default)]
    pub skipped: Vec<String>,
}

/// The sections `--skip` can leave out, by the prefix of their figures. The routes and the
/// clipmap rebuild they are measured against always run.
pub const SECTIONS: [&str; 6] = [
    "contention",
    "destroy",
    "profiles",
    "queries",
    "things",
    "throughput",
];

impl Settings {
    /// Whether this run measures `section` (one of [`SECTIONS`]).
    pub fn runs(&self, section: &str) -> bool {
        debug_assert!(SECTIONS.contains(&section), "{section}");
        !self.skipped.iter().any(|s| s == section)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteId {
    /// The prefix of this route's figures: a built-in route's name, or `route` for a file.
    pub name: String,
    /// `builtin:<name>:<m/s>` or `route:<hash of every sample>`.
    pub identity: String,
    /// The route file, if it came from one.
    pub file: Option<String>,
    /// A built-in route's speed; None for a file (it has its own).
    pub speed_mps: Option<f64>,
    pub seconds: f64,
    pub frames: usize,
    /// Whether the levels followed a logged camera rather than the focus.
    pub camera: bool,
}

/// How noisy the machine was during the run, from the control workload.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Noise {
    /// The widest spread of one route's control p50 across runs: (max − min) ÷ median.
    pub control_p50_spread: f64,
    /// The control's p99 ÷ p50, median over routes and runs: the frame-to-frame tail.
    pub control_p99_over_p50: f64,
}

impl Noise {
    pub fn of(runs: &[Figures], routes: &[RouteId]) -> Noise {
        let mut spread: f64 = 0.0;
        let mut tails = Vec::new();
        for r in routes {
            let mut p50: Vec<f64> = runs
                .iter()
                .filter_map(|f| f.get(&format!("{}.control_p50_us", r.name)))
                .collect();
            let mid = median(&mut p50);
            if let (Some(lo), Some(hi)) = (p50.first(), p50.last()) {
                if mid > 0.0 {
                    spread = spread.max((hi - lo) / mid);
                }
            }
            for f in runs {
                let (a, b) = (
                    f.get(&format!("{}.control_p99_us", r.name)),
                    f.get(&format!("{}.control_p50_us", r.name)),
                );
                if let (Some(a), Some(b)) = (a, b) {
                    if b > 0.0 {
                        tails.push(a / b);
                    }
                }
            }
        }
        Noise {
            control_p50_spread: spread,
            control_p99_over_p50: median(&mut tails),
        }
    }
}

impl Build {
    pub fn this() -> Build {
        Build {
            version: env!("CARGO_PKG_VERSION").into(),
            git: env!("RELIEF_GIT_REV").into(),
        }
    }
}

impl Machine {
    /// This machine, from /proc where there is one.
    pub fn this() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "unknown".into());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: std::env::consts::OS.into(),
            kernel,
        }
    }
}

impl Report {
    /// Writes the report whole or not at all: to a temporary file beside `path`, then renamed
    /// over it, so a failed or interrupted run never leaves JSON that looks complete.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        relief::io::write_atomic(path, (text + "\n").as_bytes())
            .map_err(|e| format!("writing {}: {e}", path.display()))
    }

    /// Reads a baseline (at most [`MAX_BASELINE_BYTES`]) as [`parse`](Self::parse) does;
    /// every error names the file.
    pub fn read(path: &Path) -> Result<Report, String> {
        let at = |e: String| format!("baseline {}: {e}", path.display());
        let bytes =
            relief::bounds::read_file(path, MAX_BASELINE_BYTES).map_err(|e| at(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| at("not UTF-8 text".into()))?;
        Report::parse(&text).map_err(at)
    }

    /// Parses a baseline's text: the schema and its version are checked before anything
    /// else, and every error names the field.
    pub fn parse(text: &str) -> Result<Report, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        match v.get("schema").and_then(|s| s.as_str()) {
            Some(SCHEMA) => {}
            other => {
                return Err(format!(
                    "field schema is {other:?}, not \"{SCHEMA}\": not a relief bench result"
                ))
            }
        }
        match v.get("schema_version").and_then(|s| s.as_u64()) {
            Some(n) if n == SCHEMA_VERSION as u64 => {}
            other => {
                return Err(format!(
                    "field schema_version is {}, this relief reads and writes {SCHEMA_VERSION}: record the baseline again",
                    other.map_or("missing".into(), |n| n.to_string())
                ))
            }
        }
        serde_json::from_value(v).map_err(|e| format!("{e}"))
    }
}
