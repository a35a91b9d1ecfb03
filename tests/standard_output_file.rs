//! The per-game CSV on standard output sent to a file (`warsim run --csv - > games.csv`, or
//! `>>` after what the file holds) is written straight to the file, not through Rust's line
//! buffer, which hid which bytes reached it: a disk that fills leaves it on a whole row holding
//! exactly the games said (it kept a cut row, 20 games short of those said), the lines before
//! warsim's left alone; room is kept in hand past its end as for a named file. A standard
//! error that cannot be written (a full disk) ends a run with its exit status, not a panic,
//! and help that cannot be written is an error, not a silent success. A summary sent there
//! (`--json - > summary.json`) is written whole or not at all.

use crate::common;

use std::process::{Command, Output};

use common::disk::{NEARLY_FULL, csv_rows};
use common::json;
use tempfile::TempDir;
use warsim::export::text::group;

/// Runs `script` in bash in `dir`, `warsim` in it naming the binary; `disk` as
/// [`common::disk::warsim_on`]'s (room refused past that byte of a file; "" for none).
fn in_bash(dir: &std::path::Path, disk: &str, script: &str) -> Output {
    let warsim = assert_cmd::cargo::cargo_bin("warsim");
    let script = script.replace("warsim", &format!("'{}'", warsim.display()));
    let mut bash = Command::new("bash");
    bash.args(["-c", &script]).current_dir(dir);
    if !disk.is_empty() {
        bash.env("WARSIM_TEST_DISK_BYTES", disk);
    }
    bash.output().unwrap()
}

/// A disk that fills at 1 MiB: a file size limit, SIGXFSZ ignored so that writes past it fail
/// as on a full disk.
const FULL_AT_1_MIB: &str = "trap '' XFSZ; ulimit -f 1024;";

/// The games a run said it stopped after, from its one line on standard error (exit 1).
fn stopped_after(out: &Output) -> (u64, String) {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    let line = err.lines().last().unwrap().to_string();
    let (_, after) = line.split_once("stopped after ").expect(&err);
    let games = after.split(' ').next().unwrap().replace(',', "");
    (games.parse().unwrap(), line)
}

#[test]
fn a_full_disk_leaves_standard_outputs_file_on_a_whole_row_holding_the_games_said() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let script =
        format!("{FULL_AT_1_MIB} warsim run --games 1e6 -q --csv - --json s.json > games.csv");
    let (games, line) = stopped_after(&in_bash(d, "", &script));
    assert!(
        line.ends_with(&format!(
            "the per-game CSV (standard output) holds games 0 to {} whole; the summaries \
             describe those games (complete: false)",
            group(games - 1)
        )),
        "{line}"
    );
    let rows = csv_rows(&d.join("games.csv"));
    assert_eq!(rows.len() as u64, games);
    common::games_in_order(&d.join("games.csv"));
    assert_eq!(json(&d.join("s.json"))["games"], games);
}

#[test]
fn a_file_appended_to_keeps_its_lines_and_ends_on_a_whole_row() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::write(d.join("games.csv"), "# before warsim\n").unwrap();
    let script = format!("{FULL_AT_1_MIB} warsim run --games 1e6 -q --csv - >> games.csv");
    let (games, _) = stopped_after(&in_bash(d, "", &script));
    let text = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let ours = text.strip_prefix("# before warsim\n").expect("kept");
    assert!(ours.starts_with("game,") && ours.ends_with('\n'));
    assert_eq!(ours.lines().count() as u64, games + 1);
}

#[test]
fn standard_outputs_file_keeps_room_in_hand_and_a_nearly_full_disk_stops_it_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let script = "warsim run --games 400000 -q --csv - --json s.json > games.csv";
    let (games, line) = stopped_after(&in_bash(d, "20000000", script));
    assert!(
        line.starts_with(&format!(
            "error: could not write the per-game CSV to standard output: {NEARLY_FULL}"
        )),
        "{line}"
    );
    assert_eq!(csv_rows(&d.join("games.csv")).len() as u64, games);
    assert!((262_144..400_000).contains(&games), "{games}");
    assert_eq!(json(&d.join("s.json"))["complete"], false);
}

#[test]
fn a_standard_error_that_cannot_be_written_ends_with_the_exit_status_not_a_panic() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (script, status) in [
        ("warsim run --games abc 2> /dev/full", 2),
        (
            "warsim run --games 10 --csv /dev/full > /dev/null 2> /dev/full",
            1,
        ),
        (
            &format!("{FULL_AT_1_MIB} warsim run --games 1e6 -q --csv - > games.csv 2>&1"),
            1,
        ),
    ] {
        let out = in_bash(d, "", script);
        assert_eq!(out.status.code(), Some(status), "{script}");
    }
}

#[test]
fn a_play_listing_on_a_full_disk_ends_on_a_whole_line_and_says_what_is_left() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let script = format!("{FULL_AT_1_MIB} warsim play --range 0-29999 > seeds.txt");
    let out = in_bash(d, "", &script);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let text = std::fs::read_to_string(d.join("seeds.txt")).unwrap();
    assert!(text.ends_with('\n'), "a whole line last");
    let lines = text.lines().count();
    let (seeds, last) = (lines - 1, lines);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: could not write the game: File too large (os error 27); the output ends on \
             a whole line, after seed {seeds}; the rest is --range {last}-29999"
        )
    );
    // The rest, played as said, completes the listing.
    let rest = in_bash(
        d,
        "",
        &format!("warsim play --range {last}-29999 >> seeds.txt"),
    );
    assert!(rest.status.success());
    let whole = in_bash(d, "", "warsim play --range 0-29999");
    assert_eq!(std::fs::read(d.join("seeds.txt")).unwrap(), whole.stdout);
}

#[test]
fn help_and_version_that_cannot_be_written_fail_but_a_closed_pipe_does_not() {
    let dir = TempDir::new().unwrap();
    for (script, status, said) in [
        (
            "warsim --help > /dev/full",
            1,
            "error: could not write the help: ",
        ),
        (
            "warsim run --help > /dev/full",
            1,
            "error: could not write the help: ",
        ),
        (
            "warsim --version > /dev/full",
            1,
            "error: could not write the version: ",
        ),
        ("set -o pipefail; warsim --help | true", 0, ""),
    ] {
        let out = in_bash(dir.path(), "", script);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{script}: {err}");
        assert!(err.starts_with(said) && err.lines().count() == usize::from(status == 1));
    }
}

#[test]
fn a_summary_on_standard_output_that_fills_its_file_leaves_none_of_itself() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.json"), "# before warsim\n").unwrap();
    // A disk that fills at 2 KiB: the summary JSON takes more.
    let script = "trap '' XFSZ; ulimit -f 2; warsim run --games 1000 -q --json - >> s.json";
    let out = in_bash(d, "", script);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: could not write the summary JSON to standard output: File too large"),
        "{err}"
    );
    let left = std::fs::read_to_string(d.join("s.json")).unwrap();
    assert_eq!(left, "# before warsim\n", "cut back to where it began");
}
