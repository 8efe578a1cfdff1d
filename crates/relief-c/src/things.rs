//! `relief_things`: an acquired chunk of placed things, and `relief_things_view`, its
//! instances read in place in the layouts engines take; the kinds of thing a world has; and
//! the things near a point.

use std::ffi::c_char;
use std::mem::offset_of;

use relief::glam::DVec3;
use relief::runtime::ThingHit;
use relief::things::{Band, Collider, KindRun, ThingChunk, ThingKey};

use super::events::{relief_band, RELIEF_BAND_FAR, RELIEF_BAND_MID, RELIEF_BAND_NEAR};
use super::runtime::relief_runtime;
use super::sized::{check_elements, grows_zeroed, write_element, write_out};
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};

/// The things of one kind in a chunk: `count` of them from index `start` (`kind` indexes
/// the world's kinds, `relief_runtime_get_thing_kind`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct relief_thing_run {
    pub kind: u32,
    pub start: u32,
    pub count: u32,
}

/// Thing shape codes (`relief_thing_collider.shape`, `relief_thing_kind.shape`).
pub type relief_shape = u32;
/// No collision.
pub const RELIEF_SHAPE_NONE: relief_shape = 0;
/// `dims`: radius, total height (caps included), 0; along the transform's Y.
pub const RELIEF_SHAPE_CAPSULE: relief_shape = 1;
/// `dims`: radius, 0, 0.
pub const RELIEF_SHAPE_SPHERE: relief_shape = 2;
/// `dims`: half extents along the transform's X, Y and Z.
pub const RELIEF_SHAPE_BOX: relief_shape = 3;

/// One thing's collision shape, sized by the thing's scale: `transform` is a 3 × 4
/// row-major matrix (rotation only, no scale; the shape's centre as its origin, in the
/// chunk's frame, see `relief_things_view.origin`): Godot's `Transform3D` for
/// `body_add_shape`, a Unity collider's rotation and position.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_thing_collider {
    /// The thing's index in the chunk.
    pub thing: u32,
    pub shape: relief_shape,
    pub dims: [f32; 3],
    pub transform: [f32; 12],
}

// The core lays its runs and colliders out as these structs; views point at them in place.
const _: () = {
    use std::mem::size_of;
    assert!(size_of::<relief_thing_run>() == size_of::<KindRun>());
    assert!(offset_of!(relief_thing_run, kind) == offset_of!(KindRun, kind));
    assert!(offset_of!(relief_thing_run, start) == offset_of!(KindRun, start));
    assert!(offset_of!(relief_thing_run, count) == offset_of!(KindRun, count));
    assert!(size_of::<relief_thing_collider>() == size_of::<Collider>());
    assert!(offset_of!(relief_thing_collider, thing) == offset_of!(Collider, thing));
    assert!(offset_of!(relief_thing_collider, shape) == offset_of!(Collider, shape));
    assert!(offset_of!(relief_thing_collider, dims) == offset_of!(Collider, dims));
    assert!(offset_of!(relief_thing_collider, transform) == offset_of!(Collider, transform));
};

/// A placed chunk of things held in memory: its arrays stay valid until
/// `relief_things_release`, even if the chunk is dropped or the runtime destroyed. Opaque.
pub struct relief_things {
    _chunk: std::sync::Arc<ThingChunk>,
    view: relief_things_view,
}

/// A held thing chunk, read in place. Things come in runs of one kind (`runs`, in kind
/// order); thing `i`'s arrays are at index `i` of each. Positions and transforms are relative
/// to `origin` (0, 0, 0 on a flat world: world metres; on a planet the point on the sea-level
/// sphere under the chunk's centre, and transforms in the planet's frame, each thing's up
/// along its local vertical or its ground's normal).
///
/// Layouts, `count` things each:
/// - `rows`: 12 floats a thing, its 3 × 4 transform row-major (`basis.x.x, basis.y.x,
///   basis.z.x, origin.x`, then y, then z), basis scaled: Godot's MultiMesh buffer for a
///   TRANSFORM_3D mesh without colors or custom data. `rows + 12 · run.start` is a run's
///   buffer, `12 · run.count` floats.
/// - `matrices`: 16 floats a thing, the same transform as a Unity `Matrix4x4` (column-major,
///   bottom row 0, 0, 0, 1): `Graphics.RenderMeshInstanced`'s instance data.
/// - `ids`: stable for a given world (drawn from its seed, the kind's name and the place).
///
/// Set `struct_size` first; the pointers are valid until the chunk is released.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_things_view {
    /// sizeof(relief_things_view), set by the caller.
    pub struct_size: u32,
    pub band: relief_band,
    /// The chunk: on a flat world it covers x in `[x·size, (x+1)·size)` metres of its band's
    /// chunk size, likewise z, face 0; on a planet chunk (x, z) of cube face `face` (0–5),
    /// each face cut into as many squares a side as make them no bigger than the size.
    pub face: u32,
    pub x: i32,
    pub z: i32,
    /// Things, runs and colliders in the chunk.
    pub count: u32,
    pub run_count: u32,
    pub collider_count: u32,
    /// What positions and transforms are relative to (metres).
    pub origin: [f64; 3],
    pub runs: *const relief_thing_run,
    pub ids: *const u64,
    /// 3 floats a thing: where it stands, on the ground.
    pub positions: *const f32,
    /// 1 float a thing: its uniform scale.
    pub scales: *const f32,
    pub rows: *const f32,
    pub matrices: *const f32,
    /// Shapes of the things whose kind has one, in thing order.
    pub colliders: *const relief_thing_collider,
}

