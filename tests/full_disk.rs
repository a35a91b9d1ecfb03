//! A disk that fills: warsim keeps room in hand past each per-game file's end, stops when the
//! disk will not give it, and ends every file whole in it: the CSV on a whole row, the Parquet
//! file with every game and its footer, the summaries and the state written. The disk is played
//! by `WARSIM_TEST_DISK_BYTES` (room refused past that byte of a file); tests/real_disks.rs
//! fills real ones. A file size limit (`ulimit -f`) is met as a full disk, not as a kill.

use crate::common;

use std::fs;
use std::process::Output;

use common::disk::{NEARLY_FULL, csv_rows, on_disk};
use common::parquet::rows_as_csv;
use tempfile::TempDir;
use warsim::export::ROW_GROUP;
use warsim::export::text::group;

/// Checks that the run `out` came from played to its end.
fn played(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
}

/// A folder whose `games.csv` holds the first `games` games of the batch, played to their end
/// on the machine's own disk.
fn uninterrupted(games: u64) -> TempDir {
    let dir = TempDir::new().unwrap();
    let run = format!("run --games {games} -q --csv games.csv");
    played(&on_disk(dir.path(), "", &run));
    dir
}

/// The error line of a run stopped with its disk nearly full (exit status 1).
fn stopped(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn a_nearly_full_disk_stops_a_run_with_every_file_whole() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let run = "run --games 400000 -q --csv games.csv --parquet games.parquet --json s.json \
               --histogram h.csv";
    // The CSV (about 52 bytes a game) is refused 16 MiB once 8 MiB are in it, then keeps 4 MiB,
    // and stops when even that is refused: at about 17 MB, before the Parquet file (13 bytes).
    let err = stopped(&on_disk(d, "20000000", run));
    let rows = csv_rows(&d.join("games.csv"));
    let n = rows.len();
    let last = group(n as u64 - 1);
    assert_eq!(
        err,
        format!(
            "error: could not write the per-game CSV to games.csv: {NEARLY_FULL}; stopped after \
             {} games: the per-game CSV (games.csv) holds games 0 to {last} whole; the Parquet \
             file (games.parquet) holds games 0 to {last}; the summaries describe those games \
             (complete: false); the histograms count those games\n",
            group(n as u64)
        )
    );
    assert!((262_144..400_000).contains(&n), "{n}");
    // The same games as a run that was not stopped, in both files, and counted by the JSON.
    let whole = uninterrupted(400_000);
    assert_eq!(rows, csv_rows(&whole.path().join("games.csv"))[..n]);
    assert_eq!(rows_as_csv(&d.join("games.parquet")).0, rows);
    let summary = common::json(&d.join("s.json"));
    assert_eq!(summary["games"], n as u64);
    assert_eq!(summary["complete"], false);
    assert!(d.join("h.csv").exists());
}

/// The Parquet file keeps more room than the CSV beside it, so its disk can refuse it first:
/// the run stops before the next range with both files holding the same games.
#[test]
fn a_parquet_file_refused_room_beside_a_csv_holds_the_games_the_csv_holds() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // 18 MB: the CSV (13.6 MB at the first row group) keeps its 4 MiB; the Parquet file asks
    // for its room (about 18.9 MB before a row group is measured) with its first bytes.
    let run = "run --games 400000 -q --csv games.csv --parquet games.parquet --json s.json";
    let err = stopped(&on_disk(d, "18000000", run));
    let rows = csv_rows(&d.join("games.csv"));
    let n = rows.len();
    assert!(
        err.starts_with("error: could not write the Parquet file to games.parquet: its disk"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "stopped after {} games: the per-game CSV (games.csv) holds games 0 to {} whole; \
             the Parquet file (games.parquet) holds games 0 to {}; ",
            group(n as u64),
            group(n as u64 - 1),
            group(n as u64 - 1)
        )),
        "{err}"
    );
    assert!((262_144..400_000).contains(&n), "{n}");
    assert_eq!(rows_as_csv(&d.join("games.parquet")).0, rows);
    assert_eq!(common::json(&d.join("s.json"))["games"], n as u64);
}

#[test]
fn a_parquet_file_refused_room_ends_with_every_game_and_its_footer() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Its room is twice the row groups in flight (two of 3.3 MB on two cores) and a footer,
    // about 15 MiB: refused once four row groups (13.1 MB) are on their way in, and the run
    // stops before the next range of games it is given.
    let run = "run --games 1500000 -q --parquet games.parquet --json s.json";
    let err = stopped(&on_disk(d, "19000000", run));
    let (rows, groups) = rows_as_csv(&d.join("games.parquet"));
    let (n, last) = (group(rows.len() as u64), group(rows.len() as u64 - 1));
    // The room grows with the groups encoded at once (a quarter of the cores): its MiB vary.
    let (start, end) = err
        .split_once(" MiB free, ")
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        start.starts_with(
            "error: could not write the Parquet file to games.parquet: its disk is nearly full \
             (less than "
        ),
        "{err}"
    );
    assert_eq!(
        end,
        format!(
            "the room warsim keeps in hand to end every file whole); stopped after {n} games: \
             the Parquet file (games.parquet) holds games 0 to {last}; the summaries describe \
             those games (complete: false)\n"
        )
    );
    // Where it stops depends on how far the workers had played on when the room was refused:
    // under load, as early as the fourth group's end (seen: 11 games past it).
    assert!(
        (1_048_576..1_500_000).contains(&rows.len()) && groups == rows.len().div_ceil(ROW_GROUP),
        "{n} in {groups}"
    );
    let whole = uninterrupted(1_500_000);
    assert_eq!(
        rows,
        csv_rows(&whole.path().join("games.csv"))[..rows.len()]
    );
    assert_eq!(common::json(&d.join("s.json"))["games"], rows.len());
}

