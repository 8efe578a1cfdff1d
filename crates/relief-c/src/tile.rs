//! `relief_tile_view`: zero-copy pointers into a resident planet tile's fields.

use std::ffi::c_void;
use std::sync::Arc;

use super::streamer::relief_streamer;
use super::{ffi_guard, handle, relief_status, require, Failure};
use relief::planet::{PlanetTile, TileKey};
use relief::runtime::Streamed;

/// A resident tile's fields, read in place: each `size × size` samples, row-major, sample
/// (i, j) at `j·size + i` being face sample (`tx·size + i`, `ty·size + j`). Sediment and
/// precipitation are NULL for v6 planets. Valid until `relief_tile_release`, even if the
/// tile unloads. Zero it and set `struct_size` before the first acquire; never copy it (a copy
/// released twice frees twice).
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
    /// relief's; NULL when the view holds nothing.
    pub token: *mut c_void,
}

impl Default for relief_tile_view {
    fn default() -> Self {
        relief_tile_view {
            struct_size: std::mem::size_of::<relief_tile_view>() as u32,
            face: 0,
            tx: 0,
            ty: 0,
            size: 0,
            height: std::ptr::null(),
            biome: std::ptr::null(),
            lake: std::ptr::null(),
            sediment: std::ptr::null(),
            precipitation: std::ptr::null(),
            token: std::ptr::null_mut(),
        }
    }
}

/// Acquires a view of the resident tile (face, tx, ty) of a planet streamer, holding it until
/// `relief_tile_release(view)`.
///
/// Errors: INVALID_ARGUMENT (NULL `streamer`/`view`, unknown `struct_size`, a view still
/// holding a tile, a flat-world streamer, face ≥ 6), NOT_FOUND (not resident: wait for its
/// LOADED event). On failure `*view` is untouched. Threads: any.
///
/// # Safety
/// `streamer` NULL or live; `view` NULL or a writable `relief_tile_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_tile_acquire(
    streamer: *const relief_streamer,
    face: u32,
    tx: u32,
    ty: u32,
    view: *mut relief_tile_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_tile_acquire";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_tile(what, &s.streamed, face, tx, ty, view) }
    })
}

/// Releases what `view` holds and clears it; releasing twice, a cleared view, or NULL is a
/// no-op. Threads: any.
///
/// # Safety
/// `view` NULL or a view filled by `relief_tile_acquire` (or zeroed).
#[no_mangle]
pub unsafe extern "C" fn relief_tile_release(view: *mut relief_tile_view) {
    let _ = ffi_guard!({
        if view.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL; the caller promises a view.
        let v = unsafe { view.read_unaligned() };
        if !v.token.is_null() {
            // SAFETY: the token came from Box<Arc<PlanetTile>> in acquire, once.
            drop(unsafe { Box::from_raw(v.token.cast::<Arc<PlanetTile>>()) });
        }
        let cleared = relief_tile_view {
            struct_size: v.struct_size,
            ..Default::default()
        };
        // SAFETY: as above.
        unsafe { view.write_unaligned(cleared) };
        Ok(())
    });
}

/// `relief_tile_acquire` on any holder of a planet's tiles.
///
/// # Safety
/// `view` NULL or a writable `relief_tile_view`.
pub(crate) unsafe fn acquire_tile(
    what: &str,
    streamed: &Streamed,
    face: u32,
    tx: u32,
    ty: u32,
    view: *mut relief_tile_view,
) -> Result<(), Failure> {
    require(what, &[("view", view.is_null())])?;
    // SAFETY: non-NULL.
    if !unsafe { super::read_sized(what, view) }?.token.is_null() {
        return Err(Failure::invalid(format!(
            "{what}: the view still holds a tile; release it first"
        )));
    }
    let (_, resident) = super::streamer::planet(what, streamed)?;
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
    let filled = relief_tile_view {
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
        token: Box::into_raw(Box::new(tile)).cast(),
    };
    // SAFETY: checked non-NULL and of our size.
    unsafe { view.write_unaligned(filled) };
    Ok(())
}
