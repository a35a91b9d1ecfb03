//! A sweep's figure has one column per value of the setting along x (and a heatmap one row per
//! value of the other), and a sweep may have a hundred values or more (`--ranks 2..120`): what
//! fits a column. Numbers are labelled at round intervals once every label no longer fits (5,
//! 10, 15, …), names shrink to fit (each needs its label), bars and points narrow with their
//! columns, and the signs of censored quantiles stand in staggered rows once they would touch.

use super::labels::text_width;

/// The size of the axis' labels, and the least they shrink to.
const LABEL_PX: f64 = 15.0;
const SMALLEST_LABEL_PX: f64 = 10.0;
/// Pixels kept between neighbouring labels or signs.
const GAP: f64 = 8.0;

/// Which values along an axis are labelled, and the labels' size in pixels.
pub(super) struct AxisLabels {
    pub shown: Vec<bool>,
    pub px: f64,
}

impl AxisLabels {
    /// The label of column `i`: its value, or nothing where it is not labelled.
    pub fn text(&self, values: &[String], i: i32) -> String {
        let i = i as usize;
        match self.shown.get(i) {
            Some(true) => values[i].clone(),
            _ => String::new(),
        }
    }
}

/// `values` as the numbers they are, or `None` where any is a name: numbers are ordered, and
/// labelled at round intervals; names have no order, and each needs its label.
pub(super) fn numbers(values: &[String]) -> Option<Vec<i64>> {
    values.iter().map(|v| v.parse().ok()).collect()
}

/// True for numbers not evenly spaced (`100, 1000, 100000`): drawn in evenly spaced columns, as
/// every sweep's values are, their axis is not to scale, and must say so.
pub(super) fn uneven(values: &[String]) -> bool {
    numbers(values).is_some_and(|n| common_step(&n).is_none())
}

/// The one difference between every two neighbouring `numbers`, if they have one (any number
/// does for fewer than two: `Some(0)`).
fn common_step(numbers: &[i64]) -> Option<i64> {
    let step = match numbers {
        [a, b, ..] => b - a,
        _ => return Some(0),
    };
    numbers
        .windows(2)
        .all(|w| w[1] - w[0] == step)
        .then_some(step)
}

/// The most characters in any of `values`.
pub(super) fn longest(values: &[String]) -> usize {
    values.iter().map(|v| v.chars().count()).max().unwrap_or(0)
}

/// The labels of `values` in columns `column_px` wide: every one where they fit; else numbers
/// thinned, and names (which all need their label) shrunk down to 10 pixels.
pub(super) fn axis_labels(values: &[String], column_px: f64) -> AxisLabels {
    // `text_width` measures 14-pixel text.
    let width = text_width(&"0".repeat(longest(values).max(1))) * LABEL_PX / 14.0;
    let every = ((width + GAP) / column_px).ceil();
    fitted(values, every, LABEL_PX * (column_px - GAP) / width)
}

/// The labels of `values` down a heatmap's side, in rows `row_px` high: every one where they
/// fit; else numbers thinned, and names shrunk down to 10 pixels.
pub(super) fn row_labels(values: &[String], row_px: f64) -> AxisLabels {
    fitted(values, ((LABEL_PX + 4.0) / row_px).ceil(), row_px - 2.0)
}

/// Numbers labelled at least `every` columns (or rows) apart; names all labelled, at
/// `name_px` pixels within the labels' bounds.
fn fitted(values: &[String], every: f64, name_px: f64) -> AxisLabels {
    match numbers(values) {
        Some(numbers) => AxisLabels {
            shown: thinned(&numbers, every.max(1.0) as i64),
            px: LABEL_PX,
        },
        None => AxisLabels {
            shown: vec![true; values.len()],
            px: name_px.clamp(SMALLEST_LABEL_PX, LABEL_PX),
        },
    }
}

/// Which of `numbers` to label so that labelled ones stand at least `every` columns apart:
/// with a constant step d, the multiples of d times the least of 1, 2, 5, 10, 20, 50, …
/// that is at least `every` (labels at 5, 10, 15 rather than 2, 7, 12); else every `every`-th.
fn thinned(numbers: &[i64], every: i64) -> Vec<bool> {
    if every <= 1 {
        return vec![true; numbers.len()];
    }
    if let Some(step) = common_step(numbers).filter(|&step| step > 0) {
        let round = (0..)
            .flat_map(|power| [1, 2, 5].map(|m| m * 10i64.pow(power)))
            .find(|&r| r >= every)
            .unwrap_or(every);
        let shown: Vec<bool> = (numbers.iter())
            .map(|v| v.rem_euclid(step.saturating_mul(round)) == 0)
            .collect();
        if shown.iter().filter(|&&s| s).count() >= 2 {
            return shown;
        }
    }
    (0..numbers.len() as i64).map(|i| i % every == 0).collect()
}

