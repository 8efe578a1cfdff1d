//! Camera-following clipmap levels for far ground: `levels` grids of `size × size` cells
//! around the focus, the cell spacing doubling per level. Cell (i, j) of a level with spacing
//! `s` stands for the square `[i·s, (i+1)·s) × [j·s, (j+1)·s)` and holds the mean height over
//! it — read from the resident regions' box-filtered pyramids (no point-sampling aliasing),
//! else the overview at the cell's centre. A coarser cell is therefore exactly the mean of the
//! four finer cells it covers.
//!
//! Storage is toroidal: cell (i, j) lives at `(i mod size, j mod size)`, so moving the focus
//! fills only the newly exposed rows and columns, and [`Clipmap::update`] returns the
//! rectangles of storage it rewrote — all an engine needs to upload.

use crate::config::ConfigError;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipmapConfig {
    /// Levels, 1 to [`MAX_LEVELS`].
    pub levels: u32,
    /// Cells per level side: even, 2 to [`MAX_SIZE`].
    pub size: u32,
    /// Cell spacing of level 0, metres (> 0); level k uses `base_spacing · 2^k`.
    pub base_spacing: f64,
}

/// The most levels a clipmap keeps (the coarsest cell is `2^23` times the finest).
pub const MAX_LEVELS: u32 = 24;
/// The widest level side, cells (a level of 4096² f32 is 64 MiB).
pub const MAX_SIZE: u32 = 4096;
/// The most cells of all levels together: `levels · size²` of f32 stay within 256 MiB.
pub const MAX_CELLS: u64 = 1 << 26;

impl ClipmapConfig {
    /// Checks every field; the error names the first that cannot work. [`Clipmap::new`]
    /// calls it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(1..=MAX_LEVELS).contains(&self.levels) {
            return Err(ConfigError::new(
                "levels",
                format!("must be 1 to {MAX_LEVELS}, is {}", self.levels),
            ));
        }
        if !(2..=MAX_SIZE).contains(&self.size) || self.size % 2 != 0 {
            return Err(ConfigError::new(
                "size",
                format!("must be even, 2 to {MAX_SIZE}, is {}", self.size),
            ));
        }
        let cells = self.levels as u64 * (self.size as u64).pow(2);
        if cells > MAX_CELLS {
            return Err(ConfigError::new(
                "size",
                format!(
                    "{} levels of {}² are {cells} cells; at most {MAX_CELLS} (256 MiB of heights)",
                    self.levels, self.size
                ),
            ));
        }
        // The coarsest level's side must be a finite length too.
        let widest = self.base_spacing * (1u64 << (self.levels - 1)) as f64 * self.size as f64;
        if !(self.base_spacing > 0.0 && widest.is_finite()) {
            return Err(ConfigError::new(
                "base_spacing",
                format!(
                    "must be above 0 and leave the coarsest level finite, is {}",
                    self.base_spacing
                ),
            ));
        }
        Ok(())
    }
}

impl Default for ClipmapConfig {
    /// 6 levels of 128×128 from 16 m: out to ±32 km at level 5.
    fn default() -> Self {
        ClipmapConfig {
            levels: 6,
            size: 128,
            base_spacing: 16.0,
        }
    }
}

/// A rectangle of a level's storage that changed, in storage cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirtyRect {
    pub level: u32,
    pub x: u32,
    pub z: u32,
    pub width: u32,
    pub depth: u32,
}

pub struct Level {
    pub spacing: f64,
    /// Cell index of the window's minimum corner; `None` before the first update.
    origin: Option<[i64; 2]>,
    /// `size²` heights, toroidal.
    heights: Vec<f32>,
}

impl Level {
    /// The window's first cell index, if the level has been filled.
    pub fn origin(&self) -> Option<[i64; 2]> {
        self.origin
    }
    /// Storage, row-major, toroidal: cell (i, j) at `(j mod size)·size + (i mod size)`.
    pub fn storage(&self) -> &[f32] {
        &self.heights
    }
}

pub struct Clipmap {
    config: ClipmapConfig,
    levels: Vec<Level>,
    dirty: Vec<DirtyRect>,
}

