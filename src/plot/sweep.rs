//! A sweep's picture of its medians, chosen by how many settings vary: over one, the median
//! against it with the p10–p90 band and p99 dashed; over two, a heatmap of the median with the
//! number in every cell (as the R study's ranks × suits heatmap, `heatmap.rs`); over three or
//! more, one median line per combination of the others, against the last (`medians.rs` draws
//! the band and the lines). Categories are spaced evenly and labelled with their values; an
//! axis of numbers not evenly spaced says it is not to scale.

use std::io;

use plotters::prelude::*;

use super::medians::medians;
use super::{SIZE, failed, font, head};
use crate::stats::Stats;

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
pub(super) fn x_axis(axes: &[(usize, Vec<String>)]) -> usize {
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
        // A shard of fewer games than shards (`--games 2 --shard 0/4`) plays none: empty axes
        // would say nothing of why.
        let played = cells.iter().any(|(_, stats)| stats.games > 0);
        match axes.len() {
            _ if !played => body
                .draw(&Text::new(
                    "No game was played: nothing to draw.",
                    (30, 40),
                    font(20.0),
                ))
                .map_err(failed)?,
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
