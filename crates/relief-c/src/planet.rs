//! `relief_planet`: an opened PLNT blob, from a path, memory or callbacks.

use std::ffi::c_char;
use std::sync::Arc;

use super::world::{relief_reader, take_reader};
use super::{ffi_guard, handle, into_handle, relief_status, require, Failure};
use relief::planet::Planet;

/// An opened planet: header and tables only; tiles are read as they stream. Opaque.
pub struct relief_planet {
    pub(crate) planet: Arc<Planet>,
}

/// What `relief_planet_get_info` reports. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct relief_planet_info {
    /// sizeof(relief_planet_info), set by the caller.
    pub struct_size: u32,
    /// PLNT version (6 or 7).
    pub version: u32,
    /// Metres; heights are metres above it.
    pub radius: f64,
    /// The axis latitudes are measured from (unit vector, planet frame).
    pub polar_axis: [f64; 3],
    /// Samples per face side, samples per tile side, tiles per face side.
    pub face_resolution: u32,
    pub tile_size: u32,
    pub tiles_per_side: u32,
    /// 0 gnomonic, 1 equi-angular.
    pub projection: u32,
    /// Metres between samples at face centres: radius·(π/2)/face_resolution.
    pub spacing: f64,
    pub height_min: f32,
    pub height_max: f32,
    pub sea_level: f32,
    /// 1 if tiles carry sediment and precipitation (v7 fields), else 0.
    pub has_v7_fields: u32,
    pub reach_count: u32,
    pub lake_count: u32,
    pub biome_count: u32,
    pub field_count: u32,
}

fn publish(out: *mut *mut relief_planet, planet: Planet) {
    let h = into_handle(relief_planet {
        planet: Arc::new(planet),
    });
    // SAFETY: every caller checked `out` is non-NULL; the C caller promises writable.
    unsafe { *out = h };
}

/// Opens the PLNT blob at `path` (NUL-terminated UTF-8; an `http://`/`https://` URL opens as
/// `relief_planet_open_url` with the default options): reads the header and tables only
/// (well under 10 ms for a 6 × 4096² planet); tiles are read with positioned reads later.
///
/// On success writes a new handle to `*out_planet` (free with `relief_planet_destroy`); on
/// failure it is untouched. Errors: INVALID_ARGUMENT (NULL arguments, non-UTF-8 path),
/// NOT_FOUND, CORRUPT (truncated, a checksum, an index outside the file),
/// UNSUPPORTED_VERSION, IO (also for a FIFO, device or directory). Threads: any. A file
/// truncated or replaced while open fails the tiles it can no longer give (FAILED events),
/// nothing else.
///
/// # Safety
/// `path` NULL or NUL-terminated; `out_planet` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open(
    path: *const c_char,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open";
        require(
            what,
            &[
                ("path", path.is_null()),
                ("out_planet", out_planet.is_null()),
            ],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let path = unsafe { super::utf8_path(what, path) }?;
        publish(out_planet, Planet::open(path)?);
        Ok(())
    })
}

/// Opens a PLNT blob on a server by `http://` or `https://` URL (NUL-terminated UTF-8):
/// header, field table and index in one or two requests; each tile later costs one ranged
/// GET on a loader thread, through the disk cache (its fields lie together; a blob an older
/// bake wrote field by field costs one GET per field, sent side by side). `options`
/// NULL: the defaults. Otherwise as `relief_world_open_url` (errors, offline opening,
/// ownership). `relief_planet_open` also takes URLs, with the defaults. Threads: any; blocks
/// for the opening requests.
///
/// # Safety
/// `url` NULL or NUL-terminated; `options` NULL or readable with valid pointers;
/// `out_planet` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open_url(
    url: *const c_char,
    options: *const super::http::relief_http_options,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open_url";
        require(
            what,
            &[("url", url.is_null()), ("out_planet", out_planet.is_null())],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let url = unsafe { super::utf8_path(what, url) }?;
        relief::http::check_url(url).map_err(|e| Failure::invalid(format!("{what}: {e}")))?;
        // SAFETY: forwarded contract.
        let options = unsafe { super::http::options_from(what, options) }?;
        publish(out_planet, Planet::open_url(url, &options)?);
        Ok(())
    })
}

