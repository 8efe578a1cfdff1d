//! The overview: whole-world heights at a coarse spacing, for far LOD and for queries where no
//! region is resident. Byte layout in docs/formats.md.

use crate::codec::{self, Codec};
use crate::error::FormatError;
use crate::layer::plain;

pub const OVERVIEW_MAGIC: [u8; 4] = *b"RLOV";
pub const OVERVIEW_VERSION: u16 = 1;
const HEADER: usize = 52;

/// Heights on a regular grid: sample (i, j) is at world (origin_x + i·spacing, origin_z + j·spacing).
#[derive(Clone, Debug, PartialEq)]
pub struct Overview {
    pub origin_x: f64,
    pub origin_z: f64,
    pub spacing: f64,
    pub width: u32,
    pub depth: u32,
    pub heights: Vec<f32>,
}

impl Overview {
    pub fn at(&self, i: u32, j: u32) -> f32 {
        self.heights[(j * self.width + i) as usize]
    }

    /// Bilinear height at a world position, clamped to the grid's edge.
    pub fn height(&self, x: f64, z: f64) -> f32 {
        let fx = ((x - self.origin_x) / self.spacing).clamp(0.0, (self.width - 1) as f64);
        let fz = ((z - self.origin_z) / self.spacing).clamp(0.0, (self.depth - 1) as f64);
        let (i, j) = (
            (fx as u32).min(self.width.saturating_sub(2)),
            (fz as u32).min(self.depth.saturating_sub(2)),
        );
        let (tx, tz) = ((fx - i as f64) as f32, (fz - j as f64) as f32);
        let i1 = (i + 1).min(self.width - 1);
        let j1 = (j + 1).min(self.depth - 1);
        let a = self.at(i, j) + (self.at(i1, j) - self.at(i, j)) * tx;
        let b = self.at(i, j1) + (self.at(i1, j1) - self.at(i, j1)) * tx;
        a + (b - a) * tz
    }

