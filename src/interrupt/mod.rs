//! Signals that ask a long job to stop: SIGINT (Ctrl-C), SIGTERM, SIGHUP, SIGXCPU (a CPU time
//! limit reached: the kernel's warning before the hard limit's SIGKILL) and SIGUSR2 (a batch
//! scheduler's warning before its SIGKILL: Grid Engine's `qsub -notify`). The first one
//! only raises a flag that the job polls between chunks of games, so it can end on whole games
//! and write what it has; a second one ends the process at once, with the usual status of that
//! signal (128 + its number) and a line saying what it leaves ([`note_csv_rows`]), except that
//! a write in progress to a file ([`hold_exit`]: a summary or state file replaced whole, rows
//! of a per-game file) is finished first, so that neither half a file, nor its temporary, nor a
//! cut row is left, and a Parquet file being written is ended ([`hold_exit_until_closed`]), as
//! it cannot be read without its footer; a third one ends the process even then (a write that
//! hangs, on a network file system, must not trap the user). The same signal again within
//! [`SAME_REQUEST_NS`] of the one counted before is that request again, not a second one. A
//! signal ignored when the process starts stays ignored ([`Interrupt::install`]). SIGUSR1 does
//! not stop a job: it asks for a checkpoint now ([`answer_checkpoint_requests`]). SIGXFSZ (a
//! file size limit reached) is ignored, so that the write fails as on a full disk
//! ([`fail_writes_past_file_size_limit`]).

use std::io;
use std::sync::Once;
use std::sync::atomic::{AtomicI32, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGUSR2, SIGXCPU};

mod checkpoint;
mod line;
mod repeats;
pub use checkpoint::{CheckpointAnswer, answer_checkpoint_requests, checkpoint_asked};
use line::Line;
use repeats::repeats_last;

/// The signals that stop a run (at most eight: `repeats::LAST_COUNTED` keeps one's index in
/// three bits).
const STOPPING: [i32; 5] = [SIGINT, SIGTERM, SIGHUP, SIGXCPU, SIGUSR2];

/// How soon the same signal again is taken as the same request: GNU `timeout` sends its signal
/// to the command and then to the command's process group, so the command gets it twice within
/// microseconds, and a scheduler's stop can reach a process by more than one way. The kernel
/// counts two that arrive before the first is handled as one; this counts two that arrive a
/// moment apart as one too. Half a second is far above such gaps (even on a loaded machine) and
/// below a person's second Ctrl-C after reading what the first said.
pub const SAME_REQUEST_NS: u64 = 500_000_000;

/// The stopping signals ignored when the process started, one bit each by their place in
/// [`STOPPING`]; set once, before any handler is installed.
static IGNORED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Registers [`on_signal`] once a process.
static COUNTING: Once = Once::new();
/// The stopping signals that have arrived, of any of the five kinds.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The first stopping signal counted (0: none yet).
static FIRST_SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Writes in progress that a second signal lets finish.
static HELD: AtomicUsize = AtomicUsize::new(0);
/// The status a second signal asked to exit with once no write is held (0: none asked).
static EXIT_ASKED: AtomicI32 = AtomicI32::new(0);
/// Files held open until closed ([`hold_exit_until_closed`]), each also counted in [`HELD`].
static CLOSING: AtomicUsize = AtomicUsize::new(0);

/// Rows the per-game CSV holds whole, where it is a regular file ([`note_csv_rows`]), for what
/// a second signal's exit says; [`NO_ROWS`] where there is none or nothing was written yet.
static CSV_ROWS: AtomicU64 = AtomicU64::new(NO_ROWS);
const NO_ROWS: u64 = u64::MAX;

/// What a second signal says when it waits for a file to be closed: the wait lasts until the
/// run has wound down as after the first, which can take a moment.
const CLOSING_NOTE: &[u8] = b"warsim: ending the Parquet file before stopping (it cannot be read \
without its footer); signal again to stop at once\n";

