//! Checkpoints and `warsim resume`: runs killed (SIGKILL), their resumptions killed again, end
//! with an uninterrupted run's per-game CSV, byte for byte, and summary (but wall time and
//! games/s); a CSV that no longer matches its checkpoint is an error that changes nothing.

use crate::common;

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use common::json;
use common::{EndsWithTest, warsim};
use tempfile::TempDir;
use warsim::export::text::{counted, group};

/// `warsim ARGS` started in `dir`, its output thrown away.
fn quiet_warsim(dir: &Path, args: &[&str]) -> std::process::Child {
    Process::new(assert_cmd::cargo::cargo_bin("warsim"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .ends_with_test()
        .spawn()
        .unwrap()
}

/// Starts `warsim ARGS` in `dir` and kills it with SIGKILL `millis` after its state file
/// (`run.state`) is there; true if it had already finished on its own. Counted from the state:
/// a loaded machine can take longer than the wait to start a run.
fn kill_after(dir: &Path, args: &[&str], millis: u64) -> bool {
    let mut child = quiet_warsim(dir, args);
    common::until("checkpoint (nor exit) within a minute of the start", || {
        dir.join("run.state").exists() || child.try_wait().unwrap().is_some()
    });
    std::thread::sleep(Duration::from_millis(millis));
    let finished = child.try_wait().unwrap().is_some_and(|s| s.success());
    let _ = child.kill();
    let _ = child.wait();
    finished
}

/// Starts `warsim ARGS` in `dir` and kills it with SIGKILL once its per-game CSV
/// (`games.csv`) has grown `bytes` past its length at the start; true if it had finished on its
/// own first. The games played choose the moment, not the clock: a wait measured on a machine
/// loaded by other tests is too long once they end, and the run finishes before it is killed.
fn kill_after_growth(dir: &Path, args: &[&str], bytes: u64) -> bool {
    let csv = dir.join("games.csv");
    let length = || csv.metadata().map_or(0, |m| m.len());
    // A resumption first cuts the CSV back to its checkpoint: it must regrow past the start.
    let target = length() + bytes;
    let mut child = quiet_warsim(dir, args);
    common::until("CSV growth (nor exit) within a minute of the start", || {
        length() >= target || child.try_wait().unwrap().is_some()
    });
    let status = child.try_wait().unwrap();
    assert!(status.is_none_or(|s| s.success()), "{args:?}: {status:?}");
    let _ = child.kill();
    let _ = child.wait();
    status.is_some()
}

#[test]
fn runs_killed_again_and_again_finish_as_if_never_stopped() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let batch = ["--games", "6e5", "--seed", "4", "--threads", "2", "-q"];
    warsim()
        .current_dir(d)
        .arg("run")
        .args(batch)
        .args(["--csv", "whole.csv", "--json", "whole.json"])
        .assert()
        .success();
    let whole_bytes = std::fs::metadata(d.join("whole.csv")).unwrap().len();
    let mut run: Vec<&str> = vec!["run"];
    run.extend(batch);
    run.extend([
        "--csv",
        "games.csv",
        "--json",
        "summary.json",
        "--state",
        "run.state",
    ]);
    run.extend(["--checkpoint-every", "50ms"]);
    // A small generator of kill points, seeded: the moments differ, the test does not. Each
    // comes after 15 to 35% of the whole run's games more, so two kills leave work to do.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next_growth = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        whole_bytes * (15 + seed % 21) / 100
    };
    let mut finished = kill_after_growth(d, &run, next_growth());
    let mut kills = 0;
    while !finished {
        assert!(
            d.join("run.state").exists(),
            "a checkpoint is written from the start"
        );
        kills += 1;
        if kills == 1 {
            // A thread count out of range is refused before anything is said or done.
            let before = std::fs::read(d.join("run.state")).unwrap();
            let refused = warsim()
                .current_dir(d)
                .args(["resume", "run.state", "--threads", "0"])
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert_eq!(refused.status.code(), Some(2), "{stderr}");
            assert_eq!(
                stderr,
                "error: --threads 0 is out of range: use 1 to 1024\n"
            );
            assert_eq!(std::fs::read(d.join("run.state")).unwrap(), before);
        }
        // The resumptions go on with other threads (and every other one with other
        // checkpoints), as on another machine: how a run goes changes none of its games.
        let how: &[&str] = match kills % 2 {
            0 => &["--threads", "1", "--checkpoint-every", "30ms", "-q"],
            _ => &["--threads", "1"],
        };
        finished = if kills < 6 {
            let resume = [&["resume", "run.state"], how].concat();
            kill_after_growth(d, &resume, next_growth())
        } else {
            warsim()
                .current_dir(d)
                .args(["resume", "run.state", "--threads", "1"])
                .assert()
                .success();
            true
        };
    }
    assert!(kills >= 2, "the test killed the run and a resumption");
    assert!(
        std::fs::read(d.join("games.csv")).unwrap() == std::fs::read(d.join("whole.csv")).unwrap(),
        "the CSV is the uninterrupted run's"
    );
    let (whole, resumed) = (json(&d.join("whole.json")), json(&d.join("summary.json")));
    for (key, value) in whole.as_object().unwrap() {
        if !matches!(
            key.as_str(),
            "wall_seconds" | "games_per_second" | "threads"
        ) {
            assert_eq!(&resumed[key], value, "{key}");
        }
    }
    // The resumption that finished took the threads it was given.
    assert_eq!(resumed["threads"], 1, "resume --threads 1");
    // A finished run has nothing to resume.
    warsim()
        .current_dir(d)
        .args(["resume", "run.state"])
        .assert()
        .success();
}

