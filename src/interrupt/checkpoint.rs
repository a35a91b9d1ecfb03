//! SIGUSR1 asks a run, sweep or enumeration for a checkpoint now, and it plays on: what a
//! scheduler's warning before a time limit (Slurm's `--signal=USR1@120`) or a person about to
//! take a machine down sends. Without a handler, SIGUSR1's default action would end the process
//! at once, losing its end; a job that keeps no checkpoints (a merge, a listing of games among
//! them) says so and plays on. As with the stopping signals, a SIGUSR1 ignored when the process
//! starts stays ignored.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use signal_hook::consts::SIGUSR1;

/// What the job running does when SIGUSR1 asks it for a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointAnswer {
    /// It saves one ([`checkpoint_asked`]).
    Save,
    /// It keeps none: no state file, or `--checkpoint-every 0`. It says so.
    NoState,
    /// `warsim merge` or `warsim play`, which keep none: it says so.
    NotKept,
}

/// Asked for a checkpoint, not yet taken ([`checkpoint_asked`]).
static ASKED: AtomicBool = AtomicBool::new(false);
/// The job's [`CheckpointAnswer`], as its index: what the handler does with a request.
static ANSWER: AtomicU8 = AtomicU8::new(CheckpointAnswer::NoState as u8);
/// Registers [`on_request`] once a process.
static ANSWERING: Once = Once::new();

/// What the handler says when the job keeps no checkpoints: the request is not lost in silence.
const NO_STATE: &[u8] = b"warsim: SIGUSR1 asks for a checkpoint, but this job keeps none (only \
a --state file, with --checkpoint-every above 0, keeps them); it plays on\n";

/// What `warsim merge` and `warsim play` say: they write their files whole at the end, or a
/// listing line by line, and have nothing to save on the way.
const NOT_KEPT: &[u8] = b"warsim: SIGUSR1 asks for a checkpoint, but warsim merge and warsim \
play keep none; it plays on\n";

/// From now on, SIGUSR1 has the job do as `answer` says; either way the job plays on.
/// Registered once a process, unless SIGUSR1 was ignored when it started.
pub fn answer_checkpoint_requests(answer: CheckpointAnswer) {
    ANSWER.store(answer as u8, Ordering::SeqCst);
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
    let note = match ANSWER.load(Ordering::SeqCst) {
        answer if answer == CheckpointAnswer::Save as u8 => {
            ASKED.store(true, Ordering::SeqCst);
            return;
        }
        answer if answer == CheckpointAnswer::NotKept as u8 => NOT_KEPT,
        _ => NO_STATE,
    };
    // SAFETY: write(2) is async-signal-safe; a failed write leaves only the note unsaid.
    unsafe { libc::write(2, note.as_ptr().cast(), note.len()) };
}

/// True once after each request for a checkpoint (SIGUSR1): the caller saves one now.
pub fn checkpoint_asked() -> bool {
    ASKED.swap(false, Ordering::SeqCst)
}
