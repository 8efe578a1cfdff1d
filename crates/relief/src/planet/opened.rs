//! `Planet`: an opened blob with its fields found by name and its tables read on first use
//! (opening reads the header and index only).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::error::FormatError;
use crate::io::ReadAt;
use crate::layer::{plain, Layer};
use crate::pool::{with_scratch, Buffer, BufferPool};
use crate::things::Rules;

use super::blob::{Blob, TileKey, TileSpan};
use glam::DVec3;

use super::cube::{self, Projection};
use super::format::{self, SampleType, BIOME, HEIGHT, LAKE, PRECIPITATION, SEDIMENT};
use super::tables::{decode_lakes, decode_reaches, PlanetCensus, PlanetLake, PlanetReach};

/// Every known field of one tile, decoded. Sample (i, j) of the tile is at `j·size + i`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanetTile {
    pub key: TileKey,
    pub size: u32,
    /// Metres above the radius.
    pub height: Layer<f32>,
    /// Biome class ids.
    pub biome: Layer<u8>,
    /// Lake ids (0 = none).
    pub lake: Layer<u16>,
    /// Sediment thickness, metres (v7 blobs).
    pub sediment: Option<Layer<f32>>,
    /// Precipitation, mm/yr (v7 blobs).
    pub precipitation: Option<Layer<f32>>,
}

impl PlanetTile {
    pub fn bytes(&self) -> usize {
        let n = self.height.len();
        n * (4 + 1 + 2)
            + self.sediment.as_ref().map_or(0, |_| n * 4)
            + self.precipitation.as_ref().map_or(0, |_| n * 4)
    }
}

/// The coarse whole-planet heights (the OVRV section): answers where no tile is resident.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanetOverview {
    pub size: u32,
    pub heights: Vec<f32>,
}

#[derive(Debug)]
struct Slots {
    height: usize,
    biome: usize,
    lake: usize,
    sediment: Option<usize>,
    precipitation: Option<usize>,
}

pub struct Planet {
    blob: Blob,
    slots: Slots,
    reaches: OnceLock<Result<Vec<PlanetReach>, String>>,
    lakes: OnceLock<Result<Vec<PlanetLake>, String>>,
    biomes: OnceLock<Result<Vec<String>, String>>,
    overview: OnceLock<Result<PlanetOverview, String>>,
    things: OnceLock<Result<Arc<Rules>, String>>,
}

impl std::fmt::Debug for Planet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Planet").field("blob", &self.blob).finish()
    }
}

/// True if the file at `path` starts with the PLNT magic.
pub fn is_planet_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    crate::io::open_regular(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && magic == format::MAGIC
}

impl Planet {
    /// Opens a blob by path (positioned reads; see [`Blob::open`]), or by `http://` or
    /// `https://` URL with the default [`HttpOptions`](crate::http::HttpOptions).
    pub fn open(path: impl AsRef<Path>) -> Result<Planet, FormatError> {
        let path = path.as_ref();
        if let Some(url) = path.to_str().filter(|p| crate::io::is_url(p)) {
            #[cfg(feature = "http")]
            return Planet::open_url(url, &crate::http::HttpOptions::default());
            #[cfg(not(feature = "http"))]
            return Err(FormatError::no_http(url));
        }
        Planet::from_blob(Blob::open(path)?)
    }

    /// Opens a blob on a server: header, field table and index in one or two requests, each
    /// tile later in one ranged GET (its fields lie together), through `options`' cache.
    #[cfg(feature = "http")]
    pub fn open_url(url: &str, options: &crate::http::HttpOptions) -> Result<Planet, FormatError> {
        let bytes = crate::http::HttpBytes::open_for_reading(url, options)?;
        let name = bytes.url().to_string();
        Planet::from_blob(Blob::open_bytes(name, Box::new(bytes))?)
    }

    /// Opens a blob from memory or a caller's reader.
    pub fn open_bytes(name: &str, bytes: Box<dyn ReadAt>) -> Result<Planet, FormatError> {
        Planet::from_blob(Blob::open_bytes(name, bytes)?)
    }

    /// Opens a blob stored as the `length` bytes at `offset` of the file at `path`, read in
    /// place (see [`FileRange`](crate::io::FileRange)): a planet kept uncompressed inside an
    /// Android APK opens straight from the APK. A range past the file's end is an IO error.
    pub fn open_file_range(
        path: impl AsRef<Path>,
        offset: u64,
        length: u64,
    ) -> Result<Planet, FormatError> {
        let path = path.as_ref();
        let file = crate::io::open_regular(path).map_err(|e| FormatError::io(path, e))?;
        Planet::open_in_file(file, offset, length, &path.display().to_string())
    }

