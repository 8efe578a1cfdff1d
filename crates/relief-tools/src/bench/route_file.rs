//! Route files: the path a game's player (and optionally its camera) took, as the game logged
//! it, which `relief bench --route` replays at its recorded timing. Two spellings of one
//! format (docs/bench.md): CSV with a header line, or JSON.
//!
//! ```text
//! # comments and blank lines are skipped
//! t,x,y,z,camera_x,camera_y,camera_z
//! 0.000,1024.0,35.2,2048.0,1010.0,52.0,2040.0
//! ```
//!
//! `t` is seconds, strictly increasing; positions are world metres on a flat world (y is
//! ignored) and the planet frame on a planet. The camera columns are optional (all three or
//! none); without them the camera is the focus. Other columns are ignored.

use relief::DVec3;
use std::fmt::Write as _;
use std::path::Path;

/// One logged frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub t: f64,
    pub focus: DVec3,
    pub camera: Option<DVec3>,
    /// Where it was written: the CSV line, or the JSON sample's index.
    pub line: usize,
}

/// A parsed route: at least two samples, time strictly increasing, every value finite.
#[derive(Clone, Debug)]
pub struct RouteFile {
    pub samples: Vec<Sample>,
    /// Which spelling it came in, for messages: "line" (CSV) or "sample" (JSON).
    pub unit: &'static str,
}

/// The JSON spelling's version field value this relief reads and writes.
pub const ROUTE_VERSION: u64 = 1;
/// The longest route replayed, seconds: an hour, 216,000 frames at 60 Hz. A run keeps every
/// frame's figures, so a route's span sizes its memory: a 28-byte file spanning 1e9 s would
/// otherwise ask for terabytes.
pub const MAX_ROUTE_SECONDS: f64 = 3600.0;
/// The largest route file read: 64 MiB, about a million CSV lines.
pub const MAX_ROUTE_BYTES: u64 = 64 << 20;

impl RouteFile {
    /// Reads and checks a route file; the error names the file and the line or field.
    pub fn read(path: &Path) -> Result<RouteFile, String> {
        let at = |e: String| format!("route {}: {e}", path.display());
        let bytes = relief::bounds::read_file(path, MAX_ROUTE_BYTES).map_err(|e| e.to_string())?;
        let text = String::from_utf8(bytes).map_err(|_| at("not UTF-8 text".into()))?;
        RouteFile::parse(&text).map_err(at)
    }

    /// Parses either spelling: JSON if the first non-blank character is `{`, else CSV.
    pub fn parse(text: &str) -> Result<RouteFile, String> {
        let route = if text.trim_start().starts_with('{') {
            RouteFile {
                samples: parse_json(text)?,
                unit: "sample",
            }
        } else {
            RouteFile {
                samples: parse_csv(text)?,
                unit: "line",
            }
        };
        route.check()?;
        Ok(route)
    }

    fn check(&self) -> Result<(), String> {
        let s = &self.samples;
        if s.len() < 2 {
            return Err(format!(
                "a route needs at least two samples, this one has {}",
                s.len()
            ));
        }
        for w in s.windows(2) {
            if w[1].t <= w[0].t {
                return Err(format!(
                    "{} {}: time {} s is not after the previous sample's {} s (time must increase)",
                    self.unit, w[1].line, w[1].t, w[0].t
                ));
            }
        }
        if self.duration() > MAX_ROUTE_SECONDS {
            let last = s.last().expect("two samples at least");
            return Err(format!(
                "{} {}: the route spans {} s, more than the {MAX_ROUTE_SECONDS} s relief bench replays",
                self.unit,
                last.line,
                self.duration()
            ));
        }
        Ok(())
    }

    /// Seconds from the first sample to the last.
    pub fn duration(&self) -> f64 {
        self.samples.last().unwrap().t - self.samples[0].t
    }

    /// Whether the route logged a camera.
    pub fn has_camera(&self) -> bool {
        self.samples[0].camera.is_some()
    }

