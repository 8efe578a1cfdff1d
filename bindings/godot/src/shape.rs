//! A collision chunk as the data of a Godot `HeightMapShape3D` and the transform of the body
//! that carries it, laid out as Terrain3D lays out its own collision so the physics surface
//! splits each quad along the same diagonal as the visible mesh.
//!
//! Terrain3D's mesh splits quad (x, z) along (x, z)–(x+1, z+1); a `HeightMapShape3D` splits
//! along its (col+1, row)–(col, row+1). Storing sample (x, z) at `(n−1−z) + x·n` and turning
//! the shape +90° about its up axis maps one diagonal onto the other. Plain Rust with no
//! engine types: a worker prepares it, the main thread hands it to `shape_set_data`.

use relief::runtime::chunks::Heightfield;
use relief::DVec3;

/// What `PhysicsServer3D.shape_set_data` takes for a heightmap shape, and where its body goes.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeData {
    /// Samples along the shape's X and Z (`map_width`, `map_depth`): the chunk's samples.
    pub width: u32,
    pub depth: u32,
    /// `width · depth` heights, `heights[row · width + col]`, NaN for holes.
    pub heights: Vec<f32>,
    pub min_height: f32,
    pub max_height: f32,
    /// The body's basis as three columns, the world images of the shape's X, Y and Z: the
    /// chunk frame's axes turned +90° about `up` and scaled by the sample spacing along X and
    /// Z (`Basis::from_cols`).
    pub basis: [DVec3; 3],
    /// The body's origin: the chunk's centre on its frame's ground plane, world metres.
    pub origin: DVec3,
}

impl ShapeData {
    /// Where shape sample `k` (`heights[k]`) lies in the world: what physics will collide with.
    pub fn world_point(&self, k: usize) -> DVec3 {
        let n = self.width as usize;
        let half = (n - 1) as f64 / 2.0;
        let local = [
            (k % n) as f64 - half,
            self.heights[k] as f64,
            (k / n) as f64 - half,
        ];
        let [x, y, z] = self.basis;
        self.origin + (x * local[0] + y * local[1] + z * local[2])
    }

    /// Bytes copied to make the shape's data: what one chunk costs on its way to physics.
    pub fn byte_len(&self) -> usize {
        self.heights.len() * 4
    }
}

/// Index in the shape's heights of chunk sample (x, z) of `n` per side.
pub fn shape_index(n: usize, x: usize, z: usize) -> usize {
    x * n + (n - 1 - z)
}

