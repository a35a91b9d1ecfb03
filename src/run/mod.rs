//! `warsim run`: checks and opens the outputs, plays the batch (or a shard of it, or the rest
//! of a checkpointed run) with a progress bar and checkpoints, and writes the report and the
//! result files (`outputs.rs`). Knows nothing of clap.
//!
//! Whatever stops a run early, every finished game is kept: an interrupt (SIGINT, SIGTERM,
//! SIGHUP, SIGXCPU, SIGUSR2) or a failed write ends the batch on a whole game, the per-game CSV
//! on a whole row, and the summaries are still written for exactly the games in it, marked
//! incomplete.

use std::io;
use std::time::Instant;

use crate::batch::{BatchError, BatchSpec, Controls, Occasion, RecordSink, run_batch};
use crate::config::{ConfigError, RunOptions};
use crate::export::text::{game_span, group};
use crate::export::{
    CsvEnd, GameFiles, RunInfo, StoppedWaiting, Summary, summary_json_line, write_atomically,
};
use crate::interrupt::Interrupt;
use crate::progress::games_bar;
use crate::state::{State, check_outputs_beside_state};
use crate::stats::Stats;

mod checkpoints;
mod game_csv_part;
mod kept;
mod other_parts;
mod outputs;
mod room;
mod summary_cells;
mod titles;

pub use kept::{ParquetLeft, per_game_kept};
use kept::{kept_note, kept_text};

pub use checkpoints::{
    answer_checkpoint_requests, checkpoints_of, checkpoints_sealing, forget_tail_once_counted,
    game_files, play_on, play_on_once, resumable, resumable_at, say_checkpoint_written,
};
pub use other_parts::{Holds, ThisBatch, another_parts, check_other_parts, state_and_csv_to_check};
pub use outputs::{OutputWriter, StopFailure, Stopper, write_each};
pub(crate) use outputs::{write_report, write_report_with, write_result_files};
pub use room::watch_room;
pub use titles::plot_titles;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad input, found before any game was played.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The batch could not start.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// An output could not be written (the other outputs were still written).
    #[error("could not write {what} to {target}: {}{kept}", write_error_text(.source))]
    Write {
        /// Which output.
        what: &'static str,
        /// Where it was going.
        target: String,
        /// The I/O error.
        source: io::Error,
        /// What was kept, for the message.
        kept: String,
    },
    /// More than one output could not be written: each of their errors, in the order tried.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Writes(Vec<RunError>),
}

impl RunError {
    /// True when the error is a closed pipe on the reading side (`warsim run ... | head`).
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            RunError::Write { source, .. } => source.kind() == io::ErrorKind::BrokenPipe,
            _ => false,
        }
    }

    /// The error of every output in `failures` that could not be written, so that none goes
    /// unreported; `None` when every one was written.
    pub fn of_all(mut failures: Vec<RunError>) -> Option<RunError> {
        match failures.len() {
            0 | 1 => failures.pop(),
            _ => Some(RunError::Writes(failures)),
        }
    }

    /// True when this is the failure to write `what` ("the summary JSON"), or holds one.
    pub fn is_write_of(&self, what: &str) -> bool {
        match self {
            RunError::Write { what: failed, .. } => *failed == what,
            RunError::Writes(all) => all.iter().any(|e| e.is_write_of(what)),
            _ => false,
        }
    }

    /// The exit status of the stopping signal that caused this failure, if one did: a named
    /// pipe that no program read before the stop.
    pub fn stopped_by(&self) -> Option<u8> {
        match self {
            RunError::Config(ConfigError::Stopped { status, .. }) => Some(*status),
            RunError::Write { source, .. } => StoppedWaiting::status_of(source),
            RunError::Writes(all) => all.iter().find_map(RunError::stopped_by),
            _ => None,
        }
    }

    /// The error's messages, one a line: one per output for [`RunError::Writes`].
    pub fn messages(&self) -> Vec<String> {
        match self {
            RunError::Writes(all) => all.iter().flat_map(RunError::messages).collect(),
            error => vec![error.to_string()],
        }
    }
}

