//! `ReliefWorld`: a world directory, `.rlpack` pack or `.plnt` planet by path (`res://`,
//! `user://` or absolute) or `http(s)://` URL, opened once (on a thread of its own) and
//! shared by every node that streams it.
//!
//! Where the bytes come from is decided on the main thread ([`Location`]): in the editor a
//! `res://` file is the project folder's file, read with positioned reads; in an exported
//! game it is inside the `.pck` or the APK and read through `FileAccess`
//! ([`file_access`](crate::file_access)).

use std::sync::mpsc;

use godot::classes::{IResource, Os, ProjectSettings, Resource};
use godot::prelude::*;
use relief::http::HttpOptions;
use relief::runtime::Ground;

/// Where a world's bytes are.
enum Location {
    Url(String, HttpOptions),
    /// A file or directory on the file system.
    File(String),
    /// A `res://` file only Godot's FileAccess can read (an exported game's pack or APK).
    Engine(String),
}

impl Location {
    /// Opens the world; runs on any thread.
    fn open(self) -> Result<Ground, String> {
        match self {
            Location::Url(url, options) => {
                Ground::open_url(&url, &options).map_err(|e| e.to_string())
            }
            Location::File(path) => Ground::open(&path).map_err(|e| e.to_string()),
            Location::Engine(path) => {
                // On Android, a world the APK stores is read in place; a deflated one is an
                // error saying how to store it; one no APK holds is Godot's to find.
                if cfg!(target_os = "android") {
                    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
                    if let Some(ground) =
                        crate::apk::open_in(&crate::apk::mapped_apks(&maps), &path)?
                    {
                        return Ok(ground);
                    }
                }
                let bytes = crate::file_access::open(&path).map_err(|e| engine_error(&path, e))?;
                Ground::open_bytes(&path, Box::new(bytes)).map_err(|e| format!("{path}: {e}"))
            }
        }
    }
}

/// A FileAccess failure in words a game developer can act on.
fn engine_error(path: &str, e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound {
        let hint = if crate::world_files::is_world_file(path) {
            "is it in the export? (relief registers .rlpack and .plnt as resources, so \"Export all resources\" ships them; \"Export selected scenes\" only ships worlds a scene uses as a resource)"
        } else {
            "an exported game reads a world from one file: pack a world directory with `relief pack` into a .rlpack"
        };
        format!("{path} was not found in the project or its export: {hint}")
    } else {
        e.to_string()
    }
}

/// A world's opening: not asked yet, under way on its thread, or done.
#[derive(Default)]
enum Opening {
    #[default]
    Idle,
    Running(mpsc::Receiver<Result<Ground, String>>),
    Done(Result<Ground, String>),
}

/// A relief world as a Godot resource. Opening happens on first use (`ReliefTerrain` asks
/// when it enters the tree); a failure is kept and reported, and `path` can be set again.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct ReliefWorld {
    /// Where the world is: `res://world.rlpack` (exported inside the game's `.pck` or APK
    /// like any resource, and read from there), `user://`, an absolute path, or an
    /// `http://`/`https://` URL of a pack or planet. A world directory opens in the editor;
    /// an exported game needs it packed into one `.rlpack`.
    #[export(file = "*.rlpack,*.plnt")]
    #[var(get = get_world_path, set = set_world_path)]
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
    opening: Opening,
    base: Base<Resource>,
}

#[godot_api]
impl ReliefWorld {
    // Named apart from Resource's own `get_path`/`set_path` (its `resource_path`), which a
    // property called `path` would otherwise shadow.
    #[func]
    fn get_world_path(&self) -> GString {
        self.path.clone()
    }

    #[func]
    pub fn set_world_path(&mut self, path: GString) {
        self.path = path;
        // An opening under way is left to finish on its own; its answer is not wanted.
        self.opening = Opening::Idle;
    }

    /// Opens the world now, on this thread, if it isn't open yet (waiting for an
    /// `open_async()` under way, trying again after a failure); true if it is open. On failure `error()` says why. A URL
    /// can take `request_timeout_s × (request_retries + 1)`: in a game, let the nodes open
    /// it (they call `open_async()`), or call that yourself.
    #[func]
    pub fn open(&mut self) -> bool {
        self.retry_failed();
        self.ground().is_ok()
    }

    /// Starts opening the world on a thread of its own and returns at once (again after a
    /// failure); nothing if it is open or opening. `ReliefTerrain`/`ReliefPlanet` call it when they enter the tree and
    /// emit `opened` or `open_failed` when it is done; `is_open()` and `error()` tell too.
    #[func]
    pub fn open_async(&mut self) {
        self.retry_failed();
        if !matches!(self.opening, Opening::Idle) {
            return;
        }
        let location = match self.locate() {
            Ok(l) => l,
            Err(e) => {
                self.opening = Opening::Done(Err(e));
                return;
            }
        };
        let (send, receive) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("relief-open".into())
            .spawn(move || {
                let _ = send.send(location.open());
            });
        self.opening = match spawned {
            Ok(_) => Opening::Running(receive),
            Err(e) => Opening::Done(Err(format!("cannot start a thread to open the world: {e}"))),
        };
    }

