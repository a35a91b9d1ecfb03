//! A run's picture: the length histogram of its finished games above the survival curve
//! (`survival.rs`), the median, p90 and p99 marked on both (`marks.rs`).

use std::io;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::labels::{CLEAR, Placed};
use super::marks::{Mark, draw_marks, quantile_marks, top_labels};
use super::survival::{SurvivalScale, longest_label, survival};
use super::{
    PALETTE, SIZE, caption_over, failed, font, head, panel_with, plot_size, rounds_axes,
    y_label_area,
};
use crate::export::text::{group, nice_width, percent_of};
use crate::stats::{Quantile, Stats};

/// Bars of the histogram, at most.
const BARS: u64 = 80;

/// Draws the run's figure as SVG text.
pub fn draw_run(
    title: &str,
    lines: &[String],
    stats: &Stats,
    scale: SurvivalScale,
) -> io::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let body = head(&root, title, lines)?;
        if stats.lengths().finished_games() == 0 {
            body.draw(&Text::new(
                match stats.games {
                    0 => "No game was played: nothing to draw.",
                    _ => "No game finished: capped and cycling games have no length to draw.",
                },
                (30, 40),
                font(20.0),
            ))
            .map_err(failed)?;
        } else {
            let (top, bottom) = body.split_vertically(body.dim_in_pixel().1 / 2);
            // Both panels leave the survival curve's labels their room, so their axes align.
            let labels = y_label_area(longest_label(stats, scale));
            let marks = quantile_marks(stats);
            histogram(&top, stats, labels, &marks)?;
            survival(&bottom, stats, scale, labels, &marks)?;
        }
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// Bars of `width` rounds up to the finished games' 99.9th percentile: share of all games (%).
/// A bar stands over its lengths, from half a round before the first to half a round after the
/// last, so that a mark at n rounds falls inside the bar of n.
fn histogram(
    area: &DrawingArea<SVGBackend, Shift>,
    stats: &Stats,
    y_labels: u32,
    marks: &[Mark],
) -> io::Result<()> {
    let lengths = stats.lengths();
    let rank = lengths.finished_games().saturating_mul(999).div_ceil(1000);
    let high = match lengths.order_statistic(rank) {
        Some(Quantile::Rounds(rounds)) => rounds.max(1),
        _ => 1,
    };
    let width = nice_width(high.div_ceil(BARS).max(1));
    let bars = high / width + 1;
    let mut heights = vec![0.0f64; bars as usize];
    let all = stats.games.max(1) as f64;
    for (rounds, games) in lengths.counts() {
        if let Some(bar) = heights.get_mut((rounds / width) as usize) {
            *bar += 100.0 * games as f64 / all;
        }
    }
    let x_end = (bars * width) as f64;
    let spans: Vec<(f64, f64, f64)> = heights
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let x0 = (i as u64 * width) as f64 - 0.5;
            (x0, x0 + width as f64, h)
        })
        .collect();
    // The bars end at the 99.9th percentile's: say how many games lie past them, if any.
    let last_shown = bars * width - 1;
    let hidden: u64 = (lengths.counts())
        .filter(|&(rounds, _)| rounds > last_shown)
        .map(|(_, games)| games)
        .sum();
    let caption = match hidden {
        0 => format!("Game length: finished games, {}-round bars", group(width)),
        _ => format!(
            "Game length: finished games, {}-round bars ({} of all games, past {} rounds, not shown)",
            group(width),
            percent_of(hidden, stats.games, 2),
            group(last_shown)
        ),
    };
    let size = plot_size(area, y_labels)?;
    let placed = top_labels(marks, x_end, size);
    let y_end = room_for_labels(&spans, &placed, x_end, size);
    let mut chart = panel_with(area, y_labels)
        .build_cartesian_2d(0.0..x_end, 0.0..y_end.max(1e-9))
        .map_err(failed)?;
    caption_over(area, &chart, &caption)?;
    rounds_axes(&mut chart, (x_end, "share of all games (%)"), None, false)?;
    chart
        .draw_series(spans.iter().map(|&(x0, x1, h)| {
            Rectangle::new([(x0, 0.0), (x1, h)], PALETTE[0].mix(0.75).filled())
        }))
        .map_err(failed)?;
    draw_marks(&mut chart, marks, (0.0, y_end), x_end, &placed)
}

/// The histogram's vertical extent: 12% above its tallest bar, or more where a bar under a
/// mark's label would reach it (labels of marks close together stand in rows one under another).
/// `bars` are (from, to, height) in rounds and percent; `labels` were placed on the plot,
/// whose `size` is in pixels.
fn room_for_labels(
    bars: &[(f64, f64, f64)],
    labels: &[Placed],
    x_end: f64,
    size: (f64, f64),
) -> f64 {
    let tallest = bars.iter().map(|b| b.2).fold(0.0, f64::max);
    let (width, height) = size;
    let px = |rounds: f64| rounds / x_end * width;
    labels
        .iter()
        .map(|placed| placed.area)
        .fold(tallest * 1.12, |end, label| {
            let under = bars
                .iter()
                .filter(|&&(x0, x1, _)| px(x0) < label.right + CLEAR && px(x1) > label.left - CLEAR)
                .map(|b| b.2)
                .fold(0.0, f64::max);
            // The bar's top, `under / end` of the height from the bottom, stays CLEAR pixels
            // below the label's bottom.
            let free = 1.0 - (label.bottom + CLEAR) / height;
            end.max(under / free.max(0.05))
        })
}
