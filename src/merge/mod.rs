//! `warsim merge STATE…`: the state files of a batch's shards combined into the whole run's
//! figures, exactly: every count adds, every length is kept, so the merged summary equals the
//! single run's but for how the runs went (threads, wall time, games/s). Refuses states of
//! different warsim versions, rules, seeds or batches, overlapping or missing games (unless
//! partial results are allowed), and damaged files, naming the files, before writing anything.
//! A sweep's states merge cell by cell into the sweep's tables (`sweep.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

mod sweep;

use crate::config::{ConfigError, RunOptions};
use crate::engine::Rules;
use crate::export::{RunInfo, Target, check_outputs, text::group};
use crate::plot::SurvivalScale;
use crate::run::{RunEnd, RunError, write_report, write_result_files};
use crate::state::{AnyState, State};
use crate::stats::Stats;

/// Everything `warsim merge` needs.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The state files.
    pub states: Vec<PathBuf>,
    /// Merge even if games are missing: the result says which and is marked incomplete.
    pub allow_partial: bool,
    /// Summary CSV (a sweep's: the table of cells).
    pub summary: Option<Target>,
    /// A sweep's table of seats.
    pub seats: Option<Target>,
    /// Summary JSON (a sweep's: the sweep JSON).
    pub json: Option<Target>,
    /// Length histogram CSV.
    pub histogram: Option<Target>,
    /// HdrHistogram log.
    pub hdr: Option<Target>,
    /// SVG plot.
    pub plot: Option<Target>,
    /// The survival curve's vertical scale in a run's plot, if given (log if not; a sweep's
    /// plot has none).
    pub survival_scale: Option<SurvivalScale>,
    /// Seconds a round takes at a real table, for the report's durations.
    pub seconds_per_round: Option<f64>,
}

fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Merge(message))
}

/// Merges the states and writes the merged figures (report on standard output): a run's from
/// run states, a sweep's tables from sweep states.
pub fn merge(options: &MergeOptions) -> Result<RunEnd, RunError> {
    if options.states.is_empty() {
        return Err(refuse("give at least one state file to merge".into()));
    }
    let mut runs = Vec::new();
    let mut sweeps = Vec::new();
    for path in &options.states {
        match AnyState::read(path).map_err(|e| refuse(format!("{}: {e}", path.display())))? {
            AnyState::Run(state) => runs.push((path.clone(), *state)),
            AnyState::Sweep(state) => sweeps.push((path.clone(), *state)),
        }
    }
    match (runs.first(), sweeps.first()) {
        (Some((run, _)), Some((sweep, _))) => Err(refuse(format!(
            "{} is a run's state and {} a sweep's: merge each batch's states on their own",
            run.display(),
            sweep.display()
        ))),
        (None, Some(_)) => sweep::merge_sweep(options, &sweeps),
        _ => merge_run(options, &runs),
    }
}

fn merge_run(options: &MergeOptions, states: &[(PathBuf, State)]) -> Result<RunEnd, RunError> {
    if options.seats.is_some() {
        return Err(refuse(
            "--seats is a sweep's table of seats, and these are a run's states: leave it out (the summary has the seats)".into(),
        ));
    }
    let borrowed: Vec<(&Path, &State)> = states.iter().map(|(p, s)| (p.as_path(), s)).collect();
    let merged = combine(&borrowed, "")?;
    if !merged.missing.is_empty() && !options.allow_partial {
        return Err(refuse(format!(
            "{} of the batch's {} are missing ({}): merge every shard's state, or add --allow-partial",
            group(merged.missing.iter().map(|(a, b)| b - a).sum()),
            group(merged.batch_games),
            spans(&merged.missing)
        )));
    }
    let run = RunOptions {
        rules: merged.rules.clone(),
        games: merged.batch_games,
        shard: None,
        no_header: false,
        seed: merged.seed,
        threads: merged.threads,
        csv: None,
        parquet: None,
        summary: options.summary.clone(),
        json: options.json.clone(),
        histogram: options.histogram.clone(),
        hdr: options.hdr.clone(),
        plot: options.plot.clone(),
        state: None,
        checkpoint_every: Duration::ZERO,
        continue_from_state: false,
        command: Vec::new(),
        resume: None,
        survival_scale: options.survival_scale.unwrap_or(SurvivalScale::Log),
        quiet: true,
        seconds_per_round: options.seconds_per_round,
    };
    check_outputs(&run.outputs()).map_err(ConfigError::from)?;
    let info = merged.info(options.seconds_per_round);
    let failures = write_result_files(&run, &info, &merged.total);
    write_report(&run, &info, &merged.total)?;
    if !merged.missing.is_empty() {
        eprintln!(
            "incomplete: {} of {} games merged; missing {}",
            group(merged.total.games),
            group(merged.batch_games),
            spans(&merged.missing)
        );
    }
    match RunError::of_all(failures) {
        Some(error) => Err(error),
        None => Ok(RunEnd::Complete),
    }
}

