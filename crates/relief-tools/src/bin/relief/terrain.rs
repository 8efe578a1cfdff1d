//! `relief import terrain3d|heightmap` and `relief export terrain3d`: worlds from Terrain3D
//! data directories and other tools' heightmaps, and worlds back out as Terrain3D files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use relief_tools::bake::depressions::{Depressions, LakeRules};
use relief_tools::import::heightmap;
use relief_tools::import::{self, ImportError, ImportReport, ImportSettings};
use relief_tools::terrain3d;
use relief_tools::Progress;

use crate::Codecs;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

#[derive(clap::Subcommand)]
pub enum ImportCommand {
    /// A Terrain3D data directory (every terrain3d*.res in it) as a relief world: maps bit
    /// for bit, rivers, lakes and biomes worked out from them.
    Terrain3d {
        /// The data directory (Terrain3D's `data_directory`).
        dir: PathBuf,
        #[command(flatten)]
        out: WorldOut,
        /// Metres between samples where the files don't store it [default: 1, Terrain3D's].
        #[arg(long)]
        vertex_spacing: Option<f64>,
    },
    /// A heightmap from another tool (16-bit raw .r16/.raw, 32-bit float .f32, 16-bit
    /// grayscale PNG), cut into regions, as a relief world.
    Heightmap {
        file: PathBuf,
        #[command(flatten)]
        out: WorldOut,
        #[command(flatten)]
        map: heightmap::Options,
        /// Metres between samples: one number, or `DX,DZ` for a map whose samples are DX
        /// apart east–west and DZ north–south (a geographic DEM's: 3″ at 36.6° N is
        /// 74.6,92.5), resampled to square cells of the smaller. One spacing for such a map
        /// makes its rivers 19 % too short or too long.
        #[arg(long, default_value = "1", value_name = "D|DX,DZ")]
        spacing: String,
        /// Samples per region side (power of two, 64–2048).
        #[arg(long, default_value_t = 512)]
        region_size: u32,
    },
}

/// `--spacing`: `D`, or `DX,DZ`.
fn parse_spacing(text: &str) -> std::result::Result<(f64, f64), ImportError> {
    let v: Option<Vec<f64>> = text.split(',').map(|p| p.trim().parse().ok()).collect();
    match v.as_deref() {
        Some(&[d]) => Ok((d, d)),
        Some(&[dx, dz]) => Ok((dx, dz)),
        _ => Err(ImportError::Settings(format!(
            "--spacing takes metres, D or DX,DZ, got `{text}`"
        ))),
    }
}

/// Where an import goes and what it is given besides the maps.
#[derive(clap::Args)]
pub struct WorldOut {
    /// The world directory to write.
    #[arg(long, required_unless_present = "pack")]
    out: Option<PathBuf>,
    /// Also (or, without --out, only) write the world as one compact pack file.
    #[arg(long)]
    pack: Option<PathBuf>,
    /// Biome names for Terrain3D texture ids: a JSON object such as {"0": "grass",
    /// "3": "rock"} [default: one biome per base texture, `texture N`].
    #[arg(long)]
    biomes: Option<PathBuf>,
    /// Ground below this height (metres) is sea [default: no sea].
    #[arg(long, allow_hyphen_values = true)]
    sea_level: Option<f32>,
    /// A placement table (things.json, docs/formats.md) whose densities name this world's
    /// biomes, for trees, rocks and grass streamed with the ground [default: none].
    #[arg(long)]
    things: Option<PathBuf>,
    /// Region layer storage (see `relief bake --codecs`).
    #[arg(long, default_value = "fast")]
    codecs: Codecs,
    /// What becomes of depressions too small for a lake: `breach` cuts a channel out over
    /// the lowest pass, `fill` fills them to it. With both, lakes are flat water surfaces and
    /// depressions 30 m deep, 0.1 km² and 16 cells. `lakes` keeps every depression 1.5 m deep
    /// and 3,000 m² as a lake (the bake's rule, for hand-made ground whose basins are meant)
    /// [default: breach for heightmaps, which are mostly DEMs; lakes for Terrain3D].
    #[arg(long, value_enum)]
    depressions: Option<Depressions>,
    /// A depression holds a lake from this depth, metres [default: 30; 1.5 with `lakes`].
    #[arg(long)]
    lake_depth: Option<f64>,
    /// A depression or flat holds a lake from this area, m² [default: 100000; 3000 with
    /// `lakes`].
    #[arg(long)]
    lake_area: Option<f64>,
    /// ... and this many hydrology cells, so the area floor holds at any spacing
    /// [default: 16; 4 with `lakes`].
    #[arg(long)]
    lake_cells: Option<usize>,
    /// Flat water surfaces (a patch of one height the ground rises around) are not lakes.
    #[arg(long)]
    no_flat_lakes: bool,
}

