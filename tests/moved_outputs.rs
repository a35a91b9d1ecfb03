//! A per-game CSV another program moves away while warsim writes it (`mv games.csv …`), or
//! removes and puts another file in its place: a state, at each checkpoint and at the end,
//! records where the file warsim wrote ends and its last row, read from that file itself, not
//! from whatever its name leads to now. A checkpoint after a move used to fail (its last row
//! read from the name, which led nowhere), stopping the run; a state left after a removal
//! counted the new file's bytes, and `warsim resume` then appended its games to that file.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{
    EndsWithTest, exits_within, interrupt, json, lost_while_written, refused, said, size, start_in,
    until, within,
};
use tempfile::TempDir;

/// A long run and a long sweep, each writing `games.csv`.
const RUN_AND_SWEEP: [&str; 2] = [
    "run --games 1e9 --csv games.csv",
    "sweep --players 2..3 --games 1e9 --games-csv games.csv",
];

/// `warsim resume run.state` in `dir`, which must end within a minute.
fn resume_in(dir: &Path) -> std::process::Output {
    let args = ["resume", "run.state"].map(String::from);
    within(dir, &args, Duration::from_secs(60)).expect("it ended")
}

/// The state's checkpoint record: the per-game CSV's bytes and last row.
fn csv_end(state: &serde_json::Value) -> (u64, String) {
    let resume = &state["resume"];
    let bytes = resume["csv_bytes"].as_u64().unwrap();
    (bytes, resume["csv_tail"].as_str().unwrap().to_string())
}

#[test]
fn a_csv_moved_while_written_keeps_the_checkpoints_and_is_resumed_only_once_put_back() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (games, moved) = (d.join("games.csv"), d.join("moved.csv"));
    let mut child = start_in(
        d,
        "run --games 1e9 --seed 5 --quiet --csv games.csv --state run.state \
         --checkpoint-every 20ms",
    );
    until("1 MiB of rows", || size(&games) >= 1 << 20);
    std::fs::rename(&games, &moved).unwrap();
    let moved_at = size(&moved);
    // The checkpoints go on, counting rows written after the move.
    let checkpoint = || {
        let state = std::fs::read(d.join("run.state")).ok()?;
        let state: serde_json::Value = serde_json::from_slice(&state).ok()?;
        Some(csv_end(&state).0)
    };
    until("a checkpoint after the move", || {
        checkpoint().is_some_and(|bytes| bytes > moved_at)
    });
    interrupt(child.id());
    let status = exits_within(&mut child, Duration::from_secs(60), "it played on");
    let said = said(d);
    assert_eq!(status.code(), Some(130), "{said}");
    // The closing message names where the rows are now.
    let now = moved.canonicalize().unwrap();
    let named = format!(
        "the per-game CSV (games.csv, moved meanwhile to {}) holds games 0 to ",
        now.display()
    );
    assert!(said.contains(&named), "{said}");
    let play_on = "; to play on once the per-game CSV is back at games.csv: `warsim resume \
                   run.state`, or the same command with --continue";
    assert!(said.trim_end().ends_with(play_on), "{said}");
    let (bytes, last_row) = csv_end(&json(&d.join("run.state")));
    let text = std::fs::read_to_string(&moved).unwrap();
    assert_eq!(bytes, text.len() as u64, "every row the file moved holds");
    assert!(text.ends_with(&last_row) && last_row.ends_with('\n'));
    // Not at its name: put it back to resume.
    let err = refused(&resume_in(d));
    assert!(
        err.contains("the per-game CSV games.csv is missing"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("put it back to resume"), "{err}");
    // Another file under its name, its last row not the one written, is not taken for it.
    let mut other = text.into_bytes();
    let last = other.len() - 2;
    other[last] = if other[last] == b'9' { b'8' } else { b'9' };
    std::fs::write(&games, other).unwrap();
    let err = refused(&resume_in(d));
    assert!(err.contains("edited since"), "{err}");
}

