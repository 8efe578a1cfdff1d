//! Events through the C ABI, drained as a game drains them.

use relief_c::events::{relief_event, relief_runtime_poll_events};
use relief_c::runtime::relief_runtime;
use relief_c::RELIEF_STATUS_OK;

/// Every event waiting on `rt`, oldest first: polls until a poll fills less than its buffer.
pub fn poll(rt: *const relief_runtime) -> Vec<relief_event> {
    let mut all = Vec::new();
    let mut buf = [relief_event::default(); 16];
    loop {
        let mut n = 0;
        // SAFETY: live runtime, a 16-event buffer.
        let s = unsafe {
            relief_runtime_poll_events(
                rt,
                buf.as_mut_ptr(),
                size_of::<relief_event>(),
                buf.len(),
                &mut n,
            )
        };
        assert_eq!(s, RELIEF_STATUS_OK, "the handle is not poisoned");
        all.extend_from_slice(&buf[..n]);
        if n < buf.len() {
            return all;
        }
    }
}
