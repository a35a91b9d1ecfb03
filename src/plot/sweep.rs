//! A sweep's picture of its medians. Over one setting: the median against it, with the p10–p90
//! band and p99 dashed. Over two: a heatmap of the median with the number in every cell (as the
//! R study's ranks × suits heatmap). Over three or more: one median line per combination of
//! the others, against the last. Categories are spaced evenly and labelled with their values.

use std::io;

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{PALETTE, SIZE, failed, font, head, panel, rounds_at, short};
use crate::export::text::quantile_text;
use crate::stats::{Quantile, Stats};

/// Most lines a sweep over three or more settings may draw.
pub const MAX_LINES: usize = 8;

/// The names of the swept settings that take more than one value (a flag given one value is
/// not swept), in `keys` order.
pub fn varied_keys<'k>(keys: &[&'k str], cells: &[&[String]]) -> Vec<&'k str> {
    varied(keys, cells)
        .into_iter()
        .map(|(k, _)| keys[k])
        .collect()
}

/// The swept settings that take more than one value: their positions in `keys` and values in
/// sweep order.
fn varied(keys: &[&str], cells: &[&[String]]) -> Vec<(usize, Vec<String>)> {
    (0..keys.len())
        .filter_map(|k| {
            let mut values: Vec<String> = Vec::new();
            for cell in cells {
                if !values.contains(&cell[k]) {
                    values.push(cell[k].clone());
                }
            }
            (values.len() > 1).then_some((k, values))
        })
        .collect()
}

/// Whether the cells can be drawn: `Err` with the reason (too many lines) otherwise.
pub fn plottable(keys: &[&str], cells: &[&[String]]) -> Result<(), String> {
    let axes = varied(keys, cells);
    if axes.len() >= 3 {
        let x = x_axis(&axes);
        let lines: usize = (axes.iter().enumerate())
            .filter(|(i, _)| *i != x)
            .map(|(_, (_, v))| v.len())
            .product();
        if lines > MAX_LINES {
            return Err(format!(
                "--plot draws a sweep of three or more settings as one line per combination of all but the one with the most values, at most {MAX_LINES}, and this sweep has {lines}: sweep fewer values, or plot the --csv table yourself"
            ));
        }
    }
    Ok(())
}

/// The varied setting drawn along x: the one with the most values (the last of those).
fn x_axis(axes: &[(usize, Vec<String>)]) -> usize {
    (0..axes.len())
        .max_by_key(|&i| (axes[i].1.len(), i))
        .unwrap_or(0)
}

/// Draws the sweep's figure as SVG text; `None` when fewer than one setting varies (the
/// caller then draws the one cell as a run).
pub fn draw_sweep(
    title: &str,
    lines: &[String],
    keys: &[&str],
    cells: &[(&[String], &Stats)],
) -> io::Result<Option<String>> {
    let values: Vec<&[String]> = cells.iter().map(|(v, _)| *v).collect();
    let axes = varied(keys, &values);
    if axes.is_empty() {
        return Ok(None);
    }
    plottable(keys, &values).map_err(io::Error::other)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let body = head(&root, title, lines)?;
        match axes.len() {
            2 => super::heatmap::heatmap(&body, keys, &axes, cells)?,
            _ => medians(&body, keys, &axes, cells)?,
        }
        root.present().map_err(failed)?;
    }
    Ok(Some(svg))
}

/// The cell whose values of the varied settings are `wanted` (position, value).
pub(super) fn find<'a>(
    cells: &[(&[String], &'a Stats)],
    wanted: &[(usize, &String)],
) -> Option<&'a Stats> {
    cells
        .iter()
        .find(|(values, _)| wanted.iter().all(|(k, v)| values[*k] == **v))
        .map(|(_, stats)| *stats)
}

/// Consecutive runs of `(x, value)` points: a new run starts wherever an x is skipped.
fn runs<T: Copy>(points: impl Iterator<Item = (i32, T)>) -> Vec<Vec<(i32, T)>> {
    let mut spans: Vec<Vec<(i32, T)>> = Vec::new();
    for (x, value) in points {
        match spans.last_mut() {
            Some(span) if span.last().is_some_and(|&(last, _)| last + 1 == x) => {
                span.push((x, value))
            }
            _ => spans.push(vec![(x, value)]),
        }
    }
    spans
}

/// One cell on a line: its position along x and its quantiles (`None` when censored).
struct Point {
    line: usize,
    x: i32,
    p10: Option<f64>,
    p50: Option<f64>,
    p90: Option<f64>,
    p99: Option<f64>,
    /// How the median reads when it falls among censored games ("never", "> 100,000").
    censored: Option<String>,
}

