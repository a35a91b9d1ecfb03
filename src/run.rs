//! `warsim run`: checks and opens the outputs, plays the batch with a progress bar, and writes
//! the report, the summary CSV and JSON. Knows nothing of clap.
//!
//! Whatever stops a run early, every finished game is kept: an interrupt (SIGINT, SIGTERM,
//! SIGHUP) or a failed write ends the batch on a whole game, the per-game CSV on a whole row,
//! and the summaries are still written for exactly the games in it, marked incomplete.

use std::io::{self, Write};
use std::time::Instant;

use crate::batch::Checkpoints;
use crate::batch::{BatchError, BatchSpec, Controls, RecordSink, run_batch};
use crate::config::{ConfigError, RunOptions};
use crate::export::text::group;
use crate::export::{
    GameCsv, GameFiles, GameParquet, LeadKind, RunInfo, Stream, Summary, Target, Which,
    check_outputs, write_atomically, write_hdr_log, write_histogram_csv, write_summary_csv,
    write_summary_json, write_text_report,
};
use crate::interrupt::Interrupt;
use crate::plot::draw_run;
use crate::progress::games_bar;
use crate::state::{Resumable, State, csv_tail};
use crate::stats::Stats;

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
    #[error("could not write {what} to {target}: {source}{kept}")]
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
}

impl RunError {
    /// True when the error is a closed pipe on the reading side (`warsim run ... | head`).
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            RunError::Write { source, .. } => source.kind() == io::ErrorKind::BrokenPipe,
            _ => false,
        }
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
    check_outputs(&options.outputs()).map_err(ConfigError::from)?;
    let files = match &options.resume {
        Some(resume) if resume.csv_bytes > 0 => {
            let Some(Target::File(path)) = &options.csv else {
                return Err(ConfigError::Resume(
                    "the checkpoint counts CSV rows, but the run writes no CSV file".into(),
                )
                .into());
            };
            let stream = Stream::resume(path, resume.csv_bytes).map_err(|e| {
                ConfigError::Resume(format!(
                    "cannot continue the per-game CSV {}: {e}",
                    path.display()
                ))
            })?;
            GameFiles::new(Some(GameCsv::resumed(stream, resume.csv_bytes)), None)
        }
        _ => open_game_files(
            ("--csv", options.csv.as_ref(), !options.no_header),
            ("--parquet", options.parquet.as_ref()),
            &[],
        )?,
    };
    let (info, stats, failure) = play(options, files, interrupt)?;
    let mut failures = write_result_files(options, &info, &stats);
    if let Some((which, written, source)) = failure {
        let broken_pipe = source.kind() == io::ErrorKind::BrokenPipe;
        let (what, target) = match which {
            Which::Csv => ("the per-game CSV", &options.csv),
            Which::Parquet => ("the Parquet file", &options.parquet),
        };
        let error = RunError::Write {
            what,
            target: target.as_ref().map(Target::to_string).unwrap_or_default(),
            source,
            kept: kept_note(options, info.first_game, written),
        };
        if broken_pipe {
            // `| head` read what it wanted: nothing to report.
            return Err(error);
        }
        failures.insert(0, error);
    }
    write_report(options, &info, &stats)?;
    if let Some(error) = failures.into_iter().next() {
        return Err(error);
    }
    match interrupt.and_then(Interrupt::exit_status) {
        Some(status) if stats.games < info.games_requested => {
            let signal = interrupt.map_or("a signal", Interrupt::signal_name);
            eprintln!(
                "interrupted after {} of {} games ({signal}): {}",
                group(stats.games),
                group(info.games_requested),
                kept_text(options, info.first_game, stats.games)
            );
            Ok(RunEnd::Interrupted(status))
        }
        _ => Ok(RunEnd::Complete),
    }
}

/// A per-game output's write error: which output, the games it holds, the error.
pub type GameFilesFailure = (Which, u64, io::Error);

/// What a played batch left: what was run, the statistics of the games kept, and a per-game
/// output's write error, if one failed.
type Played = (RunInfo, Stats, Option<GameFilesFailure>);

