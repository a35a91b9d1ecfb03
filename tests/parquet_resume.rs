//! A run or sweep writing a Parquet file beside its state (`--checkpoint-every 0`), stopped by
//! SIGINT: its closing message says the Parquet file cannot be continued, and `warsim resume` of
//! its state is refused with both files left as they were, never played on into a Parquet file
//! holding only the games after the stop.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{refused, signal_in_once_written, within};
use tempfile::TempDir;

/// Stops `args` (run in `dir`, writing `games.parquet` and `s.state`) once its Parquet file has
/// row groups; returns what it said.
fn stopped(dir: &Path, args: &str) -> String {
    let args: Vec<&str> = args.split_whitespace().collect();
    let parquet = dir.join("games.parquet");
    let out = signal_in_once_written(dir, "-INT", &args, &parquet, 100_000);
    assert_eq!(out.status.code(), Some(130));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_run_or_sweep_writing_parquet_is_not_resumed() {
    let outputs = "-q --threads 1 --parquet games.parquet --state s.state --checkpoint-every 0";
    for (what, command) in [
        ("run", "run --games 1e9"),
        ("sweep", "sweep --players 2,3 --games 1e9"),
    ] {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let said = stopped(d, &format!("{command} {outputs}"));
        let again = "; a Parquet file cannot be continued: to play every game, the same command \
                     again\n";
        assert!(said.ends_with(again), "{said}");
        if what == "sweep" {
            assert!(
                said.contains("; the Parquet file (games.parquet) holds them;"),
                "{said}"
            );
        }
        let before = [
            std::fs::read(d.join("games.parquet")).unwrap(),
            std::fs::read(d.join("s.state")).unwrap(),
        ];

        // Within a minute: a resume that played on would take hours.
        let resume = ["resume", "s.state"].map(String::from);
        let out = within(d, &resume, Duration::from_secs(60)).expect("resume refused at once");
        let err = refused(&out);
        assert_eq!(
            err,
            format!(
                "error: s.state: the {what} writes --parquet, which cannot be continued (a \
                 Parquet file is complete only once closed): nothing was changed; play the \
                 {what} again from its start\n"
            )
        );
        let after = [
            std::fs::read(d.join("games.parquet")).unwrap(),
            std::fs::read(d.join("s.state")).unwrap(),
        ];
        assert!(
            before == after,
            "{what}: the Parquet file and the state are left as they were"
        );
    }
}
