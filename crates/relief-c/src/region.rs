//! `relief_region_view`: zero-copy pointers into a resident region's maps.

use std::ffi::c_void;
use std::sync::Arc;

use super::streamer::relief_streamer;
use super::{ffi_guard, handle, relief_status, require, Failure};
use relief::flat::{Region, RegionLocation};
use relief::runtime::Streamed;

/// A resident region's maps, read in place. Every map is `size × size` samples, row-major with
/// X fastest (Terrain3D's layout): sample (i, j) is at index `j * size + i`, at world
/// (`origin_x + i * vertex_spacing`, `origin_z + j * vertex_spacing`). Maps the world doesn't
/// carry are NULL. The pointers stay valid, and the data unchanged, until
/// `relief_region_release` — even if the region unloads or the streamer is destroyed.
/// Zero it and set `struct_size` before the first acquire; never copy it (a copy released
/// twice frees twice).
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
    /// relief's; NULL when the view holds nothing.
    pub token: *mut c_void,
}

impl Default for relief_region_view {
    fn default() -> Self {
        relief_region_view {
            struct_size: std::mem::size_of::<relief_region_view>() as u32,
            x: 0,
            z: 0,
            size: 0,
            vertex_spacing: 0.0,
            origin_x: 0.0,
            origin_z: 0.0,
            height: std::ptr::null(),
            control: std::ptr::null(),
            color: std::ptr::null(),
            biome: std::ptr::null(),
            lake: std::ptr::null(),
            token: std::ptr::null_mut(),
        }
    }
}

/// Acquires a view of the resident region at location (x, z), holding it in memory until
/// `relief_region_release(view)`. Acquiring the same region twice gives two views, each
/// released on its own.
///
/// Errors: INVALID_ARGUMENT (NULL `streamer`/`view`, unknown `struct_size`, `view` still
/// holding an unreleased region), NOT_FOUND (the region is not resident: wait for its LOADED
/// event). On failure `*view` is untouched. Threads: any.
///
/// # Safety
/// `streamer` NULL or live; `view` NULL or a writable `relief_region_view`.
#[no_mangle]
pub unsafe extern "C" fn relief_region_acquire(
    streamer: *const relief_streamer,
    x: i32,
    z: i32,
    view: *mut relief_region_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_region_acquire";
        // SAFETY: forwarded contract.
        let s = unsafe { handle(what, streamer) }?;
        // SAFETY: forwarded contract.
        unsafe { acquire_region(what, &s.streamed, x, z, view) }
    })
}

/// Releases what `view` holds and clears it (its pointers become NULL), so releasing twice,
/// a cleared view, or NULL, is a no-op. Threads: any.
///
/// # Safety
/// `view` NULL or a view filled by `relief_region_acquire` (or zeroed).
#[no_mangle]
pub unsafe extern "C" fn relief_region_release(view: *mut relief_region_view) {
    let _ = ffi_guard!({
        if view.is_null() {
            return Ok(());
        }
        // SAFETY: non-NULL; the caller promises a view.
        let v = unsafe { view.read_unaligned() };
        if !v.token.is_null() {
            // SAFETY: the token came from Box<Arc<Region>> in relief_region_acquire, once.
            drop(unsafe { Box::from_raw(v.token.cast::<Arc<Region>>()) });
        }
        let cleared = relief_region_view {
            struct_size: v.struct_size,
            ..Default::default()
        };
        // SAFETY: as above.
        unsafe { view.write_unaligned(cleared) };
        Ok(())
    });
}

/// `relief_region_acquire` on any holder of a flat world's regions.
///
/// # Safety
/// `view` NULL or a writable `relief_region_view`.
pub(crate) unsafe fn acquire_region(
    what: &str,
    streamed: &Streamed,
    x: i32,
    z: i32,
    view: *mut relief_region_view,
) -> Result<(), Failure> {
    require(what, &[("view", view.is_null())])?;
    // SAFETY: non-NULL.
    if !unsafe { super::read_sized(what, view) }?.token.is_null() {
        return Err(Failure::invalid(format!(
            "{what}: the view still holds a region; release it first"
        )));
    }
    let (world, resident) = super::streamer::flat(what, streamed)?;
    let loc = RegionLocation::new(x, z);
    let region: Arc<Region> = resident.read().get(&loc).cloned().ok_or(Failure {
        status: super::RELIEF_STATUS_NOT_FOUND,
        message: format!("{what}: region ({x}, {z}) is not resident"),
    })?;
    let m = world.manifest();
    let extent = m.vertex_spacing * m.region_size as f64;
    let filled = relief_region_view {
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
        token: Box::into_raw(Box::new(region)).cast(),
    };
    // SAFETY: checked non-NULL and of our size.
    unsafe { view.write_unaligned(filled) };
    Ok(())
}
