//! The engine's fast paths against its general path: both play the same seeds, and the
//! records and the cards left must match.

use warsim::engine::{Outcome, Rules};
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
/// checks that the records and the piles left are the same; returns how many games looped and
/// how many were won after the cycle watch began.
pub fn same_games_fast_and_general<const CAP: usize>(
    game: &mut PileGame<u8, CAP>,
    r: &Rules,
    seeds: std::ops::Range<u64>,
) -> (usize, usize) {
    let (mut cycles, mut late) = (0, 0);
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
        cycles += usize::from(fast.outcome == Outcome::Cycle);
        late += usize::from(fast.outcome == Outcome::Win && fast.rounds > 1024);
    }
    (cycles, late)
}
