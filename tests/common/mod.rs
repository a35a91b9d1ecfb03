//! Helpers the integration tests share: the binary under test (`warsim`), hand-built deals played
//! to their end, the binary's standard output whole or up to its first line, runs on a disk that
//! fills (`disk`), a run that may hang stopped at a limit, JSON files read back, signals sent only
//! once a process catches them (`processes`), processes that end with their test (`children`), the
//! fast paths played against the general path (`paths`), Parquet files read back (`parquet`) and
//! plots read back (`svg`).

pub mod children;
pub mod disk;
pub mod parquet;
pub mod paths;
pub mod processes;
pub mod svg;

pub use children::EndsWithTest;
// Re-exported where the tests have always found them.
pub use processes::{interrupt, send, until, until_it_catches, until_it_catches_sigint};

use std::io::{BufRead, BufReader};
use std::os::fd::OwnedFd;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use warsim::engine::rules::AtCap;
use warsim::engine::{GameRecord, Preset, Rules};
use warsim::testing::{PileGame, game_rng};

/// French bataille's flags: all cards face up, the pot turned over, a tie with an empty hand
/// ends the game.
pub const BATAILLE: [&str; 6] = [
    "--face-down",
    "0",
    "--pickup",
    "natural",
    "--war-shortage",
    "end-game",
];

/// The `warsim` binary under test, to run with `assert_cmd`'s checks.
pub fn warsim() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("warsim").unwrap()
}

/// A JSON file warsim wrote (a summary or a state), parsed.
pub fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A run's summary JSON at `path` without the keys in `how` (how the run went: its timings,
/// its threads), to compare two runs' figures.
pub fn figures_but(path: &std::path::Path, how: &[&str]) -> serde_json::Value {
    let mut summary = json(path);
    let keys = summary.as_object_mut().unwrap();
    keys.retain(|key, _| !how.contains(&key.as_str()));
    summary
}

/// `preset`'s rules stopped after `rounds` rounds with outcome `capped`.
pub fn stopped_after(preset: Preset, rounds: u32) -> Rules {
    let mut r = preset.rules();
    r.max_rounds = rounds;
    r.at_cap = AtCap::Capped;
    r
}

/// Plays `hands` (top card first); returns the record, every pile and every heap.
pub fn play(rules: &Rules, hands: &[&[u8]]) -> (GameRecord, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let mut game = PileGame::<u8, 64>::boxed();
    let hands: Vec<Vec<u8>> = hands.iter().map(|h| h.to_vec()).collect();
    let record = game.play_hands(rules, &hands, &mut game_rng(1));
    let piles = (0..hands.len()).map(|s| game.pile(s)).collect();
    let heaps = (0..hands.len()).map(|s| game.heap(s)).collect();
    (record, piles, heaps)
}

/// What `warsim ARGS` prints on standard output; the test fails if it does not succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let out = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `warsim ARGS` in `dir`, its output read as it comes (so a full pipe never stops it);
/// `None` when it was still running after `limit`, and then killed: a hang is named rather
/// than waited for.
pub fn within(dir: &std::path::Path, args: &[String], limit: Duration) -> Option<Output> {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    let started = Instant::now();
    let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let readers = [OwnedFd::from(stdout), OwnedFd::from(stderr)].map(|pipe| {
        let mut pipe = std::fs::File::from(pipe);
        std::thread::spawn(move || {
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut pipe, &mut text).unwrap();
            text
        })
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let [stdout, stderr] = readers.map(|r| r.join().unwrap());
    Some(Output {
        status,
        stdout,
        stderr,
    })
}

/// Runs `warsim ARGS`, reads its first line of standard output, closes the pipe (as `| head`
/// does) and returns the line with the finished process's status and standard error.
pub fn first_line_then_close(args: &[&str]) -> (String, Output) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    (first, child.wait_with_output().unwrap())
}

/// Runs `warsim ARGS` in `dir` on a "disk" that fills at `kib` KiB: a file size limit, whose
/// SIGXFSZ warsim ignores, so that writes past it fail as on a full disk (tests/full_disk.rs).
pub fn with_full_disk_at(kib: u32, dir: &std::path::Path, args: &str) -> Output {
    under_limits(&format!("ulimit -f {kib}"), dir, args)
}

/// The shell lines that run `warsim ARGS` after `limits` (`ulimit` commands, or none).
fn warsim_after(limits: &str, args: &str) -> String {
    let warsim = assert_cmd::cargo::cargo_bin("warsim");
    format!("{limits}\nexec '{}' {args}", warsim.display())
}

