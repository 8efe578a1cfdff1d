//! Far ground as textures: the runtime's clipmap levels (a flat world's clipmap or a planet's
//! LOD rings) as the layers of one `FORMAT_RF` texture array, and where each level lies, for a
//! shader to draw the ground out to the last level's edge.
//!
//! A level's storage is toroidal (cell (i, j) at `(i mod size, j mod size)`), so a shader
//! sampling the layer with repeat wrap at `uv = plane_xz / (spacing · size)` reads cell
//! `floor(plane_xz / spacing)` without knowing where the window starts ([`texel`] is that
//! mapping, tested against the clipmap). Only levels with a dirty rectangle this frame are
//! re-uploaded ([`dirty_levels`]); a level whose window did not move costs nothing. The bytes
//! handed to the engine are the level's own storage ([`level_bytes`]), not a copy. Plain Rust
//! with no engine types; steady state allocates nothing.

use relief::layer::plain;
use relief::lod::{Clipmap, DirtyRect};
use relief::runtime::LodPlane;

/// Where one level lies on the plane: its window's first cell, its spacing, its side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LevelPlacement {
    /// Plane (x, z) of the window's minimum corner, metres: `origin_cell · spacing`.
    pub origin: [f64; 2],
    /// Metres per cell.
    pub spacing: f64,
    /// Cells per side.
    pub size: u32,
    /// The window's first cell (i, j): `origin = origin_cell · spacing`.
    pub origin_cell: [i64; 2],
}

impl LevelPlacement {
    /// The storage texel holding the window's first cell (toroidal storage: cell i at
    /// `i mod size`), which the shader adds to a point's cell offset in the window.
    pub fn phase(&self) -> [i64; 2] {
        let n = self.size.max(1) as i64;
        self.origin_cell.map(|c| c.rem_euclid(n))
    }

    /// Whether plane point (x, z) lies inside the window.
    pub fn contains(&self, x: f64, z: f64) -> bool {
        let extent = self.spacing * self.size as f64;
        (self.origin[0]..self.origin[0] + extent).contains(&x)
            && (self.origin[1]..self.origin[1] + extent).contains(&z)
    }
}

/// The levels to re-upload for `rects`, as a bit set (bit k: level k); levels above 63 are
/// not representable and the runtime never makes them.
pub fn dirty_levels(rects: &[DirtyRect]) -> u64 {
    rects
        .iter()
        .filter(|r| r.width > 0 && r.depth > 0 && r.level < 64)
        .fold(0, |set, r| set | 1 << r.level)
}

/// The storage texel `(column, row)` holding the cell over plane point (x, z) at `spacing` in
/// a level of `size` cells: what the shader's repeat-wrapped sample at
/// `uv = (x, z) / (spacing · size)` reads.
pub fn texel(x: f64, z: f64, spacing: f64, size: u32) -> (u32, u32) {
    let n = size as i64;
    let i = (x / spacing).floor() as i64;
    let j = (z / spacing).floor() as i64;
    (i.rem_euclid(n) as u32, j.rem_euclid(n) as u32)
}

/// Level `k`'s storage as the bytes of a `FORMAT_RF` Image (`size × size`, native byte
/// order, row-major, toroidal).
pub fn level_bytes(clipmap: &Clipmap, k: usize) -> &[u8] {
    plain::bytes(clipmap.level(k).storage())
}

/// What the engine needs to know of the far ground beyond the levels' bytes: which levels to
/// re-upload, and the placements a shader reads.
pub struct FarGround {
    placements: Vec<LevelPlacement>,
    plane: LodPlane,
    /// Whether any placement or the plane changed since the engine last read them.
    moved: bool,
}

impl FarGround {
    /// Placements for `clipmap`'s levels, allocated once.
    pub fn new(clipmap: &Clipmap) -> FarGround {
        let c = clipmap.config();
        FarGround {
            placements: vec![LevelPlacement::default(); c.levels as usize],
            plane: LodPlane::WORLD,
            moved: true,
        }
    }

    /// Notes where every level of `clipmap` now lies on `plane`; returns the set of levels
    /// `rects` touched, to re-upload ([`dirty_levels`]).
    pub fn update(&mut self, clipmap: &Clipmap, plane: LodPlane, rects: &[DirtyRect]) -> u64 {
        let dirty = dirty_levels(rects) & ((1u64 << self.placements.len().min(63)) - 1);
        let size = clipmap.config().size;
        for (k, p) in self.placements.iter_mut().enumerate() {
            let level = clipmap.level(k);
            let origin_cell = level.origin().unwrap_or([0; 2]);
            let now = LevelPlacement {
                origin: origin_cell.map(|c| c as f64 * level.spacing),
                spacing: level.spacing,
                size,
                origin_cell,
            };
            self.moved |= *p != now;
            *p = now;
        }
        self.moved |= self.plane != plane;
        self.plane = plane;
        dirty
    }

    pub fn levels(&self) -> usize {
        self.placements.len()
    }

    pub fn placements(&self) -> &[LevelPlacement] {
        &self.placements
    }

    pub fn plane(&self) -> LodPlane {
        self.plane
    }

    /// Whether the placements or plane changed since the last call (the engine then sets its
    /// shader parameters again); clears the flag.
    pub fn take_moved(&mut self) -> bool {
        std::mem::take(&mut self.moved)
    }

