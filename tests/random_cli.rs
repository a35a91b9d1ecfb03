//! Randomized command lines against the binary: a seeded generator of valid lines, lines with
//! one invalid value injected, and free mixtures of good and bad values (boundaries, huge and
//! negative numbers, NaN, empty, unicode, very long strings, every preset and setting, repeated
//! and conflicting outputs), `sweep` lines whose lists and ranges sit at the edges of every
//! axis, and `enumerate` lines of small decks and edge ones. Whatever the line: never a panic,
//! abort or hang; invalid input exits 2 with exactly one `error:` line; valid input exits 0;
//! nothing outside the test's own folder is touched.

use std::fs;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use crate::common;
#[path = "random_cli/enumerate_lines.rs"]
mod enumerate_lines;
#[path = "random_cli/generate.rs"]
mod generate;
#[path = "random_cli/sweep_lines.rs"]
mod sweep_lines;

use common::within;
use enumerate_lines::enumerate_line;
use generate::{Dice, Expect, Line, invalid_run, mixture, play_line, valid_run};
use sweep_lines::sweep_line;

/// Runs one line in `dir` and checks the outcome; returns a failure description.
fn check(dir: &Path, number: usize, line: &Line, expect: Expect) -> Option<String> {
    let args = line.args();
    let Some(Output {
        status,
        stdout,
        stderr,
    }) = within(dir, &args, Duration::from_secs(60))
    else {
        return Some(format!("line {number} hung: {args:?}"));
    };
    let err = String::from_utf8_lossy(&stderr);
    // One error line, first; clap's own errors add its tip, usage and where help is.
    let error_lines = err.lines().filter(|l| l.starts_with("error:")).count();
    let refusal_ok = status.code() == Some(2) && error_lines == 1 && err.starts_with("error: ");
    let fine = match (status.code(), expect) {
        (Some(0), Expect::Success | Expect::Either) => true,
        (Some(2), Expect::Refusal | Expect::Either) => refusal_ok,
        _ => false,
    };
    // A sweep played is one of at least one cell: a grid that came out empty (a count that
    // overflowed) is an error, not a report of nothing.
    let cells = String::from_utf8_lossy(&stdout)
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse::<u64>().ok());
    let empty_sweep = args[0] == "sweep" && status.success() && cells.is_none_or(|n| n == 0);
    (!fine || empty_sweep || err.contains("panicked"))
        .then(|| format!("line {number} ({expect:?}) exited {status:?}: {args:?}\nstderr: {err}"))
}

#[test]
fn random_command_lines_never_panic_and_are_answered_as_documented() {
    let root = tempfile::TempDir::new().unwrap();
    let outside = root.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("keep.csv"), "user data\n").unwrap();
    let mut dice = Dice(20_261_123);
    let mut lines: Vec<(Line, Expect)> = Vec::new();
    for _ in 0..450 {
        lines.push((valid_run(&mut dice), Expect::Success));
        lines.push((invalid_run(&mut dice), Expect::Refusal));
    }
    for _ in 0..150 {
        lines.push((mixture(&mut dice), Expect::Either));
    }
    for _ in 0..150 {
        lines.push(play_line(&mut dice));
    }
    for _ in 0..150 {
        lines.push((sweep_line(&mut dice), Expect::Either));
    }
    for _ in 0..150 {
        lines.push((enumerate_line(&mut dice), Expect::Either));
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let (lines, root) = (&lines, root.path());
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (number, (line, expect)) in lines.iter().enumerate().skip(w).step_by(2) {
                        let dir = root.join(format!("line{number}"));
                        fs::create_dir_all(dir.join("sub")).unwrap();
                        failures.extend(check(&dir, number, line, *expect));
                        let _ = fs::remove_dir_all(&dir);
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(lines.len() >= 1000);
    assert!(
        failures.is_empty(),
        "{} of {} lines failed:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
    assert_eq!(
        fs::read_to_string(outside.join("keep.csv")).unwrap(),
        "user data\n"
    );
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 1);
    use std::os::unix::fs::FileTypeExt;
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}