grows_zeroed!(relief_things_view = 112);

/// A kind of thing, as the world's `things.json` states it. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_thing_kind {
    /// sizeof(relief_thing_kind), set by the caller.
    pub struct_size: u32,
    pub band: relief_band,
    /// NUL-terminated, valid while the runtime lives.
    pub name: *const c_char,
    /// The ground a thing takes, and the closest two of this kind stand, metres.
    pub footprint_m: f32,
    pub spacing_m: f32,
    /// RELIEF_SHAPE_*; `shape_dims` as `relief_thing_collider.dims` before scale;
    /// `shape_centre_m` how far up the thing's Y the shape's centre sits, before scale.
    pub shape: relief_shape,
    pub shape_dims: [f32; 3],
    pub shape_centre_m: f32,
    /// 1 if a thing's up is the ground's normal, 0 if straight up.
    pub align_to_slope: u32,
}

grows_zeroed!(relief_thing_kind = 48, relief_thing_hit = 64);

/// A thing near a point (`relief_runtime_things_within`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct relief_thing_hit {
    pub id: u64,
    pub kind: u32,
    pub band: relief_band,
    /// Its chunk (face, x, z) in its band, and its index there.
    pub face: u32,
    pub x: i32,
    pub z: i32,
    pub index: u32,
    /// Where it stands (world metres) and how far from the point: planar on a flat world,
    /// along the sea-level sphere on a planet.
    pub position: [f64; 3],
    pub distance: f64,
}

/// The band of a C value, or an error naming it.
fn band_of(what: &str, band: relief_band) -> Result<Band, Failure> {
    match band {
        RELIEF_BAND_NEAR => Ok(Band::Near),
        RELIEF_BAND_MID => Ok(Band::Mid),
        RELIEF_BAND_FAR => Ok(Band::Far),
        other => Err(Failure::invalid(format!(
            "{what}: band {other} is not a RELIEF_BAND_*"
        ))),
    }
}

/// Holds placed thing chunk (band, face, x, z) and writes a new handle to `*out_things`
/// (free with `relief_things_release`). Errors: INVALID_ARGUMENT (NULL `runtime` or
/// `out_things`, an unknown band, a face other than 0 on a flat world or beyond 5 on a
/// planet), NOT_FOUND (not placed: wait for its
/// THINGS_READY event; or dropped since — its THINGS_DROPPED follows; or the runtime places
/// no things in that band). On failure `*out_things` is untouched. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_things` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_things(
    runtime: *const relief_runtime,
    band: relief_band,
    face: u32,
    x: i32,
    z: i32,
    out_things: *mut *mut relief_things,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_things";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_things", out_things.is_null())])?;
        let band = band_of(what, band)?;
        let faces = if r.streamed.is_planet() { 6 } else { 1 };
        let face = u8::try_from(face)
            .ok()
            .filter(|f| u32::from(*f) < faces)
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "{what}: face {face}: a flat world has only face 0, a planet faces 0 to 5"
                ))
            })?;
        let key = ThingKey { band, face, x, z };
        let chunk = r.things.lookup.get(key).ok_or_else(|| Failure {
            status: super::RELIEF_STATUS_NOT_FOUND,
            message: format!("{what}: thing chunk {key:?} is not placed"),
        })?;
        let c = &chunk;
        let view = relief_things_view {
            struct_size: std::mem::size_of::<relief_things_view>() as u32,
            band: band as u32,
            face: face as u32,
            x,
            z,
            count: c.len() as u32,
            run_count: c.runs.len() as u32,
            collider_count: c.colliders.len() as u32,
            origin: c.origin,
            runs: c.runs.as_ptr().cast(),
            ids: c.ids.as_ptr(),
            positions: c.positions.as_ptr().cast(),
            scales: c.scales.as_ptr(),
            rows: c.rows.as_ptr().cast(),
            matrices: c.matrices.as_ptr().cast(),
            colliders: c.colliders.as_ptr().cast(),
        };
        let held = relief_things {
            _chunk: chunk,
            view,
        };
        // SAFETY: checked non-NULL.
        unsafe { *out_things = into_handle(held) };
        Ok(())
    })
}

/// Fills `*out_view` (its `struct_size` set) with the held chunk's things. Errors:
/// INVALID_ARGUMENT (NULL arguments, a `struct_size` this relief doesn't read); `*out_view`
/// is untouched on failure. Threads: any.
///
/// # Safety
/// `things` NULL or live; `out_view` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_things_get_view(
    things: *const relief_things,
    out_view: *mut relief_things_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_things_get_view";
        // SAFETY: forwarded contract.
        let t = unsafe { handle(what, things) }?;
        require(what, &[("out_view", out_view.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_view, t.view) }
    })
}

