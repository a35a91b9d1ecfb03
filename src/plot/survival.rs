//! The lower panel of a run's picture: the share of all games still going after n rounds, as
//! the step function it is, with its pointwise 95% interval shaded and the quantiles marked. On
//! the log scale the axis ends a step below the curve's lowest point, so a run whose games
//! mostly never end (cycles, a low cap) fills the panel instead of a sliver at its top.

use std::io;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::labels::Edge;
use super::marks::{Mark, draw_marks, place_on};
use plotters::coord::types::RangedCoordf64;

use super::{PALETTE, caption_over, failed, panel_with, rounds_axes};
use crate::stats::{Stats, wilson_95};

/// The survival curve's vertical scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SurvivalScale {
    /// Logarithmic: the tail of rare long games stays visible.
    #[default]
    Log,
    /// Linear, from 0 to 1.
    Linear,
}

/// Points sampled along the survival curve: at least one per pixel of the plot.
const SAMPLES: u64 = 1000;

/// The survival curve from round 0 to the longest finished game.
pub(super) fn survival(
    area: &DrawingArea<SVGBackend, Shift>,
    stats: &Stats,
    scale: SurvivalScale,
    y_labels: u32,
    marks: &[Mark],
) -> io::Result<()> {
    let x_end = stats.lengths().max().unwrap_or(1).max(1) as f64 * 1.02;
    let mut still = steps(&sampled(stats));
    // Games that never end stay in the curve past the longest finished game: their level runs on
    // to the axis' end, band and all.
    if let Some(&(_, endless)) = still.last().filter(|&&(_, n)| n > 0) {
        still.push((x_end, endless));
    }
    let all = stats.games.max(1) as f64;
    let points: Vec<(f64, f64)> = still.iter().map(|&(x, n)| (x, n as f64 / all)).collect();
    // Abandoned games never end too, where there are any (war-simulator-original's rules).
    let endless = match stats.count(crate::engine::Outcome::Abandoned) {
        0 => "capped and cycling games never end",
        _ => "capped, cycling, abandoned: never end",
    };
    let caption = format!(
        "Survival: share of all games still going after n rounds ({endless}; shaded: 95% CI)"
    );
    let mut builder = panel_with(area, y_labels);
    let (floor, y_desc, edges) = match scale {
        SurvivalScale::Log => (
            log_floor(stats),
            "share still going (log scale)",
            [Edge::Bottom, Edge::Top],
        ),
        SurvivalScale::Linear => (0.0, "share still going", [Edge::Top, Edge::Bottom]),
    };
    let outline = band_outline(&still, stats.games, floor);
    // The curve, and the band's outline closed, for the labels to keep clear of.
    let mut closed = outline.clone();
    closed.extend(outline.first().copied());
    let lines = [points.clone(), closed];
    let drawing = Curve {
        band: Polygon::new(outline, PALETTE[1].mix(0.25).filled()),
        curve: LineSeries::new(points, PALETTE[1].stroke_width(2)),
        lines,
    };
    let axes = (x_end, y_desc);
    match scale {
        SurvivalScale::Log => {
            let (bold, light) = log_ticks(floor);
            let y = (floor..1.0).log_scale().with_key_points(bold);
            let mut chart = builder
                .build_cartesian_2d(0.0..x_end, y.with_light_points(light))
                .map_err(failed)?;
            caption_over(area, &chart, &caption)?;
            rounds_axes(&mut chart, axes, Some(&percent_label), true)?;
            drawing.draw(&mut chart, marks, (floor, 1.0), x_end, &edges)
        }
        SurvivalScale::Linear => {
            let mut chart = builder
                .build_cartesian_2d(0.0..x_end, 0.0..1.0)
                .map_err(failed)?;
            caption_over(area, &chart, &caption)?;
            rounds_axes(&mut chart, axes, None, true)?;
            drawing.draw(&mut chart, marks, (0.0, 1.0), x_end, &edges)
        }
    }
}

/// The curve and its band, and the polylines the marks' labels keep clear of.
struct Curve<'a> {
    band: Polygon<(f64, f64)>,
    curve: LineSeries<SVGBackend<'a>, (f64, f64)>,
    lines: [Vec<(f64, f64)>; 2],
}

impl<'a> Curve<'a> {
    /// Draws the band, the curve over it and the marks on a chart of either scale.
    fn draw<Y: Ranged<ValueType = f64>>(
        self,
        chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Y>>,
        marks: &[Mark],
        range: (f64, f64),
        x_end: f64,
        edges: &[Edge],
    ) -> io::Result<()> {
        chart
            .draw_series(std::iter::once(self.band))
            .map_err(failed)?;
        chart.draw_series(self.curve).map_err(failed)?;
        let placed = place_on(chart, marks, range, x_end, edges, &self.lines);
        draw_marks(chart, marks, range, x_end, &placed)
    }
}

