//! SIGUSR1 asks a run or sweep for a checkpoint now, and it plays on (SIGUSR1's default action
//! would end it at once): what Slurm's `--signal=USR1@120` sends before a time limit. The
//! checkpoint holds every game the per-game CSV held when the signal came; a job that keeps no
//! checkpoints (no state file; a merge, a listing of games) says so and plays on. (An
//! enumeration's checkpoints: `enumerate_checkpoints.rs`.)

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::EndsWithTest;
use common::{said, size, start_in as start, until};
use tempfile::TempDir;
use warsim::export::text::group;

/// Sends SIGUSR1 once the CSV has grown past `rows_bytes`; waits for `note` on standard error;
/// returns how big the CSV was when the signal went.
fn ask_once_written(child: &Child, dir: &Path, rows_bytes: u64, note: &str) -> u64 {
    let csv = dir.join("games.csv");
    until("rows", || size(&csv) > rows_bytes);
    let sent_at = size(&csv);
    common::send("-USR1", child.id());
    until(&format!("{note:?} after SIGUSR1"), || {
        said(dir).contains(note)
    });
    sent_at
}

/// Stops the run with SIGTERM, as a time limit would, once it has shown it played on after the
/// request (20 MB more rows); checks that it ended as one stopped so.
fn plays_on_then_stops(mut child: Child, dir: &Path) {
    let csv = dir.join("games.csv");
    let asked_at = size(&csv);
    until("rows after SIGUSR1", || size(&csv) > asked_at + 20_000_000);
    assert!(child.try_wait().unwrap().is_none(), "{}", said(dir));
    common::send("-TERM", child.id());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{}", said(dir));
    assert!(said(dir).contains(" (SIGTERM)"), "{}", said(dir));
}

/// Checks that a checkpoint of `games` games, asked for when the per-game CSV held `sent_at`
/// bytes, counts its first `csv_bytes`: every row written before it was asked for, and exactly
/// `games` whole rows below the header.
fn holds_every_row_written(dir: &Path, (games, csv_bytes): (u64, u64), sent_at: u64) {
    assert!(
        csv_bytes >= sent_at,
        "the checkpoint holds {csv_bytes} bytes of rows, not all the {sent_at} written before \
         it was asked for"
    );
    let rows = fs::read(dir.join("games.csv")).unwrap()[..csv_bytes as usize].to_vec();
    let lines = rows.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!((lines, rows.last()), (games + 1, Some(&b'\n')));
}

/// A count in a state file.
fn count(value: &serde_json::Value) -> u64 {
    value.as_u64().unwrap()
}

#[test]
fn a_run_asked_for_a_checkpoint_writes_one_at_once_and_plays_on() {
    let dir = TempDir::new().unwrap();
    let state = dir.path().join("run.state");
    // An hour apart: the only checkpoint after the first is the one asked for.
    let args = "run --games 1e12 -q --csv games.csv --state run.state --checkpoint-every 1h";
    let child = start(dir.path(), args);
    until("the first checkpoint", || state.exists());
    let sent_at = ask_once_written(&child, dir.path(), 5_000_000, "checkpoint written as asked");
    let run = common::json(&state);
    let games = count(&run["games"]);
    holds_every_row_written(
        dir.path(),
        (games, count(&run["resume"]["csv_bytes"])),
        sent_at,
    );
    let note = format!(
        "warsim: checkpoint written as asked (SIGUSR1): run.state holds games 0 to {} of \
         1,000,000,000,000\n",
        group(games - 1)
    );
    assert!(said(dir.path()).contains(&note), "{}", said(dir.path()));
    plays_on_then_stops(child, dir.path());
}

