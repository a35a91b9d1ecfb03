//! Write errors as a user meets them: a full disk keeps every finished game on a whole row and
//! says how many, every output that could not be written, a checkpoint included, is named (an
//! interrupted run says first what its files hold), and a folder that cannot be written is
//! refused before any game with the system's reason.

use crate::common;

use std::fs;
use std::process::Command;

use common::json;
use common::parquet::rows_as_csv;
use parquet::file::reader::{FileReader, SerializedFileReader};
use tempfile::TempDir;
use warsim::export::text::group;

fn warsim() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The lines a run that failed (exit status 1) said on stderr past its room warnings, `count`
/// of them (its errors, after the line an interrupted run says first), and stderr whole.
fn failure_lines(out: &std::process::Output, count: usize) -> (Vec<String>, String) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let past_warnings = common::disk::past_room_warnings(&err);
    let lines: Vec<String> = past_warnings.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), count, "a line per output that failed: {err}");
    (lines, err)
}

#[test]
fn a_full_disk_keeps_whole_rows_and_says_how_many() {
    let dir = TempDir::new().unwrap();
    let args = "run --games 1e6 -q --csv games.csv --json summary.json";
    let out = common::with_full_disk_at(1024, dir.path(), args);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let csv = fs::read(dir.path().join("games.csv")).unwrap();
    assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
    let rows = csv.iter().filter(|&&b| b == b'\n').count() as u64 - 1;
    let said: u64 = err
        .split("stopped after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .map(|n| n.replace(',', "").parse().unwrap())
        .unwrap_or_else(|| panic!("{err}"));
    assert_eq!(said, rows);
    let summary = json(&dir.path().join("summary.json"));
    assert_eq!(
        (summary["games"].as_u64(), summary["complete"].as_bool()),
        (Some(rows), Some(false))
    );
}

#[test]
fn a_failed_checkpoint_names_the_state_file_and_every_output_that_failed() {
    let dir = TempDir::new().unwrap();
    // A "disk" of 3 KiB a file: the state's first checkpoint (no game counted yet) fits, the
    // next, 10 ms later, does not; the summary JSON fits, the length histogram does not.
    let args = "run --games 1e7 -q --checkpoint-every 10ms --state run.state --json summary.json --histogram lengths.csv";
    let out = common::with_full_disk_at(3, dir.path(), args);
    let (lines, err) = failure_lines(&out, 3);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("error: could not write "))
    );
    assert!(
        lines[0].contains("a checkpoint (the state file) to run.state: File too large"),
        "{err}"
    );
    assert!(
        lines[1].contains("the length histogram to lengths.csv"),
        "{err}"
    );
    assert!(lines[2].contains("the state file to run.state"), "{err}");
    // The histogram that could not be written is not said to count the games; the summary is, and
    // it describes the games the message says were played.
    assert!(!lines[0].contains("histogram"), "{err}");
    assert!(
        lines[0].ends_with("the summaries describe those games (complete: false)"),
        "{err}"
    );
    let summary = json(&dir.path().join("summary.json"));
    let said = format!(
        "stopped after {} games",
        group(summary["games"].as_u64().unwrap())
    );
    assert!(lines[0].contains(&said), "{said}: {err}");
    assert_eq!(summary["complete"], false);
}

