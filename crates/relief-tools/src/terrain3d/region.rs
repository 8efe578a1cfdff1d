//! A `Terrain3DRegion` resource as relief takes it: the region's size, spacing (when the file
//! says), height range and its three maps bit for bit — height f32 metres, control u32 words,
//! color RGBA8 (its first mip level; Terrain3D stores the full chain).
//!
//! Terrain3D 1.0 writes the region as the main resource with `version`, `region_size`,
//! `height_range`, `height_map`, `control_map`, `color_map` (each an internal `Image` whose
//! `data` property is a dictionary of `width`, `height`, `format` by name, `mipmaps` and the
//! pixel bytes), and optionally `vertex_spacing` and instancer data relief ignores.

use super::binres::{self, Body, Resource, Variant};
use super::{container, ResError};

/// A region read from a Terrain3D file.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain3dRegion {
    /// Terrain3D's data version (0.93 for 1.0.x files).
    pub version: f64,
    /// Samples per side (a power of two, 64–2048).
    pub region_size: u32,
    /// Metres between samples, when the file stores it.
    pub vertex_spacing: Option<f64>,
    pub height_range: [f64; 2],
    /// `region_size²` heights, row-major, image y = world +Z.
    pub height: Vec<f32>,
    /// `region_size²` control words.
    pub control: Vec<u32>,
    /// `region_size²` RGBA8 pixels, the color map's first mip level.
    pub color: Vec<[u8; 4]>,
}

/// A region file's parsed resource, kept whole so an exporter can mirror its structure.
pub struct RegionFile {
    pub resource: Resource,
}

impl RegionFile {
    /// Reads a `.res` file's bytes: compressed (`RSCC`) or not (`RSRC`).
    pub fn parse(bytes: &[u8]) -> Result<RegionFile, ResError> {
        let resource = if container::is_compressed(bytes) {
            binres::parse(&container::decompress(bytes)?)?
        } else if bytes.starts_with(binres::MAGIC) {
            binres::parse(bytes)?
        } else {
            return Err(ResError::BadMagic {
                found: bytes.iter().take(4).copied().collect(),
            });
        };
        Ok(RegionFile { resource })
    }

    /// The region it holds.
    pub fn region(&self) -> Result<Terrain3dRegion, ResError> {
        let r = &self.resource;
        let main = r
            .main()
            .ok_or_else(|| not_region("the file holds no resource"))?;
        if main.class != "Terrain3DRegion" {
            return Err(not_region(&format!("its resource is a {}", main.class)));
        }
        let size = main
            .get("region_size")
            .and_then(Variant::as_int)
            .filter(|&s| (64..=2048).contains(&s) && (s as u64).is_power_of_two())
            .ok_or_else(|| not_region("region_size is not a power of two from 64 to 2048"))?
            as u32;
        let height_range = match main.get("height_range") {
            Some(Variant::Vector2(v)) => *v,
            _ => [0.0, 0.0],
        };
        let image = |name: &str| -> Result<Image, ResError> {
            match main.get(name) {
                Some(Variant::Internal(i)) => {
                    let body = r
                        .internal(*i)
                        .ok_or_else(|| not_region(&format!("{name} names resource {i}")))?;
                    Image::from_body(body, name)
                }
                _ => Err(not_region(&format!("{name} is missing"))),
            }
        };
        let (height, control, color) = (
            image("height_map")?,
            image("control_map")?,
            image("color_map")?,
        );
        for (map, format) in [(&height, "RFloat"), (&control, "RFloat"), (&color, "RGBA8")] {
            map.check(size, format)?;
        }
        let words = |b: &[u8]| -> Vec<[u8; 4]> {
            b.chunks_exact(4)
                .map(|p| p.try_into().expect("four"))
                .collect()
        };
        let n = (size as usize).pow(2);
        Ok(Terrain3dRegion {
            version: main
                .get("version")
                .and_then(Variant::as_float)
                .unwrap_or(0.0),
            region_size: size,
            vertex_spacing: main.get("vertex_spacing").and_then(Variant::as_float),
            height_range,
            height: words(&height.data[..4 * n])
                .into_iter()
                .map(f32::from_le_bytes)
                .collect(),
            control: words(&control.data[..4 * n])
                .into_iter()
                .map(u32::from_le_bytes)
                .collect(),
            color: words(&color.data[..4 * n]),
        })
    }
}

fn not_region(why: &str) -> ResError {
    ResError::NotARegion(why.to_string())
}

/// An `Image` resource's `data` dictionary.
struct Image {
    name: String,
    width: i64,
    height: i64,
    format: String,
    mipmaps: bool,
    data: Vec<u8>,
}

