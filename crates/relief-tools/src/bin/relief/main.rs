//! The `relief` command: bake, inspect and preview worlds.

mod bench;
mod census;
mod collision_check;
mod demo;
mod legend;
mod preview;
mod process;
mod route;
mod soak;
mod terrain;
mod things_preview;
mod timing;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use relief_tools::bake::{self, BakeConfig};
use relief_tools::Progress;

#[derive(Parser)]
#[command(
    name = "relief",
    version,
    about = "Streaming terrain runtime: bake, inspect and preview worlds"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a world from a seed string (deterministic: same seed, same bytes).
    Bake {
        /// Seed text; FNV-1a hashed.
        #[arg(long, default_value = "relief")]
        seed: String,
        /// Side of the square world in metres (a whole number of regions).
        #[arg(long, default_value_t = 4096.0)]
        size: f64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// Samples per region side (power of two, 64–2048).
        #[arg(long, default_value_t = 512)]
        region_size: u32,
        /// Metres between samples.
        #[arg(long, default_value_t = 1.0)]
        spacing: f64,
        /// Height the highest peak is eroded to, metres [default: a tenth of the size, 150–1200 m].
        #[arg(long)]
        top: Option<f64>,
        /// Spacing of the finest erosion grid, metres.
        #[arg(long, default_value_t = 16.0)]
        erosion_spacing: f64,
        /// Worker threads for the region pass (0 = one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Region layer storage: `fast` (raw, quickest to load from a warm page cache), `small`
        /// (LZ4, ~3.7× smaller) or `compact` (LZ4-HC and a derived color map, ~12× smaller,
        /// quickest from a cold page cache or a network: what to ship).
        #[arg(long, default_value = "fast")]
        codecs: Codecs,
        #[command(flatten)]
        planet: PlanetArgs,
    },
    /// Print a world's census: size, heights, ocean, rivers, lakes, biomes.
    Info {
        world: PathBuf,
        /// Also read every region and check every checksum.
        #[arg(long)]
        verify: bool,
        /// Also build every collision chunk and report how far its samples lie from the
        /// ground the height query describes (every region or tile read into memory).
        #[arg(long)]
        collision: bool,
        /// The chunk side for --collision, metres (0: the runtime's default).
        #[arg(long, default_value_t = 0.0)]
        chunk_size: f64,
    },
    /// Put a world directory's files into one pack file: for platforms that can't ship a
    /// directory (Android StreamingAssets), or open from memory or read callbacks.
    Pack {
        world: PathBuf,
        /// The pack file to write (conventionally `*.rlpack`).
        out: PathBuf,
        /// How regions are stored in the pack: `compact` re-encodes them (~12× smaller than
        /// raw on a baked world; what to ship), `as-is` copies the world's files.
        #[arg(long, value_enum, default_value = "compact")]
        profile: PackProfile,
    },
    /// Stream the default world along a scripted route and tell what happened (bakes the
    /// world into the user cache first if it is missing).
    Demo {
        /// World directory, pack or URL [default: $XDG_CACHE_HOME/relief/default or
        /// ~/.cache/relief/default, baked if missing]. A named world is baked only where
        /// nothing exists; one that fails to open is an error, never replaced.
        #[arg(long)]
        world: Option<PathBuf>,
        /// Wall-clock seconds the route is shown in (game time is sped up to fit).
        #[arg(long, default_value_t = 12.0)]
        seconds: f64,
        /// Write the route as walked to this route file (CSV), for `relief bench --route`.
        #[arg(long)]
        record: Option<PathBuf>,
    },
    /// Headless streaming benchmark: routes (built-in, or a route file at its recorded
    /// timing) with update() beside a control workload, load latency and memory, load
    /// throughput against raw reads, query speed. Exit 2 on bad input, 1 on a regression.
    Bench(bench::Options),
    /// Soak: a million frames of a fast looping route over a flat world and over a planet,
    /// unpaced, sampling resident memory; fails if it grows after warm-up.
    Soak {
        /// World directory [default: the default world, baked if missing].
        #[arg(long)]
        world: Option<PathBuf>,
        /// PLNT planet [default: a 512² planet baked into the user cache].
        #[arg(long)]
        planet: Option<PathBuf>,
        /// Frames per ground.
        #[arg(long, default_value_t = 1_000_000)]
        frames: u64,
        /// Game-time speed along the loop, m/s (each frame is 1/60 s of game time).
        #[arg(long, default_value_t = 100.0)]
        speed: f64,
    },
    /// Make a world from terrain made elsewhere: a Terrain3D data directory or a heightmap.
    #[command(subcommand)]
    Import(terrain::ImportCommand),
    /// Write a world in another tool's files: Terrain3D region files.
    #[command(subcommand)]
    Export(terrain::ExportCommand),
    /// Draw a world as a PNG: hillshade, ground-class tint (through the water too), rivers by
    /// width, lakes, and a legend of every class on the map to its right.
    Preview {
        world: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// The map's side in pixels (a planet's map is twice as wide; the legend adds its own
        /// panel).
        #[arg(long, default_value_t = 1024)]
        pixels: u32,
        /// Draw the clipmap levels around this point (`X,Z` in metres) instead of the map.
        #[arg(long, value_name = "X,Z", allow_hyphen_values = true)]
        clipmap: Option<String>,
        /// Draw the placed things of a 256 m square around this point (`X,Z` in metres), a
        /// dot per thing coloured by kind, instead of the map.
        #[arg(
            long,
            value_name = "X,Z",
            allow_hyphen_values = true,
            conflicts_with = "clipmap"
        )]
        things: Option<String>,
    },
}