#[test]
fn a_sweep_stopped_by_a_write_error_says_only_what_it_kept() {
    let dir = TempDir::new().unwrap();
    let out = warsim()
        .args(["sweep", "--suits", "4,8", "--games", "1000", "-q"])
        .args([
            "--games-csv",
            "/dev/full",
            "--summary",
            "cells.csv",
            "--json",
            "/dev/full",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let (lines, err) = failure_lines(&out, 2);
    assert!(
        lines[0].starts_with("error: could not write the per-game CSV"),
        "{err}"
    );
    // Its first cell, numbered as in the tables.
    assert!(
        lines[0].contains("; stopped in cell 0 of cells 0 to 1 after 0 of its games"),
        "{err}"
    );
    assert!(
        lines[0].ends_with("the other files written describe every game before it"),
        "not the tables, whose JSON failed: {err}"
    );
    assert!(lines[1].contains("the sweep JSON to /dev/full"), "{err}");
    assert!(dir.path().join("cells.csv").exists());
}

#[test]
fn a_folder_that_cannot_be_written_is_refused_with_the_systems_reason_alone() {
    // sysfs takes no new file, whoever asks (root too).
    if !std::path::Path::new("/sys/kernel").is_dir() {
        return;
    }
    let out = warsim()
        .args(["run", "--games", "10", "-q", "--csv", "/sys/games.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Not the name of the file warsim tried there (`at path "/sys/.warsim-check-…"`).
    assert_eq!(
        stderr_of(&out),
        "error: --csv /sys/games.csv: folder '/sys' cannot be written (Permission denied (os \
         error 13)): choose another path\n"
    );
}

#[test]
fn a_file_written_through_a_temporary_one_fails_naming_no_temporary_file() {
    use warsim::export::{Target, write_atomically};
    let dir = TempDir::new().unwrap();
    // The folder is gone (a check of the outputs would have refused it; a run may lose it).
    let target = Target::File(dir.path().join("gone").join("summary.json"));
    let error = write_atomically(&target, |out| out.write_all(b"{}")).unwrap_err();
    // Not `… at path "…/gone/.warsim-….tmp"`: the user named no such file.
    assert_eq!(error.to_string(), "No such file or directory (os error 2)");
    assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
}

/// A Parquet file whose own write fails (its disk full: here a file size limit) is cut back to
/// its whole row groups and given a footer listing them: it holds the batch's first games, row
/// for row, whether a row group failed mid-run or the last one failed at the end.
#[test]
fn a_parquet_file_whose_write_fails_keeps_its_whole_row_groups() {
    let dir = TempDir::new().unwrap();
    let first_group = warsim()
        .args(["run", "--games", "262144", "-q", "--csv", "-"])
        .output()
        .unwrap();
    let expected: Vec<String> = (String::from_utf8(first_group.stdout).unwrap().lines())
        .skip(1)
        .map(String::from)
        .collect();
    // The first row group takes about 3,200 KiB: at 4,500 KiB the second fails as it is
    // written, at 3,400 KiB the last one, written as the run ends.
    for (kib, games) in [(4_500, 600_000), (3_400, 300_000)] {
        let run = format!("run --games {games} -q --parquet g.parquet --json s.json");
        let out = common::with_full_disk_at(kib, dir.path(), &run);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(
                "the Parquet file (g.parquet) holds games 0 to 262,143, its whole row groups \
                 (cut back to them after the error, with a footer)"
            ),
            "{err}"
        );
        // The summary describes every game played, more than the file holds: said by number,
        // as "those games" would seem to be the file's.
        let played = json(&dir.path().join("s.json"))["games"].as_u64().unwrap();
        let described = format!(
            "; the summaries describe games 0 to {} (complete: {})",
            group(played - 1),
            played == games
        );
        assert!(played > 262_144 && err.contains(&described), "{err}");
        let (rows, groups) = rows_as_csv(&dir.path().join("g.parquet"));
        assert!(rows == expected && groups == 1, "{kib} KiB");
    }
    // Room for every row group but not the footer: the file keeps them all.
    let whole = dir.path().join("whole.parquet");
    let run = "run --games 300000 -q --parquet whole.parquet";
    assert!(
        common::with_full_disk_at(1 << 20, dir.path(), run)
            .status
            .success()
    );
    let reader = SerializedFileReader::new(fs::File::open(&whole).unwrap()).unwrap();
    let groups = reader.metadata().row_groups();
    let data_end = (groups.iter().flat_map(|group| group.columns()))
        .map(|column| column.byte_range().0 + column.byte_range().1)
        .max()
        .unwrap();
    // Room for the footer warsim writes to save them (no page indexes, no summary), not for
    // the whole one.
    let kib = (data_end + 2_048).div_ceil(1024);
    let size = fs::metadata(&whole).unwrap().len();
    assert!(kib * 1024 < size, "{data_end} {size}: no room to test");
    let out = common::with_full_disk_at(kib as u32, dir.path(), run);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds games 0 to 299,999, its whole row groups"),
        "{err}"
    );
    assert_eq!(rows_as_csv(&whole).0.len(), 300_000);
    let sweep = "sweep --players 2,3 --games 300000 -q --parquet s.parquet";
    let out = common::with_full_disk_at(4_500, dir.path(), sweep);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "the Parquet file (s.parquet) holds its first 262,144 games, its whole row groups"
        ),
        "{err}"
    );
    assert_eq!(rows_as_csv(&dir.path().join("s.parquet")).0.len(), 262_144);
}

