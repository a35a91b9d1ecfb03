//! `warsim resume STATE`, and what `--continue` shares with it (`continuing.rs`): continue the
//! run, sweep or enumeration a checkpoint recorded, from its folder (or the one `--folder`
//! names, where it moved) and with its own command line (but how the run goes: threads,
//! progress bar, checkpoint cadence), after checking that the per-game CSV still holds exactly
//! the checkpoint's rows, and a Parquet file its games (never silently: a shorter, edited
//! or missing file is an error: `resumed_files.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser};

use super::enumerate::{checked_plan, continue_enumeration};
use super::resumed_files::{check_csv, check_parquet};
use super::{Cli, Command, parse_threads};
use crate::config::{ConfigError, ResumeFrom, RunOptions, check_threads, parse_duration};
use crate::enumerate::saved::tally_of;
use crate::export::text::{counted, group};
use crate::export::{Holding, Target};
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, run};
use crate::state::{AnyState, Resumable, RuleSettings, State, StateLock, SweepState, WhenHeld};
use crate::sweep::{SweepOptions, SweepResume};

/// `warsim resume`'s arguments: the state file, and how the run goes from here, which changes
/// none of its games or files.
#[derive(Args, Debug)]
pub(super) struct ResumeArgs {
    /// The run's, sweep's or enumeration's state file.
    state: PathBuf,
    /// Worker threads, 1 to 1024 [default: the run's own --threads, or all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// No progress bar (it is also hidden when stderr is not a terminal) [default: the run's
    /// own --quiet].
    #[arg(short, long)]
    quiet: bool,
    /// Write the state this often from here: 0, 500ms, 30s, 5m, 2h; 0 = only at the end
    /// [default: the run's own --checkpoint-every].
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    checkpoint_every: Option<Duration>,
    /// Run in DIR instead of the folder the run ran in (a folder moved, or copied to another
    /// machine): the run's relative paths then name DIR's files, and its --state there must be
    /// STATE [default: the run's own folder].
    #[arg(long, value_name = "DIR")]
    folder: Option<PathBuf>,
}

impl ResumeArgs {
    /// Applies the flags given to how the run goes, to a run's or a sweep's.
    fn apply(&self, threads: &mut usize, quiet: &mut bool, checkpoint_every: &mut Duration) {
        *threads = self.threads.unwrap_or(*threads);
        *quiet |= self.quiet;
        *checkpoint_every = self.checkpoint_every.unwrap_or(*checkpoint_every);
    }
}

pub(super) fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Resume(message))
}

/// A checkpoint's games (an enumeration's sequences) played and asked for, and their noun.
fn games_of(checkpoint: &AnyState) -> (u64, u64, &'static str) {
    match checkpoint {
        AnyState::Run(state) => (state.games, state.games_requested, "game"),
        AnyState::Enumeration(state) => {
            let (played, part) = (state.next - state.first, state.end - state.first);
            (played, part, "sequence")
        }
        AnyState::Sweep(sweep) => {
            // Each cell's part of its games (a shard's), or all of them if none was begun.
            let part = sweep
                .cells
                .first()
                .map_or(sweep.games, |c| c.games_requested);
            let played = sweep.cells.iter().map(|c| c.games).sum();
            (played, part * sweep.grid.len() as u64, "game")
        }
    }
}

/// Whether a checkpoint's figures read whole: its rules rebuild and its counts add up (each
/// cell's, of a sweep), or why not.
fn sound(checkpoint: &AnyState) -> Result<(), String> {
    let run = |state: &State| state.stats(&state.rules()?).map(drop);
    match checkpoint {
        AnyState::Run(state) => run(state),
        AnyState::Sweep(sweep) => (sweep.cells.iter().enumerate())
            .try_for_each(|(index, cell)| run(cell).map_err(|e| in_cell(sweep, index, &e))),
        AnyState::Enumeration(state) => {
            let players = state.rules.rules()?.players as usize;
            tally_of(&state.tally, players).map(drop)
        }
    }
}

/// A sweep's cell named before what is wrong with it, as `warsim merge` names it:
/// "cell 4 (players=3 ranks=13): is damaged: …".
fn in_cell(sweep: &SweepState, index: usize, why: &str) -> String {
    let values = sweep
        .grid
        .get(index)
        .map_or(&[][..], |cell| &cell.values[..]);
    let label: Vec<String> = (sweep.swept.iter().zip(values))
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    format!("cell {index} ({}): {why}", label.join(" "))
}

