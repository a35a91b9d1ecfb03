//! The rules engine: plays one seeded game under a [`Rules`] value and reports a [`GameRecord`].
//!
//! [`Engine`] owns the reusable game state of one worker, sized by deck class so a 52-card game
//! works in 64-card piles while a 1024-card game still fits; inside, it is an enum, not a trait
//! object, so the hot loop is monomorphized per class.
//!
//! Public: the rule model ([`rules`]), what a game produced ([`GameRecord`]), the seeds of a
//! batch ([`game_seed`], [`Rules::game_seed`]) and the ways to play ([`Engine`], [`play_game`]).
//! The game state, piles and random streams are the crate's own; tests reach them through the
//! `testing` feature (`warsim::testing`).

pub(crate) mod card;
mod cpu;
mod deal;
pub(crate) mod families;
mod fast;
pub(crate) mod game;
mod game_loop;
pub(crate) mod given;
pub(crate) mod observe;
pub(crate) mod pile;
pub(crate) mod random;
mod record;
pub mod rules;

pub(crate) use card::SuitedCard;
pub use given::hand;
pub use random::game_seed;
pub use record::{GameRecord, Outcome, WinBy};
pub use rules::{MAX_CARDS, MAX_PLAYERS, MAX_RANKS, Preset, Rules, RulesError};

use std::ops::Range;

use families::fixed::FixedRoundsGame;
use game::PileGame;
use rules::{Family, Generator, Shuffle};

/// One worker's game state, sized for the deck: made once, reused for every game it plays.
pub struct Engine(Sized);

/// The game state of each deck class.
enum Sized {
    /// Up to 64 cards.
    Cards64(Box<PileGame<u8, 64>>),
    /// Up to 256 cards.
    Cards256(Box<PileGame<u8, 256>>),
    /// Up to 1024 cards.
    Cards1024(Box<PileGame<u8, 1024>>),
    /// One deck per player.
    Fixed(Box<FixedRoundsGame>),
}

impl Engine {
    /// Game state big enough for `rules` (which must be valid).
    pub fn for_rules(rules: &Rules) -> Engine {
        if rules.family == Family::FixedRounds {
            return Engine(Sized::Fixed(FixedRoundsGame::boxed()));
        }
        Engine(match rules.cards() {
            0..=64 => Sized::Cards64(PileGame::boxed()),
            65..=256 => Sized::Cards256(PileGame::boxed()),
            _ => Sized::Cards1024(PileGame::boxed()),
        })
    }

    /// Plays the game with this seed, from the generator the rules name.
    #[inline]
    pub fn play(&mut self, rules: &Rules, seed: u64) -> GameRecord {
        match (rules.generator, rules.shuffle) {
            (Generator::Xoshiro, Shuffle::FisherYates) => {
                self.play_with(rules, &mut random::game_rng(seed))
            }
            (Generator::WarCardGame, Shuffle::FisherYates) => {
                self.play_with(rules, &mut random::WarCardGameRng::new(seed))
            }
            (generator, method) => self.play_quirky(rules, seed, generator, method),
        }
    }

    /// A game whose shuffles are an original's own: a stream of its own type, out of line, so
    /// that the usual streams' code is as it was.
    #[inline(never)]
    fn play_quirky(
        &mut self,
        rules: &Rules,
        seed: u64,
        generator: Generator,
        method: Shuffle,
    ) -> GameRecord {
        let rng = random::AnyRng::new(generator, seed);
        self.play_with(rules, &mut random::Shuffler::new(rng, method))
    }