    /// Focus and camera `t` seconds after the first sample, interpolated linearly between
    /// the samples either side (clamped to the ends).
    pub fn at(&self, t: f64) -> (DVec3, DVec3) {
        let s = &self.samples;
        let t = s[0].t + t.clamp(0.0, self.duration());
        let i = s.partition_point(|x| x.t <= t).clamp(1, s.len() - 1);
        let (a, b) = (&s[i - 1], &s[i]);
        let k = ((t - a.t) / (b.t - a.t)).clamp(0.0, 1.0);
        let lerp = |p: DVec3, q: DVec3| p + (q - p) * k;
        let focus = lerp(a.focus, b.focus);
        let camera = match (a.camera, b.camera) {
            (Some(p), Some(q)) => lerp(p, q),
            _ => focus,
        };
        (focus, camera)
    }

    /// What makes two routes the same for a comparison: FNV-1a over every value's bits, so
    /// the CSV and JSON spellings of one route agree and any edit changes it.
    pub fn identity(&self) -> String {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |v: f64| {
            for b in v.to_bits().to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for s in &self.samples {
            eat(s.t);
            s.focus.to_array().into_iter().for_each(&mut eat);
            if let Some(c) = s.camera {
                c.to_array().into_iter().for_each(&mut eat);
            }
        }
        format!("route:{h:016x}")
    }
}

fn parse_csv(text: &str) -> Result<Vec<Sample>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((header_line, header)) = lines.next() else {
        return Err("empty: no header line and no samples".into());
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let column = |name: &str| names.iter().position(|n| *n == name);
    let need = |name: &str| {
        column(name).ok_or_else(|| {
            format!("line {header_line}: the header `{header}` has no `{name}` column (it needs t,x,y,z)")
        })
    };
    let (t, x, y, z) = (need("t")?, need("x")?, need("y")?, need("z")?);
    let cams = [column("camera_x"), column("camera_y"), column("camera_z")];
    let cam = match cams {
        [Some(a), Some(b), Some(c)] => Some([a, b, c]),
        [None, None, None] => None,
        _ => {
            return Err(format!(
                "line {header_line}: camera_x, camera_y and camera_z come together or not at all"
            ))
        }
    };
    let mut samples = Vec::new();
    for (line, row) in lines {
        let fields: Vec<&str> = row.split(',').map(str::trim).collect();
        if fields.len() != names.len() {
            return Err(format!(
                "line {line}: {} fields, the header has {}",
                fields.len(),
                names.len()
            ));
        }
        let value = |i: usize| -> Result<f64, String> {
            let v: f64 = fields[i].parse().map_err(|_| {
                format!(
                    "line {line}: `{}` = `{}` is not a number",
                    names[i], fields[i]
                )
            })?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(format!("line {line}: `{}` = {v} is not finite", names[i]))
            }
        };
        samples.push(Sample {
            t: value(t)?,
            focus: DVec3::new(value(x)?, value(y)?, value(z)?),
            camera: match cam {
                Some([a, b, c]) => Some(DVec3::new(value(a)?, value(b)?, value(c)?)),
                None => None,
            },
            line,
        });
    }
    Ok(samples)
}