/// An I/O error as a failed write's message says it: past a file size limit, which limit it
/// may be, as the system's "File too large" does not say (a scheduler's `ulimit -f` is easily
/// missed).
fn write_error_text(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::FileTooLarge => format!(
            "{error}: past the file size limit (`ulimit -f`) or the largest file its file system \
             holds"
        ),
        _ => error.to_string(),
    }
}

/// How a run that wrote its outputs ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every game was played.
    Complete,
    /// A signal stopped it early; the exit status it calls for (128 + the signal).
    Interrupted(u8),
}

/// Plays the batch described by `options` and writes every output. `interrupt`, when given,
/// stops the batch early on a signal.
pub fn run(options: &RunOptions, interrupt: Option<&Interrupt>) -> Result<RunEnd, RunError> {
    options.validate()?;
    let outputs = options.outputs();
    check_outputs_beside_state(&outputs, &["--csv", "--parquet"]).map_err(ConfigError::from)?;
    let (state, csv) = state_and_csv_to_check(
        (options.resume.is_some(), options.shard.is_some()),
        (&options.state, &options.csv),
    );
    let files = [
        ("--json", &options.json, Holds::SummaryJson),
        ("--summary", &options.summary, Holds::SummaryCsv),
        ("--state", state, Holds::State),
        ("--csv", csv, Holds::GameCsv),
        ("--parquet", &options.parquet, Holds::GameParquet),
        ("--hdr", &options.hdr, Holds::HdrLog),
    ];
    check_other_parts(&ThisBatch::of_run(options), &files).map_err(ConfigError::from)?;
    let first = options.part().start;
    let resumed = (options.resume.as_ref())
        .map(|resume| (resume.csv_bytes, (first..first + resume.stats.games).into()));
    let files = game_files(
        ("--csv", &options.csv, !options.no_header),
        ("--parquet", options.parquet.as_ref()),
        &[],
        resumed,
    )?;
    let (info, stats, failure, csv_end) = play(options, files, interrupt)?;
    let mut failures = write_result_files(options, &info, &stats, &csv_end);
    // The state now counts the games of the Parquet file written on after a resume or a
    // checkpoint: its saved tail goes.
    forget_tail_once_counted(
        (&options.state, &options.parquet),
        (&failures, outputs::STATE_FILE),
    );
    // A batch a write error stopped says what it kept in that error.
    let stopped = failure.is_some();
    if let Some(failure) = failure {
        let files = (&options.csv, &options.parquet, &options.state);
        let kept = kept_note(options, &info, (&failure, &csv_end), &failures);
        failure.put_first(files, kept, &mut failures)?;
    }
    write_report(options, &info, &stats)?;
    let end = match interrupt.and_then(Interrupt::exit_status) {
        Some(status) if stats.games < info.games_requested => {
            // Said even when a summary could not be written (that error follows, exit 1): what
            // the per-game files hold is known all the same.
            if !stopped {
                let signal = interrupt.map_or("a signal", Interrupt::signal_name);
                say!(
                    "interrupted after {} of {} games ({signal}): {}{}",
                    group(stats.games),
                    group(info.games_requested),
                    kept_text(
                        options,
                        (info.first_game, stats.games, false),
                        (false, ParquetLeft::Whole),
                        csv_end.moved_to.as_deref(),
                        &failures
                    ),
                    play_on_once(
                        (
                            &options.state,
                            &ParquetLeft::Whole.in_the_way(&options.parquet, stats.games)
                        ),
                        (None, csv_end.moved_from(&options.csv))
                    )
                );
            }
            RunEnd::Interrupted(status)
        }
        _ => RunEnd::Complete,
    };
    RunError::of_all(failures).map_or(Ok(end), Err)
}

/// What a played batch left: what was run, the statistics of the games kept, the write error
/// that stopped it (a per-game file's or a checkpoint's), if one did, and where its per-game
/// CSV ends.
type Played = (RunInfo, Stats, Option<StopFailure>, CsvEnd);