/// A disk that refuses the room as the last games are written does not fail the run: every
/// game is in its files, and the disk is not asked again.
#[test]
fn a_run_whose_last_write_meets_a_nearly_full_disk_ends_complete() {
    let dir = TempDir::new().unwrap();
    // The fourth row group, refused its room, holds the last of the games.
    let run = "run --games 1048576 -q --parquet games.parquet --json s.json";
    played(&on_disk(dir.path(), "19000000", run));
    assert_eq!(
        rows_as_csv(&dir.path().join("games.parquet")).0.len(),
        1_048_576
    );
    assert_eq!(common::json(&dir.path().join("s.json"))["complete"], true);
}

#[test]
fn a_run_stopped_by_a_nearly_full_disk_says_how_to_play_on_and_resumes() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let run = "run --games 400000 -q --csv games.csv --state st.json --json s.json";
    let err = stopped(&on_disk(d, "20000000", run));
    assert!(
        err.ends_with(
            "; to play on once its disk has room: `warsim resume st.json`, or the same command \
             with --continue\n"
        ),
        "{err}"
    );
    // Room made, the run plays on to the files of one never stopped.
    played(&on_disk(d, "", "resume st.json -q"));
    let whole = uninterrupted(400_000);
    assert_eq!(
        fs::read(d.join("games.csv")).unwrap(),
        fs::read(whole.path().join("games.csv")).unwrap()
    );
    assert_eq!(common::json(&d.join("s.json"))["complete"], true);
}

#[test]
fn a_sweep_stopped_by_a_nearly_full_disk_keeps_its_tables_and_rows() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let sweep = "sweep --players 2,3 --games 200000 -q --games-csv cells.csv --json s.json \
                 --state st.json";
    let err = stopped(&on_disk(d, "20000000", sweep));
    let rows = csv_rows(&d.join("cells.csv"));
    // The first cell whole (200,000 games), the second's first games.
    let second = rows.len() - 200_000;
    assert!(rows[200_000].starts_with("1,3,0,"), "{}", rows[200_000]);
    assert_eq!(
        err,
        format!(
            "error: could not write the per-game CSV to cells.csv: {NEARLY_FULL}; stopped in \
             cell 1 of cells 0 to 1 after {} of its games: the per-game CSV (cells.csv) holds every game \
             before it; the tables describe every game before it; to play on once its disk has \
             room: `warsim resume st.json`, or the same command with --continue\n",
            group(second as u64)
        )
    );
    let cells = &common::json(&d.join("s.json"))["cells"];
    assert_eq!(cells[1]["games"], second as u64);
}

/// A file system that cannot allocate ahead (some network ones) keeps nothing in hand: the
/// run plays to its end, as before.
#[test]
fn a_disk_that_cannot_allocate_ahead_plays_on() {
    let dir = TempDir::new().unwrap();
    let run = "run --games 200000 -q --csv games.csv --parquet games.parquet";
    played(&on_disk(dir.path(), "unsupported", run));
    assert_eq!(csv_rows(&dir.path().join("games.csv")).len(), 200_000);
}

/// A disk with less than the 16 MiB warsim would rather keep still takes the games that fit:
/// the file keeps only 4 MiB in hand there, and stops only when even that is refused.
#[test]
fn a_run_that_fits_a_small_disk_plays_to_its_end() {
    let dir = TempDir::new().unwrap();
    // 5.2 MB of rows on a 10 MB disk.
    let run = "run --games 100000 -q --csv games.csv --json s.json";
    played(&on_disk(dir.path(), "10000000", run));
    assert_eq!(csv_rows(&dir.path().join("games.csv")).len(), 100_000);
    // Twice as many do not fit, and stop with 4 MiB left.
    let run = "run --games 200000 -q --csv games.csv --json s.json";
    let err = stopped(&on_disk(dir.path(), "10000000", run));
    assert!(err.contains(NEARLY_FULL), "{err}");
    let rows = csv_rows(&dir.path().join("games.csv")).len();
    assert!((100_000..200_000).contains(&rows), "{rows}");
}

/// A file size limit (`ulimit -f`), which ends a process with SIGXFSZ by default, is met as a
/// full disk: warsim ignores the signal, so the write fails, and the run keeps every finished
/// game on a whole row, says so and how to play on once the limit is raised, and exits 1
/// (killed, it left a cut row and no summary); resumed without the limit, its CSV is whole.
#[test]
fn a_file_size_limit_stops_a_run_as_a_full_disk_does() {
    let dir = TempDir::new().unwrap();
    let run = "run --games 200000 -q --csv games.csv --json summary.json --state st.json";
    // Not trapped by the shell, as a scheduler's limit is not: warsim ignores it itself.
    let out = common::with_full_disk_at(1024, dir.path(), run);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let rows = csv_rows(&dir.path().join("games.csv")).len() as u64;
    let said = format!(
        "error: could not write the per-game CSV to games.csv: File too large (os error 27): \
         past the file size limit (`ulimit -f`) or the largest file its file system holds; \
         stopped after {} games",
        group(rows)
    );
    assert!(err.starts_with(&said), "{err}");
    let play_on = "; to play on once the file size limit is raised (`ulimit -f`): `warsim resume \
                   st.json`, or the same command with --continue\n";
    assert!(err.ends_with(play_on), "{err}");
    assert_eq!(
        common::json(&dir.path().join("summary.json"))["games"],
        rows
    );
    played(&on_disk(dir.path(), "", "resume st.json -q"));
    let whole = uninterrupted(200_000);
    let rows = |dir: &std::path::Path| csv_rows(&dir.join("games.csv"));
    assert!(
        rows(dir.path()) == rows(whole.path()),
        "resumed, the CSV is the whole run's"
    );
}
