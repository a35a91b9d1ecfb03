//! An output that is a named pipe (`mkfifo`) no program reads yet: warsim says after a second
//! what it waits for, writes once a reader comes, and a stopping signal ends the wait with the
//! signal's status (128 + its number), before any game for the per-game CSV, after the games for
//! a summary. open(2) on such a pipe waited in the kernel, where the first signal's flag went
//! unread: Ctrl-C or `timeout`'s SIGTERM did nothing, and only a second signal ended warsim.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use common::processes::{send, until};
use common::{exits_within, mkfifo, said, start_in};
use tempfile::TempDir;

const WAITING: &str = "waiting for a program to read the named pipe";

/// Starts `warsim ARGS` in `dir`, where `pipe` is a named pipe no program reads, waits until it
/// says it waits for a reader, stops it with SIGTERM and returns its exit status and what it
/// said.
fn stopped_while_waiting(dir: &Path, pipe: &str, args: &str) -> (Option<i32>, String) {
    mkfifo(&dir.join(pipe));
    let mut child = start_in(dir, args);
    until("word of the wait", || said(dir).contains(WAITING));
    send("-TERM", child.id());
    let status = exits_within(&mut child, Duration::from_secs(20), "the wait went on");
    (status.code(), said(dir))
}

#[test]
fn a_stop_ends_the_wait_for_a_per_game_pipes_reader() {
    let dir = TempDir::new().unwrap();
    let (status, said) = stopped_while_waiting(
        dir.path(),
        "games.csv",
        "run --games 1000 -q --csv games.csv",
    );
    assert_eq!(status, Some(143), "{said}");
    assert!(
        said.contains(
            "warsim: waiting for a program to read the named pipe games.csv (e.g. `cat games.csv`)"
        ),
        "{said}"
    );
    assert!(said.ends_with(
        "error: --csv games.csv: stopped by a signal while waiting for a program to open this \
         named pipe to read it; no game was played\n"
    ));
    // A sweep's per-game file the same.
    let dir = TempDir::new().unwrap();
    let args = "sweep --players 2,3 --games 100 -q --games-csv rows.csv";
    let (status, said) = stopped_while_waiting(dir.path(), "rows.csv", args);
    assert_eq!(status, Some(143), "{said}");
    assert!(
        said.contains("--games-csv rows.csv: stopped by a signal"),
        "{said}"
    );
}

#[test]
fn a_stop_ends_the_wait_for_a_summary_pipes_reader() {
    let dir = TempDir::new().unwrap();
    let args = "run --games 1000 -q --json summary.json --csv games.csv";
    let (status, said) = stopped_while_waiting(dir.path(), "summary.json", args);
    assert_eq!(status, Some(143), "{said}");
    assert!(said.ends_with(
        "error: could not write the summary JSON to summary.json: stopped by a signal while \
         waiting for a program to open this named pipe to read it\n"
    ));
    // The games were all played and their rows kept.
    let rows = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1001);
}

#[test]
fn a_reader_that_comes_late_gets_every_row() {
    let dir = TempDir::new().unwrap();
    let pipe = dir.path().join("games.csv");
    mkfifo(&pipe);
    let mut child = start_in(dir.path(), "run --games 1000 -q --csv games.csv");
    until("word of the wait", || said(dir.path()).contains(WAITING));
    let mut rows = String::new();
    std::fs::File::open(&pipe)
        .unwrap()
        .read_to_string(&mut rows)
        .unwrap();
    let status = exits_within(&mut child, Duration::from_secs(20), "it never ended");
    assert_eq!(status.code(), Some(0), "{}", said(dir.path()));
    assert_eq!(rows.lines().count(), 1001);
    assert!(rows.starts_with("game,"), "{rows:.40}");
}
