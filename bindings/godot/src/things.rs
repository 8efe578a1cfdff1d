//! Placed things as Godot takes them, with no engine types: each kind run's instance
//! transforms are already a MultiMesh buffer ([`ThingChunk::rows`], `TRANSFORM_3D`, 12 floats
//! each), so what is left is the box that holds a run's instances (a MultiMesh's custom AABB,
//! so setting the buffer never walks every instance), and each collider as the physics
//! server's shape data and a `Transform3D`'s columns.
//!
//! A worker finds each run's bounds ([`run_bounds`]); the main thread meets them with the
//! mesh it draws ([`RunBounds::aabb`]) and copies the rows into the engine.

use relief::things::{Collider, Shape, ThingChunk};

/// Where a run's things stand and how large the largest is: enough to bound any mesh drawn at
/// each of them, whatever their tilt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunBounds {
    /// The kind's index in the world's table.
    pub kind: u32,
    /// The run's first thing and count, as in [`ThingChunk::runs`].
    pub start: u32,
    pub count: u32,
    /// The smallest and largest position (the things' origins, in the chunk's frame).
    pub min: [f32; 3],
    pub max: [f32; 3],
    /// The largest uniform scale among them.
    pub scale: f32,
}

impl RunBounds {
    /// A box, as Godot's `AABB` (position, size), holding a mesh whose own AABB is
    /// (`mesh_position`, `mesh_size`) drawn at every thing of the run. Any rotation moves a
    /// point of the mesh no farther from the thing's origin than the farthest corner of the
    /// mesh's box, scaled: that distance pads the positions' box on every side.
    pub fn aabb(&self, mesh_position: [f32; 3], mesh_size: [f32; 3]) -> ([f32; 3], [f32; 3]) {
        let reach = corner_reach(mesh_position, mesh_size) * self.scale;
        let position = self.min.map(|v| v - reach);
        let size = [0, 1, 2].map(|a| self.max[a] - self.min[a] + 2.0 * reach);
        (position, size)
    }

    /// The run's MultiMesh buffer: `count` transforms of 12 floats, in place in the chunk.
    pub fn rows<'a>(&self, chunk: &'a ThingChunk) -> &'a [f32] {
        let (a, n) = (self.start as usize, self.count as usize);
        chunk.rows[a..a + n].as_flattened()
    }
}

/// The distance from a box's origin-side point (0, 0, 0) to its farthest corner.
fn corner_reach(position: [f32; 3], size: [f32; 3]) -> f32 {
    let far = |a: usize| position[a].abs().max((position[a] + size[a]).abs());
    (far(0).powi(2) + far(1).powi(2) + far(2).powi(2)).sqrt()
}

/// Each of `chunk`'s runs with the bounds of its things.
pub fn run_bounds(chunk: &ThingChunk) -> Vec<RunBounds> {
    chunk
        .runs
        .iter()
        .map(|r| {
            let (a, n) = (r.start as usize, r.count as usize);
            let mut b = RunBounds {
                kind: r.kind,
                start: r.start,
                count: r.count,
                min: [f32::INFINITY; 3],
                max: [f32::NEG_INFINITY; 3],
                scale: 0.0,
            };
            for (p, s) in chunk.positions[a..a + n]
                .iter()
                .zip(&chunk.scales[a..a + n])
            {
                for (k, v) in p.iter().enumerate() {
                    b.min[k] = b.min[k].min(*v);
                    b.max[k] = b.max[k].max(*v);
                }
                b.scale = b.scale.max(*s);
            }
            b
        })
        .collect()
}

/// What `PhysicsServer3D.shape_set_data` takes for a collider's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeData {
    /// `{radius, height}`, the height end to end (Godot's `CapsuleShape3D.height`), at least
    /// twice the radius: Jolt refuses a shorter capsule, and none is shorter than its caps.
    Capsule { radius: f32, height: f32 },
    /// The radius.
    Sphere(f32),
    /// Half extents (`BoxShape3D.size` is twice this).
    Box([f32; 3]),
}

/// A collider's shape data.
pub fn shape_data(c: &Collider) -> ShapeData {
    match c.shape() {
        Shape::Capsule { radius, height } => ShapeData::Capsule {
            radius,
            height: height.max(2.0 * radius),
        },
        Shape::Sphere { radius } => ShapeData::Sphere(radius),
        Shape::Box { half_extents } => ShapeData::Box(half_extents),
    }
}