/// Opens a PLNT blob held in memory; relief copies the `length` bytes, so the caller may free
/// them on return. Otherwise as `relief_planet_open`. Errors: INVALID_ARGUMENT (NULL
/// `out_planet`, NULL `bytes` with a non-zero length), CORRUPT, UNSUPPORTED_VERSION.
/// Threads: any.
///
/// # Safety
/// `bytes` NULL or readable for `length` bytes; `out_planet` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open_memory(
    bytes: *const u8,
    length: usize,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open_memory";
        require(what, &[("out_planet", out_planet.is_null())])?;
        // SAFETY: forwarded contract.
        let bytes = unsafe { super::slice_in(what, bytes, length) }?;
        publish(
            out_planet,
            Planet::open_bytes("<memory>", Box::new(bytes.to_vec()))?,
        );
        Ok(())
    })
}

/// Opens a PLNT blob through the caller's callbacks (an Android APK's StreamingAssets):
/// ownership of `reader->user` and the `release` contract are as for
/// `relief_world_open_reader`; `read_at` is called from relief's loader threads.
/// Errors: INVALID_ARGUMENT (NULL arguments or `read_at`, unknown `struct_size`), CORRUPT,
/// UNSUPPORTED_VERSION, IO (a callback returned non-zero). Threads: any.
///
/// # Safety
/// `reader` NULL or readable, its callbacks honouring the contract; `out_planet` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open_reader(
    reader: *const relief_reader,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open_reader";
        // SAFETY: forwarded contract.
        let bytes = unsafe { take_reader(what, reader) }?;
        require(what, &[("out_planet", out_planet.is_null())])?;
        publish(out_planet, Planet::open_bytes("<reader>", Box::new(bytes))?);
        Ok(())
    })
}

/// Opens a PLNT blob stored as the `length` bytes at `offset` of the file at `path`
/// (NUL-terminated UTF-8), read in place with positioned reads — no copy into memory. This
/// is how a game opens its StreamingAssets on Android, where they lie uncompressed inside the
/// APK: `path` is the APK (`Application.dataPath`), `offset` and `length` the entry's data
/// (the C# `StreamingAssets` helper finds them in the APK's zip directory). On desktop the
/// whole file is `offset` 0, `length` its size; `relief_planet_open` by path does the same.
///
/// On success writes a new handle to `*out_planet` (free with `relief_planet_destroy`); the file
/// stays open until the planet and everything made from it are destroyed. On failure it is
/// untouched. Errors: INVALID_ARGUMENT (NULL `path`/`out_planet`, `path` not UTF-8), NOT_FOUND
/// (no such file), IO (unreadable, or the range runs past the file's end), CORRUPT (the range
/// holds no valid planet: a wrong offset, or a compressed zip entry), UNSUPPORTED_VERSION.
/// Threads: any.
///
/// # Safety
/// `path` NULL or NUL-terminated; `out_planet` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open_file_range(
    path: *const c_char,
    offset: u64,
    length: u64,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open_file_range";
        require(
            what,
            &[
                ("path", path.is_null()),
                ("out_planet", out_planet.is_null()),
            ],
        )?;
        // SAFETY: checked non-NULL; the caller promises NUL-terminated.
        let path = unsafe { super::utf8_path(what, path) }?;
        publish(out_planet, Planet::open_file_range(path, offset, length)?);
        Ok(())
    })
}

