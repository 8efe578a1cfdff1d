//! Flat worlds (Terrain3D-style regions): the on-disk format and its reader, streaming regions
//! ([`stream`]), queries ([`terrain`]), collision chunks ([`collision`]) and the clipmap's cells
//! ([`clipmap`]).
//!
//! A world is a directory: `world.json` (the manifest), `regions/*.rlr` (one file per region),
//! `overview.rlo` (coarse whole-world heights) and the tables `rivers.json`, `lakes.json`,
//! `biomes.json`, and the placement table `things.json` if the world has things ([`things`]);
//! or the same files in one pack ([`store`]). docs/formats.md is the byte-exact
//! specification.

pub mod clipmap;
pub mod collision;
pub mod control;
pub mod grid;
pub mod location;
pub mod manifest;
pub mod mips;
pub mod overview;
mod recode;
pub mod region;
pub mod region_writer;
mod spatial;
pub mod store;
pub mod stream;
pub mod tables;
pub mod terrain;
pub mod things;
pub mod tint;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::error::FormatError;
pub use crate::io::ReadAt;
pub use crate::layer::Layer;
pub use crate::things::rules::THINGS_FILE;
use crate::things::Rules;
pub use control::Control;
pub use location::RegionLocation;
pub use manifest::{Census, FileEntry, Manifest};
pub use overview::Overview;
pub use recode::RecodeReport;
pub use region::{LayerKind, Region};
pub use store::Store;
pub use stream::RegionSource;
pub use tables::{Biome, Lake, Reach, ReachEnd, ReachKind};
pub use terrain::Terrain;

pub const RIVERS_FILE: &str = "rivers.json";
pub const LAKES_FILE: &str = "lakes.json";
pub const BIOMES_FILE: &str = "biomes.json";
pub const OVERVIEW_FILE: &str = "overview.rlo";

/// An opened world: manifest, overview and tables in memory; regions read on demand.
#[derive(Debug)]
pub struct World {
    store: Store,
    manifest: Manifest,
    overview: Overview,
    reaches: Vec<Reach>,
    lakes: Vec<Lake>,
    biomes: Vec<Biome>,
    /// `things.json`, or no kinds where the world has none.
    things: Arc<Rules>,
    regions: HashMap<RegionLocation, FileEntry>,
}

impl World {
    /// Opens a world directory or pack file, or a pack by `http://` or `https://` URL (with
    /// the default [`HttpOptions`](crate::http::HttpOptions); see [`World::open_url`]). Reads
    /// the manifest, overview and tables (checking each against the manifest's checksums) and
    /// checks every listed region file exists with the listed length. Region contents are
    /// checked when they are read.
    pub fn open(path: impl AsRef<Path>) -> Result<World, FormatError> {
        World::from_store(Store::open(path.as_ref())?)
    }

    /// Opens a pack on a server: its head and index in the opening request, the manifest,
    /// overview and tables in one request each, every region later in one ranged GET, all
    /// through `options`' disk cache.
    #[cfg(feature = "http")]
    pub fn open_url(url: &str, options: &crate::http::HttpOptions) -> Result<World, FormatError> {
        World::from_store(Store::open_url(url, options)?)
    }

    /// Opens a pack held in `bytes` (memory, or a caller's reader); `name` labels messages.
    pub fn open_pack(name: &str, bytes: Box<dyn ReadAt>) -> Result<World, FormatError> {
        World::from_store(Store::Pack(store::Pack::open(name, bytes)?))
    }

    /// Opens a pack stored as the `length` bytes at `offset` of the file at `path`, read in
    /// place (see [`FileRange`](crate::io::FileRange)): a pack kept uncompressed inside an
    /// Android APK opens straight from the APK. A range past the file's end is an IO error.
    pub fn open_file_range(
        path: impl AsRef<Path>,
        offset: u64,
        length: u64,
    ) -> Result<World, FormatError> {
        let path = path.as_ref();
        let file = crate::io::open_regular(path).map_err(|e| FormatError::io(path, e))?;
        World::open_in_file(file, offset, length, &path.display().to_string())
    }