/// Plays the batch with a progress bar, streaming records to the per-game outputs; stops on a
/// signal. A write error still returns the statistics of the games written; a batch that could
/// not start removes the outputs this run created.
fn play(
    options: &RunOptions,
    mut files: GameFiles,
    interrupt: Option<&Interrupt>,
) -> Result<Played, RunError> {
    let games = options.part();
    // The games this run (or this shard) is asked for, those of a checkpoint it resumes among them.
    let requested = games.end - games.start;
    // A resumed run plays on from its checkpoint's last game.
    let (base, before) = match &options.resume {
        Some(resume) => (resume.stats.clone(), resume.seconds),
        None => {
            let r = &options.rules;
            (
                Stats::new(r.players as usize, r.most_rounds(), r.max_rounds),
                0.0,
            )
        }
    };
    let started = Instant::now();
    let spec = BatchSpec {
        first: games.start + base.games,
        rules: options.rules.clone(),
        games: requested - base.games,
        seed: options.seed,
        threads: options.threads,
    };
    let info_for = |seconds: f64| RunInfo {
        rules: options.rules.clone(),
        seed: options.seed,
        games_requested: requested,
        shard: options.shard.map(|shard| (shard, options.games)),
        first_game: games.start,
        described: None,
        threads: options.threads,
        elapsed: RunInfo::wall_time(seconds),
        seconds_per_round: options.seconds_per_round,
    };
    let bar = games_bar(spec.games, options.quiet);
    // A checkpoint: the games so far (the resumed ones and this run's prefix) as a state that
    // `warsim resume` continues, written once the CSV holds exactly those games.
    let so_far = |prefix: &Stats| {
        let mut total = base.clone();
        total += prefix;
        (info_for(before + started.elapsed().as_secs_f64()), total)
    };
    let save = |prefix: &Stats, position: u64, last_row: &str, occasion: Occasion| {
        let Some(target) = &options.state else {
            return Ok(());
        };
        let (info, total) = so_far(prefix);
        let mut state = State::of_run(&info, &total);
        state.resume = Some(resumable_at(
            &options.command,
            &options.csv,
            (position, last_row),
        ));
        let write: OutputWriter = &|out| state.write(out);
        write_atomically(target, write)?;
        if occasion == Occasion::Asked {
            let held = game_span(games.start, total.games);
            say_checkpoint_written(&bar, target, &format!("{held} of {}", group(requested)));
        }
        Ok(())
    };
    // A Parquet file is ended at each checkpoint, its footer saying what it holds so far.
    let footer = |prefix: &Stats| {
        let (info, total) = so_far(prefix);
        summary_json_line(&Summary::new(&info, &total))
    };
    let checkpoints = checkpoints_sealing(
        (&options.state, options.checkpoint_every),
        &save,
        (&options.parquet, &footer),
    );
    answer_checkpoint_requests(interrupt, &options.state, options.checkpoint_every);
    let outputs = [
        ("--csv", options.csv.as_ref()),
        ("--parquet", options.parquet.as_ref()),
    ];
    watch_room(&mut files, outputs, requested, "run", &bar);
    let stop = || interrupt.is_some_and(Interrupt::requested);
    let controls = Controls {
        progress: &|games| bar.inc(games),
        stop: &stop,
        checkpoints,
    };
    let sink = (!files.is_empty()).then_some(&mut files as &mut dyn RecordSink);
    let played = run_batch(&spec, sink, &controls);
    bar.finish_and_clear();
    let (stats, mut failure) = match played.map_err(|e| StopFailure::of_batch(e, &files)) {
        Ok(stats) => (stats, None),
        Err(Ok((stats, failure))) => (stats, Some(failure)),
        Err(Err(error)) => {
            files.discard_if_empty();
            return Err(error.into());
        }
    };
    // The figures of every game played, the resumed ones included.
    let mut total = base;
    total += &stats;
    let info = info_for(before + started.elapsed().as_secs_f64());
    // The Parquet file's footer carries the summary: the file says which rules and games made it.
    let summary = || summary_json_line(&Summary::new(&info, &total));
    let csv_end = files.csv_end(&options.csv);
    StopFailure::close(&mut failure, files, summary, total.games);
    if let Some(failure) = &mut failure {
        failure.written = total.games;
    }
    Ok((info, total, failure, csv_end))
}