    pub fn encode(&self) -> Vec<u8> {
        assert_eq!(self.heights.len(), (self.width * self.depth) as usize);
        let codec = Codec::DeltaShuffleLz4;
        let stored = codec::encode(codec, 4, plain::bytes(&self.heights));
        let mut out = Vec::with_capacity(HEADER + stored.len());
        out.extend_from_slice(&OVERVIEW_MAGIC);
        out.extend_from_slice(&OVERVIEW_VERSION.to_le_bytes());
        out.push(codec as u8);
        out.push(0);
        out.extend_from_slice(&self.width.to_le_bytes());
        out.extend_from_slice(&self.depth.to_le_bytes());
        out.extend_from_slice(&self.spacing.to_le_bytes());
        out.extend_from_slice(&self.origin_x.to_le_bytes());
        out.extend_from_slice(&self.origin_z.to_le_bytes());
        out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&stored).to_le_bytes());
        let header_crc = crc32fast::hash(&out);
        out.extend_from_slice(&header_crc.to_le_bytes());
        out.extend_from_slice(&stored);
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Overview, FormatError> {
        let truncated = |need: usize| FormatError::Truncated {
            need: need as u64,
            have: bytes.len() as u64,
        };
        if bytes.len() < 4 {
            return Err(truncated(HEADER));
        }
        if bytes[..4] != OVERVIEW_MAGIC {
            return Err(FormatError::BadMagic {
                expected: "relief overview",
                found: bytes[..4].to_vec(),
            });
        }
        if bytes.len() < HEADER {
            return Err(truncated(HEADER));
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let f64_at = |at: usize| f64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != OVERVIEW_VERSION {
            return Err(FormatError::UnsupportedVersion {
                what: "overview",
                found: version as u32,
                supported: OVERVIEW_VERSION as u32,
            });
        }
        let computed = crc32fast::hash(&bytes[..48]);
        if computed != u32_at(48) {
            return Err(FormatError::Checksum {
                what: "overview header".into(),
                stored: u32_at(48),
                computed,
            });
        }
        let codec = Codec::from_code(bytes[6])?;
        if bytes[7] != 0 {
            return Err(FormatError::Corrupt(
                "reserved overview byte is not zero".into(),
            ));
        }
        let (width, depth) = (u32_at(8), u32_at(12));
        let (spacing, origin_x, origin_z) = (f64_at(16), f64_at(24), f64_at(32));
        if !(2..=65536).contains(&width)
            || !(2..=65536).contains(&depth)
            || spacing.is_nan()
            || spacing <= 0.0
            || !spacing.is_finite()
        {
            return Err(FormatError::Corrupt(format!(
                "overview grid {width}×{depth} at spacing {spacing}"
            )));
        }
        let stored_len = u32_at(40) as usize;
        let end = HEADER + stored_len;
        if bytes.len() < end {
            return Err(truncated(end));
        }
        if bytes.len() > end {
            return Err(FormatError::TrailingBytes {
                extra: (bytes.len() - end) as u64,
            });
        }
        let stored = &bytes[HEADER..];
        let computed = crc32fast::hash(stored);
        if computed != u32_at(44) {
            return Err(FormatError::Checksum {
                what: "overview heights".into(),
                stored: u32_at(44),
                computed,
            });
        }
        // The grid may be no larger than its payload can decode to, so a header claiming
        // 65536² over two bytes fails here, before 16 GiB are allocated.
        let want = width as usize * depth as usize * 4;
        if want > codec::max_decoded(codec, stored.len()) {
            return Err(FormatError::Corrupt(format!(
                "overview grid {width}×{depth} needs {want} bytes; {} stored bytes can't hold them",
                stored.len()
            )));
        }
        let mut heights = vec![0f32; width as usize * depth as usize];
        codec::decode(codec, 4, stored, plain::bytes_mut(&mut heights))?;
        Ok(Overview {
            origin_x,
            origin_z,
            spacing,
            width,
            depth,
            heights,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Overview {
        let (width, depth) = (9, 7);
        let heights = (0..width * depth)
            .map(|k| (k % width) as f32 * 2.0 + (k / width) as f32 * 0.5)
            .collect();
        Overview {
            origin_x: -64.0,
            origin_z: -48.0,
            spacing: 16.0,
            width,
            depth,
            heights,
        }
    }

    #[test]
    fn roundtrips_and_catches_every_damaged_byte() {
        let ov = sample();
        let bytes = ov.encode();
        assert_eq!(Overview::decode(&bytes).unwrap(), ov);
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x5a;
            assert!(
                Overview::decode(&bad).is_err(),
                "flip at byte {i} went unnoticed"
            );
        }
        for len in 0..bytes.len() {
            assert!(
                Overview::decode(&bytes[..len]).is_err(),
                "truncation to {len} bytes went unnoticed"
            );
        }
    }

    #[test]
    fn bilinear_is_exact_at_samples_and_linear_between() {
        let ov = sample();
        assert_eq!(ov.height(-64.0 + 32.0, -48.0 + 16.0), ov.at(2, 1));
        // The sample field is linear, so bilinear reproduces it everywhere inside.
        let (x, z) = (-64.0 + 16.0 * 3.25, -48.0 + 16.0 * 4.5);
        assert!((ov.height(x, z) - (3.25 * 2.0 + 4.5 * 0.5)).abs() < 1e-5);
    }

    /// A header (resealed) claiming a grid its payload can't decode to is refused before
    /// anything is allocated for it: 65536² over a few dozen bytes would be 16 GiB.
    #[test]
    fn a_grid_larger_than_its_payload_is_refused_before_allocating() {
        let mut bytes = sample().encode();
        bytes[8..12].copy_from_slice(&65536u32.to_le_bytes());
        bytes[12..16].copy_from_slice(&65536u32.to_le_bytes());
        let crc = crc32fast::hash(&bytes[..48]);
        bytes[48..52].copy_from_slice(&crc.to_le_bytes());
        match Overview::decode(&bytes) {
            Err(FormatError::Corrupt(m)) => assert!(m.contains("can't hold"), "{m}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }
}
