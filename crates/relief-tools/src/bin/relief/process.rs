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

/// CPU time this thread has run (Unix; None elsewhere). Unlike a wall clock it stops while
/// the thread is preempted, so a busy machine can't make the thread's own work look slower.
pub fn thread_cpu() -> Option<std::time::Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the clock id is a constant.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Some(std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32));
        }
    }
    None
}

/// Minor page faults this thread has taken (Linux; the process's elsewhere on Unix, None
/// otherwise): each is a page touched for the first time, which the kernel zeroes first.
pub fn minor_faults() -> Option<u64> {
    #[cfg(unix)]
    {
        #[cfg(target_os = "linux")]
        let who = libc::RUSAGE_THREAD;
        #[cfg(not(target_os = "linux"))]
        let who = libc::RUSAGE_SELF;
        // SAFETY: an all-zero rusage is a valid value of the plain C struct.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `u` is valid and writable; `who` is a constant.
        if unsafe { libc::getrusage(who, &mut u) } == 0 {
            return Some(u.ru_minflt as u64);
        }
    }
    None
}
