//! The cube sphere: six faces, each a square of face coordinates `(a, b) ∈ [-1, 1]²`, mapped
//! to directions by the equi-angular projection (`u = tan(a·π/4)`, then
//! `normalize(n + u·r + v·t)` with the face's normal, right and top vectors) or, for old
//! blobs, the gnomonic one (`u = a`). Both are separable and fix `a = ±1`, so every face edge
//! is a great-circle arc shared exactly by two faces and samples line up across seams.
//!
//! Samples sit at cell centres: sample (i, j) of a face of N is at
//! `a = (i + 0.5)·2/N − 1`. The seam table says, for each face edge, which face is across it,
//! which of that face's edges it is, and whether the along-edge coordinate runs the other way.

use std::f64::consts::FRAC_PI_4;

use glam::DVec3;

/// Which projection maps face coordinates to directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Projection {
    /// `u = a`: cells up to 5.2× larger at face centres than at corners.
    Gnomonic = 0,
    /// `u = tan(a·π/4)`: cells within ±20 % of the mean area (max/min ≈ 1.41).
    EquiAngular = 1,
}

impl Projection {
    pub fn from_code(code: u32) -> Option<Projection> {
        match code {
            0 => Some(Projection::Gnomonic),
            1 => Some(Projection::EquiAngular),
            _ => None,
        }
    }

    /// Face coordinate → gnomonic plane coordinate.
    #[inline]
    pub fn to_plane(self, a: f64) -> f64 {
        match self {
            Projection::Gnomonic => a,
            Projection::EquiAngular => (a * FRAC_PI_4).tan(),
        }
    }

    /// Gnomonic plane coordinate → face coordinate.
    #[inline]
    pub fn from_plane(self, u: f64) -> f64 {
        match self {
            Projection::Gnomonic => u,
            Projection::EquiAngular => u.atan() / FRAC_PI_4,
        }
    }
}

/// Face `f`'s normal, right (+a) and top (+b) vectors. Faces: 0 +X, 1 −X, 2 +Y, 3 −Y, 4 +Z,
/// 5 −Z.
pub const FACES: [[DVec3; 3]; 6] = [
    [DVec3::X, DVec3::NEG_Z, DVec3::Y],
    [DVec3::NEG_X, DVec3::Z, DVec3::Y],
    [DVec3::Y, DVec3::X, DVec3::NEG_Z],
    [DVec3::NEG_Y, DVec3::X, DVec3::Z],
    [DVec3::Z, DVec3::X, DVec3::Y],
    [DVec3::NEG_Z, DVec3::NEG_X, DVec3::Y],
];

/// A face edge: where `a = −1` (Left), `a = +1` (Right), `b = −1` (Bottom), `b = +1` (Top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    Left = 0,
    Right = 1,
    Bottom = 2,
    Top = 3,
}

pub const EDGES: [Edge; 4] = [Edge::Left, Edge::Right, Edge::Bottom, Edge::Top];

/// What lies across one face edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seam {
    pub face: u8,
    pub edge: Edge,
    /// The along-edge coordinate runs the other way on the far face.
    pub reversed: bool,
}

const fn seam(face: u8, edge: Edge, reversed: bool) -> Seam {
    Seam {
        face,
        edge,
        reversed,
    }
}

/// `SEAMS[face][edge]`: the explicit adjacency table (tested against the geometry).
pub const SEAMS: [[Seam; 4]; 6] = [
    // +X: left → +Z right, right → −Z left, bottom → −Y right (reversed), top → +Y right.
    [
        seam(4, Edge::Right, false),
        seam(5, Edge::Left, false),
        seam(3, Edge::Right, true),
        seam(2, Edge::Right, false),
    ],
    // −X
    [
        seam(5, Edge::Right, false),
        seam(4, Edge::Left, false),
        seam(3, Edge::Left, false),
        seam(2, Edge::Left, true),
    ],
    // +Y
    [
        seam(1, Edge::Top, true),
        seam(0, Edge::Top, false),
        seam(4, Edge::Top, false),
        seam(5, Edge::Top, true),
    ],
    // −Y
    [
        seam(1, Edge::Bottom, false),
        seam(0, Edge::Bottom, true),
        seam(5, Edge::Bottom, true),
        seam(4, Edge::Bottom, false),
    ],
    // +Z
    [
        seam(1, Edge::Right, false),
        seam(0, Edge::Left, false),
        seam(3, Edge::Top, false),
        seam(2, Edge::Bottom, false),
    ],
    // −Z
    [
        seam(0, Edge::Right, false),
        seam(1, Edge::Left, false),
        seam(3, Edge::Bottom, true),
        seam(2, Edge::Top, true),
    ],
];

