//! `warsim play`: single games, printed at war_card_game's output levels; seed ranges; replay of
//! one game of a batch; the fixed-rounds report; and interactive play against the computer.
//! Knows nothing of clap.

mod cards;
mod deal;
mod fixed_report;
mod interactive;
mod trace;

use std::io::{self, IsTerminal, Write};

use crate::engine::game::PileGame;
use crate::engine::random::{AnyRng, Shuffler};
use crate::engine::rules::{Family, group};
use crate::engine::{GameRecord, Rules, SuitedCard};

pub use trace::one_line;

/// How much of a game to print (war_card_game's levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `Players: P, seed: S, winner: Player W, winning round: R`.
    OneLine,
    /// Seed, shuffled deck, result.
    Quiet,
    /// Decks before and after the shuffle, starting hands, result, longest war.
    Normal,
    /// Every round: piles, cards played, wars, the round's winner.
    Verbose,
}

/// Which games to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Games {
    /// The game of this seed (fixed-rounds: the base seed of `matches` matches).
    Seed(u64),
    /// Seeds A..=B, one line each.
    Range(u64, u64),
    /// Game `game` of `warsim run --seed batch_seed` with the same rules.
    Replay {
        /// The batch's base seed.
        batch_seed: u64,
        /// The game's index in the batch.
        game: u64,
    },
    /// The game of hands given as `warsim enumerate` prints deals (`1 3 5 6 | 7 2 4`), `seed`
    /// drawing what chance comes after the deal.
    Deal {
        /// The hands as written.
        hands: String,
        /// The seed of what is random after the deal.
        seed: u64,
    },
}

/// Everything `warsim play` needs, already checked.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules.
    pub rules: Rules,
    /// Which games.
    pub games: Games,
    /// Output level.
    pub level: Level,
    /// Matches in the fixed-rounds report.
    pub matches: u64,
    /// Play against the computer.
    pub interactive: bool,
    /// Accept a non-terminal standard input for interactive play (for tests and scripts).
    pub scripted_input: bool,
}

/// Why `warsim play` could not run.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// Bad input, found before any game was played.
    #[error("{0}")]
    Usage(String),
    /// Output failed.
    #[error("could not write the game: {0}")]
    Io(#[from] io::Error),
    /// Standard input failed while an interactive game waited for an answer.
    #[error("could not read your answer from standard input: {0}")]
    Input(io::Error),
    /// A signal stopped it after a whole line: the exit status it calls for, and where it
    /// stopped ("after seed 7; the rest is --range 8-20").
    #[error("interrupted {1}")]
    Interrupted(u8, String),
}

/// Polled after every line of a long listing: `Some(exit status)` stops it there.
pub type Stop<'a> = &'a dyn Fn() -> Option<u8>;

/// Plays and prints what `options` asks for. Long listings (`--range`, many one-line matches)
/// end after a whole line when `stop` says so.
pub fn play(options: &PlayOptions, out: &mut dyn Write, stop: Stop) -> Result<(), PlayError> {
    let rules = &options.rules;
    if options.interactive {
        return play_against_computer(options, out);
    }
    if rules.family == Family::FixedRounds {
        return play_fixed(options, out, stop);
    }
    match options.games {
        Games::Seed(seed) => drop(play_one(rules, seed, options.level, out)?),
        Games::Replay { batch_seed, game } => drop(play_one(
            rules,
            rules.game_seed(batch_seed, game),
            options.level,
            out,
        )?),
        Games::Deal { ref hands, seed } => {
            let hands = deal::parse_deal(hands, rules).map_err(PlayError::Usage)?;
            play_game(rules, (seed, Some(&hands[..])), options.level, out)?;
        }
        Games::Range(first, last) => {
            for seed in first..=last {
                play_one(rules, seed, Level::OneLine, out)?;
                stopped(stop, || after_seed(seed, last))?;
            }
        }
    }
    Ok(())
}

/// Where a listing whose output holds its first `lines` lines whole ends, for the message of a
/// write error: after which seed, and the range still to play (`--range`), or after which
/// match (one-line matches); `None` for output that is not a line a game.
pub fn listing_end(options: &PlayOptions, lines: u64) -> Option<String> {
    let one_line_matches =
        options.rules.family == Family::FixedRounds && options.level == Level::OneLine;
    match options.games {
        _ if options.interactive => None,
        Games::Range(first, last) if lines == 0 => Some(format!(
            "before seed {first}; the rest is --range {first}-{last}"
        )),
        Games::Range(first, last) => Some(after_seed(first + lines - 1, last)),
        Games::Seed(_) if one_line_matches => Some(after_match(lines, options.matches)),
        _ => None,
    }
}

/// `Err(Interrupted)` once `stop` asks for it, saying where (`at`, made only then).
fn stopped(stop: Stop, at: impl FnOnce() -> String) -> Result<(), PlayError> {
    match stop() {
        Some(status) => Err(PlayError::Interrupted(status, at())),
        None => Ok(()),
    }
}

