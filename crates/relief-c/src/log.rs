//! `relief_set_log`: relief's messages to the caller's callback. The runtime speaks through
//! the `log` crate's facade (why a load failed, on which attempt); this module is the logger
//! the C library installs, and it also passes on every failed call's message and every
//! caught panic.

use std::cell::Cell;
use std::ffi::{c_char, c_void, CString};

use parking_lot::RwLock;

use super::{ffi_guard, relief_status, Failure};

/// How much a message matters. Levels are `RELIEF_LOG_*`.
pub type relief_log_level = u32;
/// Something failed for good: a load that gave up, a caught panic.
pub const RELIEF_LOG_ERROR: relief_log_level = 0;
/// Something failed and will be retried: a load, a request.
pub const RELIEF_LOG_WARN: relief_log_level = 1;
/// What relief did, once per notable step.
pub const RELIEF_LOG_INFO: relief_log_level = 2;
/// Every failed call's message (also what `relief_last_error_message` returns), and detail.
pub const RELIEF_LOG_DEBUG: relief_log_level = 3;

/// Receives one message: `level` is a `RELIEF_LOG_*`, `message` NUL-terminated UTF-8, valid
/// only during the call. Called from whichever thread the message arises on (the caller's,
/// or a relief loader thread), possibly several at once: it must be thread-safe and quick.
/// Messages it causes itself (by calling relief) are dropped, never delivered recursively.
pub type relief_log_fn = Option<
    unsafe extern "C" fn(user: *mut c_void, level: relief_log_level, message: *const c_char),
>;

/// The installed callback and its `user`.
#[derive(Clone, Copy)]
struct Sink {
    callback: unsafe extern "C" fn(*mut c_void, relief_log_level, *const c_char),
    user: *mut c_void,
}

// SAFETY: `user` is the caller's, who promises the callback may be called from any thread.
unsafe impl Send for Sink {}
// SAFETY: as above.
unsafe impl Sync for Sink {}

/// Held for reading while a callback runs, so `relief_set_log` returns only once no call of
/// the old callback is in progress.
static SINK: RwLock<Option<Sink>> = RwLock::new(None);

thread_local! {
    /// Set while this thread runs the callback: what the callback causes is not logged.
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

struct Forward;

static FORWARD: Forward = Forward;

impl log::Log for Forward {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record) {
        if !self.enabled(record.metadata()) || IN_CALLBACK.with(Cell::get) {
            return;
        }
        let sink = SINK.read();
        let Some(sink) = *sink else { return };
        let text = record.args().to_string().replace('\0', " ");
        let Ok(text) = CString::new(text) else { return };
        let level = match record.level() {
            log::Level::Error => RELIEF_LOG_ERROR,
            log::Level::Warn => RELIEF_LOG_WARN,
            log::Level::Info => RELIEF_LOG_INFO,
            log::Level::Debug | log::Level::Trace => RELIEF_LOG_DEBUG,
        };
        IN_CALLBACK.with(|c| c.set(true));
        // SAFETY: the caller gave this callback and `user` to relief_set_log, and promised
        // they may be called from any thread until it is replaced.
        unsafe { (sink.callback)(sink.user, level, text.as_ptr()) };
        IN_CALLBACK.with(|c| c.set(false));
    }

    fn flush(&self) {}
}

/// Sends relief's messages up to `max_level` (a `RELIEF_LOG_*`: ERROR sends the fewest,
/// DEBUG all) to `callback`, with `user` passed back. NULL `callback` stops the messages.
/// Replaces any earlier callback; when this returns, the earlier one is no longer running
/// and will not be called again, so its `user` may be freed. By default nothing is sent.
///
/// Errors: INVALID_ARGUMENT (a `max_level` that is no `RELIEF_LOG_*`; or, in a Rust program
/// that installed its own `log` logger, where relief's messages already go to that logger).
/// Threads: any, but not from inside the callback.
///
/// # Safety
/// `callback` NULL or a function safe to call from any thread with `user` until replaced.
#[no_mangle]
pub unsafe extern "C" fn relief_set_log(
    callback: relief_log_fn,
    user: *mut c_void,
    max_level: relief_log_level,
) -> relief_status {
    ffi_guard!({
        let what = "relief_set_log";
        let filter = match max_level {
            RELIEF_LOG_ERROR => log::LevelFilter::Error,
            RELIEF_LOG_WARN => log::LevelFilter::Warn,
            RELIEF_LOG_INFO => log::LevelFilter::Info,
            RELIEF_LOG_DEBUG => log::LevelFilter::Debug,
            other => {
                return Err(Failure::invalid(format!(
                    "{what}: max_level {other} is not a RELIEF_LOG_*"
                )))
            }
        };
        // Installs the forwarder once per process; a second call finds it installed.
        if log::set_logger(&FORWARD).is_err() && !std::ptr::addr_eq(log::logger(), &FORWARD) {
            return Err(Failure::invalid(format!(
                "{what}: this program installed its own `log` logger; relief's messages go there"
            )));
        }
        let mut sink = SINK.write();
        *sink = callback.map(|callback| Sink { callback, user });
        log::set_max_level(if sink.is_some() {
            filter
        } else {
            log::LevelFilter::Off
        });
        Ok(())
    })
}