/// Reads the state, checks its outputs and runs (or sweeps) on.
pub(super) fn resume(args: &ResumeArgs) -> Result<RunEnd, RunError> {
    if let Some(threads) = args.threads {
        check_threads(threads)?;
    }
    let path = args.state.as_path();
    let name = path.display().to_string();
    let absolute =
        std::fs::canonicalize(path).map_err(|e| refuse(format!("{name}: cannot be read ({e})")))?;
    let _lock = StateLock::acquire(&absolute, WhenHeld::Refuse, || {})
        .map_err(|e| refuse(format!("{name}: {e}")))?;
    let (checkpoint, resumable) =
        read_checkpoint(&absolute).map_err(|e| refuse(format!("{name}: {e}")))?;
    let (played, asked, noun) = games_of(&checkpoint);
    let what = checkpoint.kind();
    if played == asked {
        // Said complete only once its figures are found whole, as a merge would read them.
        sound(&checkpoint).map_err(|e| refuse(format!("{name}: {e}")))?;
        say!(
            "{name}: the {what} is complete ({}): nothing to resume",
            counted(played, noun)
        );
        return Ok(RunEnd::Complete);
    }
    if let Some(folder) = &args.folder {
        std::env::set_current_dir(folder).map_err(|e| {
            refuse(format!(
                "--folder {}: cannot enter it ({e})",
                folder.display()
            ))
        })?;
    } else if !resumable.ran_here() {
        let folder = resumable
            .folder()
            .map_err(|e| refuse(format!("{name}: {e}")))?;
        std::env::set_current_dir(&folder).map_err(|e| {
            let folder = resumable.folder_text();
            // A state from before the folder's bytes were kept holds only its text.
            refuse(
                match resumable.cwd_base64.is_none() && folder.contains('\u{FFFD}') {
                    true => format!(
                        "{name}: the {what}'s folder is recorded as {folder}, as its name is not \
                     UTF-8 and this state is older than the folder's bytes kept beside it: \
                     resume from inside that folder"
                    ),
                    false => format!(
                        "{name}: the {what}'s folder {folder} is gone ({e}): if it moved, add \
                         --folder with the folder that now holds its files"
                    ),
                },
            )
        })?;
    }
    let not_its_own = || refuse(format!("{name}: its command line is not a `warsim {what}`"));
    // The recorded command's options, in the folder that holds its state, going as this resume
    // asks (threads, progress bar, checkpoints); alike for runs, sweeps and enumerations, whose
    // options types share those fields.
    macro_rules! going_on {
        ($recorded:expr) => {{
            let mut options = $recorded.into_options()?;
            same_state_there(args, &options.state, &absolute)?;
            options.command = resumable.command.clone();
            let o = &mut options;
            args.apply(&mut o.threads, &mut o.quiet, &mut o.checkpoint_every);
            options
        }};
    }
    match (parse(&resumable.command), checkpoint) {
        (Err(why), _) => Err(refuse(format!(
            "{name}: its command line cannot be read by this warsim ({why})"
        ))),
        (Ok(Command::Run(recorded)), AnyState::Run(state)) => {
            continue_from(&name, &state, &resumable, going_on!(recorded))
        }
        (Ok(Command::Sweep(recorded)), AnyState::Sweep(sweep)) => {
            continue_sweep(&name, &sweep, &resumable, going_on!(recorded))
        }
        (Ok(Command::Enumerate(recorded)), AnyState::Enumeration(state)) => {
            let options = going_on!(recorded);
            continue_enumeration(&name, &state, &checked_plan(&options)?, options)
        }
        _ => Err(not_its_own()),
    }
}

/// With `--folder`, refuses a folder where the run's own `--state` is not the state file being
/// resumed (`absolute`): the run would checkpoint into another file, perhaps one it did not
/// write, and the folder is not the run's as it left it.
fn same_state_there(
    args: &ResumeArgs,
    state: &Option<Target>,
    absolute: &Path,
) -> Result<(), RunError> {
    let Some(folder) = &args.folder else {
        return Ok(());
    };
    let Some(Target::File(there)) = state else {
        return Ok(());
    };
    match std::fs::canonicalize(there) {
        Ok(found) if found == absolute => Ok(()),
        _ => Err(refuse(format!(
            "--folder {}: the run's --state {} there is not {}: give the folder that holds the \
             run's files as it left them",
            folder.display(),
            there.display(),
            args.state.display()
        ))),
    }
}

