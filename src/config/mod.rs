//! The validated options of `warsim run`, free of any command-line types, and the errors that
//! reject bad input before a game is played.

mod choice;
mod numbers;
mod shard;

pub use choice::{RuleChoice, named, named_value, preset_named};
pub use numbers::{
    SECONDS_PER_ROUND, parse_count, parse_duration, parse_seconds, parse_setting, parse_within,
    setting_parser,
};
pub use shard::parse_shard;

use crate::batch::Shard;
use crate::engine::{Rules, RulesError};
use crate::export::text::group;
use crate::export::{MAX_PARQUET_GAMES, ROW_GROUP, Target};
use crate::plot::SurvivalScale;
use crate::stats::Stats;

/// Most worker threads accepted.
pub const MAX_THREADS: usize = 1024;

/// Everything `warsim run` needs, already checked.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Rules of every game.
    pub rules: Rules,
    /// Games in the batch (a shard plays its part of them).
    pub games: u64,
    /// The part of the batch to play, if only one.
    pub shard: Option<Shard>,
    /// Leave out the per-game CSV's header (to append a shard's rows to another's).
    pub no_header: bool,
    /// Base seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Per-game CSV.
    pub csv: Option<Target>,
    /// Per-game Parquet file.
    pub parquet: Option<Target>,
    /// One-row summary CSV.
    pub summary: Option<Target>,
    /// Summary JSON.
    pub json: Option<Target>,
    /// The length distribution, exact per round, as CSV.
    pub histogram: Option<Target>,
    /// The length histogram as an HdrHistogram interval log.
    pub hdr: Option<Target>,
    /// The length histogram and survival curve as SVG.
    pub plot: Option<Target>,
    /// The run's exact, mergeable statistics (a state file).
    pub state: Option<Target>,
    /// How often a run with a state file checkpoints it (zero: only at the end).
    pub checkpoint_every: std::time::Duration,
    /// The run's arguments after `warsim`, for `warsim resume`.
    pub command: Vec<String>,
    /// `--continue`: if the state file holds a checkpoint of this same command, continue from it
    /// (a scheduler's retry of a task) instead of starting over.
    pub continue_from_state: bool,
    /// The checkpoint this run continues, if resumed.
    pub resume: Option<ResumeFrom>,
    /// The survival curve's scale in the plot.
    pub survival_scale: SurvivalScale,
    /// No progress bar.
    pub quiet: bool,
    /// Seconds a round takes at a real table, for the report's durations.
    pub seconds_per_round: Option<f64>,
}

/// Where a resumed run starts: the statistics of the games its checkpoint holds.
#[derive(Clone, Debug)]
pub struct ResumeFrom {
    /// The checkpoint's games (a prefix of the run's).
    pub stats: Stats,
    /// Bytes of the per-game CSV holding them.
    pub csv_bytes: u64,
    /// Wall time spent so far, in seconds.
    pub seconds: f64,
}

/// Input that cannot be run; each message names the flag and what it accepts.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A rule setting out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// No preset of that name.
    #[error("unknown --rules '{given}': choose one of {known} (see 'warsim rules')")]
    UnknownRules {
        /// The name given.
        given: String,
        /// The presets' names.
        known: String,
    },
    /// A setting the preset's family cannot take.
    #[error("{flag} does not apply to --rules {preset}: {reason}; remove it")]
    NotApplicable {
        /// The setting's flag.
        flag: &'static str,
        /// The preset.
        preset: String,
        /// Why the family has no use for it.
        reason: &'static str,
    },
    /// A named value the flag does not know.
    #[error("invalid value '{given}' for '{flag}': choose one of {allowed}")]
    UnknownValue {
        /// The flag.
        flag: &'static str,
        /// The value given.
        given: String,
        /// The values it takes.
        allowed: String,
    },
    /// `--matches 0`.
    #[error("--matches 0 is out of range: play at least 1 match")]
    Matches,
    /// `--games 0`.
    #[error("--games 0 is out of range: play at least 1 game")]
    NoGames,
    /// Threads out of range.
    #[error("--threads {0} is out of range: use 1 to {MAX_THREADS}")]
    Threads(usize),
    /// Two outputs on standard output.
    #[error("{first} and {second} both write to standard output ('-'): give one of them a file")]
    StdoutTwice {
        /// The first flag given `-`.
        first: &'static str,
        /// The second.
        second: &'static str,
    },
    /// A sweep's list or range that cannot be read, or combinations that cannot be played.
    #[error("{0}")]
    Sweep(String),
    /// Checkpoints with a Parquet file that cannot be continued (why, and the CSV's flag).
    #[error(
        "--parquet cannot be checkpointed ({0}): write {1} with --state, or add --checkpoint-every 0 to write the state only at the end"
    )]
    ParquetCheckpoints(&'static str, &'static str),
    /// `--continue` without a state file to continue from, or with a Parquet file.
    #[error("--continue {0}")]
    Continue(String),
    /// A state file that cannot be resumed.
    #[error("{0}")]
    Resume(String),
    /// An enumeration that cannot be played: its rules, deck or outputs.
    #[error("{0}")]
    Enumerate(String),
    /// State files that cannot be merged.
    #[error("{0}")]
    Merge(String),
    /// More games than a Parquet file holds.
    #[error(
        "--parquet holds at most {} games (2^15 row groups of {}), not {}: write --csv, or split the run into shards (--shard K/N), each with its own Parquet file",
        group(MAX_PARQUET_GAMES),
        group(ROW_GROUP as u64),
        group(*.0)
    )]
    Parquet(u64),
    /// An output that cannot be written.
    #[error(transparent)]
    Output(#[from] crate::export::OutputError),
    /// A stopping signal came before any game, while an output was being opened: the process
    /// exits with `status`, as after any stop.
    #[error("{flag} {path}: {reason}; no game was played")]
    Stopped {
        /// The output's flag.
        flag: &'static str,
        /// Its path.
        path: String,
        /// What the stop cut short.
        reason: String,
        /// The exit status the signal asks for.
        status: u8,
    },
}

