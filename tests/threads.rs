//! The threads a batch starts: its workers alone, the thread that runs it writing the records
//! and checkpoints (a thread of its own used to start for that, idle in a batch without them,
//! one more for the system's limits to allow). Threads the limits refuse are named in one error
//! line, with what to change, before any game is played or file made; a limit on address space
//! that holds a run is not filled by the allocator's arenas, and a progress bar whose thread
//! they refuse is no panic.

use crate::common;

use std::time::Duration;

use common::{exits_within, names_in, send, start_in, under_limits, until};
use parquet::file::reader::{FileReader, SerializedFileReader};
use tempfile::TempDir;

/// The names of the threads of process `pid` (Linux's /proc/PID/task/*/comm).
fn thread_names(pid: u32) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let names =
        tasks.filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok());
    names.map(|name| name.trim_end().to_string()).collect()
}

/// The CPU time process `pid` has used, in clock ticks (utime + stime of /proc/PID/stat).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's name, which ends with the last ')'.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let field = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

/// Starts `warsim ARGS` in a new folder, and returns its threads' names once it has played for
/// a while (its threads are all started before the first game), then stops it with SIGTERM.
fn threads_while_playing(args: &str, wanted: impl Fn(&[String]) -> bool) -> Vec<String> {
    let dir = TempDir::new().unwrap();
    let mut child = start_in(dir.path(), args);
    let pid = child.id();
    until("games played for a fifth of a second", || {
        cpu_ticks(pid) >= 20
    });
    let mut names = Vec::new();
    until("the threads wanted", || {
        names = thread_names(pid);
        wanted(&names)
    });
    send("-TERM", pid);
    exits_within(
        &mut child,
        Duration::from_secs(60),
        "warsim did not stop on SIGTERM",
    );
    names
}

#[test]
fn a_batch_starts_its_workers_alone() {
    if !std::path::Path::new("/proc/self/task").exists() {
        return; // Thread names are read from Linux's /proc.
    }
    let alone = ["warsim", "warsim-worker-0", "warsim-worker-1"];
    for args in [
        "run --games 1e12 --threads 2 -q",
        "run --games 1e12 --threads 2 -q --state s.json --checkpoint-every 0",
        "run --games 1e12 --threads 2 -q --csv /dev/null",
        "run --games 1e12 --threads 2 -q --state s.json --checkpoint-every 1h",
        "sweep --players 2..3 --games 1e12 --threads 2 -q --csv cells.csv",
        "sweep --players 2..3 --games 1e12 --threads 2 -q --games-csv /dev/null",
    ] {
        let mut names = threads_while_playing(args, |names| names.len() >= alone.len());
        names.sort();
        assert_eq!(names, alone, "{args}");
    }
}

#[test]
fn threads_the_system_refuses_are_named_before_any_game() {
    // 64 threads' stacks take 128 MiB of address space, more than the 100 MB allowed.
    for command in [
        "run --threads 64 --games 1000 -q --csv g.csv --json s.json",
        "sweep --players 2..3 --threads 64 --games 100 -q --games-csv g.csv --csv cells.csv",
        "enumerate --suits 4 --ranks 4 --threads 64 -q --json deck.json",
    ] {
        let dir = TempDir::new().unwrap();
        let out = under_limits("ulimit -v 100000", dir.path(), command);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert!(
            err.starts_with("error: could not start 64 worker threads (--threads 64): "),
            "{command}: {err}"
        );
        assert!(
            err.ends_with(
                "; the system's limits on threads and memory (`ulimit -u`, `ulimit -v`) allow \
                 fewer: try a smaller --threads\n"
            ),
            "{command}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{command}: {err}");
        assert_eq!(names_in(dir.path()), Vec::<String>::new(), "{command}");
    }
}

#[test]
fn a_limit_on_address_space_that_holds_the_run_is_not_filled_by_allocator_arenas() {
    // glibc gave each thread an arena reserving 64 MiB of address space: under 160 and 180 MB
    // this run aborted at its first Parquet row group (262,144 games), though 80 MB held it.
    for limit_mb in (160..=400).step_by(20) {
        let dir = TempDir::new().unwrap();
        let limits = format!("ulimit -v {}", limit_mb * 1000);
        let run = "run --threads 2 --games 300000 -q --csv g.csv --parquet g.parquet --json s.json";
        let out = under_limits(&limits, dir.path(), run);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{limits}: {err}");
        let summary = common::json(&dir.path().join("s.json"));
        assert_eq!(summary["games"], 300_000, "{limits}");
        let parquet = std::fs::File::open(dir.path().join("g.parquet")).unwrap();
        let footer = SerializedFileReader::new(parquet).unwrap();
        assert_eq!(footer.metadata().file_metadata().num_rows(), 300_000);
    }
}

#[test]
fn a_progress_bar_whose_thread_is_refused_is_no_panic() {
    // On a terminal the bar is redrawn by a thread of its own, started before the workers.
    // Under limits a megabyte apart, one falls where the binary and the bar fit but that
    // thread's stack does not: indicatif's own ticker panicked there (13 and 14 MB on this
    // host; the workers are now refused there, up to 16 MB). Below, the binary cannot be
    // loaded; above, the run is played.
    for limit_mb in 8..=40 {
        let dir = TempDir::new().unwrap();
        let limits = format!("ulimit -v {}", limit_mb * 1000);
        let run = "run --games 2000 --threads 1 --max-rounds 100";
        let out = common::on_terminal(&limits, dir.path(), run);
        let drawn = String::from_utf8_lossy(&out.stdout);
        assert!(!drawn.contains("panicked"), "{limit_mb} MB: {drawn}");
        // Played (0) or refused (1); 127 and 139 are the loader and the kernel failing to
        // map the binary itself, before warsim runs. A panic was 101, an abort 134.
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 1 | 127 | 139)),
            "{limit_mb} MB: {code:?} {drawn}"
        );
        assert!(
            !drawn.contains("rules ") || out.status.success(),
            "{limit_mb} MB: {drawn}"
        );
    }
}
