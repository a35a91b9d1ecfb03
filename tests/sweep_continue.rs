//! A sweep's checkpoints: a sweep with `--state` stopped by SIGINT and continued with the same
//! command and `--continue`, or killed with SIGKILL and resumed with `warsim resume`, ends with
//! the uninterrupted sweep's per-game CSV byte for byte and its tables but for how the runs
//! went; a finished sweep's outputs are written again, one stopped before its first cell plays
//! from the start; the refusals of runs hold for sweeps.

use crate::common;

use std::path::Path;

use common::{json, signal_once_written, warsim};
use tempfile::TempDir;

/// The sweep, writing into `dir` (absolute paths: the helpers run it from the test's folder).
fn sweep(dir: &Path) -> Vec<String> {
    let file = |name: &str| dir.join(name).display().to_string();
    let mut args: Vec<String> = [
        "sweep",
        "--players",
        "2,3",
        "--ranks",
        "6,13",
        "--games",
        "1e5",
        "--seed",
        "9",
        "-q",
        "--threads",
        "2",
    ]
    .map(String::from)
    .to_vec();
    for (flag, name) in [
        ("--games-csv", "games.csv"),
        ("--json", "sweep.json"),
        ("--seats", "seats.csv"),
        ("--state", "sweep.state"),
    ] {
        args.extend([flag.to_string(), file(name)]);
    }
    args.extend(["--checkpoint-every", "20ms"].map(String::from));
    args
}

/// Runs `warsim ARGS` from the test's folder; returns the exit code and standard error.
fn outcome(args: &[String]) -> (Option<i32>, String) {
    let out = warsim().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err)
}

/// The JSON without how the runs went.
fn figures(path: &Path) -> serde_json::Value {
    let mut sweep = json(path);
    for cell in sweep["cells"].as_array_mut().unwrap() {
        let keys = cell.as_object_mut().unwrap();
        let how = ["wall_seconds", "games_per_second", "threads"];
        keys.retain(|k, _| !how.contains(&k.as_str()));
    }
    sweep
}

/// Plays the sweep uninterrupted into `dir/whole`; returns that folder.
fn whole_sweep(dir: &Path) -> std::path::PathBuf {
    let whole = dir.join("whole");
    std::fs::create_dir(&whole).unwrap();
    let (code, err) = outcome(&sweep(&whole));
    assert_eq!(code, Some(0), "{err}");
    whole
}

fn assert_same_as(dir: &Path, whole: &Path, what: &str) {
    let read = |d: &Path, name: &str| std::fs::read(d.join(name)).unwrap();
    assert!(
        read(dir, "games.csv") == read(whole, "games.csv"),
        "{what}: the rows are the uninterrupted sweep's"
    );
    assert_eq!(read(dir, "seats.csv"), read(whole, "seats.csv"), "{what}");
    assert_eq!(
        figures(&dir.join("sweep.json")),
        figures(&whole.join("sweep.json")),
        "{what}"
    );
}

#[test]
fn a_stopped_sweep_continues_to_the_uninterrupted_sweeps_outputs() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let whole = whole_sweep(d);
    let mut args = sweep(d);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    // Stopped in its second cell, after some checkpoints.
    let stopped = signal_once_written("-INT", &refs, &d.join("games.csv"), 6_000_000);
    assert_eq!(stopped.status.code(), Some(130));
    let said = String::from_utf8_lossy(&stopped.stderr);
    assert!(said.contains("; to play on: `warsim resume "), "{said}");
    let state = json(&d.join("sweep.state"));
    let begun = state["cells"].as_array().unwrap();
    assert!(
        (2..=4).contains(&begun.len()),
        "{} cells begun",
        begun.len()
    );
    // Cells are named by their number in the tables, from 0, in every message: the one stopped
    // in is the state's last; the one played on from, the first not complete.
    let stopped_in = begun.len() - 1;
    let complete = begun.iter().filter(|c| c["games"] == 100_000).count();
    assert!(
        said.starts_with(&format!(
            "interrupted in cell {stopped_in} of cells 0 to 3 (SIGINT"
        )),
        "{said}"
    );
    // Run again with --continue added, on one thread, the grid's flags in another order: the
    // same sweep.
    args[11] = "1".to_string();
    let ranks: Vec<String> = args.drain(3..5).collect();
    args.extend(ranks);
    args.push("--continue".into());
    let (code, err) = outcome(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("sweep.state: resuming after "), "{err}");
    assert!(
        err.contains(&format!(
            ": playing on from cell {complete} of cells 0 to 3\n"
        )),
        "{err}"
    );
    assert_same_as(d, &whole, "continued");
    std::fs::remove_file(d.join("seats.csv")).unwrap();
    let (code, err) = outcome(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.ends_with(
            ": the sweep is complete (400,000 games): writing its outputs again from the state\n"
        ),
        "{err}"
    );
    assert_same_as(d, &whole, "finished");
}

