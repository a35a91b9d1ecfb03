//! `warsim merge STATE…`: the state files of a batch's shards combined into the whole run's
//! figures, exactly: every count adds, every length is kept, so the merged summary equals the
//! single run's but for how the runs went (threads, wall time, games/s). Refuses states of
//! different rules, seeds or batches, overlapping or missing games (unless partial results are
//! allowed), and damaged files, naming the files, before writing anything.

use std::path::PathBuf;
use std::time::Duration;

use crate::config::{ConfigError, RunOptions};
use crate::export::{Target, check_outputs, text::group};
use crate::plot::SurvivalScale;
use crate::run::{RunEnd, RunError, write_report, write_result_files};
use crate::state::State;

/// Everything `warsim merge` needs.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The state files.
    pub states: Vec<PathBuf>,
    /// Merge even if games are missing: the result says which and is marked incomplete.
    pub allow_partial: bool,
    /// Summary CSV.
    pub summary: Option<Target>,
    /// Summary JSON.
    pub json: Option<Target>,
    /// Length histogram CSV.
    pub histogram: Option<Target>,
    /// HdrHistogram log.
    pub hdr: Option<Target>,
    /// SVG plot.
    pub plot: Option<Target>,
    /// The survival curve's vertical scale in the plot.
    pub survival_scale: SurvivalScale,
    /// Seconds a round takes at a real table, for the report's durations.
    pub seconds_per_round: Option<f64>,
}

fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Merge(message))
}

/// Merges the states and writes the merged figures (report on standard output).
pub fn merge(options: &MergeOptions) -> Result<RunEnd, RunError> {
    if options.states.is_empty() {
        return Err(refuse("give at least one state file to merge".into()));
    }
    let mut states = Vec::new();
    for path in &options.states {
        let state = State::read(path).map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        states.push((path.clone(), state));
    }
    let (first_path, first) = &states[0];
    let rules = first
        .rules()
        .map_err(|e| refuse(format!("{}: {e}", first_path.display())))?;
    for (path, state) in &states[1..] {
        let differs = if state.rules != first.rules {
            Some("the rules")
        } else if state.seed != first.seed {
            Some("the seed")
        } else if state.batch_games != first.batch_games {
            Some("the batch's games")
        } else {
            None
        };
        if let Some(what) = differs {
            return Err(refuse(format!(
                "{} and {} are not shards of one batch: {what} differ",
                first_path.display(),
                path.display()
            )));
        }
    }
    // The games each state played, in order: they must tile the batch once.
    let mut ranges: Vec<(u64, u64, &PathBuf)> = states
        .iter()
        .map(|(path, s)| (s.first_game, s.first_game + s.games, path))
        .filter(|(start, end, _)| end > start)
        .collect();
    ranges.sort();
    let mut missing = Vec::new();
    let mut next = 0u64;
    for window in ranges.windows(2) {
        let ((_, a_end, a), (b_start, _, b)) = (window[0], window[1]);
        if b_start < a_end {
            return Err(refuse(format!(
                "{} and {} both hold game {}: give each shard once",
                a.display(),
                b.display(),
                group(b_start)
            )));
        }
    }
    for &(start, end, _) in &ranges {
        if start > next {
            missing.push((next, start));
        }
        next = end;
    }
    if next < first.batch_games {
        missing.push((next, first.batch_games));
    }
    let describe = |spans: &[(u64, u64)]| -> String {
        let parts: Vec<String> = spans
            .iter()
            .map(|&(a, b)| format!("{} to {}", group(a), group(b - 1)))
            .collect();
        format!("games {}", parts.join(", "))
    };
    if !missing.is_empty() && !options.allow_partial {
        return Err(refuse(format!(
            "{} of the batch's {} are missing ({}): merge every shard's state, or add --allow-partial",
            group(missing.iter().map(|(a, b)| b - a).sum()),
            group(first.batch_games),
            describe(&missing)
        )));
    }
    let mut total = first
        .stats(&rules)
        .map_err(|e| refuse(format!("{}: {e}", first_path.display())))?;
    for (path, state) in &states[1..] {
        let stats = state
            .stats(&rules)
            .map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        total += &stats;
    }
    // The games merged, adjacent shards joined: "games 0 to 9,999, 15,000 to 19,999".
    let mut played: Vec<(u64, u64)> = Vec::new();
    for &(start, end, _) in &ranges {
        match played.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => played.push((start, end)),
        }
    }
    let run = RunOptions {
        rules: rules.clone(),
        games: first.batch_games,
        shard: None,
        no_header: false,
        seed: first.seed,
        threads: states.iter().map(|(_, s)| s.threads).max().unwrap_or(1),
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
        survival_scale: options.survival_scale,
        quiet: true,
        seconds_per_round: options.seconds_per_round,
    };
    check_outputs(&run.outputs()).map_err(ConfigError::from)?;
    let info = crate::export::RunInfo {
        rules,
        seed: first.seed,
        games_requested: first.batch_games,
        shard: None,
        first_game: 0,
        described: (!missing.is_empty()).then(|| describe(&played)),
        threads: run.threads,
        // The shards' wall times added: the machine time the batch took.
        elapsed: Duration::from_secs_f64(states.iter().map(|(_, s)| s.wall_seconds).sum()),
        seconds_per_round: options.seconds_per_round,
    };
    let failures = write_result_files(&run, &info, &total);
    write_report(&run, &info, &total)?;
    if !missing.is_empty() {
        eprintln!(
            "incomplete: {} of {} games merged; missing {}",
            group(total.games),
            group(first.batch_games),
            describe(&missing)
        );
    }
    match failures.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(RunEnd::Complete),
    }
}
