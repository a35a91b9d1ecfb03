//! A sweep played in shards (`warsim sweep --shard K/N --state PATH`) and merged (`warsim
//! merge`): the tables, JSON and histograms of the single sweep but for how the runs went, and
//! the same per-game rows; a missing shard is refused or, with --allow-partial, marked
//! incomplete (a plot's title counting the games the cells hold); states of another sweep, or
//! of a run, are refused; a shard's report names its games among each cell's.

use std::path::Path;

use tempfile::TempDir;

use crate::common;

use common::{json, warsim};

/// Six cells (two more combinations cannot be played and are skipped), 2,001 games each.
const GRID: [&str; 13] = [
    "--players",
    "2,3",
    "--suits",
    "1,4",
    "--ranks",
    "1,13",
    "--skip-invalid",
    "--games",
    "2001",
    "--seed",
    "5",
    "-q",
    "--threads=2",
];

/// Plays shards `parts` of `count` of the grid into `dir` (state-K.json, games-K.csv).
fn play_shards(dir: &Path, parts: &[u64], count: u64) {
    for k in parts {
        warsim()
            .current_dir(dir)
            .arg("sweep")
            .args(GRID)
            .args(["--shard", &format!("{k}/{count}")])
            .args(["--state", &format!("state-{k}.json")])
            .args(["--games-csv", &format!("games-{k}.csv")])
            .assert()
            .success();
    }
}

/// The JSON without how the runs went (wall time, games/s, threads).
fn figures(path: &Path) -> serde_json::Value {
    let mut sweep = json(path);
    for cell in sweep["cells"].as_array_mut().unwrap() {
        let keys = cell.as_object_mut().unwrap();
        keys.retain(|k, _| !matches!(k.as_str(), "wall_seconds" | "games_per_second" | "threads"));
    }
    sweep
}

/// A CSV's rows without its header, sorted by their first and fifth columns (cell, game).
fn sorted_rows(texts: &[String]) -> Vec<String> {
    let mut rows: Vec<String> = texts
        .iter()
        .flat_map(|text| text.lines().skip(1).map(String::from))
        .collect();
    let key = |row: &String| {
        let fields: Vec<u64> = row.split(',').map(|f| f.parse().unwrap_or(0)).collect();
        (fields[0], fields[4])
    };
    rows.sort_by_key(key);
    rows
}

#[test]
fn a_sweeps_shards_merge_into_the_single_sweeps_tables_and_rows() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let outputs = |prefix: &str| {
        [
            ("--summary", format!("{prefix}cells.csv")),
            ("--seats", format!("{prefix}seats.csv")),
            ("--json", format!("{prefix}sweep.json")),
            ("--histogram", format!("{prefix}lengths.csv")),
        ]
        .into_iter()
        .flat_map(|(flag, path)| [flag.to_string(), path])
        .collect::<Vec<String>>()
    };
    warsim()
        .current_dir(d)
        .arg("sweep")
        .args(GRID)
        .args(outputs("whole-"))
        .args(["--games-csv", "whole-games.csv"])
        .assert()
        .success();
    play_shards(d, &[2, 0, 1], 3);
    warsim()
        .current_dir(d)
        .args(["merge", "state-1.json", "state-2.json", "state-0.json"])
        .args(outputs(""))
        .assert()
        .success();
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    assert_eq!(read("seats.csv"), read("whole-seats.csv"));
    assert_eq!(read("lengths.csv"), read("whole-lengths.csv"));
    let merged = figures(&d.join("sweep.json"));
    assert_eq!(merged, figures(&d.join("whole-sweep.json")));
    assert_eq!(merged["cells"].as_array().unwrap().len(), 6);
    assert_eq!(merged["skipped"].as_array().unwrap().len(), 2);
    assert_eq!(merged["complete"], true);
    // The cells table: the same but for its timing columns.
    let table = |name: &str| -> Vec<Vec<String>> {
        let text = read(name);
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let timing = |c: &&str| matches!(*c, "wall_seconds" | "games_per_second" | "threads");
        text.lines()
            .map(|line| {
                line.split(',')
                    .zip(&header)
                    .filter(|(_, c)| !timing(c))
                    .map(|(v, _)| v.to_string())
                    .collect()
            })
            .collect()
    };
    assert_eq!(table("cells.csv"), table("whole-cells.csv"));
    // The shards' rows are the single sweep's, cell by cell and game by game once sorted.
    let shards: Vec<String> = (0..3).map(|k| read(&format!("games-{k}.csv"))).collect();
    assert_eq!(
        sorted_rows(&shards),
        sorted_rows(&[read("whole-games.csv")])
    );
}