impl Clipmap {
    /// Empty levels for `config`, refused if it fails [`ClipmapConfig::validate`].
    pub fn new(config: ClipmapConfig) -> Result<Clipmap, ConfigError> {
        config.validate()?;
        Ok(Clipmap::valid(config))
    }

    /// [`Clipmap::new`] for a config already validated.
    pub(crate) fn valid(config: ClipmapConfig) -> Clipmap {
        let n = (config.size * config.size) as usize;
        let levels = (0..config.levels)
            .map(|k| Level {
                spacing: config.base_spacing * (1u64 << k) as f64,
                origin: None,
                heights: vec![0.0; n],
            })
            .collect();
        Clipmap {
            config,
            levels,
            dirty: Vec::with_capacity(4 * config.levels as usize),
        }
    }

    pub fn config(&self) -> &ClipmapConfig {
        &self.config
    }

    /// The rectangles the last `update` or `refresh_region` rewrote.
    pub fn dirty(&self) -> &[DirtyRect] {
        &self.dirty
    }

    pub fn level(&self, k: usize) -> &Level {
        &self.levels[k]
    }

    /// The height of world cell (i, j) of level k, if it is inside the window.
    pub fn cell(&self, k: usize, i: i64, j: i64) -> Option<f32> {
        let l = &self.levels[k];
        let n = self.config.size as i64;
        let o = l.origin?;
        if i < o[0] || j < o[1] || i >= o[0] + n || j >= o[1] + n {
            return None;
        }
        Some(l.heights[(j.rem_euclid(n) * n + i.rem_euclid(n)) as usize])
    }

    /// Takes `src`'s windows and the cells of `rects` (every cell when `rects` is None), and
    /// reports them as this clipmap's dirty rectangles: how levels built on another thread
    /// reach the one the engine reads, copying only what changed. Both have one config.
    pub fn copy_from(&mut self, src: &Clipmap, rects: Option<&[DirtyRect]>) {
        assert_eq!(
            self.config, src.config,
            "copy between clipmaps of one config"
        );
        self.dirty.clear();
        let n = self.config.size as usize;
        for (to, from) in self.levels.iter_mut().zip(&src.levels) {
            to.origin = from.origin;
        }
        match rects {
            None => {
                for (to, from) in self.levels.iter_mut().zip(&src.levels) {
                    to.heights.copy_from_slice(&from.heights);
                }
                self.mark_all_dirty();
            }
            Some(rects) => {
                for r in rects {
                    let (to, from) = (
                        &mut self.levels[r.level as usize],
                        &src.levels[r.level as usize],
                    );
                    for z in r.z as usize..(r.z + r.depth) as usize {
                        let row = z * n + r.x as usize..z * n + (r.x + r.width) as usize;
                        to.heights[row.clone()].copy_from_slice(&from.heights[row]);
                    }
                }
                self.dirty.extend_from_slice(rects);
            }
        }
    }

    /// Room for `n` dirty rectangles without allocating (for a clipmap that takes them from
    /// another with [`Clipmap::copy_from`]).
    pub fn reserve_rects(&mut self, n: usize) {
        self.dirty.reserve(n.saturating_sub(self.dirty.len()));
    }

    /// Reports `rects` as rewritten (a clipmap swapped in for another).
    pub fn set_dirty(&mut self, rects: &[DirtyRect]) {
        self.dirty.clear();
        self.dirty.extend_from_slice(rects);
    }

    /// Reports every level rewritten whole (a clipmap swapped in for another).
    pub fn mark_all_dirty(&mut self) {
        self.dirty.clear();
        let n = self.config.size;
        self.dirty
            .extend((0..self.config.levels).map(|level| DirtyRect {
                level,
                x: 0,
                z: 0,
                width: n,
                depth: n,
            }));
    }

    /// Reports nothing rewritten (a frame whose levels did not change).
    pub fn clear_dirty(&mut self) {
        self.dirty.clear();
    }

    /// Forgets every level's window, so the next update fills them whole.
    pub fn reset(&mut self) {
        for l in &mut self.levels {
            l.origin = None;
        }
    }