#[test]
fn a_complete_run_of_one_game_has_nothing_to_resume_and_says_so_in_the_singular() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    warsim()
        .current_dir(d)
        .args(["run", "--games", "1", "-q", "--state", "one.state"])
        .assert()
        .success();
    warsim()
        .current_dir(d)
        .args(["resume", "one.state"])
        .assert()
        .success()
        .stderr("one.state: the run is complete (1 game): nothing to resume\n");
}

#[test]
fn a_csv_that_does_not_match_its_checkpoint_is_refused_and_left_alone() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Interrupted with SIGINT after a few checkpoints: the state says where the CSV ends.
    let args = [
        "run",
        "--games",
        "1e12",
        "-q",
        "--threads",
        "2",
        "--csv",
        "games.csv",
        "--state",
        "run.state",
        "--checkpoint-every",
        "20ms",
    ];
    let out = {
        let mut child = quiet_warsim(d, &args);
        std::thread::sleep(Duration::from_millis(300));
        common::interrupt(child.id());
        child.wait().unwrap()
    };
    assert_eq!(out.code(), Some(130));
    let csv = d.join("games.csv");
    let text = std::fs::read(&csv).unwrap();
    let refused = |needle: &str| {
        let out = warsim()
            .current_dir(d)
            .args(["resume", "run.state"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("error: run.state: ") && err.contains(needle),
            "{err}"
        );
    };
    // Shorter than the checkpoint.
    std::fs::write(&csv, &text[..text.len() / 2]).unwrap();
    refused(&format!(
        "holds {} bytes, fewer than the",
        group(text.len() as u64 / 2)
    ));
    assert_eq!(
        std::fs::read(&csv).unwrap().len(),
        text.len() / 2,
        "left alone"
    );
    // Edited: its last row changed.
    let mut edited = text.clone();
    let at = edited.len() - 3;
    edited[at] = if edited[at] == b'7' { b'8' } else { b'7' };
    std::fs::write(&csv, &edited).unwrap();
    refused("as written (edited since)");
    // Missing.
    std::fs::remove_file(&csv).unwrap();
    refused("is missing (the checkpoint's");
    // Restored, it resumes (and is stopped again at once by a cap on this test's patience).
    std::fs::write(&csv, &text).unwrap();
    assert!(!kill_after(d, &["resume", "run.state"], 200));
    // --parquet on standard output cannot be checkpointed.
    let out = warsim()
        .args([
            "run",
            "--games",
            "10",
            "--parquet",
            "-",
            "--state",
            "x.state",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--checkpoint-every 0"));
}

#[test]
fn a_run_without_a_per_game_file_resumes_too() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let batch = [
        "--games",
        "4e5",
        "--seed",
        "9",
        "-q",
        "--rules",
        "war-simulator",
    ];
    warsim()
        .current_dir(d)
        .arg("run")
        .args(batch)
        .args(["--json", "whole.json"])
        .assert()
        .success();
    let mut run: Vec<&str> = vec!["run"];
    run.extend(batch);
    run.extend([
        "--json",
        "summary.json",
        "--state",
        "run.state",
        "--checkpoint-every",
        "30ms",
    ]);
    if !kill_after(d, &run, 250) {
        let state = json(&d.join("run.state"));
        assert!(
            state["games"].as_u64().unwrap() < 400_000,
            "killed part-way"
        );
        let played = state["games"].as_u64().unwrap();
        let out = warsim()
            .current_dir(d)
            .args(["resume", "run.state"])
            .output()
            .unwrap();
        assert!(out.status.success());
        // It says that it continues, and from where.
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "run.state: resuming after {} of 400,000: playing on from game {}\n",
                counted(played, "game"),
                group(played)
            )
        );
    }
    let (whole, resumed) = (json(&d.join("whole.json")), json(&d.join("summary.json")));
    for (key, value) in whole.as_object().unwrap() {
        if !matches!(key.as_str(), "wall_seconds" | "games_per_second") {
            assert_eq!(&resumed[key], value, "{key}");
        }
    }
}