#[test]
fn a_csv_removed_and_made_again_while_written_is_not_resumed_onto() {
    for command in RUN_AND_SWEEP {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let games = d.join("games.csv");
        let args = format!("{command} --seed 5 --quiet --state run.state");
        let said = lost_while_written(d, &args, &games, || {
            std::fs::remove_file(&games).unwrap();
            std::fs::write(&games, "my,own\n1,2\n").unwrap();
        });
        assert!(
            said.contains("it was removed while warsim wrote it"),
            "{said}"
        );
        // The state counts no rows: those it wrote went with the file removed.
        assert_eq!(csv_end(&json(&d.join("run.state"))), (0, String::new()));
        let out = resume_in(d);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(err.contains("held none of the state's"), "{err}");
        assert_eq!(std::fs::read_to_string(&games).unwrap(), "my,own\n1,2\n");
    }
}

#[test]
fn an_interrupted_sweep_whose_csv_was_moved_says_to_put_it_back_before_resuming() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let games = d.join("games.csv");
    let mut child = start_in(
        d,
        "sweep --players 2..3 --games 1e9 --seed 5 --quiet --games-csv games.csv --state \
         run.state",
    );
    until("1 MiB of rows", || size(&games) >= 1 << 20);
    std::fs::rename(&games, d.join("moved.csv")).unwrap();
    interrupt(child.id());
    let status = exits_within(&mut child, Duration::from_secs(60), "it played on");
    let said = said(d);
    assert_eq!(status.code(), Some(130), "{said}");
    let play_on = "; to play on once the per-game CSV is back at games.csv: `warsim resume \
                   run.state`, or the same command with --continue";
    assert!(said.trim_end().ends_with(play_on), "{said}");
}

/// A sweep stopped by a write error (here its Parquet file removed) names its per-game CSV
/// where it stands now when it was moved while written, as a run does, and that file holds
/// every game before the stop.
#[test]
fn a_sweep_stopped_by_a_write_error_names_where_its_moved_csv_stands() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (games, moved) = (d.join("games.csv"), d.join("moved.csv"));
    let args = "sweep --players 2..3 --games 1e9 --seed 5 --quiet --games-csv games.csv --parquet \
                g.parquet";
    let said = lost_while_written(d, args, &games, || {
        std::fs::rename(&games, &moved).unwrap();
        std::fs::remove_file(d.join("g.parquet")).unwrap();
    });
    assert!(
        said.contains("it was removed while warsim wrote it"),
        "{said}"
    );
    let named = format!(
        "stopped in cell 0 of cells 0 to 1 after {{}} of its games: the per-game CSV (games.csv, \
         moved meanwhile to {}) holds every game before it;",
        moved.canonicalize().unwrap().display()
    );
    let (before, after) = named.split_once("{}").unwrap();
    let stop = said.find(before).expect(&said) + before.len();
    let played = &said[stop..stop + said[stop..].find(after).expect(&said)];
    let rows = std::fs::read_to_string(&moved).unwrap().lines().count() - 1;
    assert_eq!(played.replace(',', ""), rows.to_string(), "{said}");
}

/// A run or sweep stopped by a nearly full disk says to play on once the disk has room and,
/// its per-game CSV moved while written, once the CSV is back at its name, where `warsim
/// resume` looks for it.
#[test]
fn a_full_disk_with_its_csv_moved_says_to_put_it_back_before_resuming() {
    for command in RUN_AND_SWEEP {
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        let games = d.join("games.csv");
        // Room refused past 256 MiB of a file: long after the move.
        let mut child = common::disk::warsim_on(d, "268435456")
            .args(command.split_whitespace())
            .args(["--seed", "5", "--quiet", "--state", "run.state"])
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(d.join("said.txt")).unwrap())
            .ends_with_test()
            .spawn()
            .unwrap();
        until("1 MiB of rows", || size(&games) >= 1 << 20);
        std::fs::rename(&games, d.join("moved.csv")).unwrap();
        let status = exits_within(&mut child, Duration::from_secs(120), "its disk filled");
        let said = said(d);
        assert_eq!(status.code(), Some(1), "{command}: {said}");
        assert!(said.contains(common::disk::NEARLY_FULL), "{said}");
        let play_on = "; to play on once its disk has room and the per-game CSV is back at \
                       games.csv: `warsim resume run.state`, or the same command with --continue";
        assert!(said.trim_end().ends_with(play_on), "{command}: {said}");
    }
}
