//! `warsim run --continue`, what a scheduler's retry of a task runs: the same batch (flags in
//! any order, any threads) continues its own checkpoint to the uninterrupted run's outputs,
//! starts when there is no state yet, writes a finished run's outputs again, and refuses (exit 2,
//! nothing changed) a state of another run, another folder or another warsim, and a file that is
//! not a state.

use crate::common;

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use common::EndsWithTest;
use common::{figures_but, interrupt_once_written, json, warsim};
use tempfile::TempDir;

/// `run` with the batch's flags, writing into `dir`, with `--continue`.
fn command(dir: &Path, seed: &str) -> Vec<String> {
    let file = |name: &str| dir.join(name).display().to_string();
    let mut args: Vec<String> = [
        "run",
        "--games",
        "6e5",
        "--threads",
        "2",
        "-q",
        "--seed",
        seed,
    ]
    .map(String::from)
    .to_vec();
    for (flag, name) in [
        ("--csv", "g.csv"),
        ("--json", "j.json"),
        ("--state", "s.json"),
    ] {
        args.extend([flag.to_string(), file(name)]);
    }
    args.extend(["--checkpoint-every", "20ms", "--continue"].map(String::from));
    args
}

/// Runs `warsim ARGS` (from `cwd`); returns its exit code and standard error.
fn outcome(args: &[String], cwd: &Path) -> (Option<i32>, String) {
    let out = warsim().current_dir(cwd).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The summary's keys but how the run went.
fn figures(path: &Path) -> serde_json::Value {
    figures_but(path, &["wall_seconds", "games_per_second", "threads"])
}

#[test]
fn a_retried_command_continues_its_checkpoint_to_the_uninterrupted_runs_outputs() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let whole = d.join("whole");
    std::fs::create_dir(&whole).unwrap();
    // No state yet: --continue plays the run from the start, as without it.
    let (code, err) = outcome(&command(&whole, "5"), d);
    assert_eq!((code, err.as_str()), (Some(0), ""));

    // Stopped part-way (SIGINT, as a scheduler's pre-emption sends SIGTERM), then retried from
    // the same folder (the helper's: the test's own): the same batch, though run first without
    // --continue and retried with other threads and the flags in another order.
    let args = command(d, "5");
    let here = std::env::current_dir().unwrap();
    let refs: Vec<&str> = args[..args.len() - 1].iter().map(String::as_str).collect();
    let stopped = interrupt_once_written(&refs, &d.join("g.csv"), 2_000_000);
    let said = String::from_utf8_lossy(&stopped.stderr);
    let hint = format!(
        "; to play on: `warsim resume {}`, or the same command with --continue\n",
        d.join("s.json").display()
    );
    assert!(said.ends_with(&hint), "{said}");
    let mut args = args;
    args[4] = "1".to_string();
    let seed: Vec<String> = args.drain(6..8).collect();
    args.extend(seed);
    assert_eq!(stopped.status.code(), Some(130));
    let kept = json(&d.join("s.json"))["games"].as_u64().unwrap();
    assert!(kept > 0 && kept < 600_000, "{kept}");
    let (code, err) = outcome(&args, &here);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.starts_with(&format!("{}: resuming after ", d.join("s.json").display())),
        "{err}"
    );
    let same = |what: &str| {
        assert!(
            std::fs::read(d.join("g.csv")).unwrap() == std::fs::read(whole.join("g.csv")).unwrap(),
            "{what}: the CSV is the uninterrupted run's"
        );
        assert_eq!(
            figures(&d.join("j.json")),
            figures(&whole.join("j.json")),
            "{what}"
        );
    };
    same("continued");

    // Retried once more after it finished: nothing is played, the outputs are written again.
    std::fs::remove_file(d.join("j.json")).unwrap();
    let (code, err) = outcome(&args, &here);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.ends_with(
            ": the run is complete (600,000 games): writing its outputs again from the state\n"
        ),
        "{err}"
    );
    same("finished");
}

#[test]
fn a_state_of_another_run_folder_or_warsim_is_refused_and_left_alone() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut first = command(d, "5");
    first[2] = "1000".to_string();
    assert_eq!(outcome(&first, d).0, Some(0));
    let before = |name: &str| std::fs::read(d.join(name)).unwrap();
    let (state, csv) = (before("s.json"), before("g.csv"));
    let refused = |args: &[String], cwd: &Path, needle: &str| {
        let (code, err) = outcome(args, cwd);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.starts_with("error: --continue") && err.contains(needle),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            before("s.json") == state && before("g.csv") == csv,
            "left alone"
        );
    };
    // Another seed: another batch, whose games are not these.
    let mut other = first.clone();
    other[7] = "6".to_string();
    refused(
        &other,
        d,
        "is the state of another run (`warsim run --games 1000 ",
    );
    // The same command from another folder: most likely the folder moved.
    let moved = format!(
        "is this run's state from another folder ({}): if the folder moved here, continue it \
         with `warsim resume {} --folder .`",
        d.canonicalize().unwrap().display(),
        d.join("s.json").display()
    );
    refused(&first, d.parent().unwrap(), &moved);
    // A state another warsim wrote.
    let text = String::from_utf8(state.clone()).unwrap();
    let version = format!("\"warsim_version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version));
    let older = text.replace(&version, "\"warsim_version\": \"0.0.9\"");
    std::fs::write(d.join("s.json"), older).unwrap();
    let (code, err) = outcome(&first, d);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("was written by warsim 0.0.9"), "{err}");
    std::fs::write(d.join("s.json"), &state).unwrap();
    // A file that is not a state is never overwritten.
    std::fs::write(d.join("s.json"), "my notes\n").unwrap();
    let (code, err) = outcome(&first, d);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a state file"), "{err}");
    assert_eq!(before("s.json"), b"my notes\n");
}

