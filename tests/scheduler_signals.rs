//! The signals batch schedulers send before they kill a job stop warsim as SIGTERM does: it
//! stops on a whole game, keeps every finished game and says so. SIGUSR2 is Grid Engine's
//! warning before its SIGKILL (`qsub -notify`), exit 140. A CPU time limit (`ulimit -S -t`,
//! Grid Engine's `s_cpu`, LSF's CPULIMIT) sends SIGXCPU, the kernel's warning before the hard
//! limit's SIGKILL, exit 152; the kernel sends it again every second of CPU time until the hard
//! limit: those reminders are not a second signal, which would end the process before its
//! files are ended.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::EndsWithTest;
use tempfile::TempDir;
use warsim::export::text::group;

/// `warsim ARGS` started in `dir`, its standard output and error piped.
fn started(args: &str, dir: &Path) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args.split(' '))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap()
}

#[test]
fn a_cpu_time_limit_stops_a_run_keeping_every_finished_game() {
    let dir = TempDir::new().unwrap();
    // One second of CPU time; the hard limit bounds the test should SIGXCPU go unheeded.
    let script = format!(
        "ulimit -S -t 1; ulimit -H -t 30; exec '{}' run --games 1e12 -q --csv games.csv \
         --json summary.json",
        assert_cmd::cargo::cargo_bin("warsim").display()
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .ends_with_test()
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(152), "{err}");
    let csv = std::fs::read(dir.path().join("games.csv")).unwrap();
    assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
    let rows = csv.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
    let said = format!(
        "interrupted after {} of 1,000,000,000,000 games (SIGXCPU, a CPU time limit): the \
         per-game CSV (games.csv) holds games 0 to {} whole",
        group(rows),
        group(rows - 1)
    );
    assert!(err.contains(&said), "{err}");
    let summary = common::json(&dir.path().join("summary.json"));
    assert_eq!(
        (summary["games"].as_u64(), summary["complete"].as_bool()),
        (Some(rows), Some(false))
    );
}

#[test]
fn sigxcpu_again_is_a_reminder_not_a_second_signal() {
    // The per-game CSV goes to a pipe this test reads only later: the run, stopped by the first
    // signal, waits to write its last rows when SIGXCPU comes, more than half a second later
    // (not the same request). A second signal would end it at once, its rows cut; and the stop
    // keeps the name and status of the signal that asked it.
    for (first, status, name) in [
        ("-XCPU", 152, "SIGXCPU, a CPU time limit"),
        ("-TERM", 143, "SIGTERM"),
    ] {
        let mut child = started("run --games 1e12 -q --threads 1 --csv -", Path::new("."));
        common::until_it_catches(child.id(), libc::SIGXCPU);
        std::thread::sleep(Duration::from_millis(300));
        for signal in [first, "-XCPU"] {
            common::send(signal, child.id());
            std::thread::sleep(Duration::from_millis(700));
        }
        let mut rows = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut rows).unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(status), "{err}");
        assert!(!err.contains("stopped at once"), "{err}");
        let games = rows.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
        assert_eq!(rows.last(), Some(&b'\n'), "{err}");
        let said = format!(
            "interrupted after {} of 1,000,000,000,000 games ({name})",
            group(games)
        );
        assert!(err.contains(&said), "{err}");
    }
}

#[test]
fn sigusr2_stops_a_run_keeping_every_finished_game() {
    let dir = TempDir::new().unwrap();
    let csv = dir.path().join("games.csv");
    let run = "run --games 1e12 -q --csv games.csv --json summary.json";
    let child = started(run, dir.path());
    common::until_it_catches(child.id(), libc::SIGUSR2);
    common::until("rows", || common::size(&csv) > 100_000);
    common::send("-USR2", child.id());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(140), "{err}");
    let csv = std::fs::read(&csv).unwrap();
    assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
    let rows = csv.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
    let said = format!(
        "interrupted after {} of 1,000,000,000,000 games (SIGUSR2)",
        group(rows)
    );
    assert!(err.contains(&said), "{err}");
    assert_eq!(
        common::json(&dir.path().join("summary.json"))["games"],
        rows
    );
}
