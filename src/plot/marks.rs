//! The median, p90 and p99 marked on both panels of a run's picture: a dashed line at each, and
//! its label beside it where it hides neither the data nor another label.

use std::io;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos};

use super::labels::{Edge, Placed, PxBox, Wanted, place, row_offset, text_width};
use super::{MARKED_QUANTILES, failed, font, rounds_at};
use crate::export::text::group;
use crate::stats::Stats;

/// Pixels between a mark's line and its label.
const GAP: f64 = 6.0;

/// A quantile marked on a panel: its rounds and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Mark {
    pub rounds: u64,
    pub label: String,
}

/// The median, p90 and p99 that fall on finished games, one mark for quantiles of equal rounds
/// ("p90, p99 6"), so that their labels are not written over each other.
pub(super) fn quantile_marks(stats: &Stats) -> Vec<Mark> {
    let mut marks: Vec<(Vec<&str>, u64)> = Vec::new();
    for (name, parts) in MARKED_QUANTILES {
        let Some(rounds) = rounds_at(stats, parts) else {
            continue;
        };
        match marks.last_mut() {
            Some((names, last)) if *last == rounds => names.push(name),
            _ => marks.push((vec![name], rounds)),
        }
    }
    marks
        .into_iter()
        .map(|(names, rounds)| Mark {
            rounds,
            label: format!("{} {}", names.join(", "), group(rounds)),
        })
        .collect()
}

/// True when a mark at `rounds` has its label on the left of its line by preference: in the
/// right fifth of the axis, where the right has no room.
fn near_right(rounds: u64, x_end: f64) -> bool {
    rounds as f64 > x_end * 0.8
}

/// Places the marks' labels, their lines at pixels `posts`, as [`place`] does.
fn place_marks(
    marks: &[Mark],
    posts: &[f64],
    x_end: f64,
    edges: &[Edge],
    frame: PxBox,
    lines: &[Vec<(f64, f64)>],
) -> Vec<Placed> {
    let wanted: Vec<Wanted> = marks
        .iter()
        .zip(posts)
        .enumerate()
        .map(|(post, (mark, &x))| {
            let width = text_width(&mark.label);
            let (right, left) = (x + GAP, x - GAP - width);
            Wanted {
                width,
                lefts: match near_right(mark.rounds, x_end) {
                    true => [left, right],
                    false => [right, left],
                },
                post,
            }
        })
        .collect();
    place(&wanted, posts, edges, frame, lines)
}

/// Places the marks' labels on a chart whose vertical axis runs from `bottom` to `top`: each in
/// the first place along `edges` clear of the labels before it, of the other marks' lines and
/// of `lines` (the panel's data, as polylines in its coordinates).
pub(super) fn place_on<Y: Ranged<ValueType = f64>>(
    chart: &ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, Y>>,
    marks: &[Mark],
    (bottom, top): (f64, f64),
    x_end: f64,
    edges: &[Edge],
    lines: &[Vec<(f64, f64)>],
) -> Vec<Placed> {
    let pixel = |p: (f64, f64)| {
        let (x, y) = chart.backend_coord(&p);
        (f64::from(x), f64::from(y))
    };
    let (left, top_px) = pixel((0.0, top));
    let (right, bottom_px) = pixel((x_end, bottom));
    let frame = PxBox {
        left,
        right,
        top: top_px,
        bottom: bottom_px,
    };
    let lines: Vec<Vec<(f64, f64)>> = lines
        .iter()
        .map(|line| line.iter().map(|&p| pixel(p)).collect())
        .collect();
    let posts: Vec<f64> = marks
        .iter()
        .map(|mark| pixel((mark.rounds as f64, top)).0)
        .collect();
    place_marks(marks, &posts, x_end, edges, frame, &lines)
}

/// Draws the marks on a chart whose vertical axis runs from `bottom` to `top`: a dashed line
/// each, and its label where `placed` put it.
pub(super) fn draw_marks<Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, Y>>,
    marks: &[Mark],
    (bottom, top): (f64, f64),
    x_end: f64,
    placed: &[Placed],
) -> io::Result<()> {
    for (mark, spot) in marks.iter().zip(placed) {
        let x = mark.rounds as f64;
        let style = ShapeStyle::from(&BLACK.mix(0.7)).stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new([(x, bottom), (x, top)], 6, 4, style))
            .map_err(failed)?;
        let on_the_left = near_right(mark.rounds, x_end) == (spot.side == 0);
        let (anchor, gap) = match on_the_left {
            true => (HPos::Right, -(GAP as i32)),
            false => (HPos::Left, GAP as i32),
        };
        let font = TextStyle::from(font(14.0)).pos(Pos::new(anchor, spot.edge.anchor()));
        let at = match spot.edge {
            Edge::Bottom => bottom,
            Edge::Top => top,
        };
        let text = Text::new(
            mark.label.clone(),
            (gap, row_offset(spot.edge, spot.row)),
            font,
        );
        let label = EmptyElement::at((x, at)) + text;
        chart.draw_series(std::iter::once(label)).map_err(failed)?;
    }
    Ok(())
}

/// The marks' labels along the top of a plot `width` × `height` pixels whose horizontal axis
/// ends at `x_end` rounds, with no data to avoid: a histogram places them before its chart is
/// built, to make room for them above its bars, and draws them where they were placed.
pub(super) fn top_labels(marks: &[Mark], x_end: f64, (width, height): (f64, f64)) -> Vec<Placed> {
    let posts: Vec<f64> = marks
        .iter()
        .map(|mark| mark.rounds as f64 / x_end * width)
        .collect();
    let frame = PxBox {
        left: 0.0,
        right: width,
        top: 0.0,
        bottom: height,
    };
    place_marks(marks, &posts, x_end, &[Edge::Top], frame, &[])
}