impl RunOptions {
    /// The games this run plays: the whole batch, or a shard's part of it.
    pub fn part(&self) -> std::ops::Range<u64> {
        self.shard
            .map_or(0..self.games, |shard| shard.range(self.games))
    }

    /// Checks the combination of options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.rules.validate()?;
        check_counts(self.games, self.threads)?;
        // A shard's file holds its part of the batch alone.
        let part = self.part();
        check_parquet(self.parquet.is_some(), part.end - part.start)?;
        check_checkpoints(
            self.state.as_ref(),
            (self.parquet.is_some(), parquet_stops(&self.parquet)),
            (self.checkpoint_every, self.continue_from_state),
            "--csv",
        )?;
        one_on_stdout(&self.outputs())
    }

    /// The outputs asked for, with their flags.
    pub fn outputs(&self) -> Vec<(&'static str, &Target)> {
        [
            ("--csv", &self.csv),
            ("--parquet", &self.parquet),
            ("--summary", &self.summary),
            ("--json", &self.json),
            ("--histogram", &self.histogram),
            ("--hdr", &self.hdr),
            ("--plot", &self.plot),
            ("--state", &self.state),
        ]
        .into_iter()
        .filter_map(|(flag, target)| target.as_ref().map(|t| (flag, t)))
        .collect()
    }

    /// True when one of the outputs is standard output.
    pub fn stdout_taken(&self) -> bool {
        self.outputs().iter().any(|(_, t)| **t == Target::Stdout)
    }
}

/// Refuses checkpoints (`--checkpoint-every`, not zero) of a state beside a Parquet file that
/// cannot be continued (why: [`parquet_stops`]; a named file is ended at each checkpoint and
/// continued), and `--continue` without a state file, or with such a Parquet file;
/// `csv_flag` names the per-game CSV to write instead. Runs and sweeps alike.
pub fn check_checkpoints(
    state: Option<&Target>,
    (parquet, parquet_stops): (bool, Option<&'static str>),
    (every, continuing): (std::time::Duration, bool),
    csv_flag: &'static str,
) -> Result<(), ConfigError> {
    if let (true, Some(why), Some(_)) = (parquet, parquet_stops, state)
        && !every.is_zero()
    {
        return Err(ConfigError::ParquetCheckpoints(why, csv_flag));
    }
    if !continuing {
        return Ok(());
    }
    let problem = match state {
        None => "needs --state PATH: the state file whose checkpoint it continues from",
        Some(Target::Stdout) => {
            "needs --state to name a file, not '-' (standard output keeps no checkpoint)"
        }
        Some(Target::File(_)) if parquet && parquet_stops.is_some() => {
            let why = parquet_stops.unwrap_or_default();
            return Err(ConfigError::Continue(format!(
                "cannot continue --parquet ({why}): write {csv_flag}, or leave out --continue to play again"
            )));
        }
        Some(Target::File(_)) => return Ok(()),
    };
    Err(ConfigError::Continue(problem.to_string()))
}

/// Why a run's or sweep's Parquet file (`parquet`) takes no checkpoints, if it does not: it is
/// gone on with after each, unless it cannot be read back.
pub fn parquet_stops(parquet: &Option<Target>) -> Option<&'static str> {
    match parquet {
        Some(Target::Stdout) => Some("on standard output it cannot be read back"),
        Some(target) if !target.keeps_checkpoints() => {
            Some("a pipe or a device cannot be read back")
        }
        _ => None,
    }
}

/// Refuses no games and a thread count out of range.
pub fn check_counts(games: u64, threads: usize) -> Result<(), ConfigError> {
    if games == 0 {
        return Err(ConfigError::NoGames);
    }
    check_threads(threads)
}

/// Refuses a thread count out of range (`--threads`).
pub fn check_threads(threads: usize) -> Result<(), ConfigError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(ConfigError::Threads(threads));
    }
    Ok(())
}

/// Refuses more games than one Parquet file holds.
pub fn check_parquet(parquet: bool, games: u64) -> Result<(), ConfigError> {
    if parquet && games > MAX_PARQUET_GAMES {
        return Err(ConfigError::Parquet(games));
    }
    Ok(())
}

/// Refuses a second output on standard output.
pub fn one_on_stdout(outputs: &[(&'static str, &Target)]) -> Result<(), ConfigError> {
    let mut on_stdout: Option<&'static str> = None;
    for &(flag, target) in outputs {
        if *target == Target::Stdout {
            if let Some(first) = on_stdout {
                return Err(ConfigError::StdoutTwice {
                    first,
                    second: flag,
                });
            }
            on_stdout = Some(flag);
        }
    }
    Ok(())
}