#[test]
fn a_sweep_asked_for_a_checkpoint_names_its_cell() {
    let dir = TempDir::new().unwrap();
    let state = dir.path().join("sweep.state");
    let args = "sweep --players 2..3 --games 1e12 -q --games-csv games.csv --state sweep.state \
                --checkpoint-every 1h";
    let child = start(dir.path(), args);
    until("the first checkpoint", || state.exists());
    let sent_at = ask_once_written(&child, dir.path(), 5_000_000, "checkpoint written as asked");
    let sweep = common::json(&state);
    let games = count(&sweep["cells"][0]["games"]);
    holds_every_row_written(
        dir.path(),
        (games, count(&sweep["resume"]["csv_bytes"])),
        sent_at,
    );
    let note = format!(
        "sweep.state holds games 0 to {} of cell 0 of cells 0 to 1\n",
        group(games - 1)
    );
    assert!(said(dir.path()).contains(&note), "{}", said(dir.path()));
    plays_on_then_stops(child, dir.path());
}

#[test]
fn a_run_that_keeps_no_checkpoints_says_so_and_plays_on() {
    for args in [
        "run --games 1e12 -q --csv games.csv",
        "run --games 1e12 -q --csv games.csv --state run.state --checkpoint-every 0",
    ] {
        let dir = TempDir::new().unwrap();
        let child = start(dir.path(), args);
        let note = "warsim: SIGUSR1 asks for a checkpoint, but this job keeps none (only a --state \
                    file, with --checkpoint-every above 0, keeps them); it plays on\n";
        ask_once_written(&child, dir.path(), 1_000_000, note);
        plays_on_then_stops(child, dir.path());
    }
}

#[test]
fn an_enumeration_without_a_state_says_it_keeps_no_checkpoints_and_plays_on() {
    let dir = TempDir::new().unwrap();
    // 63,063,000 deals: far more than the test's seconds play.
    let mut child = start(dir.path(), "enumerate --suits 4 --ranks 4 -q --threads 1");
    common::until_it_catches(child.id(), libc::SIGUSR1);
    common::send("-USR1", child.id());
    let note = "warsim: SIGUSR1 asks for a checkpoint, but this job keeps none (only a --state \
                file, with --checkpoint-every above 0, keeps them); it plays on\n";
    until("the note", || said(dir.path()).contains(note));
    assert!(child.try_wait().unwrap().is_none(), "{}", said(dir.path()));
    common::send("-TERM", child.id());
    assert_eq!(
        child.wait().unwrap().code(),
        Some(143),
        "{}",
        said(dir.path())
    );
}

#[test]
fn merge_and_play_say_they_keep_no_checkpoints_and_play_on() {
    use std::io::Write;
    let note = "warsim: SIGUSR1 asks for a checkpoint, but warsim merge and warsim play keep \
                none; it plays on\n";
    // A listing of games goes on, and stops on SIGTERM as ever.
    let dir = TempDir::new().unwrap();
    let mut child = start(dir.path(), "play --range 1-1000000000");
    common::until_it_catches(child.id(), libc::SIGUSR1);
    common::send("-USR1", child.id());
    until("the note", || said(dir.path()).contains(note));
    assert!(child.try_wait().unwrap().is_none(), "{}", said(dir.path()));
    common::send("-TERM", child.id());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    // A merge waiting for its list of states goes on, and merges them once they come.
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let shard = "run --games 1000 -q --state s.json";
    let made = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(shard.split(' '))
        .current_dir(d)
        .output()
        .unwrap();
    assert!(made.status.success());
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["merge", "--states-from", "-", "--json", "m.json", "-q"])
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(fs::File::create(d.join("said.txt")).unwrap())
        .ends_with_test()
        .spawn()
        .unwrap();
    common::until_it_catches(child.id(), libc::SIGUSR1);
    common::send("-USR1", child.id());
    until("the note", || said(d).contains(note));
    let mut list = child.stdin.take().unwrap();
    list.write_all(b"s.json\n").unwrap();
    drop(list);
    assert!(child.wait().unwrap().success(), "{}", said(d));
    assert_eq!(common::json(&d.join("m.json"))["games"], 1000);
}
