//! `relief_planet_terrain`: a planet's queries, from any thread. Positions are three doubles
//! (x, y, z) in the planet's frame, metres from its centre; only their direction matters.

use super::runtime::relief_runtime;
use super::terrain::{relief_lake, RELIEF_ORIGIN_OVERVIEW, RELIEF_ORIGIN_REGION};
use super::terrain::{relief_origin, relief_reach_kind, RELIEF_REACH_CREEK, RELIEF_REACH_RIVER};
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};
use relief::glam::DVec3;
use relief::planet::{PlanetOrigin, PlanetTerrain};
use relief::reach::ReachKind;
use relief::runtime::Streamed;

/// Queries over a runtime's planet and resident tiles. Opaque. Any number of threads may
/// query at once, alongside the runtime's updates.
pub struct relief_planet_terrain {
    terrain: PlanetTerrain,
}

/// The nearest river reach on a planet; `found` is 0 (and the rest zero) when none is within
/// the radius. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_planet_river {
    /// sizeof(relief_planet_river), set by the caller.
    pub struct_size: u32,
    pub found: u32,
    pub reach: u32,
    /// Nearest centreline point, planet frame, on the sea-level sphere.
    pub nearest: [f64; 3],
    pub kind: relief_reach_kind,
    pub has_water: u32,
    pub width_m: f32,
    pub distance_m: f32,
    pub bed_m: f32,
}

/// Reads a caller's 3-double position.
///
/// # Safety
/// `p` NULL or readable for 3 doubles.
unsafe fn read_position(what: &str, p: *const f64) -> Result<DVec3, Failure> {
    require(what, &[("position", p.is_null())])?;
    // SAFETY: non-NULL; the caller promises 3 doubles.
    let v = unsafe { [p.read(), p.add(1).read(), p.add(2).read()] };
    finite(what, &v)?;
    if v == [0.0; 3] {
        return Err(Failure::invalid(format!(
            "{what}: the planet's centre has no direction"
        )));
    }
    Ok(DVec3::from(v))
}

fn origin_code(o: PlanetOrigin) -> relief_origin {
    match o {
        PlanetOrigin::Tile(_) => RELIEF_ORIGIN_REGION,
        PlanetOrigin::Overview => RELIEF_ORIGIN_OVERVIEW,
    }
}

/// Creates a query handle over a planet's runtime, (free with
/// `relief_planet_terrain_destroy`; it may outlive the runtime): it answers from what the
/// runtime has resident, from any thread. Errors: INVALID_ARGUMENT (NULL arguments, a flat
/// world's runtime), CORRUPT (the river or lake table fails its checks). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_terrain` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_create_planet_terrain(
    runtime: *const relief_runtime,
    out_terrain: *mut *mut relief_planet_terrain,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_create_planet_terrain";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        // SAFETY: forwarded contract.
        unsafe { create_planet_terrain(what, &r.streamed, out_terrain) }
    })
}

/// Frees a planet terrain. NULL is a no-op. Threads: any, once no other thread uses it.
///
/// # Safety
/// `terrain` NULL or a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_destroy(terrain: *mut relief_planet_terrain) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(terrain) }
}

/// Writes the planet-frame position at sea level under latitude/longitude (degrees, about
/// the blob's polar axis) to `out_position` (3 doubles). Errors: INVALID_ARGUMENT (NULL
/// arguments, non-finite angles). Threads: any.
///
/// # Safety
/// `out_position` NULL or writable for 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_position_at(
    terrain: *const relief_planet_terrain,
    latitude_deg: f64,
    longitude_deg: f64,
    out_position: *mut f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_position_at";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        require(what, &[("out_position", out_position.is_null())])?;
        finite(what, &[latitude_deg, longitude_deg])?;
        let p = t.position_at(latitude_deg, longitude_deg);
        // SAFETY: checked non-NULL; 3 doubles promised.
        unsafe { std::ptr::copy_nonoverlapping(p.to_array().as_ptr(), out_position, 3) };
        Ok(())
    })
}

