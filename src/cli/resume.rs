//! `warsim resume STATE` and `warsim run --continue`: continue the run a checkpoint recorded,
//! from its folder and with its own command line, after checking that the per-game CSV still
//! holds exactly the checkpoint's rows (never silently: a shorter, edited or missing file is an
//! error).

use std::path::Path;

use clap::Parser;

use super::{Cli, Command};
use crate::config::{ConfigError, ResumeFrom, RunOptions};
use crate::export::Target;
use crate::export::text::{counted, group};
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, run};
use crate::state::{Resumable, State, csv_tail};

fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Resume(message))
}

/// Reads the state, checks its outputs and runs on.
pub(super) fn resume(path: &Path) -> Result<RunEnd, RunError> {
    let name = path.display().to_string();
    let absolute =
        std::fs::canonicalize(path).map_err(|e| refuse(format!("{name}: cannot be read ({e})")))?;
    let (state, resumable) =
        read_checkpoint(&absolute).map_err(|e| refuse(format!("{name}: {e}")))?;
    if state.games == state.games_requested {
        eprintln!(
            "{name}: the run is complete ({}): nothing to resume",
            counted(state.games, "game")
        );
        return Ok(RunEnd::Complete);
    }
    std::env::set_current_dir(&resumable.cwd).map_err(|e| {
        refuse(format!(
            "{name}: the run's folder {} is gone ({e})",
            resumable.cwd
        ))
    })?;
    let args = std::iter::once("warsim".to_string()).chain(resumable.command.iter().cloned());
    let Ok(Cli {
        command: Command::Run(run_args),
    }) = Cli::try_parse_from(args)
    else {
        return Err(refuse(format!(
            "{name}: its command line is not a `warsim run`"
        )));
    };
    let mut options = run_args.into_options()?;
    options.command = resumable.command.clone();
    continue_from(&name, &state, &resumable, options)
}

/// `warsim run --continue`: continues the checkpoint in the run's own state file when it is this
/// same command's, from this same folder (a scheduler retrying a task, whose games are the same);
/// plays the run from the start when there is no state file yet. A state of another run, or a
/// file that is not a state, is an error that changes nothing.
pub(super) fn run_or_continue(options: RunOptions) -> Result<RunEnd, RunError> {
    let existing = match (&options.state, options.continue_from_state) {
        (Some(Target::File(path)), true) if path.is_file() => Some(path.clone()),
        _ => None,
    };
    let Some(path) = existing else {
        let interrupt = Interrupt::install().ok();
        return run(&options, interrupt.as_ref());
    };
    let name = path.display().to_string();
    let (state, resumable) =
        read_checkpoint(&path).map_err(|e| refuse(format!("--continue: {name}: {e}")))?;
    let here = std::env::current_dir().map_or(String::new(), |d| d.display().to_string());
    if resumable.command != options.command || resumable.cwd != here {
        return Err(refuse(format!(
            "--continue: {name} is the state of another run (`warsim {}` in {}): give this run its own --state, or remove {name} to start over",
            resumable.command.join(" "),
            resumable.cwd
        )));
    }
    continue_from(&name, &state, &resumable, options)
}

/// A state file that holds a checkpoint this warsim can continue.
fn read_checkpoint(path: &Path) -> Result<(State, Resumable), String> {
    let state = State::read(path)?;
    let Some(resumable) = state.resume.clone() else {
        return Err(
            "was not written by `warsim run --state` (a checkpoint): there is no run to resume"
                .to_string(),
        );
    };
    let this = env!("CARGO_PKG_VERSION");
    if state.warsim_version != this {
        return Err(format!(
            "was written by warsim {}, and this is warsim {this}, whose games may differ: continue it with warsim {}",
            state.warsim_version, state.warsim_version
        ));
    }
    Ok((state, resumable))
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
    if let Some(Target::File(csv)) = &options.csv {
        let held = std::fs::metadata(csv).map(|m| m.len());
        let matches = match held {
            Ok(len) if len >= resumable.csv_bytes => {
                csv_tail(csv, resumable.csv_bytes).ok().as_deref()
                    == Some(resumable.csv_tail.as_str())
            }
            _ => false,
        };
        if !matches {
            return Err(refuse(format!(
                "{name}: the per-game CSV {} does not hold the checkpoint's {} (missing, shorter than {} bytes, or edited): nothing was changed",
                csv.display(),
                counted(state.games, "game"),
                resumable.csv_bytes
            )));
        }
    }
    options.resume = Some(ResumeFrom {
        stats: state
            .stats(&rules)
            .map_err(|e| refuse(format!("{name}: {e}")))?,
        csv_bytes: resumable.csv_bytes,
        seconds: state.wall_seconds,
    });
    // Said on stderr, so a scheduler's log shows the task continued rather than started over.
    if state.games == state.games_requested {
        eprintln!(
            "{name}: the run is complete ({}): writing its outputs again from the state",
            counted(state.games, "game")
        );
    } else {
        eprintln!(
            "{name}: resuming after {} of {}: playing on from game {}",
            counted(state.games, "game"),
            group(state.games_requested),
            group(state.first_game + state.games)
        );
    }
    let interrupt = Interrupt::install().ok();
    run(&options, interrupt.as_ref())
}