/// Opens a PLNT blob stored as the `length` bytes at `offset` of the open file `fd`, read in
/// place with positioned reads. This is how an Android game opens StreamingAssets wherever
/// Google Play put them (the base APK or an install-time asset pack's split APK):
/// `AssetManager.openFd(name)` gives an `AssetFileDescriptor` whose
/// `getParcelFileDescriptor().getFd()`, `getStartOffset()` and `getLength()` are `fd`,
/// `offset` and `length`. relief duplicates `fd`, so the caller closes theirs (the
/// `AssetFileDescriptor`) as soon as this returns; the duplicate stays open until the planet
/// and everything made from it are destroyed. A file position is never used or moved.
///
/// On success writes a new handle to `*out_planet` (free with `relief_planet_destroy`); on failure
/// it is untouched. Errors: INVALID_ARGUMENT (NULL `out_planet`, a negative `fd` or one that is
/// not open, and on Windows any `fd`), IO (not a regular file, unreadable, or the range runs
/// past the file's end), CORRUPT (the range holds no valid planet), UNSUPPORTED_VERSION.
/// Threads: any.
///
/// # Safety
/// `out_planet` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_open_fd(
    fd: i32,
    offset: u64,
    length: u64,
    out_planet: *mut *mut relief_planet,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_open_fd";
        require(what, &[("out_planet", out_planet.is_null())])?;
        let file = super::duplicate_fd(what, fd)?;
        publish(
            out_planet,
            Planet::open_in_file(file, offset, length, &format!("fd {fd}"))?,
        );
        Ok(())
    })
}

/// Frees a planet. NULL is a no-op. Streamers and terrains made from it keep what they need.
/// Threads: any, once no other thread uses the handle.
///
/// # Safety
/// `planet` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_destroy(planet: *mut relief_planet) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(planet) }
}

/// Fills `*info` (its `struct_size` set) with the planet's figures. Reads the river, lake and
/// biome tables on first use. Errors: INVALID_ARGUMENT (NULL arguments, unknown
/// `struct_size`), CORRUPT (a damaged table). `*info` is untouched on failure. Threads: any.
///
/// # Safety
/// `planet` NULL or live; `info` NULL or a writable `relief_planet_info`.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_get_info(
    planet: *const relief_planet,
    info: *mut relief_planet_info,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_get_info";
        // SAFETY: forwarded contract.
        let p = &unsafe { handle(what, planet) }?.planet;
        require(what, &[("info", info.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::check_size(what, info) }?;
        let h = p.blob().header();
        let filled = relief_planet_info {
            struct_size: std::mem::size_of::<relief_planet_info>() as u32,
            version: h.version,
            radius: h.radius,
            polar_axis: h.polar_axis.to_array(),
            face_resolution: h.face_resolution,
            tile_size: h.tile_size,
            tiles_per_side: h.tiles_per_side(),
            projection: h.projection as u32,
            spacing: p.spacing(),
            height_min: h.height_min,
            height_max: h.height_max,
            sea_level: h.sea_level,
            has_v7_fields: (p
                .blob()
                .field_index(relief::planet::format::SEDIMENT)
                .is_some()
                && p.blob()
                    .field_index(relief::planet::format::PRECIPITATION)
                    .is_some()) as u32,
            reach_count: p.reaches()?.len() as u32,
            lake_count: p.lakes()?.len() as u32,
            biome_count: p.biome_names()?.len() as u32,
            field_count: p.blob().fields().len() as u32,
        };
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::write_out(what, info, filled) }?;
        Ok(())
    })
}

/// Copies biome class `id`'s name into `name` as `relief_world_get_biome_name` does
/// (`(NULL, 0)` is a size query). Errors: INVALID_ARGUMENT (NULL `planet`/`out_length`, `id`
/// out of range, NULL `name` with a non-zero `capacity`, an undersized buffer), CORRUPT.
/// Threads: any.
///
/// # Safety
/// `name` NULL or writable for `capacity` bytes; `out_length` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_get_biome_name(
    planet: *const relief_planet,
    id: u32,
    name: *mut c_char,
    capacity: usize,
    out_length: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_get_biome_name";
        // SAFETY: forwarded contract.
        let p = &unsafe { handle(what, planet) }?.planet;
        let names = p.biome_names()?;
        let text = names.get(id as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "{what}: biome {id} is out of range (the planet has {})",
                names.len()
            ))
        })?;
        // SAFETY: forwarded contract.
        unsafe { super::copy_name(what, text.as_bytes(), name, capacity, out_length) }
    })
}

super::sized::grows_zeroed!(relief_planet_info = 96);