/// Where a `--range` listing stopped: after `seed`, and the range still to play.
fn after_seed(seed: u64, last: u64) -> String {
    match seed < last {
        true => format!("after seed {seed}; the rest is --range {}-{last}", seed + 1),
        false => format!("after seed {seed}, the last"),
    }
}

/// Where a listing of matches stopped: after match `m` (from 1) of `matches`.
fn after_match(m: u64, matches: u64) -> String {
    format!("after match {} of {}", group(m), group(matches))
}

fn play_fixed(options: &PlayOptions, out: &mut dyn Write, stop: Stop) -> Result<(), PlayError> {
    let rules = &options.rules;
    let one = |seed: u64| {
        let record = crate::engine::play_game(rules, seed);
        one_line(rules, seed, &record)
    };
    let brief = options.level == Level::Quiet;
    match options.games {
        Games::Range(first, last) => {
            for seed in first..=last {
                writeln!(out, "{}", one(seed))?;
                stopped(stop, || after_seed(seed, last))?;
            }
        }
        Games::Replay { batch_seed, game } => {
            let seed = rules.game_seed(batch_seed, game);
            match options.level {
                Level::OneLine => writeln!(out, "{}", one(seed))?,
                _ => fixed_report::print_report(rules, 1, &|_| seed, brief, out, stop)?,
            }
        }
        Games::Deal { .. } => {
            return Err(PlayError::Usage(
                "--deal gives hands of one shared deck, and --rules fixed-rounds deals each player a deck of its own: drop --deal".to_string(),
            ));
        }
        // Matches are streamed, never gathered: --matches may be as large as a u64.
        Games::Seed(seed) => match options.level {
            Level::OneLine => {
                for m in 0..options.matches {
                    writeln!(out, "{}", one(rules.game_seed(seed, m)))?;
                    stopped(stop, || after_match(m + 1, options.matches))?;
                }
            }
            _ => {
                let seed_of = |m: u64| rules.game_seed(seed, m);
                fixed_report::print_report(rules, options.matches, &seed_of, brief, out, stop)?
            }
        },
    }
    Ok(())
}

/// Runs `$body` with `$game` bound to a single-game state sized for the rules' deck.
macro_rules! with_game {
    ($rules:expr, $game:ident => $body:expr) => {
        match $rules.cards() {
            0..=64 => {
                let $game = &mut *PileGame::<SuitedCard, 64>::boxed();
                $body
            }
            65..=256 => {
                let $game = &mut *PileGame::<SuitedCard, 256>::boxed();
                $body
            }
            _ => {
                let $game = &mut *PileGame::<SuitedCard, 1024>::boxed();
                $body
            }
        }
    };
}

/// Plays the game of `seed` and prints it at `level`.
fn play_one(rules: &Rules, seed: u64, level: Level, out: &mut dyn Write) -> io::Result<GameRecord> {
    play_game(rules, (seed, None), level, out)
}

/// Plays the game of `seed`, or of given hands with `seed` drawing after the deal, and prints
/// it at `level`.
fn play_game(
    rules: &Rules,
    (seed, given): (u64, Option<&[Vec<SuitedCard>]>),
    level: Level,
    out: &mut dyn Write,
) -> io::Result<GameRecord> {
    let mut rng = Shuffler::new(AnyRng::new(rules.generator, seed), rules.shuffle);
    with_game!(rules, game => trace::play_and_print(game, rules, (seed, given), &mut rng, level, out))
}

fn play_against_computer(options: &PlayOptions, out: &mut dyn Write) -> Result<(), PlayError> {
    let rules = &options.rules;
    if rules.family == Family::FixedRounds {
        return Err(PlayError::Usage(
            "--interactive plays a game of piles, and fixed-rounds has none: choose e.g. --rules game-of-war".to_string(),
        ));
    }
    if rules.players != 2 {
        return Err(PlayError::Usage(format!(
            "--interactive needs a two-player preset with piles (given --rules {} with {} players): use --players 2 and e.g. --rules game-of-war",
            rules.preset, rules.players
        )));
    }
    let stdin = io::stdin();
    if !options.scripted_input && !stdin.is_terminal() {
        return Err(PlayError::Usage(
            "--interactive needs a terminal on standard input, and it is not one: run it in a terminal".to_string(),
        ));
    }
    let seed = match options.games {
        Games::Seed(seed) => seed,
        Games::Replay { batch_seed, game } => rules.game_seed(batch_seed, game),
        Games::Range(..) => {
            return Err(PlayError::Usage(
                "--interactive plays one game: drop --range".to_string(),
            ));
        }
        Games::Deal { .. } => {
            return Err(PlayError::Usage(
                "--interactive deals a shuffled deck: drop --deal".to_string(),
            ));
        }
    };
    let mut input = stdin.lock();
    let mut rng = Shuffler::new(AnyRng::new(rules.generator, seed), rules.shuffle);
    with_game!(rules, game => interactive::play_interactive(game, rules, seed, &mut rng, &mut input, options.scripted_input, out))?;
    Ok(())
}
