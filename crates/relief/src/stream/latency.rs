//! A fixed-size ring of recent durations with percentiles: cheap enough to leave on, and it
//! never allocates after construction.

use std::time::Duration;

const SLOTS: usize = 512;

#[derive(Clone, Debug)]
pub struct Ring {
    nanos: [u64; SLOTS],
    len: usize,
    next: usize,
    max: u64,
}

impl Default for Ring {
    fn default() -> Self {
        Ring {
            nanos: [0; SLOTS],
            len: 0,
            next: 0,
            max: 0,
        }
    }
}

impl Ring {
    pub fn push(&mut self, d: Duration) {
        let n = d.as_nanos().min(u64::MAX as u128) as u64;
        self.nanos[self.next] = n;
        self.next = (self.next + 1) % SLOTS;
        self.len = (self.len + 1).min(SLOTS);
        self.max = self.max.max(n);
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `p`-th percentile (0–100) of the recorded durations; zero when empty.
    pub fn percentile(&self, p: f64) -> Duration {
        if self.len == 0 {
            return Duration::ZERO;
        }
        let mut sorted = self.nanos;
        let window = &mut sorted[..self.len];
        let rank = ((p / 100.0) * (self.len - 1) as f64).round() as usize;
        let (_, v, _) = window.select_nth_unstable(rank.min(self.len - 1));
        Duration::from_nanos(*v)
    }

    /// The mean of the recorded durations; zero when empty.
    pub fn mean(&self) -> Duration {
        if self.len == 0 {
            return Duration::ZERO;
        }
        let sum: u128 = self.nanos[..self.len].iter().map(|&n| n as u128).sum();
        Duration::from_nanos((sum / self.len as u128) as u64)
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
}