/// A run in a folder whose name is not UTF-8 (Latin-1) records that folder with U+FFFD in its
/// place for people and byte for byte in `cwd_base64`: resumed from elsewhere, it said the
/// folder was gone, and a twin folder whose name differs in those bytes alone took the run's
/// state for its own. It now enters its own folder, and the twin's `--continue` is refused.
#[test]
fn a_run_in_a_folder_not_named_in_utf8_resumes_in_that_folder_alone() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new().unwrap();
    let folder = dir.path().join(OsStr::from_bytes(b"caf\xe9"));
    let twin = dir.path().join(OsStr::from_bytes(b"caf\xe8"));
    std::fs::create_dir(&folder).unwrap();
    std::fs::create_dir(&twin).unwrap();
    let run = [
        "run",
        "--games",
        "3e6",
        "-q",
        "--state",
        "run.state",
        "--checkpoint-every",
        "30ms",
    ];
    if kill_after(&folder, &run, 300) {
        return;
    }
    let state = folder.join("run.state");
    let recorded = &json(&state)["resume"];
    assert!(recorded["cwd"].as_str().unwrap().ends_with("caf\u{FFFD}"));
    let exact = std::fs::canonicalize(&folder).unwrap();
    assert_eq!(
        common::base64_decode(recorded["cwd_base64"].as_str().unwrap()),
        exact.as_os_str().as_bytes()
    );
    // The twin holds a copy of the state: the same command line, another folder.
    std::fs::copy(&state, twin.join("run.state")).unwrap();
    let copied = std::fs::read(twin.join("run.state")).unwrap();
    let continued = warsim()
        .current_dir(&twin)
        .args(run)
        .arg("--continue")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&continued.stderr);
    assert_eq!(continued.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is this run's state from another folder") && err.contains("caf\\xE9\""),
        "{err}"
    );
    // A state from before the folder's bytes were kept: resumed from elsewhere, it says why it
    // cannot enter the folder.
    let mut legacy = json(&state);
    legacy["resume"]
        .as_object_mut()
        .unwrap()
        .remove("cwd_base64");
    let legacy_path = folder.join("legacy.state");
    std::fs::write(&legacy_path, legacy.to_string()).unwrap();
    let resume_from_elsewhere = |state: &Path| {
        (warsim().current_dir(dir.path()).arg("resume").arg(state))
            .output()
            .unwrap()
    };
    let old = resume_from_elsewhere(&legacy_path);
    let err = String::from_utf8_lossy(&old.stderr);
    assert_eq!(old.status.code(), Some(2), "{err}");
    assert!(err.contains("resume from inside that folder"), "{err}");
    let elsewhere = resume_from_elsewhere(&state);
    let err = String::from_utf8_lossy(&elsewhere.stderr);
    assert!(elsewhere.status.success(), "{err}");
    assert_eq!(json(&state)["games"], 3_000_000);
    assert_eq!(std::fs::read(twin.join("run.state")).unwrap(), copied);
}
