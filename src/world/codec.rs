//! Layer codecs: how one map's bytes are stored inside a region or overview file.
//!
//! Raw f32 heights barely compress under LZ4 (the low mantissa bytes look random), so the
//! height codec first turns each word into the difference from its predecessor in an
//! order-preserving integer space, then groups the bytes of all words by significance
//! ("byte shuffle"). Neighbouring terrain samples are close, so most high bytes become zero
//! and LZ4 finds long runs. Everything here is lossless.

use crate::world::error::FormatError;

/// How a layer's bytes are stored. The numeric values are the on-disk codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Codec {
    /// The bytes as they are.
    Raw = 0,
    /// LZ4 block over the raw bytes.
    Lz4 = 1,
    /// Bytes grouped by significance across elements, then LZ4.
    ShuffleLz4 = 2,
    /// 32-bit words only: order-preserving map, delta from the previous word, byte shuffle, LZ4.
    DeltaShuffleLz4 = 3,
}

impl Codec {
    pub const ALL: [Codec; 4] = [
        Codec::Raw,
        Codec::Lz4,
        Codec::ShuffleLz4,
        Codec::DeltaShuffleLz4,
    ];

    pub fn from_code(code: u8) -> Result<Codec, FormatError> {
        Codec::ALL
            .into_iter()
            .find(|c| *c as u8 == code)
            .ok_or(FormatError::UnknownCodec(code))
    }

    pub fn name(self) -> &'static str {
        match self {
            Codec::Raw => "raw",
            Codec::Lz4 => "lz4",
            Codec::ShuffleLz4 => "shuffle-lz4",
            Codec::DeltaShuffleLz4 => "delta-shuffle-lz4",
        }
    }

    /// Whether this codec can store elements of `elem_size` bytes.
    pub fn supports(self, elem_size: usize) -> bool {
        match self {
            Codec::DeltaShuffleLz4 => elem_size == 4,
            _ => elem_size >= 1,
        }
    }
}