fn parse_json(text: &str) -> Result<Vec<Sample>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    match v.get("relief_route").and_then(|v| v.as_u64()) {
        Some(ROUTE_VERSION) => {}
        Some(other) => {
            return Err(format!(
                "field relief_route: version {other}, this relief reads version {ROUTE_VERSION}"
            ))
        }
        None => {
            return Err(format!(
                "field relief_route: missing (it must be {ROUTE_VERSION})"
            ))
        }
    }
    let list = v
        .get("samples")
        .and_then(|s| s.as_array())
        .ok_or("field samples: missing or not a list")?;
    let mut samples = Vec::with_capacity(list.len());
    let mut camera_seen = None;
    for (i, s) in list.iter().enumerate() {
        let t = s
            .get("t")
            .and_then(|t| t.as_f64())
            .ok_or_else(|| format!("sample {i}: field t missing or not a number"))?;
        let point = |name: &str| -> Result<Option<DVec3>, String> {
            let Some(p) = s.get(name) else {
                return Ok(None);
            };
            let bad = || format!("sample {i}: field {name} is not a list of three numbers");
            let p = p.as_array().filter(|p| p.len() == 3).ok_or_else(bad)?;
            let mut out = [0.0; 3];
            for (o, v) in out.iter_mut().zip(p) {
                *o = v.as_f64().ok_or_else(bad)?;
            }
            Ok(Some(DVec3::from(out)))
        };
        let focus = point("focus")?.ok_or_else(|| format!("sample {i}: field focus missing"))?;
        let camera = point("camera")?;
        if *camera_seen.get_or_insert(camera.is_some()) != camera.is_some() {
            return Err(format!(
                "sample {i}: field camera on some samples and not others (all or none)"
            ));
        }
        samples.push(Sample {
            t,
            focus,
            camera,
            line: i,
        });
    }
    Ok(samples)
}

