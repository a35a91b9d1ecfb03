//! A run writing a Parquet file beside its state checkpoints it: at each checkpoint the file is
//! ended with a footer before the state that counts its games is written, then written on, the
//! checkpoint's tail saved beside it. Killed outright (SIGKILL) between checkpoints, the run
//! leaves a file without a footer and that tail: `warsim resume` puts it back and goes on, and
//! the file ends as an uninterrupted run's, its row groups byte for byte; a sweep's too, its
//! cells' settings leading each row. A Parquet file that cannot be read back (on standard
//! output, a pipe, a device) still takes no checkpoints.

use crate::common;

use std::process::{Command, Stdio};

use common::parquet::rows_as_csv;
use common::{size, until, warsim};
use tempfile::TempDir;

const RUN: &str = "run --games 1500000 --threads 1 -q";

fn args(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// `command` started in `dir`, saying nothing.
fn spawned(dir: &std::path::Path, command: &str) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .current_dir(dir)
        .args(args(command))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Resumes `s.state` in `dir` to its end: its files are those played whole
/// ([`common::parquet::same_as_whole`]), and no tail is left; returns what it said.
fn resumed_as_whole(dir: &std::path::Path) -> String {
    let out = warsim()
        .current_dir(dir)
        .args(["resume", "s.state"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    assert!(!dir.join("games.parquet.warsim-tail").exists());
    common::parquet::same_as_whole(dir);
    said
}

#[test]
fn a_run_killed_between_checkpoints_goes_on_with_its_parquet_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    common::parquet::played_whole(d, RUN, "--csv");
    // Not stopped: the file ends with its footer, and no tail is left beside it.
    let sealed = format!("{RUN} --parquet sealed.parquet --state t.state --checkpoint-every 20ms");
    warsim()
        .current_dir(d)
        .args(args(&sealed))
        .assert()
        .success();
    assert!(!d.join("sealed.parquet.warsim-tail").exists());
    let rows = rows_as_csv(&d.join("sealed.parquet"));
    assert!(
        rows == rows_as_csv(&d.join("whole.parquet")),
        "the whole run's rows"
    );

    let command = format!(
        "{RUN} --parquet games.parquet --csv games.csv --state s.state --checkpoint-every 20ms"
    );
    let mut child = spawned(d, &command);
    // Past two row groups (about 3 MB each), many checkpoints after the first.
    until("two row groups", || {
        size(&d.join("games.parquet")) > 7_000_000
    });
    child.kill().unwrap();
    child.wait().unwrap();
    let state = std::fs::read_to_string(d.join("s.state")).unwrap();
    assert!(
        !state.contains("\"complete\": true"),
        "killed before its end"
    );

    let said = resumed_as_whole(d);
    assert!(said.contains("s.state: resuming after "), "{said}");
}

const SWEEP: &str = "sweep --players 2,3,4,5 --games 150000 --threads 1 -q";

/// The same of a sweep, its cells' games one after the other in the file: killed once its
/// state counts games of cell 2 (the row group being gathered then begins in cell 1), resumed,
/// it ends as the sweep uninterrupted, each row with its cell's settings.
#[test]
fn a_sweep_killed_between_checkpoints_goes_on_with_its_parquet_file() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    common::parquet::played_whole(d, SWEEP, "--games-csv");
    let command = format!(
        "{SWEEP} --parquet games.parquet --games-csv games.csv --state s.state \
         --checkpoint-every 20ms"
    );
    let mut child = spawned(d, &command);
    // Rows 262,144 to 524,287 make the second row group: cells 1 to 3's.
    let counted = || {
        let text = std::fs::read_to_string(d.join("s.state")).unwrap_or_default();
        let state: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let cells = state["cells"].as_array().cloned().unwrap_or_default();
        cells
            .iter()
            .map(|c| c["games"].as_u64().unwrap())
            .sum::<u64>()
    };
    until("a checkpoint in cell 2", || counted() > 300_000);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(counted() < 600_000, "killed before its end");

    resumed_as_whole(d);
}

/// Checkpoints are refused, before any work, beside a Parquet file that cannot be continued:
/// one on standard output or a device, a run's or a sweep's.
#[test]
fn checkpoints_beside_a_parquet_file_that_cannot_go_on_are_refused() {
    let dir = TempDir::new().unwrap();
    for (command, why, csv) in [
        (
            "run --games 10 --parquet - --state s.state",
            "on standard output it cannot be read back",
            "--csv",
        ),
        (
            "run --games 10 --parquet /dev/null --state s.state",
            "a pipe or a device cannot be read back",
            "--csv",
        ),
        (
            "sweep --players 2,3 --games 10 --parquet - --state s.state",
            "on standard output it cannot be read back",
            "--games-csv",
        ),
    ] {
        let out = warsim()
            .current_dir(dir.path())
            .args(args(command))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let expected = format!(
            "error: --parquet cannot be checkpointed ({why}): write {csv} with --state, or add \
             --checkpoint-every 0 to write the state only at the end\n"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected);
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing written"
    );
}

/// A run whose Parquet file's tail cannot be saved after its first checkpoint (a folder stands
/// at its name) stops there, the file left whole as the checkpoint ended it, and says so; once
/// the folder is gone it goes on.
#[test]
fn a_run_whose_tail_cannot_be_saved_stops_with_its_file_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("games.parquet.warsim-tail")).unwrap();
    let command = "run --games 300000 --threads 1 -q --parquet games.parquet --state s.state";
    let out = warsim()
        .current_dir(d)
        .args(args(command))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with(
            "error: could not write the Parquet file to games.parquet: its tail could not be \
             saved as games.parquet.warsim-tail: File exists (os error 17); stopped after "
        ),
        "{said}"
    );
    let held = rows_as_csv(&d.join("games.parquet")).0.len();
    let games = match held {
        1 => "game 0".to_string(),
        _ => format!(
            "games 0 to {}",
            warsim::export::text::group(held as u64 - 1)
        ),
    };
    let kept = format!(": the Parquet file (games.parquet) holds {games}\n");
    assert!(held > 0 && said.ends_with(&kept), "{said}");

    std::fs::remove_dir(d.join("games.parquet.warsim-tail")).unwrap();
    warsim()
        .current_dir(d)
        .args(["resume", "s.state"])
        .assert()
        .success();
    assert_eq!(rows_as_csv(&d.join("games.parquet")).0.len(), 300_000);
}

/// A run stopped with its Parquet file on a device says to play it again, not to resume it:
/// a device cannot be read back.
#[test]
fn a_stopped_run_with_its_parquet_file_on_a_device_says_to_play_again() {
    let dir = TempDir::new().unwrap();
    let command = "run --games 1e9 --threads 1 -q --csv g.csv --parquet /dev/null \
                   --state s.state --checkpoint-every 0";
    let csv = dir.path().join("g.csv");
    let out = common::signal_in_once_written(dir.path(), "-INT", &args(command), &csv, 100_000);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{said}");
    assert!(
        said.ends_with(
            "; a Parquet file cannot be continued: to play every game, the same command again\n"
        ),
        "{said}"
    );
}
