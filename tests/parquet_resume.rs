//! A run writing a Parquet file beside its state (`--checkpoint-every 0`), stopped by a signal,
//! goes on with that file: `warsim resume` (or `--continue`) keeps its row groups where they are
//! and writes the rest after them (the short last one again, whole), so the file ends holding
//! every game of the whole run, row for row, in its row groups, byte for byte, with the whole
//! run's summary in its footer. A resume killed outright (SIGKILL) leaves a file without its
//! footer and the tail saved beside it, which the next resume puts back. A sweep's goes on as
//! well. What cannot be continued is refused, both files left as they were: a Parquet file
//! that no longer holds the state's games (or other columns) or whose saved tail is not
//! warsim's.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::parquet::rows_as_csv;
use common::{refused, signal_in_once_written, size, until, warsim, within};
use parquet::file::reader::SerializedFileReader;
use tempfile::TempDir;

/// A run long enough to be stopped after its first row groups (of 262,144 games) and again
/// after more, on one thread so it stops where it is told.
const RUN: &str = "run --games 1500000 --threads 1 -q";
const BESIDE_STATE: &str = "--parquet games.parquet --csv games.csv --state s.state \
                            --checkpoint-every 0";

fn args(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// Stops `command` (run in `dir`) with `signal` once its Parquet file holds `bytes`; returns
/// what it said, checking its exit status.
fn stopped(dir: &Path, command: &str, signal: &str, bytes: u64) -> String {
    let parquet = dir.join("games.parquet");
    let out = signal_in_once_written(dir, signal, &args(command), &parquet, bytes);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let status = if signal == "-INT" { 130 } else { 143 };
    assert_eq!(out.status.code(), Some(status), "{said}");
    said
}

/// Plays `command` (whose per-game CSV is `csv_flag`) uninterrupted in `dir`
/// ([`common::parquet::played_whole`]), then with the per-game files and state `beside`,
/// stopped by SIGINT once its Parquet file has a row group, which says how to play on; returns
/// the command stopped.
fn stopped_beside_whole(dir: &Path, (command, csv_flag): (&str, &str), beside: &str) -> String {
    common::parquet::played_whole(dir, command, csv_flag);
    let command = format!("{command} {beside}");
    let said = stopped(dir, &command, "-INT", 100_000);
    assert!(
        said.ends_with(
            "; to play on: `warsim resume s.state`, or the same command with --continue\n"
        ),
        "{said}"
    );
    command
}

/// A folder holding a run of 10^9 games stopped by SIGINT once its Parquet file had a row
/// group: `games.parquet`, `games.csv` and `s.state`.
fn stopped_run() -> TempDir {
    let dir = TempDir::new().unwrap();
    let run = format!("run --games 1e9 --threads 1 -q {BESIDE_STATE}");
    stopped(dir.path(), &run, "-INT", 100_000);
    dir
}

/// Kills `warsim resume s.state` in `dir` (SIGKILL) once its Parquet file, which held `held`
/// bytes, has a row group more; checks that the file's tail was saved.
fn resume_killed(dir: &Path, held: u64) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .current_dir(dir)
        .args(["resume", "s.state"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    until("a row group more", || {
        size(&dir.join("games.parquet")) > held + 100_000
    });
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(dir.join("games.parquet.warsim-tail").exists());
}

#[test]
fn a_stopped_run_goes_on_with_its_parquet_file_even_after_a_killed_resume() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let command = stopped_beside_whole(d, (RUN, "--csv"), BESIDE_STATE);
    let held = size(&d.join("games.parquet"));

    // Killed once it wrote a row group more: the file has lost its footer, which is saved.
    resume_killed(d, held);
    let cut = std::fs::File::open(d.join("games.parquet")).unwrap();
    assert!(
        SerializedFileReader::new(cut).is_err(),
        "a footer after SIGKILL"
    );

    // The same command with --continue puts the footer back and plays every game.
    let out = warsim()
        .current_dir(d)
        .args(args(&format!("{command} --continue")))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(
            "s.state: the Parquet file games.parquet had lost its footer (the run writing it \
             was killed): it is back as the state counts it"
        ),
        "{said}"
    );
    assert!(!d.join("games.parquet.warsim-tail").exists());
    assert_eq!(rows_as_csv(&d.join("games.parquet")).0.len(), 1_500_000);
    common::parquet::same_as_whole(d);
}

