//! Heightmaps other terrain tools write, read as metres: 16-bit raw (`.r16`/`.raw`,
//! little-endian), 32-bit float raw (`.f32`, little-endian) and grayscale PNG (16- or 8-bit);
//! then cut into regions ([`cut`]) for [`write_world`](super::write_world)
//! (`relief import heightmap`).
//!
//! Every decoder takes untrusted bytes: sizes are checked against what the file holds and
//! [`MAX_SAMPLES`] before anything is allocated (`fuzz/`'s `heightmap` target runs them).

use std::path::Path;

use relief::flat::control::Control;
use relief::RegionLocation;

use super::{ImportError, ImportedRegion};

/// The largest heightmap read: 32768² samples (a PNG's size is checked before it is decoded,
/// so a small file can't claim a huge image).
pub const MAX_SAMPLES: usize = 1 << 30;

/// How to read a heightmap: `relief import heightmap`'s options, which the `relief` command
/// (feature `cli`) takes as flags; each field's documentation is its flag's help.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Options {
    /// The file's format [default: from its extension: .r16 and .raw are r16, .f32 is f32,
    /// .png is png].
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub format: Option<Format>,
    /// Samples across and down, for raw files that aren't square (`WxH`).
    #[cfg_attr(feature = "cli", arg(long, value_name = "WxH"))]
    pub size: Option<String>,
    /// Heights the format's full range maps onto (0–65535 for 16-bit, 0–255 for 8-bit PNG,
    /// 0–1 for float), metres: `MIN,MAX`.
    #[cfg_attr(
        feature = "cli",
        arg(
            long,
            value_name = "MIN,MAX",
            allow_hyphen_values = true,
            conflicts_with = "scale"
        )
    )]
    pub height_range: Option<String>,
    /// Metres per stored unit instead of --height-range [default: 1 for float files].
    #[cfg_attr(feature = "cli", arg(long))]
    pub scale: Option<f64>,
    /// Metres added after --scale.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value_t = 0.0, allow_hyphen_values = true)
    )]
    pub offset: f64,
    /// The value the file stores where it has no data (e.g. -9999 or -3.4028235e38 in a
    /// float file, 0 or 65535 in a 16-bit one), as stored, before --height-range or --scale:
    /// those samples become holes. NaN and infinite float samples are always holes.
    #[cfg_attr(feature = "cli", arg(long, allow_hyphen_values = true))]
    pub no_data: Option<f64>,
}

/// A heightmap file's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    R16,
    F32,
    Png,
}

/// Heights in metres, row-major with X fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct Heightmap {
    pub width: usize,
    pub depth: usize,
    pub heights: Vec<f32>,
}

