//! The engine's fast paths against its general path: both play the same seeds, and the
//! records and the cards left must match.

use warsim::engine::{GameRecord, Outcome, Rules};
use warsim::testing::{self as random, Observer, PileGame};

/// An observer that watches nothing: it only sends a game down the general path (single-game
/// mode), where every round is played one at a time.
pub struct Silent;

impl<const CAP: usize> Observer<u8, CAP> for Silent {
    fn before_round(&mut self, _: u32, _: &PileGame<u8, CAP>) -> bool {
        true
    }
    fn after_round(&mut self, _: u32, _: &PileGame<u8, CAP>, _: Option<usize>) {}
}

/// Plays each seed's game on the fast paths and on the general path (single-game mode) and
/// checks that the records and the piles left are the same; returns the records, in seed order.
pub fn same_games_fast_and_general<const CAP: usize>(
    game: &mut PileGame<u8, CAP>,
    r: &Rules,
    seeds: std::ops::Range<u64>,
) -> Vec<GameRecord> {
    let mut records = Vec::new();
    for seed in seeds {
        let fast = game.play(r, &mut random::game_rng(seed));
        let fast_piles: Vec<(Vec<u8>, Vec<u8>)> = (0..r.players as usize)
            .map(|s| (game.pile(s), game.heap(s)))
            .collect();
        let mut rng = random::game_rng(seed);
        game.deal(r, &mut rng);
        let general = game.play_observed(r, &mut rng, &mut Silent);
        let general_piles: Vec<(Vec<u8>, Vec<u8>)> = (0..r.players as usize)
            .map(|s| (game.pile(s), game.heap(s)))
            .collect();
        assert_eq!(fast, general, "{r:?} seed {seed}");
        assert_eq!(fast_piles, general_piles, "{r:?} seed {seed}");
        records.push(fast);
    }
    records
}

/// How many of `records` end with `outcome` after more than `rounds` rounds.
pub fn ended(records: &[GameRecord], outcome: Outcome, rounds: u32) -> usize {
    let ended = |record: &&GameRecord| record.outcome == outcome && record.rounds > rounds;
    records.iter().filter(ended).count()
}