    /// The window logic on its own, for any ground: centres every level on plane point
    /// `centre` and asks `cell(level, spacing, i, j)` for each newly exposed cell.
    pub fn update_with(
        &mut self,
        centre: [f64; 2],
        cell: &mut dyn FnMut(usize, f64, i64, i64) -> f32,
    ) -> &[DirtyRect] {
        self.dirty.clear();
        let n = self.config.size as i64;
        for k in 0..self.levels.len() {
            let new = self.window_at(k, centre);
            let old = self.levels[k].origin;
            self.levels[k].origin = Some(new);
            match old {
                Some(o) if (new[0] - o[0]).abs() < n && (new[1] - o[1]).abs() < n => {
                    // Columns that came into view, over every row of the new window.
                    let (c0, c1) = if new[0] > o[0] {
                        (o[0] + n, new[0] + n)
                    } else {
                        (new[0], o[0])
                    };
                    self.fill(k, [c0, new[1]], [c1, new[1] + n], cell);
                    // Rows that came into view, over every column.
                    let (r0, r1) = if new[1] > o[1] {
                        (o[1] + n, new[1] + n)
                    } else {
                        (new[1], o[1])
                    };
                    self.fill(k, [new[0], r0], [new[0] + n, r1], cell);
                }
                _ => self.fill(k, new, [new[0] + n, new[1] + n], cell),
            }
        }
        &self.dirty
    }

    /// Level k's window origin when centred on plane point `centre`.
    fn window_at(&self, k: usize, centre: [f64; 2]) -> [i64; 2] {
        let (s, n) = (self.levels[k].spacing, self.config.size as i64);
        [
            (centre[0] / s).floor() as i64 - n / 2,
            (centre[1] / s).floor() as i64 - n / 2,
        ]
    }

    /// Whether [`Clipmap::update_with`] at `centre` would fill anything: some level is empty
    /// or its window would move. Cheap (a division per level), for deciding whether to ask.
    pub fn would_move(&self, centre: [f64; 2]) -> bool {
        (0..self.levels.len()).any(|k| self.levels[k].origin != Some(self.window_at(k, centre)))
    }

    /// Refills the visible cells of every level that overlap the plane rectangle `lo..hi`.
    pub fn refill_with(
        &mut self,
        lo: [f64; 2],
        hi: [f64; 2],
        cell: &mut dyn FnMut(usize, f64, i64, i64) -> f32,
    ) -> &[DirtyRect] {
        self.dirty.clear();
        let n = self.config.size as i64;
        for k in 0..self.levels.len() {
            let s = self.levels[k].spacing;
            let Some(o) = self.levels[k].origin else {
                continue;
            };
            let a = [(lo[0] / s).floor() as i64, (lo[1] / s).floor() as i64];
            let b = [(hi[0] / s).ceil() as i64, (hi[1] / s).ceil() as i64];
            let a = [a[0].max(o[0]), a[1].max(o[1])];
            let b = [b[0].min(o[0] + n), b[1].min(o[1] + n)];
            self.fill(k, a, b, cell);
        }
        &self.dirty
    }

    /// Fills world cells [a, b) of level k and records the storage rectangles.
    fn fill(
        &mut self,
        k: usize,
        a: [i64; 2],
        b: [i64; 2],
        cell: &mut dyn FnMut(usize, f64, i64, i64) -> f32,
    ) {
        if a[0] >= b[0] || a[1] >= b[1] {
            return;
        }
        let n = self.config.size as i64;
        let level = &mut self.levels[k];
        let s = level.spacing;
        for j in a[1]..b[1] {
            for i in a[0]..b[0] {
                level.heights[(j.rem_euclid(n) * n + i.rem_euclid(n)) as usize] = cell(k, s, i, j);
            }
        }
        // The same world rectangle in storage: each axis wraps into at most two spans.
        let spans = |lo: i64, hi: i64| -> [(u32, u32); 2] {
            let (start, len) = (lo.rem_euclid(n), hi - lo);
            if start + len <= n {
                [(start as u32, len as u32), (0, 0)]
            } else {
                [
                    (start as u32, (n - start) as u32),
                    (0, (start + len - n) as u32),
                ]
            }
        };
        for (x, w) in spans(a[0], b[0]) {
            for (z, d) in spans(a[1], b[1]) {
                if w > 0 && d > 0 {
                    self.dirty.push(DirtyRect {
                        level: k as u32,
                        x,
                        z,
                        width: w,
                        depth: d,
                    });
                }
            }
        }
    }
}
