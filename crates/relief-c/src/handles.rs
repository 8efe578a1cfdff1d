//! Opaque handles: how a Rust value becomes a C pointer, is borrowed back, is poisoned by a
//! panic, and is freed.
//!
//! Each handle is a heap [`Guarded`]: the value first (so the C pointer is the value's
//! address) and a poison flag after it. A call that borrows a handle through [`handle`]
//! records the flag on its thread; if the call then panics, [`ffi_guard!`](super::ffi_guard)
//! sets every flag the call recorded. A panic can leave a handle's state half-changed (a
//! lock-free structure mid-update, a queue missing a job), so every later call on a poisoned
//! handle fails with PANIC and asks for destroy — which always works — instead of reading
//! that state.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Failure, RELIEF_STATUS_PANIC};

/// A handle's allocation: the value the C pointer points at, then its poison flag.
#[repr(C)]
struct Guarded<T> {
    value: T,
    poisoned: AtomicBool,
}

/// How many handles one call can record; calls borrow at most two (a streamer and its
/// world, say), so more would only mean a bug in relief, and such a call is simply not
/// recorded past this many.
const MAX_BORROWED: usize = 8;

thread_local! {
    /// The poison flags of the handles borrowed by the calls now running on this thread
    /// (calls nest only through destroy inside a guard). Fixed-size: no allocation per call.
    static BORROWED: [Cell<*const AtomicBool>; MAX_BORROWED] =
        const { [const { Cell::new(std::ptr::null()) }; MAX_BORROWED] };
    static BORROWED_LEN: Cell<usize> = const { Cell::new(0) };
}

/// Where this thread's list of borrowed handles stands when a call starts.
pub(crate) fn call_started() -> usize {
    BORROWED_LEN.with(Cell::get)
}

/// Ends a call that started at `mark`: poisons what it borrowed if it panicked, then forgets
/// it.
pub(crate) fn call_ended(mark: usize, panicked: bool) {
    let len = BORROWED_LEN.with(Cell::get);
    if panicked {
        BORROWED.with(|flags| {
            for flag in &flags[mark.min(len)..len] {
                // SAFETY: recorded by `handle` during this call, whose caller keeps the
                // handle alive until the call returns — which it has not yet.
                unsafe { &*flag.get() }.store(true, Ordering::Release);
            }
        });
    }
    BORROWED_LEN.with(|l| l.set(mark.min(len)));
}

fn record(flag: &AtomicBool) {
    let len = BORROWED_LEN.with(Cell::get);
    if len < MAX_BORROWED {
        BORROWED.with(|flags| flags[len].set(flag));
        BORROWED_LEN.with(|l| l.set(len + 1));
    }
}

/// Moves `value` into a new heap handle for the caller.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    let guarded = Box::into_raw(Box::new(Guarded {
        value,
        poisoned: AtomicBool::new(false),
    }));
    // `value` is the first field of a repr(C) struct: same address.
    guarded.cast::<T>()
}

/// Borrows a live handle, or fails if it is NULL (INVALID_ARGUMENT) or poisoned by an earlier
/// panic (PANIC). The borrow is recorded, so a panic later in this call poisons the handle.
///
/// # Safety
/// A non-NULL `p` must be a live handle of this type from [`into_handle`].
pub(crate) unsafe fn handle<'a, T>(what: &str, p: *const T) -> Result<&'a T, Failure> {
    if p.is_null() {
        return Err(Failure::invalid(format!("{what}: handle is NULL")));
    }
    // SAFETY: the caller promises a live handle from `into_handle`, which is the address of
    // a `Guarded<T>`.
    let guarded = unsafe { &*p.cast::<Guarded<T>>() };
    if guarded.poisoned.load(Ordering::Acquire) {
        return Err(Failure {
            status: RELIEF_STATUS_PANIC,
            message: format!(
                "{what}: this handle is poisoned: an earlier call on it panicked (a bug in relief) and may have left it half-changed; destroy it and make a new one"
            ),
        });
    }
    record(&guarded.poisoned);
    Ok(&guarded.value)
}

/// Frees a handle from [`into_handle`]; NULL is a no-op. A poisoned handle is freed too.
///
/// # Safety
/// `p` must be NULL or a live handle, not used again.
pub(crate) unsafe fn destroy_handle<T>(p: *mut T) {
    let _ = super::ffi_guard!({
        if !p.is_null() {
            // SAFETY: the caller passes a live handle from `into_handle`, once.
            drop(unsafe { Box::from_raw(p.cast::<Guarded<T>>()) });
        }
        Ok(())
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ffi_guard, RELIEF_STATUS_INVALID_ARGUMENT, RELIEF_STATUS_OK};

    struct Counter(Cell<u32>);

    fn bump(p: *const Counter, fail: bool) -> u32 {
        ffi_guard!({
            // SAFETY: the tests pass live handles.
            let c = unsafe { handle("bump", p) }?;
            c.0.set(c.0.get() + 1);
            if fail {
                panic!("a bug in bump");
            }
            Ok(())
        })
    }

    #[test]
    fn a_panic_poisons_the_handles_its_call_borrowed_and_only_those() {
        let a = into_handle(Counter(Cell::new(0)));
        let b = into_handle(Counter(Cell::new(0)));
        assert_eq!(bump(a, false), RELIEF_STATUS_OK);
        assert_eq!(bump(a, true), RELIEF_STATUS_PANIC);
        assert_eq!(bump(a, false), RELIEF_STATUS_PANIC, "poisoned from now on");
        // SAFETY: `a` is live; reading its value directly, past the poison check.
        assert_eq!(
            unsafe { &*a }.0.get(),
            2,
            "the poisoned call never ran its body"
        );
        assert_eq!(
            bump(b, false),
            RELIEF_STATUS_OK,
            "another handle is untouched"
        );
        assert_eq!(call_started(), 0, "every call forgot what it borrowed");
        // SAFETY: live handles, freed once.
        unsafe {
            destroy_handle(a);
            destroy_handle(b);
        }
    }

    #[test]
    fn a_null_handle_is_an_invalid_argument_not_a_poisoning() {
        assert_eq!(
            bump(std::ptr::null(), false),
            RELIEF_STATUS_INVALID_ARGUMENT
        );
        assert_eq!(call_started(), 0);
        // SAFETY: NULL is a no-op.
        unsafe { destroy_handle::<Counter>(std::ptr::null_mut()) };
    }
}
