//! The heatmap of a sweep over two settings: every cell's median, coloured by its logarithm
//! (viridis), with the number written in it, as the R study's ranks × suits heatmap.

use std::io;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::sweep::find;
use super::{failed, font, panel, rounds_at, short};
use crate::export::text::quantile_text;
use crate::stats::Stats;

/// The median of every cell of two varied settings, coloured by its logarithm, with its number.
pub(super) fn heatmap(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    keys: &[&str],
    axes: &[(usize, Vec<String>)],
    cells: &[(&[String], &Stats)],
) -> io::Result<()> {
    let (y_key, y_values) = &axes[0];
    let (x_key, x_values) = &axes[1];
    let (nx, ny) = (x_values.len() as i32, y_values.len() as i32);
    let mut grid = Vec::new();
    for (j, y) in y_values.iter().enumerate() {
        for (i, x) in x_values.iter().enumerate() {
            let stats = find(cells, &[(*y_key, y), (*x_key, x)]);
            grid.push((i as i32, j as i32, stats));
        }
    }
    let medians: Vec<f64> = grid
        .iter()
        .filter_map(|(_, _, s)| rounds_at((*s)?, 50_000))
        .map(|r| (r.max(1) as f64).ln())
        .collect();
    let low = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let high = medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut chart = panel(area, "Median game length in rounds (colour: logarithm; grey: the median game never ends or hit the cap)")
        .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())
        .map_err(failed)?;
    let names = |values: &[String], v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => values.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(x_values.len())
        .y_labels(y_values.len())
        .x_label_formatter(&|v| names(x_values, v))
        .y_label_formatter(&|v| names(y_values, v))
        .x_desc(keys[*x_key])
        .y_desc(keys[*y_key])
        .axis_desc_style(font(16.0))
        .label_style(font(15.0))
        .draw()
        .map_err(failed)?;
    let (w, h) = chart.plotting_area().dim_in_pixel();
    let (cell_w, cell_h) = (w as f64 / nx as f64, h as f64 / ny as f64);
    for (i, j, stats) in grid {
        let median = stats.and_then(|s| rounds_at(s, 50_000));
        let (fill, text) = match (median, stats) {
            (Some(r), _) => {
                let t = if high > low {
                    ((r.max(1) as f64).ln() - low) / (high - low)
                } else {
                    0.5
                };
                (viridis(t), short(r as f64))
            }
            (None, Some(s)) => (
                RGBColor(200, 200, 200),
                s.lengths()
                    .quantile(50_000)
                    .map_or("-".into(), quantile_text),
            ),
            (None, None) => (RGBColor(245, 245, 245), "skipped".to_string()),
        };
        let corner = |a: i32, b: i32| (SegmentValue::Exact(a), SegmentValue::Exact(b));
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [corner(i, j), corner(i + 1, j + 1)],
                fill.filled(),
            )))
            .map_err(failed)?;
        let size = (cell_w / (0.62 * text.chars().count().max(3) as f64))
            .min(cell_h * 0.42)
            .clamp(8.0, 22.0);
        let light = fill.0 as f64 * 0.299 + fill.1 as f64 * 0.587 + fill.2 as f64 * 0.114 > 140.0;
        let ink = if light { BLACK } else { WHITE };
        let font = font(size)
            .color(&ink)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let centre = (SegmentValue::CenterOf(i), SegmentValue::CenterOf(j));
        chart
            .draw_series(std::iter::once(Text::new(text, centre, font)))
            .map_err(failed)?;
    }
    Ok(())
}

/// Viridis, from dark blue (0) to yellow (1), in five stops.
fn viridis(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let k = (t.floor() as usize).min(STOPS.len() - 2);
    let f = t - k as f64;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viridis_runs_from_dark_blue_to_yellow() {
        assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(0.5), RGBColor(33, 145, 140));
    }
}
