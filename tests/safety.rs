//! Data safety as a user meets it: outputs that never destroy what warsim did not create,
//! interrupts that keep every finished game on a whole row with summaries of exactly those
//! games (write errors: `write_errors.rs`), and a closed or full standard output that never panics.

use crate::common;

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::EndsWithTest;
use common::json;
use tempfile::TempDir;

fn warsim() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit status 2 and exactly one line on stderr, starting `error:` and containing `expected`.
fn assert_refused(out: &std::process::Output, expected: &str) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let error_lines = err.lines().filter(|l| l.starts_with("error:")).count();
    assert_eq!(error_lines, 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains(expected),
        "{err}"
    );
}

#[test]
fn a_bad_output_touches_no_existing_file() {
    let dir = TempDir::new().unwrap();
    let keep = dir.path().join("keep.csv");
    fs::write(&keep, "data\n").unwrap();
    let out = warsim()
        .args(["run", "--games", "10", "-q", "--csv"])
        .arg(&keep)
        .args(["--json", "/nonexistent/x.json"])
        .output()
        .unwrap();
    assert_refused(
        &out,
        "--json /nonexistent/x.json: folder '/nonexistent' does not exist",
    );
    assert_eq!(fs::read_to_string(&keep).unwrap(), "data\n");

    // A link to a device as one output, a folder as another: the link stays.
    let link = dir.path().join("device");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let out = warsim()
        .args(["run", "--games", "10", "-q", "--summary"])
        .arg(&link)
        .args(["--json", "./"])
        .output()
        .unwrap();
    assert_refused(&out, "--json ./: is a folder");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// `sub/` for a folder that does not exist was taken for a file `sub`: the batch ran, then
/// failed to write its summary or state.
#[test]
fn a_path_naming_a_missing_folder_is_refused_before_any_game() {
    let dir = TempDir::new().unwrap();
    for (command, flag) in [
        ("run", "--summary"),
        ("run", "--state"),
        ("sweep", "--plot"),
    ] {
        let out = warsim()
            .current_dir(dir.path())
            .args([command, "--players", "2", "--games", "10", flag, "sub/"])
            .output()
            .unwrap();
        assert_refused(&out, &format!("{flag} sub/: names a folder, not a file"));
        assert!(out.stdout.is_empty(), "no game was played");
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A name that promises another format got it silently: `--plot lengths.png` an SVG that
/// picture viewers refuse, `--csv games.csv.gz` plain text that gunzip and pandas refuse.
#[test]
fn an_output_named_as_another_formats_file_is_refused_before_any_game() {
    let dir = TempDir::new().unwrap();
    for (command, flag, name, says) in [
        (
            "run",
            "--plot",
            "lengths.png",
            "the name says PNG, and --plot writes SVG",
        ),
        (
            "sweep",
            "--games-csv",
            "games.csv.gz",
            "the name says gzip, and --games-csv writes CSV",
        ),
        (
            "enumerate",
            "--json",
            "deals.csv",
            "the name says CSV, and --json writes JSON",
        ),
    ] {
        let out = warsim()
            .current_dir(dir.path())
            .args([command, "--suits", "1", "--ranks", "4", flag, name])
            .output()
            .unwrap();
        assert_refused(&out, &format!("{flag} {name}: {says}"));
        assert!(out.stdout.is_empty(), "no game was played");
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// An output that is where standard output or standard error already goes (`/dev/stdout`,
/// or the file `>` sends it to) was opened a second time: the report, written last from the
/// start of the file, overwrote the per-game rows, or cut through them in a pipe.
#[test]
fn an_output_that_is_standard_output_or_error_is_refused() {
    let dir = TempDir::new().unwrap();
    for (flag, path) in [("--csv", "/dev/stdout"), ("--json", "/dev/stderr")] {
        let out = warsim()
            .args(["run", "--games", "10", flag, path])
            .output()
            .unwrap();
        let stream = if path.ends_with("stdout") {
            "output"
        } else {
            "error"
        };
        assert_refused(
            &out,
            &format!("{flag} {path}: is where standard {stream} goes"),
        );
        assert!(out.stdout.is_empty());
    }
    let report = dir.path().join("report.txt");
    fs::write(&report, "kept\n").unwrap();
    let appended = fs::OpenOptions::new().append(true).open(&report).unwrap();
    let out = warsim()
        .current_dir(dir.path())
        .args(["run", "--games", "10", "--summary", "report.txt"])
        .stdout(appended)
        .output()
        .unwrap();
    assert_refused(&out, "--summary report.txt: is where standard output goes");
    assert_eq!(fs::read_to_string(&report).unwrap(), "kept\n");
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_any_game() {
    let dir = TempDir::new().unwrap();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let cases: [(&str, PathBuf, &str, PathBuf); 3] = [
        (
            "--csv",
            dir.path().join("x"),
            "--json",
            dir.path().join(".").join("x"),
        ),
        (
            "--csv",
            dir.path().join("f"),
            "--summary",
            sub.join("..").join("f"),
        ),
        (
            "--summary",
            dir.path().join("s"),
            "--json",
            dir.path().join("s"),
        ),
    ];
    for (first, a, second, b) in cases {
        let out = warsim()
            .args(["run", "--games", "10", "-q", first])
            .arg(&a)
            .arg(second)
            .arg(&b)
            .output()
            .unwrap();
        assert_refused(&out, &format!("is the file {first} writes too"));
        assert!(!a.exists(), "nothing was created");
    }
    // A character device may take several outputs, and stays what it is.
    let out = warsim()
        .args([
            "run",
            "--games",
            "10",
            "-q",
            "--summary",
            "/dev/null",
            "--json",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

/// Starts a long run writing a CSV and summaries into `dir`, and waits until it has written
/// some rows.
fn start_long_run(dir: &Path, extra: &[&str]) -> Child {
    let child = warsim()
        .args("run --games 1e12 --seed 77 --threads 2 -q".split(' '))
        .args(extra)
        .arg("--csv")
        .arg(dir.join("games.csv"))
        .arg("--json")
        .arg(dir.join("summary.json"))
        .arg("--summary")
        .arg(dir.join("summary.csv"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    let started = Instant::now();
    while fs::metadata(dir.join("games.csv")).map_or(0, |m| m.len()) < 200_000 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no rows written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn an_interrupt_keeps_every_finished_game_and_summarises_exactly_them() {
    for (name, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = TempDir::new().unwrap();
        let child = start_long_run(dir.path(), &[]);
        signal(&child, name);
        let started = Instant::now();
        let out = child.wait_with_output().unwrap();
        // Not a timing claim: the run it stops would take days, so this only catches a hang.
        assert!(started.elapsed() < Duration::from_secs(60), "it stopped");
        assert_eq!(
            out.status.code(),
            Some(status),
            "SIG{name}: {}",
            stderr_of(&out)
        );
        let csv = fs::read(dir.path().join("games.csv")).unwrap();
        assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
        let rows = csv.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
        let summary = json(&dir.path().join("summary.json"));
        assert_eq!(summary["games"], rows);
        assert_eq!(summary["games_requested"], 1_000_000_000_000u64);
        assert_eq!(summary["complete"], false);
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(report.contains("asked for (incomplete"), "{report}");
        let said = stderr_of(&out);
        let err = common::disk::past_room_warnings(&said);
        assert!(
            err.starts_with("interrupted after ")
                && err.contains(" of 1,000,000,000,000 games (SIG")
                && !err.contains("to play on"),
            "{err}: no state, no way to play on"
        );
        let summary_csv = fs::read_to_string(dir.path().join("summary.csv")).unwrap();
        assert!(summary_csv.lines().count() == 2 && summary_csv.contains(",false,"));
        if name != "INT" {
            continue;
        }
        // The kept games are exactly the first `rows` games of the batch: the same rows and
        // figures as a run of that many games.
        let whole = TempDir::new().unwrap();
        let out = warsim()
            .args([
                "run",
                "--seed",
                "77",
                "-q",
                "--games",
                &rows.to_string(),
                "--csv",
            ])
            .arg(whole.path().join("games.csv"))
            .arg("--json")
            .arg(whole.path().join("summary.json"))
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(fs::read(whole.path().join("games.csv")).unwrap() == csv);
        let complete = json(&whole.path().join("summary.json"));
        for (key, value) in complete.as_object().unwrap() {
            if !matches!(
                key.as_str(),
                "games_requested"
                    | "batch_games"
                    | "complete"
                    | "wall_seconds"
                    | "games_per_second"
            ) {
                assert_eq!(&summary[key], value, "{key}");
            }
        }
        assert_eq!(complete["complete"], true);
    }
}

#[test]
fn rules_survive_a_closed_or_full_standard_output() {
    let mut child = warsim()
        .arg("rules")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = warsim().arg("rules").stdout(full).output().unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(err.starts_with("error: could not write the rules"), "{err}");
}

/// A folder others may write in but not read (`-wx`, a drop box) cannot be opened to sync its
/// names: the run still writes its files there (the names left to the file system) instead of
/// failing after writing them. Run as `nobody` when the tests run as root, whom no permission
/// stops.
#[test]
fn a_folder_that_can_be_written_but_not_read_still_takes_the_outputs() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new().unwrap();
    let drop_box = dir.path().join("drop");
    fs::create_dir(&drop_box).unwrap();
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    let (mode, mut command) = match root {
        true => {
            let mut runuser = Command::new("runuser");
            runuser.args(["-u", "nobody", "--"]);
            runuser.arg(assert_cmd::cargo::cargo_bin("warsim"));
            (0o733, runuser)
        }
        false => (0o333, warsim()),
    };
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&drop_box, fs::Permissions::from_mode(mode)).unwrap();
    let out = command
        .args(["run", "--games", "1000", "-q", "--csv", "drop/games.csv"])
        .args(["--json", "drop/summary.json", "--state", "drop/run.state"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    fs::set_permissions(&drop_box, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let rows = fs::read_to_string(drop_box.join("games.csv")).unwrap();
    assert_eq!(rows.lines().count(), 1001);
    assert_eq!(json(&drop_box.join("summary.json"))["games"], 1000);
    assert!(drop_box.join("run.state").is_file());
}
