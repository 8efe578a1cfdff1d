//! Terrain3D's control word: the u32 stored per sample in the control map (FACTS.md).
//!
//! | bits  | field                                   |
//! |-------|-----------------------------------------|
//! | 27–31 | base texture id (5 bits)                |
//! | 22–26 | overlay texture id (5 bits)             |
//! | 14–21 | blend base→overlay (8 bits)             |
//! | 10–13 | uv rotation (4 bits, steps of 22.5°)    |
//! | 7–9   | uv scale (3 bits)                       |
//! | 3–6   | reserved                                |
//! | 2     | hole                                    |
//! | 1     | navigation                              |
//! | 0     | autoshader                              |

/// A decoded control word. Fields wider than their bit range are masked on encode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Control {
    pub base: u8,
    pub overlay: u8,
    pub blend: u8,
    pub uv_rotation: u8,
    pub uv_scale: u8,
    pub hole: bool,
    pub navigation: bool,
    pub autoshader: bool,
}

impl Control {
    /// Terrain3D's blank control value: autoshader on, everything else zero.
    pub const BLANK: u32 = 0x1;

    pub fn decode(bits: u32) -> Control {
        Control {
            base: (bits >> 27 & 0x1f) as u8,
            overlay: (bits >> 22 & 0x1f) as u8,
            blend: (bits >> 14 & 0xff) as u8,
            uv_rotation: (bits >> 10 & 0xf) as u8,
            uv_scale: (bits >> 7 & 0x7) as u8,
            hole: bits & 0b100 != 0,
            navigation: bits & 0b10 != 0,
            autoshader: bits & 0b1 != 0,
        }
    }

    /// The texture slot that shows most at this sample: the overlay where the blend is past
    /// half, else the base (what a footstep or physics material should follow). Terrain3D's
    /// autoshader, where on, picks by slope from its material's own slots instead.
    pub fn shown_texture(&self) -> u8 {
        if self.blend >= 128 {
            self.overlay
        } else {
            self.base
        }
    }

    pub fn encode(self) -> u32 {
        (self.base as u32 & 0x1f) << 27
            | (self.overlay as u32 & 0x1f) << 22
            | (self.blend as u32) << 14
            | (self.uv_rotation as u32 & 0xf) << 10
            | (self.uv_scale as u32 & 0x7) << 7
            | (self.hole as u32) << 2
            | (self.navigation as u32) << 1
            | self.autoshader as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn matches_terrain3d_layout() {
        // The Godot painter in seeds/003 packs (base << 27) | (over << 22) | (blend << 14).
        let c = Control {
            base: 3,
            overlay: 17,
            blend: 200,
            navigation: true,
            ..Default::default()
        };
        assert_eq!(c.encode(), 3 << 27 | 17 << 22 | 200 << 14 | 0b10);
        assert_eq!(
            Control::decode(Control::BLANK),
            Control {
                autoshader: true,
                ..Default::default()
            }
        );
        assert!(Control::decode(1 << 2).hole);
    }

    proptest! {
        #[test]
        fn decode_encode_keeps_every_defined_bit(bits in any::<u32>()) {
            let reserved = 0b111_1000u32;
            prop_assert_eq!(Control::decode(bits).encode(), bits & !reserved);
        }
    }
}