/// `v` scaled to unit length by dividing by its length. glam's `normalize` multiplies by the
/// length's reciprocal instead, which rounds differently in the last bit; every direction a
/// blob was baked and is read with goes through this one, so sample positions stay
/// bit-identical to the blobs already written.
#[inline]
pub fn normalize(v: DVec3) -> DVec3 {
    v / v.length()
}

/// The unit direction of face coordinates (a, b) on `face`.
#[inline]
pub fn direction(p: Projection, face: usize, a: f64, b: f64) -> DVec3 {
    let [n, r, t] = FACES[face];
    let (u, v) = (p.to_plane(a), p.to_plane(b));
    normalize(n + u * r + v * t)
}

/// The face a direction falls on (ties go to the lower face index) and its coordinates there.
/// `d` need not be unit length but must not be zero.
#[inline]
pub fn face_coords(p: Projection, d: DVec3) -> (usize, f64, f64) {
    face_coords_by(d, |u| p.from_plane(u))
}

/// [`face_coords`] with the projection's inverse given (gnomonic plane coordinate to face
/// coordinate): for a caller that must take it from one implementation on every machine.
#[inline]
pub fn face_coords_by(d: DVec3, from_plane: impl Fn(f64) -> f64) -> (usize, f64, f64) {
    let ax = d.abs();
    let axis = if ax[0] >= ax[1] && ax[0] >= ax[2] {
        0
    } else if ax[1] >= ax[2] {
        1
    } else {
        2
    };
    let face = axis * 2 + (d[axis] < 0.0) as usize;
    let [n, r, t] = FACES[face];
    let w = d.dot(n);
    let (u, v) = (d.dot(r) / w, d.dot(t) / w);
    (
        face,
        from_plane(u).clamp(-1.0, 1.0),
        from_plane(v).clamp(-1.0, 1.0),
    )
}

/// Face coordinate of sample index `i` on a face of `n` samples (cell centres).
#[inline]
pub fn coord_of(i: f64, n: u32) -> f64 {
    (i + 0.5) * 2.0 / n as f64 - 1.0
}

/// Continuous sample index of face coordinate `a` (inverse of [`coord_of`]).
#[inline]
pub fn index_of(a: f64, n: u32) -> f64 {
    (a + 1.0) * 0.5 * n as f64 - 0.5
}

/// The sample nearest direction `d` on a face grid of `n`: (face, i, j).
#[inline]
pub fn nearest(p: Projection, n: u32, d: DVec3) -> (usize, i64, i64) {
    let (face, a, b) = face_coords(p, d);
    let last = n as f64 - 1.0;
    let i = index_of(a, n).round().clamp(0.0, last) as i64;
    let j = index_of(b, n).round().clamp(0.0, last) as i64;
    (face, i, j)
}

/// Which edge a sample index beyond the face crosses, and the along-edge index there.
fn crossing(n: i64, i: i64, j: i64) -> Option<(Edge, i64, i64)> {
    // (edge, along-edge index, how far past the edge: 0 = first row across)
    if i < 0 {
        Some((Edge::Left, j, -i - 1))
    } else if i >= n {
        Some((Edge::Right, j, i - n))
    } else if j < 0 {
        Some((Edge::Bottom, i, -j - 1))
    } else if j >= n {
        Some((Edge::Top, i, j - n))
    } else {
        None
    }
}

/// The sample across `edge` of `face`, `depth` rows in, at along-edge index `along`.
fn across(face: usize, edge: Edge, along: i64, depth: i64, n: i64) -> (usize, i64, i64) {
    let s = SEAMS[face][edge as usize];
    let along = if s.reversed { n - 1 - along } else { along };
    let (i, j) = match s.edge {
        Edge::Left => (depth, along),
        Edge::Right => (n - 1 - depth, along),
        Edge::Bottom => (along, depth),
        Edge::Top => (along, n - 1 - depth),
    };
    (s.face as usize, i, j)
}

