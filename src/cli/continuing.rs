//! `warsim run|sweep|enumerate --continue`: what a scheduler's retry runs. With `--state PATH`
//! a job holds PATH's lock while it goes; with `--continue` it continues the checkpoint in its
//! own state file when that file is this same job's (the same flags but how the job goes), as
//! `warsim resume` does, and starts when there is none. (An enumeration's part is in
//! `enumerate.rs`, with the rest of its command.)

use std::path::Path;

use clap::Args;

use super::Command;
use super::resume::{continue_from, continue_sweep, parse, read_checkpoint, refuse};
use crate::config::{RunOptions, parse_duration};
use crate::export::Target;
use crate::export::text::shell_word;
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, run};
use crate::state::{AnyState, Resumable, StateLock, WhenHeld};
use crate::sweep::SweepOptions;

/// The checkpoint flags `run`, `sweep` and `enumerate` share.
#[derive(Args, Debug)]
pub(super) struct CheckpointArgs {
    /// With --state: write the state (the games or deals so far; a per-game CSV flushed to the
    /// same game, a Parquet file ended with a footer) this often, so `warsim resume
    /// STATE` can continue after a crash: 0, 500ms, 30s, 5m, 2h; 0 = only at the end (always so
    /// for '-', a pipe or a device: one document). SIGUSR1 asks for one now (`kill -USR1 PID`).
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration,
        requires = "state")]
    pub(super) checkpoint_every: std::time::Duration,
    /// With --state: if its file holds a checkpoint of this same job run from this folder (the
    /// same flags but --threads, --quiet, --checkpoint-every and --continue, in any order: a
    /// scheduler retrying a task, or the job again after an interrupt), continue from it as
    /// `warsim resume` does; if there is no file, start. A state of another job is an error.
    /// If another warsim is writing the state file, wait for it to end first.
    #[arg(long = "continue")]
    pub(super) continue_from_state: bool,
}

/// `warsim run --continue`: continues the checkpoint in the run's own state file when it is this
/// same batch's, from this same folder (a scheduler retrying a task, whose games are the same);
/// plays the run from the start when there is no state file yet. A state of another run, or a
/// file that is not a state, is an error that changes nothing.
pub(super) fn run_or_continue(options: RunOptions) -> Result<RunEnd, RunError> {
    let _lock = lock_state(&options.state, options.continue_from_state, "run")?;
    let existing = existing_state(&options.state, options.continue_from_state);
    let Some(path) = existing else {
        let interrupt = Interrupt::install().ok();
        return run(&options, interrupt.as_ref());
    };
    let same = |saved: &RunOptions| run_batch(saved) == run_batch(&options);
    let (name, checkpoint, resumable) = own_checkpoint(&path, "run", |saved| match parse(saved) {
        Ok(Command::Run(args)) => args.into_options().is_ok_and(|saved| same(&saved)),
        _ => false,
    })?;
    match checkpoint {
        AnyState::Run(state) => continue_from(&name, &state, &resumable, options),
        other => Err(another_job(&name, &resumable, "run", &other)),
    }
}

/// `warsim sweep --continue`, as [`run_or_continue`] for a sweep.
pub(super) fn sweep_or_continue(options: SweepOptions) -> Result<RunEnd, RunError> {
    let _lock = lock_state(&options.state, options.continue_from_state, "sweep")?;
    let existing = existing_state(&options.state, options.continue_from_state);
    let Some(path) = existing else {
        let interrupt = Interrupt::install().ok();
        return crate::sweep::sweep(&options, interrupt.as_ref());
    };
    let same = |saved: &SweepOptions| sweep_batch(saved) == sweep_batch(&options);
    let (name, checkpoint, resumable) =
        own_checkpoint(&path, "sweep", |saved| match parse(saved) {
            Ok(Command::Sweep(args)) => args.into_options().is_ok_and(|saved| same(&saved)),
            _ => false,
        })?;
    match checkpoint {
        AnyState::Sweep(sweep) => continue_sweep(&name, &sweep, &resumable, options),
        other => Err(another_job(&name, &resumable, "sweep", &other)),
    }
}