/// `relief bake --planet`: a cube-sphere PLNT blob instead of a flat world.
#[derive(clap::Args)]
struct PlanetArgs {
    /// Bake a PLNT planet into the file --out (the flat-world size options don't apply).
    #[arg(long)]
    planet: bool,
    /// Planet radius, metres.
    #[arg(long, default_value_t = 50_000.0)]
    radius: f64,
    /// Samples per cube-face side (4096 for the full 100 M-sample planet).
    #[arg(long, default_value_t = 1024)]
    face_resolution: u32,
    /// Tile side in samples (divides the face resolution).
    #[arg(long, default_value_t = 256)]
    tile_size: u32,
    /// Samples per face side of the erosion grid.
    #[arg(long, default_value_t = 256)]
    erosion_resolution: u32,
    /// The axis latitudes are measured from.
    #[arg(long, default_value = "y")]
    polar_axis: Axis,
    /// PLNT version to write: 7 (every field) or 6 (no sediment or precipitation).
    #[arg(long, default_value_t = 7)]
    plnt_version: u32,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Axis {
    X,
    Y,
    Z,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum Codecs {
    Fast,
    Small,
    Compact,
}

impl Codecs {
    pub(crate) fn profile(self) -> relief::flat::region_writer::CodecProfile {
        use relief::flat::region_writer::CodecProfile;
        match self {
            Codecs::Fast => CodecProfile::Fast,
            Codecs::Small => CodecProfile::Small,
            Codecs::Compact => CodecProfile::Compact,
        }
    }
}

/// What `relief pack` stores regions as.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum PackProfile {
    /// Re-encode every region in the compact profile.
    Compact,
    /// Store the world's files as they are.
    AsIs,
}

/// indicatif bars for the baker's long steps.
struct Bars(Mutex<Option<ProgressBar>>);

impl Progress for Bars {
    fn start(&self, step: &str, total: u64) {
        let bar = ProgressBar::new(total).with_message(step.to_string());
        bar.set_style(
            ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} {elapsed}")
                .unwrap()
                .progress_chars("=> "),
        );
        *self.0.lock().unwrap() = Some(bar);
    }
    fn inc(&self, n: u64) {
        if let Some(b) = &*self.0.lock().unwrap() {
            b.inc(n);
        }
    }
    fn finish(&self) {
        if let Some(b) = self.0.lock().unwrap().take() {
            b.finish();
        }
    }
}