fn bad(path: &Path, problem: impl Into<String>) -> ImportError {
    ImportError::Heightmap {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

/// Reads a heightmap file (at most [`MAX_SAMPLES`] samples), its format from `o` or else
/// its extension.
pub fn read(path: &Path, o: &Options) -> Result<Heightmap, ImportError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = match (o.format, ext.as_deref()) {
        (Some(f), _) => f,
        (None, Some("r16" | "raw")) => Format::R16,
        (None, Some("f32")) => Format::F32,
        (None, Some("png")) => Format::Png,
        _ => {
            return Err(bad(
                path,
                "can't tell the format from the extension: say --format r16, f32 or png",
            ))
        }
    };
    // Raw samples are at most 4 bytes each; a PNG is compressed, so no larger.
    let bytes = relief::bounds::read_file(path, 4 * MAX_SAMPLES as u64)?;
    decode(path, &bytes, format, o)
}

/// Decodes a heightmap file's bytes (`path` names it in errors).
pub fn decode(
    path: &Path,
    bytes: &[u8],
    format: Format,
    o: &Options,
) -> Result<Heightmap, ImportError> {
    let (width, depth, units, full) = match format {
        Format::R16 | Format::F32 => {
            let elem = if format == Format::R16 { 2 } else { 4 };
            if bytes.len() % elem != 0 {
                return Err(bad(
                    path,
                    format!("{} bytes is not a whole number of samples", bytes.len()),
                ));
            }
            if bytes.len() / elem > MAX_SAMPLES {
                return Err(bad(
                    path,
                    format!(
                        "{} samples is more than relief imports ({MAX_SAMPLES})",
                        bytes.len() / elem
                    ),
                ));
            }
            let (w, d) = raw_size(path, bytes.len() / elem, o.size.as_deref())?;
            if elem == 2 {
                (w, d, Units::U16Le(bytes), 65535.0)
            } else {
                (w, d, Units::F32Le(bytes), 1.0)
            }
        }
        Format::Png => png_gray(path, bytes)?,
    };
    let (scale, offset) = match (&o.height_range, o.scale) {
        (Some(range), _) => {
            let v: Vec<f64> = range
                .split(',')
                .map(|s| s.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad(path, format!("--height-range takes MIN,MAX, got `{range}`")))?;
            let [lo, hi] = v[..] else {
                return Err(bad(
                    path,
                    format!("--height-range takes MIN,MAX, got `{range}`"),
                ));
            };
            ((hi - lo) / full, lo)
        }
        (None, Some(s)) => (s, o.offset),
        (None, None) if format == Format::F32 => (1.0, o.offset),
        (None, None) => {
            return Err(bad(
                path,
                "16- and 8-bit heightmaps need --height-range MIN,MAX or --scale (metres per unit)",
            ))
        }
    };
    if !scale.is_finite() || !offset.is_finite() {
        return Err(bad(path, "the height range or scale is not finite"));
    }
    Ok(Heightmap {
        width,
        depth,
        heights: units.metres(scale, offset, o.no_data),
    })
}

/// A heightmap's samples still in the file's encoding, read once into metres (no copy of
/// wider intermediate values: a 32768² map is 4 GiB of f32 already).
enum Units<'a> {
    U16Le(&'a [u8]),
    F32Le(&'a [u8]),
    /// A 16-bit PNG's decoded rows (big-endian samples).
    U16Be(Vec<u8>),
    U8(Vec<u8>),
}

impl Units<'_> {
    /// Metres for each sample; NaN where it holds `no_data` or isn't finite (a hole).
    /// Stored values are compared as f32, which holds every 16-bit value exactly and is what
    /// a float file stores (so -3.4028235e38 matches the float it names).
    fn metres(&self, scale: f64, offset: f64, no_data: Option<f64>) -> Vec<f32> {
        let no_data = no_data.map(|v| v as f32);
        let m = |u: f64| match (u * scale + offset) as f32 {
            h if h.is_finite() && Some(u as f32) != no_data => h,
            _ => f32::NAN,
        };
        match self {
            Units::U16Le(b) => b
                .chunks_exact(2)
                .map(|b| m(u16::from_le_bytes([b[0], b[1]]) as f64))
                .collect(),
            Units::F32Le(b) => b
                .chunks_exact(4)
                .map(|b| m(f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64))
                .collect(),
            Units::U16Be(b) => b
                .chunks_exact(2)
                .map(|b| m(u16::from_be_bytes([b[0], b[1]]) as f64))
                .collect(),
            Units::U8(b) => b.iter().map(|&u| m(u as f64)).collect(),
        }
    }
}

/// The size of a raw file of `n` samples: `--size`, or the square side.
fn raw_size(path: &Path, n: usize, size: Option<&str>) -> Result<(usize, usize), ImportError> {
    match size {
        Some(s) => {
            let parsed = s
                .split_once(['x', 'X'])
                .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
            let Some((w, d)) = parsed.filter(|&(w, d): &(usize, usize)| w > 0 && d > 0) else {
                return Err(bad(path, format!("--size takes WxH, got `{s}`")));
            };
            if w.checked_mul(d) != Some(n) {
                return Err(bad(
                    path,
                    format!("{w}×{d} samples is not the {n} the file holds"),
                ));
            }
            Ok((w, d))
        }
        None => {
            let side = (n as f64).sqrt().round() as usize;
            if side == 0 || side * side != n {
                return Err(bad(
                    path,
                    format!("{n} samples is not a square: say --size WxH"),
                ));
            }
            Ok((side, side))
        }
    }
}

/// A grayscale PNG's size, samples and the largest value its depth holds.
fn png_gray(path: &Path, bytes: &[u8]) -> Result<(usize, usize, Units<'static>, f64), ImportError> {
    let png = |e: png::DecodingError| bad(path, format!("PNG: {e}"));
    let limits = png::Limits {
        bytes: 2 * MAX_SAMPLES,
    };
    let mut reader = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits)
        .read_info()
        .map_err(png)?;
    let info = reader.info();
    let (w, d) = (info.width as usize, info.height as usize);
    let (color, depth) = (info.color_type, info.bit_depth);
    if color != png::ColorType::Grayscale {
        return Err(bad(
            path,
            format!("PNG is {color:?}; a heightmap is grayscale"),
        ));
    }
    let max = match depth {
        png::BitDepth::Sixteen => 65535.0,
        png::BitDepth::Eight => 255.0,
        other => {
            return Err(bad(
                path,
                format!("PNG is {other:?}-bit; heightmaps are 8- or 16-bit"),
            ))
        }
    };
    if w.saturating_mul(d) > MAX_SAMPLES {
        return Err(bad(path, format!("{w}×{d} is more than relief imports")));
    }
    // Deflate expands at most 1,032:1, so the samples must be ones the file could hold:
    // a 3 KB file claiming 32768² is refused before its 2 GiB buffer is made.
    let rows = w
        .saturating_mul(if max > 255.0 { 2 } else { 1 })
        .saturating_add(1);
    if rows.saturating_mul(d) > bytes.len().saturating_mul(1032) {
        return Err(bad(
            path,
            format!(
                "{w}×{d} samples can't come from {} bytes of PNG",
                bytes.len()
            ),
        ));
    }
    let mut buf = vec![
        0;
        reader
            .output_buffer_size()
            .ok_or_else(|| bad(path, "PNG too large"))?
    ];
    let frame = reader.next_frame(&mut buf).map_err(png)?;
    buf.truncate(frame.buffer_size());
    let units = if max > 255.0 {
        Units::U16Be(buf)
    } else {
        Units::U8(buf)
    };
    Ok((w, d, units, max))
}

