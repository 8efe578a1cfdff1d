//! `relief_region`: an acquired resident region, and `relief_region_view`, its maps read in
//! place.

use std::sync::Arc;

use super::runtime::relief_runtime;
use super::sized::{grows_zeroed, write_out};
use super::{ffi_guard, handle, into_handle, relief_status, require, Failure};
use relief::flat::{Region, RegionLocation};
use relief::runtime::Streamed;

/// A resident region held in memory: its maps stay valid, and unchanged, until
/// `relief_region_release` — even if the region unloads or the runtime is destroyed. Opaque.
pub struct relief_region {
    /// What keeps the maps alive.
    _region: Arc<Region>,
    view: relief_region_view,
}

/// A held region's maps, read in place. Every map is `size × size` samples, row-major with X
/// fastest (Terrain3D's layout): sample (i, j) is at index `j * size + i`, at world
/// (`origin_x + i * vertex_spacing`, `origin_z + j * vertex_spacing`). Maps the world doesn't
/// carry are NULL. A plain struct borrowed from its `relief_region`: copy it freely; its
/// pointers are valid until that region is released. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_region_view {
    /// sizeof(relief_region_view), set by the caller.
    pub struct_size: u32,
    /// Region location (Terrain3D's grid: the region covers `x·extent .. (x+1)·extent`).
    pub x: i32,
    pub z: i32,
    /// Samples per side.
    pub size: u32,
    /// Metres between samples.
    pub vertex_spacing: f64,
    /// World position of sample (0, 0), metres.
    pub origin_x: f64,
    pub origin_z: f64,
    /// Heights, metres: `size²` floats (Godot Image FORMAT_RF).
    pub height: *const f32,
    /// Terrain3D control words: `size²` u32 (FORMAT_RF bits), or NULL.
    pub control: *const u32,
    /// Color: `size² × 4` bytes RGBA8 (alpha: roughness, 128 neutral), or NULL.
    pub color: *const u8,
    /// Biome ids (index into the world's biomes): `size²` bytes, or NULL.
    pub biome: *const u8,
    /// Lake ids from the lakes table (0 = no lake): `size²` u16, or NULL.
    pub lake: *const u16,
}

grows_zeroed!(relief_region_view = 80);

/// Holds resident region (x, z) of a flat world's runtime and writes a new handle to
/// `*out_region` (free with `relief_region_release`). Holding the same region twice gives
/// two handles, each released on its own.
///
/// Errors: INVALID_ARGUMENT (NULL `runtime`/`out_region`, a planet's runtime), NOT_FOUND (the
/// region is not resident: wait for its LOADED event). On failure `*out_region` is untouched.
/// Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_region` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_region(
    runtime: *const relief_runtime,
    x: i32,
    z: i32,
    out_region: *mut *mut relief_region,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_region";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_region", out_region.is_null())])?;
        let held = hold(what, &r.streamed, x, z)?;
        // SAFETY: checked non-NULL.
        unsafe { *out_region = into_handle(held) };
        Ok(())
    })
}

/// Fills `*out_view` (its `struct_size` set) with the held region's maps. Errors:
/// INVALID_ARGUMENT (NULL arguments, a `struct_size` this relief doesn't read); `*out_view`
/// is untouched on failure. Threads: any.
///
/// # Safety
/// `region` NULL or live; `out_view` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_region_get_view(
    region: *const relief_region,
    out_view: *mut relief_region_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_region_get_view";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, region) }?;
        require(what, &[("out_view", out_view.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_view, r.view) }
    })
}

/// Lets go of a held region: its maps may be freed (once no other handle holds them). NULL is
/// a no-op. Threads: any.
///
/// # Safety
/// `region` NULL or a live handle, not used again (nor any view of it).
#[no_mangle]
pub unsafe extern "C" fn relief_region_release(region: *mut relief_region) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(region) }
}

/// Holds resident region (x, z) of a flat world.
fn hold(what: &str, streamed: &Streamed, x: i32, z: i32) -> Result<relief_region, Failure> {
    let (world, resident) = super::runtime::flat(what, streamed)?;
    let loc = RegionLocation::new(x, z);
    let region: Arc<Region> = resident.read().get(&loc).cloned().ok_or(Failure {
        status: super::RELIEF_STATUS_NOT_FOUND,
        message: format!("{what}: region ({x}, {z}) is not resident"),
    })?;
    let m = world.manifest();
    let extent = m.vertex_spacing * m.region_size as f64;
    let view = relief_region_view {
        struct_size: std::mem::size_of::<relief_region_view>() as u32,
        x,
        z,
        size: region.size,
        vertex_spacing: m.vertex_spacing,
        origin_x: x as f64 * extent,
        origin_z: z as f64 * extent,
        height: region.height.as_ptr(),
        control: region
            .control
            .as_ref()
            .map_or(std::ptr::null(), |l| l.as_ptr()),
        color: region
            .color
            .as_ref()
            .map_or(std::ptr::null(), |l| l.as_ptr().cast()),
        biome: region
            .biome
            .as_ref()
            .map_or(std::ptr::null(), |l| l.as_ptr()),
        lake: region
            .lake
            .as_ref()
            .map_or(std::ptr::null(), |l| l.as_ptr()),
    };
    Ok(relief_region {
        _region: region,
        view,
    })
}
