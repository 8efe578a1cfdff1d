//! Godot's mip chain for RGBA8 images: what `Image.generate_mipmaps` computes for a
//! power-of-two image. Terrain3D stores the color map with its full chain, and its texture
//! array refuses a color layer without one, so both the exporter and the Godot extension
//! build it.

use crate::layer::plain;

/// The sides of an image's mip levels, `size` first, halving down to 1.
pub fn mip_sides(size: u32) -> impl Iterator<Item = u32> {
    std::iter::successors(Some(size.max(1)), |&s| (s > 1).then_some(s / 2))
}

/// The bytes of an RGBA8 image of `size²` pixels with every mip level.
pub fn rgba8_chain_len(size: u32) -> usize {
    mip_sides(size).map(|s| 4 * (s as usize).pow(2)).sum()
}

/// `pixels` (`size²` RGBA8, row-major) followed by each mip level down to 1×1, each pixel the
/// rounded mean `(a + b + c + d + 2) >> 2` of the 2×2 pixels above it: what Godot's
/// `Image.generate_mipmaps` computes for a power-of-two RGBA8 image, so the chain is the one
/// Terrain3D would have made on the main thread. `size` must be a power of two.
pub fn rgba8_with_mips(size: u32, pixels: &[[u8; 4]]) -> Vec<u8> {
    debug_assert!(size.is_power_of_two() && pixels.len() == (size as usize).pow(2));
    let mut out = Vec::with_capacity(rgba8_chain_len(size));
    out.extend_from_slice(plain::bytes(pixels));
    let (mut start, mut side) = (0usize, size as usize);
    while side > 1 {
        let half = side / 2;
        let row = 4 * side;
        for j in 0..half {
            let up = start + 2 * j * row;
            for i in 0..half {
                let a = up + 8 * i;
                for c in 0..4 {
                    let sum = out[a + c] as u32
                        + out[a + 4 + c] as u32
                        + out[a + row + c] as u32
                        + out[a + row + 4 + c] as u32;
                    out.push(((sum + 2) >> 2) as u8);
                }
            }
        }
        start += row * side;
        side = half;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mip_sides_halve_to_one() {
        assert_eq!(mip_sides(8).collect::<Vec<_>>(), [8, 4, 2, 1]);
        assert_eq!(mip_sides(1).collect::<Vec<_>>(), [1]);
        // Godot's own figure for a 512² RGBA8 image with mipmaps: 1,398,100 bytes.
        assert_eq!(rgba8_chain_len(512), 1_398_100);
    }

    proptest! {
        /// Every level is the rounded mean of the four pixels above it, worked out here
        /// pixel by pixel from the level above, independently of the chain's own indexing.
        #[test]
        fn each_mip_pixel_is_the_rounded_mean_of_four(
            log in 0u32..6,
            seed in any::<u64>(),
        ) {
            let size = 1u32 << log;
            let mut x = seed | 1;
            let pixels: Vec<[u8; 4]> = (0..size * size)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x as u32).to_le_bytes()
                })
                .collect();
            let chain = rgba8_with_mips(size, &pixels);
            prop_assert_eq!(chain.len(), rgba8_chain_len(size));
            prop_assert_eq!(&chain[..pixels.len() * 4], plain::bytes(&pixels));
            let mut level: Vec<[u8; 4]> = pixels;
            let mut at = level.len() * 4;
            for side in mip_sides(size).skip(1) {
                let above = side as usize * 2;
                let px = |i: usize, j: usize| level[j * above + i];
                let mut next = Vec::new();
                for j in 0..side as usize {
                    for i in 0..side as usize {
                        let q = [px(2 * i, 2 * j), px(2 * i + 1, 2 * j), px(2 * i, 2 * j + 1), px(2 * i + 1, 2 * j + 1)];
                        let mean: [u8; 4] = std::array::from_fn(|c| {
                            ((q.iter().map(|p| p[c] as u32).sum::<u32>() + 2) / 4) as u8
                        });
                        next.push(mean);
                    }
                }
                let n = next.len() * 4;
                prop_assert_eq!(&chain[at..at + n], plain::bytes(&next), "level {}", side);
                at += n;
                level = next;
            }
            prop_assert_eq!(at, chain.len());
        }
    }
}
