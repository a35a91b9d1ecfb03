//! `warsim resume STATE` and `warsim run|sweep --continue`: continue the run or sweep a
//! checkpoint recorded, from its folder and with its own command line, after checking that the
//! per-game CSV still holds exactly the checkpoint's rows (never silently: a shorter, edited or
//! missing file is an error).

use std::path::Path;

use clap::{Args, Parser};

use super::{Cli, Command};
use crate::config::{ConfigError, ResumeFrom, RunOptions, parse_duration};
use crate::export::Target;
use crate::export::text::{counted, group};
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, run};
use crate::state::{
    AnyState, Resumable, RuleSettings, State, StateLock, SweepState, WhenHeld, csv_tail,
};
use crate::sweep::{SweepOptions, SweepResume};

/// The checkpoint flags `run` and `sweep` share.
#[derive(Args, Debug)]
pub(super) struct CheckpointArgs {
    /// With --state: write the state (the games so far, the per-game CSV flushed to the same
    /// game) this often, so `warsim resume STATE` can continue after a crash: 0, 500ms, 30s, 5m,
    /// 2h; 0 = only at the end.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_duration)]
    pub(super) checkpoint_every: std::time::Duration,
    /// With --state: if its file holds a checkpoint of this same batch run from this folder (the
    /// same flags but --threads, --quiet, --checkpoint-every and --continue, in any order: a
    /// scheduler retrying a task, or the run again after an interrupt), continue from it as
    /// `warsim resume` does; if there is no file, start. A state of another run is an error.
    /// If another warsim is writing the state file, wait for it to end first.
    #[arg(long = "continue")]
    pub(super) continue_from_state: bool,
}

fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Resume(message))
}

/// A checkpoint's games played and asked for.
fn games_of(checkpoint: &AnyState) -> (u64, u64) {
    match checkpoint {
        AnyState::Run(state) => (state.games, state.games_requested),
        AnyState::Sweep(sweep) => {
            // Each cell's part of its games (a shard's), or all of them if none was begun.
            let part = sweep
                .cells
                .first()
                .map_or(sweep.games, |c| c.games_requested);
            let played = sweep.cells.iter().map(|c| c.games).sum();
            (played, part * sweep.grid.len() as u64)
        }
    }
}

/// Reads the state, checks its outputs and runs (or sweeps) on.
pub(super) fn resume(path: &Path) -> Result<RunEnd, RunError> {
    let name = path.display().to_string();
    let absolute =
        std::fs::canonicalize(path).map_err(|e| refuse(format!("{name}: cannot be read ({e})")))?;
    let _lock = StateLock::acquire(&absolute, WhenHeld::Refuse, || {})
        .map_err(|e| refuse(format!("{name}: {e}")))?;
    let (checkpoint, resumable) =
        read_checkpoint(&absolute).map_err(|e| refuse(format!("{name}: {e}")))?;
    let (played, asked) = games_of(&checkpoint);
    let what = match checkpoint {
        AnyState::Run(_) => "run",
        AnyState::Sweep(_) => "sweep",
    };
    if played == asked {
        eprintln!(
            "{name}: the {what} is complete ({}): nothing to resume",
            counted(played, "game")
        );
        return Ok(RunEnd::Complete);
    }
    std::env::set_current_dir(&resumable.cwd).map_err(|e| {
        refuse(format!(
            "{name}: the {what}'s folder {} is gone ({e})",
            resumable.cwd
        ))
    })?;
    let not_its_own = || refuse(format!("{name}: its command line is not a `warsim {what}`"));
    match (parse(&resumable.command), checkpoint) {
        (Some(Command::Run(args)), AnyState::Run(state)) => {
            let mut options = args.into_options()?;
            options.command = resumable.command.clone();
            continue_from(&name, &state, &resumable, options)
        }
        (Some(Command::Sweep(args)), AnyState::Sweep(sweep)) => {
            let mut options = args.into_options()?;
            options.command = resumable.command.clone();
            continue_sweep(&name, &sweep, &resumable, options)
        }
        _ => Err(not_its_own()),
    }
}

/// `warsim run --continue`: continues the checkpoint in the run's own state file when it is this
/// same batch's, from this same folder (a scheduler retrying a task, whose games are the same);
/// plays the run from the start when there is no state file yet. A state of another run, or a
/// file that is not a state, is an error that changes nothing.
pub(super) fn run_or_continue(options: RunOptions) -> Result<RunEnd, RunError> {
    let _lock = lock_state(&options.state, options.continue_from_state)?;
    let existing = existing_state(&options.state, options.continue_from_state);
    let Some(path) = existing else {
        let interrupt = Interrupt::install().ok();
        return run(&options, interrupt.as_ref());
    };
    let same = |saved: &RunOptions| run_batch(saved) == run_batch(&options);
    let (name, checkpoint, resumable) = own_checkpoint(&path, |saved| match parse(saved) {
        Some(Command::Run(args)) => args.into_options().is_ok_and(|saved| same(&saved)),
        _ => false,
    })?;
    match checkpoint {
        AnyState::Run(state) => continue_from(&name, &state, &resumable, options),
        AnyState::Sweep(_) => Err(another_run(&name, &resumable)),
    }
}

