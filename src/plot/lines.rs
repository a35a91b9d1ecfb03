//! The marks of one line of a sweep's median plot (`medians.rs` lays the panel out): its
//! p10–p90 band and dashed p99 (over one setting), its median, and the notes of its censored
//! quantiles at the top of their columns. Along numbers the marks of neighbouring cells join;
//! at names they stand apart, as bars, crosses and points.

use std::io;

use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::RangedCoordi32;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::columns::bar_px;
use super::notes::{NOTE_ROW, Note, NoteForm};
use super::{failed, font};

/// A median plot's chart: categories along x, rounds (linear or logarithmic) up.
pub(super) type Chart<'a, 'b, Y> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<SegmentedCoord<RangedCoordi32>, Y>>;

/// One cell on a line: its position along x and its quantiles (`None` when censored).
pub(super) struct Point {
    pub line: usize,
    pub x: i32,
    pub p10: Option<f64>,
    pub p50: Option<f64>,
    pub p90: Option<f64>,
    pub p99: Option<f64>,
    /// The first quantile drawn for the cell that has no length, if any.
    pub note: Option<Note>,
}

/// What every line is drawn with: how the panel was laid out.
pub(super) struct Layout {
    /// Whether the values along x are numbers, whose cells' marks join.
    pub ordered: bool,
    pub column_px: f64,
    /// A median point's radius and a p99 cross's half-width, in pixels.
    pub radius: u32,
    pub cross: u32,
    /// How many lines the panel draws.
    pub lines: usize,
    /// The top of the vertical axis, and the legend's height under it.
    pub y_top: f64,
    pub legend_px: u32,
    /// The notes' form, and the rows each noted line's signs take.
    pub form: NoteForm,
    pub rows: u32,
}

/// Consecutive runs of `(x, value)` points: a new run starts wherever an x is skipped, and at
/// every point where the values along x are not `ordered` (names: a line from one rule set to
/// the next would draw a trend between things that have no order).
pub(super) fn runs<T: Copy>(
    points: impl Iterator<Item = (i32, T)>,
    ordered: bool,
) -> Vec<Vec<(i32, T)>> {
    let mut spans: Vec<Vec<(i32, T)>> = Vec::new();
    for (x, value) in points {
        match spans.last_mut() {
            Some(span) if ordered && span.last().is_some_and(|&(last, _)| last + 1 == x) => {
                span.push((x, value))
            }
            _ => spans.push(vec![(x, value)]),
        }
    }
    spans
}

/// The ends of a legend's sample line about its mark: 20 pixels along numbers, where the line
/// joins cells; none at names, where the mark stands alone.
fn legend_sample(ordered: bool) -> [(i32, i32); 2] {
    let reach = if ordered { 10 } else { 0 };
    [(-reach, 0), (reach, 0)]
}

fn at(x: i32) -> SegmentValue<i32> {
    SegmentValue::CenterOf(x)
}

/// The p10–p90 band and p99 of one line's cells `mine`. Bands and lines break where a quantile
/// is censored (never or above the cap): nothing is drawn through a cell that has no such value.
pub(super) fn band<'a, 'b: 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'a, 'b, Y>,
    mine: &[&Point],
    color: RGBColor,
    layout: &Layout,
) -> io::Result<()> {
    let (ordered, cross) = (layout.ordered, layout.cross);
    let bands = mine.iter().filter_map(|p| Some((p.x, (p.p10?, p.p90?))));
    let spans = runs(bands, ordered);
    // A lone cell's band is a broad bar: a polygon of one column has no width.
    let (lone, long): (Vec<_>, Vec<_>) = spans.into_iter().partition(|span| span.len() == 1);
    let polygons = long.into_iter().map(|span| {
        let upper = span.iter().map(|&(x, (_, high))| (at(x), high));
        let lower = span.iter().rev().map(|&(x, (low, _))| (at(x), low));
        Polygon::new(upper.chain(lower).collect::<Vec<_>>(), color.mix(0.2))
    });
    let bars = lone.iter().map(|span| {
        let (x, (low, high)) = span[0];
        PathElement::new(
            vec![(at(x), low), (at(x), high)],
            color.mix(0.2).stroke_width(bar_px(layout.column_px)),
        )
    });
    chart.draw_series(bars).map_err(failed)?;
    chart
        .draw_series(polygons)
        .map_err(failed)?
        .label("p10–p90")
        .legend(move |(x, y)| {
            Rectangle::new([(x, y - 6), (x + 20, y + 6)], color.mix(0.2).filled())
        });
    let spans = runs(mine.iter().filter_map(|p| Some((p.x, p.p99?))), ordered);
    // A lone cell's p99 is a cross: a dashed line needs two cells.
    let (lone, long): (Vec<_>, Vec<_>) = spans.into_iter().partition(|span| span.len() == 1);
    let dashed = long.into_iter().map(|span| {
        let points: Vec<_> = span.iter().map(|&(x, y)| (at(x), y)).collect();
        DashedPathElement::new(points, 6, 4, color.stroke_width(1))
    });
    let crosses = lone
        .iter()
        .map(|span| Cross::new((at(span[0].0), span[0].1), cross, color));
    chart.draw_series(crosses).map_err(failed)?;
    chart
        .draw_series(dashed)
        .map_err(failed)?
        .label("p99")
        // Dashed as the line it names (a 20-pixel sample: two dashes) through the cross of a
        // lone cell's; at names, the cross alone.
        .legend(move |(x, y)| {
            EmptyElement::at((x + 10, y))
                + DashedPathElement::new(legend_sample(ordered), 6, 4, color)
                + Cross::new((0, 0), cross.min(4), color)
        });
    Ok(())
}