    /// Plays games `games` of a batch with base seed `base` in order, handing each record to
    /// `each`: the same records as [`Engine::play`] of each game's seed.
    pub fn play_games(
        &mut self,
        rules: &Rules,
        base: u64,
        games: Range<u64>,
        mut each: impl FnMut(GameRecord),
    ) {
        let streams = match (rules.generator, rules.shuffle) {
            (Generator::WarCardGame, Shuffle::FisherYates) => random::chacha::Streams::new(),
            _ => None,
        };
        match streams {
            // Sixteen games' deals draw their first words from one lane-parallel ChaCha call.
            Some(mut streams) => {
                let mut first = games.start;
                while first < games.end {
                    // Lanes past the last game are never played (wrapping: the last game may be
                    // u64::MAX - 1).
                    let seeds = std::array::from_fn(|lane| {
                        rules.game_seed(base, first.wrapping_add(lane as u64))
                    });
                    streams.start(&seeds);
                    let count =
                        (games.end - first).min(random::chacha_lanes::LANES as u64) as usize;
                    for lane in 0..count {
                        each(self.play_with(rules, streams.lane(lane)));
                    }
                    first += count as u64;
                }
            }
            None => {
                for game in games {
                    each(self.play(rules, rules.game_seed(base, game)));
                }
            }
        }
    }

    /// Plays the deal `cards` (ranks, top first), cut into consecutive hands (see
    /// `PileGame::play_sequence`). For rules of the shared-deck families with nothing random
    /// after the deal (the generator is never drawn from).
    pub(crate) fn play_sequence(&mut self, rules: &Rules, cards: &[u8]) -> GameRecord {
        let rng = &mut random::game_rng(0);
        match &mut self.0 {
            Sized::Cards64(game) => game.play_sequence(rules, cards, rng),
            Sized::Cards256(game) => game.play_sequence(rules, cards, rng),
            Sized::Cards1024(game) => game.play_sequence(rules, cards, rng),
            Sized::Fixed(_) => unreachable!("fixed-rounds games have no shared deal"),
        }
    }

    /// The position of the game last played: every seat's pile, each ended by a 0.
    pub(crate) fn position(&self, rules: &Rules, into: &mut Vec<u8>) {
        let players = rules.players as usize;
        match &self.0 {
            Sized::Cards64(game) => game.position(players, into),
            Sized::Cards256(game) => game.position(players, into),
            Sized::Cards1024(game) => game.position(players, into),
            Sized::Fixed(_) => into.clear(),
        }
    }

    /// After [`Engine::play_sequence`] ended in a cycle: the cycle's positions, one round apart
    /// (see `PileGame::walk_cycle`).
    pub(crate) fn walk_cycle(&mut self, rules: &Rules) -> Vec<Vec<u8>> {
        let rng = &mut random::game_rng(0);
        match &mut self.0 {
            Sized::Cards64(game) => game.walk_cycle(rules, rng),
            Sized::Cards256(game) => game.walk_cycle(rules, rng),
            Sized::Cards1024(game) => game.walk_cycle(rules, rng),
            Sized::Fixed(_) => unreachable!("fixed-rounds games have no cycles"),
        }
    }

    #[inline(always)]
    fn play_with<R: random::GameRandom>(&mut self, rules: &Rules, rng: &mut R) -> GameRecord {
        match &mut self.0 {
            Sized::Cards64(game) => game.play(rules, rng),
            Sized::Cards256(game) => game.play(rules, rng),
            Sized::Cards1024(game) => game.play(rules, rng),
            Sized::Fixed(game) => game.play(rules, rng),
        }
    }
}

/// Plays one game on its own (allocates its state; batch runs reuse an [`Engine`]).
pub fn play_game(rules: &Rules, seed: u64) -> GameRecord {
    Engine::for_rules(rules).play(rules, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_games_of_the_largest_batch_play_like_any_other() {
        for preset in [Preset::WarCardGame, Preset::Classic] {
            let rules = preset.rules();
            let mut engine = Engine::for_rules(&rules);
            let mut records = Vec::new();
            engine.play_games(&rules, 9, u64::MAX - 3..u64::MAX, |r| records.push(r));
            let alone: Vec<GameRecord> = (u64::MAX - 3..u64::MAX)
                .map(|game| play_game(&rules, rules.game_seed(9, game)))
                .collect();
            assert_eq!(records, alone, "{preset:?}");
        }
    }
}