#[test]
fn an_interrupted_run_whose_summary_fails_says_what_its_files_hold_and_the_error() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let games = d.join("games.csv");
    let games_arg = games.to_str().unwrap();
    let run = [
        "run",
        "--games",
        "1e9",
        "--threads",
        "1",
        "-q",
        "--csv",
        games_arg,
        "--summary",
        "/dev/full",
    ];
    let out = common::interrupt_once_written(&run, &games, 100_000);
    let (lines, err) = failure_lines(&out, 2);
    let rows = fs::read_to_string(&games).unwrap().lines().count() as u64 - 1;
    let held = format!(
        "interrupted after {} of 1,000,000,000 games (SIGINT, Ctrl-C): the per-game CSV \
         ({games_arg}) holds games 0 to {} whole",
        group(rows),
        group(rows - 1)
    );
    assert_eq!(lines[0], held, "{err}");
    let error = "error: could not write the summary CSV to /dev/full: No space left on device";
    assert!(lines[1].starts_with(error), "{err}");

    let (games, cells) = (d.join("cells_games.csv"), d.join("cells.csv"));
    let games_arg = games.to_str().unwrap();
    let sweep = [
        "sweep",
        "--players",
        "2,3",
        "--games",
        "1e9",
        "--threads",
        "1",
        "-q",
        "--games-csv",
        games_arg,
        "--csv",
        cells.to_str().unwrap(),
        "--json",
        "/dev/full",
    ];
    let out = common::interrupt_once_written(&sweep, &games, 100_000);
    let (lines, err) = failure_lines(&out, 2);
    let begun = "interrupted in cell 0 of cells 0 to 1 (SIGINT, Ctrl-C): ";
    assert!(lines[0].starts_with(begun), "{err}");
    let tables = "; the tables written hold every cell begun, the last marked complete: false";
    assert!(lines[0].ends_with(tables), "{err}");
    assert!(
        lines[1].starts_with("error: could not write the sweep JSON to /dev/full"),
        "{err}"
    );
    assert!(cells.exists(), "the other tables are written");
}

/// A folder holding one writable file, `s.csv`, in which no new file can be created:
/// read-only for a user, immutable (`chattr +i`) for root, whom permissions do not stop. Undone
/// when dropped, so that the folder can be removed.
struct Sealed {
    dir: TempDir,
    root: bool,
}

impl Sealed {
    /// `None` (said on stderr) where root cannot make a folder immutable (tmpfs).
    fn new() -> Option<Sealed> {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        fs::write(dir.path().join("s.csv"), "mine").unwrap();
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        if root {
            let chattr = Command::new("chattr").arg("+i").arg(dir.path()).status();
            if !chattr.is_ok_and(|status| status.success()) {
                eprintln!("skipped: root cannot make a folder immutable here");
                return None;
            }
        } else {
            fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o555)).unwrap();
        }
        let sealed = Sealed { dir, root };
        assert!(fs::File::create(sealed.dir.path().join("new")).is_err());
        Some(sealed)
    }
}

impl Drop for Sealed {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.root {
            let _ = Command::new("chattr")
                .arg("-i")
                .arg(self.dir.path())
                .status();
        } else {
            let _ = fs::set_permissions(self.dir.path(), fs::Permissions::from_mode(0o755));
        }
    }
}

#[test]
fn a_file_replaced_whole_in_a_folder_that_takes_no_new_file_is_refused_before_any_game() {
    let Some(sealed) = Sealed::new() else { return };
    let file = sealed.dir.path().join("s.csv");
    let out = warsim()
        .args(["run", "--games", "10", "-q", "--summary"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // It failed after the batch, when the new summary was to be written beside the old one.
    let real = sealed.dir.path().canonicalize().unwrap();
    let refused = format!(
        "error: --summary {}: folder '{}' cannot be written (",
        file.display(),
        real.display()
    );
    assert!(err.starts_with(&refused), "{err}");
    assert!(
        err.ends_with(
            "), and the file is replaced by a new one written there: choose another path\n"
        ),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    // A per-game CSV is written in place: the folder need not take a new file.
    let out = warsim()
        .args(["run", "--games", "10", "-q", "--csv"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(fs::read_to_string(&file).unwrap().starts_with("game,"));
}
