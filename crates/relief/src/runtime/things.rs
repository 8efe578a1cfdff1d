//! Placed things in the runtime: one streamer per band with kinds ([`Things`]), their config
//! ([`ThingsConfig`]), and [`ThingLookup`], which finds built chunks and the things near a
//! point from any thread. A band streams a flat world's squares or a planet's face chunks
//! ([`ThingStream`]).

use glam::DVec3;
use std::sync::Arc;
use std::time::Duration;

use super::ground::Queries;
use crate::config::ConfigError;
use crate::error::FormatError;
use crate::flat::things::ThingSource;
use crate::planet::things::PlanetThingSource;
use crate::stream::{Event, Loaders, Resident, Source, Stats, StreamConfig, Streamer};
use crate::things::{check_chunk_size, Band, Rules, ThingChunk, ThingKey};

/// How one band's chunks stream.
#[derive(Clone, Debug, PartialEq)]
pub struct BandConfig {
    pub stream: StreamConfig,
    /// The chunk's side, metres (4 to 1024).
    pub chunk_size_m: f64,
}

impl BandConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.stream.validate().map_err(|e| e.within("stream"))?;
        check_chunk_size(self.chunk_size_m)
    }
}

/// Placed things: each band's chunk size and radii. The middle band's defaults are seed 003's
/// (64 m chunks built within 160 m, freed beyond 224 m); grass streams nearer, trees farther.
#[derive(Clone, Debug, PartialEq)]
pub struct ThingsConfig {
    /// 32 m chunks within 64 m, kept to 96 m, 32 MiB.
    pub near: BandConfig,
    /// 64 m chunks within 160 m, kept to 224 m, 64 MiB.
    pub mid: BandConfig,
    /// 128 m chunks within 384 m, kept to 512 m, 64 MiB.
    pub far: BandConfig,
}

impl ThingsConfig {
    pub fn band(&self, band: Band) -> &BandConfig {
        match band {
            Band::Near => &self.near,
            Band::Mid => &self.mid,
            Band::Far => &self.far,
        }
    }

    /// Checks every band; the error names the field (`mid.stream.drop_radius`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        for band in Band::ALL {
            self.band(band)
                .validate()
                .map_err(|e| e.within(band.name()))?;
        }
        Ok(())
    }
}

impl Default for ThingsConfig {
    fn default() -> Self {
        let band = |size: f64, load: f64, drop: f64, mib: usize| BandConfig {
            stream: StreamConfig {
                load_radius: load,
                drop_radius: drop,
                budget_bytes: mib << 20,
                ..StreamConfig::default()
            },
            chunk_size_m: size,
        };
        ThingsConfig {
            near: band(32.0, 64.0, 96.0, 32),
            mid: band(64.0, 160.0, 224.0, 64),
            far: band(128.0, 384.0, 512.0, 64),
        }
    }
}

/// One band's chunks: a flat world's squares or a planet's face chunks.
pub enum ThingStream {
    Flat(ThingSource),
    Planet(PlanetThingSource),
}

impl ThingStream {
    /// `band`'s chunks of about `size_m` metres over `queries`' ground and resident pieces
    /// (see [`ThingSource::new`] and [`PlanetThingSource::new`] for what is refused).
    pub fn new(
        queries: &Queries,
        rules: Arc<Rules>,
        band: Band,
        size_m: f64,
    ) -> Result<ThingStream, ConfigError> {
        Ok(match queries {
            Queries::Flat(t) => {
                ThingStream::Flat(ThingSource::new(t.clone(), rules, band, size_m)?)
            }
            Queries::Planet(t) => {
                ThingStream::Planet(PlanetThingSource::new(t.clone(), rules, band, size_m)?)
            }
        })
    }

    pub fn band(&self) -> Band {
        match self {
            ThingStream::Flat(s) => s.band(),
            ThingStream::Planet(s) => s.band(),
        }
    }

    pub fn rules(&self) -> &Arc<Rules> {
        match self {
            ThingStream::Flat(s) => s.rules(),
            ThingStream::Planet(s) => s.rules(),
        }
    }

