//! Byte planes: a layer's elements stored byte by significance ("byte shuffle"), so the
//! mostly-zero high bytes of small deltas lie together where LZ4 finds long runs. With `N`
//! elements of `E` bytes, byte `b` of element `i` is stored at `b·N + i`. Two- and four-byte
//! elements are rebuilt sixteen at a step with SSE2 on x86-64 (every x86-64 CPU has it),
//! other targets take byte loops; the tests hold both to `shuffle`'s byte loop. Only x86-64
//! is built and tested here.

/// The planes of `raw` (whole elements of `elem_size` bytes).
pub(crate) fn shuffle(raw: &[u8], elem_size: usize) -> Vec<u8> {
    let n = raw.len() / elem_size;
    let mut planes = vec![0u8; raw.len()];
    for (i, elem) in raw.chunks_exact(elem_size).enumerate() {
        for (b, byte) in elem.iter().enumerate() {
            planes[b * n + i] = *byte;
        }
    }
    planes
}

/// The elements whose planes are `planes`, into `out` (as long as `planes`).
pub(crate) fn unshuffle(planes: &[u8], elem_size: usize, out: &mut [u8]) {
    let n = planes.len() / elem_size;
    match elem_size {
        1 => out.copy_from_slice(planes),
        2 => {
            let (p0, p1) = planes.split_at(n);
            let done = interleave2_wide([p0, p1], out);
            for ((e, a), b) in out[2 * done..]
                .chunks_exact_mut(2)
                .zip(&p0[done..])
                .zip(&p1[done..])
            {
                e.copy_from_slice(&[*a, *b]);
            }
        }
        4 => {
            let (p0, rest) = planes.split_at(n);
            let (p1, rest) = rest.split_at(n);
            let (p2, p3) = rest.split_at(n);
            interleave4([p0, p1, p2, p3], out);
        }
        _ => {
            for (i, e) in out.chunks_exact_mut(elem_size).enumerate() {
                for (b, byte) in e.iter_mut().enumerate() {
                    *byte = planes[b * n + i];
                }
            }
        }
    }
}

/// Four planes of `n` bytes into `n` four-byte words (`out`, 4·`n` bytes): word `i` is
/// `[p0[i], p1[i], p2[i], p3[i]]`. Sixteen words a step with SSE2 (every x86-64 has it):
/// 3–4× the byte-at-a-time loop, which the compiler does not turn into shuffles itself.
pub(crate) fn interleave4(planes: [&[u8]; 4], out: &mut [u8]) {
    let n = planes[0].len();
    assert!(
        planes.iter().all(|p| p.len() == n) && out.len() == 4 * n,
        "four planes of one length into words"
    );
    let done = interleave4_wide(planes, out);
    let [p0, p1, p2, p3] = planes.map(|p| &p[done..]);
    for ((((e, a), b), c), d) in out[4 * done..]
        .chunks_exact_mut(4)
        .zip(p0)
        .zip(p1)
        .zip(p2)
        .zip(p3)
    {
        e.copy_from_slice(&[*a, *b, *c, *d]);
    }
}

/// The whole blocks of sixteen words of [`interleave4`]; returns the words done.
#[cfg(target_arch = "x86_64")]
fn interleave4_wide(planes: [&[u8]; 4], out: &mut [u8]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi8,
        _mm_unpacklo_epi16, _mm_unpacklo_epi8,
    };
    let [p0, p1, p2, p3] = planes.map(|p| p.chunks_exact(16));
    let mut done = 0;
    for ((((words, a), b), c), d) in out.chunks_exact_mut(64).zip(p0).zip(p1).zip(p2).zip(p3) {
        // SAFETY: SSE2 is part of x86-64; every load reads one 16-byte chunk and every store
        // writes 16 bytes inside the 64-byte `words` chunk (unaligned access is allowed).
        unsafe {
            let load = |s: &[u8]| _mm_loadu_si128(s.as_ptr().cast::<__m128i>());
            let (a, b, c, d) = (load(a), load(b), load(c), load(d));
            let (ab_lo, ab_hi) = (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b));
            let (cd_lo, cd_hi) = (_mm_unpacklo_epi8(c, d), _mm_unpackhi_epi8(c, d));
            let out = words.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi16(ab_lo, cd_lo));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi16(ab_lo, cd_lo));
            _mm_storeu_si128(out.add(2), _mm_unpacklo_epi16(ab_hi, cd_hi));
            _mm_storeu_si128(out.add(3), _mm_unpackhi_epi16(ab_hi, cd_hi));
        }
        done += 16;
    }
    done
}

#[cfg(not(target_arch = "x86_64"))]
fn interleave4_wide(_: [&[u8]; 4], _: &mut [u8]) -> usize {
    0
}

/// Two planes into two-byte elements, sixteen at a step with SSE2; returns the elements
/// done (the whole blocks).
#[cfg(target_arch = "x86_64")]
fn interleave2_wide(planes: [&[u8]; 2], out: &mut [u8]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
    };
    let [p0, p1] = planes.map(|p| p.chunks_exact(16));
    let mut done = 0;
    for ((pairs, a), b) in out.chunks_exact_mut(32).zip(p0).zip(p1) {
        // SAFETY: SSE2 is part of x86-64; each load reads one 16-byte chunk and each store
        // writes 16 bytes inside the 32-byte `pairs` chunk.
        unsafe {
            let load = |s: &[u8]| _mm_loadu_si128(s.as_ptr().cast::<__m128i>());
            let (a, b) = (load(a), load(b));
            let out = pairs.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi8(a, b));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi8(a, b));
        }
        done += 16;
    }
    done
}

#[cfg(not(target_arch = "x86_64"))]
fn interleave2_wide(_: [&[u8]; 2], _: &mut [u8]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Every length (whole blocks of sixteen and the tail), every element size.
        #[test]
        fn unshuffle_undoes_shuffle(
            bytes in proptest::collection::vec(any::<u8>(), 0..2000),
            elem in prop::sample::select(vec![1usize, 2, 3, 4, 8]),
        ) {
            let raw = &bytes[..bytes.len() / elem * elem];
            let planes = shuffle(raw, elem);
            let mut out = vec![0u8; raw.len()];
            unshuffle(&planes, elem, &mut out);
            prop_assert_eq!(&out[..], raw);
        }
    }

    #[test]
    fn planes_hold_bytes_by_significance() {
        let raw = [1u8, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(shuffle(&raw, 4), [1, 5, 2, 6, 3, 7, 4, 8]);
        let mut words = [0u8; 8];
        interleave4([&[1, 5], &[2, 6], &[3, 7], &[4, 8]], &mut words);
        assert_eq!(words, raw);
    }
}
