//! `relief_world`: an opened world (a directory or a pack), from a path, memory or callbacks.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::{ffi_guard, handle, into_handle, relief_status, require, Failure};
use relief::flat::{ReadAt, World};

/// An opened flat world (manifest, overview and tables in memory). Opaque.
pub struct relief_world {
    pub(crate) world: Arc<World>,
}

/// What `relief_world_get_info` reports. Set `struct_size = sizeof(relief_world_info)` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct relief_world_info {
    /// sizeof(relief_world_info), set by the caller.
    pub struct_size: u32,
    /// Samples per region side.
    pub region_size: u32,
    /// Metres between samples.
    pub vertex_spacing: f64,
    /// Inclusive range of region locations.
    pub region_min_x: i32,
    pub region_min_z: i32,
    pub region_max_x: i32,
    pub region_max_z: i32,
    /// Lowest and highest height of any sample, and the sea level, metres (NaN for a world
    /// without sea, an import given none: `h < sea_level` is then never true).
    pub height_min: f32,
    pub height_max: f32,
    pub sea_level: f32,
    /// Regions present, river reaches, lakes and biomes.
    pub region_count: u32,
    pub reach_count: u32,
    pub lake_count: u32,
    pub biome_count: u32,
}

/// Reads `length` bytes at `offset` of the caller's pack into `out`; returns 0 on success and
/// anything else on failure. relief only asks for bytes inside the reader's `length`.
pub type relief_read_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, offset: u64, length: u64, out: *mut u8) -> i32>;

/// Called once when relief no longer needs a reader's `user` (free it here).
pub type relief_release_fn = Option<unsafe extern "C" fn(user: *mut c_void)>;

/// A caller's pack, read through callbacks: for files that can't be opened by path or mapped,
/// such as a pack in an Android APK's StreamingAssets. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_reader {
    /// sizeof(relief_reader), set by the caller.
    pub struct_size: u32,
    /// The pack's total length in bytes.
    pub length: u64,
    /// Passed back to `read_at` and `release`; relief never looks inside.
    pub user: *mut c_void,
    /// Required. Called from relief's loader threads, possibly several at once.
    pub read_at: relief_read_fn,
    /// Optional (NULL): called exactly once, from any thread, when relief is done with `user`:
    /// when the last handle reading through it is destroyed, or — if a load through it was
    /// still running then — when that load ends, on its loader thread.
    pub release: relief_release_fn,
}

/// The caller's callbacks as relief's random-access bytes.
pub(crate) struct CallbackBytes {
    user: *mut c_void,
    length: u64,
    read_at: unsafe extern "C" fn(*mut c_void, u64, u64, *mut u8) -> i32,
    release: relief_release_fn,
}

// SAFETY: relief_world_open_reader's contract makes the callbacks callable from any thread.
unsafe impl Send for CallbackBytes {}
unsafe impl Sync for CallbackBytes {}

impl ReadAt for CallbackBytes {
    fn length(&self) -> u64 {
        self.length
    }
    fn read_at(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        if out.is_empty() {
            return Ok(());
        }
        // SAFETY: the caller's contract; `out` is valid for its length.
        let code = unsafe { (self.read_at)(self.user, offset, out.len() as u64, out.as_mut_ptr()) };
        if code == 0 {
            Ok(())
        } else {
            Err(std::io::Error::other(format!(
                "the read_at callback returned {code} for {} bytes at {offset}",
                out.len()
            )))
        }
    }
}

impl Drop for CallbackBytes {
    fn drop(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: the caller's contract: called once, when relief is done.
            unsafe { release(self.user) };
        }
    }
}

/// Checks a caller's `relief_reader` and takes ownership of its `user` (released when the
/// returned bytes drop, on every path from here on).
///
/// # Safety
/// `reader` NULL or readable.
pub(crate) unsafe fn take_reader(
    what: &str,
    reader: *const relief_reader,
) -> Result<CallbackBytes, Failure> {
    require(what, &[("reader", reader.is_null())])?;
    // SAFETY: non-NULL; the caller promises a readable struct.
    let r = unsafe { super::sized::read_in(what, reader) }?;
    let Some(read_at) = r.read_at else {
        return Err(Failure::invalid(format!(
            "{what}: read_at must not be NULL"
        )));
    };
    Ok(CallbackBytes {
        user: r.user,
        length: r.length,
        read_at,
        release: r.release,
    })
}