    /// Opens a pack stored as the `length` bytes at `offset` of `file`, a file already open
    /// (on Android, the descriptor `AssetManager.openFd` gives, duplicated), read in place as
    /// [`open_file_range`](Self::open_file_range) reads; `name` labels messages. The world
    /// keeps `file` open until it and everything made from it are dropped.
    pub fn open_in_file(
        file: std::fs::File,
        offset: u64,
        length: u64,
        name: &str,
    ) -> Result<World, FormatError> {
        let bytes = crate::io::FileRange::of_file(file, offset, length)
            .map_err(|e| FormatError::io(Path::new(name), e))?;
        World::open_pack(&format!("{name}@{offset}+{length}"), Box::new(bytes))
    }

    fn from_store(store: Store) -> Result<World, FormatError> {
        let manifest_path = store.path_of(manifest::MANIFEST_FILE);
        let text = store.read(manifest::MANIFEST_FILE)?;
        let manifest: Manifest =
            serde_json::from_slice(&text).map_err(|source| FormatError::Json {
                path: manifest_path.clone(),
                source,
            })?;
        manifest.validate()?;

        let mut regions = HashMap::new();
        for (path, entry) in &manifest.files {
            let len = store.len(path)?;
            if len != entry.bytes {
                return Err(FormatError::ManifestMismatch {
                    path: store.path_of(path),
                    expected: format!("{} bytes", entry.bytes),
                    found: format!("{len} bytes"),
                });
            }
            if let Some(name) = path.strip_prefix("regions/") {
                let loc = RegionLocation::from_file_name(name).ok_or_else(|| {
                    FormatError::Manifest(format!("`{path}` is not a region file name"))
                })?;
                if !manifest.region_bounds.contains(loc) {
                    return Err(FormatError::Manifest(format!(
                        "`{path}` lies outside region_bounds"
                    )));
                }
                regions.insert(loc, *entry);
            }
        }

        let read_checked = |name: &str| -> Result<Vec<u8>, FormatError> {
            let entry = manifest
                .files
                .get(name)
                .ok_or_else(|| FormatError::Manifest(format!("`{name}` is not listed")))?;
            let bytes = store.read(name)?;
            check_entry(&store.path_of(name), entry, &bytes)?;
            // Checked against the manifest: a server's copy may be cached.
            store.vouch(name, &bytes);
            Ok(bytes)
        };
        let json = |name: &str| -> Result<serde_json::Value, FormatError> {
            let bytes = read_checked(name)?;
            serde_json::from_slice(&bytes).map_err(|source| FormatError::Json {
                path: store.path_of(name),
                source,
            })
        };
        let overview = Overview::decode(&read_checked(&manifest.overview.file)?)?;
        let rivers: tables::RiversFile = from_value(&store, RIVERS_FILE, json(RIVERS_FILE)?)?;
        let lakes: tables::LakesFile = from_value(&store, LAKES_FILE, json(LAKES_FILE)?)?;
        let biomes: tables::BiomesFile = from_value(&store, BIOMES_FILE, json(BIOMES_FILE)?)?;
        for found in [rivers.version, lakes.version, biomes.version] {
            if !(1..=tables::TABLES_VERSION).contains(&found) {
                return Err(FormatError::UnsupportedVersion {
                    what: "table",
                    found,
                    supported: tables::TABLES_VERSION,
                });
            }
        }
        tables::validate(&rivers.reaches, &lakes.lakes, &biomes.biomes)?;
        let things = match manifest.files.contains_key(THINGS_FILE) {
            true => {
                let names: Vec<&str> = biomes.biomes.iter().map(|b| b.name.as_str()).collect();
                Rules::parse(&read_checked(THINGS_FILE)?, &names)?
            }
            false => Rules::none(),
        };
        // The manifest has no checksum of its own: it is vouched for once everything it
        // lists checked out against it.
        store.vouch(manifest::MANIFEST_FILE, &text);
        Ok(World {
            store,
            manifest,
            overview,
            reaches: rivers.reaches,
            lakes: lakes.lakes,
            biomes: biomes.biomes,
            things: Arc::new(things),
            regions,
        })
    }

