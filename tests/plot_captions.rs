//! A panel's caption stands centred over its plot, no wider than the plot and clear of the top
//! tick label, on a run's two panels and on a sweep's line and heatmap panels. plotters centres
//! a caption on the whole panel, axes and all: a long one (the survival curve's, the heatmap's)
//! ran out past the plot's left edge and down onto the "100%" label.

use crate::common;

use std::path::Path;

use common::svg::{number, plot_sweep, points};
use tempfile::TempDir;

/// A caption: its text, the middle of its line and its top, and its size, in pixels.
struct Caption {
    text: String,
    middle: f64,
    top: f64,
    px: f64,
}

/// The captions of the drawing at `path` (the texts that begin with one of `starts`), each with
/// the horizontal axis under it: its left and right ends and the top of its plot.
fn captions(path: &Path, starts: &[&str]) -> Vec<(Caption, (f64, f64, f64))> {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    let nodes: Vec<roxmltree::Node> = document.root_element().children().collect();
    // The axes' lines, black and whole: a horizontal axis and the vertical one from its left end.
    let lines: Vec<Vec<(f64, f64)>> = (nodes.iter())
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#000000"))
        .map(points)
        .collect();
    let axis_under = |top: f64| {
        let x_axis = (lines.iter())
            .filter(|p| p.len() == 2 && p[0].1 == p[1].1 && p[1].0 - p[0].0 > 300.0)
            .find(|p| p[0].1 > top)
            .unwrap_or_else(|| panic!("no axis under {top} in {path:?}"));
        let y_axis = (lines.iter())
            .filter(|p| p.len() == 2 && p[0].0 == p[1].0 && (p[0].0 - x_axis[0].0).abs() <= 1.5)
            .find(|p| (p[1].1 - x_axis[0].1).abs() <= 1.5)
            .unwrap_or_else(|| panic!("no vertical axis in {path:?}"));
        (x_axis[0].0, x_axis[1].0, y_axis[0].1)
    };
    (nodes.iter())
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text = n.text()?.trim().to_string();
            starts.iter().any(|s| text.starts_with(s)).then(|| Caption {
                middle: number(n, "x"),
                top: number(n, "y"),
                px: number(n, "font-size"),
                text,
            })
        })
        .map(|caption| {
            let axis = axis_under(caption.top);
            (caption, axis)
        })
        .collect()
}

/// Asserts that each caption of `path` is centred over its plot, fits across it (half an em a
/// character, as DejaVu Sans sets these captions) and ends above the top tick label's half that
/// stands over the plot (15-pixel labels).
fn over_their_plots(path: &Path, starts: &[&str]) {
    let found = captions(path, starts);
    assert_eq!(found.len(), starts.len(), "{path:?}");
    for (caption, (left, right, plot_top)) in found {
        let Caption {
            text,
            middle,
            top,
            px,
        } = caption;
        assert!(
            (middle - (left + right) / 2.0).abs() <= 1.0,
            "{text}: {middle} over {left}..{right}"
        );
        let width = 0.5 * px * text.chars().count() as f64;
        assert!(
            width <= right - left,
            "{text}: {width} px on {left}..{right}"
        );
        assert!(
            top + px <= plot_top - 7.5,
            "{text}: {top} + {px} over {plot_top}"
        );
        assert!((14.0..=18.0).contains(&px), "{text}: {px}");
    }
}

#[test]
fn a_runs_captions_stand_over_their_plots() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("run.svg");
    assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .args(["run", "-q", "--games", "20000", "--plot"])
        .arg(&svg)
        .assert()
        .success();
    // The survival caption, 108 characters, is wider than its plot at 18 pixels.
    over_their_plots(&svg, &["Game length:", "Survival:"]);
}

#[test]
fn a_sweeps_captions_stand_over_their_plots() {
    let dir = TempDir::new().unwrap();
    let lines = dir.path().join("lines.svg");
    plot_sweep(&lines, &["--players", "2..4", "--games", "300"]);
    over_their_plots(&lines, &["Median game length"]);
    // Two settings, a heatmap: its caption is 100 characters.
    let heatmap = dir.path().join("heatmap.svg");
    let args = [
        "--players",
        "2,3",
        "--max-rounds",
        "50,1000",
        "--games",
        "300",
    ];
    plot_sweep(&heatmap, &args);
    over_their_plots(&heatmap, &["Median game length"]);
}
