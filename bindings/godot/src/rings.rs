//! The far-ground mesh: one ring of quads per clipmap level, each twice as coarse as the one
//! inside it, and the vertex logic of `far_ground.gdshader` that lifts it onto the levels,
//! line for line in the same f32 arithmetic ([`Lift`]), so the tests hold the shader to
//! what they check: where rings meet, no cracks; what it draws, the clipmap's heights.
//!
//! Why the shader filters by hand: the levels are relief's storage as it is, 32-bit float
//! (`FORMAT_RF`), which GLES3 (Godot's Compatibility renderer), WebGL 2 and many mobile GPUs
//! cannot filter; every GPU can fetch a texel by index (`texelFetch`), so the four texels are
//! fetched and blended in the shader. The height this costs: none; the blend is exact
//! bilinear of the cells in f32, where a GPU's own filter quantizes the weights (8 bits on
//! many).
//!
//! Why rings morph: ring k's outer edge has a vertex every quad, ring k+1's inner edge every
//! two, so the odd vertices are T-junctions (hairline cracks). Over the outer quarter of a
//! ring its odd vertices slide onto the coarser lattice; on the edge they sit exactly on
//! ring k+1's vertices, as the same float, so both sides read the same level at the same
//! point.

use crate::far::FarGround;

/// A mesh of triangles: vertices `(x, ring, z)` (metres on the plane, and the ring's index
/// for the shader's morph) and indices three per triangle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RingMesh {
    pub vertices: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
}

/// Ring `k`'s quad side: two cells of level `k`, `2 · base_spacing · 2^k`, as the f32
/// product the shader makes (`ring_quad * float(1 << ring)`).
pub fn ring_quad(base_spacing: f64, k: u32) -> f32 {
    (2.0 * base_spacing) as f32 * (1u32 << k) as f32
}

/// Quads from the mesh's centre to a ring's outer edge: a level of `size` cells spans
/// `size / 2` quads, half of them each side.
pub fn ring_half(size: u32) -> u32 {
    size / 4
}

/// The rings for `levels` levels of `size` cells from `base_spacing`: ring 0 a full square
/// of `(size / 2)²` quads, ring k the same square of its coarser quads less the part ring
/// k − 1 covers. Vertices are `i · quad` (the very products the morph makes), shared within a
/// ring; triangles split every quad along the same diagonal.
pub fn rings(levels: u32, size: u32, base_spacing: f64) -> RingMesh {
    let half = ring_half(size) as i32;
    let mut mesh = RingMesh::default();
    for k in 0..levels {
        let quad = ring_quad(base_spacing, k);
        let side = (2 * half + 1) as usize;
        let first = mesh.vertices.len() as u32;
        for j in -half..=half {
            for i in -half..=half {
                mesh.vertices
                    .push([i as f32 * quad, k as f32, j as f32 * quad]);
            }
        }
        let at = |i: i32, j: i32| first + ((j + half) as usize * side + (i + half) as usize) as u32;
        for j in -half..half {
            for i in -half..half {
                let inner = (2 * i + 1).abs() < half && (2 * j + 1).abs() < half;
                if k > 0 && inner {
                    continue;
                }
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                mesh.indices.extend_from_slice(&[a, b, c, a, c, d]);
            }
        }
    }
    mesh
}

/// The far-ground shader's uniforms, as `node.rs` sets them (f32, as the GPU holds them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lift {
    pub level_count: i32,
    pub level_size: i32,
    /// Plane (x, z) of each window's first cell's corner, metres.
    pub level_origin: Vec<[f32; 2]>,
    pub level_spacing: Vec<f32>,
    /// The storage texel holding each window's first cell: `origin_cell mod size`.
    pub level_phase: Vec<[f32; 2]>,
    pub ring_quad: f32,
    pub ring_half: f32,
    /// Plane (x, z) of the mesh's centre.
    pub grid_offset: [f32; 2],
}