fn publish(out_world: *mut *mut relief_world, world: World) {
    let h = into_handle(relief_world {
        world: Arc::new(world),
    });
    // SAFETY: every caller checked `out_world` is non-NULL; the C caller promises writable.
    unsafe { *out_world = h };
}

/// Opens the world at `path` (NUL-terminated UTF-8): a world directory, a pack file from
/// `relief pack`, or a pack by `http://`/`https://` URL with the default HTTP options
/// (`relief_world_open_url`). Reads the manifest, overview and tables and checks them; regions are read
/// later, by streaming.
///
/// On success writes a new handle to `*out_world`; the caller owns it and frees it with
/// `relief_world_destroy`. On failure `*out_world` is untouched.
/// Errors: INVALID_ARGUMENT (NULL `path`/`out_world`, or `path` not UTF-8), NOT_FOUND,
/// CORRUPT, UNSUPPORTED_VERSION, IO. Threads: any.
///
/// # Safety
/// `path` must be NULL or a NUL-terminated string; `out_world` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open(
    path: *const c_char,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open";
        require(
            what,
            &[("path", path.is_null()), ("out_world", out_world.is_null())],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let path = unsafe { super::utf8_path(what, path) }?;
        publish(out_world, World::open(path)?);
        Ok(())
    })
}

/// Opens a world pack on a server by `http://` or `https://` URL (NUL-terminated UTF-8;
/// presigned S3/GCS URLs work as they are): the pack's head and index in the opening request,
/// the manifest, overview and tables in one request each; regions are fetched later, one
/// ranged GET each, on loader threads, through the disk cache. With the server unreachable, a
/// cache that has seen the URL opens it and serves what it holds. `options` NULL: the
/// defaults (`relief_http_options_default`). `relief_world_open` also takes URLs, with the
/// defaults.
///
/// On success writes a new handle to `*out_world` (free with `relief_world_destroy`); on
/// failure it is untouched. Errors: INVALID_ARGUMENT (NULL `url`/`out_world`, not UTF-8, an
/// unknown `options->struct_size`, a malformed header), NOT_FOUND (404/410), IO (no answer,
/// access denied, a server that ignores Range, the file changed mid-open), CORRUPT,
/// UNSUPPORTED_VERSION. Threads: any; blocks for the opening requests.
///
/// # Safety
/// `url` NULL or NUL-terminated; `options` NULL or readable with valid pointers (see
/// `relief_http_options`); `out_world` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open_url(
    url: *const c_char,
    options: *const super::http::relief_http_options,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open_url";
        require(
            what,
            &[("url", url.is_null()), ("out_world", out_world.is_null())],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let url = unsafe { super::utf8_path(what, url) }?;
        relief::http::check_url(url).map_err(|e| Failure::invalid(format!("{what}: {e}")))?;
        // SAFETY: forwarded contract.
        let options = unsafe { super::http::options_from(what, options) }?;
        publish(out_world, World::open_url(url, &options)?);
        Ok(())
    })
}

/// Opens a pack (the bytes of a `relief pack` file) held in memory. relief copies the `length`
/// bytes at `bytes`, so the caller may free them when the call returns.
///
/// On success writes a new handle to `*out_world` (free with `relief_world_destroy`); on
/// failure it is untouched. Errors: INVALID_ARGUMENT (NULL `out_world`, or NULL `bytes` with
/// a non-zero `length`), CORRUPT (including an empty or cut-short pack),
/// UNSUPPORTED_VERSION. Threads: any.
///
/// # Safety
/// `bytes` must be NULL or readable for `length` bytes; `out_world` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open_memory(
    bytes: *const u8,
    length: usize,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open_memory";
        require(what, &[("out_world", out_world.is_null())])?;
        // SAFETY: the caller promises `length` readable bytes when non-NULL.
        let bytes = unsafe { super::slice_in(what, bytes, length) }?;
        publish(
            out_world,
            World::open_pack("<memory>", Box::new(bytes.to_vec()))?,
        );
        Ok(())
    })
}

