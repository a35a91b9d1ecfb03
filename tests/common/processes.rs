//! Waiting on a process from a test: polling until something holds, and signals sent only once
//! the process catches them, so that they ask it to stop rather than kill it.

use std::process::Command;

/// Polls `done` until it holds; fails the test, saying what it waited for, after a minute.
pub fn until(what: &str, mut done: impl FnMut() -> bool) {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(60), "no {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `signal` (`-INT`, `-KILL`) to process `pid`.
pub fn send(signal: &str, pid: u32) {
    let sent = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status();
    assert!(sent.unwrap().success());
}

/// Sends SIGINT to process `pid` once it catches it ([`until_it_catches_sigint`]).
pub fn interrupt(pid: u32) {
    until_it_catches_sigint(pid);
    send("-INT", pid);
}

/// Waits until process `pid` catches SIGINT, so that a signal sent next asks it to stop rather
/// than kills it outright (its handlers come after start-up, which a loaded machine can make
/// slow). Reads Linux's /proc/PID/status; elsewhere waits half a second.
pub fn until_it_catches_sigint(pid: u32) {
    until_it_catches(pid, libc::SIGINT);
}

/// Waits until process `pid` catches signal `number` (see [`until_it_catches_sigint`]).
pub fn until_it_catches(pid: u32, number: i32) {
    let status = format!("/proc/{pid}/status");
    if !std::path::Path::new(&status).exists() {
        std::thread::sleep(std::time::Duration::from_millis(500));
        return;
    }
    // Signal n is bit n − 1 of the mask.
    let catches = |n: i32| {
        std::fs::read_to_string(&status).ok().is_some_and(|text| {
            let mask = text.lines().find_map(|line| line.strip_prefix("SigCgt:"));
            mask.and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
                .is_some_and(|mask| mask & 1 << (n - 1) != 0)
        })
    };
    until(&format!("signal {number} caught by process {pid}"), || {
        catches(number)
    });
    // warsim never catches real-time signals (such as 40), but QEMU's user-mode emulator
    // catches every signal for the program it runs (scripts/aarch64.sh), from before that
    // program starts, so its mask tells nothing: give the program time to start instead.
    if catches(40) {
        std::thread::sleep(std::time::Duration::from_secs(3));
    }
}