/// Runs `warsim ARGS` in `dir`, started after `limits` (bash `ulimit` commands).
pub fn under_limits(limits: &str, dir: &std::path::Path, args: &str) -> Output {
    Command::new("bash")
        .args(["-c", &warsim_after(limits, args)])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// [`under_limits`] on a terminal of its own (script(1): util-linux, in every Debian), so that
/// warsim draws its progress bar; the terminal's text is the output's stdout.
pub fn on_terminal(limits: &str, dir: &std::path::Path, args: &str) -> Output {
    Command::new("script")
        .args(["-qec", &warsim_after(limits, args), "/dev/null"])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Makes a named pipe at `path` (`mkfifo`), failing the test if it cannot.
pub fn mkfifo(path: &std::path::Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// The names in `folder`, sorted.
pub fn names_in(folder: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Standard base64 (the log's encoding, a state's `cwd_base64`), decoded by hand: a check that
/// does not lean on the crates that wrote it.
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n =
            chunk.iter().fold(0u32, |acc, &d| acc << 6 | u32::from(d)) << (6 * (4 - chunk.len()));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Runs `warsim ARGS` until `path` holds `bytes` bytes, then sends SIGINT; returns what the
/// process left (its status, standard output and standard error).
pub fn interrupt_once_written(args: &[&str], path: &std::path::Path, bytes: u64) -> Output {
    signal_once_written("-INT", args, path, bytes)
}

/// Runs `warsim ARGS` until `path` holds `bytes` bytes, then sends `signal` (`-INT`, `-KILL`);
/// returns what the process left.
pub fn signal_once_written(
    signal: &str,
    args: &[&str],
    path: &std::path::Path,
    bytes: u64,
) -> Output {
    signal_in_once_written(std::path::Path::new("."), signal, args, path, bytes)
}

/// [`signal_once_written`], run in `folder` (where relative paths in `args` point).
pub fn signal_in_once_written(
    folder: &std::path::Path,
    signal: &str,
    args: &[&str],
    path: &std::path::Path,
    bytes: u64,
) -> Output {
    let child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .current_dir(folder)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    until(&format!("{path:?} written"), || size(path) >= bytes);
    send(signal, child.id());
    child.wait_with_output().unwrap()
}

/// What `out` said on standard error, checking that it was refused (exit status 2).
pub fn refused(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    err
}

/// Waits for `child` to exit; after `limit` kills it and fails the test, saying it `waited`
/// (a test of something that must not hang must not hang itself).
pub fn exits_within(
    child: &mut std::process::Child,
    limit: Duration,
    waited: &str,
) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{waited}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts `warsim ARGS` (split at spaces) in `dir`, its standard error going to
/// `dir/said.txt` ([`said`]).
pub fn start_in(dir: &std::path::Path, args: &str) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(args.split_whitespace())
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("said.txt")).unwrap())
        .ends_with_test()
        .spawn()
        .unwrap()
}

/// Starts `warsim ARGS` in `dir` ([`start_in`]), does `lose` once `path` holds 1 MiB, and
/// returns the last line it said once it stopped (exit 1, within a minute): a per-game file
/// another program took rows from, or moved, while warsim wrote it.
pub fn lost_while_written(
    dir: &std::path::Path,
    args: &str,
    path: &std::path::Path,
    lose: impl FnOnce(),
) -> String {
    let mut child = start_in(dir, args);
    until("1 MiB of rows", || size(path) >= 1 << 20);
    lose();
    let status = exits_within(&mut child, Duration::from_secs(60), "it played on");
    let said = said(dir);
    assert_eq!(status.code(), Some(1), "{said}");
    // Its last line: a disk too small for the whole batch is warned of first.
    said.lines().last().unwrap().to_string()
}

/// Starts `warsim ARGS` in `dir` ([`start_in`]) and kills it (SIGKILL) once its state file
/// `state` is first written: a stopped run's checkpoint, to resume or to edit.
pub fn killed_at_first_checkpoint(dir: &std::path::Path, args: &str, state: &std::path::Path) {
    let mut child = start_in(dir, args);
    until("its first checkpoint", || state.exists());
    child.kill().unwrap();
    child.wait().unwrap();
}

/// What the warsim [`start_in`] started in `dir` has said on standard error so far.
pub fn said(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("said.txt")).unwrap_or_default()
}

/// The bytes of the file at `path`, 0 before it exists.
pub fn size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Checks that `path` is a per-game CSV of games 0, 1, 2, … in order, each once, ending on a
/// whole row.
pub fn games_in_order(path: &std::path::Path) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("game,") && text.ends_with('\n'));
    let games = text
        .lines()
        .skip(1)
        .map(|row| row.split(',').next().unwrap());
    assert!(games.enumerate().all(|(i, game)| game == i.to_string()));
}

/// Runs the shards of `rules` (`--games games --seed 13`, one thread) as `count` state files in
/// `dir`; returns their paths, last first.
pub fn shard_states(
    dir: &std::path::Path,
    rules: &[&str],
    games: &str,
    count: u64,
) -> Vec<std::path::PathBuf> {
    let mut states = Vec::new();
    for index in (0..count).rev() {
        let path = dir.join(format!("state-{index}-of-{count}.json"));
        assert_cmd::Command::cargo_bin("warsim")
            .unwrap()
            .args([
                "run",
                "--games",
                games,
                "--seed",
                "13",
                "-q",
                "--threads",
                "1",
            ])
            .args(rules)
            .args(["--shard", &format!("{index}/{count}"), "--state"])
            .arg(&path)
            .assert()
            .success();
        states.push(path);
    }
    states
}