/// A built chunk as shape data: its heights rotated, its frame turned into the body's
/// transform.
pub fn shape_data(chunk: &Heightfield) -> ShapeData {
    let n = chunk.samples() as usize;
    let src = chunk.heights();
    let mut heights = vec![0.0f32; n * n];
    for z in 0..n {
        for x in 0..n {
            heights[shape_index(n, x, z)] = src[z * n + x];
        }
    }
    let frame = chunk.frame();
    let s = chunk.spacing();
    let [cx, cz] = chunk.centre();
    // R_y(+90°) takes shape X to −Z and shape Z to +X, then X and Z scale by the spacing.
    let basis = [frame.axis_z * -s, frame.up, frame.axis_x * s];
    let origin = frame.origin + cx * frame.axis_x + cz * frame.axis_z;
    let (min_height, max_height) = chunk.height_range();
    ShapeData {
        width: n as u32,
        depth: n as u32,
        heights,
        min_height,
        max_height,
        basis,
        origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use relief::flat::collision::{ChunkKey, CollisionChunk};
    use relief::planet::collision::{ChunkFrame, PlanetChunk, PlanetChunkKey};
    use std::sync::Arc;

    fn surface(x: f64, z: f64) -> f32 {
        (40.0 + 3.0 * (x * 0.05).sin() + 2.0 * (z * 0.07).cos() + 0.01 * x * z) as f32
    }

    fn flat_chunk(n: u32, spacing: f64, corner: [f64; 2]) -> Heightfield {
        let heights: Vec<f32> = (0..n * n)
            .map(|k| {
                let (i, j) = ((k % n) as f64, (k / n) as f64);
                surface(corner[0] + i * spacing, corner[1] + j * spacing)
            })
            .collect();
        let side = spacing * (n - 1) as f64;
        Heightfield::Flat(Arc::new(CollisionChunk {
            key: ChunkKey { x: 3, z: -2 },
            samples: n,
            min_height: heights.iter().copied().fold(f32::INFINITY, f32::min),
            max_height: heights.iter().copied().fold(f32::NEG_INFINITY, f32::max),
            heights,
            materials: vec![0; ((n - 1) * (n - 1)) as usize],
            centre: [corner[0] + side / 2.0, corner[1] + side / 2.0],
            corner,
            spacing,
        }))
    }

    /// Where the chunk's own documentation puts sample (x, z).
    fn documented(chunk: &Heightfield, x: usize, z: usize) -> DVec3 {
        let (f, s, c) = (chunk.frame(), chunk.spacing(), chunk.corner());
        let n = chunk.samples() as usize;
        let h = chunk.heights()[z * n + x] as f64;
        f.origin + (c[0] + x as f64 * s) * f.axis_x + h * f.up + (c[1] + z as f64 * s) * f.axis_z
    }

    fn assert_every_sample_lands(chunk: &Heightfield) {
        let shape = shape_data(chunk);
        let n = chunk.samples() as usize;
        assert_eq!((shape.width as usize, shape.heights.len()), (n, n * n));
        for z in 0..n {
            for x in 0..n {
                let got = shape.world_point(shape_index(n, x, z));
                let want = documented(chunk, x, z);
                let err = (0..3).map(|a| (got[a] - want[a]).abs()).fold(0.0, f64::max);
                assert!(err < 1e-3, "sample ({x}, {z}): {got:?} against {want:?}");
            }
        }
    }

    #[test]
    fn every_flat_sample_lands_on_the_ground_it_came_from() {
        let chunk = flat_chunk(65, 1.0, [192.0, -128.0]);
        assert_every_sample_lands(&chunk);
        let shape = shape_data(&chunk);
        for z in [0usize, 17, 64] {
            for x in [0usize, 40, 64] {
                let p = shape.world_point(shape_index(65, x, z));
                assert_eq!(p[1] as f32, surface(p[0], p[2]), "({x}, {z})");
            }
        }
        assert_every_sample_lands(&flat_chunk(33, 2.5, [-80.0, 40.0]));
    }

    #[test]
    fn every_planet_sample_lands_in_its_tangent_frame() {
        // A tilted orthonormal frame far from the origin, as a planet chunk has.
        let up = DVec3::new(0.3, 0.9, -0.2).normalize();
        let axis_x = DVec3::Z.cross(up).normalize();
        let axis_z = axis_x.cross(up);
        let frame = ChunkFrame {
            origin: up * 50_000.0,
            axis_x,
            up,
            axis_z,
        };
        let n = 65u32;
        let heights: Vec<f32> = (0..n * n).map(|k| (k % 97) as f32 * 0.5 - 10.0).collect();
        let chunk = Heightfield::Planet(Arc::new(PlanetChunk {
            key: PlanetChunkKey {
                face: 2,
                x: 5,
                z: 9,
            },
            frame,
            samples: n,
            min_height: -10.0,
            max_height: 38.0,
            heights,
            materials: vec![0; ((n - 1) * (n - 1)) as usize],
            spacing: 19.2,
            corner: [-614.4, -614.4],
        }));
        assert_every_sample_lands(&chunk);
    }

    #[test]
    fn the_shape_splits_quads_along_the_meshs_diagonal() {
        // HeightMapShape3D joins (col+1, row) and (col, row+1) of each quad; Terrain3D's mesh
        // joins (x, z) and (x+1, z+1). Find the chunk samples at the shape's diagonal ends.
        let n = 9usize;
        let at = |k: usize| {
            (0..n)
                .flat_map(|z| (0..n).map(move |x| (x, z)))
                .find(|&(x, z)| shape_index(n, x, z) == k)
                .unwrap()
        };
        for row in 0..n - 1 {
            for col in 0..n - 1 {
                let (a, b) = (at(row * n + col + 1), at((row + 1) * n + col));
                let (lo, hi) = if a.0 < b.0 { (a, b) } else { (b, a) };
                assert_eq!(
                    (hi.0 - lo.0, hi.1 as i64 - lo.1 as i64),
                    (1, 1),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn holes_stay_holes_and_the_range_is_the_chunks() {
        let Heightfield::Flat(c) = flat_chunk(17, 1.0, [0.0, 0.0]) else {
            unreachable!()
        };
        let mut c = (*c).clone();
        c.heights[3 * 17 + 5] = f32::NAN;
        let chunk = Heightfield::Flat(Arc::new(c));
        let shape = shape_data(&chunk);
        assert!(shape.heights[shape_index(17, 5, 3)].is_nan());
        assert_eq!(shape.heights.iter().filter(|h| h.is_nan()).count(), 1);
        assert_eq!((shape.min_height, shape.max_height), chunk.height_range());
        assert_eq!(shape.byte_len(), 17 * 17 * 4);
    }
}
