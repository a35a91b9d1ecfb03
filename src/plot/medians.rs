//! A sweep's medians against one setting, as lines: over one setting, the median with the
//! p10–p90 band and p99 dashed; over more, one median line per combination of the others. The
//! legend and the notes of censored quantiles keep the top of the panel to themselves: in words
//! ("median never", "p90 > 300") where they fit their columns, else as signs (∞ never ends,
//! ↑ past the cap) over the quantile's short name ("p90"), or where even that does not fit,
//! signs alone, the band's and p99's pale beside the median's. This module lays the panel out;
//! `lines.rs` draws each line's marks.

use std::io;

use plotters::prelude::*;

use super::columns::{axis_labels, numbers, point_px, sign_rows, uneven};
use super::lines::{self, Layout, Point};
use super::notes::{NAME_ROW, NOTE_ROW, Note, NoteForm, signs_legend};
use super::sweep::{find, x_axis};
use super::{
    MARKED_QUANTILES, PALETTE, Y_LABEL_AREA, caption_over, failed, font, panel, plot_size,
    rounds_at, short,
};
use crate::stats::Stats;

/// The legend's height: its frame and padding, and a row per series.
const LEGEND_TOP: u32 = 16;
const LEGEND_ROW: u32 = 21;

/// The share of a plot `plot_px` high left to the data under `reserved_px` at its top (at
/// least half of it, however many rows the legend has).
fn room_below(reserved_px: u32, plot_px: u32) -> f64 {
    (1.0 - f64::from(reserved_px) / f64::from(plot_px.max(1))).max(0.5)
}

/// The top of a vertical axis from `bottom` on which `high` sits `data_share` of the way up at
/// most (measured along a log scale where `log`), and at least a tenth (linear) or 30% (log)
/// above it, as before any legend.
fn top_of_axis(bottom: f64, high: f64, log: bool, data_share: f64) -> f64 {
    if log {
        let span = (high / bottom).ln() / data_share;
        (bottom * span.exp()).max(high * 1.3)
    } else {
        (bottom + (high - bottom) / data_share).max(high * 1.1)
    }
}

/// The panel's caption: what each mark stands for (a line, band and dashed p99 along numbers;
/// a point, bar and cross at names), `short` where the signs' meanings follow it.
fn caption(band: bool, ordered: bool, short: bool) -> String {
    let (median, band_mark, p99) = match ordered {
        true => ("line", "band", "dashed"),
        false => ("point", "bar", "×"),
    };
    match (band, short) {
        (true, false) => format!(
            "Median game length ({median}), p10–p90 ({band_mark}) and p99 ({p99}), in rounds"
        ),
        (true, true) => {
            format!("Median ({median}), p10–p90 ({band_mark}) and p99 ({p99}), in rounds")
        }
        (false, _) => format!(
            "Median game length in rounds, one {} per combination",
            if ordered { "line" } else { "colour" }
        ),
    }
}