/// A 3 × 4 row-major transform ([`Collider::transform`], [`ThingChunk::rows`]) as a
/// `Transform3D`'s basis columns and origin (`Basis::from_cols`).
pub fn columns(t: &[f32; 12]) -> ([[f32; 3]; 3], [f32; 3]) {
    let col = |j: usize| [t[j], t[4 + j], t[8 + j]];
    ([col(0), col(1), col(2)], [t[3], t[7], t[11]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_worlds;
    use relief::runtime::ThingsConfig;
    use relief::{DVec3, Runtime, RuntimeConfig};
    use std::time::Duration;

    /// Every chunk the test world (512 m about the origin) builds around its middle, built
    /// once for every test.
    fn chunks() -> &'static [std::sync::Arc<ThingChunk>] {
        static CHUNKS: std::sync::OnceLock<Vec<std::sync::Arc<ThingChunk>>> =
            std::sync::OnceLock::new();
        CHUNKS.get_or_init(built)
    }

    fn built() -> Vec<std::sync::Arc<ThingChunk>> {
        let dir = test_worlds::scratch("things");
        let world = relief::World::open(test_worlds::small_world(&dir)).unwrap();
        let mut rt = Runtime::new(
            std::sync::Arc::new(world),
            RuntimeConfig {
                collision: None,
                lod: None,
                things: Some(ThingsConfig::default()),
                ..RuntimeConfig::default()
            },
        )
        .unwrap();
        rt.settle(DVec3::ZERO, Duration::from_secs(120)).unwrap();
        let mut out = Vec::new();
        rt.for_each_built_thing_chunk(|k| out.extend(rt.thing_lookup().get(k)));
        let _ = std::fs::remove_dir_all(dir);
        let things: usize = out.iter().map(|c| c.len()).sum();
        assert!(things > 100, "a forest, not {things} things");
        out
    }

    /// A point of the mesh box's corners moved by a thing's transform rows.
    fn apply(rows: &[f32], p: [f32; 3]) -> [f32; 3] {
        [0, 1, 2].map(|r| {
            rows[4 * r] * p[0] + rows[4 * r + 1] * p[1] + rows[4 * r + 2] * p[2] + rows[4 * r + 3]
        })
    }

    #[test]
    fn every_instance_of_every_run_lies_inside_its_box() {
        // A tree-like mesh off its origin, as a modeller leaves one: 2 m wide, 9 m up.
        let (mp, ms) = ([-1.0, -0.2, -1.5], [2.0, 9.0, 3.0]);
        for chunk in chunks() {
            let bounds = run_bounds(chunk);
            assert_eq!(bounds.len(), chunk.runs.len());
            for b in &bounds {
                let (pos, size) = b.aabb(mp, ms);
                let rows = b.rows(chunk);
                assert_eq!(rows.len(), 12 * b.count as usize, "a MultiMesh buffer");
                for t in rows.chunks_exact(12) {
                    for c in 0..8 {
                        let corner =
                            [0, 1, 2].map(|a| mp[a] + if c >> a & 1 == 1 { ms[a] } else { 0.0 });
                        let p = apply(t, corner);
                        for a in 0..3 {
                            assert!(
                                p[a] >= pos[a] - 1e-3 && p[a] <= pos[a] + size[a] + 1e-3,
                                "{:?} kind {}: corner {p:?} outside {pos:?} + {size:?}",
                                chunk.key,
                                b.kind
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn colliders_become_shapes_placed_where_the_chunk_puts_them() {
        let mut seen = 0;
        for chunk in chunks() {
            for c in &chunk.colliders {
                let (basis, origin) = columns(&c.transform);
                // Rotation only: orthonormal columns.
                for (i, u) in basis.iter().enumerate() {
                    for (j, v) in basis.iter().enumerate() {
                        let dot: f32 = (0..3).map(|a| u[a] * v[a]).sum();
                        let want = if i == j { 1.0 } else { 0.0 };
                        assert!((dot - want).abs() < 1e-4, "{i}·{j} = {dot}");
                    }
                }
                // The shape stands on its thing: its centre is the thing's origin moved
                // along the thing's own up.
                let t = chunk.rows[c.thing as usize];
                let up = [t[1], t[5], t[9]];
                let at = [t[3], t[7], t[11]];
                let d = [0, 1, 2].map(|a| origin[a] - at[a]);
                let along: f32 = (0..3).map(|a| d[a] * up[a]).sum::<f32>()
                    / (0..3).map(|a| up[a] * up[a]).sum::<f32>().sqrt();
                let len = (0..3).map(|a| d[a] * d[a]).sum::<f32>().sqrt();
                assert!((along - len).abs() < 1e-3, "centre off the thing's up");
                match shape_data(c) {
                    ShapeData::Capsule { radius, height } => {
                        assert!(radius > 0.0 && height >= 2.0 * radius)
                    }
                    ShapeData::Sphere(r) => assert!(r > 0.0),
                    ShapeData::Box(h) => assert!(h.iter().all(|v| *v > 0.0)),
                }
                seen += 1;
            }
        }
        assert!(seen > 0, "the test world's trees and boulders collide");
    }

    #[test]
    fn a_short_capsule_grows_to_its_caps() {
        let c = Collider {
            thing: 0,
            shape: Shape::Capsule {
                radius: 0.5,
                height: 0.6,
            }
            .code(),
            dims: [0.5, 0.6, 0.0],
            transform: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
        };
        assert_eq!(
            shape_data(&c),
            ShapeData::Capsule {
                radius: 0.5,
                height: 1.0
            }
        );
    }
}
