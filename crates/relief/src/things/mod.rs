//! Placed things: trees, rocks, bushes and grass, streamed in chunks around the focus like
//! collision, with nothing stored on disk. A world's things are a pure function of its seed,
//! its ground and its table (`things.json`, [`rules`]); [`place`] decides which stand in a
//! square, and [`ThingChunk`] lays them out as the engines take them.

pub mod chunks;
pub mod place;
pub mod rules;

use glam::DVec3;

pub use chunks::{check_band, check_chunk_size, CHUNK_M};
pub use place::{
    Rect, Rotation, Site, Sites, Spot, Square, Thing, Water, MAX_THINGS_PER_CHUNK, WATER_REACH_M,
    WORLD_FRAME,
};
pub use rules::{Align, Band, Kind, Rules, Shape, ThingsFile, THINGS_FILE};

/// A thing chunk: band, then the square's index on that band's grid (`x·size` to
/// `(x+1)·size` in world metres on a flat world; face 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThingKey {
    pub band: Band,
    pub face: u8,
    pub x: i32,
    pub z: i32,
}

/// The things of one kind in a chunk: `count` of them from index `start`. Laid out as C's
/// `relief_thing_run`, which views it in place.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRun {
    pub kind: u32,
    pub start: u32,
    pub count: u32,
}

/// One collision shape of a thing, sized by its scale. `transform` is a 3 × 4 row-major
/// matrix like [`ThingChunk::rows`], rotation only (no scale) and the shape's centre as its
/// origin: what Godot's `body_add_shape` and Unity's collider take. Laid out as C's
/// `relief_thing_collider`, which views it in place.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collider {
    /// The thing's index in the chunk.
    pub thing: u32,
    /// [`Shape::code`]: 1 capsule, 2 sphere, 3 box.
    pub shape: u32,
    /// [`Shape::dims`], scaled: capsule (radius, total height, 0), sphere (radius, 0, 0),
    /// box (half extents).
    pub dims: [f32; 3],
    pub transform: [f32; 12],
}

impl Collider {
    /// The shape and its size.
    pub fn shape(&self) -> Shape {
        Shape::from_code(self.shape, self.dims)
    }
}

/// One chunk of one band's things, ordered by kind (the table's order) and by placement
/// order within a kind. Positions are relative to `origin` (the world's origin on a flat
/// world, so every transform is in world metres).
#[derive(Clone, Debug, PartialEq)]
pub struct ThingChunk {
    pub key: ThingKey,
    pub origin: [f64; 3],
    /// Runs of one kind, in kind order; kinds with no thing here have none.
    pub runs: Vec<KindRun>,
    pub ids: Vec<u64>,
    /// Where each thing stands, relative to `origin`.
    pub positions: Vec<[f32; 3]>,
    /// Uniform scale of each.
    pub scales: Vec<f32>,
    /// Each thing's transform as Godot's MultiMesh buffer takes it: 12 floats, the 3 × 4
    /// matrix row-major (`basis.x.x, basis.y.x, basis.z.x, origin.x`, then y, then z), its
    /// basis scaled.
    pub rows: Vec<[f32; 12]>,
    /// The same transforms as Unity's `Matrix4x4` holds them: 16 floats, column-major,
    /// bottom row (0, 0, 0, 1); what `Graphics.RenderMeshInstanced` takes.
    pub matrices: Vec<[f32; 16]>,
    /// Shapes of the things whose kind has one, in thing order.
    pub colliders: Vec<Collider>,
}

impl ThingChunk {
    /// Lays out `things` (in placement order, kinds ascending) relative to `origin`.
    pub fn new(key: ThingKey, origin: DVec3, rules: &Rules, things: &[Thing]) -> ThingChunk {
        let n = things.len();
        let mut c = ThingChunk {
            key,
            origin: origin.to_array(),
            runs: Vec::new(),
            ids: Vec::with_capacity(n),
            positions: Vec::with_capacity(n),
            scales: Vec::with_capacity(n),
            rows: Vec::with_capacity(n),
            matrices: Vec::with_capacity(n),
            colliders: Vec::new(),
        };
        for (i, t) in things.iter().enumerate() {
            match c.runs.last_mut() {
                Some(r) if r.kind == t.kind as u32 => r.count += 1,
                _ => c.runs.push(KindRun {
                    kind: t.kind as u32,
                    start: i as u32,
                    count: 1,
                }),
            }
            let o = t.position - origin;
            let s = t.scale;
            let [x, y, z] = t.axes.map(|a| a * s);
            c.ids.push(t.id);
            c.positions.push(o.as_vec3().to_array());
            c.scales.push(s as f32);
            c.rows.push(rows(x, y, z, o));
            c.matrices.push(
                [
                    x.x, x.y, x.z, 0.0, y.x, y.y, y.z, 0.0, z.x, z.y, z.z, 0.0, o.x, o.y, o.z, 1.0,
                ]
                .map(|v| v as f32),
            );
            let kind = &rules.kinds[t.kind as usize];
            if let Some(shape) = kind.shape {
                let [ax, ay, az] = t.axes;
                let centre = o + ay * (kind.shape_centre as f64 * s);
                let shape = scaled(shape, s as f32);
                c.colliders.push(Collider {
                    thing: i as u32,
                    shape: shape.code(),
                    dims: shape.dims(),
                    transform: rows(ax, ay, az, centre),
                });
            }
        }
        c
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Bytes the chunk holds.
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<ThingChunk>()
            + self.runs.len() * size_of::<KindRun>()
            + self.len() * (8 + 12 + 4 + 48 + 64)
            + self.colliders.len() * size_of::<Collider>()
    }

    /// The run of kind `kind`, if any of its things are here.
    pub fn run(&self, kind: u32) -> Option<KindRun> {
        self.runs.iter().copied().find(|r| r.kind == kind)
    }

    /// The kind of thing `i`.
    pub fn kind_of(&self, i: usize) -> Option<u32> {
        self.runs
            .iter()
            .find(|r| (r.start as usize..(r.start + r.count) as usize).contains(&i))
            .map(|r| r.kind)
    }
}

/// A 3 × 4 row-major matrix from columns and an origin.
fn rows(x: DVec3, y: DVec3, z: DVec3, o: DVec3) -> [f32; 12] {
    [x.x, y.x, z.x, o.x, x.y, y.y, z.y, o.y, x.z, y.z, z.z, o.z].map(|v| v as f32)
}

fn scaled(shape: Shape, s: f32) -> Shape {
    match shape {
        Shape::Capsule { radius, height } => Shape::Capsule {
            radius: radius * s,
            height: height * s,
        },
        Shape::Sphere { radius } => Shape::Sphere { radius: radius * s },
        Shape::Box { half_extents } => Shape::Box {
            half_extents: half_extents.map(|e| e * s),
        },
    }
}
