//! `warsim merge STATE…`: the state files of a batch's shards combined into the whole run's
//! figures, exactly: every count adds, every length is kept, so the merged summary equals the
//! single run's but for how the runs went (threads, wall time, games/s). Refuses states of
//! different warsim versions, rules, seeds or batches, overlapping or missing games (unless
//! partial results are allowed), damaged files, and outputs that would replace an input,
//! naming the files, before writing anything.
//! A sweep's states merge cell by cell into the sweep's tables (`sweep.rs`), an enumeration's
//! parts into its exact figures (`enumeration.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

mod enumeration;
mod fold;
mod sweep;

use crate::config::{ConfigError, RunOptions};
use crate::export::text::{counted, game_span, group};
use crate::export::{Target, check_apart_from_inputs, check_outputs};
use crate::plot::SurvivalScale;
use crate::progress::games_bar;
use crate::run::{RunEnd, RunError, write_report, write_result_files};
use crate::state::{AnyState, State, check_apart_from_locks_of};
use fold::Shards;

/// Everything `warsim merge` needs.
#[derive(Clone, Debug)]
pub struct MergeOptions {
    /// The state files.
    pub states: Vec<PathBuf>,
    /// A file listing more state files, one a line (`-`: standard input).
    pub states_from: Option<PathBuf>,
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
    /// No progress bar while the states are read.
    pub quiet: bool,
}

impl MergeOptions {
    /// The outputs asked for, each with its flag.
    fn outputs(&self) -> Vec<(&'static str, &Target)> {
        [
            ("--summary", &self.summary),
            ("--seats", &self.seats),
            ("--json", &self.json),
            ("--histogram", &self.histogram),
            ("--hdr", &self.hdr),
            ("--plot", &self.plot),
        ]
        .into_iter()
        .filter_map(|(flag, target)| target.as_ref().map(|t| (flag, t)))
        .collect()
    }
}

fn refuse(message: String) -> RunError {
    RunError::Config(ConfigError::Merge(message))
}

/// Merges the states and writes the merged figures (report on standard output): a run's from
/// run states, a sweep's tables from sweep states. The states are read a few at a time, each
/// added to the totals and let go, so that memory holds the totals and a few states however
/// many shards there are.
pub fn merge(options: &MergeOptions) -> Result<RunEnd, RunError> {
    // `-`: the file standard input comes from (`< states.txt`), if it is one.
    let original_list = options
        .states_from
        .clone()
        .map(|list| match list.as_os_str() == "-" {
            true => PathBuf::from("/dev/stdin"),
            false => list,
        });
    let listed;
    let options = match &options.states_from {
        Some(list) => {
            listed = MergeOptions {
                states: [options.states.clone(), listed_states(list)?].concat(),
                states_from: None,
                ..options.clone()
            };
            &listed
        }
        None => options,
    };
    if options.states.is_empty() {
        return Err(refuse("give at least one state file to merge".into()));
    }
    // Before the first state is read: reading many takes minutes. A state that is not there is
    // named first, as the mistake to mend before any about the outputs.
    for state in &options.states {
        AnyState::check_present(state).map_err(|e| unreadable(state, e))?;
    }
    let outputs = options.outputs();
    check_outputs(&outputs, &[]).map_err(ConfigError::from)?;
    let states = options
        .states
        .iter()
        .map(|s| (s.as_path(), "a state being merged"));
    let list = original_list
        .iter()
        .map(|l| (l.as_path(), "the list --states-from reads"));
    check_apart_from_inputs(&outputs, states.chain(list)).map_err(ConfigError::from)?;
    check_apart_from_locks_of(&outputs, &options.states).map_err(ConfigError::from)?;
    match read_state(&options.states, 0)? {
        AnyState::Run(first) => merge_run(options, *first),
        AnyState::Sweep(first) => sweep::merge_sweep(options, *first),
        AnyState::Enumeration(first) => enumeration::merge_enumeration(options, *first),
    }
}

/// The longest line `--states-from` reads as a path: Linux's PATH_MAX, with its closing NUL.
const LONGEST_PATH: usize = 4096;

/// The state files `list` names, one a line (`-`: standard input); blank lines are skipped.
/// Read a line at a time, each at most [`LONGEST_PATH`] bytes: a wrong file (a per-game CSV,
/// /dev/zero) is refused at its first line that is no path, not read whole first.
fn listed_states(list: &std::path::Path) -> Result<Vec<PathBuf>, RunError> {
    use std::io::{BufRead, BufReader, Read};
    use std::os::unix::ffi::OsStrExt;
    let cannot = |e: std::io::Error| {
        refuse(format!(
            "--states-from {}: cannot be read ({e}): give a file of state paths, one a line, or - for standard input",
            list.display()
        ))
    };
    let mut reader: Box<dyn BufRead> = match list.as_os_str() == "-" {
        true => Box::new(std::io::stdin().lock()),
        false => Box::new(BufReader::new(std::fs::File::open(list).map_err(cannot)?)),
    };
    let mut states = Vec::new();
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let limit = LONGEST_PATH as u64 + 1;
        if reader
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut line)
            .map_err(cannot)?
            == 0
        {
            break;
        }
        let path = line.strip_suffix(b"\n").unwrap_or(&line);
        let path = path.strip_suffix(b"\r").unwrap_or(path);
        if path.len() >= LONGEST_PATH || path.contains(&0) {
            return Err(refuse(format!(
                "--states-from {}: line {number} is no path ({}): give state paths, one a line",
                list.display(),
                match path.contains(&0) {
                    true => "it holds a NUL byte".to_string(),
                    false => format!("longer than {} bytes", LONGEST_PATH - 1),
                }
            )));
        }
        // Any bytes but NUL make a path on Unix, UTF-8 or not.
        if !path.trim_ascii().is_empty() {
            states.push(PathBuf::from(std::ffi::OsStr::from_bytes(path)));
        }
    }
    if states.is_empty() {
        // A search that found nothing is more likely a mistake than a wish to merge less.
        return Err(refuse(format!(
            "--states-from {}: lists no state file (give one path a line)",
            list.display()
        )));
    }
    Ok(states)
}

