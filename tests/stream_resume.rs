//! A run or sweep writing its per-game CSV to standard output with `--state`, stopped by SIGINT
//! or killed after a checkpoint, and resumed: the resumed output goes on without a header from
//! the checkpoint's games, and `warsim resume` says how many rows of the stopped output to keep,
//! so the two joined are the uninterrupted run's byte for byte. (warsim cannot read back or cut a
//! stream, as it does a file.)

use crate::common;

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{EndsWithTest, interrupt, send, size, until};
use tempfile::TempDir;

/// `warsim ARGS` in `dir`, its standard output into `dir/out`, standard error kept; stopped by
/// `signal` (`-INT`, or `-KILL` once it wrote a checkpoint) when 100 kB of rows came. Returns its
/// exit status and what it said.
fn to_file(dir: &Path, args: &[&str], out: &str, signal: Option<&str>) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args)
        .current_dir(dir)
        .stdout(File::create(dir.join(out)).unwrap())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    let rows_written = || size(&dir.join(out)) >= 100_000;
    match signal {
        Some("-INT") => {
            until("100 kB of rows", rows_written);
            interrupt(child.id());
        }
        Some(signal) => {
            until("a checkpoint", || {
                rows_written() && dir.join("s.state").exists()
            });
            send(signal, child.id());
        }
        None => {}
    }
    let said = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    (child.wait().unwrap().code(), said)
}

/// The rows `warsim resume` says to keep of the stopped output: `N` in its first line's "append
/// it to the first N rows written before: the stopped run's, or after earlier resumptions its
/// outputs joined)".
fn rows_to_keep(said: &str, what: &str) -> usize {
    let line = said.lines().next().unwrap_or_default();
    let lead = " (the per-game CSV on standard output goes on from there, without its header: \
                append it to the first ";
    let (_, told) = line.split_once(lead).expect(said);
    let tail = format!(
        " rows written before: the stopped {what}'s, or after earlier resumptions its outputs \
         joined)"
    );
    let rows = told.strip_suffix(&tail).expect(said);
    rows.replace(',', "").parse().expect(said)
}

#[test]
fn a_resumed_csv_on_standard_output_continues_the_stopped_one() {
    let run = "run --games 1e6 --threads 1 -q --csv -";
    let sweep = "sweep --players 2,3 --games 5e5 --threads 1 -q --games-csv -";
    for (what, command) in [("run", run), ("sweep", sweep)] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let args: Vec<&str> = command.split_whitespace().collect();
        let (code, said) = to_file(d, &args, "whole.csv", None);
        assert_eq!(code, Some(0), "{said}");
        let whole = std::fs::read(d.join("whole.csv")).unwrap();

        for (signal, status) in [("-INT", Some(130)), ("-KILL", None)] {
            let _ = std::fs::remove_file(d.join("s.state"));
            let state = ["--state", "s.state", "--checkpoint-every", "100ms"];
            let stopped = [&args[..], &state].concat();
            let (code, said) = to_file(d, &stopped, "first.csv", Some(signal));
            assert_eq!(code, status, "{what} {signal}: {said}");
            let (code, said) = to_file(d, &["resume", "s.state"], "rest.csv", None);
            assert_eq!(code, Some(0), "{what} {signal}: {said}");

            // The header and the rows resume says to keep; after SIGINT, every row.
            let first = std::fs::read(d.join("first.csv")).unwrap();
            let keep = rows_to_keep(&said, what) + 1;
            let kept: Vec<&[u8]> = first.split_inclusive(|&b| b == b'\n').take(keep).collect();
            if signal == "-INT" {
                assert_eq!(kept.len(), first.split_inclusive(|&b| b == b'\n').count());
            }
            let rest = std::fs::read(d.join("rest.csv")).unwrap();
            assert!(
                [kept.concat(), rest].concat() == whole,
                "{what} {signal}: the rows kept and the resumed output are the uninterrupted one"
            );
        }
    }
}