/// A heightmap whose samples are `dx` metres apart across and `dz` down (a geographic DEM's
/// spacings differ: 3″ at 36.6° N is 74.6 m east–west and 92.5 m north–south) resampled to
/// square cells of the smaller, bilinearly: the map keeps its extent in metres and its
/// detail. A sample next to a hole is a hole. Returns the map and its spacing; equal
/// spacings return it as it is.
pub fn resample_square(hm: Heightmap, dx: f64, dz: f64) -> Result<(Heightmap, f64), ImportError> {
    use relief::flat::manifest::{MAX_SPACING, MIN_SPACING};
    let ok = |s: f64| (MIN_SPACING..=MAX_SPACING).contains(&s);
    if !ok(dx) || !ok(dz) {
        return Err(ImportError::Settings(format!(
            "spacing {dx},{dz} must be two positive numbers of metres, each within \
             {MIN_SPACING}–{MAX_SPACING} m"
        )));
    }
    if dx == dz {
        return Ok((hm, dx));
    }
    let s = dx.min(dz);
    // Sizes in f64 first: the spacings' ratio is at most 10⁶, so these are finite, and
    // checked before they size anything.
    let along = |n: usize, d: f64| ((n - 1) as f64 * d / s + 1e-9).floor() + 1.0;
    let (wf, df) = (along(hm.width, dx), along(hm.depth, dz));
    if wf * df > MAX_SAMPLES as f64 {
        return Err(ImportError::Settings(format!(
            "a {}×{} map at {dx} × {dz} m resamples to {wf}×{df} square cells, more than \
             relief imports ({MAX_SAMPLES})",
            hm.width, hm.depth
        )));
    }
    let (w, d) = (wf as usize, df as usize);
    if w.saturating_mul(d) > MAX_SAMPLES {
        return Err(ImportError::Settings(format!(
            "a {}×{} map at {dx} × {dz} m resamples to {w}×{d} square cells, more than relief \
             imports ({MAX_SAMPLES})",
            hm.width, hm.depth
        )));
    }
    // Source coordinate and blend weight of each output column and row.
    let at = |i: usize, d: f64, n: usize| {
        let x = (i as f64 * s / d).min((n - 1) as f64);
        let x0 = (x.floor() as usize).min(n.saturating_sub(2));
        (x0, x - x0 as f64)
    };
    let cols: Vec<(usize, f64)> = (0..w).map(|i| at(i, dx, hm.width)).collect();
    let mut heights = Vec::with_capacity(w * d);
    for j in 0..d {
        let (z0, tz) = at(j, dz, hm.depth);
        let z1 = (z0 + 1).min(hm.depth - 1);
        for &(x0, tx) in &cols {
            let x1 = (x0 + 1).min(hm.width - 1);
            let h = |x: usize, z: usize| hm.heights[z * hm.width + x] as f64;
            let top = h(x0, z0) * (1.0 - tx) + h(x1, z0) * tx;
            let bottom = h(x0, z1) * (1.0 - tx) + h(x1, z1) * tx;
            // NaN spreads: a corner that is a hole makes the sample one.
            heights.push((top * (1.0 - tz) + bottom * tz) as f32);
        }
    }
    Ok((
        Heightmap {
            width: w,
            depth: d,
            heights,
        },
        s,
    ))
}

