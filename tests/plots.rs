//! A sweep's `--plot`: the SVGs of sweeps over one, two and three settings are well-formed XML
//! and say what they should: the axes named, the legend clear of the data, the censored
//! quantiles noted in the form that fits, and in a heatmap every cell's median, equal to the
//! sweep table's. (A run's plot: `run_plots.rs`.)

use crate::common;

use common::warsim;

use std::path::Path;

use common::svg::{apart, has, notes, number, plot_sweep, points, svg_texts};
use tempfile::TempDir;

/// The bottom of a sweep plot's legend, after checking that nothing drawn before it (bands,
/// lines, points, the censored medians' notes) reaches above it: the legend hides no data.
fn data_under_the_legend(path: &Path) -> f64 {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    let nodes: Vec<_> = document.root_element().children().collect();
    let frame = legend_frame(&nodes);
    let bottom = number(&nodes[frame], "y") + number(&nodes[frame], "height");
    let coloured = |n: &&roxmltree::Node| {
        let paint = n
            .attribute("stroke")
            .or(n.attribute("fill"))
            .unwrap_or("none");
        !["none", "#000000", "#FFFFFF"].contains(&paint)
    };
    let mut tops = Vec::new();
    for node in nodes[..frame].iter().filter(coloured) {
        match node.tag_name().name() {
            "circle" => tops.push(number(node, "cy") - number(node, "r")),
            "text" => tops.push(number(node, "y")),
            "polyline" | "polygon" => tops.extend(points(node).into_iter().map(|(_, y)| y)),
            _ => {}
        }
    }
    assert!(tops.len() >= 5, "{tops:?}");
    let highest = tops.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        highest >= bottom,
        "{path:?}: data at y {highest}, legend down to {bottom}"
    );
    bottom
}

#[test]
fn a_heatmap_shows_every_cells_median() {
    let dir = TempDir::new().unwrap();
    let (svg, cells) = (dir.path().join("heat.svg"), dir.path().join("cells.csv"));
    warsim()
        .args([
            "sweep", "--suits", "1..3", "--ranks", "4..8..2", "--games", "3000", "-q",
        ])
        .arg("--plot")
        .arg(&svg)
        .arg("--csv")
        .arg(&cells)
        .assert()
        .success();
    let texts = svg_texts(&svg);
    let mut reader = csv::Reader::from_path(&cells).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (p50, cycle) = (column("rounds_p50"), column("cycle"));
    let mut shown = 0;
    for row in reader.records() {
        let row = row.unwrap();
        // A median among games that never end prints as "never".
        let wanted = match &row[p50] {
            "" => "never".to_string(),
            rounds => rounds.to_string(),
        };
        assert!(
            texts.contains(&wanted),
            "{wanted} in {texts:?} ({} cycles)",
            &row[cycle]
        );
        shown += 1;
    }
    assert_eq!(shown, 9);
    for axis in ["suits", "ranks"] {
        assert!(texts.iter().any(|t| t == axis), "{axis}");
    }
    // The rules written out are cell 0's, and the line says which settings the others change
    // (it read "other settings as in cell 0", naming cell 0's swept settings too).
    let said = texts.join(" ");
    assert!(
        said.contains("cell 0: classic (2 players, 1 suit × 4 ranks;"),
        "{said}"
    );
    assert!(
        said.contains("the other cells differ from it in suits and ranks alone"),
        "{said}"
    );
}

#[test]
fn a_wide_heatmaps_numbers_stay_in_their_cells() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("heat.svg");
    // 39 columns of one and two suits: odd decks of one suit have medians that never end.
    warsim()
        .args([
            "sweep", "--suits", "1..2", "--ranks", "2..40", "--games", "200", "-q",
        ])
        .arg("--plot")
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    // The cells' texts: centred on both axes, in a font size of their own.
    let cells: Vec<(String, f64, f64, f64)> = document
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("middle"))
        .filter(|n| n.attribute("dy") == Some("0.5ex"))
        .map(|n| {
            let words = n.text().unwrap_or("").trim().to_string();
            (
                words,
                number(&n, "x"),
                number(&n, "y"),
                number(&n, "font-size"),
            )
        })
        .collect();
    assert_eq!(cells.len(), 78, "{cells:?}");
    // Each text is narrower than the distance between two columns' centres (about 0.62 em a
    // character, 0.3 a point or comma).
    let column = (cells[1].1 - cells[0].1).abs();
    for (words, _, _, size) in &cells {
        let ems: f64 = words
            .chars()
            .map(|c| if ".,".contains(c) { 0.3 } else { 0.62 })
            .sum();
        assert!(
            ems * size < column - 2.0,
            "{words:?} at {size} px, columns {column} px apart"
        );
    }
    assert!(cells.iter().any(|c| c.0 == "∞"), "{cells:?}");
    assert!(
        svg_texts(&svg)
            .iter()
            .any(|t| t.ends_with("never ends, ∞, or passes the cap, ↑)"))
    );
}

/// Where the legend's frame (an unfilled black rectangle) is among the drawing's `nodes`.
fn legend_frame(nodes: &[roxmltree::Node]) -> usize {
    nodes
        .iter()
        .position(|n| {
            n.has_tag_name("rect")
                && n.attribute("fill") == Some("none")
                && n.attribute("stroke") == Some("#000000")
        })
        .expect("a legend")
}

/// The pieces of line (thin polylines) drawn inside the legend's frame, after it.
fn legend_dashes(path: &Path) -> usize {
    let svg = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&svg).unwrap();
    let nodes: Vec<_> = document.root_element().children().collect();
    let frame = legend_frame(&nodes);
    let (left, width) = (number(&nodes[frame], "x"), number(&nodes[frame], "width"));
    let inside = |&(x, _): &(f64, f64)| x >= left && x <= left + width;
    nodes[frame..]
        .iter()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("1"))
        .filter(|n| points(n).iter().all(inside))
        .count()
}