/// Writes samples as a CSV route file (with camera columns if the first sample has a camera).
pub fn to_csv(samples: &[Sample]) -> String {
    let camera = samples.first().is_some_and(|s| s.camera.is_some());
    let mut out = String::from("# relief route: t in seconds, positions in metres\n");
    out += if camera {
        "t,x,y,z,camera_x,camera_y,camera_z\n"
    } else {
        "t,x,y,z\n"
    };
    for s in samples {
        let _ = write!(out, "{},{},{},{}", s.t, s.focus[0], s.focus[1], s.focus[2]);
        if let (true, Some(c)) = (camera, s.camera) {
            let _ = write!(out, ",{},{},{}", c[0], c[1], c[2]);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn json_of(samples: &[Sample]) -> String {
        let list: Vec<serde_json::Value> = samples
            .iter()
            .map(|s| {
                let mut o = serde_json::json!({ "t": s.t, "focus": s.focus.to_array() });
                if let Some(c) = s.camera {
                    o["camera"] = serde_json::json!(c.to_array());
                }
                o
            })
            .collect();
        serde_json::json!({ "relief_route": 1, "samples": list }).to_string()
    }

    fn samples() -> impl Strategy<Value = Vec<Sample>> {
        (
            prop::collection::vec(
                (
                    0.001f64..5.0,
                    prop::array::uniform3(-1e6f64..1e6),
                    prop::array::uniform3(-1e6f64..1e6),
                ),
                2..40,
            ),
            any::<bool>(),
        )
            .prop_map(|(steps, camera)| {
                let mut t = 0.0;
                steps
                    .into_iter()
                    .enumerate()
                    .map(|(i, (dt, f, c))| {
                        t += dt;
                        Sample {
                            t,
                            focus: DVec3::from(f),
                            camera: camera.then_some(DVec3::from(c)),
                            line: i,
                        }
                    })
                    .collect()
            })
    }

    proptest! {
        // Both spellings read back exactly what was written, with one identity.
        #[test]
        fn csv_and_json_round_trip_to_one_identity(s in samples()) {
            let csv = RouteFile::parse(&to_csv(&s)).unwrap();
            let json = RouteFile::parse(&json_of(&s)).unwrap();
            let strip = |r: &RouteFile| r.samples.iter().map(|x| (x.t, x.focus, x.camera)).collect::<Vec<_>>();
            let want: Vec<_> = s.iter().map(|x| (x.t, x.focus, x.camera)).collect();
            prop_assert_eq!(strip(&csv), want.clone());
            prop_assert_eq!(strip(&json), want);
            prop_assert_eq!(csv.identity(), json.identity());
        }

        // Replay passes through every sample at its time and stays between neighbours.
        #[test]
        fn replay_interpolates_between_samples(s in samples(), k in 0.0f64..1.0) {
            let r = RouteFile::parse(&to_csv(&s)).unwrap();
            let t0 = s[0].t;
            for x in &s {
                let (f, _) = r.at(x.t - t0);
                for (got, want) in f.to_array().iter().zip(x.focus.to_array()) {
                    prop_assert!((got - want).abs() <= 1e-6 * want.abs().max(1.0));
                }
            }
            let i = ((s.len() - 1) as f64 * k) as usize;
            let i = i.min(s.len() - 2);
            let t = s[i].t + (s[i + 1].t - s[i].t) * 0.5 - t0;
            let (f, c) = r.at(t);
            for ((got, a), b) in f.to_array().iter().zip(s[i].focus.to_array()).zip(s[i + 1].focus.to_array()) {
                prop_assert!(*got >= a.min(b) - 1e-6 && *got <= a.max(b) + 1e-6);
            }
            if s[0].camera.is_none() {
                prop_assert_eq!(f, c);
            }
        }

        // Any change to one value changes the identity.
        #[test]
        fn identity_changes_with_any_value(s in samples(), which in 0usize..40, by in 0.5f64..10.0) {
            let a = RouteFile::parse(&to_csv(&s)).unwrap();
            let mut edited = s.clone();
            let i = which % edited.len();
            edited[i].focus[which % 3] += by;
            let b = RouteFile::parse(&to_csv(&edited)).unwrap();
            prop_assert_ne!(a.identity(), b.identity());
        }
    }

    #[test]
    fn bad_routes_name_the_line_or_field() {
        let cases = [
            ("", "empty"),
            ("# only a comment\n", "empty"),
            ("t,x,y,z\n", "at least two samples"),
            ("t,x,y,z\n0,1,2,3\n", "at least two samples"),
            ("t,x,z\n0,1,2\n1,2,3\n", "no `y` column"),
            ("t,x,y,z\n0,1,2,3\n1,NaN,2,3\n", "line 3: `x` = NaN is not finite"),
            ("t,x,y,z\n0,1,2,3\n1,inf,2,3\n", "line 3: `x` = inf is not finite"),
            ("t,x,y,z\n0,1,2,3\n1,abc,2,3\n", "line 3: `x` = `abc` is not a number"),
            ("t,x,y,z\n0,1,2,3\n\n# gap\n0.5,1,2,3\n0.4,1,2,3\n", "line 6: time 0.4 s"),
            ("t,x,y,z\n1,1,2,3\n1,1,2,3\n", "line 3: time 1 s is not after"),
            ("t,x,y,z\n0,1,2\n", "line 2: 3 fields, the header has 4"),
            ("t,x,y,z,camera_x\n0,1,2,3,4\n", "come together"),
            ("{", "not valid JSON"),
            ("{\"samples\": []}", "field relief_route: missing"),
            ("{\"relief_route\": 2, \"samples\": []}", "version 2"),
            ("{\"relief_route\": 1}", "field samples"),
            ("{\"relief_route\": 1, \"samples\": []}", "at least two samples"),
            ("{\"relief_route\": 1, \"samples\": [{\"t\": 0}]}", "sample 0: field focus missing"),
            ("{\"relief_route\": 1, \"samples\": [{\"t\": 0, \"focus\": [1, 2]}]}", "sample 0: field focus is not"),
            ("{\"relief_route\": 1, \"samples\": [{\"focus\": [1, 2, 3]}]}", "sample 0: field t"),
            (
                "{\"relief_route\": 1, \"samples\": [{\"t\": 0, \"focus\": [1,2,3]}, {\"t\": 0, \"focus\": [1,2,3]}]}",
                "sample 1: time 0 s",
            ),
            (
                "{\"relief_route\": 1, \"samples\": [{\"t\": 0, \"focus\": [1,2,3], \"camera\": [1,2,3]}, {\"t\": 1, \"focus\": [1,2,3]}]}",
                "sample 1: field camera",
            ),
        ];
        for (text, want) in cases {
            match RouteFile::parse(text) {
                Ok(_) => panic!("accepted {text:?}"),
                Err(e) => assert!(e.contains(want), "{text:?}: `{e}` does not say `{want}`"),
            }
        }
    }
}
