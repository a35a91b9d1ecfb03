//! A per-game file removed while a run or sweep writes it (`rm games.csv`): its rows go with
//! it, so the run stops within a few MiB of rows (not hours later, with the disk still taken by
//! the removed file), says which file was removed and never that it holds the games, keeps the
//! other per-game file and the summaries for the games played, and exits 1; its state is not
//! resumed onto a file that lost its rows. A per-game file cut short while written (`: >
//! games.csv`), which warsim's next rows would follow after zeros, is found at the next
//! checkpoint or at the end, and said and refused the same way.

use crate::common;

use std::path::Path;

use common::{games_in_order, json, lost_while_written, size};
use tempfile::TempDir;
use warsim::export::text::group;

/// Starts `warsim ARGS` in `dir`, removes its file `removed` once it holds 1 MiB, and returns
/// what it said once it stopped (exit 1, within a minute: it does not play on).
fn removed_while_written(dir: &Path, args: &str, removed: &str) -> String {
    let path = dir.join(removed);
    let said = lost_while_written(dir, args, &path, || std::fs::remove_file(&path).unwrap());
    assert!(!path.exists(), "not made again");
    said
}

/// Starts `warsim ARGS` in `dir`, empties its file `cut` once it holds 1 MiB (as `: > games.csv`
/// does), and returns what it said once it stopped (exit 1, within a minute).
fn cut_while_written(dir: &Path, args: &str, cut: &str) -> String {
    let path = dir.join(cut);
    lost_while_written(dir, args, &path, || {
        std::fs::File::create(&path).unwrap();
    })
}

/// The last byte a message says was lost (`… the rows in its bytes 0 to 1,234 are lost`).
fn last_lost(said: &str) -> u64 {
    let (_, after) = said.split_once("the rows in its bytes 0 to ").expect(said);
    let last = after.split(' ').next().unwrap();
    last.replace(',', "").parse().unwrap()
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
    assert!(
        !said.contains("the per-game CSV (games.csv) holds"),
        "{said}"
    );
    assert!(
        said.contains("the tables describe every game before it"),
        "{said}"
    );
    let cells = json(&d.join("cells.json"));
    assert_eq!(cells["cells"][0]["complete"], false, "{cells}");
}

#[test]
fn a_csv_cut_short_is_found_at_the_end_and_the_parquet_file_and_summary_keep_every_game() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = cut_while_written(
        d,
        "run --games 3e6 --seed 5 --json summary.json --csv games.csv --parquet games.parquet \
         --quiet",
        "games.csv",
    );
    let cut = "error: could not write the per-game CSV to games.csv: it was cut short by another \
               program while warsim wrote it: the rows in its bytes 0 to ";
    assert!(said.starts_with(cut), "{said}");
    assert!(
        said.ends_with(
            " are lost; after every game was played (3,000,000 games): the Parquet file \
             (games.parquet) holds games 0 to 2,999,999; the summaries describe those games \
             (complete: true)"
        ),
        "{said}"
    );
    // Zeros up to where warsim wrote on, to the byte, its rows after them.
    let csv = std::fs::read(d.join("games.csv")).unwrap();
    let last = last_lost(&said) as usize;
    assert!(last >= 1 << 20 && last < csv.len(), "{said}");
    assert!(csv[..=last].iter().all(|&b| b == 0));
    assert_ne!(csv[last + 1], 0);
    assert!(csv[last + 1..].contains(&b'\n'));
    let summary = json(&d.join("summary.json"));
    assert_eq!(summary["games"], 3_000_000);
    assert_eq!(summary["complete"], true);
}

#[test]
fn a_parquet_file_cut_short_is_found_and_not_said_to_hold_the_games() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = cut_while_written(
        d,
        "run --games 3e6 --seed 5 --csv games.csv --parquet games.parquet --quiet",
        "games.parquet",
    );
    assert!(
        said.starts_with(
            "error: could not write the Parquet file to games.parquet: it was cut short by \
             another program while warsim wrote it: the rows in its bytes 0 to "
        ),
        "{said}"
    );
    assert!(
        !said.contains("the Parquet file (games.parquet) holds"),
        "{said}"
    );
    assert!(
        said.ends_with("the per-game CSV (games.csv) holds games 0 to 2,999,999 whole"),
        "{said}"
    );
}

#[test]
fn a_csv_cut_short_stops_the_run_at_its_next_checkpoint_and_is_not_resumed() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = cut_while_written(
        d,
        &format!("{RUN} --csv games.csv --state run.state --checkpoint-every 1s"),
        "games.csv",
    );
    let games = stopped_after(&said);
    assert!(
        said.contains(&format!(
            " are lost; stopped after {} games: the summaries describe those games (complete: \
             false)",
            group(games)
        )),
        "{said}"
    );
    let last = last_lost(&said);
    let before = size(&d.join("games.csv"));
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
            "error: run.state: the per-game CSV games.csv lost the rows in its bytes 0 to {} (cut \
             short by another program while written): nothing was changed; its games can only be \
             played again",
            group(last)
        )
    );
    assert_eq!(size(&d.join("games.csv")), before, "left alone");
}

#[test]
fn a_sweep_whose_csv_was_cut_short_says_so_after_every_game() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let said = cut_while_written(
        d,
        "sweep --players 2,3 --games 2e6 --games-csv games.csv --json cells.json --quiet",
        "games.csv",
    );
    assert!(
        said.starts_with(
            "error: could not write the per-game CSV to games.csv: it was cut short by another \
             program while warsim wrote it: the rows in its bytes 0 to "
        ),
        "{said}"
    );
    assert!(
        said.ends_with(
            " are lost; after every game was played (4,000,000 games): the tables describe every \
             game"
        ),
        "{said}"
    );
    let cells = json(&d.join("cells.json"));
    assert_eq!(cells["complete"], true, "{cells}");
}