/// Runs in the signal handler, so touches only atomics, a buffer on the stack and `write(2)`
/// before `_exit`. The order of the atomics (SeqCst) is what makes the hand-over sure: this
/// stores its status before it reads [`HELD`], and [`ExitHeld`]'s drop lowers [`HELD`] before
/// it reads the status, so one of the two always sees the other and the process never stays up
/// after a second signal.
fn on_signal(number: i32) {
    // Past its soft limit the kernel sends SIGXCPU again every second of CPU time, until the
    // hard limit's SIGKILL: a reminder, never a second request (which would end the process
    // before its files are ended). A limit reached while stopping asks nothing more either.
    if number == SIGXCPU && SIGNALS.load(Ordering::SeqCst) > 0 {
        return;
    }
    if repeats_last(number) {
        return;
    }
    let _ = FIRST_SIGNAL.compare_exchange(0, number, Ordering::SeqCst, Ordering::SeqCst);
    let arrived = SIGNALS.fetch_add(1, Ordering::SeqCst) + 1;
    if arrived < 2 {
        return;
    }
    EXIT_ASKED.store(128 + number, Ordering::SeqCst);
    if arrived == 2 && HELD.load(Ordering::SeqCst) > 0 {
        if CLOSING.load(Ordering::SeqCst) > 0 {
            // SAFETY: write(2) is async-signal-safe; a failed write leaves only the note unsaid.
            unsafe { libc::write(2, CLOSING_NOTE.as_ptr().cast(), CLOSING_NOTE.len()) };
        }
        return;
    }
    exit_now(128 + number, HELD.load(Ordering::SeqCst) > 0);
}

/// Ends the process at once after a second or third signal, saying on standard error what it
/// leaves (the first signal's closing message never comes): how many rows the per-game CSV
/// holds, and that the outputs still to come were not written, so that an older file at one of
/// their paths is not taken for this run's. `cut` is true when a write was still going (a
/// third signal). Async-signal-safe: atomics, a buffer on the stack and `write(2)` only.
fn exit_now(status: i32, cut: bool) -> ! {
    let mut line = Line::default();
    if cut {
        line.push(
            b"warsim: stopped at once by a third signal, in the middle of a write: the \
file being written may end on a cut row (a Parquet file without its footer), or its temporary \
.warsim-*.tmp be left beside it\n",
        );
    } else {
        // A third signal that lands as the last held write ends exits here too.
        line.push(match SIGNALS.load(Ordering::SeqCst) {
            2 => b"warsim: stopped at once by a second signal",
            _ => b"warsim: stopped at once by a further signal",
        });
        let rows = CSV_ROWS.load(Ordering::SeqCst);
        if rows != NO_ROWS {
            line.push(b": the per-game CSV holds ");
            line.push_grouped(rows);
            line.push(if rows == 1 { b" row" } else { b" rows" });
            line.push(b", each whole");
        }
        line.push(
            b"; the outputs still to come were not written (a file already at one of \
their paths is not this run's)\n",
        );
    }
    // SAFETY: write(2) is async-signal-safe; a failed write leaves only the note unsaid.
    unsafe { libc::write(2, line.bytes.as_ptr().cast(), line.len) };
    signal_hook::low_level::exit(status)
}

/// Records that the per-game CSV, a regular file, holds `rows` rows whole (its header aside):
/// what a second signal's exit says it kept.
pub fn note_csv_rows(rows: u64) {
    CSV_ROWS.store(rows, Ordering::SeqCst);
}

/// Holds back a second signal's exit while a file is replaced whole (from the temporary file's
/// creation until it has replaced the file or is removed: drop it after the temporary file), or
/// while rows are written to a regular file: killed in the middle of a write (`_exit` from
/// another thread), a file can keep part of a row.
#[must_use = "the exit is held only while the guard lives"]
pub struct ExitHeld {
    /// False for the hold inside a [`ClosingHeld`], which may enclose others on its thread.
    #[cfg_attr(not(debug_assertions), allow(dead_code))] // read by the debug check alone
    plain: bool,
}