    /// The finest level whose window holds plane point (x, z) (the shader's own choice, with
    /// a two-cell margin, is mirrored in [`crate::rings::Lift::level_at`]).
    pub fn level_at(&self, x: f64, z: f64) -> Option<usize> {
        self.placements.iter().position(|p| p.contains(x, z))
    }

    /// The cell over plane point (x, z) as the uploaded bytes hold it: level
    /// [`FarGround::level_at`]'s cell through [`texel`], what a nearest fetch reads. None
    /// outside every window.
    pub fn height_at(&self, clipmap: &Clipmap, x: f64, z: f64) -> Option<f32> {
        let k = self.level_at(x, z)?;
        let p = self.placements[k];
        let (c, r) = texel(x, z, p.spacing, p.size);
        let at = 4 * (r as usize * p.size as usize + c as usize);
        let bytes = level_bytes(clipmap, k);
        Some(f32::from_ne_bytes(bytes[at..at + 4].try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use relief::lod::ClipmapConfig;

    fn config() -> ClipmapConfig {
        ClipmapConfig {
            levels: 4,
            size: 16,
            base_spacing: 8.0,
        }
    }

    /// A clipmap over a ground whose mean over a cell is a function of the cell alone.
    fn clipmap_at(clip: &mut Clipmap, centre: [f64; 2]) -> Vec<DirtyRect> {
        clip.update_with(centre, &mut |k, s, i, j| {
            (k as f64 * 1000.0 + i as f64 * s * 0.5 + j as f64 * s * 0.25) as f32
        })
        .to_vec()
    }

    #[test]
    fn only_levels_with_a_non_empty_rectangle_are_uploaded() {
        let r = |level, width, depth| DirtyRect {
            level,
            x: 0,
            z: 0,
            width,
            depth,
        };
        assert_eq!(dirty_levels(&[]), 0);
        assert_eq!(dirty_levels(&[r(0, 3, 1), r(2, 1, 4), r(2, 2, 2)]), 0b101);
        assert_eq!(
            dirty_levels(&[r(1, 0, 5), r(3, 5, 0)]),
            0,
            "empty rectangles"
        );
    }

    #[test]
    fn a_short_walk_re_uploads_the_fine_levels_and_leaves_the_coarse_alone() {
        let mut clip = Clipmap::new(config()).unwrap();
        let mut far = FarGround::new(&clip);
        let rects = clipmap_at(&mut clip, [100.0, 100.0]);
        assert_eq!(
            far.update(&clip, LodPlane::WORLD, &rects),
            0b1111,
            "first fill"
        );
        assert!(far.take_moved());
        // 9 m east: level 0 (8 m cells) moves a column, level 3 (64 m) stays put.
        let rects = clipmap_at(&mut clip, [109.0, 100.0]);
        let set = far.update(&clip, LodPlane::WORLD, &rects);
        assert_eq!(set & 1, 1);
        assert_eq!(set & 0b1000, 0, "{set:b}");
        assert!(far.take_moved());
        // Standing still: nothing to upload, nothing moved.
        let rects = clipmap_at(&mut clip, [109.0, 100.0]);
        assert_eq!(far.update(&clip, LodPlane::WORLD, &rects), 0);
        assert!(!far.take_moved());
    }

    proptest! {
        /// What the shader reads anywhere inside the levels is the clipmap's cell there, after
        /// any walk: the bytes, the toroidal texel and the placement agree.
        #[test]
        fn the_shader_reads_the_clipmap_cell_under_any_point(
            walk in prop::collection::vec((-3000.0f64..3000.0, -3000.0f64..3000.0), 1..6),
            probes in prop::collection::vec((-0.999f64..0.999, -0.999f64..0.999), 20),
        ) {
            let mut clip = Clipmap::new(config()).unwrap();
            let mut far = FarGround::new(&clip);
            for &(x, z) in &walk {
                let rects = clipmap_at(&mut clip, [x, z]);
                far.update(&clip, LodPlane::WORLD, &rects);
            }
            let (cx, cz) = *walk.last().unwrap();
            // Half the coarsest level's extent less a cell: the window starts at the focus's cell.
            let reach = 7.0 * 64.0;
            for &(u, v) in &probes {
                let (x, z) = (cx + u * reach, cz + v * reach);
                let k = far.level_at(x, z).expect("inside the coarsest level");
                let s = far.placements()[k].spacing;
                let want = clip.cell(k, (x / s).floor() as i64, (z / s).floor() as i64);
                prop_assert_eq!(far.height_at(&clip, x, z), want);
                // The finest level holding the point: no finer one does.
                prop_assert!(far.placements()[..k].iter().all(|p| !p.contains(x, z)));
            }
        }

        #[test]
        fn texel_is_the_cell_index_wrapped_to_the_storage(
            x in -1e6f64..1e6, z in -1e6f64..1e6, k in 0u32..6,
        ) {
            let s = 16.0 * (1 << k) as f64;
            let (c, r) = texel(x, z, s, 128);
            prop_assert!(c < 128 && r < 128);
            prop_assert_eq!((x / s).floor() as i64 - c as i64, 128 * (x / s / 128.0).floor() as i64);
            prop_assert_eq!((z / s).floor() as i64 - r as i64, 128 * (z / s / 128.0).floor() as i64);
        }
    }
}