impl Lift {
    /// The uniforms for `far`'s levels, a mesh of [`rings`] from `base_spacing` whose centre
    /// is at plane point `grid_offset`.
    pub fn new(far: &FarGround, base_spacing: f64, grid_offset: [f32; 2]) -> Lift {
        let p = far.placements();
        let size = p.first().map_or(0, |l| l.size);
        Lift {
            level_count: p.len() as i32,
            level_size: size as i32,
            level_origin: p
                .iter()
                .map(|l| [l.origin[0] as f32, l.origin[1] as f32])
                .collect(),
            level_spacing: p.iter().map(|l| l.spacing as f32).collect(),
            level_phase: p.iter().map(|l| l.phase().map(|c| c as f32)).collect(),
            ring_quad: ring_quad(base_spacing, 0),
            ring_half: ring_half(size) as f32,
            grid_offset,
        }
    }

    /// `morph(q, ring)`: a vertex's plane offset from the mesh's centre, after its ring's
    /// morph toward the coarser lattice.
    pub fn morph(&self, q: [f32; 2], ring: f32) -> [f32; 2] {
        if ring >= (self.level_count - 1) as f32 {
            return q; // the outermost ring meets nothing coarser
        }
        let quad = self.ring_quad * (1u32 << ring as u32) as f32;
        let d = q[0].abs().max(q[1].abs()) / (quad * self.ring_half);
        let m = ((d - 0.75) / 0.2).clamp(0.0, 1.0);
        q.map(|c| {
            let n = (c / quad).round_ties_even();
            let odd = n - 2.0 * (n * 0.5).floor();
            (n - odd * m) * quad
        })
    }

    /// `level_at(p)`: the finest level whose window holds plane point `p` with two cells to
    /// spare (the bilinear footprint and the normal's neighbours); the coarsest otherwise.
    pub fn level_at(&self, p: [f32; 2]) -> usize {
        for k in 0..self.level_count as usize {
            let s = self.level_spacing[k];
            let t = [
                p[0] - self.level_origin[k][0],
                p[1] - self.level_origin[k][1],
            ];
            let (lo, hi) = (2.0 * s, s * (self.level_size as f32 - 2.0));
            if t[0] >= lo && t[1] >= lo && t[0] < hi && t[1] < hi {
                return k;
            }
        }
        (self.level_count - 1) as usize
    }

    /// `height_at(p, k)`: bilinear between the four texels of level `k` around plane point
    /// `p` (texel i's centre half a cell into cell i), fetched through `fetch(k, column,
    /// row)`; held inside the window (the coarsest level answers beyond it with its edge).
    pub fn height_at(&self, p: [f32; 2], k: usize, fetch: impl Fn(usize, i32, i32) -> f32) -> f32 {
        let s = self.level_spacing[k];
        let n = self.level_size;
        let edge = self.level_size as f32 - 2.0;
        let t = [
            ((p[0] - self.level_origin[k][0]) / s - 0.5).clamp(0.0, edge),
            ((p[1] - self.level_origin[k][1]) / s - 0.5).clamp(0.0, edge),
        ];
        let f0 = t.map(f32::floor);
        let f = [t[0] - f0[0], t[1] - f0[1]];
        let c0 = [
            f0[0] as i32 + self.level_phase[k][0] as i32,
            f0[1] as i32 + self.level_phase[k][1] as i32,
        ];
        let i0 = c0.map(|c| ((c % n) + n) % n);
        let i1 = i0.map(|i| (i + 1) % n);
        let (a, b) = (fetch(k, i0[0], i0[1]), fetch(k, i1[0], i0[1]));
        let (c, d) = (fetch(k, i0[0], i1[1]), fetch(k, i1[0], i1[1]));
        let mix = |x: f32, y: f32, w: f32| x * (1.0 - w) + y * w;
        mix(mix(a, b, f[0]), mix(c, d, f[0]), f[1])
    }

