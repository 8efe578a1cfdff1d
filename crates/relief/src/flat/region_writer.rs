//! Writing region files: which codec stores each layer (a profile), and the bytes. The byte
//! layout is docs/formats.md's; `region.rs` reads it back.

use crate::codec::{self, Codec, Effort};
use crate::flat::region::{
    header_checksum, LayerKind, Region, FIXED_HEADER, REGION_MAGIC, REGION_VERSION,
    REGION_VERSION_DERIVED, TABLE_ENTRY,
};
use crate::flat::tint::TintRecipe;

/// Which codecs a writer uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CodecProfile {
    /// Every layer raw: loading is a read into the maps plus one checksum pass. On the
    /// machines measured this loads faster than any LZ4 codec, even from a cold page cache
    /// (docs/architecture.md).
    #[default]
    Fast,
    /// Each layer with the LZ4 codec that compresses it best at lz4_flex's fast setting:
    /// ~3.7× smaller on disk; decoding costs more than reading the difference.
    Small,
    /// For shipping and for streaming over a network: LZ4-HC blocks, heights as fixed-point
    /// deltas, and (given the world's [`TintRecipe`]) a baked color map stored as its recipe
    /// and rebuilt on load. ~12× smaller than `Fast` on baked worlds (5.8× when the color map
    /// must be stored); loads from a cold page cache faster than `Fast`.
    Compact,
}

impl CodecProfile {
    /// The codec the profile stores a layer of `kind` with, given its raw bytes (heights use
    /// the fixed-point codec only when every sample fits it).
    pub fn codec(self, kind: LayerKind, raw: &[u8]) -> Codec {
        match (self, kind) {
            (CodecProfile::Fast, _) => Codec::Raw,
            (CodecProfile::Small, _) => kind.small_codec(),
            (CodecProfile::Compact, LayerKind::Height) if codec::fits_fixed1024(raw) => {
                Codec::Fixed1024DeltaLz4
            }
            (CodecProfile::Compact, LayerKind::Height) => Codec::DeltaShuffleLz4,
            // Shuffled, control words decode 3× faster than plain: lz4_flex copies a match
            // that overlaps its own output (a repeated word) byte by byte.
            (CodecProfile::Compact, LayerKind::Control | LayerKind::Lake) => Codec::ShuffleLz4,
            (CodecProfile::Compact, _) => Codec::Lz4,
        }
    }

    fn effort(self) -> Effort {
        match self {
            CodecProfile::Compact => Effort::High,
            _ => Effort::Fast,
        }
    }
}

/// Serialises a region, every layer with the profile's codec.
pub fn encode_region(region: &Region, profile: CodecProfile) -> Vec<u8> {
    encode_region_derived(region, profile, None)
}

/// [`encode_region`] that, in the compact profile, stores the color map as `tint` when the
/// recipe paints exactly this region's map (a baked one), and stores the map otherwise.
pub fn encode_region_derived(
    region: &Region,
    profile: CodecProfile,
    tint: Option<&TintRecipe>,
) -> Vec<u8> {
    let derived = match (profile, tint) {
        (CodecProfile::Compact, Some(t)) => paints(t, region),
        _ => false,
    };
    let layers: Vec<(LayerKind, Codec)> = region
        .layers()
        .into_iter()
        .map(|k| match k {
            LayerKind::Color if derived => (k, Codec::DerivedTint),
            _ => (
                k,
                profile.codec(k, region.layer_bytes(k).unwrap_or_default()),
            ),
        })
        .collect();
    let recipe = tint.filter(|_| derived);
    write(region, &layers, profile.effort(), recipe)
}

/// Whether `tint` rebuilds `region`'s color map exactly from its biome layer.
fn paints(tint: &TintRecipe, region: &Region) -> bool {
    let (Some(biome), Some(color)) = (
        region.biome.as_deref(),
        region.layer_bytes(LayerKind::Color),
    ) else {
        return false;
    };
    let mut painted = vec![0u8; color.len()];
    tint.paint(region.location, region.size, biome, &mut painted)
        .is_ok_and(|()| painted == color)
}

/// Serialises a region, storing the listed layers (in that order) with the given codecs
/// (not [`Codec::DerivedTint`], which needs a recipe: [`encode_region_derived`]).
pub fn encode_region_with(region: &Region, layers: &[(LayerKind, Codec)]) -> Vec<u8> {
    write(region, layers, Effort::Fast, None)
}

fn write(
    region: &Region,
    layers: &[(LayerKind, Codec)],
    effort: Effort,
    tint: Option<&TintRecipe>,
) -> Vec<u8> {
    let n = (region.size as usize).pow(2);
    assert_eq!(
        region.height.len(),
        n,
        "height layer must hold size² samples"
    );
    let payloads: Vec<(LayerKind, Codec, Vec<u8>)> = layers
        .iter()
        .map(|&(kind, codec)| {
            let raw = region
                .layer_bytes(kind)
                .unwrap_or_else(|| panic!("region has no {} layer", kind.name()));
            assert_eq!(
                raw.len(),
                n * kind.elem_size(),
                "{} layer must hold size² samples",
                kind.name()
            );
            let stored = match codec {
                Codec::DerivedTint => tint.expect("a derived layer has a recipe").to_bytes(),
                _ => codec::encode_with(codec, kind.elem_size(), raw, effort),
            };
            (kind, codec, stored)
        })
        .collect();
    let version = if payloads.iter().any(|p| p.1 == Codec::DerivedTint) {
        REGION_VERSION_DERIVED
    } else {
        REGION_VERSION
    };

    let mut out = Vec::with_capacity(
        FIXED_HEADER
            + payloads
                .iter()
                .map(|p| TABLE_ENTRY + p.2.len())
                .sum::<usize>(),
    );
    out.extend_from_slice(&REGION_MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payloads.len() as u16).to_le_bytes());
    out.extend_from_slice(&region.location.x.to_le_bytes());
    out.extend_from_slice(&region.location.z.to_le_bytes());
    out.extend_from_slice(&region.size.to_le_bytes());
    out.extend_from_slice(&[0; 4]); // header checksum, filled below
    for (kind, codec, stored) in &payloads {
        out.push(*kind as u8);
        out.push(*codec as u8);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(stored.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(stored).to_le_bytes());
    }
    let header_crc = header_checksum(&out[..FIXED_HEADER + payloads.len() * TABLE_ENTRY]);
    out[20..24].copy_from_slice(&header_crc.to_le_bytes());
    for (_, _, stored) in &payloads {
        out.extend_from_slice(stored);
    }
    out
}