#[test]
fn continue_needs_a_state_file_and_no_parquet_on_standard_output() {
    for (args, needle) in [
        (&["--games", "10"][..], "needs --state PATH"),
        (&["--state", "-"], "not '-'"),
        (
            &[
                "--state",
                "s.json",
                "--parquet",
                "-",
                "--checkpoint-every",
                "0",
            ],
            "cannot continue --parquet (on standard output it cannot be read back): write --csv",
        ),
    ] {
        let dir = TempDir::new().unwrap();
        let out = warsim()
            .current_dir(dir.path())
            .args(["run", "--continue"])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("error: --continue ") && err.contains(needle),
            "{err}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing written"
        );
    }
}

#[test]
fn a_state_file_has_one_writer_at_a_time() {
    use common::{interrupt, until};
    use std::process::{Command as Process, Stdio};
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut args = command(d, "9");
    args[2] = "1e9".to_string();
    let state = d.join("s.json");
    let spawn = |args: &[String], stderr: &str| {
        Process::new(assert_cmd::cargo::cargo_bin("warsim"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(d.join(stderr)).unwrap())
            .ends_with_test()
            .spawn()
            .unwrap()
    };
    let said = |name: &str| std::fs::read_to_string(d.join(name)).unwrap_or_default();
    let mut first = spawn(&args, "first.err");
    until("first checkpoint", || state.exists());

    // Another run with that state file is refused before it writes anything, and so is a resume.
    let mut short = args[..args.len() - 1].to_vec();
    short[2] = "1000".to_string();
    let (code, err) = outcome(&short, d);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(&format!(
            "error: --state {}: another warsim",
            state.display()
        )),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let resume = ["resume".to_string(), state.display().to_string()];
    let (code, err) = outcome(&resume, d);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("another warsim is writing this state file"),
        "{err}"
    );

    // A retry begun before the stopped attempt ended waits for it, then continues its checkpoint.
    let mut retry = spawn(&args, "retry.err");
    until("wait by the retry", || {
        said("retry.err").contains("waiting")
    });
    interrupt(first.id());
    assert_eq!(first.wait().unwrap().code(), Some(130));
    until("resumption by the retry", || {
        said("retry.err").contains("resuming after")
    });
    let kept = json(&state)["games"].as_u64().unwrap();
    until("new checkpoint by the retry", || {
        json(&state)["games"].as_u64().unwrap_or(0) > kept
    });
    interrupt(retry.id());
    assert_eq!(
        retry.wait().unwrap().code(),
        Some(130),
        "{}",
        said("retry.err")
    );
    assert!(!d.join("s.json.lock").exists(), "the lock file is removed");

    // Every game once, in order: the CSV is that of a run of the games it holds.
    let games = json(&state)["games"].as_u64().unwrap();
    let whole = d.join("whole.csv");
    let plain = [
        "run",
        "--games",
        &games.to_string(),
        "--seed",
        "9",
        "-q",
        "--csv",
        whole.to_str().unwrap(),
    ];
    assert_eq!(
        warsim().args(plain).output().unwrap().status.code(),
        Some(0)
    );
    assert!(std::fs::read(d.join("g.csv")).unwrap() == std::fs::read(&whole).unwrap());
}

/// A FIFO where the state's lock file goes is refused, and left alone: opened for writing, it
/// waited for a reader for ever, and the run never started.
#[test]
fn a_lock_path_that_is_a_fifo_is_refused() {
    use std::process::{Command as Process, Stdio};
    use std::time::Duration;
    let dir = TempDir::new().unwrap();
    let lock = dir.path().join("run.state.lock");
    common::mkfifo(&lock);
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("warsim"))
        .current_dir(dir.path())
        .args(["run", "--games", "10", "-q", "--state", "run.state"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    common::exits_within(
        &mut child,
        Duration::from_secs(10),
        "the run waited on the FIFO",
    );
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: --state run.state: its lock file")
            && err
                .ends_with("is not a regular file: remove it, or give this run its own --state\n"),
        "{err}"
    );
    assert!(std::fs::metadata(&lock).unwrap().file_type().is_fifo());
    assert!(!dir.path().join("run.state").exists());
}