/// Height above the radius (metres) under `position`: bilinear over samples that may lie on
/// different faces (continuous across seams), from resident tiles, else the overview.
/// Writes it to `*out_height` and what answered to `*out_origin` (REGION for a tile,
/// OVERVIEW; NULL to skip). Errors: INVALID_ARGUMENT (NULL `terrain`/`position`/
/// `out_height`, a non-finite or zero position). Threads: any.
///
/// # Safety
/// `position` NULL or 3 readable doubles; out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_height(
    terrain: *const relief_planet_terrain,
    position: *const f64,
    out_height: *mut f32,
    out_origin: *mut relief_origin,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_height";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let p = unsafe { read_position(what, position) }?;
        require(what, &[("out_height", out_height.is_null())])?;
        let h = t.height(p);
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

/// Heights for `point_count` positions (`xyz`: 3 doubles each) into `out_heights` (room for
/// `capacity ≥ point_count`); one lock for all. Writes how many came from tiles to
/// `*out_from_tiles` (NULL to skip). `(NULL, 0)` buffers are valid with 0 points; a zero or
/// non-finite position gives NaN. Errors: INVALID_ARGUMENT (NULL `terrain`, NULL buffers with
/// lengths, `capacity < point_count`); nothing is written on failure. Threads: any.
///
/// # Safety
/// `xyz` readable for 3·`point_count` doubles; `out_heights` writable for `capacity` floats.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_heights(
    terrain: *const relief_planet_terrain,
    xyz: *const f64,
    point_count: usize,
    out_heights: *mut f32,
    capacity: usize,
    out_from_tiles: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_heights";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let (points, out) =
            unsafe { super::batch::<3>(what, xyz, point_count, out_heights, capacity, 1) }?;
        // DVec3 is three f64s in a row (repr(C)), as the points are: no copy.
        let n = t.heights(bytemuck::cast_slice(points), out);
        if !out_from_tiles.is_null() {
            // SAFETY: non-NULL; the caller promises writable.
            unsafe { *out_from_tiles = n };
        }
        Ok(())
    })
}

/// Unit surface normal (planet frame) under `position` into `out_normal` (3 floats); what
/// answered to `*out_origin` (NULL to skip). Errors: INVALID_ARGUMENT (NULL arguments, a bad
/// position). Threads: any.
///
/// # Safety
/// `position` 3 readable doubles; `out_normal` writable for 3 floats.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_normal(
    terrain: *const relief_planet_terrain,
    position: *const f64,
    out_normal: *mut f32,
    out_origin: *mut relief_origin,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_normal";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let p = unsafe { read_position(what, position) }?;
        require(what, &[("out_normal", out_normal.is_null())])?;
        let (n, o) = t.normal(p);
        // SAFETY: checked non-NULL; 3 floats promised.
        unsafe {
            std::ptr::copy_nonoverlapping(n.to_array().as_ptr(), out_normal, 3);
            if !out_origin.is_null() {
                *out_origin = origin_code(o);
            }
        }
        Ok(())
    })
}

/// The field at the sample nearest `position`, if its tile is resident: `*out_found` 1 and
/// the value, else 0 and 0. `field` is a `RELIEF_PLANET_FIELD_*`; sediment and precipitation
/// are not found on v6 planets. Errors: INVALID_ARGUMENT (NULL arguments, a bad position, an
/// unknown field). Threads: any.
///
/// # Safety
/// `position` 3 readable doubles; out-pointers NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_sample(
    terrain: *const relief_planet_terrain,
    position: *const f64,
    field: relief_planet_field,
    out_found: *mut u32,
    out_value: *mut f64,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_sample";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let p = unsafe { read_position(what, position) }?;
        require(
            what,
            &[
                ("out_found", out_found.is_null()),
                ("out_value", out_value.is_null()),
            ],
        )?;
        let v = match field {
            RELIEF_PLANET_FIELD_BIOME => t.biome(p).map(|(id, _)| id as f64),
            RELIEF_PLANET_FIELD_SEDIMENT => t.sediment(p).map(f64::from),
            RELIEF_PLANET_FIELD_PRECIPITATION => t.precipitation(p).map(f64::from),
            other => {
                return Err(Failure::invalid(format!(
                    "{what}: field {other} is not a RELIEF_PLANET_FIELD_*"
                )))
            }
        };
        // SAFETY: checked non-NULL.
        unsafe {
            *out_found = v.is_some() as u32;
            *out_value = v.unwrap_or(0.0);
        }
        Ok(())
    })
}