    /// Opens a blob stored as the `length` bytes at `offset` of `file`, a file already open
    /// (on Android, the descriptor `AssetManager.openFd` gives, duplicated), read in place as
    /// [`open_file_range`](Self::open_file_range) reads; `name` labels messages.
    pub fn open_in_file(
        file: std::fs::File,
        offset: u64,
        length: u64,
        name: &str,
    ) -> Result<Planet, FormatError> {
        let bytes = crate::io::FileRange::of_file(file, offset, length)
            .map_err(|e| FormatError::io(Path::new(name), e))?;
        Planet::from_blob(Blob::open_bytes(
            format!("{name}@{offset}+{length}"),
            Box::new(bytes),
        )?)
    }

    pub fn from_blob(blob: Blob) -> Result<Planet, FormatError> {
        let need = |name: &str| {
            blob.field_index(name)
                .ok_or_else(|| FormatError::Corrupt(format!("PLNT blob has no `{name}` field")))
        };
        let slots = Slots {
            height: need(HEIGHT)?,
            biome: need(BIOME)?,
            lake: need(LAKE)?,
            sediment: blob.field_index(SEDIMENT),
            precipitation: blob.field_index(PRECIPITATION),
        };
        Ok(Planet {
            blob,
            slots,
            reaches: OnceLock::new(),
            lakes: OnceLock::new(),
            biomes: OnceLock::new(),
            overview: OnceLock::new(),
            things: OnceLock::new(),
        })
    }

    pub fn blob(&self) -> &Blob {
        &self.blob
    }
    pub fn radius(&self) -> f64 {
        self.blob.header().radius
    }
    pub fn pole(&self) -> DVec3 {
        self.blob.header().polar_axis
    }
    pub fn projection(&self) -> Projection {
        self.blob.header().projection
    }
    pub fn face_resolution(&self) -> u32 {
        self.blob.header().face_resolution
    }
    pub fn tile_size(&self) -> u32 {
        self.blob.header().tile_size
    }
    /// Metres between samples at the coarsest (face-centre) cell: R·(π/2)/N.
    pub fn spacing(&self) -> f64 {
        self.radius() * std::f64::consts::FRAC_PI_2 / self.face_resolution() as f64
    }

    /// Reads, checks and decodes every known field of one tile.
    pub fn read_tile(&self, key: TileKey) -> Result<PlanetTile, FormatError> {
        self.read_tile_in(key, None)
    }

    /// As [`read_tile`](Self::read_tile), with the fields' buffers taken from `pool` (and
    /// given back to it when the tile is dropped): what the streamer's loads use. A tile's
    /// fields lying together ([`Blob::span`]) are read with one read, over HTTP one request.
    pub fn read_tile_in(
        &self,
        key: TileKey,
        pool: Option<&Arc<BufferPool>>,
    ) -> Result<PlanetTile, FormatError> {
        self.with_span(key, |span| self.decode_tile(key, pool, span))
    }

    /// A tile's heights alone, metres.
    /// It reads the same bytes as [`read_tile`](Self::read_tile) where a tile's fields lie
    /// together, so over HTTP it shares that request (or its cache entry) rather than making
    /// one more; else the height field only.
    pub fn read_heights(&self, key: TileKey) -> Result<Layer<f32>, FormatError> {
        self.with_span(key, |span| self.scaled(key, None, span, self.slots.height))
    }

    /// Runs `f` on tile `key`'s span read into this thread's scratch buffer, or on `None`
    /// when its fields lie apart (then each is read on its own).
    fn with_span<R>(
        &self,
        key: TileKey,
        f: impl FnOnce(Option<(&TileSpan, &[u8])>) -> Result<R, FormatError>,
    ) -> Result<R, FormatError> {
        match self.blob.span(key, &self.fields()) {
            Some(span) => with_scratch(span.length, |bytes| {
                self.blob.read_span(&span, bytes)?;
                let r = f(Some((&span, bytes)))?;
                self.blob.vouch_span(&span, bytes);
                Ok(r)
            }),
            None => f(None),
        }
    }

    /// The blob fields a tile is read from, in blob order.
    fn fields(&self) -> Vec<usize> {
        let s = &self.slots;
        let mut f = vec![s.height, s.biome, s.lake];
        f.extend(s.sediment);
        f.extend(s.precipitation);
        f.sort_unstable();
        f
    }

    fn take(&self, len: usize, pool: Option<&Arc<BufferPool>>) -> Buffer {
        pool.map_or_else(|| Buffer::zeroed(len), |p| p.take(len))
    }

