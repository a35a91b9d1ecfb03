//! A stopping signal ignored when warsim starts stays ignored, as whoever started it asked:
//! `nohup` ignores SIGHUP so that a run outlives its terminal, and a shell script starts a job
//! in the background with SIGINT ignored. Another signal still stops the run as usual. So with
//! SIGUSR1, which asks for a checkpoint: ignored at the start, it is not answered.

use crate::common;

use std::process::{Command, Stdio};

use common::EndsWithTest;
use common::{size, until};
use tempfile::TempDir;

#[test]
fn a_signal_ignored_at_the_start_stays_ignored_and_another_still_stops_the_run() {
    let signals = [
        ("HUP", libc::SIGHUP),
        ("INT", libc::SIGINT),
        ("USR1", libc::SIGUSR1),
    ];
    for (name, number) in signals {
        let dir = TempDir::new().unwrap();
        let csv = dir.path().join("games.csv");
        // `trap ''` ignores the signal, and `exec` keeps it ignored, as `nohup` does.
        let script = format!(
            "trap '' {name}; exec '{}' run --games 1e12 -q --csv games.csv",
            assert_cmd::cargo::cargo_bin("warsim").display()
        );
        let mut child = Command::new("bash")
            .args(["-c", &script])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .ends_with_test()
            .spawn()
            .unwrap();
        until("rows", || size(&csv) > 100_000);
        let pid = child.id() as libc::pid_t;
        // SAFETY: a plain system call on our own child, which has not been waited for.
        unsafe { libc::kill(pid, number) };
        // Still playing long after a stopped run would have written its last rows.
        let sent_at = size(&csv);
        until("rows after the ignored signal", || {
            size(&csv) > sent_at + 20_000_000
        });
        assert!(child.try_wait().unwrap().is_none(), "SIG{name} stopped it");
        common::send("-TERM", child.id());
        let out = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(143), "SIG{name}: {said}");
        assert!(said.contains("games (SIGTERM)"), "SIG{name}: {said}");
        assert!(!said.contains("SIGUSR1"), "SIG{name}: {said}");
    }
}
