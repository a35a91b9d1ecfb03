//! The `play` subcommand's arguments, turned into plain [`PlayOptions`], and its exit codes.

use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::report_error;
use super::rules::RuleArgs;
use crate::config::{ConfigError, parse_count};
use crate::engine::Preset;
use crate::engine::rules::Family;
use crate::export::WholeLines;
use crate::interrupt::Interrupt;
use crate::play::{Games, Level, PlayError, PlayOptions, listing_end, play};

const PLAY_AFTER_HELP: &str = "\
The output levels are war_card_game's: one-line, quiet (seed, shuffled deck, result), normal
(decks, starting hands, result, longest war) and verbose (every round). With --rules
war-card-game, --seed S plays that crate's seed S card for card. For fixed-rounds, --seed is the
base seed of the --matches matches (match m is game m of 'warsim run --rules fixed-rounds').

Examples:
  warsim play --rules war-card-game --seed 10 -1
  warsim play --range 0-9
  warsim play --batch-seed 42 --game 812344 -v     game 812,344 of 'warsim run --seed 42'
  warsim play --suits 1 --ranks 7 --deal '4 5 1 7 | 3 6 2' -v     the longest game of 'warsim enumerate --suits 1 --ranks 7'
  warsim play --rules fixed-rounds --seed 3
  warsim play --interactive                         you against the computer (Game-of-War)";

/// The output levels as the command line names them (one list: clap derives the names).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum OutputLevel {
    /// `Players: P, seed: S, winner: Player W, winning round: R`.
    OneLine,
    /// Seed, shuffled deck, result.
    Quiet,
    /// Decks before and after the shuffle, starting hands, result, longest war.
    Normal,
    /// Every round: piles, cards played, wars, the round's winner.
    Verbose,
}

impl From<OutputLevel> for Level {
    fn from(level: OutputLevel) -> Level {
        match level {
            OutputLevel::OneLine => Level::OneLine,
            OutputLevel::Quiet => Level::Quiet,
            OutputLevel::Normal => Level::Normal,
            OutputLevel::Verbose => Level::Verbose,
        }
    }
}

#[derive(Args, Debug)]
#[command(
    after_help = PLAY_AFTER_HELP,
    allow_negative_numbers = true,
    mut_arg("rules", |arg| arg.help(
        "Rule preset; the settings below override it (see 'warsim rules NAME') [default: classic; game-of-war with --interactive]"
    ))
)]
pub(super) struct PlayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Seed of the game (fixed-rounds: base seed of the matches).
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_count,
        conflicts_with_all = ["batch_seed", "range"])]
    seed: u64,
    /// Output level; fixed-rounds: one line a match, the statistics and totals (quiet), or
    /// every round too (normal and verbose alike) [default: normal].
    #[arg(short, long, value_name = "LEVEL", value_enum,
        conflicts_with_all = ["one_line", "quiet", "verbose"])]
    output: Option<OutputLevel>,
    /// One-line output level (same as -o one-line).
    #[arg(short = '1', long = "one-line", conflicts_with_all = ["quiet", "verbose"])]
    one_line: bool,
    /// Quiet output level (same as -o quiet).
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,
    /// Verbose output level: every round (same as -o verbose).
    #[arg(short, long)]
    verbose: bool,
    /// Play seeds A to B (A-B, A <= B), one line each (the one-line level).
    #[arg(short, long, value_name = "A-B", value_parser = parse_range,
        conflicts_with_all = ["batch_seed", "game", "interactive", "quiet", "verbose", "output"])]
    range: Option<(u64, u64)>,
    /// Replay one game of 'warsim run --seed S' (with --game I and the same rules).
    #[arg(long, value_name = "S", requires = "game", value_parser = parse_count)]
    batch_seed: Option<u64>,
    /// Index (0-based) of the game to replay, with --batch-seed.
    #[arg(long, value_name = "I", requires = "batch_seed", value_parser = parse_count,
        conflicts_with = "seed")]
    game: Option<u64>,
    /// Play these hands instead of a shuffled deck: ranks top card first, 1 the lowest (on
    /// 4 × 13, 1 is the two and 13 the ace), separated by spaces or commas, seats by '|', as
    /// warsim enumerate prints deals and cycles (e.g. '1 3 5 6 | 7 2 4'); every card of the
    /// deck once. --seed then draws only what is random after the deal.
    #[arg(long, value_name = "HANDS",
        conflicts_with_all = ["batch_seed", "game", "range", "interactive", "matches"])]
    deal: Option<String>,
    /// Matches in the fixed-rounds report, 1 or more (fixed-rounds only) [default: 10].
    #[arg(long, value_name = "N", value_parser = parse_count,
        conflicts_with_all = ["batch_seed", "game", "range", "interactive"])]
    matches: Option<u64>,
    /// Play against the computer: you are seat 1; Enter flips, q quits.
    #[arg(long, conflicts_with_all = ["output", "one_line", "quiet", "verbose"])]
    interactive: bool,
}

