//! A run's `--plot`: the rules in the title and the quantiles marked; where its games are few
//! rounds long, mostly never end, or none was played, the survival curve drawn as the step
//! function it is, its log axis ending under the games that never end, whole rounds on the
//! horizontal axes, marks of equal rounds labelled once, every label clear of the bars, the
//! curve and its band, the quantiles in words under the title, and a long rules line wrapped
//! rather than cut.

use crate::common;

use common::warsim;

use std::path::Path;

use common::svg::{
    has, marks_clear_of_the_bars, marks_clear_of_the_curve, points, svg_texts, x_ticks,
};
use tempfile::TempDir;

/// Runs `warsim run ARGS -q --plot SVG`.
fn plot(svg: &Path, args: &[&str]) {
    warsim()
        .arg("run")
        .args(args)
        .args(["-q", "--plot"])
        .arg(svg)
        .assert()
        .success();
}

/// The survival curve's points.
fn curve(svg: &Path) -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(svg).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    let line = document
        .root_element()
        .children()
        .find(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#D55E00"))
        .expect("a survival curve");
    points(&line)
}

/// The survival axis' labels, as percentages.
fn shares(texts: &[String]) -> Vec<f64> {
    texts
        .iter()
        .filter_map(|t| t.strip_suffix('%')?.parse().ok())
        .collect()
}

#[test]
fn games_of_a_few_rounds_plot_as_steps_between_whole_rounds() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("p.svg");
    // Four cards: games of 2, 4 or 6 rounds.
    plot(&svg, &["--suits", "1", "--ranks", "4", "--games", "10000"]);
    let steps = curve(&svg);
    assert!(steps.len() >= 6, "{steps:?}");
    for pair in steps.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        assert!(
            x0 == x1 || y0 == y1,
            "a slope from {:?} to {:?}",
            pair[0],
            pair[1]
        );
    }
    // p90 and p99 fall on 6 rounds: one label.
    assert_eq!(marks_clear_of_the_curve(&svg), 2);
    assert_eq!(marks_clear_of_the_bars(&svg), 2);
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "p90, p99 6"), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("seed 0 · median 4 · p90 6 · p99 6 · "))
    );
    // Two cards: every game lasts one round; the labels stand above the one full bar.
    plot(&svg, &["--suits", "1", "--ranks", "2", "--games", "100"]);
    assert_eq!(marks_clear_of_the_bars(&svg), 1);
    assert_eq!(marks_clear_of_the_curve(&svg), 1);
    let ticks = x_ticks(&svg);
    assert!(ticks.iter().all(|t| !t.contains('.')), "{ticks:?}");
    assert!(ticks.iter().filter(|t| *t == "1").count() == 2, "{ticks:?}");
    // Every match of fixed-rounds lasts 26 rounds.
    plot(&svg, &["--rules", "fixed-rounds", "--games", "1000"]);
    assert_eq!(marks_clear_of_the_bars(&svg), 1);
    assert_eq!(marks_clear_of_the_curve(&svg), 1);
    assert!(svg_texts(&svg).iter().any(|t| t == "median, p90, p99 26"));
}

#[test]
fn runs_whose_games_mostly_never_end_fill_the_survival_panel() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("p.svg");
    // With the seats' pickup about 82% of classic games loop: the axis ends under them.
    plot(&svg, &["--pickup", "seats", "--games", "20000"]);
    let texts = svg_texts(&svg);
    let lowest = shares(&texts).into_iter().fold(f64::INFINITY, f64::min);
    assert!(
        (50.0..80.0).contains(&lowest),
        "lowest label {lowest}%: {texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("median never · p90 never · p99 never · capped")),
        "{texts:?}"
    );
    // The curve runs down most of the panel, not along its top.
    let heights: Vec<f64> = curve(&svg).iter().map(|p| p.1).collect();
    let (top, bottom) = heights
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(t, b), &y| (t.min(y), b.max(y)));
    assert!(
        bottom - top > 80.0,
        "the curve spans {top} to {bottom} pixels"
    );
    // After the longest finished game the looping games' level runs on to the axis' end.
    let steps = curve(&svg);
    let (last, before) = (steps[steps.len() - 1], steps[steps.len() - 2]);
    assert!(
        last.1 == before.1 && last.0 - before.0 > 10.0,
        "{before:?} to {last:?}"
    );
    // A low cap: the median is marked, p90 and p99 said in words.
    plot(&svg, &["--max-rounds", "300", "--games", "20000"]);
    let texts = svg_texts(&svg);
    assert!(
        texts.iter().any(|t| t.contains(" · median 19")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains(" · p90 > 300 · p99 > 300 · "))
    );
    assert_eq!(marks_clear_of_the_curve(&svg), 1);
    // Classic's games all end: the axis reaches half a game's share, as before.
    plot(&svg, &["--games", "20000"]);
    let lowest = shares(&svg_texts(&svg))
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    assert_eq!(lowest, 0.01);
}