/// Resolves a sample index that may lie up to one row beyond its face (a "ghost" sample, as a
/// stencil at an edge needs) to the real sample. Beyond a cube corner (outside in both
/// directions) there is no sample: `None`.
#[inline]
pub fn resolve(face: usize, i: i64, j: i64, n: u32) -> Option<(usize, i64, i64)> {
    let n = n as i64;
    let outside_i = i < 0 || i >= n;
    let outside_j = j < 0 || j >= n;
    match (outside_i, outside_j) {
        (false, false) => Some((face, i, j)),
        (true, true) => None,
        _ => {
            let (edge, along, depth) = crossing(n, i, j)?;
            Some(across(face, edge, along, depth, n))
        }
    }
}

/// The four samples around a direction on a face grid of `n` (cell centres), in the order
/// (i0, j0), (i0+1, j0), (i0, j0+1), (i0+1, j0+1), resolved across seams, and the weights
/// between them. Beyond a cube corner one of the four does not exist (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stencil {
    pub at: [Option<(usize, i64, i64)>; 4],
    pub fx: f64,
    pub fy: f64,
}

/// The bilinear stencil around direction `d`.
#[inline]
pub fn stencil(p: Projection, n: u32, d: DVec3) -> Stencil {
    let (face, a, b) = face_coords(p, d);
    stencil_at(face, a, b, n)
}

/// The bilinear stencil around face coordinates (a, b) of `face`.
#[inline]
pub fn stencil_at(face: usize, a: f64, b: f64, n: u32) -> Stencil {
    let (s, t) = (index_of(a, n), index_of(b, n));
    let (i0, j0) = (s.floor() as i64, t.floor() as i64);
    let at = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(di, dj)| resolve(face, i0 + di, j0 + dj, n));
    Stencil {
        at,
        fx: s - i0 as f64,
        fy: t - j0 as f64,
    }
}

impl Stencil {
    /// The bilinear weights of the four samples, in the stencil's order.
    #[inline]
    pub fn weights(&self) -> [f64; 4] {
        let (fx, fy) = (self.fx, self.fy);
        [
            (1.0 - fx) * (1.0 - fy),
            fx * (1.0 - fy),
            (1.0 - fx) * fy,
            fx * fy,
        ]
    }

    /// Blends the values of the stencil's samples (`None` only where the sample does not
    /// exist): a missing corner sample takes the mean of the other three, which keeps the
    /// blend continuous where three faces meet.
    #[inline]
    pub fn blend(&self, v: [Option<f64>; 4]) -> f64 {
        let mut v = v;
        if let Some(missing) = v.iter().position(Option::is_none) {
            let sum: f64 = v.iter().flatten().sum();
            v[missing] = Some(sum / 3.0);
        }
        let v = v.map(|x| x.unwrap_or(0.0));
        let low = v[0] + (v[1] - v[0]) * self.fx;
        let high = v[2] + (v[3] - v[2]) * self.fx;
        low + (high - low) * self.fy
    }
}

/// Latitude (radians, + towards the pole) and longitude of a unit direction, for a polar
/// axis `pole` (unit). Longitude 0 is the meridian of the world axis least aligned with the
/// pole.
pub fn lat_lon(d: DVec3, pole: DVec3) -> (f64, f64) {
    let (e, n) = meridian_basis(pole);
    (latitude(d, pole), d.dot(n).atan2(d.dot(e)))
}

/// Latitude alone (radians): no longitude basis to build, for per-sample use.
#[inline]
pub fn latitude(d: DVec3, pole: DVec3) -> f64 {
    d.dot(pole).clamp(-1.0, 1.0).asin()
}

/// The unit direction at latitude/longitude (radians) for polar axis `pole`.
pub fn from_lat_lon(lat: f64, lon: f64, pole: DVec3) -> DVec3 {
    let (e, n) = meridian_basis(pole);
    let (cl, sl) = (lat.cos(), lat.sin());
    let (co, so) = (lon.cos(), lon.sin());
    normalize(pole * sl + cl * (e * co + n * so))
}