#[derive(clap::Subcommand)]
pub enum ExportCommand {
    /// A relief world as a Terrain3D data directory of terrain3d_XX_YY.res files.
    Terrain3d {
        world: PathBuf,
        /// The data directory to write (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// The res:// directory the files will live in [default: res:// and --out's name].
        #[arg(long)]
        res_dir: Option<String>,
    },
}

pub fn import(command: ImportCommand, progress: &dyn Progress) -> Result<()> {
    let started = Instant::now();
    let (regions, settings, out, what) = match command {
        ImportCommand::Terrain3d {
            dir,
            out,
            vertex_spacing,
        } => {
            let data = relief_tools::import::terrain3d::read_data_dir(&dir, vertex_spacing, 0)?;
            let name = format!("terrain3d:{}", file_name(&dir));
            let mut s = ImportSettings::new(&name, data.region_size, data.vertex_spacing);
            out.fill(&mut s, Depressions::Lakes)?;
            let what = format!(
                "{} Terrain3D region files ({:.1} MB)",
                data.regions.len(),
                data.file_bytes as f64 / 1e6
            );
            (data.regions, s, out, what)
        }
        ImportCommand::Heightmap {
            file,
            out,
            map,
            spacing,
            region_size,
        } => {
            let hm = heightmap::read(&file, &map)?;
            let (dx, dz) = parse_spacing(&spacing)?;
            let (hm, spacing) = heightmap::resample_square(hm, dx, dz)?;
            let mut s = ImportSettings::new(
                &format!("heightmap:{}", file_name(&file)),
                region_size,
                spacing,
            );
            out.fill(&mut s, Depressions::Breach)?;
            let what = format!("a {}×{} heightmap", hm.width, hm.depth);
            (heightmap::cut(&hm, region_size)?, s, out, what)
        }
    };
    let read = started.elapsed().as_secs_f64();
    let scratch;
    let dir = match (&out.out, &out.pack) {
        (Some(dir), _) => dir.clone(),
        (None, Some(pack)) => {
            scratch = pack.with_extension("import-tmp");
            scratch.clone()
        }
        (None, None) => unreachable!("clap requires --out or --pack"),
    };
    let report = import::write_world(&regions, &settings, &dir, progress)?;
    let total = started.elapsed().as_secs_f64();
    print_import(&what, &dir, &report, read, total);
    if let Some(pack) = &out.pack {
        let packed = crate::pack(&dir, pack, crate::PackProfile::Compact);
        if out.out.is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        packed?;
    }
    Ok(())
}