/// `warsim sweep --continue`, as [`run_or_continue`] for a sweep.
pub(super) fn sweep_or_continue(options: SweepOptions) -> Result<RunEnd, RunError> {
    let _lock = lock_state(&options.state, options.continue_from_state)?;
    let existing = existing_state(&options.state, options.continue_from_state);
    let Some(path) = existing else {
        let interrupt = Interrupt::install().ok();
        return crate::sweep::sweep(&options, interrupt.as_ref());
    };
    let same = |saved: &SweepOptions| sweep_batch(saved) == sweep_batch(&options);
    let (name, checkpoint, resumable) = own_checkpoint(&path, |saved| match parse(saved) {
        Some(Command::Sweep(args)) => args.into_options().is_ok_and(|saved| same(&saved)),
        _ => false,
    })?;
    match checkpoint {
        AnyState::Sweep(sweep) => continue_sweep(&name, &sweep, &resumable, options),
        AnyState::Run(_) => Err(another_run(&name, &resumable)),
    }
}

/// Holds the lock of the run's state file for as long as the run goes (`state::StateLock`): a
/// run finding another warsim writing it is refused; with `--continue` (a scheduler's retry
/// whose stopped attempt may still be writing its last checkpoint) it waits for it.
fn lock_state(state: &Option<Target>, continuing: bool) -> Result<Option<StateLock>, RunError> {
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
        || eprintln!("{name}: another warsim is writing this state file: waiting for it to end");
    StateLock::acquire(path, when_held, waiting)
        .map(Some)
        .map_err(|e| {
            refuse(format!(
                "--state {name}: {e}, or give this run its own --state"
            ))
        })
}

/// The state file `--continue` continues from, when there is one.
fn existing_state(state: &Option<Target>, continuing: bool) -> Option<std::path::PathBuf> {
    match (state, continuing) {
        (Some(Target::File(path)), true) if path.is_file() => Some(path.clone()),
        _ => None,
    }
}

/// The checkpoint at `path`, if `same` finds its command line this one's and it ran from this
/// folder (relative paths name other files elsewhere).
fn own_checkpoint(
    path: &Path,
    same: impl FnOnce(&[String]) -> bool,
) -> Result<(String, AnyState, Resumable), RunError> {
    let name = path.display().to_string();
    let (checkpoint, resumable) =
        read_checkpoint(path).map_err(|e| refuse(format!("--continue: {name}: {e}")))?;
    if resumable.cwd != Resumable::this_folder() || !same(&resumable.command) {
        return Err(another_run(&name, &resumable));
    }
    Ok((name, checkpoint, resumable))
}

