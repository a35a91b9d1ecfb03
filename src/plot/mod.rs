//! Pictures without Python: `--plot PATH.svg` draws a run's length distribution and survival
//! curve ([`draw_run`]), or a sweep's medians ([`draw_sweep`]: a band over one setting, a
//! heatmap over two, lines beyond), as SVG with plotters. Text is left to the viewer's fonts, so
//! no font files or system libraries are needed; plotters only estimates label widths.

mod columns;
mod heatmap;
mod labels;
mod lengths;
mod lines;
mod marks;
mod medians;
mod notes;
mod survival;
mod sweep;

pub use lengths::draw_run;
pub use survival::SurvivalScale;
pub use sweep::{MAX_LINES, draw_sweep, plottable, varied_keys};

use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::RGBColor;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::stats::{Quantile, Stats};

/// The quantiles a figure marks or notes (a run's marks, a sweep's median, band and p99, the
/// words under a run's title): name, parts per 100,000.
pub const MARKED_QUANTILES: [(&str, u32); 3] =
    [("median", 50_000), ("p90", 90_000), ("p99", 99_000)];

/// The signs that stand for a censored quantile where its words do not fit: it never ends, or
/// it falls past the cap.
const NEVER_SIGN: &str = "∞";
const ABOVE_CAP_SIGN: &str = "↑";

/// A censored quantile's sign (a quantile with rounds has none).
fn censored_sign(quantile: Quantile) -> Option<&'static str> {
    match quantile {
        Quantile::Rounds(_) => None,
        Quantile::AboveCap(_) => Some(ABOVE_CAP_SIGN),
        Quantile::Never => Some(NEVER_SIGN),
    }
}

/// Width and height of every figure, in SVG pixels.
pub const SIZE: (u32, u32) = (1100, 820);
/// The series colours, in order (colour-blind safe: Okabe and Ito's palette).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// The font of a label `px` pixels high: plotters writes sizes to SVG divided by 1.24 (its
/// estimate of a font's line height), so the size asked for is scaled up to match.
fn font(px: f64) -> plotters::style::FontDesc<'static> {
    plotters::style::FontDesc::new(
        plotters::style::FontFamily::SansSerif,
        px * 1.24,
        plotters::style::FontStyle::Normal,
    )
}

/// Fills the figure white and writes the title and the lines under it; returns the area left.
fn head<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    title: &str,
    lines: &[String],
) -> std::io::Result<DrawingArea<SVGBackend<'a>, Shift>> {
    root.fill(&WHITE).map_err(failed)?;
    let lines: Vec<String> = lines.iter().flat_map(|line| wrap(line)).collect();
    let height = 52 + 20 * lines.len() as i32;
    let (top, body) = root.split_vertically(height + 12);
    let bold = font(title_px(title)).style(FontStyle::Bold);
    top.draw(&Text::new(title, (30, 14), bold))
        .map_err(failed)?;
    for (i, line) in lines.iter().enumerate() {
        top.draw(&Text::new(fit(line), (30, 50 + 20 * i as i32), font(14.0)))
            .map_err(failed)?;
    }
    Ok(body)
}

/// The size of the title: 22 pixels, or less where a long one would run off the figure (a
/// sweep over three settings names them all), down to 14.
fn title_px(title: &str) -> f64 {
    // A bold letter is about 0.6 em wide; the title starts 30 pixels in.
    let room = f64::from(SIZE.0 - 30 - 20);
    (room / (0.6 * title.chars().count() as f64)).clamp(14.0, 22.0)
}

/// Characters of 14-pixel text that fit across the figure (an average sans-serif letter is
/// about 0.5 em wide).
const LINE_CHARS: usize = 148;

/// `line` in lines that fit across the figure, broken after a comma, semicolon or middle dot;
/// the last of at most `WRAPPED` lines cut with an ellipsis if it still runs off.
fn wrap(line: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = line;
    while rest.chars().count() > LINE_CHARS && lines.len() + 1 < WRAPPED {
        let fits: usize = rest
            .char_indices()
            .nth(LINE_CHARS)
            .map_or(rest.len(), |(i, _)| i);
        let Some(cut) = [", ", "; ", " · "]
            .iter()
            .filter_map(|sep| rest[..fits].rfind(sep).map(|i| i + sep.len()))
            .max()
        else {
            break;
        };
        lines.push(rest[..cut].trim_end().to_string());
        rest = &rest[cut..];
    }
    lines.push(fit(rest));
    lines
}

