//! `relief_http_options`: how worlds and planets opened by URL talk to their server, and
//! their conversion to [`HttpOptions`]. The open calls are `relief_world_open_url` and
//! `relief_planet_open_url`.

use std::ffi::c_char;
use std::path::PathBuf;
use std::time::Duration;

use super::{ffi_guard, relief_status, require, Failure};
use relief::http::HttpOptions;

/// How relief fetches a world or planet by URL (`relief_world_open_url`,
/// `relief_planet_open_url`). Set `struct_size`, fill it with `relief_http_options_default`,
/// then change what you need. relief copies everything it points to during the open call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_http_options {
    /// sizeof(relief_http_options), set by the caller.
    pub struct_size: u32,
    /// Milliseconds one request may take, connecting to last byte. 0: 10000.
    pub timeout_ms: u32,
    /// Further tries of a request that failed transiently (no answer, reset, truncated body,
    /// 5xx, 429 honouring Retry-After). Failed loads are retried by the streamer on top.
    pub retries: u32,
    /// The disk cache's directory (NUL-terminated UTF-8), shared safely by processes; NULL:
    /// the user's cache directory (`$XDG_CACHE_HOME` or `~/.cache`, then `relief/http`).
    pub cache_dir: *const c_char,
    /// The most the cache may hold, bytes; least recently used entries go first. 0: no disk
    /// cache (nothing is kept, and nothing loads with the network down).
    pub cache_budget_bytes: u64,
    /// `header_count` NUL-terminated `"Name: value"` strings sent with every request, such as
    /// `"Authorization: Bearer …"`. May be NULL when `header_count` is 0. A redirect to
    /// another origin (scheme, host or port) drops them all unless `headers_to_other_hosts`
    /// is set. A string holding a line break is INVALID_ARGUMENT.
    pub headers: *const *const c_char,
    pub header_count: usize,
    /// Nonzero: send `headers` on after a redirect to another origin too (a CDN that wants
    /// the same token). 0 (the default): they stay with the URL's own origin.
    pub headers_to_other_hosts: u8,
}

/// Fills `*out` with the defaults: 10 s per request, 2 retries, the user's cache directory
/// with a 2 GiB budget, no extra headers. Set `out->struct_size` to
/// `sizeof(relief_http_options)` first: relief writes that many bytes at most. Errors:
/// INVALID_ARGUMENT (NULL `out`, a `struct_size` this relief doesn't read); `*out` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `out` must be NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_http_options_default(
    out: *mut relief_http_options,
) -> relief_status {
    ffi_guard!({
        let what = "relief_http_options_default";
        require(what, &[("out", out.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::write_out(what, out, default_options()) }
    })
}

fn default_options() -> relief_http_options {
    let d = HttpOptions::default();
    relief_http_options {
        struct_size: std::mem::size_of::<relief_http_options>() as u32,
        timeout_ms: d.timeout.as_millis() as u32,
        retries: d.retries,
        cache_dir: std::ptr::null(),
        cache_budget_bytes: d.cache_budget,
        headers: std::ptr::null(),
        header_count: 0,
        headers_to_other_hosts: d.headers_to_other_hosts as u8,
    }
}

// SAFETY: repr(C), numbers and raw pointers, starting with struct_size.
unsafe impl super::sized::Grows for relief_http_options {
    const FIRST: usize = 48;
    fn defaults() -> Self {
        default_options()
    }
}

/// The caller's options (NULL: the defaults) as [`HttpOptions`].
///
/// # Safety
/// `options` NULL or readable, with its pointers as its documentation says.
pub(crate) unsafe fn options_from(
    what: &str,
    options: *const relief_http_options,
) -> Result<HttpOptions, Failure> {
    let mut out = HttpOptions::default();
    if options.is_null() {
        return Ok(out);
    }
    // SAFETY: non-NULL; the caller promises a readable struct.
    let o = unsafe { super::sized::read_in(what, options) }?;
    if o.timeout_ms > 0 {
        out.timeout = Duration::from_millis(o.timeout_ms as u64);
    }
    out.retries = o.retries;
    if !o.cache_dir.is_null() {
        // SAFETY: non-NULL; the caller promises NUL-terminated.
        out.cache_dir = Some(PathBuf::from(unsafe {
            super::utf8_path(what, o.cache_dir)
        }?));
    }
    out.cache_budget = o.cache_budget_bytes;
    out.headers_to_other_hosts = o.headers_to_other_hosts != 0;
    if o.cache_budget_bytes == 0 {
        out.cache_dir = None;
    }
    if o.header_count > 0 && o.headers.is_null() {
        return Err(Failure::invalid(format!(
            "{what}: headers is NULL with header_count {}",
            o.header_count
        )));
    }
    for i in 0..o.header_count {
        // SAFETY: the caller promises `header_count` readable pointers.
        let h = unsafe { *o.headers.add(i) };
        if h.is_null() {
            return Err(Failure::invalid(format!("{what}: headers[{i}] is NULL")));
        }
        // SAFETY: non-NULL; the caller promises NUL-terminated.
        let text = unsafe { super::utf8_path(what, h) }?;
        // Before any trimming: a trailing line break is an injection attempt too.
        if text.contains(['\r', '\n']) {
            return Err(Failure::invalid(format!(
                "{what}: headers[{i}] holds a line break"
            )));
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(Failure::invalid(format!(
                "{what}: headers[{i}] is not \"Name: value\""
            )));
        };
        out.headers
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    out.validate().map_err(|e| {
        let field = if e.field == "timeout" {
            "timeout_ms"
        } else {
            &e.field
        };
        Failure::invalid(format!("{what}: options.{field}: {}", e.problem))
    })?;
    Ok(out)
}
