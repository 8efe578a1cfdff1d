//! Small fixed hashes, the same on every machine: FNV-1a (the seed hash a world's manifest and
//! a planet's header store, a disk-cache entry's name) and SplitMix64's finaliser (every
//! random draw the baker and thing placement make, from coordinates rather than a sequence,
//! so no draw depends on the order of the others).

/// FNV-1a, 64-bit, over the text's UTF-8 bytes.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64's finaliser: a good 64-bit mix (Steele, Lea and Flood 2014).
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash's top 53 bits as a number in [0, 1): exact in an f64, so the same on every machine.
#[inline]
pub fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_published_vectors() {
        // Test vectors from the FNV reference (draft-eastlake-fnv).
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn mix_matches_splitmix64() {
        // SplitMix64 seeded with 0: its outputs are mix(k · golden gamma), k = 1, 2, …
        // (the reference sequence published with xoshiro, prng.di.unimi.it).
        let gamma = 0x9e37_79b9_7f4a_7c15u64;
        assert_eq!(mix(gamma), 0xe220_a839_7b1d_cdaf);
        assert_eq!(mix(gamma.wrapping_mul(2)), 0x6e78_9e6a_a1b9_65f4);
        assert!(unit(u64::MAX) < 1.0 && unit(0) == 0.0);
    }
}