impl Image {
    fn from_body(body: &Body, name: &str) -> Result<Image, ResError> {
        if body.class != "Image" {
            return Err(not_region(&format!("{name} is a {}", body.class)));
        }
        let d = body
            .get("data")
            .ok_or_else(|| not_region(&format!("{name} has no data")))?;
        let int = |k: &str| d.get(k).and_then(Variant::as_int);
        let bytes = match d.get("data") {
            Some(Variant::Bytes(b)) => b.clone(),
            _ => return Err(not_region(&format!("{name} has no pixel bytes"))),
        };
        Ok(Image {
            name: name.into(),
            width: int("width").unwrap_or(-1),
            height: int("height").unwrap_or(-1),
            format: d
                .get("format")
                .and_then(Variant::as_str)
                .unwrap_or("")
                .into(),
            mipmaps: matches!(d.get("mipmaps"), Some(Variant::Bool(true))),
            data: bytes,
        })
    }

    /// The map is `size²` of `format`, with as many bytes as that (and its mips) take.
    fn check(&self, size: u32, format: &str) -> Result<(), ResError> {
        let name = &self.name;
        if self.width != size as i64 || self.height != size as i64 {
            return Err(not_region(&format!(
                "{name} is {}×{}, the region {size}²",
                self.width, self.height
            )));
        }
        if self.format != format {
            return Err(not_region(&format!(
                "{name} is {}, not {format}",
                self.format
            )));
        }
        let level = 4 * (size as usize).pow(2);
        let want = if self.mipmaps {
            std::iter::successors(Some(size as usize), |&s| (s > 1).then_some(s / 2))
                .map(|s| 4 * s * s)
                .sum()
        } else {
            level
        };
        if self.data.len() != want {
            return Err(not_region(&format!(
                "{name} has {} bytes, {want} expected",
                self.data.len()
            )));
        }
        Ok(())
    }
}

/// Terrain3D 1.0.x's data version, which its files carry as `version` (an f32 on disk).
pub const DATA_VERSION: f64 = 0.93f32 as f64;

impl Terrain3dRegion {
    /// The region as the resource Terrain3D itself writes: the string table, three `Image`
    /// sub-resources (height and control `RFloat` without mips, color `RGBA8` with its full
    /// chain, each with `data` then a nil `script`), then the `Terrain3DRegion` with
    /// `version`, `region_size`, `height_range`, the three maps and a nil `script` — the
    /// demo file's layout — plus `vertex_spacing` when known. `color_mips` is the color
    /// chain after the first level; `path` is the file's `res://` path; `uid` its uid.
    pub fn to_resource(&self, color_mips: &[u8], path: &str, uid: Option<u64>) -> Resource {
        let n = self.region_size as i64;
        let image = |k: usize, format: &str, mipmaps: bool, data: Vec<u8>| Body {
            path: format!("local://Image_{}", ["height", "control", "color"][k]),
            class: "Image".into(),
            properties: vec![
                (
                    "data".into(),
                    Variant::Dictionary(vec![
                        (Variant::String("width".into()), Variant::Int(n)),
                        (Variant::String("height".into()), Variant::Int(n)),
                        (
                            Variant::String("format".into()),
                            Variant::String(format.into()),
                        ),
                        (Variant::String("mipmaps".into()), Variant::Bool(mipmaps)),
                        (Variant::String("data".into()), Variant::Bytes(data)),
                    ]),
                ),
                ("script".into(), Variant::Nil),
            ],
        };
        let height = self.height.iter().flat_map(|h| h.to_le_bytes()).collect();
        let control = self.control.iter().flat_map(|c| c.to_le_bytes()).collect();
        let mut color: Vec<u8> = self.color.iter().flatten().copied().collect();
        color.extend_from_slice(color_mips);
        let mut main = vec![
            ("version".to_string(), Variant::Float(DATA_VERSION)),
            ("region_size".into(), Variant::Int(n)),
        ];
        if let Some(s) = self.vertex_spacing {
            main.push(("vertex_spacing".into(), Variant::Float(s)));
        }
        main.extend([
            ("height_range".into(), Variant::Vector2(self.height_range)),
            ("height_map".into(), Variant::Internal(0)),
            ("control_map".into(), Variant::Internal(1)),
            ("color_map".into(), Variant::Internal(2)),
            ("script".into(), Variant::Nil),
        ]);
        let strings = [
            "resource_local_to_scene",
            "resource_name",
            "data",
            "script",
            "version",
            "region_size",
            "height_range",
            "height_map",
            "control_map",
            "color_map",
            "multimeshes",
        ];
        Resource {
            header: binres::Header {
                engine: (4, 2),
                format: 5,
                class: "Terrain3DRegion".into(),
                flags: 1 | uid.map_or(0, |_| binres::FLAG_UIDS),
                uid,
                strings: strings.iter().map(|s| s.to_string()).collect(),
                external: Vec::new(),
            },
            bodies: vec![
                image(0, "RFloat", false, height),
                image(1, "RFloat", false, control),
                image(2, "RGBA8", true, color),
                Body {
                    path: path.into(),
                    class: "Terrain3DRegion".into(),
                    properties: main,
                },
            ],
        }
    }
}
