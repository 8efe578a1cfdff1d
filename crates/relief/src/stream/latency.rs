//! A fixed-size window of recent durations with percentiles: cheap enough to leave on, and it
//! never allocates after construction.
//!
//! The window is also kept sorted as it rolls, so a percentile is an index and the mean a
//! running sum: a runtime's `stats()` reads twelve of them a frame, and selecting each from a
//! copy of the window cost ~10 µs in all. A push pays instead, moving at most the window's
//! 4 KiB to insert in order (tens of nanoseconds, once per update and per applied load).

use std::time::Duration;

const SLOTS: usize = 512;

#[derive(Clone, Debug)]
pub struct Ring {
    /// In arrival order, oldest at `next` once full.
    nanos: [u64; SLOTS],
    /// The same durations, ascending (the first `len`).
    sorted: [u64; SLOTS],
    len: usize,
    next: usize,
    sum: u128,
    max: u64,
}

impl Default for Ring {
    fn default() -> Self {
        Ring {
            nanos: [0; SLOTS],
            sorted: [0; SLOTS],
            len: 0,
            next: 0,
            sum: 0,
            max: 0,
        }
    }
}

impl Ring {
    pub fn push(&mut self, d: Duration) {
        let n = d.as_nanos().min(u64::MAX as u128) as u64;
        if self.len == SLOTS {
            let old = self.nanos[self.next];
            let sorted = &mut self.sorted[..self.len];
            let at = sorted.partition_point(|&x| x < old);
            sorted.copy_within(at + 1.., at);
            self.len -= 1;
            self.sum -= old as u128;
        }
        self.nanos[self.next] = n;
        self.next = (self.next + 1) % SLOTS;
        let at = self.sorted[..self.len].partition_point(|&x| x < n);
        self.sorted.copy_within(at..self.len, at + 1);
        self.sorted[at] = n;
        self.len += 1;
        self.sum += n as u128;
        self.max = self.max.max(n);
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `p`-th percentile (0–100) of the recorded durations, nearest rank; zero when
    /// empty.
    pub fn percentile(&self, p: f64) -> Duration {
        if self.len == 0 {
            return Duration::ZERO;
        }
        let rank = ((p / 100.0) * (self.len - 1) as f64).round() as usize;
        Duration::from_nanos(self.sorted[rank.min(self.len - 1)])
    }

    /// The mean of the recorded durations; zero when empty.
    pub fn mean(&self) -> Duration {
        if self.len == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos((self.sum / self.len as u128) as u64)
    }

    /// Forgets every recorded duration.
    pub fn clear(&mut self) {
        *self = Ring::default();
    }

    /// The largest duration ever recorded.
    pub fn max(&self) -> Duration {
        Duration::from_nanos(self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_set() {
        let mut r = Ring::default();
        assert_eq!(r.percentile(50.0), Duration::ZERO);
        for ms in 1..=100 {
            r.push(Duration::from_millis(ms));
        }
        assert_eq!(r.percentile(0.0), Duration::from_millis(1));
        assert_eq!(r.percentile(100.0), Duration::from_millis(100));
        assert_eq!(r.percentile(50.0), Duration::from_millis(51));
        assert_eq!(r.mean(), Duration::from_micros(50_500));
        for _ in 0..SLOTS {
            r.push(Duration::from_millis(7));
        }
        assert_eq!(
            r.percentile(99.0),
            Duration::from_millis(7),
            "old samples roll out"
        );
        assert_eq!(
            r.mean(),
            Duration::from_millis(7),
            "the mean is of what is kept"
        );
        assert_eq!(r.max(), Duration::from_millis(100), "max is all-time");
    }

    proptest::proptest! {
        // Whatever is pushed: every percentile and the mean are those of the last SLOTS
        // pushes, computed the slow way (sort a copy).
        #[test]
        fn the_window_is_the_last_pushes(
            pushes in proptest::collection::vec(0u64..5_000, 0..1300),
            p in 0.0f64..=100.0,
        ) {
            let mut r = Ring::default();
            for &n in &pushes {
                r.push(Duration::from_nanos(n));
            }
            let kept = &pushes[pushes.len().saturating_sub(SLOTS)..];
            let mut sorted = kept.to_vec();
            sorted.sort_unstable();
            if sorted.is_empty() {
                proptest::prop_assert_eq!(r.percentile(p), Duration::ZERO);
                proptest::prop_assert_eq!(r.mean(), Duration::ZERO);
            } else {
                let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
                proptest::prop_assert_eq!(r.percentile(p), Duration::from_nanos(sorted[rank]));
                let mean = kept.iter().map(|&n| n as u128).sum::<u128>() / kept.len() as u128;
                proptest::prop_assert_eq!(r.mean(), Duration::from_nanos(mean as u64));
            }
        }
    }
}