/// Lines a line of the head may take.
const WRAPPED: usize = 3;

/// `line`, cut with an ellipsis if it would run off the figure.
fn fit(line: &str) -> String {
    if line.chars().count() <= LINE_CHARS {
        return line.to_string();
    }
    let kept: String = line.chars().take(LINE_CHARS - 1).collect();
    format!("{kept}…")
}

/// Pixels left of a panel for its vertical axis: its description and tick labels of four
/// characters ("100%").
const Y_LABEL_AREA: u32 = 80;

/// A chart on `area` with room for its caption and axes, as every panel has them.
fn panel<'a, 'b, DB: DrawingBackend>(area: &'a DrawingArea<DB, Shift>) -> ChartBuilder<'a, 'b, DB> {
    panel_with(area, Y_LABEL_AREA)
}

/// [`panel`] with `y_label_area` pixels for the vertical axis, for longer tick labels.
fn panel_with<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    y_label_area: u32,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_left(20)
        .margin_right(40)
        .margin_top(PANEL_TOP + CAPTION_BAND)
        .x_label_area_size(55)
        .y_label_area_size(y_label_area);
    builder
}

/// Pixels above a panel's caption.
const PANEL_TOP: u32 = 10;
/// Pixels of a panel's caption band: the line of text and a gap under it that the top tick
/// label, which stands half above the plot, keeps clear of.
const CAPTION_BAND: u32 = 36;
/// The caption's size: 18 pixels, or less where a long caption would run wider than its plot.
const CAPTION_PX: f64 = 18.0;

/// Writes `caption` over the plot of `chart`, drawn on `area`: centred on the plot, not on the
/// panel (plotters' own caption centres on the panel, axes and all, so that a long caption ran
/// out past the plot's left edge), and as wide as the plot at most.
fn caption_over<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, Shift>,
    chart: &ChartContext<DB, CT>,
    caption: &str,
) -> std::io::Result<()> {
    let (x_range, _) = chart.plotting_area().get_pixel_range();
    let (left, _) = area.get_base_pixel();
    let px = caption_px(caption, f64::from(x_range.end - x_range.start));
    let middle = (x_range.start + x_range.end) / 2 - left;
    // A smaller caption keeps the 18-pixel one's baseline (SVG puts it 0.76 em under the top).
    let top = f64::from(PANEL_TOP) + 5.0 + 0.76 * (CAPTION_PX - px);
    let style = font(px)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    area.draw(&Text::new(caption, (middle, top.round() as i32), style))
        .map_err(failed)
}

/// The size of a caption over a plot `width` pixels wide: [`CAPTION_PX`], or less where the
/// caption would run wider (an average sans-serif letter is about 0.53 em wide), down to 14.
fn caption_px(caption: &str, width: f64) -> f64 {
    (width / (0.53 * caption.chars().count() as f64)).clamp(14.0, CAPTION_PX)
}

/// The plot's size in pixels inside a panel drawn on `area` (its axes and caption taken off),
/// measured on a scratch drawing of the same size, since a chart is laid out as it is built.
fn plot_size(area: &DrawingArea<SVGBackend, Shift>, y_labels: u32) -> std::io::Result<(f64, f64)> {
    let mut scratch = String::new();
    let root = SVGBackend::with_string(&mut scratch, area.dim_in_pixel()).into_drawing_area();
    let chart = panel_with(&root, y_labels)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)
        .map_err(failed)?;
    let (width, height) = chart.plotting_area().dim_in_pixel();
    Ok((f64::from(width), f64::from(height)))
}

/// The room for a vertical axis whose longest tick label has `chars` characters: 10 pixels a
/// character of the 15-pixel labels past four, so they never run into the axis' description.
fn y_label_area(chars: usize) -> u32 {
    Y_LABEL_AREA + 10 * chars.saturating_sub(4) as u32
}

