//! The regular grid the erosion and hydrology run on: nodes at (x0 + i·dx, z0 + j·dx).

/// D8 neighbour offsets (di, dj) and whether they are diagonal.
pub const D8: [(isize, isize, bool); 8] = [
    (1, 0, false),
    (1, 1, true),
    (0, 1, false),
    (-1, 1, true),
    (-1, 0, false),
    (-1, -1, true),
    (0, -1, false),
    (1, -1, true),
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub nx: usize,
    pub nz: usize,
    pub dx: f64,
    pub x0: f64,
    pub z0: f64,
}

impl Grid {
    pub fn len(&self) -> usize {
        self.nx * self.nz
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    #[inline]
    pub fn idx(&self, i: usize, j: usize) -> usize {
        j * self.nx + i
    }
    #[inline]
    pub fn ij(&self, k: usize) -> (usize, usize) {
        (k % self.nx, k / self.nx)
    }
    #[inline]
    pub fn pos(&self, k: usize) -> (f64, f64) {
        let (i, j) = self.ij(k);
        (self.x0 + i as f64 * self.dx, self.z0 + j as f64 * self.dx)
    }
    pub fn on_border(&self, k: usize) -> bool {
        let (i, j) = self.ij(k);
        i == 0 || j == 0 || i + 1 == self.nx || j + 1 == self.nz
    }
    /// Calls `f(neighbour, distance)` for each in-grid D8 neighbour of `k`.
    #[inline]
    pub fn each_neighbour(&self, k: usize, mut f: impl FnMut(usize, f64)) {
        let (i, j) = self.ij(k);
        let diag = self.dx * std::f64::consts::SQRT_2;
        for (di, dj, d) in D8 {
            let (ni, nj) = (i as isize + di, j as isize + dj);
            if ni >= 0 && nj >= 0 && (ni as usize) < self.nx && (nj as usize) < self.nz {
                f(
                    self.idx(ni as usize, nj as usize),
                    if d { diag } else { self.dx },
                );
            }
        }
    }

    /// Bilinear sample of a field on this grid at world (x, z), clamped to the edge.
    pub fn sample(&self, field: &[f64], x: f64, z: f64) -> f64 {
        let fx = ((x - self.x0) / self.dx).clamp(0.0, (self.nx - 1) as f64);
        let fz = ((z - self.z0) / self.dx).clamp(0.0, (self.nz - 1) as f64);
        let i = (fx as usize).min(self.nx - 2);
        let j = (fz as usize).min(self.nz - 2);
        let (tx, tz) = (fx - i as f64, fz - j as f64);
        let k = self.idx(i, j);
        let a = field[k] + (field[k + 1] - field[k]) * tx;
        let b = field[k + self.nx] + (field[k + self.nx + 1] - field[k + self.nx]) * tx;
        a + (b - a) * tz
    }

    /// `heights` (one per node) as the world's overview on this grid.
    pub fn overview(&self, heights: &[f64]) -> relief::flat::overview::Overview {
        relief::flat::overview::Overview {
            origin_x: self.x0,
            origin_z: self.z0,
            spacing: self.dx,
            width: self.nx as u32,
            depth: self.nz as u32,
            heights: heights.iter().map(|&v| v as f32).collect(),
        }
    }

    /// Nearest node to world (x, z), clamped.
    pub fn nearest(&self, x: f64, z: f64) -> usize {
        let i = ((x - self.x0) / self.dx)
            .round()
            .clamp(0.0, (self.nx - 1) as f64) as usize;
        let j = ((z - self.z0) / self.dx)
            .round()
            .clamp(0.0, (self.nz - 1) as f64) as usize;
        self.idx(i, j)
    }
}
