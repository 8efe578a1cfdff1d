//! The baked color map as a recipe: each sample's color is its biome's tint scaled by one of
//! 32 jitter levels hashed from the world seed and the sample's global index. The baker
//! paints with [`TintRecipe::paint`], and a compact region stores the recipe (a few dozen
//! bytes) instead of the map (4 bytes a sample, the least compressible layer: the jitter is
//! noise); the loader repaints the map from the biome layer with the same integer
//! arithmetic, so the result is bit-identical. Byte layout and arithmetic in
//! docs/formats.md (codec 5, `derived-tint`).
//!
//! Integers throughout, and a hash of 32-bit words, so the loader's repaint costs about what
//! decoding a stored map would: per sample, one hash the compiler vectorises and one lookup
//! in a table of every biome's 32 tints.

use crate::error::FormatError;
use crate::flat::location::RegionLocation;

/// The recipe version a stored recipe carries: the arithmetic below. A bake that paints
/// differently must use a new version (and store its color map until readers know it).
pub const RECIPE_VERSION: u8 = 2;
const RECIPE_HEAD: usize = 12;
/// Jitter levels: the hash's top five bits.
const LEVELS: usize = 32;

/// What a region's color map is painted from, besides its biome layer and its location.
#[derive(Clone, Debug, PartialEq)]
pub struct TintRecipe {
    /// The world seed's FNV-1a hash (the manifest's `seed_hash`).
    pub seed: u64,
    /// Display color of each biome id, in id order (`biomes.json`); 1 to 256 entries.
    pub palette: Vec<[u8; 3]>,
}

/// The jitter level (0–31) of the sample at global index (`gx`, `gz`): a 32-bit hash of the
/// indices' words and the folded seed (the last three steps are Wellons' lowbias32).
#[cfg(test)]
fn level(seed: u32, gx: u32, gz: u32) -> u8 {
    level_of(row_key(seed, gz) ^ column_key(gx))
}

/// The parts of [`level`]'s first step that depend on the row and on the column alone.
#[inline]
fn row_key(seed: u32, gz: u32) -> u32 {
    seed ^ gz.wrapping_mul(0x85eb_ca77)
}
#[inline]
fn column_key(gx: u32) -> u32 {
    gx.wrapping_mul(0x9e37_79b1)
}

#[inline]
fn level_of(mut h: u32) -> u8 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    (h >> 27) as u8
}

/// A biome color at jitter `level`: each channel pulled toward white (color maps multiply
/// pale textures), times (240 + level) / 256, 0.94–1.06; alpha 128 is Terrain3D's neutral
/// roughness.
#[inline]
pub fn tint(color: [u8; 3], level: u8) -> [u8; 4] {
    let ch = |v: u8| {
        let pale = 140 + (115 * v as u32 + 127) / 255;
        ((pale * (240 + level as u32) + 128) >> 8).min(255) as u8
    };
    [ch(color[0]), ch(color[1]), ch(color[2]), 128]
}

impl TintRecipe {
    fn folded_seed(&self) -> u32 {
        (self.seed ^ (self.seed >> 32)) as u32
    }