/// Holds the lock of the state file of a `job` (a run, an enumeration's part) for as long as it
/// goes (`state::StateLock`): one finding another warsim writing it is refused; with
/// `--continue` (a scheduler's retry whose stopped attempt may still be writing its last
/// checkpoint) it waits for it.
pub(super) fn lock_state(
    state: &Option<Target>,
    continuing: bool,
    job: &str,
) -> Result<Option<StateLock>, RunError> {
    let Some(Target::File(path)) = state else {
        return Ok(None);
    };
    let name = path.display();
    let when_held = if continuing {
        WhenHeld::Wait
    } else {
        WhenHeld::Refuse
    };
    let waiting =
        || say!("{name}: another warsim is writing this state file: waiting for it to end");
    StateLock::acquire(path, when_held, waiting)
        .map(Some)
        .map_err(|e| {
            refuse(format!(
                "--state {name}: {e}, or give this {job} its own --state"
            ))
        })
}

/// The state file `--continue` continues from, when there is one.
pub(super) fn existing_state(
    state: &Option<Target>,
    continuing: bool,
) -> Option<std::path::PathBuf> {
    match (state, continuing) {
        (Some(Target::File(path)), true) if path.is_file() => Some(path.clone()),
        _ => None,
    }
}

/// The checkpoint at `path`, if `same` finds its command line this `job`'s and it ran from
/// this folder (relative paths name other files elsewhere).
pub(super) fn own_checkpoint(
    path: &Path,
    job: &str,
    same: impl FnOnce(&[String]) -> bool,
) -> Result<(String, AnyState, Resumable), RunError> {
    let name = path.display().to_string();
    let (checkpoint, resumable) =
        read_checkpoint(path).map_err(|e| refuse(format!("--continue: {name}: {e}")))?;
    match (same(&resumable.command), resumable.ran_here()) {
        (true, true) => Ok((name, checkpoint, resumable)),
        // This very command, run elsewhere: most likely its folder moved here.
        (true, false) => Err(refuse(format!(
            "--continue: {name} is this {job}'s state from another folder ({}): if the folder \
             moved here, continue it with `warsim resume {} --folder .`; else give this {job} \
             its own --state",
            resumable.folder_text(),
            shell_word(path.as_os_str())
        ))),
        (false, _) => Err(another_job(&name, &resumable, job, &checkpoint)),
    }
}

/// Defines a function giving what decides a batch's games and files, to compare two batches'
/// options: every option but how the run goes (threads, progress bar, checkpoint cadence,
/// `--continue` itself), which change neither, so a retry may add `--continue` or take other
/// threads, and flags may come in any order. Compared as Debug text: the options derive nothing
/// else, and every field is in it. One list of those fields for runs and sweeps alike.
macro_rules! batch_of {
    ($(#[$doc:meta])* $name:ident($options:ty)) => {
        $(#[$doc])*
        fn $name(options: &$options) -> String {
            let mut batch = options.clone();
            (batch.threads, batch.quiet, batch.continue_from_state) = (0, false, false);
            batch.checkpoint_every = std::time::Duration::ZERO;
            (batch.command, batch.resume) = (Vec::new(), None);
            format!("{batch:?}")
        }
    };
}

pub(super) use batch_of;

batch_of!(
    /// What decides a run's games and files (see `batch_of`).
    run_batch(RunOptions)
);
batch_of!(
    /// What decides a sweep's games and files (see `batch_of`).
    sweep_batch(SweepOptions)
);

/// Refuses to continue a `job` (a run, a sweep, an enumeration) from `name`, the state
/// `saved` of another job, named by its kind.
pub(super) fn another_job(
    name: &str,
    resumable: &Resumable,
    job: &str,
    saved: &AnyState,
) -> RunError {
    let whose = match saved {
        AnyState::Run(_) if job == "run" => "another run",
        AnyState::Sweep(_) if job == "sweep" => "another sweep",
        AnyState::Enumeration(_) if job == "enumeration" => "another enumeration",
        AnyState::Run(_) => "a run",
        AnyState::Sweep(_) => "a sweep",
        AnyState::Enumeration(_) => "an enumeration",
    };
    refuse(format!(
        "--continue: {name} is the state of {whose} (`warsim {}` in {}): give this {job} its own --state, or remove {name} to start over",
        (resumable.command.iter())
            .map(|word| shell_word(word.as_ref()))
            .collect::<Vec<_>>()
            .join(" "),
        resumable.folder_text()
    ))
}
