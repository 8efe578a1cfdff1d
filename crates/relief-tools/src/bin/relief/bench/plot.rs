//! `relief bench --plot FILE.svg`: each route's last pass over time — frame cost (the
//! pieces' update, the whole update, the control) on a log scale above, memory (what the
//! pieces' streamer holds, the process's RSS) below, each load marked on the memory line.

use std::path::Path;

use plotters::prelude::*;

use super::drive::Frame;
use super::report::Report;

const WIDTH: u32 = 1100;
/// A line on the cost panel: its label, colour and value.
type Line = (&'static str, RGBColor, fn(&Frame) -> f32);
const PANEL: u32 = 260;

pub fn draw(path: &Path, report: &Report, routes: &[Vec<Frame>]) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let rows = 2 * routes.len().max(1) as u32;
    let root = SVGBackend::new(path, (WIDTH, PANEL * rows + 40)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let title = format!(
        "relief bench {}: {} ({}), relief {} {}",
        report.ground.kind,
        report.ground.path,
        report.machine.cpu,
        report.relief.version,
        &report.relief.git[..report.relief.git.len().min(12)]
    );
    let root = root.titled(&title, ("sans-serif", 18)).map_err(|x| e(&x))?;
    let panels = root.split_evenly((rows as usize, 1));
    for (k, (frames, id)) in routes.iter().zip(&report.routes).enumerate() {
        let t_end = frames.last().map_or(1.0, |f| f.t as f64).max(1e-3);
        let values = || {
            frames
                .iter()
                .flat_map(|f| [f.pieces_us, f.total_us, f.control_us])
        };
        let costs = values().fold(1.0f32, f32::max) as f64;
        let floor = (values().fold(f32::INFINITY, f32::min) as f64 / 1.5).clamp(0.1, 1.0);
        let name = match id.speed_mps {
            Some(s) => format!("{} ({s} m/s)", id.name),
            None => format!("{} ({})", id.name, id.file.as_deref().unwrap_or("file")),
        };
        let mut cost = ChartBuilder::on(&panels[2 * k])
            .caption(format!("{name}: frame cost"), ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..t_end, (floor..costs * 1.5).log_scale())
            .map_err(|x| e(&x))?;
        cost.configure_mesh()
            .x_desc("s")
            .y_desc("µs")
            .draw()
            .map_err(|x| e(&x))?;
        let series: [Line; 3] = [
            ("pieces' update", BLUE, |f| f.pieces_us),
            ("whole update", RED, |f| f.total_us),
            ("control", RGBColor(120, 120, 120), |f| f.control_us),
        ];
        for (label, colour, value) in series {
            cost.draw_series(LineSeries::new(
                frames
                    .iter()
                    .map(|f| (f.t as f64, (value(f) as f64).max(floor))),
                colour.stroke_width(1),
            ))
            .map_err(|x| e(&x))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
        }
        cost.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|x| e(&x))?;

        let top = frames
            .iter()
            .flat_map(|f| [f.held_mb, f.rss_mb])
            .fold(1.0f32, f32::max) as f64;
        let mut mem = ChartBuilder::on(&panels[2 * k + 1])
            .caption(format!("{name}: memory, loads marked"), ("sans-serif", 15))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..t_end, 0f64..top * 1.1)
            .map_err(|x| e(&x))?;
        mem.configure_mesh()
            .x_desc("s")
            .y_desc("MB")
            .draw()
            .map_err(|x| e(&x))?;
        let held = GREEN.mix(0.9);
        mem.draw_series(LineSeries::new(
            frames.iter().map(|f| (f.t as f64, f.held_mb as f64)),
            held.stroke_width(2),
        ))
        .map_err(|x| e(&x))?
        .label("held by the streamer")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], held));
        let rss = MAGENTA;
        mem.draw_series(LineSeries::new(
            frames
                .iter()
                .filter(|f| f.rss_mb > 0.0)
                .map(|f| (f.t as f64, f.rss_mb as f64)),
            rss.stroke_width(1),
        ))
        .map_err(|x| e(&x))?
        .label("process RSS")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], rss));
        mem.draw_series(
            frames
                .iter()
                .filter(|f| f.loads > 0)
                .map(|f| Circle::new((f.t as f64, f.held_mb as f64), 3, BLACK.filled())),
        )
        .map_err(|x| e(&x))?
        .label("a load arrived")
        .legend(|(x, y)| Circle::new((x + 9, y), 3, BLACK.filled()));
        mem.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(|x| e(&x))?;
    }
    root.present().map_err(|x| e(&x))?;
    Ok(())
}