/// A drawing failure, as text (plotters' errors carry the backend's).
fn failed(error: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("could not draw the plot: {error}"))
}

/// The rounds of a quantile over all games, when it falls on a finished game.
fn rounds_at(stats: &Stats, parts: u32) -> Option<u64> {
    stats.lengths().quantile(parts)?.rounds()
}

/// Draws a run panel's axes: rounds across, ticked on whole rounds with short labels, with the
/// vertical grid lines or not (`x_grid`); `y_desc` up, labelled by `y_label` or plotters'
/// default.
fn rounds_axes<Y>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, Y>>,
    (x_end, y_desc): (f64, &str),
    y_label: Option<&dyn Fn(&f64) -> String>,
    x_grid: bool,
) -> std::io::Result<()>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut mesh = chart.configure_mesh();
    if !x_grid {
        mesh.disable_x_mesh();
    }
    if let Some(label) = y_label {
        mesh.y_label_formatter(label);
    }
    mesh.x_desc("rounds")
        .y_desc(y_desc)
        .x_labels(round_ticks(x_end))
        .x_label_formatter(&short_label)
        .axis_desc_style(font(16.0))
        .label_style(font(15.0))
        .draw()
        .map_err(failed)
}

/// [`short`] as an axis' label.
fn short_label(value: &f64) -> String {
    short(*value)
}

/// Tick labels on an axis of rounds from 0 to `x_end`: ten, or fewer on a short axis, whose
/// ticks would otherwise fall between whole rounds.
fn round_ticks(x_end: f64) -> usize {
    (x_end.floor() as usize + 1).clamp(2, 10)
}

/// 1,234,567 → "1.2M", 12,345 → "12k": short tick labels.
fn short(value: f64) -> String {
    let a = value.abs();
    if a >= 1e6 {
        format!("{}M", trim(value / 1e6))
    } else if a >= 1e4 {
        format!("{}k", trim(value / 1e3))
    } else {
        trim(value)
    }
}

fn trim(value: f64) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_break_after_a_separator() {
        let rules = format!(
            "classic ({}war 1 down + 1 up, cap 100,000 rounds)",
            "x, ".repeat(60)
        );
        let lines = wrap(&rules);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].ends_with("x,") && lines[0].chars().count() <= LINE_CHARS);
        assert_eq!(lines.concat().replace(",x", ", x"), rules);
        assert_eq!(wrap("short"), ["short"]);
        // Nowhere to break: cut.
        let long = "y".repeat(200);
        assert_eq!(wrap(&long), [format!("{}…", "y".repeat(LINE_CHARS - 1))]);
    }

    #[test]
    fn a_long_title_shrinks_to_fit() {
        let run = "How long does War last? classic, 1,000,000 games";
        assert_eq!(title_px(run), 22.0);
        let sweep =
            "How long does War last? The median by players × pickup × spoils, 1,000 games a cell";
        let px = title_px(sweep);
        assert!(px < 22.0 && 0.6 * px * sweep.chars().count() as f64 <= 1050.0 + 1e-9);
        assert_eq!(title_px(&"x".repeat(500)), 14.0);
    }

    #[test]
    fn a_long_caption_shrinks_to_its_plot() {
        assert_eq!(
            caption_px("Game length: finished games, 1-round bars", 960.0),
            18.0
        );
        let survival = "Survival: share of all games still going after n rounds (capped and \
                        cycling games never end; shaded: 95% CI)";
        let px = caption_px(survival, 939.0);
        assert!(px < 18.0 && 0.53 * px * survival.chars().count() as f64 <= 939.0 + 1e-9);
        assert_eq!(caption_px(&"x".repeat(500), 939.0), 14.0);
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(short(0.0), "0");
        assert_eq!(short(250.0), "250");
        assert_eq!(short(1500.5), "1500.5");
        assert_eq!(short(12_000.0), "12k");
        assert_eq!(short(2_500_000.0), "2.5M");
    }
}