/// Opens a pack through the caller's callbacks (see `relief_reader`). Opening reads the pack's
/// index and the world's small files; regions are read on loader threads as they stream, so
/// `read_at` must be safe to call from several threads at once until `release` is called.
///
/// Ownership: when `reader` is non-NULL with a known `struct_size` and a non-NULL `read_at`,
/// relief owns `reader->user` from this call on and calls `release(user)` (if set) exactly
/// once: before returning if the open fails, otherwise after the world and everything made
/// from it (streamers, terrains, views) are destroyed. Otherwise nothing is called.
/// The `relief_reader` struct itself is copied; the caller may free it on return.
///
/// On success writes a new handle to `*out_world` (free with `relief_world_destroy`); on
/// failure it is untouched. Errors: INVALID_ARGUMENT (NULL `reader`/`out_world`/`read_at`,
/// unknown `struct_size`), CORRUPT, UNSUPPORTED_VERSION, IO (a callback returned non-zero).
/// Threads: any.
///
/// # Safety
/// `reader` must be NULL or readable; its callbacks must honour the contract above.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open_reader(
    reader: *const relief_reader,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open_reader";
        // SAFETY: forwarded contract.
        let bytes = unsafe { take_reader(what, reader) }?;
        require(what, &[("out_world", out_world.is_null())])?;
        publish(out_world, World::open_pack("<reader>", Box::new(bytes))?);
        Ok(())
    })
}

/// Opens a world pack (a `relief pack` file) stored as the `length` bytes at `offset` of the file at `path`
/// (NUL-terminated UTF-8), read in place with positioned reads — no copy into memory. This
/// is how a game opens its StreamingAssets on Android, where they lie uncompressed inside the
/// APK: `path` is the APK (`Application.dataPath`), `offset` and `length` the entry's data
/// (the C# `StreamingAssets` helper finds them in the APK's zip directory). On desktop the
/// whole file is `offset` 0, `length` its size; `relief_world_open` by path does the same.
///
/// On success writes a new handle to `*out_world` (free with `relief_world_destroy`); the file
/// stays open until the world and everything made from it are destroyed. On failure it is
/// untouched. Errors: INVALID_ARGUMENT (NULL `path`/`out_world`, `path` not UTF-8), NOT_FOUND
/// (no such file), IO (unreadable, or the range runs past the file's end), CORRUPT (the range
/// holds no valid world: a wrong offset, or a compressed zip entry), UNSUPPORTED_VERSION.
/// Threads: any.
///
/// # Safety
/// `path` NULL or NUL-terminated; `out_world` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open_file_range(
    path: *const c_char,
    offset: u64,
    length: u64,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open_file_range";
        require(
            what,
            &[("path", path.is_null()), ("out_world", out_world.is_null())],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let path = unsafe { super::utf8_path(what, path) }?;
        publish(out_world, World::open_file_range(path, offset, length)?);
        Ok(())
    })
}

