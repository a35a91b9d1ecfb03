//! `warsim merge` holds a few states at a time, however many shards it merges: the heap a merge
//! of 24 shards' states takes at its peak stays within a few states' size (a merge that held
//! every state took some 24 of them), for a sweep's states and for a run's.
//!
//! Its own `main` (`harness = false` in Cargo.toml): the heap is counted by this binary's
//! allocator, so the merge runs in a child process of this same binary, whose report stays out
//! of the test's output.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use tempfile::TempDir;
use warsim::export::Target;
use warsim::merge::{MergeOptions, merge};

/// The system's allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; only the sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The child's settings: the states to merge (one path a line) and the JSON to write.
const STATES: &str = "MERGE_MEMORY_STATES";
const JSON: &str = "MERGE_MEMORY_JSON";

/// Shards played and merged of each batch.
const SHARDS: u64 = 24;

/// The merge's peak heap may be this many times the largest state file's size.
const STATES_HELD: usize = 10;

fn main() {
    match std::env::var(STATES) {
        Ok(states) => merge_and_report_peak(&states),
        Err(_) => a_merge_holds_a_few_states_however_many_shards(),
    }
}

/// The child: merges the states and prints the heap the merge added at its peak.
fn merge_and_report_peak(states: &str) {
    let options = MergeOptions {
        states: states.lines().map(PathBuf::from).collect(),
        states_from: None,
        allow_partial: false,
        summary: None,
        seats: None,
        json: Some(Target::File(std::env::var(JSON).unwrap().into())),
        histogram: None,
        hdr: None,
        plot: None,
        survival_scale: None,
        seconds_per_round: None,
        quiet: true,
    };
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    merge(&options).expect("the states merge");
    eprintln!("peak {}", PEAK.load(Relaxed) - before);
}

fn a_merge_holds_a_few_states_however_many_shards() {
    let dir = TempDir::new().unwrap();
    // A sweep of 220 cells, one game a cell a shard (half a megabyte a state), and a run of
    // long games (many lengths: 70 KB a state).
    let sweep = [
        "sweep",
        "--players",
        "2..9",
        "--ranks",
        "13..40",
        "--skip-invalid",
    ];
    let batches: [(&str, &[&str], &str); 2] = [
        ("sweep", &sweep, "24"),
        ("run", &["run", "--ranks", "26"], "1200000"),
    ];
    for (name, command, games) in batches {
        let states = play_shards(dir.path(), name, command, games);
        let largest = states
            .iter()
            .map(|s| std::fs::metadata(s).unwrap().len() as usize)
            .max()
            .unwrap();
        let json = dir.path().join(format!("{name}.json"));
        let list: Vec<String> = states.iter().map(|s| s.display().to_string()).collect();
        let child = Command::new(std::env::current_exe().unwrap())
            .env(STATES, list.join("\n"))
            .env(JSON, &json)
            // States are read a core's worth at a time: as on two cores, wherever the test runs.
            .env("RAYON_NUM_THREADS", "2")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&child.stderr);
        assert!(child.status.success(), "{name}: {err}");
        let peak: usize = err
            .lines()
            .last()
            .and_then(|line| line.strip_prefix("peak "))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{name}: no peak in {err}"));
        let merged: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(merged["complete"], true, "{name}");
        assert!(
            peak < STATES_HELD * largest,
            "{name}: merging {SHARDS} states of up to {largest} bytes took {peak} bytes of heap"
        );
        println!(
            "merge_memory: {name}: {SHARDS} states of up to {largest} bytes merged in {peak} bytes of heap: ok"
        );
    }
}

/// Plays `SHARDS` shards of `command` (`games` games, or games a cell) into `dir`; returns
/// their state files.
fn play_shards(dir: &Path, name: &str, command: &[&str], games: &str) -> Vec<PathBuf> {
    (0..SHARDS)
        .map(|k| {
            let state = dir.join(format!("{name}-{k}.json"));
            let status = Command::new(env!("CARGO_BIN_EXE_warsim"))
                .args(command)
                .args(["--games", games, "-q", "--threads", "1"])
                .args(["--shard", &format!("{k}/{SHARDS}"), "--state"])
                .arg(&state)
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "{name} shard {k}");
            state
        })
        .collect()
}