    /// The recipe as a `derived-tint` layer stores it.
    pub fn to_bytes(&self) -> Vec<u8> {
        assert!(
            !self.palette.is_empty() && self.palette.len() <= 256,
            "a palette holds 1 to 256 biomes"
        );
        let mut out = Vec::with_capacity(RECIPE_HEAD + 3 * self.palette.len());
        out.push(RECIPE_VERSION);
        out.push((self.palette.len() - 1) as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend(self.palette.iter().flatten());
        out
    }

    /// Reads a stored recipe; any other length or version is an error.
    pub fn parse(bytes: &[u8]) -> Result<TintRecipe, FormatError> {
        let bad = |why: String| Err(FormatError::Corrupt(format!("derived-tint layer: {why}")));
        if bytes.len() < RECIPE_HEAD {
            return bad(format!(
                "{} bytes, a recipe needs {RECIPE_HEAD}",
                bytes.len()
            ));
        }
        if bytes[0] != RECIPE_VERSION {
            return bad(format!(
                "recipe version {} (this build paints version {RECIPE_VERSION})",
                bytes[0]
            ));
        }
        if bytes[2] != 0 || bytes[3] != 0 {
            return bad("reserved bytes are not zero".into());
        }
        let count = bytes[1] as usize + 1;
        if bytes.len() != RECIPE_HEAD + 3 * count {
            return bad(format!(
                "{} bytes for a palette of {count}, expected {}",
                bytes.len(),
                RECIPE_HEAD + 3 * count
            ));
        }
        Ok(TintRecipe {
            seed: u64::from_le_bytes(bytes[4..12].try_into().expect("8 bytes")),
            palette: bytes[RECIPE_HEAD..]
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect(),
        })
    }

    /// Paints the color map (RGBA8, `size`² samples, row-major) of the region at `location`
    /// from its biome layer (`size`² ids) into `out` (4·`size`² bytes). A biome id beyond the
    /// palette is an error, and `out` is then left unspecified.
    pub fn paint(
        &self,
        location: RegionLocation,
        size: u32,
        biome: &[u8],
        out: &mut [u8],
    ) -> Result<(), FormatError> {
        let n = size as usize;
        assert_eq!(biome.len(), n * n, "a biome id per sample");
        assert_eq!(out.len(), 4 * n * n, "four bytes per sample");
        // The largest id, not the first bad one: a loop the compiler vectorises.
        let highest = biome.iter().copied().max().unwrap_or(0);
        if highest as usize >= self.palette.len() {
            return Err(FormatError::Corrupt(format!(
                "derived-tint layer: biome {highest} is beyond the palette of {}",
                self.palette.len()
            )));
        }
        // Every biome's 32 tints, a full 256 biomes so lookups by id need no bounds check.
        let mut tints = vec![0u32; 256 * LEVELS];
        for (b, color) in self.palette.iter().enumerate() {
            for l in 0..LEVELS {
                tints[b * LEVELS + l] = u32::from_le_bytes(tint(*color, l as u8));
            }
        }
        let tints: &[u32; 256 * LEVELS] = tints.as_slice().try_into().expect("sized above");
        let seed = self.folded_seed();
        let (x0, z0) = (
            (location.x as u32).wrapping_mul(size),
            (location.z as u32).wrapping_mul(size),
        );
        let columns: Vec<u32> = (0..size).map(|x| column_key(x0.wrapping_add(x))).collect();
        let mut picks = vec![0u32; n];
        for (y, (ids, row)) in biome
            .chunks_exact(n)
            .zip(out.chunks_exact_mut(4 * n))
            .enumerate()
        {
            let key = row_key(seed, z0.wrapping_add(y as u32));
            // Two passes a row: each sample's tint index (a loop of 32-bit words the compiler
            // vectorises), then the lookups.
            for ((pick, &column), &b) in picks.iter_mut().zip(&columns).zip(ids) {
                *pick = (b as u32) << 5 | level_of(key ^ column) as u32;
            }
            for (&pick, px) in picks.iter().zip(row.chunks_exact_mut(4)) {
                px.copy_from_slice(&tints[pick as usize & (256 * LEVELS - 1)].to_le_bytes());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn recipe() -> impl Strategy<Value = TintRecipe> {
        (
            any::<u64>(),
            prop::collection::vec(any::<[u8; 3]>(), 1..=256),
        )
            .prop_map(|(seed, palette)| TintRecipe { seed, palette })
    }

    proptest! {
        #[test]
        fn a_recipe_reads_back_as_written(r in recipe()) {
            prop_assert_eq!(TintRecipe::parse(&r.to_bytes())?, r);
        }

        // Any damage to a recipe is an error or a recipe, never a panic; a changed version,
        // count or reserved byte, a cut or an extra byte is always an error.
        #[test]
        fn a_damaged_recipe_is_an_error(r in recipe(), at in any::<prop::sample::Index>(), v in any::<u8>()) {
            let mut bytes = r.to_bytes();
            let i = at.index(bytes.len());
            let was = bytes[i];
            bytes[i] = v;
            let read = TintRecipe::parse(&bytes);
            if i < 4 && v != was {
                prop_assert!(read.is_err());
            }
            prop_assert!(TintRecipe::parse(&bytes[..i]).is_err());
            bytes.push(0);
            prop_assert!(TintRecipe::parse(&bytes).is_err());
        }

        // The painted map is `tint` at `level` of each sample's global index, sample by
        // sample, for regions anywhere (negative locations wrap as i32 products do).
        #[test]
        fn painting_is_tint_at_every_sample(
            r in recipe(),
            x in -3000i32..3000,
            z in -3000i32..3000,
            log in 1u32..6,
            ids in any::<u64>(),
        ) {
            let n = 1usize << log;
            let loc = RegionLocation::new(x, z);
            let biome: Vec<u8> = (0..n * n)
                .map(|i| (((ids ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 7) % r.palette.len() as u64) as u8)
                .collect();
            let mut out = vec![0u8; 4 * n * n];
            r.paint(loc, n as u32, &biome, &mut out)?;
            let seed = (r.seed ^ (r.seed >> 32)) as u32;
            for (i, &b) in biome.iter().enumerate() {
                let gx = (x * n as i32 + (i % n) as i32) as u32;
                let gz = (z * n as i32 + (i / n) as i32) as u32;
                let want = tint(r.palette[b as usize], level(seed, gx, gz));
                prop_assert_eq!(&out[4 * i..4 * i + 4], &want[..]);
            }
        }
    }

    #[test]
    fn tints_span_the_jitter_and_stay_in_range() {
        // Level 16 is the biome's pale color itself (×1); the ends are ×0.94 and ×1.06.
        assert_eq!(tint([0, 0, 0], 16), [140, 140, 140, 128]);
        assert_eq!(tint([255, 255, 255], 0), [239, 239, 239, 128]);
        assert_eq!(tint([255, 255, 255], 31), [255, 255, 255, 128]);
        assert_eq!(tint([0, 128, 255], 31)[..3], [148, 210, 255]);
    }

    #[test]
    fn levels_are_spread_evenly() {
        let mut counts = [0u32; LEVELS];
        for gz in 0..256u32 {
            for gx in 0..256u32 {
                counts[level(0x1234_5678, gx, gz) as usize] += 1;
            }
        }
        // 2048 expected each; a hash that ignored a coordinate would pile up.
        for c in counts {
            assert!((1800..2300).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn a_biome_beyond_the_palette_is_an_error() {
        let r = TintRecipe {
            seed: 7,
            palette: vec![[10, 20, 30]; 3],
        };
        let mut out = vec![0u8; 16];
        let err = r
            .paint(RegionLocation::new(0, 0), 2, &[0, 1, 3, 2], &mut out)
            .unwrap_err();
        assert!(err.to_string().contains("biome 3"), "{err}");
    }
}
