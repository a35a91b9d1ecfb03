//! A run's picture: the length histogram of its finished games above the survival curve (the
//! share of all games still going after n rounds, capped and cycling games included, with its
//! pointwise 95% interval shaded), the median, p90 and p99 marked on both.

use std::io;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{PALETTE, SIZE, failed, font, head, panel_with, rounds_at, short, y_label_area};
use crate::export::text::{group, nice_width};
use crate::stats::{Quantile, Stats, wilson_95};

/// The survival curve's vertical scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SurvivalScale {
    /// Logarithmic: the tail of rare long games stays visible.
    #[default]
    Log,
    /// Linear, from 0 to 1.
    Linear,
}

/// Bars of the histogram, at most.
const BARS: u64 = 80;
/// Points sampled along the survival curve: at least one per pixel of the plot.
const SAMPLES: u64 = 1000;

/// The quantiles marked: label, parts per 100,000.
const MARKS: [(&str, u32); 3] = [("median", 50_000), ("p90", 90_000), ("p99", 99_000)];

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
            let labels = y_label_area(match scale {
                SurvivalScale::Log => percent(lowest_decade(stats.games)).chars().count(),
                SurvivalScale::Linear => 0,
            });
            histogram(&top, stats, labels)?;
            survival(&bottom, stats, scale, labels)?;
        }
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// Bars of `width` rounds up to the finished games' 99.9th percentile: share of all games (%).
fn histogram(
    area: &DrawingArea<SVGBackend, Shift>,
    stats: &Stats,
    y_labels: u32,
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
    let y_end = heights.iter().copied().fold(0.0, f64::max) * 1.12;
    let caption = format!(
        "Game length: finished games, {}-round bars (the longest 0.1% not shown)",
        group(width)
    );
    let mut chart = panel_with(area, &caption, y_labels)
        .build_cartesian_2d(0.0..x_end, 0.0..y_end.max(1e-9))
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("rounds")
        .y_desc("share of all games (%)")
        .x_label_formatter(&|x| short(*x))
        .axis_desc_style(font(16.0))
        .label_style(font(15.0))
        .draw()
        .map_err(failed)?;
    chart
        .draw_series(heights.iter().enumerate().map(|(i, &h)| {
            let x0 = (i as u64 * width) as f64;
            Rectangle::new(
                [(x0, 0.0), (x0 + width as f64, h)],
                PALETTE[0].mix(0.75).filled(),
            )
        }))
        .map_err(failed)?;
    marks(&mut chart, stats, (0.0, y_end), x_end, VPos::Top)
}

/// The survival curve from round 0 to the longest finished game.
fn survival(
    area: &DrawingArea<SVGBackend, Shift>,
    stats: &Stats,
    scale: SurvivalScale,
    y_labels: u32,
) -> io::Result<()> {
    let lengths = stats.lengths();
    let longest = lengths.max().unwrap_or(1).max(1);
    let all = stats.games.max(1) as f64;
    // The curve is a step function: sampled at every pixel it is drawn exactly.
    let mut counts = lengths.counts().peekable();
    let mut ended = 0u64;
    let still: Vec<(f64, u64)> = (0..=SAMPLES)
        .map(|k| {
            let x = longest * k / SAMPLES;
            while let Some(&(rounds, games)) = counts.peek() {
                if rounds > x {
                    break;
                }
                ended += games;
                counts.next();
            }
            (x as f64, stats.games - ended)
        })
        .collect();
    let points: Vec<(f64, f64)> = still.iter().map(|&(x, n)| (x, n as f64 / all)).collect();
    let caption = "Survival: share of all games still going after n rounds (capped and cycling games never end; shaded: 95% CI)";
    let mut builder = panel_with(area, caption, y_labels);
    let x_end = longest as f64 * 1.02;
    match scale {
        SurvivalScale::Log => {
            let floor = log_floor(stats.games);
            let mut chart = builder
                .build_cartesian_2d(0.0..x_end, (floor..1.0).log_scale())
                .map_err(failed)?;
            chart
                .configure_mesh()
                .x_desc("rounds")
                .y_desc("share still going (log scale)")
                .x_label_formatter(&|x| short(*x))
                .y_label_formatter(&|y| percent(*y))
                .axis_desc_style(font(16.0))
                .label_style(font(15.0))
                .draw()
                .map_err(failed)?;
            let curve = points.iter().map(|&(x, y)| (x, y.max(floor)));
            chart
                .draw_series(band(&still, stats.games, floor))
                .map_err(failed)?;
            chart
                .draw_series(LineSeries::new(curve, PALETTE[1].stroke_width(2)))
                .map_err(failed)?;
            marks(&mut chart, stats, (floor, 1.0), x_end, VPos::Bottom)
        }
        SurvivalScale::Linear => {
            let mut chart = builder
                .build_cartesian_2d(0.0..x_end, 0.0..1.0)
                .map_err(failed)?;
            chart
                .configure_mesh()
                .x_desc("rounds")
                .y_desc("share still going")
                .x_label_formatter(&|x| short(*x))
                .axis_desc_style(font(16.0))
                .label_style(font(15.0))
                .draw()
                .map_err(failed)?;
            chart
                .draw_series(band(&still, stats.games, 0.0))
                .map_err(failed)?;
            chart
                .draw_series(LineSeries::new(points, PALETTE[1].stroke_width(2)))
                .map_err(failed)?;
            marks(&mut chart, stats, (0.0, 1.0), x_end, VPos::Top)
        }
    }
}

