//! The cube-sphere grid rivers and lakes are found on: at the face resolution (or half of it
//! for the biggest planets), tens of millions of nodes, so nothing per node is stored but
//! the fields themselves. Neighbours and distances are worked out when asked, from where
//! each column's centre falls on the face plane, and cell areas come from one face's table
//! (every face is alike); neighbours cross face
//! seams through the seam table, as the coarse [`SphereGrid`](super::sphere::SphereGrid)'s
//! stored neighbours do, and agree with them.

use crate::bake::routing::Graph;
use relief::glam::DVec3;
use relief::planet::cube::{self, Projection, FACES};

use super::sphere::AROUND;

pub struct FineGrid {
    /// Samples per face side.
    pub m: u32,
    pub radius: f64,
    /// Face-plane coordinate (tangent of the angle) of each column's centre.
    centre: Vec<f64>,
    /// Area of each node's cell on one face (every face is the same), m².
    areas: Vec<f64>,
}

const PROJECTION: Projection = Projection::EquiAngular;

impl FineGrid {
    pub fn new(m: u32, radius: f64) -> FineGrid {
        let edge: Vec<f64> = (0..=m)
            .map(|i| PROJECTION.to_plane(i as f64 * 2.0 / m as f64 - 1.0))
            .collect();
        let mut areas = Vec::with_capacity((m as usize).pow(2));
        for j in 0..m as usize {
            for i in 0..m as usize {
                let omega = cube::plane_solid_angle(edge[i], edge[j], edge[i + 1], edge[j + 1]);
                areas.push(omega * radius * radius);
            }
        }
        FineGrid {
            m,
            radius,
            centre: (0..m)
                .map(|i| PROJECTION.to_plane(cube::coord_of(i as f64, m)))
                .collect(),
            areas,
        }
    }

    #[inline]
    pub fn index(&self, face: usize, i: i64, j: i64) -> usize {
        (face * self.m as usize + j as usize) * self.m as usize + i as usize
    }

    /// (face, i, j) of node `k`.
    #[inline]
    pub fn split(&self, k: usize) -> (usize, usize, usize) {
        let m = self.m as usize;
        (k / (m * m), k % m, (k / m) % m)
    }

    /// Node (i, j)'s direction in its face's frame (x along the face's right, y up it, z
    /// out through its centre).
    #[inline]
    fn local(&self, i: usize, j: usize) -> DVec3 {
        let (u, v) = (self.centre[i], self.centre[j]);
        let s = 1.0 / (1.0 + u * u + v * v).sqrt();
        DVec3::new(u * s, v * s, s)
    }

    /// Unit direction of node `k`.
    #[inline]
    pub fn dir(&self, k: usize) -> DVec3 {
        let (face, i, j) = self.split(k);
        let [n, r, t] = FACES[face];
        let l = self.local(i, j);
        n * l.z + r * l.x + t * l.y
    }

    /// Area of node `k`'s cell, m².
    #[inline]
    pub fn area(&self, k: usize) -> f64 {
        let m = self.m as usize;
        self.areas[k % (m * m)]
    }

    /// The bilinear stencil around direction `d`.
    #[inline]
    pub fn stencil(&self, d: DVec3) -> cube::Stencil {
        cube::stencil(PROJECTION, self.m, d)
    }

    /// A node field through a stencil from [`FineGrid::stencil`].
    #[inline]
    pub fn sample_at(&self, s: &cube::Stencil, field: &[f32]) -> f64 {
        s.blend(s.at.map(|a| a.map(|(f, i, j)| field[self.index(f, i, j)] as f64)))
    }

    /// The node nearest direction `d`.
    #[inline]
    pub fn nearest(&self, d: DVec3) -> usize {
        let (face, i, j) = cube::nearest(PROJECTION, self.m, d);
        self.index(face, i, j)
    }
}

impl Graph for FineGrid {
    fn node_count(&self) -> usize {
        6 * (self.m as usize).pow(2)
    }

    #[inline]
    fn each_neighbour(&self, k: usize, mut f: impl FnMut(usize, f64)) {
        let (face, i, j) = self.split(k);
        let m = self.m as usize;
        if i > 0 && j > 0 && i + 1 < m && j + 1 < m {
            // Inside a face: the chord between the two local directions (short of the arc by
            // θ²/24: a part in 10⁷ at a 38 m cell on a 50 km planet).
            let here = self.local(i, j);
            for (di, dj) in AROUND {
                let (i2, j2) = ((i as i64 + di) as usize, (j as i64 + dj) as usize);
                let there = self.local(i2, j2);
                let d = [here[0] - there[0], here[1] - there[1], here[2] - there[2]];
                let chord = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                f(self.index(face, i2 as i64, j2 as i64), chord * self.radius);
            }
            return;
        }
        // On a face's rim: through the seam table, skipping what wraps round a cube corner
        // onto a node already named.
        let here = self.dir(k);
        let mut named = [usize::MAX; 8];
        for (slot, (di, dj)) in AROUND.into_iter().enumerate() {
            let Some((f2, i2, j2)) = cube::resolve(face, i as i64 + di, j as i64 + dj, self.m)
            else {
                continue;
            };
            let k2 = self.index(f2, i2, j2);
            if k2 == k || named[..slot].contains(&k2) {
                continue;
            }
            named[slot] = k2;
            f(k2, cube::angle(here, self.dir(k2)) * self.radius);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::planet::sphere::SphereGrid;

    #[test]
    fn it_agrees_with_the_coarse_grid_node_for_node() {
        let (m, r) = (24, 5000.0);
        let fine = FineGrid::new(m, r);
        let coarse = SphereGrid::new(m, r, PROJECTION);
        assert_eq!(fine.node_count(), coarse.node_count());
        for k in 0..fine.node_count() {
            let (a, b) = (fine.dir(k), coarse.dir(k));
            assert!(cube::angle(a, b) < 1e-12, "node {k}: {a:?} vs {b:?}");
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            fine.each_neighbour(k, |k2, d| mine.push((k2, d)));
            coarse.each_neighbour(k, |k2, d| theirs.push((k2, d)));
            assert_eq!(mine.len(), theirs.len(), "node {k}");
            for ((k1, d1), (k2, d2)) in mine.iter().zip(&theirs) {
                assert_eq!(k1, k2, "node {k}");
                // The coarse grid stores arcs as f32; inside a face this grid gives chords,
                // short of the arc by θ²/24.
                let theta = d2 / r;
                let tolerance = theta * theta / 20.0 + 1e-6;
                assert!((d1 / d2 - 1.0).abs() < tolerance, "node {k}: {d1} vs {d2}");
            }
            assert!(
                (fine.area(k) / coarse.area[k] - 1.0).abs() < 1e-12,
                "node {k}: {} vs {}",
                fine.area(k),
                coarse.area[k]
            );
        }
    }

    #[test]
    fn the_cell_areas_sum_to_the_sphere() {
        for m in [64u32, 256] {
            let g = FineGrid::new(m, 1.0);
            let total: f64 = (0..g.node_count()).map(|k| g.area(k)).sum();
            let sphere = 4.0 * std::f64::consts::PI;
            let err = (total / sphere - 1.0).abs();
            assert!(err < 1e-9, "{m}: {err}");
        }
    }

    #[test]
    fn the_nearest_node_of_a_node_is_itself() {
        let g = FineGrid::new(40, 1.0);
        for k in (0..g.node_count()).step_by(7) {
            assert_eq!(g.nearest(g.dir(k)), k);
        }
    }
}
