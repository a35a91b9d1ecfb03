//! A run or sweep writing its per-game CSV to standard output with `--state`, stopped by SIGINT
//! and resumed: the resumed output goes on without a header, so the stopped output and the
//! resumed one joined are the uninterrupted run's byte for byte, and `warsim resume` says how to
//! join them. (warsim cannot read back or cut a stream, as it does a file.)

mod common;

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{EndsWithTest, interrupt, size, until};
use tempfile::TempDir;
use warsim::export::text::group;

/// `warsim ARGS` in `dir`, its standard output into `dir/out`, standard error kept; when `stop`,
/// interrupted once 100 kB of rows came. Returns its exit status and what it said.
fn to_file(dir: &Path, args: &[&str], out: &str, stop: bool) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args)
        .current_dir(dir)
        .stdout(File::create(dir.join(out)).unwrap())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    if stop {
        until("100 kB of rows", || size(&dir.join(out)) >= 100_000);
        interrupt(child.id());
    }
    let said = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    (child.wait().unwrap().code(), said)
}

#[test]
fn a_resumed_csv_on_standard_output_continues_the_stopped_one() {
    let run = "run --games 1e6 --threads 1 -q --csv -";
    let sweep = "sweep --players 2,3 --games 5e5 --threads 1 -q --games-csv -";
    for (what, command) in [("run", run), ("sweep", sweep)] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let args: Vec<&str> = command.split_whitespace().collect();
        let (code, said) = to_file(d, &args, "whole.csv", false);
        assert_eq!(code, Some(0), "{said}");

        let stopped = [&args[..], &["--state", "s.state"]].concat();
        let (code, said) = to_file(d, &stopped, "first.csv", true);
        assert_eq!(code, Some(130), "{what}: {said}");
        let (code, said) = to_file(d, &["resume", "s.state"], "rest.csv", false);
        assert_eq!(code, Some(0), "{what}: {said}");

        let first = std::fs::read(d.join("first.csv")).unwrap();
        let rows = first.iter().filter(|&&b| b == b'\n').count() - 1;
        let joined = format!(
            " (the per-game CSV on standard output goes on from there, without its header: \
             append it to the stopped {what}'s first {} rows)\n",
            group(rows as u64)
        );
        assert!(
            said.lines()
                .next()
                .is_some_and(|line| format!("{line}\n").ends_with(&joined)),
            "{said}"
        );
        let rest = std::fs::read(d.join("rest.csv")).unwrap();
        let whole = std::fs::read(d.join("whole.csv")).unwrap();
        assert!(
            [first, rest].concat() == whole,
            "{what}: the stopped and resumed outputs joined are the uninterrupted one"
        );
    }
}