/// Two unit vectors spanning the equator plane of `pole`: longitude 0 and 90°.
fn meridian_basis(pole: DVec3) -> (DVec3, DVec3) {
    // The world axis least aligned with the pole seeds longitude 0, so it is never degenerate.
    let seed = if pole.y.abs() < 0.9 {
        DVec3::Y
    } else {
        DVec3::X
    };
    let k = seed.dot(pole);
    let e = normalize(seed - k * pole);
    (e, pole.cross(e))
}

/// Great-circle angle between two unit directions, radians (accurate at small angles).
#[inline]
pub fn angle(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Solid angle of the face rectangle between plane coordinates (u0, v0) and (u1, v1).
pub fn plane_solid_angle(u0: f64, v0: f64, u1: f64, v1: f64) -> f64 {
    let f = |x: f64, y: f64| (x * y / (1.0 + x * x + y * y).sqrt()).atan();
    f(u1, v1) - f(u0, v1) - f(u1, v0) + f(u0, v0)
}

/// Largest and smallest cell solid angle over a face of `n` cells (the same on every face).
pub fn cell_area_extremes(p: Projection, n: u32) -> (f64, f64) {
    let edge = |i: u32| p.to_plane(i as f64 * 2.0 / n as f64 - 1.0);
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    // By symmetry a quarter of the face (and the diagonal band) holds both extremes.
    for j in 0..n.div_ceil(2) {
        for i in j..n.div_ceil(2) {
            let s = plane_solid_angle(edge(i), edge(j), edge(i + 1), edge(j + 1));
            lo = lo.min(s);
            hi = hi.max(s);
        }
    }
    (hi, lo)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // faces are numbers in the seam table's geometry
mod tests {
    use super::*;
    use proptest::prelude::*;

    const P: Projection = Projection::EquiAngular;

    fn close(a: DVec3, b: DVec3, eps: f64) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() < eps)
    }

    /// The point on `face`'s `edge` at along-edge coordinate `t ∈ [-1, 1]`.
    fn edge_point(face: usize, edge: Edge, t: f64) -> DVec3 {
        match edge {
            Edge::Left => direction(P, face, -1.0, t),
            Edge::Right => direction(P, face, 1.0, t),
            Edge::Bottom => direction(P, face, t, -1.0),
            Edge::Top => direction(P, face, t, 1.0),
        }
    }

    #[test]
    fn the_seam_table_matches_the_geometry() {
        for face in 0..6 {
            for edge in EDGES {
                let s = SEAMS[face][edge as usize];
                // The far side's far side is back here.
                let back = SEAMS[s.face as usize][s.edge as usize];
                assert_eq!(
                    (back.face as usize, back.edge, back.reversed),
                    (face, edge, s.reversed)
                );
                for k in 0..=8 {
                    let t = k as f64 / 4.0 - 1.0;
                    let t_far = if s.reversed { -t } else { t };
                    assert!(
                        close(
                            edge_point(face, edge, t),
                            edge_point(s.face as usize, s.edge, t_far),
                            1e-12
                        ),
                        "face {face} {edge:?} at {t}"
                    );
                }
            }
        }
    }

    #[test]
    fn stepping_across_every_seam_and_back_is_the_identity() {
        let n = 16u32;
        for face in 0..6 {
            for edge in EDGES {
                for along in 0..n as i64 {
                    for depth in 0..2i64 {
                        // The sample `depth` rows inside this face at the edge...
                        let (i, j) = match edge {
                            Edge::Left => (depth, along),
                            Edge::Right => (n as i64 - 1 - depth, along),
                            Edge::Bottom => (along, depth),
                            Edge::Top => (along, n as i64 - 1 - depth),
                        };
                        // ...seen from the far face, one row beyond its edge, resolves back.
                        let s = SEAMS[face][edge as usize];
                        let far_along = if s.reversed {
                            n as i64 - 1 - along
                        } else {
                            along
                        };
                        let (gi, gj) = match s.edge {
                            Edge::Left => (-1 - depth, far_along),
                            Edge::Right => (n as i64 + depth, far_along),
                            Edge::Bottom => (far_along, -1 - depth),
                            Edge::Top => (far_along, n as i64 + depth),
                        };
                        assert_eq!(
                            resolve(s.face as usize, gi, gj, n),
                            Some((face, i, j)),
                            "face {face} {edge:?} along {along} depth {depth}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn ghost_samples_are_the_true_nearest_neighbours_on_the_sphere() {
        let n = 32u32;
        let centre = |f: usize, i: i64, j: i64| {
            direction(P, f, coord_of(i as f64, n), coord_of(j as f64, n))
        };
        for face in 0..6 {
            for k in 0..n as i64 {
                for (gi, gj, ii, ij) in [
                    (-1, k, 0, k),
                    (n as i64, k, n as i64 - 1, k),
                    (k, -1, k, 0),
                    (k, n as i64, k, n as i64 - 1),
                ] {
                    let (f2, i2, j2) = resolve(face, gi, gj, n).unwrap();
                    let edge_sample = centre(face, ii, ij);
                    let across = centre(f2, i2, j2);
                    let d = angle(edge_sample, across);
                    // Of every sample on every face, none is closer across the seam than the
                    // one the table gives (ties allowed), and it is about one cell away.
                    let spacing = std::f64::consts::FRAC_PI_2 / n as f64;
                    assert!(d > 0.5 * spacing && d < 1.5 * spacing, "{d} vs {spacing}");
                    for f3 in 0..6 {
                        if f3 == face {
                            continue;
                        }
                        for j3 in 0..n as i64 {
                            for i3 in 0..n as i64 {
                                let other = angle(edge_sample, centre(f3, i3, j3));
                                assert!(
                                    other >= d - 1e-12,
                                    "face {face} ({ii},{ij}): {other} < {d}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn corners_have_no_ghost_and_cells_are_within_twenty_percent() {
        assert_eq!(resolve(0, -1, -1, 8), None);
        assert_eq!(resolve(0, 8, 8, 8), None);
        let (hi, lo) = cell_area_extremes(Projection::EquiAngular, 256);
        let (ghi, glo) = cell_area_extremes(Projection::Gnomonic, 256);
        println!(
            "cell area max/min over a 256² face: equi-angular {:.4}, gnomonic {:.4}",
            hi / lo,
            ghi / glo
        );
        assert!((hi / lo - 1.41).abs() < 0.01, "{}", hi / lo);
        assert!((ghi / glo - 5.2).abs() < 0.1, "{}", ghi / glo);
        // Within ±20 % of the mean cell (4π / 6n²).
        let mean = 4.0 * std::f64::consts::PI / (6.0 * 256.0 * 256.0);
        assert!(
            hi < 1.2 * mean && lo > 0.8 * mean,
            "{} {} {}",
            lo / mean,
            hi / mean,
            mean
        );
    }

    proptest! {
        #[test]
        fn direction_to_face_coords_and_back_is_the_identity(
            x in -1.0f64..1.0, y in -1.0f64..1.0, z in -1.0f64..1.0
        ) {
            prop_assume!(x * x + y * y + z * z > 1e-6);
            let d = normalize(DVec3::new(x, y, z));
            for p in [Projection::EquiAngular, Projection::Gnomonic] {
                let (f, a, b) = face_coords(p, d);
                prop_assert!(close(direction(p, f, a, b), d, 1e-12));
                let back = face_coords(p, direction(p, f, a, b));
                prop_assert_eq!(back.0, f);
                prop_assert!((back.1 - a).abs() < 1e-12 && (back.2 - b).abs() < 1e-12);
            }
        }

        #[test]
        fn latitude_and_longitude_round_trip_for_any_pole(
            lat in -1.5f64..1.5, lon in -3.1f64..3.1,
            px in -1.0f64..1.0, py in -1.0f64..1.0, pz in -1.0f64..1.0
        ) {
            prop_assume!(px * px + py * py + pz * pz > 1e-3);
            let pole = normalize(DVec3::new(px, py, pz));
            let d = from_lat_lon(lat, lon, pole);
            let (la, lo) = lat_lon(d, pole);
            prop_assert!((la - lat).abs() < 1e-9 && (lo - lon).abs() < 1e-9);
            prop_assert!((d.dot(pole) - lat.sin()).abs() < 1e-12);
        }

        #[test]
        fn index_and_coordinate_are_inverse(i in 0.0f64..4095.0, n in 1u32..8192) {
            prop_assert!((index_of(coord_of(i, n), n) - i).abs() < 1e-9);
        }
    }
}