/// A heightmap cut into regions centred on the origin: image x along world +X, image y
/// along +Z, sample (0, 0) at the first region's corner. Where the image doesn't fill its
/// last regions, and where its samples aren't finite (no data), the samples are holes.
pub fn cut(hm: &Heightmap, region_size: u32) -> Result<Vec<ImportedRegion>, ImportError> {
    if !region_size.is_power_of_two() || !(64..=2048).contains(&region_size) {
        return Err(ImportError::Settings(format!(
            "region size {region_size} must be a power of two from 64 to 2048"
        )));
    }
    let n = region_size as usize;
    let (cols, rows) = (hm.width.div_ceil(n), hm.depth.div_ceil(n));
    // The world may hold at most four times the image's samples, plus four regions: a thin
    // strip (1 × 1,048,576) would otherwise become hundreds of full regions, nearly all
    // holes (16 GiB from a 3 KB file).
    let allowed = 4 * (hm.width * hm.depth).div_ceil(n * n) + 4;
    if cols * rows > allowed {
        return Err(ImportError::Settings(format!(
            "a {}×{} heightmap in regions of {region_size}² would take {cols}×{rows} regions, \
             mostly empty (at most {allowed} for its samples): crop it or use a smaller \
             --region-size",
            hm.width, hm.depth
        )));
    }
    let (x0, z0) = (-(cols as i32 / 2), -(rows as i32 / 2));
    let hole = Control::BLANK | 1 << 2;
    let mut regions = Vec::with_capacity(cols * rows);
    for rz in 0..rows {
        for rx in 0..cols {
            let mut height = vec![f32::NAN; n * n];
            let mut control = vec![hole; n * n];
            for y in 0..n.min(hm.depth - rz * n) {
                let src = (rz * n + y) * hm.width + rx * n;
                let len = n.min(hm.width - rx * n);
                height[y * n..y * n + len].copy_from_slice(&hm.heights[src..src + len]);
                for (c, h) in control[y * n..y * n + len]
                    .iter_mut()
                    .zip(&hm.heights[src..src + len])
                {
                    if h.is_finite() {
                        *c = Control::BLANK;
                    }
                }
            }
            regions.push(ImportedRegion {
                location: RegionLocation::new(x0 + rx as i32, z0 + rz as i32),
                height,
                control: Some(control),
                color: None,
            });
        }
    }
    Ok(regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn png16(w: u32, h: u32, samples: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::Sixteen);
        let mut wr = enc.write_header().unwrap();
        let be: Vec<u8> = samples.iter().flat_map(|s| s.to_be_bytes()).collect();
        wr.write_image_data(&be).unwrap();
        wr.finish().unwrap();
        out
    }

    fn ranged(range: &str) -> Options {
        Options {
            height_range: Some(range.into()),
            ..Options::default()
        }
    }

    proptest! {
        /// The same 16-bit samples as r16 and as PNG give the same metres, each the range's
        /// low end plus its share of the span.
        #[test]
        fn r16_and_png_read_alike(w in 1u32..40, h in 1u32..40, seed in any::<u64>(), lo in -500.0f64..0.0, span in 1.0f64..3000.0) {
            let mut x = seed | 1;
            let samples: Vec<u16> = (0..w * h).map(|_| { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x as u16 }).collect();
            let raw: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
            let mut o = ranged(&format!("{lo},{}", lo + span));
            o.size = Some(format!("{w}x{h}"));
            let a = decode(Path::new("a.r16"), &raw, Format::R16, &o).unwrap();
            let b = decode(Path::new("a.png"), &png16(w, h, &samples), Format::Png, &o).unwrap();
            prop_assert_eq!(&a, &b);
            prop_assert_eq!((a.width, a.depth), (w as usize, h as usize));
            for (m, &s) in a.heights.iter().zip(&samples) {
                prop_assert_eq!(*m, (lo + s as f64 * span / 65535.0) as f32);
            }
        }
    }

    #[test]
    fn float_raw_is_metres_and_sizes_are_checked() {
        let heights = [1.5f32, -2.0, 300.25, 0.0];
        let raw: Vec<u8> = heights.iter().flat_map(|h| h.to_le_bytes()).collect();
        let p = Path::new("h.f32");
        let hm = decode(p, &raw, Format::F32, &Options::default()).unwrap();
        assert_eq!((hm.width, hm.depth, &hm.heights[..]), (2, 2, &heights[..]));
        let wide = Options {
            size: Some("4x1".into()),
            ..Options::default()
        };
        assert_eq!(decode(p, &raw, Format::F32, &wide).unwrap().width, 4);
        for (bytes, o) in [
            (
                &raw[..],
                Options {
                    size: Some("3x1".into()),
                    ..Options::default()
                },
            ),
            (&raw[..12], Options::default()),
            (&raw[..5], Options::default()),
        ] {
            assert!(decode(p, bytes, Format::F32, &o).is_err());
        }
        let e = decode(
            Path::new("h.r16"),
            &[0; 8],
            Format::R16,
            &Options::default(),
        );
        assert!(e.unwrap_err().to_string().contains("--height-range"));
        let scaled = Options {
            scale: Some(0.5),
            offset: -10.0,
            ..Options::default()
        };
        let hm = decode(
            Path::new("h.r16"),
            &[4, 0, 0, 1, 0, 0, 0, 0],
            Format::R16,
            &scaled,
        )
        .unwrap();
        assert_eq!(hm.heights, [-8.0, 118.0, -10.0, -10.0]);
    }

    #[test]
    fn damaged_and_colour_pngs_are_errors() {
        let good = png16(4, 4, &[7; 16]);
        let o = ranged("0,100");
        for cut in [0, 8, 20, good.len() - 13] {
            assert!(
                decode(Path::new("x.png"), &good[..cut], Format::Png, &o).is_err(),
                "cut {cut}"
            );
        }
        let mut rgb = Vec::new();
        let mut enc = png::Encoder::new(&mut rgb, 1, 1);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(&[1, 2, 3]).unwrap();
        wr.finish().unwrap();
        let e = decode(Path::new("x.png"), &rgb, Format::Png, &o).unwrap_err();
        assert!(e.to_string().contains("grayscale"), "{e}");
    }

    /// A PNG's header may claim 32768² samples over a few bytes of data: deflate expands at
    /// most 1,032:1, so it is refused before a 2 GiB buffer is made for it.
    #[test]
    fn a_png_claiming_more_than_its_bytes_can_hold_is_refused() {
        let mut png = png16(2, 2, &[1, 2, 3, 4]);
        // IHDR's width and height (big-endian, at 16 and 20), then its CRC re-made.
        png[16..20].copy_from_slice(&32768u32.to_be_bytes());
        png[20..24].copy_from_slice(&32768u32.to_be_bytes());
        let crc = crc32fast::hash(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = decode(Path::new("x.png"), &png, Format::Png, &ranged("0,100")).unwrap_err();
        assert!(e.to_string().contains("can't come from"), "{e}");
    }

    #[test]
    fn a_heightmap_is_cut_into_regions_with_holes_past_its_edge() {
        let (w, d) = (130usize, 64usize);
        let hm = Heightmap {
            width: w,
            depth: d,
            heights: (0..w * d).map(|k| k as f32).collect(),
        };
        let regions = cut(&hm, 64).unwrap();
        let locs: Vec<(i32, i32)> = regions
            .iter()
            .map(|r| (r.location.x, r.location.z))
            .collect();
        assert_eq!(locs, [(-1, 0), (0, 0), (1, 0)]);
        // Sample (x, y) of the image is in region x / 64, at (x % 64, y).
        for (x, y) in [(0usize, 0usize), (63, 5), (64, 0), (129, 63)] {
            let r = &regions[x / 64];
            let k = y * 64 + x % 64;
            assert_eq!(r.height[k], (y * w + x) as f32, "({x}, {y})");
            assert_eq!(r.control.as_ref().unwrap()[k] & 4, 0);
        }
        let last = &regions[2];
        assert!(last.height[2].is_nan(), "past the image's edge");
        assert_eq!(last.control.as_ref().unwrap()[2] & 4, 4, "a hole");
        assert!(cut(&hm, 100).is_err());
    }

    /// A strip one sample wide would become hundreds of full regions, nearly all holes (16
    /// GiB from a 3 KB PNG at 2048²): refused, naming what to do; a square image of any size
    /// and a strip that fits its regions are not.
    #[test]
    fn a_thin_strip_is_refused_rather_than_padded_into_regions() {
        let strip = |w: usize, d: usize| Heightmap {
            width: w,
            depth: d,
            heights: vec![1.0; w * d],
        };
        let e = cut(&strip(1, 1 << 20), 2048).expect_err("refused");
        assert!(e.to_string().contains("smaller --region-size"), "{e}");
        assert!(cut(&strip(1, 1 << 20), 512).is_err());
        assert_eq!(cut(&strip(100, 100), 2048).unwrap().len(), 1);
        assert_eq!(cut(&strip(4096, 64), 64).unwrap().len(), 64);
        assert_eq!(cut(&strip(130, 64), 64).unwrap().len(), 3);
    }
}