    /// A chunk's side, metres (of its face's plane on a planet, about as many of ground).
    pub fn chunk_metres(&self) -> f64 {
        match self {
            ThingStream::Flat(s) => s.chunk_metres(),
            ThingStream::Planet(s) => s.chunk_metres(),
        }
    }

    /// The chunk under `pos`: world (x, z) on a flat world, its direction on a planet.
    pub fn key_at(&self, pos: DVec3) -> ThingKey {
        match self {
            ThingStream::Flat(s) => s.key_at(pos.x, pos.z),
            ThingStream::Planet(s) => s.key_at(pos),
        }
    }

    /// Distance between two positions, heights apart: planar on a flat world, along the
    /// sea-level sphere on a planet.
    pub fn horizontal(&self, a: DVec3, b: DVec3) -> f64 {
        match self {
            ThingStream::Flat(_) => ((a.x - b.x).powi(2) + (a.z - b.z).powi(2)).sqrt(),
            ThingStream::Planet(s) => s.horizontal(a, b),
        }
    }

    /// Places chunk `key`'s things, from any thread.
    pub fn build(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        match self {
            ThingStream::Flat(s) => s.build(key),
            ThingStream::Planet(s) => s.build(key),
        }
    }
}

impl Source for ThingStream {
    type Key = ThingKey;
    type Item = ThingChunk;
    type Error = FormatError;

    fn keys_within(&self, focus: DVec3, radius: f64, out: &mut Vec<(ThingKey, f64)>) {
        match self {
            ThingStream::Flat(s) => s.keys_within(focus, radius, out),
            ThingStream::Planet(s) => s.keys_within(focus, radius, out),
        }
    }

    fn moved(&self, from: DVec3, to: DVec3) -> f64 {
        match self {
            ThingStream::Flat(s) => s.moved(from, to),
            ThingStream::Planet(s) => s.moved(from, to),
        }
    }

    fn distance(&self, key: ThingKey, focus: DVec3) -> f64 {
        match self {
            ThingStream::Flat(s) => s.distance(key, focus),
            ThingStream::Planet(s) => s.distance(key, focus),
        }
    }

    fn estimate_bytes(&self, key: ThingKey) -> usize {
        match self {
            ThingStream::Flat(s) => s.estimate_bytes(key),
            ThingStream::Planet(s) => s.estimate_bytes(key),
        }
    }

    fn item_bytes(c: &ThingChunk) -> usize {
        c.bytes()
    }

    fn load(&self, key: ThingKey) -> Result<ThingChunk, FormatError> {
        self.build(key)
    }
}

/// The thing streamers: one per band the table has kinds in.
pub struct Things {
    bands: Vec<Streamer<ThingStream>>,
    rules: Arc<Rules>,
}

impl Things {
    /// Streamers for `rules`' bands over `queries`' ground and resident pieces, on `loaders`.
    /// A table with no kinds streams none.
    pub fn new(
        queries: &Queries,
        rules: &Arc<Rules>,
        config: &ThingsConfig,
        loaders: &Loaders,
    ) -> Result<Things, ConfigError> {
        config.validate()?;
        let mut bands = Vec::new();
        for band in Band::ALL.into_iter().filter(|b| rules.has_band(*b)) {
            let c = config.band(band);
            let source = ThingStream::new(queries, rules.clone(), band, c.chunk_size_m)
                .map_err(|e| e.within(band.name()))?;
            let s = Streamer::new(Arc::new(source), c.stream.clone(), loaders)
                .map_err(|e| e.within(band.name()))?;
            bands.push(s);
        }
        Ok(Things {
            bands,
            rules: rules.clone(),
        })
    }

    /// The ground's placement table (its kinds, whichever bands stream).
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub fn lookup(&self) -> ThingLookup {
        ThingLookup {
            bands: self
                .bands
                .iter()
                .map(|s| (s.source().clone(), s.resident()))
                .collect(),
        }
    }