/// Opens the per-game outputs asked for (`(flag, target)` of the CSV and the Parquet file);
/// `leads` name a sweep's leading columns.
pub fn open_game_files(
    csv: (&'static str, Option<&Target>, bool),
    parquet: (&'static str, Option<&Target>),
    leads: &[(&str, LeadKind)],
) -> Result<GameFiles, ConfigError> {
    let open = |flag: &'static str, target: &Target| {
        Stream::create(target).map_err(|e| {
            ConfigError::from(crate::export::OutputError {
                flag,
                path: target.to_string(),
                reason: format!("cannot be created ({e}): choose a writable path"),
            })
        })
    };
    let names: Vec<&str> = leads.iter().map(|(name, _)| *name).collect();
    let csv = match csv {
        (flag, Some(target), header) => {
            let csv = GameCsv::with_columns(open(flag, target)?, &names);
            Some(if header { csv } else { csv.without_header() })
        }
        _ => None,
    };
    let parquet = match parquet {
        (flag, Some(target)) => match open(flag, target) {
            Ok(stream) => Some(GameParquet::new(stream, leads)),
            Err(error) => {
                if let Some(csv) = csv {
                    csv.discard_if_empty();
                }
                return Err(error);
            }
        },
        _ => None,
    };
    Ok(GameFiles::new(csv, parquet))
}

/// Plays the batch with a progress bar, streaming records to the per-game outputs; stops on a
/// signal. A write error still returns the statistics of the games written; a batch that could
/// not start removes the outputs this run created.
fn play(
    options: &RunOptions,
    mut files: GameFiles,
    interrupt: Option<&Interrupt>,
) -> Result<Played, RunError> {
    let games = options
        .shard
        .map_or(0..options.games, |shard| shard.range(options.games));
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
        games: games.end - games.start - base.games,
        seed: options.seed,
        threads: options.threads,
    };
    let cwd = std::env::current_dir().map_or(String::new(), |d| d.display().to_string());
    let info_for = |seconds: f64| RunInfo {
        rules: options.rules.clone(),
        seed: options.seed,
        games_requested: games.end - games.start,
        shard: options.shard.map(|shard| (shard, options.games)),
        first_game: games.start,
        described: None,
        threads: options.threads,
        elapsed: std::time::Duration::from_secs_f64(seconds),
        seconds_per_round: options.seconds_per_round,
    };
    // A checkpoint: the games so far (the resumed ones and this run's prefix) as a state that
    // `warsim resume` continues, written once the CSV holds exactly those games.
    let save = |prefix: &Stats, position: u64| -> io::Result<()> {
        let Some(target) = &options.state else {
            return Ok(());
        };
        let mut total = base.clone();
        total += prefix;
        let seconds = before + started.elapsed().as_secs_f64();
        let mut state = State::of_run(&info_for(seconds), &total);
        let tail = match &options.csv {
            Some(Target::File(path)) => csv_tail(path, position)?,
            _ => String::new(),
        };
        state.resume = Some(Resumable {
            command: options.command.clone(),
            cwd: cwd.clone(),
            csv_bytes: position,
            csv_tail: tail,
        });
        let write: OutputWriter = &|out| state.write(out);
        write_atomically(target, write)
    };
    let checkpoints =
        (options.state.is_some() && !options.checkpoint_every.is_zero()).then_some(Checkpoints {
            every: options.checkpoint_every,
            save: &save,
        });
    let bar = games_bar(spec.games, options.quiet);
    let stop = || interrupt.is_some_and(Interrupt::requested);
    let controls = Controls {
        progress: &|games| bar.inc(games),
        stop: &stop,
        checkpoints,
    };
    let sink = (!files.is_empty()).then_some(&mut files as &mut dyn RecordSink);
    let played = run_batch(&spec, sink, &controls);
    bar.finish_and_clear();
    let (stats, mut failure) = match played {
        Ok(stats) => (stats, None),
        Err(BatchError::Write {
            written,
            source,
            stats,
        }) => {
            let which = files.failed().unwrap_or(Which::Csv);
            (*stats, Some((which, written, source)))
        }
        Err(error) => {
            files.discard_if_empty();
            return Err(error.into());
        }
    };
    // The Parquet file is closed (its footer written) whatever else failed, unless it failed.
    if files.failed() != Some(Which::Parquet)
        && let Err((which, source)) = files.close()
        && failure.is_none()
    {
        failure = Some((which, stats.games, source));
    }
    // The figures of every game played, the resumed ones included.
    let mut total = base;
    total += &stats;
    let info = info_for(before + started.elapsed().as_secs_f64());
    if let Some(failure) = &mut failure {
        failure.1 = total.games;
    }
    Ok((info, total, failure))
}

/// Writes one output file's contents.
pub type OutputWriter<'a> = &'a dyn Fn(&mut dyn Write) -> io::Result<()>;