/// Set (to anything), `play --interactive` reads its moves from a standard input that is not a
/// terminal and echoes them, so the transcript reads as a terminal session: for tests and
/// scripts. An environment variable, not a hidden flag, because clap_complete's generators
/// offer hidden flags in every shell's completions.
const SCRIPTED_INPUT: &str = "WARSIM_SCRIPTED_INPUT";

impl PlayArgs {
    fn into_options(self) -> Result<PlayOptions, ConfigError> {
        let default = if self.interactive {
            Preset::GameOfWar
        } else {
            Preset::Classic
        };
        let rules = self.rules.into_rules(default)?;
        let level = if self.one_line {
            Level::OneLine
        } else if self.quiet {
            Level::Quiet
        } else if self.verbose {
            Level::Verbose
        } else {
            self.output.map_or(Level::Normal, Level::from)
        };
        let matches = match self.matches {
            Some(_) if rules.family != Family::FixedRounds => {
                return Err(ConfigError::NotApplicable {
                    flag: "--matches",
                    preset: rules.preset.name().to_string(),
                    reason: "it sets the length of the fixed-rounds report",
                });
            }
            Some(0) => return Err(ConfigError::Matches),
            Some(matches) => matches,
            None => 10,
        };
        let games = match (self.range, self.batch_seed, self.game, self.deal) {
            (Some((first, last)), ..) => Games::Range(first, last),
            (None, Some(batch_seed), Some(game), _) => Games::Replay { batch_seed, game },
            (.., Some(hands)) => Games::Deal {
                hands,
                seed: self.seed,
            },
            _ => Games::Seed(self.seed),
        };
        Ok(PlayOptions {
            rules,
            games,
            level,
            matches,
            interactive: self.interactive,
            scripted_input: std::env::var_os(SCRIPTED_INPUT).is_some(),
        })
    }
}

/// Parses `A-B` with A <= B.
fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (first, last) = text
        .split_once('-')
        .ok_or_else(|| format!("'{text}' is not a range: write START-END, e.g. 0-99"))?;
    let first = parse_count(first)?;
    let last = parse_count(last)?;
    if first > last {
        return Err(format!(
            "'{text}' runs backwards: the start must not exceed the end"
        ));
    }
    Ok((first, last))
}

pub(super) fn play_command(args: PlayArgs) -> ExitCode {
    let options = match args.into_options() {
        Ok(options) => options,
        Err(error) => {
            report_error(&error);
            return ExitCode::from(2);
        }
    };
    // Listings stop on a whole line; a single game or interactive play keeps Ctrl-C's usual
    // meaning (nothing there polls a stop request).
    let listing = matches!(options.games, Games::Range(..))
        || options.rules.family == crate::engine::rules::Family::FixedRounds;
    let interrupt = (listing && !options.interactive)
        .then(Interrupt::install)
        .and_then(Result::ok);
    let stop = || interrupt.as_ref().and_then(Interrupt::exit_status);
    let mut out = match WholeLines::stdout() {
        Ok(out) => out,
        Err(error) => {
            report_error(&format!("standard output cannot be written: {error}"));
            return ExitCode::FAILURE;
        }
    };
    let played = play(&options, &mut out, &stop);
    // The lines before an interrupt are written out too; a failure to is the error to say.
    let flushed = std::io::Write::flush(&mut out).map_err(PlayError::from);
    let result = match (played, flushed) {
        (Ok(()) | Err(PlayError::Interrupted(..)), Err(failed)) => Err(failed),
        (played, _) => played,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(PlayError::Interrupted(status, at)) => {
            let signal = interrupt
                .as_ref()
                .map_or("a signal", Interrupt::signal_name);
            say!("interrupted ({signal}): the output ends on a whole line, {at}");
            ExitCode::from(status)
        }
        Err(PlayError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(PlayError::Io(e)) => {
            let ends = match out.ends_whole() {
                true => "the output ends on a whole line",
                false => "the output may end on a partial line",
            };
            let at =
                listing_end(&options, out.lines()).map_or(String::new(), |at| format!(", {at}"));
            report_error(&format!("could not write the game: {e}; {ends}{at}"));
            ExitCode::FAILURE
        }
        Err(error @ PlayError::Usage(_)) => {
            report_error(&error);
            ExitCode::from(2)
        }
        Err(error) => {
            report_error(&error);
            ExitCode::FAILURE
        }
    }
}