/// The states of one batch's shards, checked and added up.
struct Combined {
    rules: Rules,
    seed: u64,
    batch_games: u64,
    /// Every count of the games the states hold.
    total: Stats,
    /// The games no state holds, as `[start, end)` spans.
    missing: Vec<(u64, u64)>,
    /// The games merged, adjacent shards joined.
    played: Vec<(u64, u64)>,
    /// The most threads a shard used.
    threads: usize,
    /// The shards' wall times added: the machine time the batch took.
    seconds: f64,
}

impl Combined {
    /// What was run, as the single run's report and summary describe it.
    fn info(&self, seconds_per_round: Option<f64>) -> RunInfo {
        RunInfo {
            rules: self.rules.clone(),
            seed: self.seed,
            games_requested: self.batch_games,
            shard: None,
            first_game: 0,
            described: (!self.missing.is_empty()).then(|| spans(&self.played)),
            threads: self.threads,
            elapsed: Duration::from_secs_f64(self.seconds),
            seconds_per_round,
        }
    }
}

/// Checks that the states are shards of one batch (same rules, seed and size) holding no game
/// twice, and adds them up. `context` leads each message (a sweep's cell).
fn combine(states: &[(&Path, &State)], context: &str) -> Result<Combined, RunError> {
    let (first_path, first) = states[0];
    let rules = first
        .rules()
        .map_err(|e| refuse(format!("{context}{}: {e}", first_path.display())))?;
    all_alike(states, (context, "batch"), |a, b| {
        if a.warsim_version != b.warsim_version {
            Some("warsim versions")
        } else if a.rules != b.rules {
            Some("rules")
        } else if a.seed != b.seed {
            Some("seeds")
        } else if a.batch_games != b.batch_games {
            Some("batch sizes")
        } else {
            None
        }
    })?;
    // The games each state played, in order: they must tile the batch once.
    let mut ranges: Vec<(u64, u64, &Path)> = states
        .iter()
        .map(|&(path, s)| (s.first_game, s.first_game + s.games, path))
        .filter(|(start, end, _)| end > start)
        .collect();
    ranges.sort();
    for window in ranges.windows(2) {
        let ((_, a_end, a), (b_start, _, b)) = (window[0], window[1]);
        if b_start < a_end {
            return Err(refuse(format!(
                "{context}{} and {} both hold game {}: give each shard once",
                a.display(),
                b.display(),
                group(b_start)
            )));
        }
    }
    let mut missing = Vec::new();
    let mut played: Vec<(u64, u64)> = Vec::new();
    let mut next = 0u64;
    for &(start, end, _) in &ranges {
        if start > next {
            missing.push((next, start));
        }
        next = end;
        match played.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => played.push((start, end)),
        }
    }
    if next < first.batch_games {
        missing.push((next, first.batch_games));
    }
    let mut total = Stats::new(
        rules.players as usize,
        rules.most_rounds(),
        rules.max_rounds,
    );
    for (path, state) in states {
        total += &state
            .stats(&rules)
            .map_err(|e| refuse(format!("{context}{}: {e}", path.display())))?;
    }
    // A sweep's merge keeps every cell's until the end.
    total.compact();
    Ok(Combined {
        rules,
        seed: first.seed,
        batch_games: first.batch_games,
        total,
        missing,
        played,
        threads: states.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
        seconds: states.iter().map(|(_, s)| s.wall_seconds).sum(),
    })
}

/// Refuses the first of `states` that `differs` from the first (naming the setting that does),
/// as not a shard of one `batch` ("batch", "sweep"); `context` leads the message.
fn all_alike<S>(
    states: &[(&Path, &S)],
    (context, batch): (&str, &str),
    differs: impl Fn(&S, &S) -> Option<&'static str>,
) -> Result<(), RunError> {
    let (first_path, first) = states[0];
    for &(path, state) in &states[1..] {
        if let Some(setting) = differs(state, first) {
            return Err(refuse(format!(
                "{context}{} and {} are not shards of one {batch}: their {setting} differ",
                first_path.display(),
                path.display()
            )));
        }
    }
    Ok(())
}

/// "games 0 to 9,999, 15,000 to 19,999".
fn spans(spans: &[(u64, u64)]) -> String {
    let parts: Vec<String> = spans
        .iter()
        .map(|&(a, b)| format!("{} to {}", group(a), group(b - 1)))
        .collect();
    format!("games {}", parts.join(", "))
}