/// Which per-sample field `relief_planet_terrain_sample` reads.
pub type relief_planet_field = u32;
/// Biome class id.
pub const RELIEF_PLANET_FIELD_BIOME: relief_planet_field = 0;
/// Sediment thickness, metres (v7).
pub const RELIEF_PLANET_FIELD_SEDIMENT: relief_planet_field = 1;
/// Mean annual precipitation, mm (v7).
pub const RELIEF_PLANET_FIELD_PRECIPITATION: relief_planet_field = 2;

/// The river reach nearest `position` within `radius` metres, into `*out_river`; works with
/// nothing resident. Errors: INVALID_ARGUMENT (NULL arguments, unknown `struct_size`, a bad
/// position, a negative or non-finite radius); `*out_river` is untouched on failure.
/// Threads: any.
///
/// # Safety
/// `position` 3 readable doubles; `out_river` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_river(
    terrain: *const relief_planet_terrain,
    position: *const f64,
    radius: f64,
    out_river: *mut relief_planet_river,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_river";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let p = unsafe { read_position(what, position) }?;
        require(what, &[("out_river", out_river.is_null())])?;
        super::terrain::check_radius(what, radius)?;
        let r = t
            .river(p, radius)
            .map_or_else(relief_planet_river::default, |r| relief_planet_river {
                found: 1,
                reach: r.reach,
                nearest: r.nearest.to_array(),
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

/// The lake under `position` (if its tile is resident), else the nearest whose edge is within
/// `radius` metres, into `*out_lake`. Errors: INVALID_ARGUMENT (NULL arguments, unknown
/// `struct_size`, a bad position, a negative or non-finite radius); `*out_lake` is untouched
/// on failure. Threads: any.
///
/// # Safety
/// `position` 3 readable doubles; `out_lake` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_planet_terrain_lake(
    terrain: *const relief_planet_terrain,
    position: *const f64,
    radius: f64,
    out_lake: *mut relief_lake,
) -> relief_status {
    ffi_guard!({
        let what = "relief_planet_terrain_lake";
        // SAFETY: forwarded contract.
        let t = &unsafe { handle(what, terrain) }?.terrain;
        // SAFETY: forwarded contract.
        let p = unsafe { read_position(what, position) }?;
        require(what, &[("out_lake", out_lake.is_null())])?;
        super::terrain::check_radius(what, radius)?;
        let l = t
            .lake(p, radius)
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

/// A query handle over a planet's tiles, for `relief_runtime_create_planet_terrain`.
///
/// # Safety
/// `out_terrain` NULL or writable.
pub(crate) unsafe fn create_planet_terrain(
    what: &str,
    streamed: &Streamed,
    out_terrain: *mut *mut relief_planet_terrain,
) -> Result<(), Failure> {
    require(what, &[("out_terrain", out_terrain.is_null())])?;
    let (planet, resident) = super::runtime::planet(what, streamed)?;
    let terrain = PlanetTerrain::new(planet.clone(), resident.clone())?;
    // SAFETY: checked non-NULL.
    unsafe { *out_terrain = into_handle(relief_planet_terrain { terrain }) };
    Ok(())
}

super::sized::grows_zeroed!(relief_planet_river = 64);
