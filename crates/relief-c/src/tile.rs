//! `relief_tile`: an acquired resident planet tile, and `relief_tile_view`, its fields read
//! in place.

use std::sync::Arc;

use super::runtime::relief_runtime;
use super::sized::{grows_zeroed, write_out};
use super::{ffi_guard, handle, into_handle, relief_status, require, Failure};
use relief::planet::{PlanetTile, TileKey};
use relief::runtime::Streamed;

/// A resident planet tile held in memory: its fields stay valid until `relief_tile_release`,
/// even if the tile unloads or the runtime is destroyed. Opaque.
pub struct relief_tile {
    /// What keeps the fields alive.
    _tile: Arc<PlanetTile>,
    view: relief_tile_view,
}

/// A held tile's fields, read in place: each `size × size` samples, row-major, sample (i, j)
/// at `j·size + i` being face sample (`tx·size + i`, `ty·size + j`). Sediment and
/// precipitation are NULL for v6 planets. A plain struct borrowed from its `relief_tile`:
/// copy it freely; its pointers are valid until that tile is released. Set `struct_size`
/// first.
///
/// Where a sample lies: face sample (gi, gj) of a face of N (`face_resolution`) is in the
/// direction `normalize(n + u·r + v·t)` (planet frame, right-handed, Y up), with
/// `a = (gi + 0.5)·2/N − 1`, `u = tan(a·π/4)` (equi-angular, `projection` 1; `u = a` for
/// gnomonic, 0), and `v` likewise from gj; its ground is `radius + height` along it. Face
/// `face`'s normal n, right r (+i) and top t (+j) vectors:
///
/// | face | n | r | t |
/// |---|---|---|---|
/// | 0 | (1, 0, 0) | (0, 0, −1) | (0, 1, 0) |
/// | 1 | (−1, 0, 0) | (0, 0, 1) | (0, 1, 0) |
/// | 2 | (0, 1, 0) | (1, 0, 0) | (0, 0, −1) |
/// | 3 | (0, −1, 0) | (1, 0, 0) | (0, 0, 1) |
/// | 4 | (0, 0, 1) | (1, 0, 0) | (0, 1, 0) |
/// | 5 | (0, 0, −1) | (−1, 0, 0) | (0, 1, 0) |
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_tile_view {
    /// sizeof(relief_tile_view), set by the caller.
    pub struct_size: u32,
    pub face: u32,
    pub tx: u32,
    pub ty: u32,
    /// Samples per side.
    pub size: u32,
    /// Heights above the radius, metres.
    pub height: *const f32,
    /// Biome class ids (names from `relief_planet_get_biome_name`).
    pub biome: *const u8,
    /// Lake ids (0 = none).
    pub lake: *const u16,
    /// Sediment thickness, metres, or NULL.
    pub sediment: *const f32,
    /// Precipitation, mm/yr, or NULL.
    pub precipitation: *const f32,
}

grows_zeroed!(relief_tile_view = 64);

/// Holds resident tile (face, tx, ty) of a planet's runtime and writes a new handle to
/// `*out_tile` (free with `relief_tile_release`).
///
/// Errors: INVALID_ARGUMENT (NULL `runtime`/`out_tile`, a flat world's runtime, face ≥ 6),
/// NOT_FOUND (not resident: wait for its LOADED event). On failure `*out_tile` is untouched.
/// Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_tile` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_tile(
    runtime: *const relief_runtime,
    face: u32,
    tx: u32,
    ty: u32,
    out_tile: *mut *mut relief_tile,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_tile";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_tile", out_tile.is_null())])?;
        let held = hold(what, &r.streamed, face, tx, ty)?;
        // SAFETY: checked non-NULL.
        unsafe { *out_tile = into_handle(held) };
        Ok(())
    })
}

/// Fills `*out_view` (its `struct_size` set) with the held tile's fields. Errors:
/// INVALID_ARGUMENT (NULL arguments, a `struct_size` this relief doesn't read); `*out_view`
/// is untouched on failure. Threads: any.
///
/// # Safety
/// `tile` NULL or live; `out_view` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_tile_get_view(
    tile: *const relief_tile,
    out_view: *mut relief_tile_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_tile_get_view";
        // SAFETY: forwarded contract.
        let t = unsafe { handle(what, tile) }?;
        require(what, &[("out_view", out_view.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_view, t.view) }
    })
}

/// Lets go of a held tile. NULL is a no-op. Threads: any.
///
/// # Safety
/// `tile` NULL or a live handle, not used again (nor any view of it).
#[no_mangle]
pub unsafe extern "C" fn relief_tile_release(tile: *mut relief_tile) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(tile) }
}

/// Holds resident tile (face, tx, ty) of a planet.
fn hold(
    what: &str,
    streamed: &Streamed,
    face: u32,
    tx: u32,
    ty: u32,
) -> Result<relief_tile, Failure> {
    let (_, resident) = super::runtime::planet(what, streamed)?;
    if face >= 6 || tx > u16::MAX as u32 || ty > u16::MAX as u32 {
        return Err(Failure::invalid(format!(
            "{what}: no tile ({face}, {tx}, {ty})"
        )));
    }
    let key = TileKey {
        face: face as u8,
        tx: tx as u16,
        ty: ty as u16,
    };
    let tile: Arc<PlanetTile> = resident.read().get(&key).cloned().ok_or(Failure {
        status: super::RELIEF_STATUS_NOT_FOUND,
        message: format!("{what}: tile ({face}, {tx}, {ty}) is not resident"),
    })?;
    let opt =
        |v: &Option<relief::layer::Layer<f32>>| v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
    let view = relief_tile_view {
        struct_size: std::mem::size_of::<relief_tile_view>() as u32,
        face,
        tx,
        ty,
        size: tile.size,
        height: tile.height.as_ptr(),
        biome: tile.biome.as_ptr(),
        lake: tile.lake.as_ptr(),
        sediment: opt(&tile.sediment),
        precipitation: opt(&tile.precipitation),
    };
    Ok(relief_tile { _tile: tile, view })
}
