//! A file another warsim is writing is never replaced by this one's outputs: not a per-game
//! file (locked while written), not a state file (its lock file held), whichever starts first.
//! A summary, histogram or state written over such a file used to take its name from the run
//! writing it, which went on writing rows no name led to and said at its end that the file held
//! them.

mod common;

use std::path::Path;
use std::process::Output;

use common::{said, size, start_in, until};
use tempfile::TempDir;

/// `warsim ARGS` (split at spaces) in `dir`, run to its end.
fn warsim_in(dir: &Path, args: &str) -> Output {
    assert_cmd::Command::cargo_bin("warsim")
        .unwrap()
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Checks that `out` was refused before it started, on one line naming `flag` and saying
/// `why`.
fn refused(out: &Output, flag: &str, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with(&format!("error: {flag} ")), "{err}");
    assert!(err.contains(why), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn no_output_replaces_a_per_game_file_another_warsim_is_writing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // No extension, so that every output may be given the name.
    let mut first = start_in(d, "run --games 1e9 --threads 1 -q --csv games");
    until("rows written", || size(&d.join("games")) >= 100_000);
    for flag in ["--summary", "--histogram", "--state"] {
        let before = size(&d.join("games"));
        let out = warsim_in(d, &format!("run --games 100 -q {flag} games"));
        refused(
            &out,
            flag,
            "another warsim is writing it: wait for it to end",
        );
        assert!(
            size(&d.join("games")) >= before,
            "the other run's rows are left"
        );
    }
    let out = warsim_in(d, "sweep --players 2..3 --games 10 -q --histogram games");
    refused(&out, "--histogram", "another warsim is writing it");
    common::interrupt(first.id());
    assert_eq!(first.wait().unwrap().code(), Some(130), "{}", said(d));
    common::games_in_order(&d.join("games"));
}

#[test]
fn no_output_replaces_a_state_another_warsim_is_writing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let out = warsim_in(d, "run --games 100 -q --shard 0/2 --state part.json");
    assert!(out.status.success());
    let mut first = start_in(d, "run --games 1e9 --threads 1 -q --state s.json");
    until("a first checkpoint", || size(&d.join("s.json")) > 0);
    let state = std::fs::read(d.join("s.json")).unwrap();
    let why = "is the state file another warsim is writing (it holds ";
    refused(
        &warsim_in(d, "run --games 100 -q --json s.json"),
        "--json",
        why,
    );
    let merge = "merge part.json --allow-partial --json s.json";
    refused(&warsim_in(d, merge), "--json", why);
    // The state is the run's own checkpoint still (none other is due within a minute).
    assert_eq!(std::fs::read(d.join("s.json")).unwrap(), state);
    common::interrupt(first.id());
    assert_eq!(first.wait().unwrap().code(), Some(130), "{}", said(d));
}

#[test]
fn a_summary_is_not_written_over_a_file_another_warsim_began_after_it_started() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let summaries = "run --games 1e9 --threads 1 -q --summary games --json s.json";
    let mut first = start_in(d, summaries);
    common::until_it_catches_sigint(first.id());
    // Started once the first run has checked its outputs: the name was free then.
    let second = tempfile::tempdir_in(d).unwrap();
    let mut csv = start_in(
        second.path(),
        "run --games 1e9 --threads 1 -q --csv ../games",
    );
    until("rows written", || size(&d.join("games")) >= 100_000);
    common::interrupt(first.id());
    // An output that could not be written fails the run (exit 1), interrupted or not.
    assert_eq!(first.wait().unwrap().code(), Some(1), "{}", said(d));
    let told = "error: could not write the summary CSV to games: another warsim is writing it\n";
    assert!(said(d).contains(told), "{}", said(d));
    assert!(d.join("s.json").exists(), "the other summaries are written");
    common::interrupt(csv.id());
    assert_eq!(csv.wait().unwrap().code(), Some(130));
    common::games_in_order(&d.join("games"));
}