/// Opens a pack stored as the `length` bytes at `offset` of the open file `fd`, read in
/// place with positioned reads. This is how an Android game opens StreamingAssets wherever
/// Google Play put them (the base APK or an install-time asset pack's split APK):
/// `AssetManager.openFd(name)` gives an `AssetFileDescriptor` whose
/// `getParcelFileDescriptor().getFd()`, `getStartOffset()` and `getLength()` are `fd`,
/// `offset` and `length`. relief duplicates `fd`, so the caller closes theirs (the
/// `AssetFileDescriptor`) as soon as this returns; the duplicate stays open until the world
/// and everything made from it are destroyed. A file position is never used or moved.
///
/// On success writes a new handle to `*out_world` (free with `relief_world_destroy`); on failure
/// it is untouched. Errors: INVALID_ARGUMENT (NULL `out_world`, a negative `fd` or one that is
/// not open, and on Windows any `fd`), IO (not a regular file, unreadable, or the range runs
/// past the file's end), CORRUPT (the range holds no valid world), UNSUPPORTED_VERSION.
/// Threads: any.
///
/// # Safety
/// `out_world` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_open_fd(
    fd: i32,
    offset: u64,
    length: u64,
    out_world: *mut *mut relief_world,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_open_fd";
        require(what, &[("out_world", out_world.is_null())])?;
        let file = super::duplicate_fd(what, fd)?;
        publish(
            out_world,
            World::open_in_file(file, offset, length, &format!("fd {fd}"))?,
        );
        Ok(())
    })
}

/// Frees a world. NULL is a no-op. Streamers and terrains made from it keep what they need,
/// so they may outlive it. Threads: any, but not while another thread uses this handle.
///
/// # Safety
/// `world` must be NULL or a live handle from a `relief_world_open*` call, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_world_destroy(world: *mut relief_world) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(world) }
}

/// Fills `*info` (whose `struct_size` the caller has set) with the world's figures.
///
/// Errors: INVALID_ARGUMENT (NULL `world` or `info`, or a `struct_size` this relief doesn't
/// know). On failure `*info` is untouched. Threads: any.
///
/// # Safety
/// `world` must be NULL or a live handle; `info` NULL or a writable `relief_world_info`.
#[no_mangle]
pub unsafe extern "C" fn relief_world_get_info(
    world: *const relief_world,
    info: *mut relief_world_info,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_get_info";
        // SAFETY: forwarded contract.
        let w = &unsafe { handle(what, world) }?.world;
        require(what, &[("info", info.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::check_size(what, info) }?;
        let m = w.manifest();
        let filled = relief_world_info {
            struct_size: std::mem::size_of::<relief_world_info>() as u32,
            region_size: m.region_size,
            vertex_spacing: m.vertex_spacing,
            region_min_x: m.region_bounds.min[0],
            region_min_z: m.region_bounds.min[1],
            region_max_x: m.region_bounds.max[0],
            region_max_z: m.region_bounds.max[1],
            height_min: m.height_range[0],
            height_max: m.height_range[1],
            sea_level: m.sea_level.unwrap_or(f32::NAN),
            region_count: w.region_locations().count() as u32,
            reach_count: w.reaches().len() as u32,
            lake_count: w.lakes().len() as u32,
            biome_count: w.biomes().len() as u32,
        };
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::write_out(what, info, filled) }?;
        Ok(())
    })
}

/// Copies biome `id`'s name (UTF-8, NUL-terminated) into `name`, which holds `capacity` bytes,
/// and writes its length without the NUL to `*out_length`.
///
/// Size query: with `name` NULL and `capacity` 0, only `*out_length` is written; allocate
/// `*out_length + 1` bytes. Errors: INVALID_ARGUMENT (NULL `world`/`out_length`, an `id` at
/// or past `biome_count`, NULL `name` with a non-zero `capacity`, or `capacity` too small,
/// when nothing is written). Threads: any.
///
/// # Safety
/// `world` NULL or live; `name` NULL or writable for `capacity` bytes; `out_length` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_world_get_biome_name(
    world: *const relief_world,
    id: u32,
    name: *mut c_char,
    capacity: usize,
    out_length: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_world_get_biome_name";
        // SAFETY: forwarded contract.
        let w = &unsafe { handle(what, world) }?.world;
        let biomes = w.biomes();
        let text = biomes
            .get(id as usize)
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "{what}: biome {id} is out of range (the world has {})",
                    biomes.len()
                ))
            })?
            .name
            .as_bytes();
        // SAFETY: forwarded contract.
        unsafe { super::copy_name(what, text, name, capacity, out_length) }
    })
}

super::sized::grows_zeroed!(relief_world_info = 64, relief_reader = 40);