/// The share still going's pointwise 95% Wilson interval at each sampled round (`still` of
/// `games` games), as one shaded polygon: the upper ends left to right, then the lower ends
/// back; no end below `floor` (the log scale's).
fn band(still: &[(f64, u64)], games: u64, floor: f64) -> std::iter::Once<Polygon<(f64, f64)>> {
    let outline = band_outline(still, games, floor);
    std::iter::once(Polygon::new(outline, PALETTE[1].mix(0.25).filled()))
}

/// The band's outline (see [`band`]).
fn band_outline(still: &[(f64, u64)], games: u64, floor: f64) -> Vec<(f64, f64)> {
    let ends: Vec<(f64, f64, f64)> = still
        .iter()
        .map(|&(x, n)| {
            let (_, low, high) = wilson_95(n, games).unwrap_or((0.0, 0.0, 0.0));
            (x, low.max(floor), high.max(floor))
        })
        .collect();
    let upper = ends.iter().map(|&(x, _, high)| (x, high));
    let lower = ends.iter().rev().map(|&(x, low, _)| (x, low));
    upper.chain(lower).collect()
}

/// Dashed vertical lines at the median, p90 and p99 (over all games), labelled at the top, or
/// at the bottom where `labels_at` says so: on a log scale the survival curve runs along the top
/// past the marks (the median's share is 50%, two thirds of the way up), and reaches the bottom
/// only far to their right.
fn marks<Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, Y>>,
    stats: &Stats,
    (bottom, top): (f64, f64),
    x_end: f64,
    labels_at: VPos,
) -> io::Result<()> {
    for (i, (label, parts)) in MARKS.iter().enumerate() {
        let Some(rounds) = rounds_at(stats, *parts) else {
            continue;
        };
        let x = rounds as f64;
        let style = ShapeStyle::from(&BLACK.mix(0.7)).stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new([(x, bottom), (x, top)], 6, 4, style))
            .map_err(failed)?;
        // Labels step down so that close marks do not overlap; near the right edge they go on
        // the left of their line.
        let (anchor, gap) = if x > x_end * 0.8 {
            (HPos::Right, -6)
        } else {
            (HPos::Left, 6)
        };
        let font = TextStyle::from(font(14.0)).pos(Pos::new(anchor, labels_at));
        let text = format!("{label} {}", group(rounds));
        let step = 4 + 18 * i as i32;
        let (y, step) = match labels_at {
            VPos::Bottom => (bottom, -step),
            _ => (top, step),
        };
        let label = EmptyElement::at((x, y)) + Text::new(text, (gap, step), font);
        chart.draw_series(std::iter::once(label)).map_err(failed)?;
    }
    Ok(())
}

/// The log scale's lowest share of `games` games: the smallest one game can have, halved (a
/// curve that reaches 0 ends there).
fn log_floor(games: u64) -> f64 {
    0.5 / games.max(1) as f64
}

/// The lowest power of ten on the log scale of `games` games: its tick label is the longest.
fn lowest_decade(games: u64) -> f64 {
    10f64.powf(log_floor(games).log10().ceil())
}

/// A share as a percentage with the digits its size needs: 1 → "100%", 0.001 → "0.1%".
fn percent(share: f64) -> String {
    let p = 100.0 * share;
    let digits = if p >= 1.0 {
        0
    } else {
        (-p.log10()).ceil() as usize
    };
    format!("{p:.digits$}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_band_is_each_shares_wilson_interval() {
        // 100 games, all going at round 0, 50 at 10, none at 20: upper ends left to right,
        // lower ends back, 0 raised to the floor.
        let outline = band_outline(&[(0.0, 100), (10.0, 50), (20.0, 0)], 100, 0.001);
        let xs: Vec<f64> = outline.iter().map(|p| p.0).collect();
        assert_eq!(xs, [0.0, 10.0, 20.0, 20.0, 10.0, 0.0]);
        let (_, low_all, _) = wilson_95(100, 100).unwrap();
        let (_, low_half, high_half) = wilson_95(50, 100).unwrap();
        let (_, _, high_none) = wilson_95(0, 100).unwrap();
        let ys: Vec<f64> = outline.iter().map(|p| p.1).collect();
        assert_eq!(ys, [1.0, high_half, high_none, 0.001, low_half, low_all]);
        assert!((low_half - 0.4038).abs() < 1e-4 && (high_none - 0.037).abs() < 1e-3);
    }

    #[test]
    fn shares_print_as_percentages_with_the_digits_they_need() {
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.1), "10%");
        assert_eq!(percent(0.001), "0.1%");
        assert_eq!(percent(0.00001), "0.001%");
    }

    #[test]
    fn the_log_scales_labels_leave_room_for_the_axis_description() {
        // The description takes about 30 pixels, a 15-pixel label's character about 9, and the
        // tick and the gap 10: 10^6 games label 0.0001% (7 characters), which once overlapped.
        for k in 0..=12 {
            let label = percent(lowest_decade(10u64.pow(k)));
            let chars = label.chars().count();
            assert!(
                y_label_area(chars) as usize >= 30 + 9 * chars + 10,
                "{label}"
            );
            if k == 6 {
                assert_eq!(label, "0.0001%");
            }
        }
        assert_eq!(y_label_area(4), 80);
    }
}
