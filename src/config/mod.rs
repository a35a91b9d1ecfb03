//! The validated options of `warsim run`, free of any command-line types, and the errors that
//! reject bad input before a game is played.

mod choice;
mod shard;

pub use choice::{RuleChoice, named, named_value, preset_named};
pub use shard::parse_shard;

use crate::batch::Shard;
use crate::engine::{Rules, RulesError};
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
    /// Checkpoints with a Parquet file.
    #[error(
        "--parquet cannot be checkpointed (a Parquet file is readable only once closed, and a resumed run could not continue it): write {0} with --state, or add --checkpoint-every 0 to write the state only at the end"
    )]
    ParquetCheckpoints(&'static str),
    /// `--continue` without a state file to continue from, or with a Parquet file.
    #[error("--continue {0}")]
    Continue(String),
    /// A state file that cannot be resumed.
    #[error("{0}")]
    Resume(String),
    /// State files that cannot be merged.
    #[error("{0}")]
    Merge(String),
    /// More games than a Parquet file holds.
    #[error(
        "--parquet holds at most {MAX_PARQUET_GAMES} games (2^15 row groups of {ROW_GROUP}), not {0}: write --csv, or split the run"
    )]
    Parquet(u64),
    /// An output that cannot be written.
    #[error(transparent)]
    Output(#[from] crate::export::OutputError),
}

impl RunOptions {
    /// Checks the combination of options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.rules.validate()?;
        check_counts(self.games, self.threads)?;
        check_parquet(self.parquet.is_some(), self.games)?;
        check_checkpoints(
            self.state.as_ref(),
            self.parquet.is_some(),
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

/// Refuses checkpoints (`--checkpoint-every`, not zero) of a state beside a Parquet file, and
/// `--continue` without a state file or with a Parquet file, neither of which can be continued;
/// `csv_flag` names the per-game CSV to write instead. Runs and sweeps alike.
pub fn check_checkpoints(
    state: Option<&Target>,
    parquet: bool,
    (every, continuing): (std::time::Duration, bool),
    csv_flag: &'static str,
) -> Result<(), ConfigError> {
    if parquet && state.is_some() && !every.is_zero() {
        return Err(ConfigError::ParquetCheckpoints(csv_flag));
    }
    if !continuing {
        return Ok(());
    }
    let problem = match state {
        None => "needs --state PATH: the state file whose checkpoint it continues from",
        Some(Target::Stdout) => {
            "needs --state to name a file, not '-' (standard output keeps no checkpoint)"
        }
        Some(Target::File(_)) if parquet => {
            return Err(ConfigError::Continue(format!(
                "cannot continue a --parquet file (it is readable only once closed): write {csv_flag}, or leave out --continue to play again"
            )));
        }
        Some(Target::File(_)) => return Ok(()),
    };
    Err(ConfigError::Continue(problem.to_string()))
}

/// Refuses no games and a thread count out of range.
pub fn check_counts(games: u64, threads: usize) -> Result<(), ConfigError> {
    if games == 0 {
        return Err(ConfigError::NoGames);
    }
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

/// Parses a duration: `0`, `500ms`, `30s`, `5m`, `2h` (a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => f64::NAN,
    };
    match number.parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 && scale.is_finite() => {
            Ok(std::time::Duration::from_secs_f64(n * scale))
        }
        _ => Err(format!(
            "'{text}' is not a duration (write e.g. 0, 500ms, 30s, 5m or 2h)"
        )),
    }
}

/// The seconds a round may take at a real table (`--seconds-per-round`): a millisecond to a day.
/// Within these, every duration the report prints is exact to its last digit: the longest,
/// 86,400 s × 4,294,967,294 rounds, is far inside the whole seconds it is counted in, and the
/// shortest is a whole thousandth.
pub const SECONDS_PER_ROUND: std::ops::RangeInclusive<f64> = 0.001..=86_400.0;

/// Parses the seconds a round takes (`2`, `1.5`, `0.25`), within [`SECONDS_PER_ROUND`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if SECONDS_PER_ROUND.contains(&s) => Ok(s),
        Ok(s) if s.is_finite() && s > 0.0 => Err(format!(
            "'{text}' is out of range: use 0.001 to 86400 (a millisecond to a day a round)"
        )),
        _ => Err(format!(
            "'{text}' is not a positive number of seconds (write e.g. 2 or 1.5)"
        )),
    }
}

/// Parses a whole-number setting (same forms as [`parse_count`]) that must fit in a u32.
pub fn parse_setting(text: &str) -> Result<u32, String> {
    let n = parse_count(text)?;
    u32::try_from(n).map_err(|_| format!("'{text}' is too large (at most {})", u32::MAX))
}

/// Parses a count: `1000000`, `1_000_000`, `1,000,000` (commas only between groups of three
/// digits), `1e6` or `2.5e6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let bad = || {
        format!("'{text}' is not a whole number (write e.g. 1000000, 1_000_000, 1,000,000 or 1e6)")
    };
    if trimmed.contains(',') && !thousands_grouped(trimmed) {
        return Err(format!(
            "'{text}' is not a whole number: a comma may only separate groups of three digits (1,000,000); give one value"
        ));
    }
    let cleaned: String = trimmed.chars().filter(|c| *c != '_' && *c != ',').collect();
    if let Ok(n) = cleaned.parse::<u64>() {
        return Ok(n);
    }
    let (mantissa, exponent) = cleaned.split_once(['e', 'E']).ok_or_else(bad)?;
    let exponent: u32 = exponent.parse().map_err(|_| bad())?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty()
        || !(whole.chars().chain(fraction.chars())).all(|c| c.is_ascii_digit())
    {
        return Err(bad());
    }
    let digits = format!("{whole}{fraction}");
    let shift = exponent
        .checked_sub(fraction.len() as u32)
        .ok_or_else(|| format!("'{text}' is not a whole number"))?;
    let base: u64 = digits.parse().map_err(|_| bad())?;
    10u64
        .checked_pow(shift)
        .and_then(|p| base.checked_mul(p))
        .ok_or_else(|| format!("'{text}' is too large (at most {})", u64::MAX))
}

/// `1,000` or `12,345,678`: one to three digits, then groups of exactly three.
fn thousands_grouped(text: &str) -> bool {
    let mut groups = text.split(',');
    let first = groups.next().unwrap_or("");
    let digits = |g: &str| g.chars().all(|c| c.is_ascii_digit());
    (1..=3).contains(&first.len()) && digits(first) && groups.all(|g| g.len() == 3 && digits(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_accepted_form() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1,000,000"), Ok(1_000_000));
        assert_eq!(parse_count("1e6"), Ok(1_000_000));
        assert_eq!(parse_count("2.5E6"), Ok(2_500_000));
        assert_eq!(parse_count("0"), Ok(0));
        assert!(parse_count("1.5e0").is_err());
        assert!(parse_count("-3").is_err());
        assert!(parse_count("e6").is_err());
        assert!(parse_count("1e30").is_err());
        assert!(parse_count("abc").is_err());
        assert_eq!(parse_count("12,345,678"), Ok(12_345_678));
        for bad in [
            "2,3", "1,5", "1,0000", ",100", "100,", "1,000.5", "1,000e3", "1,,000",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
