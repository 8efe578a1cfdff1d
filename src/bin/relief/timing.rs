//! Frame-time figures as `relief demo` and `relief bench` print them.

use std::time::Duration;

/// The `p`-th percentile (0–100) of already sorted durations; zero when there are none.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p / 100.0).round() as usize]
}

pub fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