fn print_import(what: &str, dir: &Path, r: &ImportReport, read: f64, total: f64) {
    let mb = r.map_bytes as f64 / 1e6;
    println!(
        "imported {what} into {} in {total:.2} s ({:.0} MB/s of maps; reading {read:.2} s): \
         {} regions, {mb:.1} MB of maps, {:.1} MB written, heights {:.2}…{:.2} m, \
         {} reaches and {} lakes on a {}-sample hydrology grid; depressions: {} breached, \
         {} filled, {} lakes (and {} lakes on flat water)",
        dir.display(),
        mb / total,
        r.regions,
        r.bytes as f64 / 1e6,
        r.height_range[0],
        r.height_range[1],
        r.reaches,
        r.lakes,
        r.hydrology_factor,
        r.depressions.breached,
        r.depressions.filled,
        r.depressions.depression_lakes,
        r.depressions.flat_lakes
    );
}

pub fn export(command: ExportCommand, progress: &dyn Progress) -> Result<()> {
    let ExportCommand::Terrain3d {
        world,
        out,
        res_dir,
    } = command;
    let started = Instant::now();
    let w = relief::World::open(&world)?;
    let r = terrain3d::export::export(&w, &out, res_dir.as_deref(), 0, progress)?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "exported {} regions of {} to {} in {secs:.2} s: {:.1} MB of maps ({:.0} MB/s), \
         {:.1} MB of .res files",
        r.files,
        world.display(),
        out.display(),
        r.map_bytes as f64 / 1e6,
        r.map_bytes as f64 / 1e6 / secs,
        r.bytes as f64 / 1e6
    );
    Ok(())
}

impl WorldOut {
    /// Fills in `s` from the flags; `depressions` is the command's default for
    /// `--depressions`.
    fn fill(&self, s: &mut ImportSettings, depressions: Depressions) -> Result<()> {
        s.sea_level = self.sea_level;
        s.codecs = self.codecs.profile();
        let mut lakes = LakeRules::import(self.depressions.unwrap_or(depressions));
        lakes.min_depth_m = self.lake_depth.unwrap_or(lakes.min_depth_m);
        lakes.min_area_m2 = self.lake_area.unwrap_or(lakes.min_area_m2);
        lakes.min_cells = self.lake_cells.unwrap_or(lakes.min_cells);
        lakes.flats &= !self.no_flat_lakes;
        s.lakes = lakes;
        if let Some(path) = &self.biomes {
            s.biome_names = read_biome_names(path)?;
        }
        if let Some(path) = &self.things {
            let text = std::fs::read(path).map_err(|source| ImportError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            // Checked in full against the world's biomes once the import knows them.
            s.things = Some(serde_json::from_slice(&text).map_err(|e| {
                ImportError::Settings(format!("{}: not a placement table: {e}", path.display()))
            })?);
        }
        Ok(())
    }
}

/// A `--biomes` file: a JSON object of texture id (0–31) → biome name.
pub fn read_biome_names(path: &Path) -> std::result::Result<BTreeMap<u8, String>, ImportError> {
    let bad = |problem: String| ImportError::Settings(format!("{}: {problem}", path.display()));
    let text = std::fs::read(path).map_err(|source| ImportError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let map: BTreeMap<String, String> = serde_json::from_slice(&text)
        .map_err(|e| bad(format!("not a JSON object of names: {e}")))?;
    map.into_iter()
        .map(|(k, v)| match k.parse::<u8>() {
            Ok(id) if id < 32 && !v.trim().is_empty() => Ok((id, v)),
            _ => Err(bad(format!(
                "`{k}`: `{v}` needs a texture id from 0 to 31 and a name"
            ))),
        })
        .collect()
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn biome_names_need_ids_from_0_to_31() {
        let dir = std::env::temp_dir().join(format!("relief-biomes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.json");
        std::fs::write(&path, r#"{"0": "grass", "3": "rock"}"#).unwrap();
        let names = read_biome_names(&path).unwrap();
        assert_eq!(names.get(&3).map(String::as_str), Some("rock"));
        for bad in [r#"{"32": "x"}"#, r#"{"a": "x"}"#, r#"{"1": " "}"#, "[1]"] {
            std::fs::write(&path, bad).unwrap();
            assert!(read_biome_names(&path).is_err(), "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