/// The width in pixels of a lone column's band (a bar), at most 16 and a little less than the
/// column, so that neighbouring bars stay apart.
pub(super) fn bar_px(column_px: f64) -> u32 {
    (column_px * 0.7).clamp(2.0, 16.0) as u32
}

/// The radius of a median's point and the half-width of a p99 cross, as large as before (4 and
/// 5 pixels) where the columns allow.
pub(super) fn point_px(column_px: f64) -> (u32, u32) {
    let fit = |most: f64| (column_px * 0.35).clamp(1.0, most) as u32;
    (fit(4.0), fit(5.0))
}

/// In how many staggered rows one-character signs stand so that neighbours in a row do not
/// touch: one where each column holds a sign, else enough that a row's signs are that far apart.
pub(super) fn sign_rows(column_px: f64) -> u32 {
    let needed = text_width("∞") + GAP;
    (needed / column_px.max(1.0)).ceil().max(1.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(range: std::ops::RangeInclusive<i64>) -> Vec<String> {
        range.map(|v| v.to_string()).collect()
    }

    fn labelled(labels: &AxisLabels, values: &[String]) -> Vec<String> {
        (0..values.len() as i32)
            .map(|i| labels.text(values, i))
            .filter(|t| !t.is_empty())
            .collect()
    }

    #[test]
    fn numbers_are_labelled_at_round_intervals_once_they_crowd() {
        let ranks = values(2..=30);
        // 33 pixels a column: every two-digit label fits (16 + 8 pixels at 14 px; 17 at 15).
        assert_eq!(labelled(&axis_labels(&ranks, 33.0), &ranks), ranks);
        // 8 pixels: every fifth, at the multiples of 5.
        let many = values(2..=120);
        let shown = labelled(&axis_labels(&many, 8.0), &many);
        assert_eq!(shown[..3], ["5", "10", "15"]);
        assert_eq!(shown.last().unwrap(), "120");
        // A step of 3 from 3: multiples of 3 × 5; from 2, no such multiples: every fifth.
        let threes: Vec<i64> = (1..=40).map(|i| 3 * i).collect();
        let shown = thinned(&threes, 4);
        assert!(shown[4] && shown[9] && !shown[0] && !shown[5], "{shown:?}");
        assert_eq!(
            thinned(&[2, 7, 12, 17, 22], 2),
            [true, false, true, false, true]
        );
        // Not evenly spaced: every `every`-th.
        assert_eq!(
            thinned(&[100, 1000, 10000, 100000], 2),
            [true, false, true, false]
        );
    }

    #[test]
    fn rows_are_labelled_as_their_height_allows() {
        let suits = values(1..=60);
        let rows = |px| labelled(&row_labels(&suits, px), &suits).len();
        assert_eq!(rows(19.0), 60);
        // 10 pixels a row: every second, the even numbers.
        assert_eq!(labelled(&row_labels(&suits, 10.0), &suits)[..2], ["2", "4"]);
        assert_eq!(rows(4.0), 12);
        let names: Vec<String> = ["classic", "cards-war"].map(String::from).to_vec();
        assert_eq!(row_labels(&names, 100.0).px, LABEL_PX);
        assert_eq!(row_labels(&names, 12.0).px, 10.0);
        assert_eq!(labelled(&row_labels(&names, 5.0), &names), names);
    }

    #[test]
    fn names_keep_every_label_and_shrink_to_fit() {
        let pickups: Vec<String> = ["table", "reverse-seats", "alternating"]
            .map(String::from)
            .to_vec();
        let wide = axis_labels(&pickups, 200.0);
        assert_eq!(wide.px, LABEL_PX);
        let narrow = axis_labels(&pickups, 90.0);
        assert!(narrow.px < LABEL_PX && narrow.px >= SMALLEST_LABEL_PX);
        assert!(text_width(&"0".repeat(13)) * narrow.px / 14.0 + GAP <= 90.0 + 1e-9);
        assert_eq!(labelled(&narrow, &pickups), pickups);
        assert_eq!(axis_labels(&pickups, 20.0).px, SMALLEST_LABEL_PX);
    }

    #[test]
    fn marks_narrow_with_their_columns() {
        assert_eq!(bar_px(100.0), 16);
        assert_eq!(bar_px(8.0), 5);
        assert_eq!(point_px(40.0), (4, 5));
        assert_eq!(point_px(8.0), (2, 2));
        assert_eq!(sign_rows(33.0), 1);
        assert_eq!(sign_rows(16.0), 1);
        assert_eq!(sign_rows(8.0), 2);
        assert_eq!(sign_rows(3.8), 5);
    }
}
