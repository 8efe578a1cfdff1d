//! `relief_terrain`: questions about a flat world's ground, from any thread, while the
//! runtime runs.

use super::runtime::relief_runtime;
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};
use relief::flat::terrain::{Origin, Terrain};
use relief::reach::ReachKind;
use relief::runtime::Streamed;

/// Queries over a runtime's world and resident regions. Opaque. Every query is safe to call
/// from any number of threads at once, alongside the runtime's own updates.
pub struct relief_terrain {
    pub(crate) terrain: Terrain,
}

/// What answered a query.
pub type relief_origin = u32;
/// A resident region's samples: full precision.
pub const RELIEF_ORIGIN_REGION: relief_origin = 0;
/// The overview (coarse heights): no region covering the point is resident.
pub const RELIEF_ORIGIN_OVERVIEW: relief_origin = 1;
/// Outside the world: the overview's nearest edge (NaN for a non-finite position).
pub const RELIEF_ORIGIN_OUTSIDE: relief_origin = 2;

fn origin_code(o: Origin) -> relief_origin {
    match o {
        Origin::Region(_) => RELIEF_ORIGIN_REGION,
        Origin::Overview => RELIEF_ORIGIN_OVERVIEW,
        Origin::Outside => RELIEF_ORIGIN_OUTSIDE,
    }
}

/// The sample nearest a point, decoded. `found` is 0 (and the rest zero) where no resident
/// region covers the point. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_ground {
    /// sizeof(relief_ground), set by the caller.
    pub struct_size: u32,
    pub found: u32,
    /// The Terrain3D control word, and its fields decoded.
    pub control: u32,
    pub base_texture: u8,
    pub overlay_texture: u8,
    pub blend: u8,
    pub uv_rotation: u8,
    pub uv_scale: u8,
    /// 1 or 0.
    pub hole: u8,
    pub navigation: u8,
    pub autoshader: u8,
    /// Biome id (index into the world's biomes) if `has_biome`.
    pub has_biome: u32,
    pub biome: u32,
    /// Lake id if `has_lake` (0 = no lake).
    pub has_lake: u32,
    pub lake: u32,
    /// The region that answered.
    pub region_x: i32,
    pub region_z: i32,
}

/// A river reach's kind.
pub type relief_reach_kind = u32;
pub const RELIEF_REACH_CREEK: relief_reach_kind = 0;
pub const RELIEF_REACH_RIVER: relief_reach_kind = 1;

/// The nearest river reach. `found` is 0 (and the rest zero) when none is within the radius.
/// Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_river {
    /// sizeof(relief_river), set by the caller.
    pub struct_size: u32,
    pub found: u32,
    /// Reach id in the world's rivers table.
    pub reach: u32,
    /// Nearest centreline point, world metres.
    pub nearest_x: f64,
    pub nearest_z: f64,
    pub kind: relief_reach_kind,
    /// 1 if the point is in the water (within half the width of the centreline).
    pub has_water: u32,
    /// Channel width at the nearest point, distance to the centreline, and bed height there,
    /// metres.
    pub width_m: f32,
    pub distance_m: f32,
    pub bed_m: f32,
}

/// The lake containing a point, else the nearest within the radius. `found` is 0 (and the
/// rest zero) when there is none. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_lake {
    /// sizeof(relief_lake), set by the caller.
    pub struct_size: u32,
    pub found: u32,
    /// Lake id in the world's lakes table.
    pub lake: u32,
    /// 1 if the point is inside the lake.
    pub inside: u32,
    /// Water level, metres.
    pub level_m: f32,
    /// 0 inside, else the distance to the shore, metres.
    pub distance_m: f32,
}

/// Creates a query handle over a flat world's runtime, (free with `relief_terrain_destroy`; it may
/// outlive the runtime): it answers from what the runtime has resident, from any thread. Errors: INVALID_ARGUMENT (NULL
/// arguments, a planet's runtime). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_terrain` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_create_terrain(
    runtime: *const relief_runtime,
    out_terrain: *mut *mut relief_terrain,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_create_terrain";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { create_terrain(what, &r.streamed, out_terrain) }
    })
}

/// Frees a terrain. NULL is a no-op. Threads: any, once no other thread uses the handle.
///
/// # Safety
/// `terrain` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_destroy(terrain: *mut relief_terrain) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(terrain) }
}

