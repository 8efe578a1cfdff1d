//! The largest single allocation a test binary's threads ask for: a global allocator that
//! records it, for tests that hold sizes declared by files and servers to what they really
//! cost. A binary that uses it installs it:
//! `#[global_allocator] static GLOBAL: common::largest::Largest = common::largest::Largest;`
//! and runs its measuring tests one at a time ([`alone`]), so what one measures is its own.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Records the largest single request (alloc or realloc) made by any thread.
pub struct Largest;
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Tests that measure run alone (a write lock); the rest may run side by side (read locks).
static MEASURING: RwLock<()> = RwLock::new(());

pub fn alone() -> RwLockWriteGuard<'static, ()> {
    MEASURING.write().unwrap_or_else(|e| e.into_inner())
}

pub fn side_by_side() -> RwLockReadGuard<'static, ()> {
    MEASURING.read().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` and returns what it returned and the largest single allocation made meanwhile.
pub fn largest_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LARGEST.store(0, Ordering::Relaxed);
    let r = f();
    (r, LARGEST.load(Ordering::Relaxed))
}
