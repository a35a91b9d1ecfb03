//! A wrong file named where warsim reads a state or a list of states (a per-game CSV of
//! gigabytes, /dev/zero, a pipe that never ends) is refused by its first bytes, with exit 2
//! and one `error:` line, not read whole first; a real state larger than what is read first
//! still merges, as every cut of a state warsim writes is the start of one JSON document. A
//! folder or pipe where `warsim resume` looks for a per-game CSV is refused as what it is, not
//! opened to wait on. The pipes here are held open until warsim exits: a reader that waited for
//! their end would never answer, and the test would name it.

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use tempfile::TempDir;

use crate::common;

use common::{mkfifo, within};

/// A named pipe at `path` that yields `bytes` and then stays open, until the returned thread
/// is joined after warsim exits.
fn endless_pipe(path: &Path, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    mkfifo(path);
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let Ok(mut pipe) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        // The reader may stop early (EPIPE): that is the point.
        let _ = pipe.write_all(&bytes);
        // Held open: the pipe has no end until the reader is gone.
        while pipe.write_all(b" ").is_ok() {
            std::thread::sleep(Duration::from_millis(20));
        }
    })
}

/// Runs warsim with `args` in `dir`; one still going after a minute is killed and named.
fn warsim_within_a_minute(dir: &Path, args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    within(dir, &args, Duration::from_secs(60))
        .unwrap_or_else(|| panic!("warsim {args:?} was still reading after a minute"))
}

fn refused_with(output: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(needle),
        "{stderr}"
    );
}

#[test]
fn a_wrong_state_file_or_list_is_refused_by_its_first_bytes() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // Three megabytes of per-game rows, then no end.
    let rows = "0,16294208416658607535,3,2,win,3,2,cards,12\n".repeat(70_000);
    let csv = endless_pipe(&d.join("games.csv"), rows.into_bytes());
    let merged = warsim_within_a_minute(d, &["merge", "games.csv"]);
    refused_with(&merged, "games.csv: is not a whole JSON document");
    // A JSON document, but a list, not a state: refused by its first megabyte too.
    let mut list = b"[".to_vec();
    list.extend("1,".repeat(1_500_000).bytes());
    let numbers = endless_pipe(&d.join("numbers.json"), list);
    let resumed = warsim_within_a_minute(d, &["resume", "numbers.json"]);
    refused_with(&resumed, "numbers.json: is not a warsim state file");
    // A list of states whose first line never ends, and one with a NUL byte.
    let letters = endless_pipe(&d.join("list.txt"), vec![b'a'; 10_000]);
    let listed = warsim_within_a_minute(d, &["merge", "--states-from", "list.txt"]);
    refused_with(&listed, "line 1 is no path (longer than 4095 bytes)");
    std::fs::write(d.join("nul.txt"), b"state-0.json\nstate\x001.json\n").unwrap();
    let nul = warsim_within_a_minute(d, &["merge", "--states-from", "nul.txt"]);
    refused_with(&nul, "line 2 is no path (it holds a NUL byte)");
    for pipe in [csv, numbers, letters] {
        pipe.join().unwrap();
    }
}

#[test]
fn a_state_larger_than_its_first_read_merges_and_a_listed_path_need_not_be_utf8() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // 600 cells: a state of more than a megabyte.
    let sweep = "sweep -q --games 4 --players 2..6 --ranks 2..121";
    let succeeds = |args: String| {
        let args: Vec<&str> = args.split(' ').collect();
        let output = warsim_within_a_minute(d, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{args:?}: {stderr}");
    };
    succeeds(format!("{sweep} --shard 0/2 --state a.json"));
    succeeds(format!("{sweep} --shard 1/2 --state b.json"));
    succeeds(format!("{sweep} --csv whole.csv"));
    let size = std::fs::metadata(d.join("a.json")).unwrap().len();
    assert!(size > 1 << 20, "{size} bytes");
    // A name that is not UTF-8, as a list may give (the command line takes UTF-8 only).
    let odd: PathBuf = d.join(OsStr::from_bytes(b"a\xff.json"));
    std::fs::rename(d.join("a.json"), &odd).unwrap();
    let mut list = odd.as_os_str().as_bytes().to_vec();
    list.extend(b"\nb.json\n");
    std::fs::write(d.join("states.txt"), list).unwrap();
    succeeds("merge -q --states-from states.txt --summary merged.csv".to_string());
    // Every column but the last three, how the runs went: threads, wall time and speed.
    let figures = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(d.join(name)).unwrap();
        text.lines()
            .map(|row| row.rsplitn(4, ',').last().unwrap().to_string())
            .collect()
    };
    let (merged, whole) = (figures("merged.csv"), figures("whole.csv"));
    assert_eq!(merged.len(), 601, "a header and 600 cells");
    for (row, (a, b)) in merged.iter().zip(&whole).enumerate() {
        assert_eq!(a, b, "row {row}");
    }
}

#[test]
fn every_cut_of_a_state_is_the_start_of_a_json_document() {
    // What the first read counts on: a state's first megabyte, wherever it ends, is taken for
    // the start of one. Cut everywhere in a run's and a sweep's state, with their strings,
    // floats and the command line a checkpoint keeps.
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for args in [
        &[
            "run", "-q", "--games", "300", "--csv", "g.csv", "--state", "s.json",
        ][..],
        &[
            "sweep",
            "-q",
            "--games",
            "30",
            "--players",
            "2,3",
            "--state",
            "s.json",
        ][..],
    ] {
        let written = warsim_within_a_minute(d, args);
        assert!(written.status.success());
        let text = std::fs::read(d.join("s.json")).unwrap();
        for cut in 1..text.len() {
            let refusal = warsim::state::head_refusal(&text[..cut]);
            assert_eq!(refusal, None, "{args:?}, cut at {cut}");
        }
    }
}

/// A folder, a named pipe or a device put at a stopped run's per-game CSV name is refused by
/// `warsim resume` as what it is, not a regular file, and left alone: a folder was said to
/// hold too few bytes, a pipe with no writer held resume in its open for ever.
#[test]
fn a_folder_or_a_pipe_at_a_checkpoints_csv_name_is_refused_not_waited_on() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let state = d.join("run.state");
    let run = "run --games 1e9 --csv games.csv --state run.state --checkpoint-every 10ms -q";
    common::killed_at_first_checkpoint(d, run, &state);
    std::fs::rename(d.join("games.csv"), d.join("kept.csv")).unwrap();
    let csv = d.join("games.csv");
    let not_a_file = "the per-game CSV games.csv is not a regular file (a folder, a pipe or a \
                      device now has its name): nothing was changed; put the file back to resume";
    std::fs::create_dir(&csv).unwrap();
    refused_with(
        &warsim_within_a_minute(d, &["resume", "run.state"]),
        not_a_file,
    );
    std::fs::remove_dir(&csv).unwrap();
    mkfifo(&csv);
    refused_with(
        &warsim_within_a_minute(d, &["resume", "run.state"]),
        not_a_file,
    );
    assert!(
        std::fs::metadata(&csv).unwrap().file_type().is_fifo(),
        "left alone"
    );
    std::fs::remove_file(&csv).unwrap();
    std::os::unix::fs::symlink("/dev/null", &csv).unwrap();
    refused_with(
        &warsim_within_a_minute(d, &["resume", "run.state"]),
        not_a_file,
    );
}
