//! `relief bench --compare BASELINE.json`: is this build's streaming worse than the
//! baseline's, on the same world and route, beyond what this machine's noise explains?
//!
//! The rule, per gated figure (see [`super::figures::gate`]), with every figure a ratio to
//! something measured in the same run and each side measured in several runs:
//!
//! - **worse** when the median is worse than the baseline's median by more than the gate's
//!   threshold, *and* every run is worse than every baseline run (the two sets of runs do
//!   not overlap);
//! - **better** in the mirror case; otherwise **no change**.
//!
//! Requiring both guards against the two ways a shared machine fools a comparison: one
//! slow run moves a mean but not every run, and a steady small drift moves every run but
//! not past the threshold. With three runs a side, two identical builds have their runs
//! fully separated one time in twenty per figure, and the threshold must be crossed too.

use std::fmt::Write as _;

use super::figures::{gate, median, Better, Figures};
use super::report::Report;

/// What a baseline needs to be compared against.
pub const MIN_RUNS: usize = 3;
/// The most runs a bench makes (`--repeat`) or a baseline may hold: a comparison repeats the
/// baseline's count, so a hostile baseline of a million runs would run a million passes.
pub const MAX_RUNS: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Better,
    NoChange,
    Worse,
}

/// One gated figure, judged.
#[derive(Clone, Debug)]
pub struct Judged {
    pub name: String,
    pub base: f64,
    pub now: f64,
    pub change: f64,
    pub verdict: Verdict,
}

/// The rule on one figure's runs.
pub fn judge(name: &str, base: &[f64], now: &[f64]) -> Option<Judged> {
    let g = gate(name)?;
    if base.is_empty() || now.is_empty() {
        return None;
    }
    let (mb, mn) = (median(&mut base.to_vec()), median(&mut now.to_vec()));
    let lo = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Orient so that larger is worse.
    let (mb, mn, base_worst, now_best, base_best, now_worst) = match g.better {
        Better::Lower => (mb, mn, hi(base), lo(now), lo(base), hi(now)),
        Better::Higher => (-mb, -mn, -lo(base), -hi(now), -hi(base), -lo(now)),
    };
    let margin = mb.abs() * g.rel + g.abs;
    let verdict = if mn > mb + margin && now_best > base_worst {
        Verdict::Worse
    } else if mn < mb - margin && now_worst < base_best {
        Verdict::Better
    } else {
        Verdict::NoChange
    };
    let (b, n) = match g.better {
        Better::Lower => (mb, mn),
        Better::Higher => (-mb, -mn),
    };
    Some(Judged {
        name: name.to_string(),
        base: b,
        now: n,
        change: if b != 0.0 { n / b - 1.0 } else { 0.0 },
        verdict,
    })
}

/// Every gated figure of two reports.
pub fn judge_all(base: &Report, now: &Report) -> Vec<Judged> {
    let values = |runs: &[Figures], name: &str| -> Vec<f64> {
        runs.iter().filter_map(|r| r.get(name)).collect()
    };
    base.medians
        .0
        .keys()
        .filter_map(|name| judge(name, &values(&base.runs, name), &values(&now.runs, name)))
        .collect()
}

