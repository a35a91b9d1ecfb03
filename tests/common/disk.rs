//! A per-game file's disk played by the tests: warsim run on a disk that refuses the room it
//! keeps in hand past a file's end (`WARSIM_TEST_DISK_BYTES`), or on the machine's own, and
//! the per-game CSV read back.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// What a run says when a per-game CSV's disk would not give the least room it keeps in hand
/// (4 MiB).
pub const NEARLY_FULL: &str = "its disk is nearly full (less than 4 MiB free, the room warsim \
                               keeps in hand to end every file whole)";

/// `warsim`, to run in `dir` on a disk that refuses room past byte `disk` of a file
/// (`unsupported`: one that allocates nothing ahead; "" for the machine's own disk).
pub fn warsim_on(dir: &Path, disk: &str) -> Command {
    let mut warsim = Command::new(assert_cmd::cargo::cargo_bin("warsim"));
    if !disk.is_empty() {
        warsim.env("WARSIM_TEST_DISK_BYTES", disk);
    }
    warsim.current_dir(dir);
    warsim
}

/// Runs `warsim ARGS` (split at spaces) in `dir` on a disk `disk` ([`warsim_on`]).
pub fn on_disk(dir: &Path, disk: &str, args: &str) -> Output {
    (warsim_on(dir, disk).args(args.split_whitespace()))
        .output()
        .unwrap()
}

/// The lines of the per-game CSV at `path`, its header left out.
pub fn csv_rows(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n'), "{path:?} ends on a partial row");
    text.lines().skip(1).map(String::from).collect()
}

/// What a batch said on standard error after its room warnings, if any: a batch of a
/// trillion games fits no disk, and says so once 65,536 rows are written, which may come before
/// a test's signal does.
pub fn past_room_warnings(said: &str) -> &str {
    let mut rest = said;
    while let Some((line, after)) = rest.split_once('\n')
        && line.starts_with("warning: --")
        && line.contains(" games still to come need ")
    {
        rest = after;
    }
    rest
}
