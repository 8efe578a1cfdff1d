//! `relief_clipmap`: camera-following LOD height levels, updated incrementally, with the
//! rectangles each update rewrote (upload only those to the GPU).

use parking_lot::Mutex;
use relief::glam::DVec3;

use super::planet_terrain::relief_planet_terrain;
use super::terrain::relief_terrain;
use super::{
    check_struct_size, ffi_guard, finite, handle, into_handle, relief_status, require, slice_out,
    Failure,
};
use relief::flat::RegionLocation;
use relief::lod::{ClipmapConfig, DirtyRect};
use relief::planet::TileKey;
use relief::runtime::{Lod, PieceKey, Queries};

/// Clipmap levels following a focus (on a planet: LOD rings on a tangent plane near it).
/// Opaque. Threads: one thread at a time (each call locks the clipmap); level views stay
/// valid until the next update, refresh or destroy.
pub struct relief_clipmap {
    inner: Mutex<Lod>,
}

/// Clipmap shape. Get defaults from `relief_clipmap_config_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_clipmap_config {
    /// sizeof(relief_clipmap_config), set by the caller (the default call sets it).
    pub struct_size: u32,
    /// Levels, 1–24 (default 6).
    pub levels: u32,
    /// Cells per level side: even, 2–4096 (default 128).
    pub size: u32,
    /// Metres between level 0's cells (default 16); level k's are `base_spacing · 2^k`.
    pub base_spacing: f64,
}

/// A rectangle of a level's storage rewritten by the last update or refresh, in storage
/// cells: columns `x .. x + width`, rows `z .. z + depth`. Filled in arrays whose element size
/// the caller passes (`sizeof(relief_dirty_rect)`), so it may grow at its end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_dirty_rect {
    pub level: u32,
    pub x: u32,
    pub z: u32,
    pub width: u32,
    pub depth: u32,
}

/// One level's heights, read in place. Storage is toroidal: world cell (i, j) of the window
/// `origin_i .. origin_i + size` (likewise j) is at `(j mod size) * size + (i mod size)`
/// (non-negative modulo), and covers world x from `i * spacing`. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_clipmap_level {
    /// sizeof(relief_clipmap_level), set by the caller.
    pub struct_size: u32,
    pub level: u32,
    /// Cells per side.
    pub size: u32,
    /// 0 before the first update (origin and heights are then meaningless), else 1.
    pub filled: u32,
    /// World cell index of the window's first cell.
    pub origin_i: i64,
    pub origin_j: i64,
    /// Metres per cell.
    pub spacing: f64,
    /// `size²` heights, metres; valid until the clipmap's next update, refresh or destroy.
    pub heights: *const f32,
    /// The plane the levels lie on: cell (i, j) covers plane (x, z) from (i·spacing,
    /// j·spacing), the point `plane_origin + x·plane_x + z·plane_z`, heights along
    /// `plane_up`. A flat world's is the world itself (origin 0, axes X, Y, Z); a planet's is
    /// the tangent plane at the rings' anchor (heights are above the radius, under the
    /// direction of the plane point).
    pub plane_origin: [f64; 3],
    pub plane_x: [f64; 3],
    pub plane_up: [f64; 3],
    pub plane_z: [f64; 3],
}

pub(crate) fn defaults() -> relief_clipmap_config {
    let c = ClipmapConfig::default();
    relief_clipmap_config {
        struct_size: std::mem::size_of::<relief_clipmap_config>() as u32,
        levels: c.levels,
        size: c.size,
        base_spacing: c.base_spacing,
    }
}

/// Fills `*config` with the defaults (6 levels of 128² from 16 m), `struct_size` included.
/// Errors: INVALID_ARGUMENT (NULL `config`). Threads: any.
///
/// # Safety
/// `config` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_config_default(
    config: *mut relief_clipmap_config,
) -> relief_status {
    ffi_guard!({
        require(
            "relief_clipmap_config_default",
            &[("config", config.is_null())],
        )?;
        // SAFETY: checked non-NULL.
        unsafe { config.write_unaligned(defaults()) };
        Ok(())
    })
}

/// Creates a clipmap over `terrain`'s heights with `config` (NULL for the defaults). Levels
/// fill on the first `relief_clipmap_update`. On success writes a new handle to
/// `*out_clipmap` (free with `relief_clipmap_destroy`); on failure it is untouched.
/// Errors: INVALID_ARGUMENT (NULL arguments, unknown `struct_size`, levels outside 1–24,
/// an odd or out-of-range size, a non-positive spacing). Threads: any.
///
/// # Safety
/// `terrain` NULL or live; `config` NULL or readable; `out_clipmap` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_create(
    terrain: *const relief_terrain,
    config: *const relief_clipmap_config,
    out_clipmap: *mut *mut relief_clipmap,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_create";
        // SAFETY: forwarded contract.
        let t = unsafe { handle(what, terrain) }?;
        require(what, &[("out_clipmap", out_clipmap.is_null())])?;
        // SAFETY: forwarded contract.
        let config = unsafe { read_config(what, config) }?;
        let h = into_handle(relief_clipmap {
            inner: Mutex::new(
                Lod::new(&Queries::Flat(t.terrain.clone()), config)
                    .map_err(|e| super::config_failure(what, &e))?,
            ),
        });
        // SAFETY: checked non-NULL.
        unsafe { *out_clipmap = h };
        Ok(())
    })
}

