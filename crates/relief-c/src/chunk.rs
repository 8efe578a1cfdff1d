//! `relief_chunk`: an acquired collision chunk, and `relief_chunk_view`, its heightfield read
//! in place; and which chunk covers a point.

use relief::glam::DVec3;

use super::runtime::relief_runtime;
use super::sized::{grows_zeroed, write_out};
use super::{ffi_guard, finite, handle, into_handle, relief_status, require, Failure};
use relief::runtime::{ChunkLookup, Heightfield};

/// A built collision chunk held in memory: its heights stay valid until
/// `relief_chunk_release`, even if the chunk is dropped or the runtime destroyed. Opaque.
pub struct relief_chunk {
    /// What keeps the heights alive.
    _chunk: Heightfield,
    view: relief_chunk_view,
}

/// A held chunk's heightfield, read in place. Frames are right-handed, Y up, in metres.
///
/// Layout: `samples × samples` heights, sample (i, j) at index `j·samples + i` — i along
/// `axis_x` (fastest), j along `axis_z` — NaN where the ground has a hole. Sample (i, j) lies
/// at `origin + (corner_x + i·spacing)·axis_x + height·up + (corner_z + j·spacing)·axis_z`.
/// On a flat world the frame is the world's (origin 0, axes X, Y, Z), so that is world
/// (`corner_x + i·spacing`, height, `corner_z + j·spacing`), and `height` is what
/// `relief_terrain_height` answers there, bit for bit, at every edge and corner of regions
/// and of the world, wherever it reads resident regions. On a planet the frame is the
/// chunk's own tangent frame, and each height is solved along `up` so that the point is on
/// the ground: its distance from the centre is the radius plus `relief_planet_terrain_height`
/// there, within 1 cm (plus the f32 rounding of heights past 131 km, which only chunks
/// hundreds of kilometres wide reach; a sample no solve can place is a hole). Between
/// samples the engine's two triangles per cell stand in for the ground.
///
/// Coverage: flat chunk (x, z) covers `[x·size, (x+1)·size]` metres (size =
/// `(samples − 1)·spacing`), likewise z; neighbours share their edge samples exactly. Rows
/// past the world's first or last sample (its far edge, or a chunk reaching past the world
/// when the size does not divide it) repeat the edge samples. Planet chunk (face, x, z)
/// covers face cells `[x·C, (x+1)·C] × [z·C, (z+1)·C]` (C = `samples − 1`); its square is a
/// little larger than that footprint so neighbours overlap rather than leave gaps.
///
/// Holes and engines (docs/c-api.md, "Collision chunks"): Godot's HeightMapShape3D takes
/// NaN as no collision under Jolt; Jolt used directly wants `FLT_MAX`
/// (`HeightFieldShapeConstants::cNoCollisionValue`) in place of NaN; PhysX wants a hole
/// material on the cell's triangles and its rows along X (transpose); Unity's TerrainData a
/// hole mask per cell.
///
/// A plain struct borrowed from its `relief_chunk`: copy it freely; its pointer is valid until
/// that chunk is released, whatever the runtime does meanwhile. Set `struct_size` first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct relief_chunk_view {
    /// sizeof(relief_chunk_view), set by the caller.
    pub struct_size: u32,
    /// The cube face of a planet chunk; 0 on flat worlds.
    pub face: u32,
    /// Chunk index: on a flat world the chunk covers x in `[x·size, (x+1)·size]` metres,
    /// likewise z.
    pub x: i32,
    pub z: i32,
    /// Samples per side (cells + 1: 65 for 64 m at 1 m).
    pub samples: u32,
    /// Lowest and highest non-hole height (both 0 if every sample is a hole).
    pub min_height: f32,
    pub max_height: f32,
    /// Metres between samples: scale the shape's X and Z by this.
    pub spacing: f64,
    /// Frame (x, z) of the centre: where Godot's HeightMapShape3D goes.
    pub centre_x: f64,
    pub centre_z: f64,
    /// Frame (x, z) of sample (0, 0): Jolt's HeightFieldShape offset.
    pub corner_x: f64,
    pub corner_z: f64,
    /// `samples²` heights, in metres along `up` from the frame's origin: on a planet, the
    /// height above the chunk's tangent plane at `origin`, not above the sea-level sphere.
    pub heights: *const f32,
    /// The frame: origin (planet frame, metres) and unit axes; `axis_z = axis_x × up`.
    pub origin: [f64; 3],
    pub axis_x: [f64; 3],
    pub up: [f64; 3],
    pub axis_z: [f64; 3],
    /// `(samples − 1)²` bytes, one per cell: what the ground is made of, for a physics
    /// material or a footstep sound. Cell (i, j), between samples (i, j) and (i+1, j+1), is
    /// at `j·(samples − 1) + i` (Jolt's `inMaterialIndices` order). On a flat world, the
    /// Terrain3D texture slot (0–31) that shows most at sample (i, j): the control word's
    /// overlay where its blend is 128 or more, else its base (0 where the world has no control
    /// map; Terrain3D's autoshader, where on, picks by slope instead). On a planet, the
    /// ground class at the cell's centre, named by `relief_planet_get_biome_name`. Added in
    /// 0.2.1 (a 0.2.0 caller's smaller struct ends before it).
    pub materials: *const u8,
}

grows_zeroed!(relief_chunk_view = 176);