    /// The bands streaming, in order (near, mid, far; those with kinds).
    pub fn bands(&self) -> impl Iterator<Item = Band> + '_ {
        self.bands.iter().map(|s| s.source().band())
    }

    pub fn update(&mut self, focus: DVec3) {
        for s in &mut self.bands {
            s.update(focus);
        }
    }

    pub fn record_update_times(&mut self, on: bool) {
        for s in &mut self.bands {
            s.record_update_times(on);
        }
    }

    pub fn is_idle(&self) -> bool {
        self.bands.iter().all(Streamer::is_idle)
    }

    /// The chunks whose last event was Loaded.
    pub fn for_each_loaded(&self, mut f: impl FnMut(ThingKey)) {
        for s in &self.bands {
            s.for_each_loaded(&mut f);
        }
    }

    /// The oldest event of any band (near first).
    pub fn poll_event(&mut self) -> Option<Event<ThingKey, FormatError>> {
        self.bands.iter_mut().find_map(Streamer::poll_event)
    }

    /// Each streaming band's stats.
    pub fn stats(&self) -> [Option<Stats>; 3] {
        let mut out = [None, None, None];
        for s in &self.bands {
            out[s.source().band() as usize] = Some(s.stats());
        }
        out
    }

    pub fn clear_timings(&mut self) {
        for s in &mut self.bands {
            s.clear_timings();
        }
    }

    /// As [`Streamer::settle`], every band.
    pub fn settle(&mut self, focus: DVec3, timeout: Duration) -> bool {
        self.bands.iter_mut().all(|s| s.settle(focus, timeout))
    }
}

/// A thing near a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThingHit {
    pub id: u64,
    pub kind: u32,
    /// Where it stands, world metres.
    pub position: DVec3,
    /// Horizontal distance from the point asked about, metres (see [`ThingLookup::within`]).
    pub distance: f64,
    /// Its chunk, and its index there.
    pub chunk: ThingKey,
    pub index: u32,
}

/// Finds built thing chunks, and the things near a point, from any thread. Cheap to clone.
#[derive(Clone, Default)]
pub struct ThingLookup {
    bands: Vec<(Arc<ThingStream>, Resident<ThingKey, ThingChunk>)>,
}

impl ThingLookup {
    /// The built chunk `key`, if it is resident.
    pub fn get(&self, key: ThingKey) -> Option<Arc<ThingChunk>> {
        let (_, built) = self.bands.iter().find(|(s, _)| s.band() == key.band)?;
        built.read().get(&key).cloned()
    }

    /// `band`'s chunk under `pos` (world (x, z) on a flat world, its direction on a
    /// planet), if the band streams.
    pub fn key_at(&self, band: Band, pos: DVec3) -> Option<ThingKey> {
        let (s, _) = self.bands.iter().find(|(s, _)| s.band() == band)?;
        Some(s.key_at(pos))
    }

    /// Appends to `out` the things of built chunks standing within `radius` of `pos`
    /// (horizontal distance, heights apart: planar on a flat world, y ignored; along the
    /// sea-level sphere on a planet), nearest first; returns how many it appended. Things whose chunk
    /// is not built (beyond its band's load radius) are not found. A point or radius that is
    /// not finite finds nothing.
    pub fn within(&self, pos: DVec3, radius: f64, out: &mut Vec<ThingHit>) -> usize {
        let first = out.len();
        if !(pos.is_finite() && radius.is_finite() && radius >= 0.0) {
            return 0;
        }
        for (source, built) in &self.bands {
            // The built chunks, not the squares the radius covers: a huge radius costs no
            // more than the chunks there are.
            for (key, c) in built.read().iter() {
                if source.distance(*key, pos) > radius {
                    continue;
                }
                let o = DVec3::from_array(c.origin);
                for (i, p) in c.positions.iter().enumerate() {
                    let at = o + DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64);
                    let d = source.horizontal(at, pos);
                    if d <= radius {
                        out.push(ThingHit {
                            id: c.ids[i],
                            kind: c.kind_of(i).unwrap_or(u32::MAX),
                            position: at,
                            distance: d,
                            chunk: *key,
                            index: i as u32,
                        });
                    }
                }
            }
        }
        out[first..].sort_by(|a, b| a.distance.total_cmp(&b.distance).then(a.id.cmp(&b.id)));
        out.len() - first
    }
}