/// Height at world (x, z), metres: bilinear between the four surrounding samples, continuous
/// across region edges; from the overview where a region isn't resident. Writes the height to
/// `*out_height` and what answered to `*out_origin` (a `RELIEF_ORIGIN_*`; NULL to skip).
/// Errors: INVALID_ARGUMENT (NULL `terrain`/`out_height`). A non-finite position is not an
/// error: it gives NaN with origin OUTSIDE. Threads: any.
///
/// # Safety
/// `terrain` NULL or live; out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_height(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    out_height: *mut f32,
    out_origin: *mut relief_origin,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_height";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_height", out_height.is_null())])?;
        let h = t.height(x, z);
        // SAFETY: checked non-NULL; `out_origin` optional.
        unsafe {
            *out_height = h.height;
            if !out_origin.is_null() {
                *out_origin = origin_code(h.origin);
            }
        }
        Ok(())
    })
}

/// Heights for `point_count` points: `xz` holds `2 × point_count` doubles (x0, z0, x1, z1, …)
/// and `out_heights` room for `capacity ≥ point_count` floats. Takes the resident map's lock
/// once, so it is much faster than one call per point. Writes how many came from resident
/// regions (the rest from the overview) to `*out_from_regions` (NULL to skip).
/// `(NULL, 0)` buffers are valid with `point_count` 0. Errors: INVALID_ARGUMENT (NULL
/// `terrain`, NULL buffer with a non-zero length, `capacity < point_count`); nothing is
/// written on failure. Threads: any.
///
/// # Safety
/// `xz` readable for `2 × point_count` doubles; `out_heights` writable for `capacity` floats.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_heights(
    terrain: *const relief_terrain,
    xz: *const f64,
    point_count: usize,
    out_heights: *mut f32,
    capacity: usize,
    out_from_regions: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_heights";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let (points, out) =
            unsafe { super::batch::<2>(what, xz, point_count, out_heights, capacity, 1) }?;
        let n = t.heights(points, out);
        if !out_from_regions.is_null() {
            // SAFETY: non-NULL; the caller promises writable.
            unsafe { *out_from_regions = n };
        }
        Ok(())
    })
}

/// Unit surface normal at world (x, z) (y up), from central differences of the height at the
/// answering data's spacing, written as 3 floats (x, y, z) to `out_normal`; what answered to
/// `*out_origin` (NULL to skip). Errors: INVALID_ARGUMENT (NULL `terrain`/`out_normal`).
/// Threads: any.
///
/// # Safety
/// `out_normal` NULL or writable for 3 floats.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_normal(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    out_normal: *mut f32,
    out_origin: *mut relief_origin,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_normal";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_normal", out_normal.is_null())])?;
        let (n, origin) = t.normal(x, z);
        // SAFETY: checked non-NULL, 3 floats promised; `out_origin` optional.
        unsafe {
            std::ptr::copy_nonoverlapping(n.to_array().as_ptr(), out_normal, 3);
            if !out_origin.is_null() {
                *out_origin = origin_code(origin);
            }
        }
        Ok(())
    })
}

/// Normals for `point_count` points: `xz` as in `relief_terrain_heights`, `out_normals` room
/// for `capacity ≥ 3 × point_count` floats (x, y, z per point). Errors: INVALID_ARGUMENT
/// (NULL `terrain`, NULL buffer with a non-zero length, `capacity` too small); nothing is
/// written on failure. Threads: any.
///
/// # Safety
/// `xz` readable for `2 × point_count` doubles; `out_normals` writable for `capacity` floats.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_normals(
    terrain: *const relief_terrain,
    xz: *const f64,
    point_count: usize,
    out_normals: *mut f32,
    capacity: usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_normals";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let (points, out) =
            unsafe { super::batch::<2>(what, xz, point_count, out_normals, capacity, 3) }?;
        for (p, n) in points.iter().zip(out.chunks_exact_mut(3)) {
            n.copy_from_slice(&t.normal(p[0], p[1]).0.to_array());
        }
        Ok(())
    })
}

/// The sample nearest world (x, z), decoded (control word, biome, lake), into `*out_ground`;
/// `found` is 0 where no resident region covers the point. Errors: INVALID_ARGUMENT (NULL
/// arguments, unknown `struct_size`); `*out_ground` is untouched on failure. Threads: any.
///
/// # Safety
/// `out_ground` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_ground(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    out_ground: *mut relief_ground,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_ground";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_ground", out_ground.is_null())])?;
        let g = t.ground(x, z).map_or_else(relief_ground::default, |g| {
            let c = g.control;
            relief_ground {
                found: 1,
                control: c.encode(),
                base_texture: c.base,
                overlay_texture: c.overlay,
                blend: c.blend,
                uv_rotation: c.uv_rotation,
                uv_scale: c.uv_scale,
                hole: c.hole as u8,
                navigation: c.navigation as u8,
                autoshader: c.autoshader as u8,
                has_biome: g.biome.is_some() as u32,
                biome: g.biome.unwrap_or(0) as u32,
                has_lake: g.lake.is_some() as u32,
                lake: g.lake.unwrap_or(0) as u32,
                region_x: g.region.x,
                region_z: g.region.z,
                ..Default::default()
            }
        });
        // SAFETY: checked non-NULL.
        unsafe { super::sized::write_out(what, out_ground, g) }?;
        Ok(())
    })
}

