//! `relief info --collision`: builds every collision chunk of a world or a planet, as a
//! runtime would, and measures how far each sample (placed by the chunk's documented formula)
//! lies from the ground the height query describes there, with every region or tile resident.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};
use relief::flat::collision::ChunkSource;
use relief::flat::terrain::{Origin, Terrain};
use relief::planet::collision::{PlanetChunkKey, PlanetChunkSource};
use relief::planet::{Planet, PlanetOrigin, PlanetTerrain, TileKey};
use relief::stream::{PieceMap, Source};
use relief::{DVec3, FormatError, World};

/// What a sweep found.
#[derive(Debug, Default)]
pub struct Sweep {
    pub chunks: usize,
    /// Samples per chunk side.
    pub samples: u32,
    pub spacing: f64,
    /// Samples compared (those the query answers from resident data: every one inside the
    /// world), holes, and samples past the world's edge (a chunk size that does not divide it).
    pub compared: usize,
    pub holes: usize,
    pub outside: usize,
    /// The largest distance from the ground, metres, and where.
    pub worst: f64,
    pub worst_at: String,
}

impl std::fmt::Display for Sweep {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "collision: {} chunks of {}² samples about {:.2} m apart; {} samples compared ({} holes, \
             {} past the world's edge): worst {:.4} m off the queried ground{}",
            self.chunks,
            self.samples,
            self.spacing,
            self.compared,
            self.holes,
            self.outside,
            self.worst,
            if self.worst_at.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.worst_at)
            }
        )
    }
}

impl Sweep {
    fn merge(&mut self, other: Sweep) {
        self.compared += other.compared;
        self.holes += other.holes;
        self.outside += other.outside;
        if worse(other.worst, self.worst) || self.worst_at.is_empty() && !other.worst_at.is_empty()
        {
            (self.worst, self.worst_at) = (other.worst, other.worst_at);
        }
    }
}

/// Whether gap `a` is worse than `b`: larger, or not a number (a sample off the ground by any
/// measure), which stays the worst once found.
fn worse(a: f64, b: f64) -> bool {
    !b.is_nan() && (a.is_nan() || a > b)
}

/// Runs `check` on keys `0..count` over every core, merging what each found.
fn on_every_core(count: usize, check: impl Fn(usize, &mut Sweep) + Sync) -> Sweep {
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Sweep::default());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut mine = Sweep::default();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= count {
                        break;
                    }
                    check(k, &mut mine);
                }
                total.lock().merge(mine);
            });
        }
    });
    total.into_inner()
}

/// Every chunk of a flat world of `size_m` (0: the default 64 m): each sample against the
/// height query there, bit for bit expected.
pub fn flat(world: Arc<World>, size_m: f64) -> Result<Sweep, Box<dyn std::error::Error>> {
    let spacing = world.manifest().vertex_spacing;
    let mut map = PieceMap::default();
    for loc in world.region_locations().collect::<Vec<_>>() {
        map.insert(loc, Arc::new(world.read_region_heights(loc)?));
    }
    let resident = Arc::new(RwLock::new(map));
    let size = if size_m == 0.0 {
        relief::runtime::chunks::DEFAULT_FLAT_CHUNK_M
    } else {
        size_m
    };
    let source = ChunkSource::new(world.clone(), resident.clone(), size)?;
    let terrain = Terrain::new(world, resident);
    let mut keys = Vec::new();
    source.keys_within(DVec3::ZERO, f64::MAX / 4.0, &mut keys);
    let failure = Mutex::new(None::<FormatError>);
    let mut sweep = on_every_core(keys.len(), |k, out| {
        let key = keys[k].0;
        let c = match source.load(key) {
            Ok(c) => c,
            Err(e) => return *failure.lock() = Some(e),
        };
        let n = c.samples as usize;
        for j in 0..n {
            for i in 0..n {
                let h = c.heights[j * n + i];
                let (x, z) = (
                    c.corner[0] + i as f64 * c.spacing,
                    c.corner[1] + j as f64 * c.spacing,
                );
                let q = terrain.height(x, z);
                if h.is_nan() {
                    out.holes += 1;
                } else if q.origin == Origin::Outside {
                    out.outside += 1;
                } else {
                    let gap = (h as f64 - q.height as f64).abs();
                    if worse(gap, out.worst) || out.worst_at.is_empty() {
                        out.worst = gap;
                        out.worst_at = format!("chunk ({}, {}) sample ({i}, {j})", key.x, key.z);
                    }
                    out.compared += 1;
                }
            }
        }
    });
    if let Some(e) = failure.into_inner() {
        return Err(e.into());
    }
    sweep.spacing = spacing;
    sweep.chunks = keys.len();
    sweep.samples = (source.chunk_metres() / spacing).round() as u32 + 1;
    Ok(sweep)
}

/// Every chunk of a planet at `size_m` (0: the default): each sample's distance from the
/// centre against R + the height query in the sample's own direction.
pub fn planet(planet: Arc<Planet>, size_m: f64) -> Result<Sweep, Box<dyn std::error::Error>> {
    let tiles = (planet.face_resolution() / planet.tile_size()) as u16;
    let mut map = PieceMap::default();
    for face in 0..6u8 {
        for ty in 0..tiles {
            for tx in 0..tiles {
                let key = TileKey { face, tx, ty };
                map.insert(key, Arc::new(planet.read_tile(key)?));
            }
        }
    }
    let resident = Arc::new(RwLock::new(map));
    let cells = PlanetChunkSource::cells_for(&planet, size_m)?;
    let source = PlanetChunkSource::new(planet.clone(), resident.clone(), cells)?;
    let terrain = PlanetTerrain::new(planet.clone(), resident)?;
    let per = (planet.face_resolution() / cells) as usize;
    let r = planet.radius();
    let failure = Mutex::new(None::<FormatError>);
    let key_of = |k: usize| PlanetChunkKey {
        face: (k / (per * per)) as u8,
        x: (k % per) as u16,
        z: (k / per % per) as u16,
    };
    let mut sweep = on_every_core(6 * per * per, |k, out| {
        let key = key_of(k);
        let c = match source.load(key) {
            Ok(c) => c,
            Err(e) => return *failure.lock() = Some(e),
        };
        let f = c.frame;
        for j in 0..c.samples {
            for i in 0..c.samples {
                let h = c.heights[(j * c.samples + i) as usize];
                let (x, z) = (
                    c.corner[0] + i as f64 * c.spacing,
                    c.corner[1] + j as f64 * c.spacing,
                );
                let p = f.origin + x * f.axis_x + h as f64 * f.up + z * f.axis_z;
                let q = terrain.height(p);
                if h.is_nan() {
                    out.holes += 1;
                } else if matches!(q.origin, PlanetOrigin::Tile(_)) {
                    let gap = (p.length() - r - q.height as f64).abs();
                    if worse(gap, out.worst) || out.worst_at.is_empty() {
                        out.worst = gap;
                        out.worst_at = format!(
                            "face {} chunk ({}, {}) sample ({i}, {j})",
                            key.face, key.x, key.z
                        );
                    }
                    out.compared += 1;
                }
            }
        }
    });
    if let Some(e) = failure.into_inner() {
        return Err(e.into());
    }
    (sweep.chunks, sweep.samples) = (6 * per * per, cells + 1);
    sweep.spacing = planet.spacing();
    Ok(sweep)
}