/// The median of line `line`'s cells `mine`, named `name` in the legend: a line through its
/// points, or at names the points alone.
pub(super) fn median<'a, 'b: 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'a, 'b, Y>,
    (line, name): (usize, String),
    mine: &[&Point],
    color: RGBColor,
    layout: &Layout,
) -> io::Result<()> {
    let (ordered, radius) = (layout.ordered, layout.radius);
    let spans = runs(mine.iter().filter_map(|p| Some((p.x, p.p50?))), ordered);
    let paths = spans.into_iter().map(|span| {
        let points: Vec<_> = span.into_iter().map(|(x, y)| (at(x), y)).collect();
        PathElement::new(points, color.stroke_width(3))
    });
    chart
        .draw_series(paths)
        .map_err(failed)?
        .label(name)
        .legend(move |(x, y)| {
            // A line through a point, or where names are apart, the point alone.
            EmptyElement::at((x + 10, y))
                + PathElement::new(legend_sample(ordered), color.stroke_width(3))
                + Circle::new((0, 0), radius, color.filled())
        });
    // Apart, the lines' points at one name stand side by side instead of on top of each other.
    let dodge = match ordered {
        true => 0,
        false => {
            let step = (layout.column_px * 0.6 / layout.lines as f64).min(10.0);
            ((line as f64 - (layout.lines - 1) as f64 / 2.0) * step).round() as i32
        }
    };
    let points = mine.iter().filter_map(|p| {
        let point = EmptyElement::at((at(p.x), p.p50?));
        Some(point + Circle::new((dodge, 0), radius, color.filled()))
    });
    chart.draw_series(points).map_err(failed)?;
    Ok(())
}

/// Where a quantile drawn for one of `mine` has no length, says so at the top of its column,
/// in the rows of the `rank`-th line that has notes.
pub(super) fn notes<'a, 'b: 'a, Y: Ranged<ValueType = f64>>(
    chart: &mut Chart<'a, 'b, Y>,
    rank: u32,
    mine: &[&Point],
    color: RGBColor,
    layout: &Layout,
) -> io::Result<()> {
    let rows = layout.rows;
    let row = |x: i32| rank * rows + x as u32 % rows;
    let shift = |x: i32| (layout.legend_px + 4 + NOTE_ROW * row(x)) as i32;
    let style = |px: f64, color: RGBAColor| {
        font(px)
            .color(&color)
            .pos(Pos::new(HPos::Center, VPos::Top))
    };
    let notes = mine.iter().filter_map(|p| {
        let note = p.note?;
        let (text, shade) = match layout.form {
            NoteForm::Words => (note.text(), color.to_rgba()),
            NoteForm::Named => (note.sign.to_string(), color.to_rgba()),
            // Alone, the band's and p99's signs are pale as the band is.
            NoteForm::Signs if !note.is_median() => (note.sign.to_string(), color.mix(0.45)),
            NoteForm::Signs => (note.sign.to_string(), color.to_rgba()),
        };
        let text = Text::new(text, (0, shift(p.x)), style(14.0, shade));
        Some(EmptyElement::at((at(p.x), layout.y_top)) + text)
    });
    let names = mine.iter().filter_map(|p| {
        let name = p
            .note
            .filter(|_| layout.form == NoteForm::Named)?
            .short_name();
        let below = shift(p.x) + NOTE_ROW as i32 - 2;
        let text = Text::new(name, (0, below), style(12.0, color.to_rgba()));
        Some(EmptyElement::at((at(p.x), layout.y_top)) + text)
    });
    chart.draw_series(names).map_err(failed)?;
    chart.draw_series(notes).map_err(failed)?;
    Ok(())
}