/// The biome id at the sample nearest world (x, z): writes 1 to `*out_found` and the id to
/// `*out_biome` where a resident region covers the point, else 0 and 0. Names come from
/// `relief_world_get_biome_name`. Errors: INVALID_ARGUMENT (NULL arguments). Threads: any.
///
/// # Safety
/// Out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_biome(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    out_found: *mut u32,
    out_biome: *mut u32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_biome";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(
            what,
            &[
                ("out_found", out_found.is_null()),
                ("out_biome", out_biome.is_null()),
            ],
        )?;
        let b = t.biome(x, z);
        // SAFETY: checked non-NULL.
        unsafe {
            *out_found = b.is_some() as u32;
            *out_biome = b.map_or(0, |(id, _)| id as u32);
        }
        Ok(())
    })
}

/// The river reach nearest world (x, z) within `radius` metres, into `*out_river`. Answered
/// from the rivers table, so it works with nothing resident. Errors: INVALID_ARGUMENT (NULL
/// arguments, unknown `struct_size`, a negative or non-finite radius); `*out_river` is
/// untouched on failure. Threads: any.
///
/// # Safety
/// `out_river` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_river(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    radius: f64,
    out_river: *mut relief_river,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_river";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_river", out_river.is_null())])?;
        check_radius(what, radius)?;
        let r = t
            .river(x, z, radius)
            .map_or_else(relief_river::default, |r| relief_river {
                found: 1,
                reach: r.reach,
                nearest_x: r.nearest[0],
                nearest_z: r.nearest[1],
                kind: match r.kind {
                    ReachKind::Creek => RELIEF_REACH_CREEK,
                    ReachKind::River => RELIEF_REACH_RIVER,
                },
                has_water: r.has_water as u32,
                width_m: r.width_m,
                distance_m: r.distance_m,
                bed_m: r.bed_m,
                ..Default::default()
            });
        // SAFETY: checked non-NULL.
        unsafe { super::sized::write_out(what, out_river, r) }?;
        Ok(())
    })
}

/// The lake containing world (x, z), else the nearest whose shore is within `radius` metres,
/// into `*out_lake`. Works with nothing resident. Errors: INVALID_ARGUMENT (NULL arguments,
/// unknown `struct_size`, a negative or non-finite radius); `*out_lake` is untouched on
/// failure. Threads: any.
///
/// # Safety
/// `out_lake` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_terrain_lake(
    terrain: *const relief_terrain,
    x: f64,
    z: f64,
    radius: f64,
    out_lake: *mut relief_lake,
) -> relief_status {
    ffi_guard!({
        let what = "relief_terrain_lake";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_lake", out_lake.is_null())])?;
        check_radius(what, radius)?;
        let l = t
            .lake(x, z, radius)
            .map_or_else(relief_lake::default, |l| relief_lake {
                found: 1,
                lake: l.lake,
                inside: l.inside as u32,
                level_m: l.level_m,
                distance_m: l.distance_m,
                ..Default::default()
            });
        // SAFETY: checked non-NULL.
        unsafe { super::sized::write_out(what, out_lake, l) }?;
        Ok(())
    })
}

pub(crate) fn check_radius(what: &str, radius: f64) -> Result<(), Failure> {
    finite(what, &[radius])?;
    if radius < 0.0 {
        return Err(Failure::invalid(format!(
            "{what}: radius {radius} is negative"
        )));
    }
    Ok(())
}

/// A query handle over a flat world's regions, for `relief_runtime_create_terrain`.
///
/// # Safety
/// `out_terrain` NULL or writable.
pub(crate) unsafe fn create_terrain(
    what: &str,
    streamed: &Streamed,
    out_terrain: *mut *mut relief_terrain,
) -> Result<(), Failure> {
    require(what, &[("out_terrain", out_terrain.is_null())])?;
    let (world, resident) = super::runtime::flat(what, streamed)?;
    let terrain = Terrain::new(world.clone(), resident.clone());
    // SAFETY: checked non-NULL.
    unsafe { *out_terrain = into_handle(relief_terrain { terrain }) };
    Ok(())
}

super::sized::grows_zeroed!(relief_ground = 44, relief_river = 56, relief_lake = 24);