fn bake_planet(
    seed: &str,
    out: &std::path::Path,
    top: Option<f64>,
    threads: usize,
    a: &PlanetArgs,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut cfg = relief_tools::bake::planet::PlanetConfig::new(seed);
    cfg.radius = a.radius;
    cfg.face_resolution = a.face_resolution;
    cfg.tile_size = a.tile_size.min(a.face_resolution);
    cfg.erosion_resolution = a.erosion_resolution.min(a.face_resolution);
    cfg.polar_axis = match a.polar_axis {
        Axis::X => relief::DVec3::X,
        Axis::Y => relief::DVec3::Y,
        Axis::Z => relief::DVec3::Z,
    };
    if let Some(top) = top {
        cfg.top = top;
    }
    cfg.version = a.plnt_version;
    cfg.threads = threads;
    let started = std::time::Instant::now();
    let census = relief_tools::bake::planet::bake_planet(&cfg, out, &Bars(Mutex::new(None)))?;
    let bytes = std::fs::metadata(out)?.len();
    println!(
        "baked planet {} in {:.1} s: 6 × {}² samples ({:.1} M), {:.1} MB, {} reaches, {} lakes, ocean {:.1} %",
        out.display(),
        started.elapsed().as_secs_f64(),
        cfg.face_resolution,
        census.samples as f64 / 1e6,
        bytes as f64 / 1e6,
        census.reaches,
        census.lakes,
        100.0 * census.ocean_share
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("relief: {e}");
            // Bad input to a bench is exit 2, so a CI job can tell it from a regression.
            match e.downcast_ref::<bench::Outcome>() {
                Some(bench::Outcome::BadInput(_)) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    match cli.command {
        Command::Bake {
            seed,
            size,
            out,
            region_size,
            spacing,
            top,
            erosion_spacing,
            threads,
            codecs,
            planet,
        } => {
            if planet.planet {
                return bake_planet(&seed, &out, top, threads, &planet);
            }
            let mut cfg = BakeConfig::new(&seed);
            cfg.size = size;
            cfg.region_size = region_size;
            cfg.spacing = spacing;
            cfg.erosion.top_height = top.unwrap_or_else(|| BakeConfig::default_top(size));
            cfg.erosion.finest_spacing = erosion_spacing;
            cfg.threads = threads;
            cfg.codecs = codecs.profile();
            let report = bake::bake(&cfg, &out, &Bars(Mutex::new(None)))?;
            let total: f64 = report.seconds.iter().map(|s| s.1).sum();
            let steps: Vec<String> = report
                .seconds
                .iter()
                .map(|(n, s)| format!("{n} {s:.1} s"))
                .collect();
            println!(
                "baked {} in {total:.1} s ({}): {} regions, {:.1} MB, {} reaches, {} lakes",
                out.display(),
                steps.join(", "),
                report.regions,
                report.bytes as f64 / 1e6,
                report.reaches,
                report.lakes
            );
            Ok(())
        }
        Command::Demo {
            world,
            seconds,
            record,
        } => {
            // Frame figures are kept for the whole show: its length sizes them.
            if !(seconds.is_finite() && seconds <= 3600.0) {
                return Err(format!("--seconds {seconds}: want at most 3600").into());
            }
            demo::run(
                &demo::WorldAt::from_arg(world),
                seconds.max(1.0),
                record.as_deref(),
                &Bars(Mutex::new(None)),
            )
        }
        Command::Bench(options) => Ok(bench::run(&options)?),
        Command::Import(command) => terrain::import(command, &Bars(Mutex::new(None))),
        Command::Export(command) => terrain::export(command, &Bars(Mutex::new(None))),
        Command::Soak {
            world,
            planet,
            frames,
            speed,
        } => soak::run(world, planet, frames.max(10), speed),
        Command::Pack {
            world,
            out,
            profile,
        } => pack(&world, &out, profile),
        Command::Info {
            world,
            verify,
            collision,
            chunk_size,
        } => match relief::runtime::Ground::open(&world)? {
            // Told apart by what is there (a URL's first bytes too), not by the name.
            relief::runtime::Ground::Planet(p) => {
                print!("{}", census::describe_planet(&p)?);
                if verify {
                    let n = census::verify_planet(&p)?;
                    println!("verified {n} tiles: every checksum matches");
                }
                if collision {
                    println!("{}", collision_check::planet(p, chunk_size)?);
                }
                Ok(())
            }
            relief::runtime::Ground::Flat(w) => {
                print!("{}", census::describe(&w));
                if verify {
                    let n = w.verify()?;
                    println!("verified {n} regions: every checksum matches");
                }
                if collision {
                    println!("{}", collision_check::flat(w, chunk_size)?);
                }
                Ok(())
            }
        },
        Command::Preview {
            world,
            out,
            pixels,
            clipmap,
            things,
        } => {
            let w = match relief::runtime::Ground::open(&world)? {
                relief::runtime::Ground::Planet(p) => {
                    preview::draw_planet(&p, pixels.clamp(16, 8192), &out)?;
                    println!("wrote {}", out.display());
                    return Ok(());
                }
                relief::runtime::Ground::Flat(w) => w,
            };
            // `X,Z` in metres, finite.
            let point = |flag: &str, at: &str| -> Result<[f64; 2], Box<dyn std::error::Error>> {
                let xz: Vec<f64> = at
                    .split(',')
                    .map(|v| v.trim().parse::<f64>())
                    .collect::<Result<_, _>>()?;
                match xz[..] {
                    [x, z] if x.is_finite() && z.is_finite() => Ok([x, z]),
                    _ => Err(format!("--{flag} takes X,Z, got `{at}`").into()),
                }
            };
            let px = pixels.clamp(16, 8192);
            match (&clipmap, &things) {
                (Some(at), _) => {
                    preview::draw_clipmap(w.clone(), point("clipmap", at)?, px, &out)?;
                    println!("wrote {} ({px}×{px} px)", out.display());
                }
                (None, Some(at)) => {
                    println!(
                        "placed things of the {} m square around {at}:",
                        things_preview::SIDE_M
                    );
                    things_preview::draw(w.clone(), point("things", at)?, px, &out)?;
                    println!("wrote {} ({px}×{px} px)", out.display());
                }
                (None, None) => {
                    preview::draw(&w, px, &out)?;
                    println!("wrote {} ({px}×{px} px map and its legend)", out.display());
                }
            }
            Ok(())
        }
    }
}

/// `relief pack`: the world's files in one pack, its regions first re-encoded in the compact
/// profile (in a scratch directory beside `out`, removed afterwards) unless `as-is`.
pub(crate) fn pack(
    world: &Path,
    out: &Path,
    profile: PackProfile,
) -> Result<(), Box<dyn std::error::Error>> {
    let w = relief::World::open(world)?;
    let bytes = match profile {
        PackProfile::AsIs => w.write_pack(out)?,
        PackProfile::Compact => {
            let scratch = out.with_extension("recode-tmp");
            let report =
                w.write_recoded(&scratch, relief::flat::region_writer::CodecProfile::Compact);
            let bytes = report.and_then(|r| {
                println!(
                    "re-encoded {} regions in the compact profile ({} with a derived color map): \
                     {:.1} MB -> {:.1} MB, {:.2}x smaller",
                    r.regions,
                    r.derived_color,
                    r.bytes_before as f64 / 1e6,
                    r.bytes_after as f64 / 1e6,
                    r.bytes_before as f64 / r.bytes_after.max(1) as f64
                );
                relief::World::open(&scratch)?.write_pack(out)
            });
            let _ = std::fs::remove_dir_all(&scratch);
            bytes?
        }
    };
    relief::World::open(out)?;
    println!(
        "packed {} files into {} ({:.1} MB)",
        w.manifest().files.len() + 1,
        out.display(),
        bytes as f64 / 1e6
    );
    Ok(())
}