/// Median (and, for one line, the p10–p90 band and p99) against the last varied setting.
pub(super) fn medians(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    keys: &[&str],
    axes: &[(usize, Vec<String>)],
    cells: &[(&[String], &Stats)],
) -> io::Result<()> {
    let x = x_axis(axes);
    let (x_key, x_values) = &axes[x];
    let others: Vec<&(usize, Vec<String>)> = axes
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != x)
        .map(|(_, a)| a)
        .collect();
    // Every combination of the other varied settings: one line each.
    let mut combos: Vec<Vec<(usize, &String)>> = vec![Vec::new()];
    for (k, values) in others.iter().map(|a| (&a.0, &a.1)) {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((*k, v));
                    c
                })
            })
            .collect();
    }
    let band = combos.len() == 1;
    let mut points = Vec::new();
    for (line, combo) in combos.iter().enumerate() {
        for (x, value) in x_values.iter().enumerate() {
            let mut wanted = combo.clone();
            wanted.push((*x_key, value));
            if let Some(stats) = find(cells, &wanted) {
                let q = |parts| rounds_at(stats, parts).map(|r| r as f64);
                points.push(Point {
                    line,
                    x: x as i32,
                    p10: q(10_000),
                    p50: q(50_000),
                    p90: q(90_000),
                    p99: q(99_000),
                    // With the band the median, p90 and p99 are drawn; else the median.
                    note: Note::first(stats, &MARKED_QUANTILES[..if band { 3 } else { 1 }]),
                });
            }
        }
    }
    let all: Vec<f64> = points
        .iter()
        .flat_map(|p| match (band, p.p10.zip(p.p90)) {
            (true, Some((low, high))) => [Some(low), p.p50, Some(high), p.p99],
            (true, None) => [None, p.p50, None, p.p99],
            (false, _) => [None, p.p50, None, None],
        })
        .flatten()
        .collect();
    let low = all.iter().copied().fold(f64::INFINITY, f64::min).max(1.0);
    let high = all.iter().copied().fold(1.0, f64::max);
    let log = high / low > 30.0;
    // The legend (upper left) and the notes of censored quantiles under it take the top of the
    // panel: the data stay below them, wherever the lines run.
    let legend_rows = if band { 3 } else { combos.len() };
    let legend_px = LEGEND_TOP + LEGEND_ROW * legend_rows as u32;
    // Numbers are ordered and joined by lines; names are points apart.
    let ordered = numbers(x_values).is_some();
    let base_caption = caption(band, ordered, false);
    // Notes in words when each fits its column, else as signs (named, or alone).
    let (plot_width, plot_height) = plot_size(area, Y_LABEL_AREA)?;
    let column_px = plot_width / x_values.len() as f64;
    let notes: Vec<Note> = points.iter().filter_map(|p| p.note).collect();
    // The lines that have notes, each given its rows in turn (a line without any takes none).
    let mut noted: Vec<usize> = points
        .iter()
        .filter(|p| p.note.is_some())
        .map(|p| p.line)
        .collect();
    noted.dedup();
    let form = NoteForm::fitting(&notes, column_px, band);
    // Signs too close to stand side by side stand in staggered rows.
    let rows = match form {
        NoteForm::Signs => sign_rows(column_px),
        _ => 1,
    };
    let notes_px = match (notes.is_empty(), form) {
        (true, _) => 0,
        (false, NoteForm::Named) => NOTE_ROW + NAME_ROW + 4,
        (false, _) => NOTE_ROW * rows * noted.len() as u32 + 4,
    };
    let x_labels = axis_labels(x_values, column_px);
    let (radius, cross) = point_px(column_px);
    let data_share = room_below(legend_px + notes_px + 10, plot_height as u32);
    let y_bottom = if log { low / 1.3 } else { 0.0 };
    let y_top = top_of_axis(y_bottom, high, log, data_share);
    // The signs' meanings take room the caption's words give up: the legend names the band.
    let caption = match form {
        NoteForm::Words => base_caption,
        _ => caption(band, ordered, true) + &signs_legend(&notes, form),
    };
    let layout = Layout {
        ordered,
        column_px,
        radius,
        cross,
        lines: combos.len(),
        y_top,
        legend_px,
        form,
        rows,
    };
    let mut builder = panel(area);
    let labels = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => x_labels.text(x_values, *i),
        _ => String::new(),
    };
    // A range of i32 holds both ends: n categories are 0..n - 1.
    let x_range = (0..x_values.len() as i32 - 1).into_segmented();
    let y_desc = if log { "rounds (log scale)" } else { "rounds" };
    let x_desc = match uneven(x_values) {
        true => format!("{} (evenly spaced, not to scale)", keys[*x_key]),
        false => keys[*x_key].to_string(),
    };
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            caption_over(area, &chart, &caption)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(x_values.len())
                .x_label_formatter(&labels)
                .y_label_formatter(&|y| short(*y))
                .x_desc(&x_desc)
                .y_desc(y_desc)
                .axis_desc_style(font(16.0))
                .label_style(font(15.0))
                .x_label_style(font(x_labels.px))
                .draw()
                .map_err(failed)?;
            for (line, combo) in combos.iter().enumerate() {
                let color = PALETTE[line % PALETTE.len()];
                let mine: Vec<&Point> = points.iter().filter(|p| p.line == line).collect();
                if band {
                    lines::band(&mut chart, &mine, color, &layout)?;
                }
                let name = if band {
                    "median".to_string()
                } else {
                    let parts: Vec<String> = combo
                        .iter()
                        .map(|(k, v)| format!("{}={v}", keys[*k]))
                        .collect();
                    parts.join(", ")
                };
                lines::median(&mut chart, (line, name), &mine, color, &layout)?;
                let rank = noted.iter().position(|&l| l == line).unwrap_or(0) as u32;
                lines::notes(&mut chart, rank, &mine, color, &layout)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.4))
                .label_font(font(14.0))
                .draw()
                .map_err(failed)?;
        }};
    }
    if log {
        draw!(
            builder
                .build_cartesian_2d(x_range, (y_bottom..y_top).log_scale())
                .map_err(failed)?
        );
    } else {
        draw!(
            builder
                .build_cartesian_2d(x_range, y_bottom..y_top)
                .map_err(failed)?
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_stay_under_the_legend() {
        // 77 pixels of legend on a 620-pixel plot: the highest point sits at most 87.6% up.
        let share = room_below(77, 620);
        assert!((share - (1.0 - 77.0 / 620.0)).abs() < 1e-12);
        let top = top_of_axis(0.0, 1100.0, false, share);
        assert!(1100.0 / top <= share + 1e-12 && 1100.0 / top > share - 1e-9);
        let (bottom, top) = (10.0, top_of_axis(10.0, 5e5, true, share));
        let up = (5e5f64 / bottom).ln() / (top / bottom).ln();
        assert!((up - share).abs() < 1e-9, "{up}");
        // Little legend: the old headroom stands; a huge one leaves the data half the plot.
        assert_eq!(top_of_axis(0.0, 100.0, false, 0.99), 100.0 * 1.1);
        assert_eq!(room_below(1_000, 620), 0.5);
    }
}