    /// The directory or pack the world was opened from (`<memory>` and the like for packs
    /// opened from bytes).
    pub fn source_name(&self) -> &Path {
        self.store.name()
    }
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }
    pub fn overview(&self) -> &Overview {
        &self.overview
    }
    pub fn reaches(&self) -> &[Reach] {
        &self.reaches
    }
    /// The longest chain of reaches from a source to the sea, as one polyline (world x, z)
    /// from the head to the mouth; None if no river reaches the sea. What the demo walks and
    /// the Godot sample's walker follows.
    pub fn longest_river(&self) -> Option<Vec<[f64; 2]>> {
        let reaches = self.reaches();
        // Reaches flow into lower ids, so the length to the sea is known for `to` before `from`.
        let mut to_sea = vec![f64::NEG_INFINITY; reaches.len()];
        for r in reaches {
            let down = match r.to {
                ReachEnd::Sea => 0.0,
                ReachEnd::Reach(d) => to_sea[d as usize],
                _ => f64::NEG_INFINITY,
            };
            to_sea[r.id as usize] = r.length_m as f64 + down;
        }
        let start = reaches
            .iter()
            .filter(|r| r.from == ReachEnd::Source)
            .max_by(|a, b| to_sea[a.id as usize].total_cmp(&to_sea[b.id as usize]))?;
        if !to_sea[start.id as usize].is_finite() {
            return None;
        }
        let mut points = Vec::new();
        let mut r = start;
        loop {
            points.extend(r.points.iter().map(|p| [p[0] as f64, p[1] as f64]));
            match r.to {
                ReachEnd::Reach(d) => r = &reaches[d as usize],
                _ => break,
            }
        }
        points.dedup();
        Some(points)
    }
    pub fn lakes(&self) -> &[Lake] {
        &self.lakes
    }
    /// The placement table (`things.json`; no kinds where the world has none).
    pub fn things(&self) -> &Arc<Rules> {
        &self.things
    }

    pub fn biomes(&self) -> &[Biome] {
        &self.biomes
    }
    /// Metres per region side.
    pub fn region_extent(&self) -> f64 {
        self.manifest.vertex_spacing * self.manifest.region_size as f64
    }
    pub fn has_region(&self, loc: RegionLocation) -> bool {
        self.regions.contains_key(&loc)
    }
    /// Locations of every region the world has, in no particular order.
    pub fn region_locations(&self) -> impl Iterator<Item = RegionLocation> + '_ {
        self.regions.keys().copied()
    }
    /// Where a region's file is: a path for directories, `pack!regions/…` for packs.
    pub fn region_path(&self, loc: RegionLocation) -> PathBuf {
        self.store.path_of(&Manifest::region_path(loc))
    }

    /// Where `loc`'s region file lies on disk: (the file holding it, offset, length), in a
    /// world directory or a pack opened by path; `None` otherwise (see [`Store::on_disk`]).
    /// What a benchmark reads raw to compare loads against.
    pub fn region_on_disk(&self, loc: RegionLocation) -> Option<(PathBuf, u64, u64)> {
        self.store.on_disk(&Manifest::region_path(loc))
    }

    /// Reads and decodes one region, checking the file against the manifest (length and
    /// CRC-32), its own checksums, its location and its layer set. Raw layers are read
    /// straight into the maps; each byte is read and hashed once.
    pub fn read_region(&self, loc: RegionLocation) -> Result<Region, FormatError> {
        self.read_region_into(loc, None)
    }

    /// As [`read_region`](Self::read_region), with the maps' buffers taken from `pool` (and
    /// given back to it when the region is dropped): what the streamer's loads use, so a
    /// load writes into memory that is already faulted in.
    pub fn read_region_into(
        &self,
        loc: RegionLocation,
        pool: Option<&std::sync::Arc<crate::pool::BufferPool>>,
    ) -> Result<Region, FormatError> {
        let (region, crc, path) = self.read_with(loc, |file, len| {
            region::read_region_from(&mut { file }, len, Some(loc), pool)
                .map(|(r, crc)| (r, Some(crc)))
        })?;
        let entry = &self.regions[&loc];
        if crc != Some(entry.crc32) {
            return Err(FormatError::ManifestMismatch {
                path,
                expected: format!("crc32 {:08x}", entry.crc32),
                found: format!("crc32 {:08x}", crc.unwrap_or_default()),
            });
        }
        let want = self.manifest.layer_kinds()?;
        if region.layers() != want {
            return Err(FormatError::ManifestMismatch {
                path,
                expected: format!("layers {:?}", self.manifest.layers),
                found: format!(
                    "layers {:?}",
                    region.layers().iter().map(|k| k.name()).collect::<Vec<_>>()
                ),
            });
        }
        Ok(region)
    }

    /// Reads what a collision chunk needs of one region: its height and control layers,
    /// each checked against its own CRC-32, the other maps left `None` and unread (the file
    /// is read no further than those two). The file's length and location are checked as
    /// [`read_region`](Self::read_region) checks them; its whole-file CRC-32 can't be, as
    /// not every byte is read. A region that is not resident costs a chunk build this
    /// instead of a whole load.
    pub fn read_region_heights(&self, loc: RegionLocation) -> Result<Region, FormatError> {
        self.read_with(loc, |file, len| {
            region::read_heights_from(&mut { file }, len, Some(loc)).map(|r| (r, None))
        })
        .map(|(region, _, _)| region)
    }

    /// Opens `loc`'s file, checks its length against the manifest, reads it with `read` and
    /// checks the region's size; returns the region, the CRC `read` computed, and the path.
    fn read_with(
        &self,
        loc: RegionLocation,
        read: impl FnOnce(&mut dyn std::io::Read, u64) -> Result<(Region, Option<u32>), FormatError>,
    ) -> Result<(Region, Option<u32>, PathBuf), FormatError> {
        let entry = self
            .regions
            .get(&loc)
            .ok_or(FormatError::NoSuchRegion { x: loc.x, z: loc.z })?;
        let path = self.region_path(loc);
        // The length first: a pack's index may not make a load read more than the manifest
        // lists.
        let listed = self.store.len(&Manifest::region_path(loc))?;
        if listed != entry.bytes {
            return Err(FormatError::ManifestMismatch {
                path,
                expected: format!("{} bytes", entry.bytes),
                found: format!("{listed} bytes"),
            });
        }
        let file_name = Manifest::region_path(loc);
        let (mut file, len): (Box<dyn std::io::Read + '_>, u64) = if self.store.is_remote() {
            // A server's bytes come whole (one request): checked against the manifest here,
            // whichever layers the caller reads, and vouched for so its cache may keep them.
            let bytes = self.store.read(&file_name)?;
            if crc32fast::hash(&bytes) == entry.crc32 {
                self.store.vouch(&file_name, &bytes);
            }
            let len = bytes.len() as u64;
            (Box::new(std::io::Cursor::new(bytes)), len)
        } else {
            self.store.open_file(&file_name)?
        };
        if len != entry.bytes {
            return Err(FormatError::ManifestMismatch {
                path,
                expected: format!("{} bytes", entry.bytes),
                found: format!("{len} bytes"),
            });
        }
        let (region, crc) = read(&mut file, len).map_err(|e| match e {
            FormatError::Io { source, .. } => FormatError::Io {
                path: path.clone(),
                source,
            },
            other => other,
        })?;
        if region.size != self.manifest.region_size {
            return Err(FormatError::ManifestMismatch {
                path,
                expected: format!("region size {}", self.manifest.region_size),
                found: format!("region size {}", region.size),
            });
        }
        Ok((region, crc, path))
    }

    /// Writes this world's files (it must be a directory) into one pack at `out`: the
    /// manifest first, then every file it lists. Returns the pack's length in bytes.
    pub fn write_pack(&self, out: &Path) -> Result<u64, FormatError> {
        let Store::Dir(dir) = &self.store else {
            return Err(FormatError::Corrupt(format!(
                "{} is already a pack",
                self.source_name().display()
            )));
        };
        let mut names = vec![manifest::MANIFEST_FILE.to_string()];
        names.extend(self.manifest.files.keys().cloned());
        store::write_pack(dir, &names, out)
    }

    /// Reads every region and checks it in full. Slow on big worlds; `relief info --verify`.
    pub fn verify(&self) -> Result<usize, FormatError> {
        let mut n = 0;
        for loc in self.region_locations() {
            self.read_region(loc)?;
            n += 1;
        }
        Ok(n)
    }
}

fn check_entry(path: &Path, entry: &FileEntry, bytes: &[u8]) -> Result<(), FormatError> {
    let found = FileEntry::of(bytes);
    if found != *entry {
        return Err(FormatError::ManifestMismatch {
            path: path.to_path_buf(),
            expected: format!("{} bytes, crc32 {:08x}", entry.bytes, entry.crc32),
            found: format!("{} bytes, crc32 {:08x}", found.bytes, found.crc32),
        });
    }
    Ok(())
}

fn from_value<T: serde::de::DeserializeOwned>(
    store: &Store,
    name: &str,
    v: serde_json::Value,
) -> Result<T, FormatError> {
    serde_json::from_value(v).map_err(|source| FormatError::Json {
        path: store.path_of(name),
        source,
    })
}