#[test]
fn a_long_rules_line_is_wrapped_under_the_title() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("p.svg");
    let args = [
        "--players",
        "32",
        "--suits",
        "32",
        "--ranks",
        "32",
        "--games",
        "40",
    ];
    plot(&svg, &args);
    let texts = svg_texts(&svg);
    assert!(texts.iter().all(|t| !t.ends_with('…')), "{texts:?}");
    let first = texts
        .iter()
        .position(|t| t.starts_with("classic (32 players"))
        .unwrap();
    assert!(texts[first].ends_with(','), "{:?}", texts[first]);
    assert!(
        texts[first + 1].contains("rounds → capped)"),
        "{:?}",
        texts[first + 1]
    );
}

#[test]
fn a_runs_plot_names_the_rules_and_marks_the_quantiles() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("run.svg");
    let out = warsim()
        .args([
            "run",
            "--games",
            "20000",
            "--seed",
            "4",
            "-q",
            "--summary",
            "-",
        ])
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success());
    let summary = String::from_utf8(out.stdout).unwrap();
    let mut lines = summary.lines();
    let (keys, values) = (lines.next().unwrap(), lines.next().unwrap());
    let figure = |key: &str| {
        let i = keys.split(',').position(|k| k == key).unwrap();
        values.split(',').nth(i).unwrap().to_string()
    };
    let texts = svg_texts(&svg);
    assert!(
        has(&texts, "How long does War last? classic, 20,000 games"),
        "{texts:?}"
    );
    assert!(
        has(&texts, "shortage lose, pickup table"),
        "the rules under the title"
    );
    for (label, key) in [
        ("median", "rounds_p50"),
        ("p90", "rounds_p90"),
        ("p99", "rounds_p99"),
    ] {
        let wanted = format!("{label} {}", figure(key));
        assert_eq!(
            texts.iter().filter(|t| **t == wanted).count(),
            2,
            "{wanted} on both panels"
        );
    }
    for axis in [
        "rounds",
        "share of all games (%)",
        "share still going (log scale)",
    ] {
        assert!(texts.iter().any(|t| t == axis), "{axis}");
    }
    // The survival curve's 95% band: one shaded polygon, said in the caption.
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with("never end; shaded: 95% CI)"))
    );
    let drawing = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(drawing.matches("<polygon opacity=\"0.25\"").count(), 1);
    assert_eq!(marks_clear_of_the_curve(&svg), 3);
    warsim()
        .args([
            "run",
            "--games",
            "2000",
            "-q",
            "--plot-scale",
            "linear",
            "--plot",
        ])
        .arg(&svg)
        .assert()
        .success();
    assert!(svg_texts(&svg).iter().any(|t| t == "share still going"));
    assert_eq!(marks_clear_of_the_curve(&svg), 3);
}

#[test]
fn a_plot_of_no_game_or_no_finished_game_says_which() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("p.svg");
    let texts = |args: &[&str]| {
        warsim()
            .args(args)
            .arg("--plot")
            .arg(&svg)
            .assert()
            .success();
        svg_texts(&svg)
    };
    // A shard that holds no game has no censored shares to show.
    let empty = texts(&["run", "--games", "3", "--shard", "0/5", "-q"]);
    assert!(
        has(&empty, "No game was played: nothing to draw."),
        "{empty:?}"
    );
    assert!(!empty.iter().any(|t| t.contains('%')), "{empty:?}");
    let capped = texts(&["run", "--games", "30", "--max-rounds", "3", "-q"]);
    assert!(
        has(&capped, "capped and cycling games have no length"),
        "{capped:?}"
    );
    assert!(has(&capped, "capped 100.00%"), "{capped:?}");
}

