//! Figures about this process, for the benchmarks and the soak.

/// Resident set of this process from /proc (Linux; None elsewhere): total, anonymous and
/// file-backed bytes.
pub fn rss() -> Option<(u64, u64, u64)> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .map(|kb| kb * 1024)
    };
    Some((field("VmRSS:")?, field("RssAnon:")?, field("RssFile:")?))
}
