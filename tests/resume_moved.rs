//! `warsim resume --folder`: a run whose folder was moved (or copied to another machine, under
//! another path) resumes in the folder named, to the uninterrupted run's outputs, where before
//! it could only be refused ("the run's folder … is gone"; `--continue` from there now points
//! to `--folder .`). A folder where the run's own `--state` is another file is refused, and
//! nothing in it changes.

use crate::common;

use std::path::Path;

use common::{figures_but, json, warsim};
use tempfile::TempDir;

/// A run whose outputs are named relative to its folder, as most are.
const RUN: [&str; 12] = [
    "run", "--games", "3e5", "-q", "--csv", "g.csv", "--json", "j.json", "--state", "s.state",
    "--seed", "8",
];

/// The summary's keys but the timings.
fn figures(path: &Path) -> serde_json::Value {
    figures_but(path, &["wall_seconds", "games_per_second"])
}

/// Runs [`RUN`] in `folder`, stopped by SIGINT once its CSV holds a megabyte.
fn stopped_in(folder: &Path) {
    let csv = folder.join("g.csv");
    let out = common::signal_in_once_written(folder, "-INT", &RUN, &csv, (1 << 20) + 1);
    assert_eq!(out.status.code(), Some(130), "stopped part-way");
}

#[test]
fn a_moved_runs_folder_resumes_where_it_is_named() {
    let dir = TempDir::new().unwrap();
    let path = |name: &str| dir.path().join(name);
    let (first, moved, whole) = (path("first"), path("moved"), path("whole"));
    for folder in [&first, &whole] {
        std::fs::create_dir(folder).unwrap();
    }
    warsim().current_dir(&whole).args(RUN).assert().success();
    stopped_in(&first);
    std::fs::rename(&first, &moved).unwrap();
    let state = moved.join("s.state");
    let resume = |folder: Option<&Path>| {
        let mut command = warsim();
        command.current_dir(dir.path()).arg("resume").arg(&state);
        if let Some(folder) = folder {
            command.arg("--folder").arg(folder);
        }
        command.output().unwrap()
    };

    let gone = resume(None);
    assert_eq!(gone.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&gone.stderr),
        format!(
            "error: {}: the run's folder {} is gone (No such file or directory (os error 2)): \
             if it moved, add --folder with the folder that now holds its files\n",
            state.display(),
            first.display()
        )
    );

    // Another run's folder: its s.state is not this one, and nothing there changes.
    let before = std::fs::read(whole.join("g.csv")).unwrap();
    let other = resume(Some(&whole));
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&other.stderr),
        format!(
            "error: --folder {}: the run's --state s.state there is not {}: give the folder \
             that holds the run's files as it left them\n",
            whole.display(),
            state.display()
        )
    );
    assert!(std::fs::read(whole.join("g.csv")).unwrap() == before);

    // The same command with --continue, from the moved folder, says how to go on.
    let continued = warsim()
        .current_dir(&moved)
        .args(RUN)
        .arg("--continue")
        .output()
        .unwrap();
    assert_eq!(continued.status.code(), Some(2));
    let said = String::from_utf8_lossy(&continued.stderr);
    let hint = format!(
        "error: --continue: s.state is this run's state from another folder ({}): if the \
         folder moved here, continue it with `warsim resume s.state --folder .`; else give this \
         run its own --state\n",
        first.display()
    );
    assert_eq!(said, hint);

    // What it says, run there.
    let resumed = warsim()
        .current_dir(&moved)
        .args(["resume", "s.state", "--folder", "."])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{resumed:?}");
    assert!(
        std::fs::read(moved.join("g.csv")).unwrap() == before,
        "the CSV is the uninterrupted run's"
    );
    assert_eq!(
        figures(&moved.join("j.json")),
        figures(&whole.join("j.json"))
    );
    // Its checkpoints now name the folder it ran in, so a plain resume or --continue works.
    let cwd = &json(&state)["resume"]["cwd"];
    assert_eq!(cwd, moved.canonicalize().unwrap().to_str().unwrap());
}