/// A caller's clipmap config (NULL for the defaults), unchecked: the core's constructors
/// check it ([`ClipmapConfig::validate`]).
///
/// # Safety
/// `config` NULL or readable.
pub(crate) unsafe fn read_config(
    what: &str,
    config: *const relief_clipmap_config,
) -> Result<ClipmapConfig, Failure> {
    let c = if config.is_null() {
        defaults()
    } else {
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::read_sized(what, config) }?
    };
    Ok(ClipmapConfig {
        levels: c.levels,
        size: c.size,
        base_spacing: c.base_spacing,
    })
}

/// Creates LOD rings over a planet terrain with `config` (NULL for the defaults): the same
/// levels, updates, dirty rectangles and level views as a flat clipmap, on the tangent plane
/// of an anchor near the focus (re-laid, with one full refill, when the focus strays 20° from
/// it; `relief_clipmap_level` reports the plane). Call `relief_clipmap_refresh_tile` on tile
/// LOADED events. Errors: as `relief_clipmap_create`. Threads: any.
///
/// # Safety
/// `terrain` NULL or live; `config` NULL or readable; `out_clipmap` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_clipmap_create(
    terrain: *const relief_planet_terrain,
    config: *const relief_clipmap_config,
    out_clipmap: *mut *mut relief_clipmap,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_clipmap_create";
        // SAFETY: forwarded contract.
        let t = unsafe { handle(what, terrain) }?;
        require(what, &[("out_clipmap", out_clipmap.is_null())])?;
        // SAFETY: forwarded contract.
        let config = unsafe { read_config(what, config) }?;
        let h = into_handle(relief_clipmap {
            inner: Mutex::new(
                Lod::new(&Queries::Planet(t.terrain().clone()), config)
                    .map_err(|e| super::config_failure(what, &e))?,
            ),
        });
        // SAFETY: checked non-NULL.
        unsafe { *out_clipmap = h };
        Ok(())
    })
}

/// Frees a clipmap. NULL is a no-op. Level views from it become invalid. Threads: any, once
/// no other thread uses the handle.
///
/// # Safety
/// `clipmap` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_destroy(clipmap: *mut relief_clipmap) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(clipmap) }
}

/// Centres every level on world (x, y, z) and fills only the cells that came into view; writes
/// how many storage rectangles changed to `*out_dirty_count` (0 when nothing moved; fetch
/// them with `relief_clipmap_get_dirty`). Never reads files. Errors: INVALID_ARGUMENT (NULL
/// arguments, non-finite position). Threads: one at a time (the render thread's owner).
///
/// # Safety
/// `clipmap` NULL or live; `out_dirty_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_update(
    clipmap: *const relief_clipmap,
    x: f64,
    y: f64,
    z: f64,
    out_dirty_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_update";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, clipmap) }?;
        require(what, &[("out_dirty_count", out_dirty_count.is_null())])?;
        finite(what, &[x, y, z])?;
        let n = c
            .inner
            .lock()
            .update(DVec3::new(x, y, z))
            .map_err(|e| Failure::invalid(format!("{what}: {e}")))?
            .len();
        // SAFETY: checked non-NULL.
        unsafe { *out_dirty_count = n };
        Ok(())
    })
}

/// Refills the visible cells over region (x, z): call on the streamer's LOADED event for it,
/// so levels switch from overview heights to the region's. Writes the rectangle count to
/// `*out_dirty_count`, as `relief_clipmap_update`. Errors: INVALID_ARGUMENT (NULL arguments).
/// Threads: as `relief_clipmap_update`.
///
/// # Safety
/// `clipmap` NULL or live; `out_dirty_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_refresh_region(
    clipmap: *const relief_clipmap,
    x: i32,
    z: i32,
    out_dirty_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_refresh_region";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, clipmap) }?;
        require(what, &[("out_dirty_count", out_dirty_count.is_null())])?;
        let region = PieceKey::Region(RegionLocation::new(x, z));
        let n = c
            .inner
            .lock()
            .refresh(region)
            .map(<[_]>::len)
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "{what}: planet rings refresh tiles: use relief_clipmap_refresh_tile"
                ))
            })?;
        // SAFETY: checked non-NULL.
        unsafe { *out_dirty_count = n };
        Ok(())
    })
}

/// Refills the rings' cells over planet tile (face, tx, ty): call on the planet streamer's
/// LOADED event for it. Writes the rectangle count to `*out_dirty_count`. Errors:
/// INVALID_ARGUMENT (NULL arguments, a flat clipmap, face ≥ 6). Threads: as
/// `relief_clipmap_update`.
///
/// # Safety
/// `clipmap` NULL or live; `out_dirty_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_refresh_tile(
    clipmap: *const relief_clipmap,
    face: u32,
    tx: u32,
    ty: u32,
    out_dirty_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_refresh_tile";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, clipmap) }?;
        require(what, &[("out_dirty_count", out_dirty_count.is_null())])?;
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
        let n = c
            .inner
            .lock()
            .refresh(PieceKey::Tile(key))
            .map(<[_]>::len)
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "{what}: a flat clipmap refreshes regions: use relief_clipmap_refresh_region"
                ))
            })?;
        // SAFETY: checked non-NULL.
        unsafe { *out_dirty_count = n };
        Ok(())
    })
}

