//! Frame-time figures as `relief demo` and `relief bench` print them.

use std::time::Duration;

/// The `p`-th percentile (0–100) of already sorted values (durations, ratios); zero (the
/// default) when there are none.
pub fn percentile<T: Copy + Default>(sorted: &[T], p: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    sorted[((sorted.len() - 1) as f64 * p / 100.0).round() as usize]
}

/// The median of some figures (the bench's rule's, from the library).
pub use relief_tools::bench::figures::median;

pub fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