/// Holds back a second signal's exit until the guard drops (see [`ExitHeld`]). Where a second
/// signal has already asked to exit, this thread starts nothing: it waits for the exit, which
/// the last guard to drop makes (this one, if no other is held). Otherwise the handler, which
/// saw no guard, could end the process in the middle of the write this one would start. So a
/// thread must not hold twice at once (debug builds check): the inner hold would wait for the
/// outer, for ever. While a file is held until closed, though, the write goes on: the exit
/// waits for that file, whose close may need this very thread, and the held file kept the
/// handler from exiting.
pub fn hold_exit() -> ExitHeld {
    hold(true)
}

fn hold(plain: bool) -> ExitHeld {
    #[cfg(debug_assertions)]
    if plain {
        HOLDING.with(|holding| assert!(!holding.replace(true), "hold_exit nested on a thread"));
    }
    HELD.fetch_add(1, Ordering::SeqCst);
    let held = ExitHeld { plain };
    if EXIT_ASKED.load(Ordering::SeqCst) != 0 && CLOSING.load(Ordering::SeqCst) == 0 {
        drop(held);
        loop {
            std::thread::park();
        }
    }
    held
}

#[cfg(debug_assertions)]
thread_local! {
    /// Whether this thread holds the exit ([`hold_exit`]): debug builds (the tests) check
    /// that no thread holds it twice at once, which would wait for ever after a second signal.
    static HOLDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Drop for ExitHeld {
    fn drop(&mut self) {
        #[cfg(debug_assertions)]
        if self.plain {
            HOLDING.with(|holding| holding.set(false));
        }
        if HELD.fetch_sub(1, Ordering::SeqCst) == 1 {
            match EXIT_ASKED.load(Ordering::SeqCst) {
                0 => {}
                status => exit_now(status, false),
            }
        }
    }
}

/// Holds back a second signal's exit while a file that is readable only once closed (a Parquet
/// file, whose footer comes last) is open, from its creation to its close: drop it once the
/// file is closed and synced, or given up. A second signal then lets the run wind down as the
/// first asked, its writes going on ([`hold_exit`]), and ends the process once the file is
/// closed; a third ends it at once. Only for a regular file: a pipe's reader could stall the
/// close for ever.
#[must_use = "the exit is held only while the guard lives"]
pub struct ClosingHeld {
    _held: ExitHeld,
}

/// Holds back a second signal's exit until the file is closed (see [`ClosingHeld`]). Where a
/// second signal has already asked to exit and nothing is held, waits for the exit instead.
pub fn hold_exit_until_closed() -> ClosingHeld {
    let held = hold(false);
    CLOSING.fetch_add(1, Ordering::SeqCst);
    ClosingHeld { _held: held }
}

impl Drop for ClosingHeld {
    /// Before the inner guard drops (fields drop after this): the last guard to drop exits
    /// with no file left to close.
    fn drop(&mut self) {
        CLOSING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// True once a second signal has asked the process to end (it ends as the last guard drops).
pub fn exit_asked() -> bool {
    EXIT_ASKED.load(Ordering::SeqCst) != 0
}

/// Once a stopping signal has arrived, the exit status it asks for (128 + its number): for a
/// wait that holds no [`Interrupt`] (a named pipe's reader, `export::fifo`).
pub fn stop_status() -> Option<u8> {
    first_signal().map(|number| (128 + number) as u8)
}

/// The first stopping signal counted, if one has come: what names the stop (SIGXCPU's
/// reminders, or a signal that ends the process at once, do not rename it).
fn first_signal() -> Option<i32> {
    match FIRST_SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        number => Some(number),
    }
}

/// Proof that the stopping signals' handlers are installed; whether one has arrived, and which.
/// What a signal did is the process's (`FIRST_SIGNAL`), one record for every handle.
#[derive(Clone)]
pub struct Interrupt {
    _installed: (),
}

impl Interrupt {
    /// Installs the handlers for the rest of the process, but for a signal that was ignored
    /// when the process started: that one stays ignored, as whoever started it asked. `nohup`
    /// ignores SIGHUP so that a run outlives its terminal, and a shell script starts a job in
    /// the background with SIGINT ignored, so that Ctrl-C stops the script and not the job
    /// (Python, for one, keeps an ignored SIGINT the same way).
    pub fn install() -> io::Result<Interrupt> {
        let mut counting = Ok(());
        // Once a process: each signal must be counted once, however many jobs install handlers.
        COUNTING.call_once(|| {
            let ignored = STOPPING.iter().enumerate();
            let ignored = ignored.filter(|&(_, &number)| ignored_now(number));
            IGNORED_AT_START.store(
                ignored.fold(0, |bits, (at, _)| bits | 1 << at),
                Ordering::SeqCst,
            );
            counting = caught().try_for_each(|number| {
                // SAFETY: `on_signal` only touches atomics, fills a buffer on its stack and
                // calls `write(2)` and `_exit`, all async-signal-safe.
                unsafe { signal_hook::low_level::register(number, move || on_signal(number)) }
                    .map(drop)
            });
        });
        counting?;
        Ok(Interrupt { _installed: () })
    }

    /// True once a stopping signal has arrived.
    pub fn requested(&self) -> bool {
        first_signal().is_some()
    }

    /// The signal that arrived, if any.
    pub fn signal(&self) -> Option<i32> {
        first_signal()
    }

    /// The exit status for the signal that arrived: 128 + its number (130 for Ctrl-C, 143 for
    /// SIGTERM, 129 for SIGHUP, 152 for SIGXCPU, 140 for SIGUSR2).
    pub fn exit_status(&self) -> Option<u8> {
        stop_status()
    }

    /// The signal's name for messages.
    pub fn signal_name(&self) -> &'static str {
        match self.signal() {
            Some(SIGINT) => "SIGINT, Ctrl-C",
            Some(SIGTERM) => "SIGTERM",
            Some(SIGHUP) => "SIGHUP",
            Some(SIGXCPU) => "SIGXCPU, a CPU time limit",
            Some(SIGUSR2) => "SIGUSR2",
            _ => "a signal",
        }
    }
}

/// The stopping signals that were not ignored when the process started.
fn caught() -> impl Iterator<Item = i32> {
    let ignored = IGNORED_AT_START.load(Ordering::SeqCst);
    (STOPPING.into_iter().enumerate())
        .filter(move |&(at, _)| ignored & 1 << at == 0)
        .map(|(_, number)| number)
}

/// Makes a write past a file size limit (`ulimit -f`, RLIMIT_FSIZE, which batch schedulers and
/// shared hosts set) fail with EFBIG, as a write to a full disk fails, rather than end the
/// process with SIGXFSZ in the middle of a row: warsim then ends its files whole and says what
/// they kept. The limit still holds; an ignored SIGXFSZ is left so.
pub fn fail_writes_past_file_size_limit() {
    // SAFETY: SIG_IGN installs no handler; a process may ignore SIGXFSZ at any time.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}

/// Whether signal `number` is ignored now (`sigaction(2)` asked, nothing changed).
fn ignored_now(number: i32) -> bool {
    // SAFETY: a zeroed sigaction is a valid place for the kernel to write the action to; a
    // null new action changes nothing.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        libc::sigaction(number, std::ptr::null(), &mut action) == 0
            && action.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(test)]
mod tests {
    /// A thread that held the exit twice at once would wait for ever after a second signal:
    /// debug builds refuse it, but not within a file held until closed, where it is allowed.
    #[test]
    #[cfg(debug_assertions)]
    fn a_nested_hold_is_refused_but_within_a_file_held_until_closed() {
        use super::{hold_exit, hold_exit_until_closed};
        let outer = hold_exit();
        assert!(std::panic::catch_unwind(hold_exit).is_err());
        drop(outer);
        let closing = hold_exit_until_closed();
        let inner = hold_exit();
        drop((inner, closing));
        drop(hold_exit());
    }
}
