//! A file another warsim is writing is never replaced by this one's outputs: not a per-game
//! file (locked while written), not a state file (its lock file held), whichever starts first.
//! A summary, histogram or state written over such a file used to take its name from the run
//! writing it, which went on writing rows no name led to and said at its end that the file held
//! them. Nor is a file another program wrote while the run played (two shards given one
//! `--json`): the run's own goes beside it, numbered.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{EndsWithTest, json, said, size, start_in, until};
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

/// Starts `warsim ARGS` (split at spaces) in `dir`, its standard error piped, holding each
/// file it replaces, written, for `hold_ms` before the rename: long enough to be caught.
fn start_holding(dir: &Path, args: &str, hold_ms: u32) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args.split_whitespace())
        .current_dir(dir)
        .env("WARSIM_TEST_SLOW_REPLACE", hold_ms.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap()
}

/// How many temporary files warsim is replacing files from in `dir` now.
fn temporaries(dir: &Path) -> usize {
    let names = std::fs::read_dir(dir).unwrap().flatten();
    names
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
        .count()
}

#[test]
fn a_summary_another_program_rewrote_while_the_run_played_is_kept_and_the_runs_goes_beside() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.json"), "an old summary\n").unwrap();
    std::fs::write(d.join("s.2.json"), "another file\n").unwrap();
    let run = start_holding(d, "run --games 1000 -q --json s.json", 3_000);
    until("the summary written", || temporaries(d) == 1);
    // Rewritten in place: the same file, its bytes changed.
    std::fs::write(d.join("s.json"), "theirs\n").unwrap();
    let out = run.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "error: could not write the summary JSON to s.json: another program wrote it while \
         warsim ran, so it is left as it was; this run's is in s.3.json instead\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("s.json")).unwrap(),
        "theirs\n"
    );
    let taken = std::fs::read_to_string(d.join("s.2.json")).unwrap();
    assert_eq!(taken, "another file\n");
    assert_eq!(json(&d.join("s.3.json"))["games"], 1000);
}

#[test]
fn two_shards_given_one_summary_name_keep_both_summaries() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let shard = |i| format!("run --games 2000 --shard {i}/2 -q --json s.json");
    let runs = [0, 1].map(|i| start_holding(d, &shard(i), 2_000));
    // Both have checked their outputs (the name was free) and neither has written it yet.
    until("both summaries written", || temporaries(d) == 2);
    let [first, second] = runs.map(|run| run.wait_with_output().unwrap());
    let mut codes = [first.status.code(), second.status.code()];
    codes.sort();
    assert_eq!(codes, [Some(0), Some(1)]);
    let failed = [&first, &second].map(|out| String::from_utf8_lossy(&out.stderr).into_owned());
    let told = "this run's is in s.2.json instead\n";
    assert!(failed.iter().any(|err| err.ends_with(told)), "{failed:?}");
    let mut shards = [json(&d.join("s.json")), json(&d.join("s.2.json"))]
        .map(|summary| summary["shard"].as_u64().unwrap());
    shards.sort();
    assert_eq!(shards, [0, 1]);
}