#[test]
fn sweeps_over_one_and_three_settings_draw_lines_with_a_legend() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("sweep.svg");
    plot_sweep(&svg, &["--players", "2..4", "--games", "2000"]);
    let texts = svg_texts(&svg);
    for label in ["median", "p10–p90", "p99", "players", "2", "3", "4"] {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    // The legend's p99 is dashed as its line is (it was drawn solid: one piece).
    assert_eq!(legend_dashes(&svg), 2);
    data_under_the_legend(&svg);
    // The longest games at the first value, where the legend stands.
    plot_sweep(&svg, &["--face-down", "0..4", "--games", "2000"]);
    data_under_the_legend(&svg);
    // Settings named in words, as their flags are, not by their table columns (`face_down`).
    let texts = svg_texts(&svg);
    assert!(
        has(&texts, "The median by face down, 2,000 games"),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t == "face down"), "{texts:?}");
    assert!(!has(&texts, "face_down"), "{texts:?}");
    plot_sweep(
        &svg,
        &[
            "--pickup",
            "table,shuffled",
            "--players",
            "2,3",
            "--ranks",
            "6..9",
            "--games",
            "500",
        ],
    );
    let texts = svg_texts(&svg);
    assert!(has(&texts, "players=3, pickup=shuffled"), "{texts:?}");
    assert!(
        texts
            .join(" ")
            .contains("differ from it in players, ranks and pickup alone"),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t == "ranks"),
        "the x axis is the setting with most values"
    );
    // A median among games that never end is said, not drawn.
    plot_sweep(
        &svg,
        &["--pickup", "table,seats,shuffled", "--games", "2000"],
    );
    let texts = svg_texts(&svg);
    assert_eq!(
        texts.iter().filter(|t| *t == "median never").count(),
        1,
        "{texts:?}"
    );
    data_under_the_legend(&svg);
    // Swept presets bring their own settings where none is given.
    plot_sweep(
        &svg,
        &["--rules", "classic,war-simulator", "--games", "200"],
    );
    assert!(
        svg_texts(&svg).join(" ").contains(
            "differ from it in rules, and take each preset's own value of a setting not given"
        ),
        "{:?}",
        svg_texts(&svg)
    );
    // Too many lines are refused before any game.
    warsim()
        .args([
            "sweep",
            "--players",
            "2..4",
            "--suits",
            "2..4",
            "--ranks",
            "6..8",
            "--plot",
        ])
        .arg(&svg)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("this sweep has 9"));
}

#[test]
fn notes_of_censored_quantiles_say_which_and_never_overlap() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("sweep.svg");
    // One suit: odd decks of 5 and 7 cards loop often enough that p90 never ends, where the
    // band breaks.
    plot_sweep(
        &svg,
        &["--suits", "1", "--ranks", "2..8", "--games", "2000"],
    );
    let said: Vec<String> = notes(&svg).into_iter().map(|n| n.0).collect();
    assert_eq!(said, ["p90 never", "p90 never"]);
    // 29 columns: the words would overlap, so every note is a sign over the quantile's short
    // name, the band's breaks (5 and 7 cards, p90) as the medians' (9 cards, p50).
    plot_sweep(
        &svg,
        &["--suits", "1", "--ranks", "2..30", "--games", "300"],
    );
    let named = notes(&svg);
    let (signs, names): (Vec<_>, Vec<_>) = named.iter().cloned().partition(|n| n.0 == "∞");
    assert!(signs.len() >= 8, "{named:?}");
    assert_eq!(signs.len(), names.len(), "{named:?}");
    for (sign, name) in signs.iter().zip(&names) {
        assert!(["p50", "p90", "p99"].contains(&name.0.as_str()), "{name:?}");
        assert!(
            sign.1 == name.1 && name.2 > sign.2,
            "{sign:?} over {name:?}"
        );
    }
    let first: Vec<&str> = names.iter().take(3).map(|n| n.0.as_str()).collect();
    assert_eq!(first, ["p90", "p90", "p50"], "{named:?}");
    apart(&named);
    let texts = svg_texts(&svg);
    assert!(
        texts.iter().any(|t| t.ends_with("(∞: never ends)")),
        "{texts:?}"
    );
    // 44 columns: no room for names either; the signs stand alone, the band's pale.
    plot_sweep(
        &svg,
        &["--suits", "1", "--ranks", "2..45", "--games", "300"],
    );
    let alone = notes(&svg);
    assert!(alone.iter().all(|n| n.0 == "∞"), "{alone:?}");
    let pale: Vec<bool> = alone.iter().take(3).map(|n| n.3).collect();
    assert_eq!(pale, [true, true, false], "{alone:?}");
    apart(&alone);
    let texts = svg_texts(&svg);
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with("(∞: never ends; pale: p90 or p99)")),
        "{texts:?}"
    );
}

/// A shard of fewer games than shards plays none: its sweep plot says so, as a run's does,
/// instead of empty axes (a lines plot) or cells (a heatmap).
#[test]
fn a_sweep_plot_of_no_games_says_nothing_was_played() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("none.svg");
    for swept in [
        &["--players", "2,3"][..],
        &["--players", "2,3", "--suits", "1,2"],
    ] {
        let args = [swept, &["--games", "2", "--shard", "0/4"]].concat();
        plot_sweep(&svg, &args);
        let texts = svg_texts(&svg);
        assert_eq!(
            texts.last().unwrap(),
            "No game was played: nothing to draw.",
            "{texts:?}"
        );
        assert!(
            texts[0].ends_with("0 games a cell (shard 0/4)"),
            "{texts:?}"
        );
    }
}
