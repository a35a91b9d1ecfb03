//! A per-game file removed while a run or sweep writes it (`rm games.csv`): its rows go with
//! it, so the run stops within a few MiB of rows (not hours later, with the disk still taken by
//! the removed file), says which file was removed and never that it holds the games, keeps the
//! other per-game file and the summaries for the games played, and exits 1; its state is not
//! resumed onto a file that lost its rows.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{exits_within, games_in_order, json, said, size, start_in, until};
use tempfile::TempDir;
use warsim::export::text::group;

/// Starts `warsim ARGS` in `dir`, removes its file `removed` once it holds 1 MiB, and returns
/// what it said once it stopped (exit 1, within a minute: it does not play on).
fn removed_while_written(dir: &Path, args: &str, removed: &str) -> String {
    let mut child = start_in(dir, args);
    let path = dir.join(removed);
    until("1 MiB of rows", || size(&path) >= 1 << 20);
    std::fs::remove_file(&path).unwrap();
    let status = exits_within(&mut child, Duration::from_secs(60), "it played on");
    let said = said(dir);
    assert_eq!(status.code(), Some(1), "{said}");
    assert!(!path.exists(), "not made again");
    // Its last line: a disk too small for the whole batch is warned of first.
    said.lines().last().unwrap().to_string()
}

/// The games a run said it stopped after (`stopped after 1,234 games:`).
fn stopped_after(said: &str) -> u64 {
    let (_, after) = said.split_once("stopped after ").expect(said);
    let count = after.split(' ').next().unwrap();
    count.replace(',', "").parse().unwrap()
}

const RUN: &str = "run --games 1e9 --seed 5 --json summary.json --quiet";

#[test]
fn a_csv_removed_stops_the_run_and_the_parquet_file_and_summary_keep_its_games() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = removed_while_written(
        d,
        &format!("{RUN} --csv games.csv --parquet games.parquet"),
        "games.csv",
    );
    assert!(
        said.starts_with(
            "error: could not write the per-game CSV to games.csv: it was removed while warsim \
             wrote it, its rows with it; stopped after "
        ),
        "{said}"
    );
    assert!(
        !said.contains("the per-game CSV (games.csv) holds"),
        "{said}"
    );
    let games = stopped_after(&said);
    let last = group(games - 1);
    assert!(
        said.contains(&format!(
            "the Parquet file (games.parquet) holds games 0 to {last};"
        )),
        "{said}"
    );
    let (rows, _) = common::parquet::rows_as_csv(&d.join("games.parquet"));
    assert_eq!(rows.len() as u64, games);
    let summary = json(&d.join("summary.json"));
    assert_eq!(summary["games"], games);
    assert_eq!(summary["complete"], false);
}

#[test]
fn a_parquet_file_removed_stops_the_run_and_the_csv_keeps_its_games() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = removed_while_written(
        d,
        &format!("{RUN} --csv games.csv --parquet games.parquet"),
        "games.parquet",
    );
    assert!(
        said.starts_with(
            "error: could not write the Parquet file to games.parquet: it was removed while \
             warsim wrote it, its rows with it; stopped after "
        ),
        "{said}"
    );
    assert!(!said.contains("the Parquet file (games.parquet)"), "{said}");
    let games = stopped_after(&said);
    let last = group(games - 1);
    assert!(
        said.contains(&format!(
            "the per-game CSV (games.csv) holds games 0 to {last} whole;"
        )),
        "{said}"
    );
    games_in_order(&d.join("games.csv"));
    let rows = std::fs::read_to_string(d.join("games.csv")).unwrap();
    assert_eq!(rows.lines().count() as u64, games + 1);
    assert_eq!(json(&d.join("summary.json"))["games"], games);
}

#[test]
fn a_run_whose_csv_was_removed_is_not_resumed_onto_a_new_one() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = removed_while_written(
        d,
        &format!("{RUN} --csv games.csv --state run.state"),
        "games.csv",
    );
    let games = stopped_after(&said);
    // A file of that name made again holds none of the games the state counts.
    std::fs::write(d.join("games.csv"), "").unwrap();
    let out = assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .current_dir(d)
        .args(["resume", "run.state"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: run.state: the per-game CSV games.csv held none of the state's {} games when \
             the state was written (it was removed while written): nothing was changed; its \
             games can only be played again",
            group(games)
        )
    );
    assert_eq!(size(&d.join("games.csv")), 0, "left alone");
}

#[test]
fn a_sweep_whose_per_game_csv_was_removed_stops_and_says_so() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = removed_while_written(
        d,
        "sweep --players 2,3 --games 1e8 --games-csv games.csv --json cells.json --quiet",
        "games.csv",
    );
    assert!(
        said.starts_with(
            "error: could not write the per-game CSV to games.csv: it was removed while warsim \
             wrote it, its rows with it; stopped in cell 0 of cells 0 to 1 after "
        ),
        "{said}"
    );
    assert!(!said.contains("the per-game CSV holds"), "{said}");
    assert!(
        said.contains("the tables describe every game before it"),
        "{said}"
    );
    let cells = json(&d.join("cells.json"));
    assert_eq!(cells["cells"][0]["complete"], false, "{cells}");
}