    /// Whether the world is open (false while opening, or after a failure).
    #[func]
    pub fn is_open(&mut self) -> bool {
        matches!(self.poll(), Some(Ok(_)))
    }

    /// Why the world could not be opened ("" if it is open, opening or never asked to).
    #[func]
    fn error(&mut self) -> GString {
        match self.poll() {
            Some(Err(e)) => GString::from(&e),
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
    /// The opened ground, opening it now (or waiting for an opening under way).
    pub fn ground(&mut self) -> Result<Ground, String> {
        let result = match std::mem::take(&mut self.opening) {
            Opening::Done(r) => r,
            Opening::Running(receive) => receive.recv().unwrap_or_else(|_| Err(lost())),
            Opening::Idle => self.locate().and_then(Location::open),
        };
        self.opening = Opening::Done(result.clone());
        result
    }

    /// A failed opening is tried again when asked again (a URL that timed out, a file put in
    /// place since): the nodes ask when they enter the tree.
    fn retry_failed(&mut self) {
        if matches!(self.opening, Opening::Done(Err(_))) {
            self.opening = Opening::Idle;
        }
    }

    /// As [`poll`](Self::poll), starting an opening if none was asked for (or `path` changed
    /// under one): what a node waiting for its world calls each frame.
    pub fn poll_or_start(&mut self) -> Option<Result<Ground, String>> {
        if matches!(self.opening, Opening::Idle) {
            self.open_async();
        }
        self.poll()
    }

    /// The opening's answer if it is done (without waiting); None while it runs or before
    /// it was asked for.
    pub fn poll(&mut self) -> Option<Result<Ground, String>> {
        if let Opening::Running(receive) = &self.opening {
            let done = match receive.try_recv() {
                Ok(r) => r,
                Err(mpsc::TryRecvError::Empty) => return None,
                Err(mpsc::TryRecvError::Disconnected) => Err(lost()),
            };
            self.opening = Opening::Done(done);
        }
        match &self.opening {
            Opening::Done(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// Where the bytes are: engine calls, so on the main thread.
    fn locate(&self) -> Result<Location, String> {
        let path = self.path.to_string();
        if path.is_empty() {
            return Err("ReliefWorld has no path".into());
        }
        if relief::http::is_url(&path) {
            return Ok(Location::Url(path, self.http_options()));
        }
        // An exported game (no "editor" feature) finds `res://` inside its pack or APK; so
        // does an editor build running a pack, where the project folder lacks the file.
        if path.starts_with("res://") {
            let file = globalize(&path);
            if !Os::singleton().has_feature("editor") || !std::path::Path::new(&file).exists() {
                return Ok(Location::Engine(path));
            }
            return Ok(Location::File(file));
        }
        Ok(Location::File(globalize(&path)))
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
            timeout: request_timeout(self.request_timeout_s),
            retries: self.request_retries.clamp(0, 20) as u32,
            headers,
            ..HttpOptions::default()
        }
    }
}

#[godot_api]
impl IResource for ReliefWorld {}

fn lost() -> String {
    "the thread opening the world ended without an answer".into()
}

/// `res://` and `user://` paths as the file system's; others as they are.
pub fn globalize(path: &str) -> String {
    if path.starts_with("res://") || path.starts_with("user://") {
        ProjectSettings::singleton()
            .globalize_path(path)
            .to_string()
    } else {
        path.to_string()
    }
}

/// `request_timeout_s` as a request timeout: 0.1 s to an hour, and the default 10 s for a NaN
/// or infinite one from the inspector or a script (`Duration::from_secs_f64` panics on NaN,
/// and `clamp` passes NaN through).
fn request_timeout(seconds: f64) -> std::time::Duration {
    let s = Some(seconds)
        .filter(|t| t.is_finite())
        .map_or(10.0, |t| t.clamp(0.1, 3600.0));
    std::time::Duration::from_secs_f64(s)
}

#[cfg(test)]
mod tests {
    use super::request_timeout;
    use std::time::Duration;

    #[test]
    fn any_timeout_a_script_sets_is_a_duration() {
        assert_eq!(request_timeout(f64::NAN), Duration::from_secs(10));
        assert_eq!(request_timeout(f64::INFINITY), Duration::from_secs(10));
        assert_eq!(request_timeout(-5.0), Duration::from_millis(100));
        assert_eq!(request_timeout(1e9), Duration::from_secs(3600));
        assert_eq!(request_timeout(2.5), Duration::from_millis(2500));
    }
}
