//! The heatmap of a sweep over two settings: every cell's median, coloured by its logarithm
//! (viridis), with the number written in it, as the R study's ranks × suits heatmap.

use std::io;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::columns::{AxisLabels, axis_labels, longest, row_labels};
use super::sweep::find;
use super::{
    ABOVE_CAP_SIGN, NEVER_SIGN, caption_over, censored_sign, failed, font, panel_with, plot_size,
    rounds_at, short, trim, y_label_area,
};
use crate::export::text::quantile_text;
use crate::stats::{Quantile, Stats};

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
    // The rows' names take the room they need: a preset's name runs to 22 characters.
    let label_area = y_label_area(longest(y_values));
    let (w, h) = plot_size(area, label_area)?;
    let cell = (w / f64::from(nx), h / f64::from(ny));
    // Each cell's text: the longest of its forms that fits it, if any does.
    let texts: Vec<Option<(String, f64)>> = grid
        .iter()
        .map(|(_, _, stats)| fitting(&cell_texts(*stats), cell))
        .collect();
    let signs = texts
        .iter()
        .flatten()
        .any(|(t, _)| [NEVER_SIGN, ABOVE_CAP_SIGN].contains(&t.as_str()));
    let caption = match signs {
        true => SIGNS_CAPTION,
        false => CAPTION,
    };
    let mut chart = panel_with(area, label_area)
        .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())
        .map_err(failed)?;
    caption_over(area, &chart, caption)?;
    let (x_labels, y_labels) = (axis_labels(x_values, cell.0), row_labels(y_values, cell.1));
    let names = |labels: &AxisLabels, values: &[String], v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => labels.text(values, *i),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(x_values.len())
        .y_labels(y_values.len())
        .x_label_formatter(&|v| names(&x_labels, x_values, v))
        .y_label_formatter(&|v| names(&y_labels, y_values, v))
        .x_desc(keys[*x_key])
        .y_desc(keys[*y_key])
        .axis_desc_style(font(16.0))
        .label_style(font(15.0))
        .x_label_style(font(x_labels.px))
        .y_label_style(font(y_labels.px))
        .draw()
        .map_err(failed)?;
    for ((i, j, stats), text) in grid.into_iter().zip(texts) {
        let median = stats.and_then(|s| rounds_at(s, 50_000));
        let fill = match (median, stats) {
            (Some(r), _) => viridis(match high > low {
                true => ((r.max(1) as f64).ln() - low) / (high - low),
                false => 0.5,
            }),
            (None, Some(_)) => RGBColor(200, 200, 200),
            (None, None) => RGBColor(245, 245, 245),
        };
        let corner = |a: i32, b: i32| (SegmentValue::Exact(a), SegmentValue::Exact(b));
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [corner(i, j), corner(i + 1, j + 1)],
                fill.filled(),
            )))
            .map_err(failed)?;
        let Some((text, size)) = text else {
            continue;
        };
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

/// The heatmap's caption, and the one it takes when some cells' notes are signs.
const CAPTION: &str = "Median game length in rounds (colour: logarithm; grey: the median game never ends or passes the cap)";
const SIGNS_CAPTION: &str =
    "Median game length in rounds (colour: logarithm; grey: never ends, ∞, or passes the cap, ↑)";
/// The smallest text written in a cell, in pixels: a cell too narrow for it is left unwritten.
const SMALLEST_TEXT: f64 = 8.0;

/// The forms a cell's text may take, longest first: the median as the sweep table gives it
/// ("1091", "11.9k", "> 100,000", "never"), in thousands ("1.1k", "> 100k"), or as a sign (∞
/// never ends, ↑ past the cap); "skipped" for a combination not played.
fn cell_texts(stats: Option<&Stats>) -> Vec<String> {
    let Some(stats) = stats else {
        return vec!["skipped".into(), "-".into()];
    };
    match stats.lengths().quantile(50_000) {
        Some(Quantile::Rounds(r)) => {
            let mut forms = vec![short(r as f64)];
            // Two significant digits at least: 1091 → 1.1k, 11,912 → 12k.
            let thousands = r as f64 / 1e3;
            let shorter = match r {
                0..1_000 => None,
                1_000..10_000 => Some(format!("{}k", trim(thousands))),
                10_000..1_000_000 => Some(format!("{}k", thousands.round())),
                _ => None,
            };
            forms.extend(shorter.filter(|form| !forms.contains(form)));
            forms
        }
        // In words as the table says it ("> 100,000", "never"), past the cap also in
        // thousands ("> 100k"), then its sign.
        Some(censored) => {
            let mut forms = vec![quantile_text(censored)];
            if let Quantile::AboveCap(cap) = censored {
                forms.push(format!("> {}", short(f64::from(cap))));
            }
            forms.extend(censored_sign(censored).map(String::from));
            forms
        }
        None => vec!["-".into()],
    }
}

/// The first of `forms` that fits a cell `width` × `height` pixels at `SMALLEST_TEXT` or more,
/// with its size: as large as the cell allows (2 pixels each side, and no larger than three
/// digits would be), up to 22 pixels.
fn fitting(forms: &[String], (width, height): (f64, f64)) -> Option<(String, f64)> {
    forms.iter().find_map(|text| {
        let size = ((width - 4.0) / ems(text).max(ems("000")))
            .min(height * 0.42)
            .min(22.0);
        (size >= SMALLEST_TEXT).then(|| (text.clone(), size))
    })
}

/// An estimate of a text's width in ems, since the viewer's font is not known: 0.62 a digit,
/// letter or sign, 0.3 a point, comma or space.
fn ems(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            '.' | ',' | ' ' => 0.3,
            _ => 0.62,
        })
        .sum()
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
    fn a_cells_text_is_its_longest_form_that_fits() {
        let forms = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let median = forms(&["1091", "1.1k"]);
        // 60 pixels wide: the whole number; 22: in thousands; 10: none.
        assert_eq!(fitting(&median, (60.0, 40.0)).unwrap().0, "1091");
        assert_eq!(fitting(&median, (22.0, 40.0)).unwrap().0, "1.1k");
        assert_eq!(fitting(&median, (10.0, 40.0)), None);
        // A low cell limits the size whatever its width.
        let (_, size) = fitting(&median, (200.0, 30.0)).unwrap();
        assert!((size - 12.6).abs() < 1e-9);
        let never = forms(&["never", "∞"]);
        assert_eq!(fitting(&never, (24.0, 40.0)).unwrap().0, "∞");
        assert_eq!(fitting(&never, (40.0, 40.0)).unwrap().0, "never");
    }

    #[test]
    fn viridis_runs_from_dark_blue_to_yellow() {
        assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(0.5), RGBColor(33, 145, 140));
    }
}