/// Reads the state in `paths[file]`; the error names the file.
fn read_state(paths: &[PathBuf], file: usize) -> Result<AnyState, RunError> {
    AnyState::read(&paths[file]).map_err(|e| unreadable(&paths[file], e))
}

/// A state refused as it was opened or read: `why`, after its path.
fn unreadable(path: &Path, why: String) -> RunError {
    refuse(format!("{}: {why}", path.display()))
}

/// States read at once at most: a state takes about two and a half times its file's size
/// while it is read (a sweep's 19 MB state, 45 MB), and four cores read fast enough.
const AT_ONCE: usize = 4;

/// Reads the states of `paths[1..]` and hands each to `fold` with its file's index, in order.
/// A few are read at once (one per core, at most [`AT_ONCE`]) and folded in order, so that the
/// first problem in the files' order is the one reported.
fn fold_rest(
    paths: &[PathBuf],
    mut fold: impl FnMut(usize, AnyState) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let at_once = rayon::current_num_threads().clamp(1, AT_ONCE);
    for start in (1..paths.len()).step_by(at_once) {
        let files = start..(start + at_once).min(paths.len());
        let states: Vec<_> = files
            .clone()
            .into_par_iter()
            .map(|file| read_state(paths, file))
            .collect();
        for (file, state) in files.zip(states) {
            fold(file, state?)?;
        }
    }
    Ok(())
}

/// Refuses states of two kinds (`paths[a]` a `run`'s, `paths[b]` a `sweep`'s…) given together.
fn mixed(paths: &[PathBuf], (a, kind_a): (usize, &str), (b, kind_b): (usize, &str)) -> RunError {
    let article = |kind: &str| if kind.starts_with('e') { "an" } else { "a" };
    refuse(format!(
        "{} is {} {kind_a}'s state and {} {} {kind_b}'s: merge each batch's states on their own",
        paths[a].display(),
        article(kind_a),
        paths[b].display(),
        article(kind_b)
    ))
}

fn merge_run(options: &MergeOptions, first: State) -> Result<RunEnd, RunError> {
    if options.seats.is_some() {
        return Err(refuse(
            "--seats is a sweep's table of seats, and these are a run's states: leave it out (the summary has the seats)".into(),
        ));
    }
    let paths = &options.states[..];
    let no_context = &String::new;
    let mut shards = Shards::new(&first, (paths, 0), no_context)?;
    let bar = games_bar(first.batch_games, options.quiet);
    drop(first);
    bar.set_position(shards.games());
    let folded = fold_rest(paths, |file, state| {
        match state {
            AnyState::Run(state) => shards.add(&state, (paths, file), no_context)?,
            other => return Err(mixed(paths, (0, "run"), (file, other.kind()))),
        }
        bar.set_position(shards.games());
        Ok(())
    });
    bar.finish_and_clear();
    folded?;
    let merged = shards.finish(paths, no_context)?;
    if !merged.missing.is_empty() && !options.allow_partial {
        let missing: u64 = merged.missing.iter().map(|(a, b)| b - a).sum();
        return Err(refuse(format!(
            "{} of the batch's {} {} missing ({}): merge every shard's state, or add \
             --allow-partial",
            group(missing),
            counted(merged.batch_games, "game"),
            if missing == 1 { "is" } else { "are" },
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
    let info = merged.info(options.seconds_per_round);
    // A merge plays no games, and writes no per-game CSV.
    let failures = write_result_files(&run, &info, &merged.total, &Default::default());
    write_report(&run, &info, &merged.total)?;
    if !merged.missing.is_empty() {
        say!(
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

/// "games 0 to 9,999, 15,000 to 19,999"; one span as the report writes it ("game 7").
fn spans(spans: &[(u64, u64)]) -> String {
    if let [(a, b)] = spans {
        return game_span(*a, b - a);
    }
    let parts: Vec<String> = spans
        .iter()
        .map(|&(a, b)| match b - a {
            1 => group(a),
            _ => format!("{} to {}", group(a), group(b - 1)),
        })
        .collect();
    format!("games {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::spans;

    #[test]
    fn spans_name_a_single_game_alone() {
        assert_eq!(spans(&[(7, 8)]), "game 7");
        assert_eq!(spans(&[(3, 4), (7, 10)]), "games 3, 7 to 9");
        assert_eq!(
            spans(&[(0, 10_000), (15_000, 20_000)]),
            "games 0 to 9,999, 15,000 to 19,999"
        );
    }
}