/// Encodes `raw` (a whole number of `elem_size`-byte elements) with `codec`.
pub fn encode(codec: Codec, elem_size: usize, raw: &[u8]) -> Vec<u8> {
    assert!(
        codec.supports(elem_size),
        "{} cannot store {elem_size}-byte elements",
        codec.name()
    );
    assert_eq!(
        raw.len() % elem_size,
        0,
        "layer length is not a whole number of elements"
    );
    match codec {
        Codec::Raw => raw.to_vec(),
        Codec::Lz4 => lz4_flex::block::compress(raw),
        Codec::ShuffleLz4 => lz4_flex::block::compress(&shuffle(raw, elem_size)),
        Codec::DeltaShuffleLz4 => {
            let mut prev = 0u32;
            let deltas: Vec<u8> = raw
                .chunks_exact(4)
                .flat_map(|w| {
                    let v = ordered(u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
                    let d = v.wrapping_sub(prev);
                    prev = v;
                    d.to_le_bytes()
                })
                .collect();
            lz4_flex::block::compress(&shuffle(&deltas, 4))
        }
    }
}

/// Decodes `stored` into `out`, whose length is the layer's exact raw size.
///
/// Fails (never panics) when the stored bytes do not decode to exactly `out.len()` bytes.
pub fn decode(
    codec: Codec,
    elem_size: usize,
    stored: &[u8],
    out: &mut [u8],
) -> Result<(), FormatError> {
    if !codec.supports(elem_size) || out.len() % elem_size != 0 {
        return Err(FormatError::Corrupt(format!(
            "codec {} cannot hold {}-byte elements",
            codec.name(),
            elem_size
        )));
    }
    match codec {
        Codec::Raw => {
            if stored.len() != out.len() {
                return Err(FormatError::Corrupt(format!(
                    "raw layer holds {} bytes, expected {}",
                    stored.len(),
                    out.len()
                )));
            }
            out.copy_from_slice(stored);
        }
        Codec::Lz4 => lz4_exact(stored, out)?,
        Codec::ShuffleLz4 => {
            let mut planes = vec![0u8; out.len()];
            lz4_exact(stored, &mut planes)?;
            unshuffle(&planes, elem_size, out);
        }
        Codec::DeltaShuffleLz4 => {
            let mut planes = vec![0u8; out.len()];
            lz4_exact(stored, &mut planes)?;
            undelta_unshuffle(&planes, out);
        }
    }
    Ok(())
}

fn lz4_exact(stored: &[u8], out: &mut [u8]) -> Result<(), FormatError> {
    match lz4_flex::block::decompress_into(stored, out) {
        Ok(n) if n == out.len() => Ok(()),
        Ok(n) => Err(FormatError::Corrupt(format!(
            "LZ4 block decoded to {n} bytes, expected {}",
            out.len()
        ))),
        Err(e) => Err(FormatError::Corrupt(format!("LZ4 block: {e}"))),
    }
}

/// Maps f32 bit patterns to u32 so that numeric order is integer order (a bijection on all
/// u32, so it is lossless for any word). Deltas across zero stay small.
#[inline]
fn ordered(bits: u32) -> u32 {
    if bits & 0x8000_0000 != 0 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

#[inline]
fn unordered(v: u32) -> u32 {
    if v & 0x8000_0000 != 0 {
        v & 0x7fff_ffff
    } else {
        !v
    }
}

fn shuffle(raw: &[u8], elem_size: usize) -> Vec<u8> {
    let n = raw.len() / elem_size;
    let mut planes = vec![0u8; raw.len()];
    for (i, elem) in raw.chunks_exact(elem_size).enumerate() {
        for (b, byte) in elem.iter().enumerate() {
            planes[b * n + i] = *byte;
        }
    }
    planes
}

fn unshuffle(planes: &[u8], elem_size: usize, out: &mut [u8]) {
    let n = planes.len() / elem_size;
    for (b, plane) in planes.chunks_exact(n.max(1)).enumerate().take(elem_size) {
        for (i, byte) in plane.iter().enumerate() {
            out[i * elem_size + b] = *byte;
        }
    }
}

fn undelta_unshuffle(planes: &[u8], out: &mut [u8]) {
    let n = planes.len() / 4;
    let (p0, rest) = planes.split_at(n);
    let (p1, rest) = rest.split_at(n);
    let (p2, p3) = rest.split_at(n);
    let mut acc = 0u32;
    for (i, word) in out.chunks_exact_mut(4).enumerate() {
        let d = u32::from_le_bytes([p0[i], p1[i], p2[i], p3[i]]);
        acc = acc.wrapping_add(d);
        word.copy_from_slice(&unordered(acc).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ordered_is_a_monotone_bijection_on_floats() {
        let xs = [-1e9f32, -3.5, -0.0, 0.0, 1e-30, 0.5, 2.0, 1e9];
        for w in xs.windows(2) {
            assert!(
                ordered(w[0].to_bits()) <= ordered(w[1].to_bits()),
                "{} vs {}",
                w[0],
                w[1]
            );
        }
        for bits in [0u32, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x3f80_0000] {
            assert_eq!(unordered(ordered(bits)), bits);
        }
    }

    proptest! {
        #[test]
        fn every_codec_roundtrips(words in proptest::collection::vec(any::<u32>(), 0..600), elem in prop::sample::select(vec![1usize, 2, 4])) {
            let raw: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            for codec in Codec::ALL {
                if !codec.supports(elem) { continue; }
                let stored = encode(codec, elem, &raw);
                let mut out = vec![0u8; raw.len()];
                decode(codec, elem, &stored, &mut out).unwrap();
                prop_assert_eq!(&out, &raw, "codec {}", codec.name());
            }
        }

        #[test]
        fn smooth_heights_roundtrip_bit_exact(start in -500.0f32..3000.0, steps in proptest::collection::vec(-0.5f32..0.5, 1..800)) {
            let mut h = start;
            let heights: Vec<f32> = steps.iter().map(|d| { h += d; h }).collect();
            let raw: Vec<u8> = heights.iter().flat_map(|v| v.to_le_bytes()).collect();
            let stored = encode(Codec::DeltaShuffleLz4, 4, &raw);
            let mut out = vec![0u8; raw.len()];
            decode(Codec::DeltaShuffleLz4, 4, &stored, &mut out).unwrap();
            prop_assert_eq!(out, raw);
        }

        #[test]
        fn garbage_never_panics(stored in proptest::collection::vec(any::<u8>(), 0..300), len in 0usize..300) {
            for codec in Codec::ALL {
                let mut out = vec![0u8; len * 4];
                let _ = decode(codec, 4, &stored, &mut out);
            }
        }
    }

    #[test]
    fn wrong_output_size_is_an_error() {
        let raw = vec![7u8; 64];
        for codec in Codec::ALL {
            let stored = encode(codec, 4, &raw);
            let mut short = vec![0u8; 60];
            assert!(
                decode(codec, 4, &stored, &mut short).is_err(),
                "{}",
                codec.name()
            );
            let mut long = vec![0u8; 68];
            assert!(
                decode(codec, 4, &stored, &mut long).is_err(),
                "{}",
                codec.name()
            );
        }
    }
}