/// A recorded command line (the arguments after `warsim`), parsed.
fn parse(command: &[String]) -> Option<Command> {
    let args = std::iter::once("warsim".to_string()).chain(command.iter().cloned());
    Cli::try_parse_from(args).ok().map(|cli| cli.command)
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

batch_of!(
    /// What decides a run's games and files (see `batch_of`).
    run_batch(RunOptions)
);
batch_of!(
    /// What decides a sweep's games and files (see `batch_of`).
    sweep_batch(SweepOptions)
);

fn another_run(name: &str, resumable: &Resumable) -> RunError {
    refuse(format!(
        "--continue: {name} is the state of another run (`warsim {}` in {}): give this run its own --state, or remove {name} to start over",
        resumable.command.join(" "),
        resumable.cwd
    ))
}

/// A state file that holds a checkpoint this warsim can continue.
fn read_checkpoint(path: &Path) -> Result<(AnyState, Resumable), String> {
    let checkpoint = AnyState::read(path)?;
    let (version, resume) = match &checkpoint {
        AnyState::Run(state) => (&state.warsim_version, state.resume.clone()),
        AnyState::Sweep(sweep) => (&sweep.warsim_version, sweep.resume.clone()),
    };
    let Some(resumable) = resume else {
        return Err(
            "was not written by `warsim run --state` or `warsim sweep --state` (a checkpoint): there is nothing to resume"
                .to_string(),
        );
    };
    let this = env!("CARGO_PKG_VERSION");
    if version != this {
        return Err(format!(
            "was written by warsim {version}, and this is warsim {this}, whose games may differ: continue it with warsim {version}"
        ));
    }
    Ok((checkpoint, resumable))
}

/// Refuses a per-game CSV that no longer holds exactly the checkpoint's rows.
fn check_csv(
    name: &str,
    csv: &Option<Target>,
    resumable: &Resumable,
    games: u64,
) -> Result<(), RunError> {
    let Some(Target::File(csv)) = csv else {
        return Ok(());
    };
    let held = std::fs::metadata(csv).map(|m| m.len());
    let matches = match held {
        Ok(len) if len >= resumable.csv_bytes => {
            csv_tail(csv, resumable.csv_bytes).ok().as_deref() == Some(resumable.csv_tail.as_str())
        }
        _ => false,
    };
    if matches {
        return Ok(());
    }
    Err(refuse(format!(
        "{name}: the per-game CSV {} does not hold the checkpoint's {} (missing, shorter than {} bytes, or edited): nothing was changed",
        csv.display(),
        counted(games, "game"),
        resumable.csv_bytes
    )))
}

/// Checks that the run's options are the checkpoint's and that its per-game CSV still holds the
/// checkpoint's rows, then plays on from the checkpoint's last game (when every game was played,
/// writes the outputs again from the state).
fn continue_from(
    name: &str,
    state: &State,
    resumable: &Resumable,
    mut options: RunOptions,
) -> Result<RunEnd, RunError> {
    let rules = state.rules().map_err(|e| refuse(format!("{name}: {e}")))?;
    let same = rules == options.rules
        && state.seed == options.seed
        && state.batch_games == options.games
        && options.state.is_some();
    if !same {
        return Err(refuse(format!(
            "{name}: its figures are not those of its own command line (the state was edited)"
        )));
    }
    if options.parquet.is_some() {
        return Err(refuse(format!(
            "{name}: the run writes --parquet, which cannot be continued (a Parquet file is complete only once closed)"
        )));
    }
    check_csv(name, &options.csv, resumable, state.games)?;
    options.resume = Some(ResumeFrom {
        stats: state
            .stats(&rules)
            .map_err(|e| refuse(format!("{name}: {e}")))?,
        csv_bytes: resumable.csv_bytes,
        seconds: state.wall_seconds,
    });
    let next = format!("game {}", group(state.first_game + state.games));
    say_where(name, "run", (state.games, state.games_requested), &next);
    let interrupt = Interrupt::install().ok();
    run(&options, interrupt.as_ref())
}

/// Checks that the sweep's options are the checkpoint's (the same grid, seed and games, the same
/// part of each cell) and that its `--games-csv` still holds the checkpoint's rows, then sweeps
/// on from the checkpoint's last game (when every game was played, writes the outputs again).
fn continue_sweep(
    name: &str,
    sweep: &SweepState,
    resumable: &Resumable,
    mut options: SweepOptions,
) -> Result<RunEnd, RunError> {
    let part = options.part();
    let same_grid = sweep.grid.len() == options.grid.cells.len()
        && sweep
            .grid
            .iter()
            .zip(&options.grid.cells)
            .all(|(state, cell)| {
                state.values == cell.values && state.rules == RuleSettings::of(&cell.rules)
            });
    let same = same_grid
        && sweep.seed == options.seed
        && sweep.games == options.games
        && sweep
            .cells
            .iter()
            .all(|c| c.first_game == part.start && c.games_requested == part.end - part.start)
        && options.state.is_some();
    if !same {
        return Err(refuse(format!(
            "{name}: its figures are not those of its own command line (the state was edited)"
        )));
    }
    let played = sweep.cells.iter().map(|c| c.games).sum();
    let asked = options.part_games() * options.grid.cells.len() as u64;
    check_csv(name, &options.games_csv, resumable, played)?;
    let mut cells = Vec::with_capacity(sweep.cells.len());
    for (state, cell) in sweep.cells.iter().zip(&options.grid.cells) {
        let stats = state
            .stats(&cell.rules)
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        cells.push((stats, state.wall_seconds));
    }
    let cells_done = cells
        .iter()
        .take_while(|(stats, _)| stats.games == part.end - part.start)
        .count();
    options.resume = Some(SweepResume {
        cells,
        csv_bytes: resumable.csv_bytes,
    });
    say_where(
        name,
        "sweep",
        (played, asked),
        &format!("cell {cells_done}"),
    );
    let interrupt = Interrupt::install().ok();
    crate::sweep::sweep(&options, interrupt.as_ref())
}

/// Says on stderr where a continued run or sweep goes on from (`next`: "game G", "cell C"), so a
/// scheduler's log shows the task continued rather than started over.
fn say_where(name: &str, what: &str, (played, asked): (u64, u64), next: &str) {
    if played == asked {
        eprintln!(
            "{name}: the {what} is complete ({}): writing its outputs again from the state",
            counted(played, "game")
        );
    } else {
        eprintln!(
            "{name}: resuming after {} of {}: playing on from {next}",
            counted(played, "game"),
            group(asked)
        );
    }
}
