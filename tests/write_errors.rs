//! Write errors as a user meets them: a full disk keeps every finished game on a whole row and
//! says how many, and every output that could not be written, a checkpoint included, is named.

mod common;

use std::fs;
use std::process::Command;

use common::json;
use tempfile::TempDir;

fn warsim() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The error lines of a run that failed (exit status 1), `count` of them, and stderr whole.
fn failure_lines(out: &std::process::Output, count: usize) -> (Vec<String>, String) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let lines: Vec<String> = err.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), count, "one line per output that failed: {err}");
    (lines, err)
}

#[test]
fn a_full_disk_keeps_whole_rows_and_says_how_many() {
    let dir = TempDir::new().unwrap();
    let args = "run --games 1e6 -q --csv games.csv --json summary.json";
    let out = common::with_full_disk_at(1024, dir.path(), args);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let csv = fs::read(dir.path().join("games.csv")).unwrap();
    assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
    let rows = csv.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
    let said: u64 = err
        .split("stopped after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(said, rows);
    let summary = json(&dir.path().join("summary.json"));
    assert_eq!(
        (summary["games"].as_u64(), summary["complete"].as_bool()),
        (Some(rows), Some(false))
    );
}

#[test]
fn a_failed_checkpoint_names_the_state_file_and_every_output_that_failed() {
    let dir = TempDir::new().unwrap();
    // The state's first checkpoint comes with the first games written, and fails on a full disk.
    let out = warsim()
        .args([
            "run",
            "--games",
            "1e6",
            "-q",
            "--csv",
            "games.csv",
            "--histogram",
        ])
        .args(["lengths.csv", "--state", "/dev/full", "--json", "/dev/full"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let (lines, err) = failure_lines(&out, 3);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("error: could not write "))
    );
    assert!(
        lines[0].contains("a checkpoint (the state file) to /dev/full: No space left")
            && lines[0].contains("the per-game CSV (games.csv) holds"),
        "{err}"
    );
    assert!(lines[1].contains("the summary JSON to /dev/full"), "{err}");
    // The JSON that could not be written is not said to describe the games; the histogram is.
    assert!(!lines[0].contains("summar"), "{err}");
    assert!(
        lines[0].ends_with("the histograms count those games"),
        "{err}"
    );
    assert!(lines[2].contains("the state file to /dev/full"), "{err}");
    // What was said to be kept was kept: the CSV's rows, and the histogram counts them.
    let rows = fs::read_to_string(dir.path().join("games.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    let said = lines[0].split("stopped after ").nth(1).unwrap();
    assert!(
        said.starts_with(&format!("{} game", rows)),
        "{rows} rows: {err}"
    );
    let histogram = fs::read_to_string(dir.path().join("lengths.csv")).unwrap();
    let counted: usize = histogram
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(1).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, rows);
}

#[test]
fn a_sweep_stopped_by_a_write_error_says_only_what_it_kept() {
    let dir = TempDir::new().unwrap();
    let out = warsim()
        .args(["sweep", "--suits", "4,8", "--games", "1000", "-q"])
        .args([
            "--games-csv",
            "/dev/full",
            "--summary",
            "cells.csv",
            "--json",
            "/dev/full",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let (lines, err) = failure_lines(&out, 2);
    assert!(
        lines[0].starts_with("error: could not write the per-game CSV"),
        "{err}"
    );
    assert!(
        lines[0].ends_with("the other files written describe every game before it"),
        "not the tables, whose JSON failed: {err}"
    );
    assert!(lines[1].contains("the sweep JSON to /dev/full"), "{err}");
    assert!(dir.path().join("cells.csv").exists());
}
