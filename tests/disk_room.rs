//! The warning that a per-game file's disk will not hold the games still to come: given once,
//! as soon as the file holds enough rows to judge by, saying when the run will stop (with room
//! kept in hand, or where the file system cannot keep any); and the run plays on. The disk's
//! free bytes are played by `WARSIM_TEST_FREE_BYTES`.

use crate::common;

use std::fs;

use common::disk::warsim_on;
use common::parquet::rows_as_csv;
use tempfile::TempDir;

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What `warsim ARGS -q`, run in `dir` on a disk with `free` bytes free (the tests' build reads
/// `WARSIM_TEST_FREE_BYTES`), said on standard error; it must succeed.
fn with_free_bytes(free: &str, dir: &std::path::Path, args: &[&str]) -> String {
    on_a_disk(free, "", dir, args)
}

/// [`with_free_bytes`] on a disk that allocates nothing ahead (`unsupported`), as some network
/// file systems, or as the machine's own (`""`).
fn on_a_disk(free: &str, disk: &str, dir: &std::path::Path, args: &[&str]) -> String {
    let out = warsim_on(dir, disk)
        .env("WARSIM_TEST_FREE_BYTES", free)
        .args(args)
        .arg("-q")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    stderr_of(&out)
}

#[test]
fn rows_that_will_not_fit_on_the_disk_are_foretold_once_and_the_run_plays_on() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let run = |free: &str, args: &[&str]| with_free_bytes(free, d, args);
    let batch = ["run", "--games", "100000", "--csv", "games.csv"];
    let err = run("1000000", &batch);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    let line = lines[0];
    assert!(line.starts_with("warning: --csv games.csv: at "), "{err}");
    assert!(
        line.ends_with(
            " and its disk has 1.00 MB free: when less than 4 MiB is left (kept in hand to end \
             every file whole) the run stops, keeping every finished game"
        ),
        "{err}"
    );
    // A file system that cannot keep room in hand (some network ones) fills to its end.
    let err = on_a_disk("1000000", "unsupported", d, &batch);
    assert!(
        err.ends_with(
            " and its disk has 1.00 MB free: when it is full the run stops, keeping every \
             finished game on a whole row\n"
        ),
        "{err}"
    );
    // Said once the first 65,536 rows are written: the rest are to come.
    let to_come: u64 = line
        .split_once(" bytes a game so far, the ")
        .and_then(|(_, rest)| rest.split_once(" games still to come need about "))
        .map(|(count, _)| count.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((1..=100_000 - 65_536).contains(&to_come), "{err}");
    // Every row written all the same.
    let rows = fs::read_to_string(d.join("games.csv"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(rows, 100_001);
    // Room enough, too few rows to judge by, or a pipe: nothing said.
    assert_eq!(run("1000000000000", &batch), "");
    assert_eq!(
        run("1", &["run", "--games", "60000", "--csv", "games.csv"]),
        ""
    );
    // (Its report goes to stderr then.)
    assert!(!run("1", &["run", "--games", "100000", "--csv", "-"]).contains("warning"));
    // A sweep counts the rows of every cell.
    let sweep = [
        "sweep",
        "--players",
        "2,3",
        "--games",
        "50000",
        "--games-csv",
        "cells.csv",
    ];
    let err = run("1000000", &sweep);
    assert!(
        err.starts_with("warning: --games-csv cells.csv: at ")
            && err.ends_with(
                "(kept in hand to end every file whole) the sweep stops, keeping every finished \
                 game\n"
            ),
        "{err}"
    );
}

/// A Parquet file's size is known row group by row group (262,144 games): its disk is asked
/// once the first is in, for a run and for a sweep, a Parquet file alone or beside a CSV.
#[test]
fn rows_that_will_not_fit_in_a_parquet_file_are_foretold_once_its_first_row_group_is_in() {
    let dir = TempDir::new().unwrap();
    let warned = |free: &str, args: &[&str]| {
        let err = with_free_bytes(free, dir.path(), args);
        err.lines().map(String::from).collect::<Vec<_>>()
    };
    let run = ["run", "--games", "300000", "--parquet", "games.parquet"];
    let lines = warned("100000", &run);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (start, end) = lines[0].split_once(" bytes a game so far, ").unwrap();
    assert!(start.starts_with("warning: --parquet games.parquet: at "));
    assert!(end.starts_with("the 37,856 games still to come need about "));
    // The least room in hand grows with the row groups being encoded at once (a quarter of the
    // cores).
    let (_, in_hand) = end
        .split_once(" and its disk has 100.00 kB free: when less than ")
        .unwrap_or_else(|| panic!("{end}"));
    let tail = " MiB is left (kept in hand to end every file whole) the run stops, keeping every \
                finished game";
    let mib: u64 = in_hand
        .strip_suffix(tail)
        .unwrap_or_else(|| panic!("{in_hand}"))
        .parse()
        .unwrap();
    // Twice the groups in flight (3.3 MB each) and the footer (1 MiB and more).
    assert!(mib >= 9, "{in_hand}");
    let unsupported = on_a_disk("100000", "unsupported", dir.path(), &run);
    let tail = " and its disk has 100.00 kB free: when it is full the run stops, keeping the \
                Parquet file's whole row groups (262,144 games each)\n";
    assert!(unsupported.ends_with(tail), "{unsupported}");
    // The file holds every game all the same.
    assert_eq!(
        rows_as_csv(&dir.path().join("games.parquet")).0.len(),
        300_000
    );
    // Room enough, or fewer games than a row group: nothing said.
    assert!(warned("1000000000000", &run).is_empty());
    assert!(
        warned(
            "1",
            &["run", "--games", "262144", "--parquet", "games.parquet"]
        )
        .is_empty()
    );
    // Beside a CSV, each file is asked about on its own.
    let both = [&run[..], &["--csv", "games.csv"]].concat();
    let lines = warned("100000", &both);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("warning: --csv games.csv: at "),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("warning: --parquet games.parquet: at "),
        "{lines:?}"
    );
    // A sweep counts the games of every cell.
    let sweep = [
        "sweep",
        "--players",
        "2,3",
        "--games",
        "150000",
        "--parquet",
        "cells.parquet",
    ];
    let lines = warned("100000", &sweep);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("warning: --parquet cells.parquet: at "),
        "{lines:?}"
    );
    assert!(
        lines[0].contains(" the 37,856 games still to come "),
        "{lines:?}"
    );
    assert!(lines[0].ends_with(
        "(kept in hand to end every file whole) the sweep stops, keeping every finished game"
    ));
}