#[test]
fn a_missing_shard_is_refused_or_merged_as_incomplete() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    play_shards(d, &[0, 2], 3);
    let out = warsim()
        .current_dir(d)
        .args([
            "merge",
            "state-0.json",
            "state-2.json",
            "--json",
            "partial.json",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: the sweep's 6 cells are not all whole: cell 0 lacks 667 games (games 667 to 1,333); ")
            && err.contains("; and 3 more; merge every shard's state, or add --allow-partial"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert!(!d.join("partial.json").exists(), "nothing written");
    warsim()
        .current_dir(d)
        .args(["merge", "state-0.json", "state-2.json", "--allow-partial"])
        .args(["--json", "partial.json", "--plot", "partial.svg"])
        .assert()
        .success();
    // The plots' titles count the games the cells hold, not the 2,001 asked for.
    warsim()
        .current_dir(d)
        .arg("sweep")
        .args(GRID)
        .args(["--shard", "1/3", "--plot", "shard.svg"])
        .assert()
        .success();
    for (svg, games) in [
        ("partial.svg", "1,334 games a cell"),
        ("shard.svg", "667 games a cell (shard 1/3)"),
    ] {
        let title = &common::svg::svg_texts(&d.join(svg))[0];
        assert!(
            title.ends_with(&format!("players × suits × ranks, {games}")),
            "{title}"
        );
    }
    let partial = json(&d.join("partial.json"));
    assert_eq!(partial["complete"], false);
    for cell in partial["cells"].as_array().unwrap() {
        assert_eq!(
            (cell["games"].as_u64(), cell["complete"].as_bool()),
            (Some(1334), Some(false))
        );
    }
}

#[test]
fn states_of_another_sweep_or_of_a_run_are_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    play_shards(d, &[0, 1], 2);
    let other = dir.path().join("other.json");
    warsim()
        .current_dir(d)
        .arg("sweep")
        .args(GRID.map(|a| if a == "5" { "6" } else { a }))
        .args(["--shard", "1/2", "--state", "other.json"])
        .assert()
        .success();
    warsim()
        .current_dir(d)
        .args(["run", "--games", "10", "-q", "--state", "run.json"])
        .assert()
        .success();
    // A shard's state as another warsim would have written it.
    let this = format!("\"warsim_version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    let text = std::fs::read_to_string(d.join("state-1.json")).unwrap();
    let older = text.replace(&this, "\"warsim_version\": \"0.0.9\"");
    assert_ne!(older, text);
    std::fs::write(d.join("older.json"), older).unwrap();
    // A shard whose first cell's part wraps round past the last game.
    let part = "\"first_game\": 1000,";
    assert!(text.contains(part));
    let wraps = text.replacen(part, &format!("\"first_game\": {},", u64::MAX), 1);
    std::fs::write(d.join("wraps.json"), wraps).unwrap();
    for (states, needle) in [
        (
            &["state-0.json", "older.json"][..],
            "state-0.json and older.json are not shards of one sweep: their warsim versions differ",
        ),
        (
            &["state-0.json", "other.json"],
            "state-0.json and other.json are not shards of one sweep: their seeds differ",
        ),
        (
            &["state-0.json", "wraps.json"],
            "wraps.json: is damaged: its cells disagree with its grid",
        ),
        (
            &["run.json", "state-0.json"],
            "run.json is a run's state and state-0.json a sweep's",
        ),
        (
            &["state-0.json", "state-1.json", "run.json"],
            "run.json is a run's state and state-0.json a sweep's",
        ),
        // The outputs are checked, under merge's own flags, before any state is read (a
        // damaged one is found only by reading it).
        (
            &[
                "state-0.json",
                "state-1.json",
                "--summary",
                "out",
                "--json",
                "out",
            ],
            "--json out: is the file --summary writes too",
        ),
        (
            &["wraps.json", "--summary", "no-folder/out.csv"],
            "--summary no-folder/out.csv: folder 'no-folder' does not exist",
        ),
    ] {
        let out = warsim()
            .current_dir(d)
            .arg("merge")
            .args(states)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let out = warsim()
        .current_dir(d)
        .args(["merge", "run.json", "--seats", "seats.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: --seats is a sweep's"));
    assert!(other.exists() && !d.join("seats.csv").exists());
    // A run's plot's scale, given to a sweep's merge: refused, not ignored.
    let out = warsim()
        .current_dir(d)
        .args(["merge", "state-0.json", "state-1.json", "--plot", "p.svg"])
        .args(["--plot-scale", "linear"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: --plot-scale is a run's plot's"),
        "{err}"
    );
    assert!(!d.join("p.svg").exists());
}

#[test]
fn a_shards_report_names_its_games_among_each_cells() {
    for (games, shard, expected) in [
        (
            "1000",
            "1/4",
            "2 cells × 250 games (shard 1/4 of 1,000 games a cell: games 250 to 499)",
        ),
        // It read "of 1 a cell".
        (
            "1",
            "5/10",
            "2 cells × 0 games (shard 5/10 of 1 game a cell: no games)",
        ),
    ] {
        let dir = TempDir::new().unwrap();
        let out = warsim()
            .current_dir(dir.path())
            .args([
                "sweep",
                "--players",
                "2,3",
                "-q",
                "--games",
                games,
                "--shard",
                shard,
            ])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        let first = report.lines().next().unwrap_or_default();
        assert!(first.starts_with("sweep "), "{report}");
        assert!(first.contains(expected), "{first}");
    }
}