/// Whether a baseline can be compared with a run of `now`'s plan: the error names the field.
pub fn comparable(base: &Report, now: &Report) -> Result<(), String> {
    let field = |name: &str, b: &str, n: &str| {
        if b == n {
            Ok(())
        } else {
            Err(format!(
                "baseline field {name} is `{b}`, this run's is `{n}`: compare the same world, route and settings"
            ))
        }
    };
    field(
        "ground.identity",
        &base.ground.identity,
        &now.ground.identity,
    )?;
    let ids = |r: &Report| {
        r.routes
            .iter()
            .map(|r| r.identity.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    field("routes[].identity", &ids(base), &ids(now))?;
    field(
        "settings.seconds",
        &base.settings.seconds.to_string(),
        &now.settings.seconds.to_string(),
    )?;
    field(
        "settings.budget_mb",
        &base.settings.budget_mb.to_string(),
        &now.settings.budget_mb.to_string(),
    )?;
    field(
        "settings.skipped",
        &base.settings.skipped.join(","),
        &now.settings.skipped.join(","),
    )?;
    if base.runs.len() < MIN_RUNS {
        return Err(format!(
            "baseline field runs has {} run(s); a comparison needs {MIN_RUNS} or more (record it with --repeat {MIN_RUNS})",
            base.runs.len()
        ));
    }
    if base.runs.len() > MAX_RUNS {
        return Err(format!(
            "baseline field runs has {} runs; relief bench makes at most {MAX_RUNS}",
            base.runs.len()
        ));
    }
    Ok(())
}

/// A commit hash's first 12 characters, whatever the baseline's text holds (a byte slice of
/// it could split a character: a panic).
fn short_hash(git: &str) -> String {
    git.chars().take(12).collect()
}

/// Prints the judged figures ([`table`]); returns how many are worse.
pub fn print(judged: &[Judged], base: &Report) -> usize {
    print!("{}", table(judged, base));
    judged
        .iter()
        .filter(|j| j.verdict == Verdict::Worse)
        .count()
}

/// The judged figures as [`print`] prints them: where the baseline came from (the baseline's
/// own text, whatever it holds), a line per figure, and the count of each verdict.
pub fn table(judged: &[Judged], base: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\ncompared with the baseline from {} (relief {} {}, {} runs) on {}: rule in docs/bench.md",
        base.started,
        base.relief.version,
        short_hash(&base.relief.git),
        base.runs.len(),
        base.machine.cpu
    );
    let _ = writeln!(
        out,
        "{:<40} {:>12} {:>12} {:>9}  verdict",
        "figure", "baseline", "now", "change"
    );
    for j in judged {
        let _ = writeln!(
            out,
            "{:<40} {:>12.4} {:>12.4} {:>+8.1}%  {}",
            j.name,
            j.base,
            j.now,
            100.0 * j.change,
            match j.verdict {
                Verdict::Better => "better",
                Verdict::NoChange => "no change",
                Verdict::Worse => "WORSE",
            }
        );
    }
    let count = |v: Verdict| judged.iter().filter(|j| j.verdict == v).count();
    let (worse, better) = (count(Verdict::Worse), count(Verdict::Better));
    let _ = writeln!(
        out,
        "{} figures: {worse} worse, {better} better, {} no change",
        judged.len(),
        judged.len() - worse - better
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LOWER: &str = "walking.cpu_p50_per_control";

    #[test]
    fn a_hash_of_any_text_shortens_without_splitting_a_character() {
        assert_eq!(short_hash("0123456789abcdef"), "0123456789ab");
        assert_eq!(short_hash("éééééééééééééé"), "éééééééééééé");
        assert_eq!(short_hash("ab"), "ab");
    }
    const HIGHER: &str = "throughput.warm_ratio";

    #[test]
    fn only_ratios_are_gated() {
        assert!(gate(LOWER).is_some() && gate(HIGHER).is_some());
        for raw in [
            "walking.update_p50_us",
            "walking.loads",
            "queries.height_us",
        ] {
            assert!(gate(raw).is_none(), "{raw} is a raw figure");
        }
    }

    /// The gated column of docs/bench.md's figure table says what `gate` does, row by row.
    #[test]
    fn the_documented_gates_are_the_gates() {
        let doc = include_str!("../../../../docs/bench.md");
        let mut rows = 0;
        for line in doc.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if cells.len() < 6
                || !matches!(
                    cells[2],
                    "µs" | "ms" | "ratio" | "count" | "MB" | "MB/s" | "M/s"
                )
            {
                continue;
            }
            let name = cells[1].trim_matches('`').replace("<route>", "walking");
            let want = (!cells[3].is_empty()).then(|| {
                let (dir, rest) = cells[3].split_once(", ").expect("direction, threshold");
                let better = if dir == "lower" {
                    Better::Lower
                } else {
                    Better::Higher
                };
                let (rel, abs) = match rest.split_once('+') {
                    Some((r, a)) => (r.trim(), a.trim().parse::<f64>().unwrap()),
                    None => (rest, 0.0),
                };
                let rel = rel.trim_end_matches('%').trim();
                let rel = if rel.is_empty() {
                    0.0
                } else {
                    rel.parse::<f64>().unwrap() / 100.0
                };
                (better, rel, abs)
            });
            let got = gate(&name).map(|g| (g.better, g.rel, g.abs));
            assert_eq!(got, want, "{name}: docs/bench.md says {:?}", cells[3]);
            rows += 1;
        }
        assert!(rows > 40, "read only {rows} figure rows");
    }

    #[test]
    fn a_separated_slower_set_is_worse_and_an_overlapping_one_is_not() {
        let base = [1.0, 1.05, 1.1];
        let v = |n: &[f64]| judge(LOWER, &base, n).unwrap().verdict;
        assert_eq!(v(&[2.0, 2.1, 1.9]), Verdict::Worse);
        // Past the threshold in the median, but one run among the baseline's: noise.
        assert_eq!(v(&[1.08, 1.5, 1.6]), Verdict::NoChange);
        // Every run slower, but by less than the threshold: drift.
        assert_eq!(v(&[1.15, 1.16, 1.17]), Verdict::NoChange);
        assert_eq!(v(&[0.5, 0.55, 0.6]), Verdict::Better);
        // Higher is better for a throughput ratio.
        let h = |n: &[f64]| judge(HIGHER, &[0.9, 0.95, 1.0], n).unwrap().verdict;
        assert_eq!(h(&[0.5, 0.55, 0.6]), Verdict::Worse);
        assert_eq!(h(&[1.5, 1.6, 1.7]), Verdict::Better);
        // A failure where the baseline had none, every run: worse; in one run: not.
        let f = |n: &[f64]| {
            judge("walking.failures", &[0.0, 0.0, 0.0], n)
                .unwrap()
                .verdict
        };
        assert_eq!(f(&[1.0, 2.0, 1.0]), Verdict::Worse);
        assert_eq!(f(&[0.0, 3.0, 0.0]), Verdict::NoChange);
    }

    proptest! {
        // Runs drawn from the same spread never compare as worse or better when the spread
        // is inside the threshold; and scaling every run past threshold and spread always
        // reads as worse.
        #[test]
        fn the_rule_ignores_noise_and_catches_a_slowdown(
            base in prop::collection::vec(1.0f64..1.2, 3..6),
            now in prop::collection::vec(1.0f64..1.2, 3..6),
            slow in 1.6f64..20.0,
        ) {
            prop_assert_eq!(judge(LOWER, &base, &now).unwrap().verdict, Verdict::NoChange);
            let slower: Vec<f64> = now.iter().map(|v| v * slow).collect();
            prop_assert_eq!(judge(LOWER, &base, &slower).unwrap().verdict, Verdict::Worse);
        }
    }
}
