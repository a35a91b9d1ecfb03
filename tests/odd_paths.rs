//! Paths holding spaces, quotes or a newline: every message, and the report line that names a
//! state, still takes one line (control characters escaped), and a command a message offers to
//! paste names the very files when pasted into a shell (quoted as a shell reads them back).

use crate::common;

use std::process::Command;

use tempfile::TempDir;

/// The stopped run's files: a CSV whose name holds a newline, a state whose name holds a space
/// and a quote.
const CSV: &str = "ga\nmes.csv";
const STATE: &str = "s t's.json";

#[test]
fn an_interrupted_run_says_so_on_one_line_and_its_resume_command_pastes() {
    let dir = TempDir::new().unwrap();
    let args = [
        "run", "--games", "1000000", "-q", "--csv", CSV, "--state", STATE,
    ];
    let out =
        common::signal_in_once_written(dir.path(), "-TERM", &args, &dir.path().join(CSV), 100_000);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the per-game CSV (ga\\nmes.csv) holds games 0 to "),
        "{err}"
    );
    let offered = err
        .split("to play on: `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("no command to paste: {err}"));
    assert_eq!(offered, r"warsim resume 's t'\''s.json'");
    // Pasted into a shell where `warsim` is the binary under test.
    let warsim = assert_cmd::cargo::cargo_bin("warsim");
    let script = format!(
        "warsim() {{ '{}' \"$@\"; }}; {offered} -q",
        warsim.display()
    );
    let resumed = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert_eq!(resumed.status.code(), Some(0), "{said}");
    let rows = std::fs::read_to_string(dir.path().join(CSV)).unwrap();
    assert_eq!(rows.lines().count(), 1_000_001, "every game and the header");
}

#[test]
fn another_runs_state_is_refused_naming_its_command_as_typed() {
    let dir = TempDir::new().unwrap();
    let first = [
        "run",
        "--games",
        "100",
        "-q",
        "--json",
        "my summary.json",
        "--state",
        STATE,
    ];
    common::warsim()
        .current_dir(dir.path())
        .args(first)
        .assert()
        .success();
    let out = common::warsim()
        .current_dir(dir.path())
        .args([
            "run",
            "--games",
            "200",
            "-q",
            "--state",
            STATE,
            "--continue",
        ])
        .output()
        .unwrap();
    let err = common::refused(&out);
    assert!(
        err.contains(
            r"(`warsim run --games 100 -q --json 'my summary.json' --state 's t'\''s.json'` in "
        ),
        "{err}"
    );
}

#[test]
fn an_enumeration_parts_report_names_its_state_on_one_line() {
    let dir = TempDir::new().unwrap();
    let args = [
        "enumerate",
        "--suits",
        "1",
        "--ranks",
        "6",
        "--shard",
        "0/2",
        "-q",
    ];
    let out = common::warsim()
        .current_dir(dir.path())
        .args(args)
        .args(["--state", "e\n.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report = String::from_utf8(out.stdout).unwrap();
    let state = report.lines().find(|l| l.starts_with("state ")).unwrap();
    assert_eq!(
        state,
        "state        e\\n.json: their exact counts; `warsim merge` every part's state for the \
         deck's figures"
    );
}