/// The games still going after each of `SAMPLES` + 1 rounds spread from 0 to the longest
/// finished game (whole rounds: a short game's samples repeat rounds, kept once).
fn sampled(stats: &Stats) -> Vec<(f64, u64)> {
    let lengths = stats.lengths();
    let longest = lengths.max().unwrap_or(1).max(1);
    let mut counts = lengths.counts().peekable();
    let mut ended = 0u64;
    let mut still: Vec<(f64, u64)> = Vec::new();
    for k in 0..=SAMPLES {
        let x = longest * k / SAMPLES;
        while let Some(&(rounds, games)) = counts.peek() {
            if rounds > x {
                break;
            }
            ended += games;
            counts.next();
        }
        if still.last().is_none_or(|&(last, _)| last < x as f64) {
            still.push((x as f64, stats.games - ended));
        }
    }
    still
}

/// The step function through the samples: the count holds until the next sample's round, and
/// drops there (the games of n rounds end at round n), so that a short game's few rounds are
/// drawn as steps, not slopes.
fn steps(samples: &[(f64, u64)]) -> Vec<(f64, u64)> {
    let mut points = Vec::with_capacity(2 * samples.len());
    for pair in samples.windows(2) {
        let ((_, before), (x, after)) = (pair[0], pair[1]);
        if points.is_empty() {
            points.push(pair[0]);
        }
        if after != before {
            points.push((x, before));
        }
        points.push((x, after));
    }
    if points.is_empty() {
        points.extend(samples.first());
    }
    points
}

/// The band's outline: the Wilson 95% interval of the share still going at each point of the
/// curve (`still` of `games` games), upper ends left to right, then the lower ends back; no end
/// below `floor` (the log scale's).
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

/// The log scale's lowest share. When every game ends the curve reaches 0, drawn at half the
/// share of one game. Otherwise it ends at the share that never ends: the axis stops at the
/// whole multiple of a power of ten (0.4, 0.07) under four fifths of that share's lower 95%
/// bound, so that neither the curve nor its band reaches the floor and the axis spends no
/// decades below them.
fn log_floor(stats: &Stats) -> f64 {
    let lengths = stats.lengths();
    let endless = stats.games - lengths.finished_games();
    let lowest = 0.5 / stats.games.max(1) as f64;
    match wilson_95(endless, stats.games) {
        Some((_, low, _)) if endless > 0 => multiple_below(0.8 * low).max(lowest),
        _ => lowest,
    }
}

/// The largest whole multiple of a power of ten (1 to 9 times it) at most `value`.
fn multiple_below(value: f64) -> f64 {
    let exponent = value.log10().floor() as i32;
    let decade = 10f64.powi(exponent);
    let multiple = (value * (1.0 + 1e-12) / decade).floor().clamp(1.0, 9.0);
    // Divided by a power of ten rather than multiplied by its inverse, which 0.1 is not exactly.
    match exponent {
        e if e < 0 => multiple / 10f64.powi(-e),
        e => multiple * 10f64.powi(e),
    }
}

/// The log axis' labelled ticks and its lighter lines between them, from `floor` to 1: the
/// powers of ten when the axis spans three of them or more, else the finest of 1-2-5, 1-2-3-5-7
/// and 1 to 9 that labels four ticks at least; lighter lines at every other whole multiple.
fn log_ticks(floor: f64) -> (Vec<f64>, Vec<f64>) {
    let in_range = |multiples: &[f64]| -> Vec<f64> {
        let mut ticks = Vec::new();
        let mut decade = 10f64.powf(floor.log10().floor());
        while decade <= 1.0 + 1e-12 {
            for &m in multiples {
                let tick = m * decade;
                if tick >= floor * (1.0 - 1e-12) && tick <= 1.0 + 1e-12 {
                    ticks.push(tick);
                }
            }
            decade *= 10.0;
        }
        ticks
    };
    let sets: [&[f64]; 4] = [
        &[1.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 5.0, 7.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ];
    let bold = sets
        .iter()
        .map(|set| in_range(set))
        .find(|ticks| ticks.len() >= 4)
        .unwrap_or_else(|| in_range(sets[3]));
    let every = in_range(sets[3]);
    let light = every
        .into_iter()
        .filter(|t| !bold.iter().any(|b| (b - t).abs() <= 1e-9 * t))
        .collect();
    (bold, light)
}

/// The longest label of the survival axis, in characters.
pub(super) fn longest_label(stats: &Stats, scale: SurvivalScale) -> usize {
    match scale {
        SurvivalScale::Log => log_ticks(log_floor(stats))
            .0
            .iter()
            .map(|&t| percent(t).chars().count())
            .max()
            .unwrap_or(4),
        SurvivalScale::Linear => 0,
    }
}

/// [`percent`] as an axis' label.
fn percent_label(share: &f64) -> String {
    percent(*share)
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
mod tests;
