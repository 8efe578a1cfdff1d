//! Buffers kept for reuse, so a load writes into memory that is already faulted in.
//!
//! A fresh allocation of a map (a megabyte for a 512² height layer) comes back from the
//! allocator as untouched pages; the read that fills it then takes a page fault every 4 KiB,
//! and the kernel zeroes each page first. On this project's machines that made a first-visit
//! region load cost 4–5× a raw read of the same file. A pool keeps the buffers of evicted
//! pieces (and, when asked, buffers faulted in ahead of time) and hands them to the next
//! load of the same size: no fault, no zeroing, no system call.
//!
//! The pool is bounded by *room*: the bytes of free buffers it may keep. The streamer that
//! owns the pieces sets it every update to what its budget has left over, so the pieces and
//! the free buffers together stay within the budget (a loader thread frees any excess when
//! idle, so the main thread makes no system call for it).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;

/// Free byte buffers by length, bounded by a byte room. Shared (`Arc`) by a source's loads
/// and the layers they produce, which give their buffers back when dropped.
#[derive(Debug, Default)]
pub struct BufferPool {
    free: Mutex<Free>,
    room: AtomicUsize,
    hits: AtomicU64,
    misses: AtomicU64,
}

#[derive(Debug, Default)]
struct Free {
    by_len: HashMap<usize, Vec<Vec<u8>>>,
    bytes: usize,
}

/// How a pool has done: for benchmarks and stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Bytes of free buffers held now.
    pub free_bytes: usize,
    /// The most free bytes it may hold.
    pub room_bytes: usize,
    /// Buffers handed out from the pool, and allocated fresh because none fit.
    pub hits: u64,
    pub misses: u64,
}

impl BufferPool {
    /// An empty pool that may keep up to `room` bytes of free buffers.
    pub fn new(room: usize) -> BufferPool {
        BufferPool {
            room: AtomicUsize::new(room),
            ..BufferPool::default()
        }
    }

