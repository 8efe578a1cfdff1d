//! The coarse cube-sphere grid the planet's erosion, hydrology and climate run on: every
//! sample of six faces of M², with neighbours that cross face seams through the seam table,
//! so nothing the solvers do can see where one face ends.

use crate::bake::routing::Graph;
use relief::glam::DVec3;
use relief::planet::cube::{self, Projection};

/// The eight neighbour offsets (i, j), counter-clockwise from +i: the order both planet
/// grids list neighbours in.
pub const AROUND: [(i64, i64); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

pub struct SphereGrid {
    /// Samples per face side.
    pub m: u32,
    pub radius: f64,
    pub projection: Projection,
    dirs: Vec<DVec3>,
    /// Neighbours of node k: `nbrs[start[k]..start[k + 1]]`, with distances in metres.
    start: Vec<u32>,
    nbrs: Vec<(u32, f32)>,
    /// Each node's area, m².
    pub area: Vec<f64>,
}

impl SphereGrid {
    pub fn new(m: u32, radius: f64, projection: Projection) -> SphereGrid {
        let n = 6 * (m as usize).pow(2);
        let mut dirs = Vec::with_capacity(n);
        for face in 0..6 {
            for j in 0..m {
                for i in 0..m {
                    dirs.push(cube::direction(
                        projection,
                        face,
                        cube::coord_of(i as f64, m),
                        cube::coord_of(j as f64, m),
                    ));
                }
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut nbrs = Vec::with_capacity(n * 8);
        let mut area = Vec::with_capacity(n);
        let edge = |i: u32| projection.to_plane(i as f64 * 2.0 / m as f64 - 1.0);
        for face in 0..6usize {
            for j in 0..m as i64 {
                for i in 0..m as i64 {
                    start.push(nbrs.len() as u32);
                    let k = (face * m as usize + j as usize) * m as usize + i as usize;
                    for (di, dj) in AROUND {
                        let Some((f2, i2, j2)) = cube::resolve(face, i + di, j + dj, m) else {
                            continue; // beyond a cube corner
                        };
                        let k2 = (f2 * m as usize + j2 as usize) * m as usize + i2 as usize;
                        // Diagonals that wrap round a corner can name a node twice.
                        if k2 == k
                            || nbrs[start[k] as usize..]
                                .iter()
                                .any(|&(o, _)| o as usize == k2)
                        {
                            continue;
                        }
                        let d = cube::angle(dirs[k], dirs[k2]) * radius;
                        nbrs.push((k2 as u32, d as f32));
                    }
                    area.push(
                        cube::plane_solid_angle(
                            edge(i as u32),
                            edge(j as u32),
                            edge(i as u32 + 1),
                            edge(j as u32 + 1),
                        ) * radius
                            * radius,
                    );
                }
            }
        }
        start.push(nbrs.len() as u32);
        SphereGrid {
            m,
            radius,
            projection,
            dirs,
            start,
            nbrs,
            area,
        }
    }

    #[inline]
    pub fn dir(&self, k: usize) -> DVec3 {
        self.dirs[k]
    }

    #[inline]
    pub fn index(&self, face: usize, i: i64, j: i64) -> usize {
        (face * self.m as usize + j as usize) * self.m as usize + i as usize
    }

    /// Bilinear sample of a node field at direction `d`, across seams. Beyond a cube corner,
    /// where a stencil has no fourth sample, the three real ones' mean stands in for it.
    pub fn sample(&self, field: &[f64], d: DVec3) -> f64 {
        self.sample_at(&self.stencil(d), field)
    }

    /// The stencil around `d`, to sample several fields at one direction.
    pub fn stencil(&self, d: DVec3) -> cube::Stencil {
        cube::stencil(self.projection, self.m, d)
    }

    /// A node field through a stencil from [`SphereGrid::stencil`].
    pub fn sample_at(&self, s: &cube::Stencil, field: &[f64]) -> f64 {
        s.blend(s.at.map(|a| a.map(|(f, i, j)| field[self.index(f, i, j)])))
    }

    /// The node nearest direction `d`.
    pub fn nearest(&self, d: DVec3) -> usize {
        let (face, i, j) = cube::nearest(self.projection, self.m, d);
        self.index(face, i, j)
    }
}

impl Graph for SphereGrid {
    fn node_count(&self) -> usize {
        self.dirs.len()
    }
    #[inline]
    fn each_neighbour(&self, k: usize, mut f: impl FnMut(usize, f64)) {
        for &(n, d) in &self.nbrs[self.start[k] as usize..self.start[k + 1] as usize] {
            f(n as usize, d as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_has_its_neighbours_and_the_areas_sum_to_the_sphere() {
        let g = SphereGrid::new(12, 1000.0, Projection::EquiAngular);
        let mut counts = [0usize; 9];
        for k in 0..g.node_count() {
            let mut n = 0;
            g.each_neighbour(k, |k2, d| {
                n += 1;
                // Neighbourhood is symmetric and about a cell away.
                let mut back = false;
                g.each_neighbour(k2, |k3, _| back |= k3 == k);
                assert!(back, "{k} → {k2} has no way back");
                assert!(d > 50.0 && d < 250.0, "{d}");
            });
            counts[n] += 1;
        }
        // Only the 24 corner nodes miss a neighbour (the diagonal beyond the corner).
        assert_eq!(counts[7], 24, "{counts:?}");
        assert_eq!(counts[8], g.node_count() - 24);
        let total: f64 = g.area.iter().sum();
        let sphere = 4.0 * std::f64::consts::PI * 1e6;
        assert!((total / sphere - 1.0).abs() < 1e-9, "{total} {sphere}");
    }

    #[test]
    fn sampling_a_smooth_field_is_continuous_across_seams_and_corners() {
        let g = SphereGrid::new(16, 1.0, Projection::EquiAngular);
        let f = |d: DVec3| d[0] * 2.0 + d[1] * d[2] * 3.0 + d[2];
        let field: Vec<f64> = (0..g.node_count()).map(|k| f(g.dir(k))).collect();
        // A great circle through two cube corners and across four seams.
        let (mut last, mut worst) = (None::<f64>, 0.0f64);
        let steps = 20_000;
        for s in 0..=steps {
            let t = s as f64 / steps as f64 * std::f64::consts::TAU;
            let d = cube::normalize(DVec3::new(t.cos(), t.cos(), t.sin()));
            let v = g.sample(&field, d);
            assert!((v - f(d)).abs() < 0.1, "{v} vs {}", f(d));
            if let Some(l) = last {
                worst = worst.max((v - l).abs());
            }
            last = Some(v);
        }
        // One step is 3e-4 rad; the field's slope is at most ~4 per radian.
        assert!(worst < 4.0 * 3.2e-4 * 1.5, "largest step {worst}");
    }
}
