//! `ReliefWorld`: a world directory, `.rlpack` pack or `.plnt` planet by path (`res://`,
//! `user://` or absolute) or `http(s)://` URL, opened once and shared by every node that
//! streams it.

use godot::classes::{IResource, ProjectSettings, Resource};
use godot::prelude::*;
use relief::http::HttpOptions;
use relief::runtime::Ground;

/// A relief world as a Godot resource. Opening happens on first use (`ReliefTerrain` asks
/// when it enters the tree); a failure is kept and reported, and `path` can be set again.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct ReliefWorld {
    /// Where the world is: `res://world.rlpack` (exported as a file next to the game, not
    /// inside the `.pck`: relief reads it with positioned reads), `user://`, an absolute path,
    /// or an `http://`/`https://` URL of a pack or planet.
    #[export(file = "*.rlpack,*.plnt")]
    #[var(set = set_path)]
    path: GString,
    /// Disk cache for a URL's bytes (`user://relief-cache` when empty).
    #[export]
    cache_dir: GString,
    /// Cache budget, MB.
    #[export]
    #[init(val = 512)]
    cache_budget_mb: i64,
    /// Seconds before a request is given up (and retried by the streamer).
    #[export]
    #[init(val = 10.0)]
    request_timeout_s: f64,
    /// Extra request headers, `Name: value` each (an authorization token, say).
    #[export]
    request_headers: PackedStringArray,
    /// Further tries of a request that failed transiently (reset, 5xx, truncated).
    #[export]
    #[init(val = 2)]
    request_retries: i64,
    opened: Option<Result<Ground, String>>,
    base: Base<Resource>,
}

#[godot_api]
impl ReliefWorld {
    #[func]
    fn set_path(&mut self, path: GString) {
        self.path = path;
        self.opened = None;
    }

    /// Opens the world if it isn't yet; true if it is open. On failure `error()` says why.
    #[func]
    pub fn open(&mut self) -> bool {
        self.ground().is_ok()
    }

    /// Why the world could not be opened ("" if it is open or was never asked to).
    #[func]
    fn error(&self) -> GString {
        match &self.opened {
            Some(Err(e)) => e.into(),
            _ => GString::new(),
        }
    }

    /// True for a PLNT planet, false for a flat world (or one not open).
    #[func]
    fn is_planet(&mut self) -> bool {
        matches!(self.ground(), Ok(Ground::Planet(_)))
    }

    /// Samples per region side (flat worlds), tile size (planets); 0 if not open.
    #[func]
    fn region_size(&mut self) -> i64 {
        match self.ground() {
            Ok(Ground::Flat(w)) => w.manifest().region_size as i64,
            Ok(Ground::Planet(p)) => p.tile_size() as i64,
            Err(_) => 0,
        }
    }

    /// Metres between samples (a planet: at its face centres); 0 if not open.
    #[func]
    fn vertex_spacing(&mut self) -> f64 {
        match self.ground() {
            Ok(Ground::Flat(w)) => w.manifest().vertex_spacing,
            Ok(Ground::Planet(p)) => p.spacing(),
            Err(_) => 0.0,
        }
    }

    /// The flat world's extent in metres (x, z), or the planet's diameter twice.
    #[func]
    fn size_m(&mut self) -> Vector2 {
        match self.ground() {
            Ok(Ground::Flat(w)) => {
                let b = w.manifest().region_bounds;
                let e = w.region_extent();
                Vector2::new(
                    ((b.max[0] - b.min[0] + 1) as f64 * e) as f32,
                    ((b.max[1] - b.min[1] + 1) as f64 * e) as f32,
                )
            }
            Ok(Ground::Planet(p)) => Vector2::splat((2.0 * p.radius()) as f32),
            Err(_) => Vector2::ZERO,
        }
    }

    /// Lowest and highest ground, metres (x = min, y = max).
    #[func]
    fn height_range(&mut self) -> Vector2 {
        match self.ground() {
            Ok(Ground::Flat(w)) => {
                let r = w.manifest().height_range;
                Vector2::new(r[0], r[1])
            }
            Ok(Ground::Planet(p)) => {
                let h = p.blob().header();
                Vector2::new(h.height_min, h.height_max)
            }
            Err(_) => Vector2::ZERO,
        }
    }

    /// Biome names by class id.
    #[func]
    fn biome_names(&mut self) -> PackedStringArray {
        let names: Vec<String> = match self.ground() {
            Ok(Ground::Flat(w)) => w.biomes().iter().map(|b| b.name.clone()).collect(),
            Ok(Ground::Planet(p)) => p.biome_names().map(<[String]>::to_vec).unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        names.iter().map(GString::from).collect()
    }
}

impl ReliefWorld {
    /// The opened ground, opening it on first use.
    pub fn ground(&mut self) -> Result<Ground, String> {
        if self.opened.is_none() {
            self.opened = Some(self.open_now());
        }
        self.opened.clone().expect("just set")
    }

    fn open_now(&self) -> Result<Ground, String> {
        let path = self.path.to_string();
        if path.is_empty() {
            return Err("ReliefWorld has no path".into());
        }
        if relief::http::is_url(&path) {
            return Ground::open_url(&path, &self.http_options()).map_err(|e| e.to_string());
        }
        Ground::open(globalize(&path)).map_err(|e| e.to_string())
    }

    fn http_options(&self) -> HttpOptions {
        let dir = if self.cache_dir.is_empty() {
            GString::from("user://relief-cache")
        } else {
            self.cache_dir.clone()
        };
        let headers = self
            .request_headers
            .as_slice()
            .iter()
            .filter_map(|h| {
                let h = h.to_string();
                let (name, value) = h.split_once(':')?;
                Some((name.trim().to_string(), value.trim().to_string()))
            })
            .collect();
        HttpOptions {
            cache_dir: Some(globalize(&dir.to_string()).into()),
            cache_budget: (self.cache_budget_mb.max(0) as u64) << 20,
            timeout: std::time::Duration::from_secs_f64(self.request_timeout_s.clamp(0.1, 3600.0)),
            retries: self.request_retries.clamp(0, 20) as u32,
            headers,
        }
    }
}

#[godot_api]
impl IResource for ReliefWorld {}

/// `res://` and `user://` paths as the file system's; others as they are.
fn globalize(path: &str) -> String {
    if path.starts_with("res://") || path.starts_with("user://") {
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string()
    } else {
        path.to_string()
    }
}