/// Lets go of a held thing chunk. NULL is a no-op. Threads: any.
///
/// # Safety
/// `things` NULL or a live handle, not used again (nor any view of it).
#[no_mangle]
pub unsafe extern "C" fn relief_things_release(things: *mut relief_things) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(things) }
}

/// Writes how many kinds of thing the runtime's world has (0 without a `things.json`, on a
/// planet, or with RELIEF_RUNTIME_NO_THINGS) to `*out_count`. Errors: INVALID_ARGUMENT (NULL
/// arguments). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_thing_kind_count(
    runtime: *const relief_runtime,
    out_count: *mut u32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_thing_kind_count";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_count", out_count.is_null())])?;
        // SAFETY: checked non-NULL.
        unsafe { *out_count = r.things.rules.kinds.len() as u32 };
        Ok(())
    })
}

/// Fills `*out_kind` (its `struct_size` set) with kind `kind` (below
/// `relief_runtime_thing_kind_count`): what to map to a mesh or prefab by name. Errors:
/// INVALID_ARGUMENT (NULL arguments, a `struct_size` this relief doesn't read), NOT_FOUND (no
/// such kind). Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_kind` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_get_thing_kind(
    runtime: *const relief_runtime,
    kind: u32,
    out_kind: *mut relief_thing_kind,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_get_thing_kind";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_kind", out_kind.is_null())])?;
        let held = &r.things;
        let k = held.rules.kinds.get(kind as usize).ok_or_else(|| Failure {
            status: super::RELIEF_STATUS_NOT_FOUND,
            message: format!("{what}: no kind {kind} ({} kinds)", held.rules.kinds.len()),
        })?;
        let filled = relief_thing_kind {
            struct_size: std::mem::size_of::<relief_thing_kind>() as u32,
            band: k.band as u32,
            name: held.names[kind as usize].as_ptr(),
            footprint_m: k.footprint as f32,
            spacing_m: k.spacing as f32,
            shape: k.shape.map_or(RELIEF_SHAPE_NONE, |s| s.code()),
            shape_dims: k.shape.map_or([0.0; 3], |s| s.dims()),
            shape_centre_m: k.shape_centre,
            align_to_slope: (k.align == relief::things::Align::Slope) as u32,
        };
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_kind, filled) }
    })
}

/// Finds the placed things standing within `radius` metres of `position` (3 doubles, world
/// metres; planar distance, y ignored, on a flat world; along the sea-level sphere, heights
/// apart, on a planet), nearest first, and writes up to `capacity` of them
/// into `hits` (room for `capacity` of `hit_size` bytes: pass `sizeof(relief_thing_hit)`)
/// and how many there are in all to `*out_count` (more than `capacity` when they did not all
/// fit: call again with more room; `(NULL, 0)` counts). Only things of placed chunks are
/// found (within their band's load radius). Errors: INVALID_ARGUMENT (NULL `runtime`,
/// `position` or `out_count`; a non-finite position; a negative or non-finite radius; a
/// `hit_size` this relief doesn't write; NULL `hits` with a non-zero `capacity`). Threads:
/// any.
///
/// # Safety
/// `runtime` NULL or live; `position` NULL or 3 readable doubles; `hits` NULL or writable for
/// `capacity` hits of `hit_size` bytes; `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_things_within(
    runtime: *const relief_runtime,
    position: *const f64,
    radius: f64,
    hits: *mut relief_thing_hit,
    hit_size: usize,
    capacity: usize,
    out_count: *mut usize,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_things_within";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(
            what,
            &[
                ("position", position.is_null()),
                ("out_count", out_count.is_null()),
            ],
        )?;
        check_elements::<relief_thing_hit>(what, "hit_size", hits, hit_size, capacity)?;
        // SAFETY: non-NULL; 3 doubles promised.
        let p = unsafe {
            [
                position.read(),
                position.add(1).read(),
                position.add(2).read(),
            ]
        };
        finite(what, &p)?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(Failure::invalid(format!(
                "{what}: radius must be finite and 0 or more, is {radius}"
            )));
        }
        let mut found: Vec<ThingHit> = Vec::new();
        let n = r.things.lookup.within(DVec3::from(p), radius, &mut found);
        for (i, h) in found.iter().take(capacity).enumerate() {
            let hit = relief_thing_hit {
                id: h.id,
                kind: h.kind,
                band: h.chunk.band as u32,
                face: h.chunk.face as u32,
                x: h.chunk.x,
                z: h.chunk.z,
                index: h.index,
                position: h.position.to_array(),
                distance: h.distance,
            };
            // SAFETY: element i < capacity of the caller's buffer.
            unsafe { write_element(hits, hit_size, i, &hit) };
        }
        // SAFETY: checked non-NULL.
        unsafe { *out_count = n };
        Ok(())
    })
}
