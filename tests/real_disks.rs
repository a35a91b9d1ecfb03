//! Runs that fill real disks: a tmpfs, and ext4, XFS and btrfs file systems in image files
//! mounted through loop devices. Each stops with its disk nearly full, its CSV and Parquet file
//! whole and holding the same games, its summaries and plot written, and no room left held past
//! a file's end; and a Parquet file resumed on a tmpfs still too full stops whole again.
//! Mounting needs root, and the XFS and btrfs ones their `mkfs`: `scripts/real-disks.sh`
//! installs them and runs these tests (`.ci/run` calls it).

use crate::common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::disk::{csv_rows, on_disk};
use common::parquet::rows_as_csv;
use tempfile::TempDir;
use warsim::export::text::group;

/// A small file system mounted on a folder of its own, unmounted when dropped.
struct Mounted {
    dir: TempDir,
    _image: Option<TempDir>,
}

impl Mounted {
    /// A tmpfs of `mib` MiB.
    fn tmpfs(mib: u32) -> Mounted {
        let dir = TempDir::new().unwrap();
        let size = format!("size={mib}m");
        sh(&["mount", "-t", "tmpfs", "-o", &size, "tmpfs"], dir.path());
        Mounted { dir, _image: None }
    }

    /// A file system made by `mkfs` (`mkfs.ext4`, …) in an image file of `mib` MiB, mounted
    /// through a loop device.
    fn image(mkfs: &str, mib: u32) -> Mounted {
        let image = TempDir::new().unwrap();
        let file = image.path().join("disk.img");
        fs::File::create(&file)
            .unwrap()
            .set_len(u64::from(mib) << 20)
            .unwrap();
        sh(&[mkfs, "-q"], &file);
        let dir = TempDir::new().unwrap();
        sh(&["mount", "-o", "loop", file.to_str().unwrap()], dir.path());
        Mounted {
            dir,
            _image: Some(image),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Grows (or shrinks) a tmpfs to `mib` MiB.
    fn resize(&self, mib: u32) {
        let size = format!("remount,size={mib}m");
        sh(&["mount", "-o", &size], self.path());
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Runs `command` with `path` as its last argument; the test fails if it does.
fn sh(command: &[&str], path: &Path) {
    let status = Command::new(command[0])
        .args(&command[1..])
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success(), "{command:?} {path:?}");
}

/// Fills the disk mounted at `d` with a run's CSV and Parquet file: it stops with both whole
/// and the same games in each, the summaries written, and no room left held past any end.
fn fill(d: &Path) {
    let run = "run --games 1e9 -q --csv games.csv --parquet games.parquet --json s.json \
               --histogram h.csv --plot p.svg";
    let out = on_disk(d, "", run);
    assert_eq!(out.status.code(), Some(1));
    // The error comes after the warnings that the disk would not hold the games to come.
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let err = said.lines().last().unwrap();
    // The CSV's message, or the Parquet file's (which keeps more room: it may be refused first).
    assert!(
        err.contains(": its disk is nearly full (less than ")
            && err.contains(" MiB free, the room warsim keeps in hand to end every file whole); "),
        "{said}"
    );
    assert!(
        said.lines()
            .rev()
            .skip(1)
            .all(|l| l.starts_with("warning: --")),
        "{said}"
    );
    let rows = csv_rows(&d.join("games.csv"));
    let n = rows.len();
    assert!(n > 100_000, "{n}");
    assert!(
        err.contains(&format!("stopped after {} games: ", group(n as u64))),
        "{err}"
    );
    assert_eq!(rows_as_csv(&d.join("games.parquet")).0, rows);
    assert_eq!(common::json(&d.join("s.json"))["games"], n as u64);
    assert!(d.join("h.csv").exists() && d.join("p.svg").exists());
    for name in ["games.csv", "games.parquet"] {
        let meta = fs::metadata(d.join(name)).unwrap();
        let held = std::os::unix::fs::MetadataExt::blocks(&meta) * 512;
        assert!(
            held <= meta.len() + (64 << 10),
            "{name}: {held} bytes for {}",
            meta.len()
        );
    }
}

/// Grows the disk of a run or sweep of 10^6 games stopped by it (`s.state`, with `games.csv`
/// and `games.parquet`) to 200 MiB and resumes it: it plays every game, the same in both files.
fn resumed_to_the_end(disk: &Mounted) {
    let d = disk.path();
    disk.resize(200);
    let out = on_disk(d, "", "resume s.state -q");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    let rows = csv_rows(&d.join("games.csv"));
    assert_eq!(rows.len(), 1_000_000);
    assert!(rows_as_csv(&d.join("games.parquet")).0 == rows);
}

#[test]
#[ignore = "needs root to mount a tmpfs (scripts/real-disks.sh runs it)"]
fn a_full_tmpfs_stops_a_run_with_every_file_whole() {
    fill(Mounted::tmpfs(48).path());
}

#[test]
#[ignore = "needs root to mount an ext4 image (scripts/real-disks.sh runs it)"]
fn a_full_ext4_disk_stops_a_run_with_every_file_whole() {
    fill(Mounted::image("mkfs.ext4", 64).path());
}

/// XFS frees the blocks allocated past a file's end when it is cut to its own length, as ext4
/// does (its smallest file system is 300 MiB).
#[test]
#[ignore = "needs root and xfsprogs to mount an XFS image (scripts/real-disks.sh runs it)"]
fn a_full_xfs_disk_stops_a_run_with_every_file_whole() {
    fill(Mounted::image("mkfs.xfs", 320).path());
}

/// btrfs copies on write, but writes in place into room allocated ahead, the first time.
#[test]
#[ignore = "needs root and btrfs-progs to mount a btrfs image (scripts/real-disks.sh runs it)"]
fn a_full_btrfs_disk_stops_a_run_with_every_file_whole() {
    fill(Mounted::image("mkfs.btrfs", 160).path());
}

/// A run's Parquet file stopped by a full tmpfs, resumed on a disk still too small for the room
/// it keeps in hand: the resume takes that room at once, so it stops again at once with the file
/// whole (as it was), never failing to write it back; on a disk large enough it plays every game.
#[test]
#[ignore = "needs root to mount a tmpfs (scripts/real-disks.sh runs it)"]
fn a_parquet_file_resumed_on_a_disk_still_full_stops_whole_then_goes_on() {
    let disk = Mounted::tmpfs(6);
    let d = disk.path();
    let run = "run --games 1e6 --threads 1 -q --csv games.csv --parquet games.parquet \
               --state s.state --checkpoint-every 0";
    assert_eq!(on_disk(d, "", run).status.code(), Some(1));
    let before = rows_as_csv(&d.join("games.parquet")).0;
    assert_eq!(before, csv_rows(&d.join("games.csv")));

    disk.resize(10);
    let out = on_disk(d, "", "resume s.state -q");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "error: could not write the Parquet file to games.parquet: its disk is nearly full"
        ),
        "{said}"
    );
    assert!(
        rows_as_csv(&d.join("games.parquet")).0 == before,
        "the file as it was"
    );
    assert!(!d.join("games.parquet.warsim-tail").exists());

    resumed_to_the_end(&disk);
}

/// A disk too small for the room both files keep in hand: the CSV's watch stops the run before
/// the Parquet file's first row group is written, and the Parquet file still ends whole with
/// the same games (the CSV's room is given back for it first).
#[test]
#[ignore = "needs root to mount a tmpfs (scripts/real-disks.sh runs it)"]
fn a_small_tmpfs_stops_a_run_with_both_files_whole() {
    fill(Mounted::tmpfs(14).path());
}

/// A run checkpointing its Parquet file (ended with a footer at each checkpoint, its tail saved
/// beside it) stopped by a full tmpfs: both files whole with the same games and no tail left;
/// on the disk grown it goes on to every game. A sweep's too, which says how to play on.
#[test]
#[ignore = "needs root to mount a tmpfs (scripts/real-disks.sh runs it)"]
fn a_checkpointed_parquet_file_stopped_by_a_full_disk_goes_on() {
    let run = "run --games 1e6 --threads 1 -q --csv games.csv --parquet games.parquet \
               --state s.state --checkpoint-every 10ms";
    let sweep = "sweep --players 2,3 --games 5e5 --threads 1 -q --games-csv games.csv \
                 --parquet games.parquet --state s.state --checkpoint-every 10ms";
    for command in [run, sweep] {
        let said = stopped_by_a_full_disk_then_resumed(command);
        let play_on = "; to play on once its disk has room: `warsim resume s.state`, or the \
                       same command with --continue";
        assert!(said.trim_end().ends_with(play_on), "{said}");
    }
}

/// Plays `command` (a million games) on a 24 MiB tmpfs: stopped by the full disk, its CSV and
/// Parquet file hold the same games, no tail left; grown, it goes on to every game. Returns
/// what the stop said.
fn stopped_by_a_full_disk_then_resumed(command: &str) -> String {
    let disk = Mounted::tmpfs(24);
    let d = disk.path();
    let out = on_disk(d, "", command);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(": its disk is nearly full (less than "),
        "{said}"
    );
    let rows = csv_rows(&d.join("games.csv"));
    assert!(!rows.is_empty());
    assert!(rows_as_csv(&d.join("games.parquet")).0 == rows);
    assert!(!d.join("games.parquet.warsim-tail").exists());

    resumed_to_the_end(&disk);
    said
}