    /// A mesh vertex `(x, ring, z)` as the vertex shader places it: its morphed plane point
    /// (absolute) and the height there.
    pub fn lift(
        &self,
        vertex: [f32; 3],
        fetch: impl Fn(usize, i32, i32) -> f32,
    ) -> ([f32; 2], f32) {
        let q = self.morph([vertex[0], vertex[2]], vertex[1]);
        let p = [q[0] + self.grid_offset[0], q[1] + self.grid_offset[1]];
        let k = self.level_at(p);
        (p, self.height_at(p, k, fetch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use relief::lod::{Clipmap, ClipmapConfig};
    use relief::runtime::LodPlane;
    use std::collections::{HashMap, HashSet};

    fn bits(p: [f32; 2]) -> (u32, u32) {
        (p[0].to_bits(), p[1].to_bits())
    }

    /// A walked clipmap over a smooth ground, its FarGround, and a texel fetch from its bytes.
    fn walked(config: ClipmapConfig, walk: &[(f64, f64)]) -> (Clipmap, FarGround) {
        let mut clip = Clipmap::new(config).unwrap();
        let mut far = FarGround::new(&clip);
        for &(x, z) in walk {
            let rects = clip
                .update_with([x, z], &mut |k, s, i, j| {
                    let (x, z) = ((i as f64 + 0.5) * s, (j as f64 + 0.5) * s);
                    (200.0 * (x / 3000.0).sin() * (z / 2100.0).cos() + k as f64 * 0.01) as f32
                })
                .to_vec();
            far.update(&clip, LodPlane::WORLD, &rects);
        }
        (clip, far)
    }

    fn fetcher(clip: &Clipmap) -> impl Fn(usize, i32, i32) -> f32 + '_ {
        move |k, c, r| {
            let size = clip.config().size as usize;
            clip.level(k).storage()[r as usize * size + c as usize]
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Where rings meet there are no cracks, for any spacing and any grid offset: every
        /// vertex on ring k's outer edge lands, after its morph, exactly (the same f32) on a
        /// vertex of ring k + 1, consecutive edge vertices on the same or neighbouring
        /// coarse vertices; so both sides lift the same points to the same heights.
        #[test]
        fn rings_meet_without_cracks(
            base in prop_oneof![Just(16.0), Just(0.3), Just(1.0 / 3.0), 0.05f64..40.0],
            levels in 2u32..6,
            size in prop_oneof![Just(16u32), Just(32), Just(128)],
        ) {
            let config = ClipmapConfig { levels, size, base_spacing: base };
            let (_, far) = walked(config, &[(0.0, 0.0)]);
            let lift = Lift::new(&far, base, [0.0, 0.0]);
            let mesh = rings(levels, size, base);
            let half = ring_half(size) as f32;
            let mut coarse: HashMap<u32, HashSet<(u32, u32)>> = HashMap::new();
            for v in &mesh.vertices {
                let q = lift.morph([v[0], v[2]], v[1]);
                coarse.entry(v[1] as u32).or_default().insert(bits(q));
            }
            for k in 0..levels - 1 {
                let quad = ring_quad(base, k);
                let edge = quad * half;
                let outer: Vec<[f32; 3]> = mesh
                    .vertices
                    .iter()
                    .filter(|v| v[1] as u32 == k && v[0].abs().max(v[2].abs()) == edge)
                    .copied()
                    .collect();
                prop_assert_eq!(outer.len(), 8 * half as usize);
                for v in &outer {
                    let q = lift.morph([v[0], v[2]], v[1]);
                    prop_assert!(
                        coarse[&(k + 1)].contains(&bits(q)),
                        "ring {} edge vertex {:?} lands on {:?}, no ring {} vertex", k, v, q, k + 1
                    );
                }
                // Along each side, in order, morphed neighbours stay on the side and are the
                // same or neighbouring coarse vertices: the fine edge is the coarse edge.
                for (axis, sign) in [(0usize, 1.0f32), (0, -1.0), (2, 1.0), (2, -1.0)] {
                    let along = 2 - axis;
                    let mut side: Vec<[f32; 3]> =
                        outer.iter().filter(|v| v[axis] == sign * edge).copied().collect();
                    side.sort_by(|a, b| a[along].total_cmp(&b[along]));
                    let moved: Vec<[f32; 2]> =
                        side.iter().map(|v| lift.morph([v[0], v[2]], v[1])).collect();
                    let (a, b) = (axis / 2, along / 2);
                    for w in moved.windows(2) {
                        prop_assert_eq!(w[0][a], sign * edge);
                        // Coarse lattice indices: the same vertex or the next one.
                        let index = |c: f32| (c / (2.0 * quad)).round() as i64;
                        let step = index(w[1][b]) - index(w[0][b]);
                        prop_assert!(step == 0 || step == 1, "step {} at {:?}", step, w);
                    }
                }
            }
        }

        /// What the shader draws is the clipmap: at any point of the drawn area after any
        /// walk, the level it picks holds the point with two cells to spare, every texel it
        /// fetches is that level's cell there (never a wrapped stale one), and its height is
        /// the bilinear blend of those cells to within f32 rounding.
        #[test]
        fn the_shader_draws_the_clipmap_s_heights(
            walk in prop::collection::vec((-3000.0f64..3000.0, -3000.0f64..3000.0), 1..6),
            probes in prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0), 32),
        ) {
            let config = ClipmapConfig { levels: 4, size: 16, base_spacing: 8.0 };
            let (clip, far) = walked(config, &walk);
            let (cx, cz) = *walk.last().unwrap();
            let grid = [cx as f32, cz as f32];
            let lift = Lift::new(&far, 8.0, grid);
            let fetch = fetcher(&clip);
            let reach = ring_quad(8.0, 3) as f64 * ring_half(16) as f64;
            let mut worst = 0.0f64;
            for &(u, v) in &probes {
                let p = [(cx + u * reach) as f32, (cz + v * reach) as f32];
                let k = lift.level_at(p);
                let s = far.placements()[k].spacing;
                // Every fetch is a live cell of level k: check through the clipmap itself.
                let checked = |kk: usize, c: i32, r: i32| {
                    let phase = far.placements()[kk].phase();
                    let n = 16i64;
                    let origin = clip.level(kk).origin().unwrap();
                    // The cell whose storage texel is (c, r), in the window.
                    let i = origin[0] + (c as i64 - phase[0]).rem_euclid(n);
                    let j = origin[1] + (r as i64 - phase[1]).rem_euclid(n);
                    let cell = clip.cell(kk, i, j).expect("a live cell");
                    assert_eq!(cell, fetch(kk, c, r));
                    cell
                };
                let h = lift.height_at(p, k, checked) as f64;
                if k + 1 < far.levels() {
                    // Inside the finer windows' reach the reference is exact bilinear in f64.
                    let t = [p[0] as f64 / s - 0.5, p[1] as f64 / s - 0.5];
                    let (i, j) = (t[0].floor() as i64, t[1].floor() as i64);
                    let (fx, fz) = (t[0] - i as f64, t[1] - j as f64);
                    let c = |a, b| clip.cell(k, a, b).unwrap() as f64;
                    let want = (c(i, j) * (1.0 - fx) + c(i + 1, j) * fx) * (1.0 - fz)
                        + (c(i, j + 1) * (1.0 - fx) + c(i + 1, j + 1) * fx) * fz;
                    worst = worst.max((h - want).abs());
                }
            }
            // f32 positions kilometres out cost a few µm (measured worst 16 µm on ±200 m ground).
            prop_assert!(worst < 1e-3, "worst {worst} m");
        }
    }

    #[test]
    fn the_rings_cover_the_levels_without_overlap() {
        let mesh = rings(6, 128, 16.0);
        // Ring 0: 64² quads; rings 1–5: 64² less the 32² ring k − 1 covers.
        let quads = mesh.indices.len() / 6;
        assert_eq!(quads, 64 * 64 + 5 * (64 * 64 - 32 * 32));
        let outer = ring_quad(16.0, 5) * ring_half(128) as f32;
        assert_eq!(outer, 32768.0, "±32 km, the coarsest level's reach");
        assert!(mesh
            .indices
            .iter()
            .all(|&i| (i as usize) < mesh.vertices.len()));
    }
}