    /// A field as it is stored, decoded into a buffer of its own: from the span's bytes
    /// when they were read together, else read from the blob.
    fn stored(
        &self,
        key: TileKey,
        pool: Option<&Arc<BufferPool>>,
        span: Option<(&TileSpan, &[u8])>,
        field: usize,
    ) -> Result<Buffer, FormatError> {
        let n = (self.tile_size() as usize).pow(2);
        let mut out = self.take(n * self.blob.fields()[field].ty.size(), pool);
        match span {
            Some((span, bytes)) => self.blob.decode_span_into(span, bytes, field, &mut out)?,
            None => self.blob.decode_tile_into(field, key, &mut out)?,
        }
        Ok(out)
    }

    /// A field in metres (or its unit): f32 after the field's scale and offset.
    fn scaled(
        &self,
        key: TileKey,
        pool: Option<&Arc<BufferPool>>,
        span: Option<(&TileSpan, &[u8])>,
        field: usize,
    ) -> Result<Layer<f32>, FormatError> {
        let f = &self.blob.fields()[field];
        let (scale, offset) = (f.scale, f.offset);
        let unit = |x: f32| x * scale + offset;
        let out = if f.ty == SampleType::F32 {
            let mut out = self.stored(key, pool, span, field)?;
            if scale != 1.0 || offset != 0.0 {
                let v: &mut [f32] = plain::cast_mut(&mut out);
                v.iter_mut().for_each(|x| *x = unit(*x));
            }
            out
        } else {
            // Stored as integers: decoded into a buffer of their own (the pool's, and back to
            // it), then widened and scaled in one pass.
            let raw = self.stored(key, pool, span, field)?;
            let mut out = self.take(raw.len() / f.ty.size() * 4, pool);
            let dst: &mut [f32] = plain::cast_mut(&mut out);
            match f.ty {
                SampleType::U16 => {
                    for (d, s) in dst.iter_mut().zip(raw.chunks_exact(2)) {
                        *d = unit(u16::from_le_bytes([s[0], s[1]]) as f32);
                    }
                }
                _ => dst
                    .iter_mut()
                    .zip(raw.iter())
                    .for_each(|(d, &s)| *d = unit(s as f32)),
            }
            if let Some(p) = pool {
                p.give(raw);
            }
            out
        };
        Ok(Layer::from_buffer(out, pool))
    }

    /// Every known field of a tile, from `span`'s bytes or, without one, field by field.
    fn decode_tile(
        &self,
        key: TileKey,
        pool: Option<&Arc<BufferPool>>,
        span: Option<(&TileSpan, &[u8])>,
    ) -> Result<PlanetTile, FormatError> {
        let typed = |field: usize, ty: SampleType, what: &str| -> Result<Buffer, FormatError> {
            if self.blob.fields()[field].ty != ty {
                return Err(FormatError::Corrupt(format!(
                    "PLNT {what} field is not {ty:?}"
                )));
            }
            self.stored(key, pool, span, field)
        };
        let scaled = |field: usize| self.scaled(key, pool, span, field);
        let biome = || typed(self.slots.biome, SampleType::U8, "biome");
        let lake = || typed(self.slots.lake, SampleType::U16, "lake");
        let sediment = || self.slots.sediment.map(scaled).transpose();
        let precipitation = || self.slots.precipitation.map(scaled).transpose();
        fn join<T>(r: std::thread::Result<Result<T, FormatError>>) -> Result<T, FormatError> {
            r.unwrap_or_else(|_| Err(FormatError::Corrupt("a tile read panicked".into())))
        }
        let (height, biome, lake, sediment, precipitation) =
            if span.is_none() && self.blob.is_remote() {
                // Fields apart on a server, each a request of its own: all at once, one round trip.
                std::thread::scope(|s| {
                    let biome = s.spawn(biome);
                    let lake = s.spawn(lake);
                    let sediment = s.spawn(sediment);
                    let precipitation = s.spawn(precipitation);
                    let height = scaled(self.slots.height);
                    (
                        height,
                        join(biome.join()),
                        join(lake.join()),
                        join(sediment.join()),
                        join(precipitation.join()),
                    )
                })
            } else {
                (
                    scaled(self.slots.height),
                    biome(),
                    lake(),
                    sediment(),
                    precipitation(),
                )
            };
        Ok(PlanetTile {
            key,
            size: self.tile_size(),
            height: height?,
            biome: Layer::from_buffer(biome?, pool),
            lake: Layer::from_buffer(lake?, pool),
            sediment: sediment?,
            precipitation: precipitation?,
        })
    }

    /// The byte length of each field buffer one tile takes: what a pool is faulted in with.
    pub fn tile_lens(&self) -> Vec<usize> {
        let n = (self.tile_size() as usize).pow(2);
        let mut lens = vec![4 * n, n, 2 * n];
        lens.extend(self.slots.sediment.map(|_| 4 * n));
        lens.extend(self.slots.precipitation.map(|_| 4 * n));
        lens
    }

