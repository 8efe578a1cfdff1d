//! A region's maps as the bytes of the Godot Images Terrain3D takes: height `FORMAT_RF`
//! (f32 metres), control `FORMAT_RF` holding the control words' u32 bits, and color
//! `FORMAT_RGBA8` with its full mip chain (Terrain3D's texture array refuses a color layer
//! without one). Plain Rust with no engine types, so a worker thread prepares every byte and
//! the main thread only wraps them in Images; tested without Godot.

pub use relief::flat::mips::{mip_sides, rgba8_chain_len, rgba8_with_mips};
use relief::layer::plain;
use relief::planet::PlanetTile;
use relief::Region;

/// Godot's `Image.FORMAT_RF`: one 32-bit float per pixel, native byte order.
pub const FORMAT_RF: i32 = 8;
/// Godot's `Image.FORMAT_RGBA8`: four bytes per pixel, R first.
pub const FORMAT_RGBA8: i32 = 5;

/// One Image's worth of bytes: `size × size` pixels of `format`, and when `mipmaps`, every
/// smaller level after the first down to 1×1, as `Image.create_from_data` expects them.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageBytes {
    pub size: u32,
    pub format: i32,
    pub mipmaps: bool,
    pub bytes: Vec<u8>,
}

/// A region's maps ready to become Images. `control` and `color` are `None` where the world
/// has no such layer.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionMaps {
    pub height: ImageBytes,
    pub control: Option<ImageBytes>,
    pub color: Option<ImageBytes>,
}

impl RegionMaps {
    /// Every byte a region's maps take: what one region costs to copy.
    pub fn byte_len(&self) -> usize {
        self.height.bytes.len()
            + self.control.as_ref().map_or(0, |i| i.bytes.len())
            + self.color.as_ref().map_or(0, |i| i.bytes.len())
    }
}

/// A region's maps as Image bytes: one copy of height and control, the color map and its
/// mips. Run it on a worker; the region's own layers are left as they are.
pub fn region_maps(region: &Region) -> RegionMaps {
    let size = region.size;
    let rf = |bytes: &[u8]| ImageBytes {
        size,
        format: FORMAT_RF,
        mipmaps: false,
        bytes: bytes.to_vec(),
    };
    RegionMaps {
        height: rf(plain::bytes(&region.height)),
        control: region.control.as_ref().map(|c| rf(plain::bytes(c))),
        color: region.color.as_ref().map(|c| ImageBytes {
            size,
            format: FORMAT_RGBA8,
            mipmaps: true,
            bytes: rgba8_with_mips(size, c),
        }),
    }
}

/// A planet tile's heights (metres above the radius) as one `FORMAT_RF` Image's bytes, row
/// `ty`-major as the tile stores them. Run it on a worker.
pub fn tile_height(tile: &PlanetTile) -> ImageBytes {
    ImageBytes {
        size: tile.size,
        format: FORMAT_RF,
        mipmaps: false,
        bytes: plain::bytes(&tile.height).to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regions_maps_are_its_layers_bit_for_bit() {
        use relief::layer::Layer;
        let size = 16u32;
        let n = (size * size) as usize;
        let height: Vec<f32> = (0..n).map(|k| k as f32 * 0.25 - 7.0).collect();
        let mut with_hole = height.clone();
        with_hole[5] = f32::NAN;
        let control: Vec<u32> = (0..n as u32).map(|k| k.wrapping_mul(0x9e37_79b9)).collect();
        let color: Vec<[u8; 4]> = (0..n).map(|k| [k as u8, (k >> 1) as u8, 7, 255]).collect();
        let region = Region {
            location: relief::RegionLocation { x: -2, z: 3 },
            size,
            height: Layer::from(with_hole.clone()),
            control: Some(Layer::from(control.clone())),
            color: Some(Layer::from(color.clone())),
            biome: None,
            lake: None,
            mips: Vec::new(),
        };
        let maps = region_maps(&region);
        let f32s: Vec<f32> = maps
            .height
            .bytes
            .chunks_exact(4)
            .map(|b| f32::from_ne_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(f32s.len(), n);
        for (a, b) in f32s.iter().zip(&with_hole) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
        let words: Vec<u32> = maps
            .control
            .as_ref()
            .unwrap()
            .bytes
            .chunks_exact(4)
            .map(|b| u32::from_ne_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(words, control);
        let c = maps.color.as_ref().unwrap();
        assert_eq!(
            (c.format, c.mipmaps, c.bytes.len()),
            (FORMAT_RGBA8, true, rgba8_chain_len(size))
        );
        assert_eq!(&c.bytes[..4 * n], plain::bytes(&color));
        assert_eq!(
            (maps.height.format, maps.height.mipmaps),
            (FORMAT_RF, false)
        );
        assert_eq!(maps.byte_len(), 8 * n + rgba8_chain_len(size));
    }
}