#[test]
fn a_resumed_parquet_file_stopped_again_goes_on_again() {
    let dir = stopped_run();
    let d = dir.path();
    let first_state = std::fs::read(d.join("s.state")).unwrap();
    let held = size(&d.join("games.parquet"));
    let said = stopped(d, "resume s.state", "-TERM", held + 100_000);
    assert!(
        said.contains("; to play on: `warsim resume s.state`"),
        "{said}"
    );
    assert!(!d.join("games.parquet.warsim-tail").exists());
    // Each stop's file holds exactly the games the CSV beside it holds, in order.
    let (rows, _) = rows_as_csv(&d.join("games.parquet"));
    let text = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let csv: Vec<&str> = text.lines().skip(1).collect();
    assert!(rows.len() > 262_144 * 2, "{}", rows.len());
    assert!(rows == csv, "the CSV's games, in order");

    // A resume killed outright, then the first stop's state put back: the file gets its footer
    // back all the same (it is readable), and the state, which counts fewer games, is refused.
    resume_killed(d, size(&d.join("games.parquet")));
    std::fs::write(d.join("s.state"), first_state).unwrap();
    let resume = ["resume", "s.state"].map(String::from);
    let out = within(d, &resume, Duration::from_secs(60)).expect("resume refused at once");
    let err = refused(&out);
    let refusal = " games: its footer, lost when the run writing it was killed, was put back; \
                   play the run again from its start\n";
    assert!(
        err.starts_with("error: s.state: the Parquet file games.parquet holds "),
        "{err}"
    );
    assert!(
        err.contains(" games, and the state counts ") && err.ends_with(refusal),
        "{err}"
    );
    assert!(
        rows_as_csv(&d.join("games.parquet")).0 == csv,
        "readable, as it was"
    );
}

/// What `warsim resume s.state` in `dir` said, checking that it was refused at once and left
/// the Parquet file and the state as they were.
fn resume_refused(dir: &Path) -> String {
    let files = ["games.parquet", "s.state"].map(|name| dir.join(name));
    let before = files.clone().map(|path| std::fs::read(path).unwrap());
    let resume = ["resume", "s.state"].map(String::from);
    let out = within(dir, &resume, Duration::from_secs(60)).expect("resume refused at once");
    let err = refused(&out);
    let after = files.map(|path| std::fs::read(path).unwrap());
    assert!(
        before == after,
        "the Parquet file and the state are left as they were"
    );
    err
}

/// A sweep's too: its cells' games one after the other, each row led by its cell's settings.
#[test]
fn a_stopped_sweep_goes_on_with_its_parquet_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sweep = "sweep --players 2,3 --games 400000 --threads 1 -q";
    let beside = "--parquet games.parquet --games-csv games.csv --state s.state \
                  --checkpoint-every 0";
    let command = stopped_beside_whole(d, (sweep, "--games-csv"), beside);
    (warsim().current_dir(d))
        .args(args(&format!("{command} --continue")))
        .assert()
        .success();
    assert!(!d.join("games.parquet.warsim-tail").exists());
    common::parquet::same_as_whole(d);
}

#[test]
fn what_cannot_be_continued_is_refused_and_left_as_it_was() {
    // A run's Parquet file that holds other games than the state counts.
    let dir = stopped_run();
    let d = dir.path();
    let other = "run --games 1000 -q --parquet games.parquet";
    warsim().current_dir(d).args(args(other)).assert().success();
    let err = resume_refused(d);
    assert!(
        err.starts_with("error: s.state: the Parquet file games.parquet holds 1,000 games, and the state counts "),
        "{err}"
    );
    assert!(err.ends_with(": nothing was changed; play the run again from its start\n"));

    // A sweep's Parquet file replaced by a run's of as many games: its columns are not the
    // sweep's (its typed reader would have panicked).
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sweep = "sweep --players 2,3 --games 1e9 --threads 1 -q --parquet games.parquet \
                 --state s.state --checkpoint-every 0";
    stopped(d, sweep, "-INT", 100_000);
    let state = common::json(&d.join("s.state"));
    let cells = state["cells"].as_array().unwrap().iter();
    let rows: u64 = cells.map(|cell| cell["games"].as_u64().unwrap()).sum();
    let run = format!("run --games {rows} -q --parquet games.parquet");
    warsim().current_dir(d).args(args(&run)).assert().success();
    assert_eq!(
        resume_refused(d),
        "error: s.state: the Parquet file games.parquet holds other columns than warsim writes \
         for the state's games (cell, players, game, seed, rounds, winner, outcome, wars, \
         longest_war, decided_by, cards_played): nothing was changed; play the sweep again from \
         its start\n"
    );

    // A saved tail that is not warsim's: never put into the file, never removed.
    let dir = stopped_run();
    let d = dir.path();
    std::fs::write(d.join("games.parquet.warsim-tail"), "notes\n").unwrap();
    assert_eq!(
        resume_refused(d),
        "error: s.state: the Parquet file games.parquet has a saved tail, \
         games.parquet.warsim-tail: it is not a tail warsim saved: nothing was changed; move it \
         away, then resume again\n"
    );
    assert_eq!(
        std::fs::read(d.join("games.parquet.warsim-tail")).unwrap(),
        b"notes\n"
    );
}

#[test]
fn a_run_writing_the_parquet_file_afresh_removes_a_tail_saved_for_it() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let tail = d.join("games.parquet.warsim-tail");
    let mut saved = b"warsim parquet tail 2\n".to_vec();
    saved.extend([0; 16]);
    std::fs::write(&tail, &saved).unwrap();
    let run = "run --games 1000 -q --parquet games.parquet";
    warsim().current_dir(d).args(args(run)).assert().success();
    assert!(!tail.exists(), "the tail of a file emptied since");
    // Another program's file under that name stays.
    std::fs::write(&tail, "notes\n").unwrap();
    warsim().current_dir(d).args(args(run)).assert().success();
    assert!(tail.exists());
}