/// Holds built collision chunk (face, x, z) (face 0 on flat worlds) and writes a new handle
/// to `*out_chunk` (free with `relief_chunk_release`). Errors: INVALID_ARGUMENT (NULL
/// `runtime`/`out_chunk`, a runtime made with RELIEF_RUNTIME_NO_COLLISION, a face other than
/// 0 on a flat world or ≥ 6 on a planet), NOT_FOUND (not built: wait for its CHUNK_READY
/// event; or dropped by an update since that event — its CHUNK_DROPPED follows in the queue,
/// so skip it). On failure `*out_chunk` is untouched. Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `out_chunk` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_acquire_chunk(
    runtime: *const relief_runtime,
    face: u32,
    x: i32,
    z: i32,
    out_chunk: *mut *mut relief_chunk,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_acquire_chunk";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        require(what, &[("out_chunk", out_chunk.is_null())])?;
        let held = hold(what, lookup(what, r)?, face, x, z)?;
        // SAFETY: checked non-NULL.
        unsafe { *out_chunk = into_handle(held) };
        Ok(())
    })
}

/// Fills `*out_view` (its `struct_size` set) with the held chunk's heightfield. Errors:
/// INVALID_ARGUMENT (NULL arguments, a `struct_size` this relief doesn't read); `*out_view`
/// is untouched on failure. Threads: any.
///
/// # Safety
/// `chunk` NULL or live; `out_view` NULL or writable for its `struct_size`.
#[no_mangle]
pub unsafe extern "C" fn relief_chunk_get_view(
    chunk: *const relief_chunk,
    out_view: *mut relief_chunk_view,
) -> relief_status {
    ffi_guard!({
        let what = "relief_chunk_get_view";
        // SAFETY: forwarded contract.
        let c = unsafe { handle(what, chunk) }?;
        require(what, &[("out_view", out_view.is_null())])?;
        // SAFETY: non-NULL, forwarded contract.
        unsafe { write_out(what, out_view, c.view) }
    })
}

/// Lets go of a held chunk. NULL is a no-op. Threads: any.
///
/// # Safety
/// `chunk` NULL or a live handle, not used again (nor any view of it).
#[no_mangle]
pub unsafe extern "C" fn relief_chunk_release(chunk: *mut relief_chunk) {
    // SAFETY: forwarded contract.
    unsafe { super::destroy_handle(chunk) }
}

/// Writes the collision chunk containing `position` (3 doubles: world metres on a flat world,
/// the planet frame on a planet) to `*out_face`, `*out_x`, `*out_z` (face 0 on flat worlds),
/// whether or not it is built. Errors: INVALID_ARGUMENT (NULL arguments, a non-finite
/// position or a planet's centre, a runtime made with RELIEF_RUNTIME_NO_COLLISION).
/// Threads: any.
///
/// # Safety
/// `runtime` NULL or live; `position` NULL or 3 readable doubles; out-pointers NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn relief_runtime_chunk_at(
    runtime: *const relief_runtime,
    position: *const f64,
    out_face: *mut u32,
    out_x: *mut i32,
    out_z: *mut i32,
) -> relief_status {
    ffi_guard!({
        let what = "relief_runtime_chunk_at";
        // SAFETY: forwarded contract.
        let r = unsafe { handle(what, runtime) }?;
        let lookup = lookup(what, r)?;
        require(
            what,
            &[
                ("position", position.is_null()),
                ("out_face", out_face.is_null()),
                ("out_x", out_x.is_null()),
                ("out_z", out_z.is_null()),
            ],
        )?;
        // SAFETY: non-NULL; 3 doubles promised.
        let p = unsafe {
            [
                position.read(),
                position.add(1).read(),
                position.add(2).read(),
            ]
        };
        finite(what, &p)?;
        let id = lookup
            .key_at(DVec3::from(p))
            .ok_or_else(|| Failure::invalid(format!("{what}: the planet's centre has no chunk")))?;
        let (face, x, z) = id.face_x_z();
        // SAFETY: checked non-NULL.
        unsafe {
            *out_face = face;
            *out_x = x;
            *out_z = z;
        }
        Ok(())
    })
}

/// The runtime's chunk lookup, or an error if it builds no collision.
fn lookup<'a>(what: &str, r: &'a relief_runtime) -> Result<&'a ChunkLookup, Failure> {
    r.chunks
        .as_ref()
        .ok_or_else(|| Failure::invalid(format!("{what}: this runtime builds no collision")))
}

/// Holds built chunk (face, x, z).
fn hold(
    what: &str,
    lookup: &ChunkLookup,
    face: u32,
    x: i32,
    z: i32,
) -> Result<relief_chunk, Failure> {
    let id = lookup.id(face, x, z).ok_or_else(|| {
        Failure::invalid(match lookup {
            ChunkLookup::Flat { .. } => format!("{what}: flat worlds have only face 0"),
            ChunkLookup::Planet { .. } => format!("{what}: no chunk ({face}, {x}, {z})"),
        })
    })?;
    let chunk = lookup.get(id).ok_or_else(|| Failure {
        status: super::RELIEF_STATUS_NOT_FOUND,
        message: format!("{what}: chunk ({face}, {x}, {z}) is not built"),
    })?;
    let (min_height, max_height) = chunk.height_range();
    let (centre, corner, f) = (chunk.centre(), chunk.corner(), chunk.frame());
    let view = relief_chunk_view {
        struct_size: std::mem::size_of::<relief_chunk_view>() as u32,
        face,
        x,
        z,
        samples: chunk.samples(),
        min_height,
        max_height,
        spacing: chunk.spacing(),
        centre_x: centre[0],
        centre_z: centre[1],
        corner_x: corner[0],
        corner_z: corner[1],
        heights: chunk.heights().as_ptr(),
        origin: f.origin.to_array(),
        axis_x: f.axis_x.to_array(),
        up: f.up.to_array(),
        axis_z: f.axis_z.to_array(),
        materials: chunk.materials().as_ptr(),
    };
    Ok(relief_chunk {
        _chunk: chunk,
        view,
    })
}