/// Writes the summary CSV and JSON and the histogram (each atomically); returns what failed.
pub(crate) fn write_result_files(
    options: &RunOptions,
    info: &RunInfo,
    stats: &Stats,
) -> Vec<RunError> {
    let summary = Summary::new(info, stats);
    let outputs: [(&'static str, &Option<Target>, OutputWriter); 6] = [
        ("the summary CSV", &options.summary, &|out| {
            write_summary_csv(out, &summary)
        }),
        ("the summary JSON", &options.json, &|out| {
            write_summary_json(out, &summary)
        }),
        ("the length histogram", &options.histogram, &|out| {
            write_histogram_csv(out, stats)
        }),
        ("the HdrHistogram log", &options.hdr, &|out| {
            write_hdr_log(out, &[(info, stats)])
        }),
        ("the state file", &options.state, &|out| {
            let mut state = State::of_run(info, stats);
            state.resume = resumable(options);
            state.write(out)
        }),
        ("the plot", &options.plot, &|out| {
            let (title, subtitle) = plot_titles(info, stats);
            let svg = draw_run(&title, &subtitle, stats, options.survival_scale)?;
            out.write_all(svg.as_bytes())
        }),
    ];
    write_each(&outputs)
}

/// Writes each output asked for (`what`, where, how) atomically; returns what failed, so that
/// one failure does not keep the others from being written.
pub fn write_each(outputs: &[(&'static str, &Option<Target>, OutputWriter)]) -> Vec<RunError> {
    let mut failures = Vec::new();
    for &(what, target, write) in outputs {
        let Some(target) = target else { continue };
        if let Err(source) = write_atomically(target, write) {
            failures.push(RunError::Write {
                what,
                target: target.to_string(),
                source,
                kept: String::new(),
            });
        }
    }
    failures
}

/// The report, on standard output unless an output took it (then on standard error).
pub(crate) fn write_report(
    options: &RunOptions,
    info: &RunInfo,
    stats: &Stats,
) -> Result<(), RunError> {
    let (mut report, report_target): (Box<dyn Write>, &str) = if options.stdout_taken() {
        (Box::new(io::stderr()), "standard error")
    } else {
        (Box::new(io::stdout().lock()), "standard output")
    };
    write_text_report(&mut report, info, stats)
        .and_then(|_| report.flush())
        .map_err(|source| RunError::Write {
            what: "the report",
            target: report_target.to_string(),
            source,
            kept: String::new(),
        })
}

/// What `warsim resume` needs to continue a run that ended early: its command, its folder and
/// where its per-game CSV ends (on a whole row, after an interrupt).
fn resumable(options: &RunOptions) -> Option<Resumable> {
    if options.command.is_empty() {
        return None;
    }
    let (bytes, tail) = match &options.csv {
        Some(Target::File(path)) => {
            let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
            (bytes, csv_tail(path, bytes).unwrap_or_default())
        }
        _ => (0, String::new()),
    };
    Some(Resumable {
        command: options.command.clone(),
        cwd: std::env::current_dir().map_or(String::new(), |d| d.display().to_string()),
        csv_bytes: bytes,
        csv_tail: tail,
    })
}

/// A run's plot title and the lines under it: the rules, the seed and the censored shares.
pub fn plot_titles(info: &RunInfo, stats: &Stats) -> (String, Vec<String>) {
    let games = stats.games.max(1) as f64;
    let share = |n: u64| 100.0 * n as f64 / games;
    let lengths = stats.lengths();
    let title = format!(
        "How long does War last? {}, {} games",
        info.rules.preset.name(),
        group(stats.games)
    );
    let lines = vec![
        info.rules.describe(),
        format!(
            "seed {} · capped {:.2}% · never end (cycles) {:.2}% · warsim {}",
            info.seed,
            share(lengths.capped_games()),
            share(lengths.never_games()),
            env!("CARGO_PKG_VERSION")
        ),
    ];
    (title, lines)
}

/// What a run that stopped after `games` games kept, for its closing message.
fn kept_text(options: &RunOptions, first: u64, games: u64) -> String {
    let mut kept = Vec::new();
    let last = (first + games).saturating_sub(1);
    if let Some(csv) = &options.csv {
        kept.push(format!(
            "the per-game CSV ({csv}) holds games {first} to {last} whole"
        ));
    }
    if let Some(parquet) = &options.parquet {
        kept.push(format!(
            "the Parquet file ({parquet}) holds games {first} to {last}"
        ));
    }
    if options.summary.is_some() || options.json.is_some() {
        kept.push("the summaries describe those games (complete: false)".to_string());
    }
    if options.histogram.is_some() || options.hdr.is_some() {
        kept.push("the histograms count those games".to_string());
    }
    if kept.is_empty() {
        kept.push("the report describes the games played".to_string());
    }
    kept.join("; ")
}

fn kept_note(options: &RunOptions, first: u64, games: u64) -> String {
    format!(
        "; stopped after {games} games: {}",
        kept_text(options, first, games)
    )
}