/// A recorded command line (the arguments after `warsim`), parsed; or clap's complaint on one
/// line (a state edited by hand, or written by a build that took a flag this one refuses).
pub(super) fn parse(command: &[String]) -> Result<Command, String> {
    let args = std::iter::once("warsim".to_string()).chain(command.iter().cloned());
    Cli::try_parse_from(args)
        .map(|cli| cli.command)
        .map_err(|error| {
            let text = error.to_string();
            let lines = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:"));
            let said = lines
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            said.strip_prefix("error: ").unwrap_or(&said).to_string()
        })
}

/// A state file that holds a checkpoint this warsim can continue.
pub(super) fn read_checkpoint(path: &Path) -> Result<(AnyState, Resumable), String> {
    let checkpoint = AnyState::read(path)?;
    let (version, resume) = match &checkpoint {
        AnyState::Run(state) => (&state.warsim_version, state.resume.clone()),
        AnyState::Sweep(sweep) => (&sweep.warsim_version, sweep.resume.clone()),
        AnyState::Enumeration(state) => (&state.warsim_version, state.resume.clone()),
    };
    let Some(resumable) = resume else {
        return Err(
            "was not written by `warsim run`, `sweep` or `enumerate` with --state (a checkpoint): there is nothing to resume"
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

/// Checks that the run's options are the checkpoint's and that its per-game CSV still holds the
/// checkpoint's rows, then plays on from the checkpoint's last game (when every game was played,
/// writes the outputs again from the state).
pub(super) fn continue_from(
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
    let games = state.first_game..state.first_game + state.games;
    check_parquet(name, "run", &options.parquet, Holding::Games(games))?;
    check_csv(name, &options.csv, resumable, state.games)?;
    options.resume = Some(ResumeFrom {
        stats: state
            .stats(&rules)
            .map_err(|e| refuse(format!("{name}: {e}")))?,
        csv_bytes: resumable.csv_bytes,
        seconds: state.wall_seconds,
    });
    let next = format!("game {}", group(state.first_game + state.games));
    let played = (state.games, state.games_requested);
    say_where(name, "run", played, (&next, &options.csv));
    let interrupt = Interrupt::install().ok();
    run(&options, interrupt.as_ref())
}

/// Checks that the sweep's options are the checkpoint's (the same grid, seed and games, the same
/// part of each cell) and that its `--games-csv` still holds the checkpoint's rows, then sweeps
/// on from the checkpoint's last game (when every game was played, writes the outputs again).
pub(super) fn continue_sweep(
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
    check_parquet(
        name,
        "sweep",
        &options.parquet,
        options.parquet_holding(played),
    )?;
    check_csv(name, &options.games_csv, resumable, played)?;
    let mut cells = Vec::with_capacity(sweep.cells.len());
    for (index, (state, cell)) in sweep.cells.iter().zip(&options.grid.cells).enumerate() {
        let stats = (state.stats(&cell.rules))
            .map_err(|e| refuse(format!("{name}: {}", in_cell(sweep, index, &e))))?;
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
    let next = options.grid.cell_named(cells_done);
    say_where(name, "sweep", (played, asked), (&next, &options.games_csv));
    let interrupt = Interrupt::install().ok();
    crate::sweep::sweep(&options, interrupt.as_ref())
}

/// Says on stderr where a continued run or sweep goes on from (`next`: "game G", "cell C"), so a
/// scheduler's log shows the task continued rather than started over; and, when its per-game
/// CSV (`csv`) goes to standard output, that the rows there continue the stopped one's.
fn say_where(
    name: &str,
    what: &str,
    (played, asked): (u64, u64),
    (next, csv): (&str, &Option<Target>),
) {
    if played == asked {
        say!(
            "{name}: the {what} is complete ({}): writing its outputs again from the state",
            counted(played, "game")
        );
        return;
    }
    // warsim cannot read back or cut what it wrote to a stream: the rows it writes now follow
    // the checkpoint's, as a resumed file's do, and the user joins the two.
    let stream = match *csv == Some(Target::Stdout) {
        true => format!(
            " (the per-game CSV on standard output goes on from there, without its header: \
             append it to the first {} rows written before: the stopped {what}'s, or after \
             earlier resumptions its outputs joined)",
            group(played)
        ),
        false => String::new(),
    };
    say!(
        "{name}: resuming after {} of {}: playing on from {next}{stream}",
        counted(played, "game"),
        group(asked)
    );
}