/// A plot of part of a batch says so in its title, as the report does: a shard's plot counted
/// its games as if they were the whole batch, and a partial merge's did not say games were
/// missing.
#[test]
fn a_plot_of_part_of_a_batch_says_which_part() {
    let dir = TempDir::new().unwrap();
    let path = |name: &str| dir.path().join(name);
    let title = |svg: &Path| {
        let texts = svg_texts(svg);
        let title = texts.iter().find(|t| t.starts_with("How long"));
        title
            .cloned()
            .unwrap_or_else(|| panic!("no title: {texts:?}"))
    };
    plot(&path("shard.svg"), &["--games", "2000", "--shard", "1/3"]);
    assert_eq!(
        title(&path("shard.svg")),
        "How long does War last? classic, 667 games (shard 1/3)"
    );
    for shard in ["0/3", "2/3"] {
        warsim()
            .args(["run", "--games", "2000", "-q", "--shard", shard, "--state"])
            .arg(path(&format!("{}.state", &shard[..1])))
            .assert()
            .success();
    }
    warsim()
        .arg("merge")
        .args([path("0.state"), path("2.state")])
        .args(["--allow-partial", "--plot"])
        .arg(path("merged.svg"))
        .assert()
        .success();
    assert_eq!(
        title(&path("merged.svg")),
        "How long does War last? classic, 1,333 of 2,000 games (incomplete)"
    );
    plot(&path("whole.svg"), &["--games", "2000"]);
    assert_eq!(
        title(&path("whole.svg")),
        "How long does War last? classic, 2,000 games"
    );
}

/// The histogram's bars end at the finished games' 99.9th percentile: its caption says how
/// many games lie past them (said always before, even when none did).
#[test]
fn the_histograms_caption_counts_the_games_past_its_bars() {
    let dir = TempDir::new().unwrap();
    let (svg, csv) = (dir.path().join("p.svg"), dir.path().join("h.csv"));
    let caption = |svg: &Path| {
        let texts = svg_texts(svg);
        texts
            .into_iter()
            .find(|t| t.starts_with("Game length:"))
            .unwrap()
    };
    plot(
        &svg,
        &["--games", "20000", "--histogram", csv.to_str().unwrap()],
    );
    let said = caption(&svg);
    let past: u64 = said
        .split("past ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("{said}"));
    let text = std::fs::read_to_string(&csv).unwrap();
    let hidden: u64 = (text.lines().skip(1))
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|fields| fields[0].parse::<u64>().unwrap() > past)
        .map(|fields| fields[1].parse::<u64>().unwrap())
        .sum();
    assert!(hidden > 0);
    let share = format!("{:.2}% of all games", 100.0 * hidden as f64 / 20000.0);
    assert!(said.contains(&share), "{said} ({hidden} games past {past})");
    // Every game of a fixed-rounds match lasts 26 rounds: all shown.
    plot(&svg, &["--rules", "fixed-rounds", "--games", "200"]);
    assert_eq!(caption(&svg), "Game length: finished games, 1-round bars");
}

/// Abandoned games (war-simulator-original's rules) never end, as capped and cycling ones: the
/// survival panel's caption says so where there are any.
#[test]
fn the_survival_caption_names_abandoned_games_where_there_are_some() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("p.svg");
    let survival = |args: &[&str]| {
        plot(&svg, args);
        (svg_texts(&svg).into_iter())
            .find(|t| t.starts_with("Survival:"))
            .unwrap()
    };
    let rules = ["--rules", "war-simulator-original", "--games", "2000"];
    let small = [
        &rules[..],
        &["--players", "4", "--suits", "2", "--ranks", "4"],
    ]
    .concat();
    assert!(survival(&small).contains("(capped, cycling, abandoned: never end;"));
    assert!(survival(&rules).contains("(capped and cycling games never end;"));
}
