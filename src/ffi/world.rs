//! `relief_world`: an opened world directory.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use super::{ffi_guard, relief_status, Failure};
use crate::world::World;

/// An opened flat world (manifest, overview and tables in memory). Opaque.
pub struct relief_world {
    pub(crate) world: Arc<World>,
}

/// What `relief_world_get_info` reports. Set `struct_size = sizeof(relief_world_info)` before the
/// call: relief writes only the fields a struct of that size has, so callers built against an
/// older or newer header both work.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct relief_world_info {
    /// sizeof(relief_world_info) as the caller knows it; at least the size of version 1.
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
    /// Lowest and highest height of any sample, and the sea level, metres.
    pub height_min: f32,
    pub height_max: f32,
    pub sea_level: f32,
    /// Regions present, river reaches, lakes and biomes.
    pub region_count: u32,
    pub reach_count: u32,
    pub lake_count: u32,
    pub biome_count: u32,
}

/// Opens the world directory at `path` (NUL-terminated UTF-8): reads its manifest, overview
/// and tables and checks them; regions are read later, by streaming.
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
        if path.is_null() || out_world.is_null() {
            return Err(Failure::invalid(
                "relief_world_open: path and out_world must not be NULL",
            ));
        }
        // SAFETY: the caller promises a NUL-terminated string.
        let path = unsafe { CStr::from_ptr(path) }
            .to_str()
            .map_err(|_| Failure::invalid("relief_world_open: path is not UTF-8"))?;
        let world = World::open(path)?;
        let handle = Box::into_raw(Box::new(relief_world {
            world: Arc::new(world),
        }));
        // SAFETY: checked non-NULL; the caller promises it is writable.
        unsafe { *out_world = handle };
        Ok(())
    })
}

/// Frees a world from `relief_world_open`. NULL is a no-op. Streamers created from it keep
/// what they need, so they may outlive it. Threads: any, but not while another thread uses
/// this handle.
///
/// # Safety
/// `world` must be NULL or a handle from `relief_world_open` not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn relief_world_destroy(world: *mut relief_world) {
    let _ = ffi_guard!({
        if !world.is_null() {
            // SAFETY: the caller passes a live handle from relief_world_open, once.
            drop(unsafe { Box::from_raw(world) });
        }
        Ok(())
    });
}

/// Fills `*info` (whose `struct_size` the caller has set) with the world's figures.
///
/// Errors: INVALID_ARGUMENT (NULL `world` or `info`, or `struct_size` below version 1's
/// size). On failure `*info` is untouched. Threads: any.
///
/// # Safety
/// `world` must be NULL or a live handle; `info` NULL or writable for `info->struct_size`
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn relief_world_get_info(
    world: *const relief_world,
    info: *mut relief_world_info,
) -> relief_status {
    ffi_guard!({
        if world.is_null() || info.is_null() {
            return Err(Failure::invalid(
                "relief_world_get_info: world and info must not be NULL",
            ));
        }
        // SAFETY: checked non-NULL; the caller promises struct_size is readable.
        let size = unsafe { std::ptr::addr_of!((*info).struct_size).read_unaligned() } as usize;
        let ours = std::mem::size_of::<relief_world_info>();
        if size < ours {
            return Err(Failure::invalid(format!(
                "relief_world_get_info: struct_size {size} is smaller than this version's {ours}"
            )));
        }
        // SAFETY: a live handle.
        let w = unsafe { &(*world).world };
        let m = w.manifest();
        let filled = relief_world_info {
            struct_size: size as u32,
            region_size: m.region_size,
            vertex_spacing: m.vertex_spacing,
            region_min_x: m.region_bounds.min[0],
            region_min_z: m.region_bounds.min[1],
            region_max_x: m.region_bounds.max[0],
            region_max_z: m.region_bounds.max[1],
            height_min: m.height_range[0],
            height_max: m.height_range[1],
            sea_level: m.sea_level,
            region_count: w.region_locations().count() as u32,
            reach_count: w.reaches().len() as u32,
            lake_count: w.lakes().len() as u32,
            biome_count: w.biomes().len() as u32,
        };
        // A newer caller's larger struct keeps its extra fields; we write only ours.
        // SAFETY: info is writable for at least `ours` bytes (size >= ours).
        unsafe { info.write_unaligned(filled) };
        Ok(())
    })
}