    /// A buffer of exactly `len` bytes: a free one of that length if the pool has one (its
    /// old contents left in place: the caller overwrites it), else a fresh zeroed one.
    pub fn take(&self, len: usize) -> Vec<u8> {
        let reused = {
            let mut free = self.free.lock();
            let buf = free.by_len.get_mut(&len).and_then(Vec::pop);
            if buf.is_some() {
                free.bytes -= len;
            }
            buf
        };
        match reused {
            Some(buf) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                buf
            }
            None => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                vec![0; len]
            }
        }
    }

    /// Keeps `buf` for a later [`take`](Self::take) of its length if there is room; frees it
    /// otherwise.
    pub fn give(&self, mut buf: Vec<u8>) {
        let len = buf.len();
        if len == 0 || buf.capacity() != len {
            // Only exact-size buffers are kept: a take must get back what it asked for, and
            // the bytes counted must be the bytes held.
            buf.shrink_to_fit();
            if buf.capacity() != len || len == 0 {
                return;
            }
        }
        let mut free = self.free.lock();
        if free.bytes + len <= self.room.load(Ordering::Relaxed) {
            free.bytes += len;
            free.by_len.entry(len).or_default().push(buf);
        }
    }

    /// Sets how many bytes of free buffers the pool may keep. Cheap (a store): the main
    /// thread calls it every frame. Buffers beyond it are freed by [`trim`](Self::trim).
    pub fn set_room(&self, room: usize) {
        self.room.store(room, Ordering::Relaxed);
    }

    /// Frees free buffers beyond the room, largest lengths first; returns whether it freed
    /// any. Off the main thread: returning memory to the system takes system calls.
    pub fn trim(&self) -> bool {
        let room = self.room.load(Ordering::Relaxed);
        let excess = {
            let mut free = self.free.lock();
            let mut out = Vec::new();
            while free.bytes > room {
                let Some(len) = free
                    .by_len
                    .iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(len, _)| *len)
                    .max()
                else {
                    break;
                };
                if let Some(buf) = free.by_len.get_mut(&len).and_then(Vec::pop) {
                    free.bytes -= len;
                    out.push(buf);
                }
            }
            out
        };
        // Freed outside the lock.
        !excess.is_empty()
    }

    /// Allocates buffers of each length in `lens`, `count` times over, and touches every page
    /// of them, so later loads find them faulted in; stops when the room is full. Run it on
    /// a thread that can afford the faults (not a frame's).
    pub fn prefault(&self, lens: &[usize], count: usize) {
        for _ in 0..count {
            for &len in lens {
                if self.stats().free_bytes + len > self.room.load(Ordering::Relaxed) {
                    return;
                }
                let mut buf = vec![0u8; len];
                // calloc'd pages are mapped lazily: write one byte a page so each is faulted
                // in now. Volatile, so the "redundant" store of a zero isn't optimised out.
                for i in (0..len).step_by(4096) {
                    // SAFETY: i < len = buf.len(); the pointer is valid for writes.
                    unsafe { std::ptr::write_volatile(buf.as_mut_ptr().add(i), 0) };
                }
                self.give(buf);
            }
        }
    }

    pub fn stats(&self) -> PoolStats {
        PoolStats {
            free_bytes: self.free.lock().bytes,
            room_bytes: self.room.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_given_buffer_comes_back_for_its_length_only() {
        let pool = BufferPool::new(1 << 20);
        let mut a = pool.take(4096);
        a[0] = 7;
        let at = a.as_ptr();
        pool.give(a);
        assert_eq!(pool.stats().free_bytes, 4096);
        assert_eq!(
            pool.take(8192).len(),
            8192,
            "another length is allocated fresh"
        );
        let b = pool.take(4096);
        assert_eq!(
            (b.as_ptr(), b[0]),
            (at, 7),
            "the same buffer, contents as left"
        );
        let s = pool.stats();
        assert_eq!((s.hits, s.misses, s.free_bytes), (1, 2, 0));
    }

    #[test]
    fn prefaulted_buffers_fill_the_room_and_no_more() {
        let pool = BufferPool::new(10_000);
        pool.prefault(&[4096], 5);
        assert_eq!(pool.stats().free_bytes, 8192);
        pool.set_room(4096);
        assert!(pool.trim());
        assert_eq!(pool.stats().free_bytes, 4096);
        assert!(!pool.trim(), "nothing beyond the room");
        pool.set_room(0);
        pool.give(vec![0; 100]);
        assert_eq!(
            pool.stats().free_bytes,
            4096,
            "not kept, and the rest waits for a trim"
        );
        pool.trim();
        assert_eq!(pool.stats().free_bytes, 0);
    }

    proptest! {
        // Whatever is given and taken, and however the room moves: the free bytes never pass
        // the room, every take has the length asked for, and the bytes counted are the
        // bytes held.
        #[test]
        fn the_room_bounds_what_is_kept(ops in prop::collection::vec((0u8..3, 1usize..5, 0usize..40), 1..60)) {
            let pool = BufferPool::new(16 * 1024);
            let mut out: Vec<Vec<u8>> = Vec::new();
            for (op, len, room) in ops {
                let len = len * 1024;
                match op {
                    0 => {
                        let b = pool.take(len);
                        prop_assert_eq!(b.len(), len);
                        out.push(b);
                    }
                    1 => if let Some(b) = out.pop() { pool.give(b) },
                    _ => pool.set_room(room * 1024),
                }
                // Past the room only until trimmed; a give never adds past it.
                pool.trim();
                let s = pool.stats();
                prop_assert!(s.free_bytes <= s.room_bytes);
                let held: usize = pool.free.lock().by_len.iter().map(|(l, v)| l * v.len()).sum();
                prop_assert_eq!(held, s.free_bytes);
            }
        }
    }
}