/// Copies the rectangles the last update or refresh rewrote into `rects` (room for
/// `capacity` of `rect_size` bytes: pass `sizeof(relief_dirty_rect)`) and writes their count
/// to `*out_count`. Size query: `(NULL, 0)` writes only the count. Errors: INVALID_ARGUMENT
/// (NULL `clipmap`/`out_count`, a `rect_size` this relief doesn't know, NULL `rects` with a
/// non-zero `capacity`, or a non-zero `capacity` below the count, when nothing is written).
/// Threads: as `relief_clipmap_update`.
///
/// # Safety
/// `rects` NULL or writable for `capacity` rects of `rect_size` bytes; `out_count` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_get_dirty(
    clipmap: *const relief_clipmap,
    rects: *mut relief_dirty_rect,
    rect_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_get_dirty";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, clipmap) }?;
        let lod = c.inner.lock();
        // SAFETY: forwarded contract.
        unsafe {
            copy_dirty(
                what,
                lod.clipmap().dirty(),
                rects,
                rect_size,
                capacity,
                out_count,
            )
        }
    })
}

/// Copies `dirty` into the caller's buffer, as `relief_clipmap_get_dirty` documents.
///
/// # Safety
/// `rects` NULL or writable for `capacity` rects; `out_count` NULL or writable.
pub(crate) unsafe fn copy_dirty(
    what: &str,
    dirty: &[DirtyRect],
    rects: *mut relief_dirty_rect,
    rect_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> Result<(), Failure> {
    require(what, &[("out_count", out_count.is_null())])?;
    super::check_element_size::<relief_dirty_rect>(what, "rect_size", rect_size)?;
    // SAFETY: forwarded contract.
    let out = unsafe { slice_out(what, rects, capacity) }?;
    if capacity > 0 {
        if capacity < dirty.len() {
            return Err(Failure::invalid(format!(
                "{what}: {} rectangles, the buffer holds {capacity}",
                dirty.len()
            )));
        }
        for (o, d) in out.iter_mut().zip(dirty) {
            *o = relief_dirty_rect {
                level: d.level,
                x: d.x,
                z: d.z,
                width: d.width,
                depth: d.depth,
            };
        }
    }
    // SAFETY: checked non-NULL.
    unsafe { *out_count = dirty.len() };
    Ok(())
}

/// Fills `*out_level` (its `struct_size` set) with level `level`'s view. Errors:
/// INVALID_ARGUMENT (NULL arguments, unknown `struct_size`, `level` ≥ the level count);
/// `*out_level` is untouched on failure. Threads: as `relief_clipmap_update`.
///
/// # Safety
/// `clipmap` NULL or live; `out_level` NULL or a writable `relief_clipmap_level`.
#[no_mangle]
pub unsafe extern "C" fn relief_clipmap_get_level(
    clipmap: *const relief_clipmap,
    level: u32,
    out_level: *mut relief_clipmap_level,
) -> relief_status {
    ffi_guard!({
        let what = "relief_clipmap_get_level";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, clipmap) }?;
        // SAFETY: forwarded contract.
        unsafe { level_view(what, &c.inner.lock(), level, out_level) }
    })
}

/// Fills a level view of `lod`, as `relief_clipmap_get_level` documents.
///
/// # Safety
/// `out_level` NULL or a writable `relief_clipmap_level`.
pub(crate) unsafe fn level_view(
    what: &str,
    lod: &Lod,
    level: u32,
    out_level: *mut relief_clipmap_level,
) -> Result<(), Failure> {
    require(what, &[("out_level", out_level.is_null())])?;
    // SAFETY: non-NULL.
    unsafe { check_struct_size(what, out_level) }?;
    let cm = lod.clipmap();
    let count = cm.config().levels;
    if level >= count {
        return Err(Failure::invalid(format!(
            "{what}: level {level} is out of range (the clipmap has {count})"
        )));
    }
    let l = cm.level(level as usize);
    let origin = l.origin();
    let plane = lod.plane();
    let view = relief_clipmap_level {
        struct_size: std::mem::size_of::<relief_clipmap_level>() as u32,
        level,
        size: cm.config().size,
        filled: origin.is_some() as u32,
        origin_i: origin.map_or(0, |o| o[0]),
        origin_j: origin.map_or(0, |o| o[1]),
        spacing: l.spacing,
        heights: l.storage().as_ptr(),
        plane_origin: plane.origin.to_array(),
        plane_x: plane.axis_x.to_array(),
        plane_up: plane.up.to_array(),
        plane_z: plane.axis_z.to_array(),
    };
    // SAFETY: checked non-NULL and of our size.
    unsafe { out_level.write_unaligned(view) };
    Ok(())
}
