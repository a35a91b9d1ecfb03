//! SIGUSR1 asks a run or sweep for a checkpoint now, and it plays on: what a scheduler's warning
//! before a time limit (Slurm's `--signal=USR1@120`) or a person about to take a machine down
//! sends. Without a handler, SIGUSR1's default action would end the process at once, losing its
//! end; a job that keeps no checkpoints says so and plays on. As with the stopping signals, a
//! SIGUSR1 ignored when the process starts stays ignored.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::SIGUSR1;

/// Asked for a checkpoint, not yet taken ([`checkpoint_asked`]).
static ASKED: AtomicBool = AtomicBool::new(false);
/// Whether the job now running keeps checkpoints: what the handler does with a request.
static KEPT: AtomicBool = AtomicBool::new(false);
/// Registers [`on_request`] once a process.
static ANSWERING: Once = Once::new();

/// What the handler says when the job keeps no checkpoints: the request is not lost in silence.
const NONE_KEPT: &[u8] = b"warsim: SIGUSR1 asks for a checkpoint, but this job keeps none (only \
a --state file, with --checkpoint-every above 0, keeps them); it plays on\n";

/// From now on, SIGUSR1 asks for a checkpoint ([`checkpoint_asked`]) when `kept` (the job keeps
/// checkpoints), or has the note that none are kept written; either way the job plays on.
/// Registered once a process, unless SIGUSR1 was ignored when it started.
pub fn answer_checkpoint_requests(kept: bool) {
    KEPT.store(kept, Ordering::SeqCst);
    ANSWERING.call_once(|| {
        if super::ignored_now(SIGUSR1) {
            return;
        }
        // SAFETY: `on_request` touches atomics and calls `write(2)`, both async-signal-safe.
        // Registering fails only for the signals no handler may take (SIGKILL, SIGSTOP…), so
        // the error is not passed on: SIGUSR1 would merely keep its default.
        let _ = unsafe { signal_hook::low_level::register(SIGUSR1, on_request) };
    });
}

fn on_request() {
    if KEPT.load(Ordering::SeqCst) {
        ASKED.store(true, Ordering::SeqCst);
    } else {
        // SAFETY: write(2) is async-signal-safe; a failed write leaves only the note unsaid.
        unsafe { libc::write(2, NONE_KEPT.as_ptr().cast(), NONE_KEPT.len()) };
    }
}

/// True once after each request for a checkpoint (SIGUSR1): the caller saves one now.
pub fn checkpoint_asked() -> bool {
    ASKED.swap(false, Ordering::SeqCst)
}