#[test]
fn a_killed_sweep_resumes_from_its_last_checkpoint() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let whole = whole_sweep(d);
    let args = sweep(d);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    // SIGKILL: the CSV may hold rows past the last checkpoint, which resume cuts off.
    let killed = signal_once_written("-KILL", &refs, &d.join("games.csv"), 9_000_000);
    assert_eq!(killed.status.code(), None);
    let out = warsim()
        .args(["resume", &d.join("sweep.state").display().to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("resuming after "), "{err}");
    assert_same_as(d, &whole, "resumed");
}

#[test]
fn a_sweeps_continue_refuses_what_a_runs_does() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let run_state = d.join("run.state").display().to_string();
    warsim()
        .args(["run", "--games", "10", "-q", "--state", &run_state])
        .assert()
        .success();
    let sweep_args = [
        "sweep",
        "--players",
        "2,3",
        "--games",
        "10",
        "-q",
        "--continue",
    ];
    for (extra, needle) in [
        (
            vec!["--state", run_state.as_str()],
            "is the state of a run (`warsim run --games 10 ",
        ),
        (vec![], "--continue needs --state PATH"),
        (
            vec![
                "--state",
                "x.state",
                "--parquet",
                "-",
                "--checkpoint-every",
                "0",
            ],
            "cannot continue --parquet (on standard output it cannot be read back): write \
             --games-csv, or leave out --continue",
        ),
    ] {
        let out = warsim().args(sweep_args).args(&extra).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{err}");
    }
    // Named as what it is: a sweep's state, and this a sweep (it said "another run").
    let sweep_state = d.join("sweep.state").display().to_string();
    let sweep = [
        "sweep",
        "--players",
        "2,4",
        "--games",
        "10",
        "-q",
        "--state",
    ];
    warsim().args(sweep).arg(&sweep_state).assert().success();
    let out = warsim()
        .args(sweep_args)
        .args(["--state", &sweep_state])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let another = "is the state of another sweep (`warsim sweep --players 2,4 --games 10 -q ";
    assert!(err.contains(another), "{err}");
    assert!(
        err.contains(": give this sweep its own --state, or remove "),
        "{err}"
    );
    let run = [
        "run",
        "--games",
        "10",
        "-q",
        "--continue",
        "--state",
        &sweep_state,
    ];
    let err = String::from_utf8_lossy(&warsim().args(run).output().unwrap().stderr).into_owned();
    assert!(
        err.contains("is the state of a sweep (`warsim sweep "),
        "{err}"
    );
    assert!(err.contains(": give this run its own --state"), "{err}");
    let out = warsim()
        .args(["sweep", "--players", "2,3", "--games", "10", "-q"])
        .args(["--state", "x.state", "--parquet", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(
            "error: --parquet cannot be checkpointed (on standard output it cannot be read \
             back): write --games-csv with --state"
        ),
        "{err}"
    );
}

#[test]
fn a_sweep_stopped_before_its_first_cell_resumes_from_the_start() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let state = d.join("sweep.state");
    warsim()
        .current_dir(d)
        .args(["sweep", "--players", "2,3", "--games", "300", "-q"])
        .args(["--state", "sweep.state", "--json", "sweep.json"])
        .assert()
        .success();
    let whole = figures(&d.join("sweep.json"));
    // The state a sweep stopped before any game leaves: no cell begun.
    let mut empty = json(&state);
    empty["cells"] = serde_json::json!([]);
    std::fs::write(&state, empty.to_string()).unwrap();
    std::fs::remove_file(d.join("sweep.json")).unwrap();
    let out = warsim()
        .current_dir(d)
        .args(["resume", "sweep.state"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(
        err,
        "sweep.state: resuming after 0 games of 600: playing on from cell 0 of cells 0 to 1\n"
    );
    assert_eq!(figures(&d.join("sweep.json")), whole);
}

#[test]
fn a_sweep_of_many_cells_checkpoints_every_interval_not_every_cell() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let file = |name: &str| d.join(name).display().to_string();
    let (csv, state) = (file("games.csv"), file("sweep.state"));
    let args = [
        "sweep",
        "--players",
        "2,3",
        "--ranks",
        "6..13",
        "--games",
        "60000",
        "-q",
        "--threads",
        "2",
        "--games-csv",
        &csv,
        "--state",
        &state,
        "--checkpoint-every",
        "1h",
    ];
    // Killed several cells in: the only checkpoint due within the hour was the first, with the
    // sweep's first games (each cell's batch asks for one with its own).
    let killed = signal_once_written("-KILL", &args, Path::new(&csv), 6_000_000);
    assert_eq!(killed.status.code(), None, "killed before the end");
    let cells = json(Path::new(&state))["cells"].as_array().unwrap().len();
    assert_eq!(cells, 1, "the checkpoint holds the first cell only");
}
