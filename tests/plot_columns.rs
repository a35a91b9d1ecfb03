//! A sweep plot's columns when there are many of them or their values are names: numbers are
//! labelled at round intervals instead of running together, the censored quantiles' signs stand
//! in staggered rows, names keep every label (shrunk to fit) and are drawn as points apart,
//! without lines that would draw a trend between rule sets, a heatmap's rows have room for
//! their names, and an axis of unevenly spaced numbers says it is not to scale.

use crate::common;

use std::path::Path;

use common::svg::{apart, notes, number, plot_sweep, svg_texts, x_ticks};
use tempfile::TempDir;

/// The drawing's elements named `tag`.
fn elements<'a>(document: &'a roxmltree::Document, tag: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    (document.root_element().children())
        .filter(|n| n.has_tag_name(tag))
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn many_numbered_columns_are_labelled_at_round_intervals() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("ranks.svg");
    // 119 columns of about 8 pixels: labels of up to three digits would run together.
    plot_sweep(
        &svg,
        &["--suits", "1", "--ranks", "2..120", "--games", "100"],
    );
    let ticks = x_ticks(&svg);
    let expected: Vec<String> = (1..=24).map(|i| (5 * i).to_string()).collect();
    assert_eq!(ticks, expected);
    // Every odd deck's median never ends: one sign a column, in two staggered rows.
    let signs = notes(&svg);
    assert!(signs.len() >= 50, "{signs:?}");
    let rows: std::collections::BTreeSet<i64> = signs.iter().map(|n| n.2 as i64).collect();
    assert_eq!(rows.len(), 2, "{signs:?}");
    apart(&signs);
}

#[test]
fn named_columns_are_points_apart_with_every_label() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("pickup.svg");
    let pickups =
        "table,winner-first,loser-first,seats,reverse-seats,shuffled,natural,reversed,alternating";
    plot_sweep(&svg, &["--pickup", pickups, "--games", "300"]);
    let text = read(&svg);
    let document = roxmltree::Document::parse(&text).unwrap();
    // No median line runs from one pickup order to another: each thick path is one point.
    let thick: Vec<_> = elements(&document, "polyline")
        .into_iter()
        .filter(|n| n.attribute("stroke-width") == Some("3"))
        .collect();
    assert!(thick.len() >= 7, "{thick:?}");
    for path in thick {
        let xs: Vec<&str> = (path.attribute("points").unwrap().split_whitespace())
            .map(|p| p.split(',').next().unwrap())
            .collect();
        assert!(xs.windows(2).all(|w| w[0] == w[1]), "{xs:?}");
    }
    let texts = svg_texts(&svg);
    assert!(
        texts
            .iter()
            .any(|t| t
                .starts_with("Median game length (point), p10–p90 (bar) and p99 (×), in rounds")),
        "{texts:?}"
    );
    for name in pickups.split(',') {
        assert!(texts.iter().any(|t| t == name), "{name}: {texts:?}");
    }
}

#[test]
fn lines_of_named_columns_stand_side_by_side() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("lines.svg");
    plot_sweep(
        &svg,
        &[
            "--pickup",
            "table,natural,shuffled",
            "--players",
            "2..3",
            "--spoils",
            "under-pile,heap",
            "--games",
            "200",
        ],
    );
    let text = read(&svg);
    let document = roxmltree::Document::parse(&text).unwrap();
    // Four lines at three names: twelve points at twelve places across (and the legend's).
    let across: std::collections::BTreeSet<i64> = elements(&document, "circle")
        .iter()
        .map(|c| number(c, "cx") as i64)
        .collect();
    assert!(across.len() >= 12, "{across:?}");
}

#[test]
fn a_heatmaps_rows_have_room_for_their_names() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("rules.svg");
    plot_sweep(
        &svg,
        &[
            "--rules",
            "classic,war-simulator-original",
            "--players",
            "2..3",
            "--games",
            "100",
        ],
    );
    let text = read(&svg);
    let document = roxmltree::Document::parse(&text).unwrap();
    let name = elements(&document, "text")
        .into_iter()
        .find(|n| n.text().map(str::trim) == Some("war-simulator-original"))
        .unwrap();
    assert_eq!(name.attribute("text-anchor"), Some("end"));
    // Right-aligned at x: 22 characters of about 8.6 pixels at 15 px must start right of the
    // axis' own name (about 30 pixels in).
    let left = number(&name, "x") - 22.0 * 8.0 * 15.0 / 14.0;
    assert!(left >= 30.0, "the name starts at x = {left}");
}

#[test]
fn a_heatmap_of_many_columns_and_rows_labels_round_numbers() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("deck.svg");
    // 63 columns of about 15 pixels and 16 rows: every second rank is labelled.
    plot_sweep(
        &svg,
        &["--suits", "1..16", "--ranks", "2..64", "--games", "5"],
    );
    let text = read(&svg);
    let document = roxmltree::Document::parse(&text).unwrap();
    // The axes' labels are 15 pixels high; the cells' numbers are smaller in cells this size.
    let labels = |anchor: &str| -> Vec<String> {
        elements(&document, "text")
            .into_iter()
            .filter(|n| n.attribute("text-anchor") == Some(anchor))
            .filter(|n| (number(n, "font-size") - 15.0).abs() < 0.01)
            .filter_map(|n| Some(n.text()?.trim().to_string()))
            .filter(|t| t.parse::<u32>().is_ok())
            .collect()
    };
    let ranks: Vec<String> = (1..=32).map(|i| (2 * i).to_string()).collect();
    assert_eq!(labels("middle"), ranks);
    let suits: Vec<String> = (1..=16).map(|i| i.to_string()).collect();
    assert_eq!(labels("end"), suits);
}

#[test]
fn only_lines_with_notes_take_rows_of_notes() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("lines.svg");
    // Of four lines, the one-suit ones have medians that never end (odd decks loop): their
    // signs take two rows, one under the other, with no empty row for a line between them.
    plot_sweep(
        &svg,
        &[
            "--players",
            "2..3",
            "--suits",
            "1..2",
            "--ranks",
            "3..14",
            "--games",
            "300",
        ],
    );
    let rows: std::collections::BTreeSet<i64> = notes(&svg).iter().map(|n| n.2 as i64).collect();
    let rows: Vec<i64> = rows.into_iter().collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[1] - rows[0], 18, "{rows:?}");
}

/// Numbers not evenly spaced stand in evenly spaced columns like all values: the axis says it
/// is not to scale, where `100, 1000, 100000` read as a linear or a log axis. Evenly spaced
/// numbers, which columns do draw to scale, and names keep the bare setting.
#[test]
fn an_axis_of_unevenly_spaced_numbers_says_it_is_not_to_scale() {
    let dir = TempDir::new().unwrap();
    for (values, expected) in [
        (
            ["--max-rounds", "100,1000,100000"],
            "max rounds (evenly spaced, not to scale)",
        ),
        (
            ["--players", "2,3,4,8"],
            "players (evenly spaced, not to scale)",
        ),
        (["--players", "2,4,6"], "players"),
        (["--pickup", "table,seats,natural"], "pickup"),
    ] {
        let svg = dir.path().join("x.svg");
        plot_sweep(&svg, &[values[0], values[1], "--games", "50"]);
        let texts = svg_texts(&svg);
        let axis: Vec<&String> = texts
            .iter()
            .filter(|t| t.starts_with(&values[0][2..].replace('-', " ")))
            .collect();
        assert_eq!(axis, [expected], "{values:?}");
    }
}