/// Median (and, for one line, the p10–p90 band and p99) against the last varied setting.
fn medians(
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
                    censored: match stats.lengths().quantile(50_000) {
                        Some(Quantile::Rounds(_)) | None => None,
                        Some(other) => Some(quantile_text(other)),
                    },
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
    let y_top = if log { high * 1.3 } else { high * 1.1 };
    let caption = if band {
        "Median game length (line), p10–p90 (band) and p99 (dashed), in rounds"
    } else {
        "Median game length in rounds, one line per combination"
    };
    let mut builder = panel(area, caption);
    let labels = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => x_values.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    // A range of i32 holds both ends: n categories are 0..n - 1.
    let x_range = (0..x_values.len() as i32 - 1).into_segmented();
    let y_desc = if log { "rounds (log scale)" } else { "rounds" };
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(x_values.len())
                .x_label_formatter(&labels)
                .y_label_formatter(&|y| short(*y))
                .x_desc(keys[*x_key])
                .y_desc(y_desc)
                .axis_desc_style(font(16.0))
                .label_style(font(15.0))
                .draw()
                .map_err(failed)?;
            for (line, combo) in combos.iter().enumerate() {
                let color = PALETTE[line % PALETTE.len()];
                let mine: Vec<&Point> = points.iter().filter(|p| p.line == line).collect();
                let at = |x: i32| SegmentValue::CenterOf(x);
                if band {
                    // Bands and lines break where a quantile is censored (never or above the
                    // cap): nothing is drawn through a cell that has no such value.
                    let spans = runs(mine.iter().filter_map(|p| Some((p.x, (p.p10?, p.p90?)))));
                    // A lone cell's band is a broad bar: a polygon of one column has no width.
                    let (lone, long): (Vec<_>, Vec<_>) =
                        spans.into_iter().partition(|span| span.len() == 1);
                    let polygons = long.into_iter().map(|span| {
                        let upper = span.iter().map(|&(x, (_, high))| (at(x), high));
                        let lower = span.iter().rev().map(|&(x, (low, _))| (at(x), low));
                        Polygon::new(upper.chain(lower).collect::<Vec<_>>(), color.mix(0.2))
                    });
                    let bars = lone.iter().map(|span| {
                        let (x, (low, high)) = span[0];
                        PathElement::new(
                            vec![(at(x), low), (at(x), high)],
                            color.mix(0.2).stroke_width(16),
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
                    let spans = runs(mine.iter().filter_map(|p| Some((p.x, p.p99?))));
                    // A lone cell's p99 is a cross: a dashed line needs two cells.
                    let (lone, long): (Vec<_>, Vec<_>) =
                        spans.into_iter().partition(|span| span.len() == 1);
                    let dashed = long.into_iter().map(|span| {
                        let points: Vec<_> = span.iter().map(|&(x, y)| (at(x), y)).collect();
                        DashedPathElement::new(points.into_iter(), 6, 4, color.stroke_width(1))
                    });
                    let crosses = lone
                        .iter()
                        .map(|span| Cross::new((at(span[0].0), span[0].1), 5, color));
                    chart.draw_series(crosses).map_err(failed)?;
                    chart
                        .draw_series(dashed)
                        .map_err(failed)?
                        .label("p99")
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
                }
                let name = if band {
                    "median".to_string()
                } else {
                    let parts: Vec<String> = combo
                        .iter()
                        .map(|(k, v)| format!("{}={v}", keys[*k]))
                        .collect();
                    parts.join(" ")
                };
                let median: Vec<_> = mine
                    .iter()
                    .filter_map(|p| Some((at(p.x), p.p50?)))
                    .collect();
                let spans = runs(mine.iter().filter_map(|p| Some((p.x, p.p50?))));
                let paths = spans.into_iter().map(|span| {
                    let points: Vec<_> = span.into_iter().map(|(x, y)| (at(x), y)).collect();
                    PathElement::new(points, color.stroke_width(3))
                });
                chart
                    .draw_series(paths)
                    .map_err(failed)?
                    .label(name)
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
                    });
                chart
                    .draw_series(
                        median
                            .into_iter()
                            .map(|p| Circle::new(p, 4, color.filled())),
                    )
                    .map_err(failed)?;
                // Where the median has no length, say so at the top of its column.
                let notes = mine.iter().filter_map(|p| {
                    let text = format!("median {}", p.censored.as_ref()?);
                    let style = TextStyle::from(font(14.0).color(&color))
                        .pos(Pos::new(HPos::Center, VPos::Top));
                    let shift = 4 + 18 * line as i32;
                    Some(EmptyElement::at((at(p.x), y_top)) + Text::new(text, (0, shift), style))
                });
                chart.draw_series(notes).map_err(failed)?;
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
                .build_cartesian_2d(x_range, (low / 1.3..y_top).log_scale())
                .map_err(failed)?
        );
    } else {
        draw!(
            builder
                .build_cartesian_2d(x_range, 0.0..y_top)
                .map_err(failed)?
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_settings_are_refused_when_they_would_draw_too_many_lines() {
        let keys = ["players", "suits", "ranks"];
        let cells: Vec<Vec<String>> = (2..=4)
            .flat_map(|p| (1..=3).flat_map(move |s| (6..=8).map(move |r| vec![p, s, r])))
            .map(|c| c.iter().map(|v| v.to_string()).collect())
            .collect();
        let refs: Vec<&[String]> = cells.iter().map(Vec::as_slice).collect();
        let error = plottable(&keys, &refs).unwrap_err();
        // Three values each: x is the last, ranks, and the lines are players × suits.
        assert!(error.contains("this sweep has 9"), "{error}");
        assert!(plottable(&keys, &refs[..18]).is_ok(), "2 players × 3 suits");
        assert_eq!(varied(&keys, &refs[..2]).len(), 1);
    }
}
