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
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;

/// A cache line: what buffers are allocated in, for their alignment.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// A byte buffer that starts on a 64-byte boundary. A large allocation from the system
/// allocator starts 16 bytes past one, and on this project's AMD machines the kernel's copy
/// into such a destination (a `read` from the page cache) runs 3× slower than into an
/// aligned one; every map a load reads is one of these.
pub struct Buffer {
    lines: Vec<Line>,
    len: usize,
}

impl Buffer {
    /// `len` zero bytes, newly allocated (every page written, so faulted in).
    pub fn zeroed(len: usize) -> Buffer {
        let n = len.div_ceil(64);
        let lines = if n == 0 {
            Vec::new()
        } else {
            let layout = std::alloc::Layout::array::<Line>(n).expect("a buffer's size fits");
            // SAFETY: the layout has a non-zero size. The memory is zeroed, and all-zero bytes
            // are a valid [Line]; Vec::from_raw_parts gets the pointer with the layout of
            // exactly n Lines, as Vec<Line> would have allocated it.
            unsafe {
                let p = std::alloc::alloc_zeroed(layout).cast::<Line>();
                if p.is_null() {
                    std::alloc::handle_alloc_error(layout);
                }
                Vec::from_raw_parts(p, n, n)
            }
        };
        Buffer { lines, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: the lines hold at least len initialised bytes (len ≤ 64 · lines), contiguous.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<u8>(), self.len) }
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in deref, uniquely borrowed; any byte is a valid part of a Line.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

thread_local! {
    /// Each thread's scratch buffer (see [`with_scratch`]), kept at the largest size asked.
    static SCRATCH: std::cell::RefCell<Buffer> = std::cell::RefCell::new(Buffer::zeroed(0));
}

/// Runs `f` on `len` bytes of this thread's aligned scratch buffer, kept between calls (a
/// loader's buffer for stored, compressed bytes: its size varies with the piece, so it is one
/// growing buffer rather than pooled ones). Its contents are whatever the last user left.
/// Not re-entrant: `f` must not call it again.
pub fn with_scratch<R>(len: usize, f: impl FnOnce(&mut [u8]) -> R) -> R {
    SCRATCH.with_borrow_mut(|buf| {
        if buf.len() < len {
            *buf = Buffer::zeroed(len.next_power_of_two());
        }
        f(&mut buf[..len])
    })
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes)", self.len)
    }
}

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
    by_len: HashMap<usize, Vec<Buffer>>,
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
    pub fn take(&self, len: usize) -> Buffer {
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
                Buffer::zeroed(len)
            }
        }
    }

    /// Keeps `buf` for a later [`take`](Self::take) of its length if there is room; frees it
    /// otherwise.
    pub fn give(&self, buf: Buffer) {
        let len = buf.len();
        if len == 0 {
            return;
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
                let mut buf = Buffer::zeroed(len);
                // Should the allocator hand out zero pages lazily (calloc does), write one byte
                // a page so each is faulted in now; volatile, so the store of a zero stays.
                for i in (0..len).step_by(4096) {
                    // SAFETY: i < len = buf.len(); the pointer is valid for writes.
                    unsafe { std::ptr::write_volatile(buf.as_mut_ptr().add(i), 0) };
                }
                self.give(buf);
            }
        }
    }

    /// One step of a loader's idle work for pieces whose buffers have the lengths `lens`:
    /// frees what is beyond the room, or else faults in one piece's buffers while fewer than
    /// `reserve` pieces' worth are free and the room allows. Returns whether it did anything
    /// (so there may be more to do).
    pub fn top_up(&self, lens: &[usize], reserve: usize) -> bool {
        if self.trim() {
            return true;
        }
        let piece: usize = lens.iter().sum();
        let s = self.stats();
        if s.free_bytes + piece > (reserve * piece).min(s.room_bytes) {
            return false;
        }
        self.prefault(lens, 1);
        true
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
    fn buffers_are_aligned_zeroed_and_exactly_as_long_as_asked() {
        for len in [0, 1, 63, 64, 65, 4096, 100_003] {
            let b = Buffer::zeroed(len);
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % 64, 0, "{len}");
            assert!(b.iter().all(|&x| x == 0));
        }
    }

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
        pool.give(Buffer::zeroed(100));
        assert_eq!(
            pool.stats().free_bytes,
            4096,
            "not kept, and the rest waits for a trim"
        );
        pool.trim();
        assert_eq!(pool.stats().free_bytes, 0);
    }

    #[test]
    fn topping_up_fills_the_reserve_within_the_room_then_trims() {
        let pool = BufferPool::new(1 << 20);
        let lens = [4096, 8192];
        let mut steps = 0;
        while pool.top_up(&lens, 3) {
            steps += 1;
        }
        assert_eq!((steps, pool.stats().free_bytes), (3, 3 * 12288));
        pool.set_room(12288);
        assert!(pool.top_up(&lens, 3), "trims first");
        assert!(pool.stats().free_bytes <= 12288);
        assert!(!pool.top_up(&lens, 3));
    }

    proptest! {
        // Whatever is given and taken, and however the room moves: the free bytes never pass
        // the room, every take has the length asked for, and the bytes counted are the
        // bytes held.
        #[test]
        fn the_room_bounds_what_is_kept(ops in prop::collection::vec((0u8..3, 1usize..5, 0usize..40), 1..60)) {
            let pool = BufferPool::new(16 * 1024);
            let mut out: Vec<Buffer> = Vec::new();
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
