//! A world rewritten with another codec profile: what `relief pack` ships (the compact
//! profile) made from what a bake or an import wrote. Every region is read and checked, then
//! encoded afresh; the other files are copied as they are; the manifest is written last, so
//! an interrupted rewrite never leaves a world that opens.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::manifest::{self, FileEntry, Manifest};
use super::region::LayerKind;
use super::region_writer::{encode_region_derived, CodecProfile};
use super::tint::TintRecipe;
use super::{FormatError, World};

/// What [`World::write_recoded`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecodeReport {
    pub regions: usize,
    /// Regions whose color map is stored as its recipe (rebuilt on load).
    pub derived_color: usize,
    /// Bytes of every file the manifest lists, before and after (the manifest aside).
    pub bytes_before: u64,
    pub bytes_after: u64,
}

impl World {
    /// The recipe a baked world's color maps were painted with: the manifest's seed hash
    /// and `biomes.json`'s colors. None when the manifest's seed hash is not
    /// 16 hex digits. Whether it paints a given region is checked region by region.
    pub fn tint_recipe(&self) -> Option<TintRecipe> {
        let m = self.manifest();
        if m.seed_hash.len() != 16 {
            return None;
        }
        let seed = u64::from_str_radix(&m.seed_hash, 16).ok()?;
        let count = self.biomes().iter().map(|b| b.id as usize + 1).max()?;
        let mut palette = vec![[0u8; 3]; count];
        for b in self.biomes() {
            palette[b.id as usize] = b.color;
        }
        Some(TintRecipe { seed, palette })
    }

    /// Writes a copy of this world into the directory `out` (created if missing; files of an
    /// earlier world there are replaced) with every region encoded in `profile`. In the
    /// compact profile a region's color map is stored as [`World::tint_recipe`] wherever the
    /// recipe paints it exactly. Regions are read and checked first, so a damaged source is
    /// an error and `out` then holds no manifest. Uses every core.
    pub fn write_recoded(
        &self,
        out: &Path,
        profile: CodecProfile,
    ) -> Result<RecodeReport, FormatError> {
        let regions_dir = out.join("regions");
        std::fs::create_dir_all(&regions_dir).map_err(|e| FormatError::io(&regions_dir, e))?;
        let tint = self.tint_recipe();
        let names: Vec<&String> = self.manifest().files.keys().collect();
        let next = AtomicUsize::new(0);
        let written: Mutex<Vec<Result<Recoded, FormatError>>> =
            Mutex::new(Vec::with_capacity(names.len()));
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        std::thread::scope(|scope| {
            for _ in 0..threads.min(names.len()) {
                scope.spawn(|| {
                    while let Some(&name) = names.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let r = self.recode_file(name, out, profile, tint.as_ref());
                        written.lock().expect("no writer panics").push(r);
                    }
                });
            }
        });
        let mut files = BTreeMap::new();
        let (mut regions, mut derived_color) = (0, 0);
        for r in written.into_inner().expect("no writer panics") {
            let (name, entry, derived) = r?;
            if name.starts_with("regions/") {
                regions += 1;
                derived_color += derived as usize;
            }
            files.insert(name, entry);
        }
        let manifest = Manifest {
            files,
            ..self.manifest().clone()
        };
        let sum = |m: &Manifest| m.files.values().map(|f| f.bytes).sum::<u64>();
        let report = RecodeReport {
            regions,
            derived_color,
            bytes_before: sum(self.manifest()),
            bytes_after: sum(&manifest),
        };
        write(
            &out.join(manifest::MANIFEST_FILE),
            &manifest::pretty_json(&manifest),
        )?;
        Ok(report)
    }

    /// One listed file into `out`: a region re-encoded (and whether its color is derived),
    /// anything else copied after checking it against the manifest.
    fn recode_file(
        &self,
        name: &str,
        out: &Path,
        profile: CodecProfile,
        tint: Option<&TintRecipe>,
    ) -> Result<Recoded, FormatError> {
        let region = name
            .strip_prefix("regions/")
            .and_then(super::RegionLocation::from_file_name);
        let (bytes, derived) = match region {
            Some(loc) => {
                let region = self.read_region(loc)?;
                let bytes = encode_region_derived(&region, profile, tint);
                let derived = super::region::read_header(&bytes)?
                    .layers
                    .iter()
                    .any(|l| l.kind == LayerKind::Color && l.codec.is_derived());
                (bytes, derived)
            }
            None => {
                let bytes = self.store.read(name)?;
                super::check_entry(
                    &self.store.path_of(name),
                    &self.manifest().files[name],
                    &bytes,
                )?;
                (bytes, false)
            }
        };
        let entry = write(&out.join(name), &bytes)?;
        Ok((name.to_string(), entry, derived))
    }
}

/// A file written: its name, its manifest entry, and whether its color map is a recipe.
type Recoded = (String, FileEntry, bool);

fn write(path: &Path, bytes: &[u8]) -> Result<FileEntry, FormatError> {
    crate::io::write_atomic(path, bytes).map_err(|e| FormatError::io(path, e))?;
    Ok(FileEntry::of(bytes))
}
