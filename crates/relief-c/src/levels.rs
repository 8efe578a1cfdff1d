//! The far-ground levels a runtime keeps: `relief_level_view` (one level's heights, read in
//! place) and `relief_dirty_rect` (what the last update rewrote: upload only that).

use super::runtime::relief_runtime;
use super::sized::{check_elements, grows_zeroed, write_element, write_out};
use super::{ffi_guard, handle, relief_status, require, Failure};
use relief::lod::DirtyRect;

/// A rectangle of a level's storage rewritten by the last update, in storage cells: columns
/// `x .. x + width`, rows `z .. z + depth`. Filled in arrays whose element size the caller
/// passes (`sizeof(relief_dirty_rect)`), so it may grow at its end.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_dirty_rect {
    pub level: u32,
    pub x: u32,
    pub z: u32,
    pub width: u32,
    pub depth: u32,
}

grows_zeroed!(relief_dirty_rect = 20);

/// One level's heights, read in place. Storage is toroidal: world cell (i, j) of the window
/// `origin_i .. origin_i + size` (likewise j) is at `(j mod size) * size + (i mod size)`
/// (non-negative modulo), and covers plane x from `i * spacing`. A plain struct borrowed from
/// the runtime: valid until its next update or destroy. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_level_view {
    /// sizeof(relief_level_view), set by the caller.
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
    /// `size²` heights, metres.
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

grows_zeroed!(relief_level_view = 144);

/// Copies the level rectangles the last update rewrote (every level, may overlap) into
/// `rects` (room for `capacity` of `rect_size` bytes: pass `sizeof(relief_dirty_rect)`) and
/// writes their count to `*out_count`; `(NULL, 0)` writes only the count (0 without levels).
/// Errors: INVALID_ARGUMENT (NULL `runtime`/`out_count`, a `rect_size` this relief doesn't
/// read, NULL `rects` with a non-zero `capacity`, or a non-zero `capacity` below the count,
/// when nothing is written). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `rects` NULL or writable for `capacity` rects of `rect_size` bytes;
/// `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_dirty(
    runtime: *const relief_runtime,
    rects: *mut relief_dirty_rect,
    rect_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_dirty";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_count", out_count.is_null())])?;
        check_elements::<relief_dirty_rect>(what, "rect_size", rects, rect_size, capacity)?;
        let rt = r.runtime.lock();
        let dirty: &[DirtyRect] = rt.dirty();
        if capacity > 0 {
            if capacity < dirty.len() {
                return Err(Failure::invalid(format!(
                    "{what}: {} rectangles, the buffer holds {capacity}",
                    dirty.len()
                )));
            }
            for (i, d) in dirty.iter().enumerate() {
                let rect = relief_dirty_rect {
                    level: d.level,
                    x: d.x,
                    z: d.z,
                    width: d.width,
                    depth: d.depth,
                };
                // SAFETY: the caller's buffer holds `capacity` ≥ dirty.len() rects of
                // `rect_size` bytes.
                unsafe { write_element(rects, rect_size, i, &rect) };
            }
        }
        // SAFETY: checked non-NULL.
        unsafe { *out_count = dirty.len() };
        Ok(())
    })
}

/// Fills `*out_level` (its `struct_size` set) with level `level`'s view; valid until the
/// next update or destroy. Errors: INVALID_ARGUMENT (NULL arguments, a `struct_size` this
/// relief doesn't read, `level` ≥ the level count, a runtime made with
/// RELIEF_RUNTIME_NO_LEVELS). Threads: as `relief_runtime_update`.
///
/// # Safety
/// `runtime` NULL or live; `out_level` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_level(
    runtime: *const relief_runtime,
    level: u32,
    out_level: *mut relief_level_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_level";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_level", out_level.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { super::sized::check_size(what, out_level) }?;
        let rt = r.runtime.lock();
        let lod = rt
            .lod()
            .ok_or_else(|| Failure::invalid(format!("{what}: this runtime keeps no levels")))?;
        let cm = lod.clipmap();
        let count = cm.config().levels;
        if level >= count {
            return Err(Failure::invalid(format!(
                "{what}: level {level} is out of range (the runtime keeps {count})"
            )));
        }
        let l = cm.level(level as usize);
        let origin = l.origin();
        let plane = lod.plane();
        let view = relief_level_view {
            struct_size: std::mem::size_of::<relief_level_view>() as u32,
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
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_level, view) }
    })
}