    fn table<'a, T>(
        &self,
        cell: &'a OnceLock<Result<T, String>>,
        read: impl FnOnce() -> Result<T, FormatError>,
    ) -> Result<&'a T, FormatError> {
        cell.get_or_init(|| read().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| FormatError::Corrupt(e.clone()))
    }

    fn section(&self, tag: [u8; 4]) -> Result<Vec<u8>, FormatError> {
        self.blob.section(tag)?.ok_or_else(|| {
            FormatError::Corrupt(format!(
                "PLNT blob has no {} section",
                String::from_utf8_lossy(&tag)
            ))
        })
    }

    pub fn reaches(&self) -> Result<&[PlanetReach], FormatError> {
        self.table(&self.reaches, || {
            decode_reaches(&self.section(format::RIVERS)?)
        })
        .map(Vec::as_slice)
    }

    pub fn lakes(&self) -> Result<&[PlanetLake], FormatError> {
        self.table(&self.lakes, || decode_lakes(&self.section(format::LAKES)?))
            .map(Vec::as_slice)
    }

    pub fn biome_names(&self) -> Result<&[String], FormatError> {
        self.table(&self.biomes, || {
            serde_json::from_slice(&self.section(format::BIOMES)?)
                .map_err(|e| FormatError::Corrupt(format!("PLNT BIOM section: {e}")))
        })
        .map(Vec::as_slice)
    }

    /// The planet's placement table (its `THNG` section, checked against its biome names);
    /// no kinds for a planet baked without one.
    pub fn things(&self) -> Result<&Arc<Rules>, FormatError> {
        self.table(&self.things, || {
            let Some(json) = self.blob.section(format::THINGS)? else {
                return Ok(Arc::new(Rules::none()));
            };
            let names = self.biome_names()?;
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            Rules::parse(&json, &names)
                .map(Arc::new)
                .map_err(|e| FormatError::Corrupt(format!("PLNT THNG section: {e}")))
        })
    }

    pub fn census(&self) -> Result<PlanetCensus, FormatError> {
        serde_json::from_slice(&self.section(format::CENSUS)?)
            .map_err(|e| FormatError::Corrupt(format!("PLNT CNSS section: {e}")))
    }

    pub fn seed_text(&self) -> Result<String, FormatError> {
        Ok(String::from_utf8_lossy(&self.section(format::SEED_TEXT)?).into_owned())
    }

    pub fn overview(&self) -> Result<&PlanetOverview, FormatError> {
        self.table(&self.overview, || {
            let b = self.section(format::OVERVIEW)?;
            let size = b
                .get(..4)
                .map(|s| u32::from_le_bytes(s.try_into().unwrap()))
                .ok_or_else(|| FormatError::Corrupt("OVRV section cut short".into()))?;
            // Checked: a size of 2^31 must not wrap 6·size²·4 round to the section's length.
            let n = (size as usize)
                .checked_pow(2)
                .and_then(|s2| s2.checked_mul(6));
            if size == 0 || n.and_then(|n| n.checked_mul(4)) != Some(b.len() - 4) {
                return Err(FormatError::Corrupt(format!(
                    "OVRV section of {} bytes for a {size}² overview",
                    b.len()
                )));
            }
            Ok(PlanetOverview {
                size,
                heights: b[4..]
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            })
        })
    }

    /// The overview's height at direction `d` (bilinear, across seams).
    pub fn overview_height(&self, d: DVec3) -> Result<f32, FormatError> {
        let o = self.overview()?;
        let m = o.size;
        Ok(bilinear(self.projection(), m, d, |f, i, j| {
            Some(o.heights[(f * m as usize + j as usize) * m as usize + i as usize])
        })
        .unwrap_or(f32::NAN))
    }
}

/// Bilinear interpolation of a per-sample value over a face grid of `n`, at direction `d`,
/// with stencils that cross seams; `get(face, i, j)` gives a sample or None if unavailable.
/// Beyond a cube corner the three real samples' mean stands in for the missing fourth.
/// None if a needed sample is unavailable.
pub fn bilinear(
    p: Projection,
    n: u32,
    d: DVec3,
    get: impl FnMut(usize, i64, i64) -> Option<f32>,
) -> Option<f32> {
    bilinear_over(cube::stencil(p, n, d), get)
}

/// [`bilinear`] over a stencil already found.
pub fn bilinear_over(
    s: cube::Stencil,
    mut get: impl FnMut(usize, i64, i64) -> Option<f32>,
) -> Option<f32> {
    let mut v = [None; 4];
    for (slot, at) in v.iter_mut().zip(s.at) {
        if let Some((f, i, j)) = at {
            *slot = Some(get(f, i, j)? as f64);
        }
    }
    Some(s.blend(v) as f32)
}
