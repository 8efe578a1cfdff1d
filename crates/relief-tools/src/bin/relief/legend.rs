//! The preview's key: every ground class the map shows, largest first, as a swatch of the
//! colour it is drawn in, its name and its share of the map, in a panel to the map's right.
//! Text comes from embedded-graphics' built-in bitmap font, drawn into our own RGB buffer.

use std::convert::Infallible;

use embedded_graphics::mono_font::{ascii::FONT_6X10, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Baseline, Text};

use relief_tools::bake::biomes::BiomeId;

/// The panel's width and one row's height, pixels.
pub const PANEL_WIDTH: u32 = 250;
const ROW: u32 = 13;
const MARGIN: u32 = 8;

/// An RGB8 image embedded-graphics can draw into.
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl OriginDimensions for Canvas {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl DrawTarget for Canvas {
    type Color = Rgb888;
    type Error = Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb888>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Infallible> {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                let i = (p.y as usize * self.width as usize + p.x as usize) * 3;
                self.rgb[i..i + 3].copy_from_slice(&[c.r(), c.g(), c.b()]);
            }
        }
        Ok(())
    }
}

/// The classes to list: those with any pixel, largest share first (ties by id), with their
/// share of the counted pixels.
pub fn entries(counts: &[u64]) -> Vec<(BiomeId, f64)> {
    let total = counts.iter().sum::<u64>().max(1) as f64;
    let mut shown: Vec<(BiomeId, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .filter_map(|(id, &c)| BiomeId::from_id(id as u8).map(|b| (b, c)))
        .collect();
    shown.sort_by(|a, b| b.1.cmp(&a.1).then((a.0 as u8).cmp(&(b.0 as u8))));
    shown
        .into_iter()
        .map(|(b, c)| (b, c as f64 / total))
        .collect()
}

/// The height a panel listing `rows` classes needs.
pub fn panel_height(rows: usize) -> u32 {
    2 * MARGIN + ROW * (rows as u32 + 1)
}

/// Puts the map (`w × h` RGB) beside its legend: the result is `(w + PANEL_WIDTH) × H`
/// with H the larger of `h` and what the legend needs.
pub fn beside(map: &[u8], w: u32, h: u32, counts: &[u64]) -> Canvas {
    let rows = entries(counts);
    let height = h.max(panel_height(rows.len()));
    let width = w + PANEL_WIDTH;
    let mut c = Canvas {
        width,
        height,
        rgb: vec![24; (width * height * 3) as usize],
    };
    for y in 0..h as usize {
        let from = y * w as usize * 3;
        let to = y * width as usize * 3;
        c.rgb[to..to + w as usize * 3].copy_from_slice(&map[from..from + w as usize * 3]);
    }
    let text = MonoTextStyle::new(&FONT_6X10, Rgb888::new(230, 230, 230));
    let x = (w + MARGIN) as i32;
    let mut y = MARGIN as i32;
    let _ = Text::with_baseline(
        "ground class      of map",
        Point::new(x, y),
        text,
        Baseline::Top,
    )
    .draw(&mut c);
    for (b, share) in rows {
        y += ROW as i32;
        let [r, g, bl] = b.color();
        let _ = Rectangle::new(Point::new(x, y), Size::new(10, 10))
            .into_styled(PrimitiveStyle::with_fill(Rgb888::new(r, g, bl)))
            .draw(&mut c);
        let label = format!("{:<22}{:>7.3} %", b.name(), share * 100.0);
        let _ =
            Text::with_baseline(&label, Point::new(x + 14, y), text, Baseline::Top).draw(&mut c);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_on_the_map_gets_a_row_largest_first() {
        let mut counts = vec![0u64; BiomeId::COUNT];
        counts[BiomeId::Reef as usize] = 5;
        counts[BiomeId::Desert as usize] = 20;
        counts[BiomeId::Dunes as usize] = 5;
        let e = entries(&counts);
        let ids: Vec<BiomeId> = e.iter().map(|e| e.0).collect();
        assert_eq!(ids, [BiomeId::Desert, BiomeId::Reef, BiomeId::Dunes]);
        assert!((e[0].1 - 20.0 / 30.0).abs() < 1e-12);
    }

    #[test]
    fn the_panel_shows_each_class_swatch_in_its_colour() {
        let mut counts = vec![0u64; BiomeId::COUNT];
        for b in BiomeId::all() {
            counts[b as usize] = 1 + b as u64;
        }
        let map = vec![0u8; 16 * 16 * 3];
        let c = beside(&map, 16, 16, &counts);
        assert_eq!(c.width, 16 + PANEL_WIDTH);
        assert_eq!(
            c.height,
            panel_height(BiomeId::COUNT),
            "grown to fit all 36 rows"
        );
        for (row, (b, _)) in entries(&counts).iter().enumerate() {
            // The swatch's centre pixel.
            let (x, y) = (16 + MARGIN + 5, MARGIN + ROW * (row as u32 + 1) + 5);
            let i = ((y * c.width + x) * 3) as usize;
            assert_eq!(c.rgb[i..i + 3], b.color(), "{b:?}");
        }
    }
}
