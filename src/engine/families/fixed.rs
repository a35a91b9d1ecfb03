//! The "fixed-rounds" family (the fixed-rounds pseudocode): each player has its own deck of values 1..R, each value
//! S times (1..13 twice by default), shuffled anew for every match. Round i compares every
//! player's card i; the single highest card scores the round, a shared highest card scores
//! nothing (a tied round). The match goes to the single highest score; otherwise it is tied.

use crate::engine::random::GameRandom;

use crate::engine::record::{GameRecord, Outcome, WinBy};
use crate::engine::rules::{MAX_CARDS, MAX_PLAYERS, Rules};

const DECK: usize = MAX_CARDS as usize;
const SEATS: usize = MAX_PLAYERS as usize;

/// The reusable state of one match.
pub struct FixedRoundsGame {
    decks: [[u8; DECK]; SEATS],
}

impl FixedRoundsGame {
    /// A boxed match.
    pub fn boxed() -> Box<Self> {
        Box::new(FixedRoundsGame {
            decks: [[0; DECK]; SEATS],
        })
    }

    /// Shuffles every player's deck with `rng` (seat 1's first) and plays the match.
    pub fn play<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R) -> GameRecord {
        let len = rules.cards() as usize;
        for deck in &mut self.decks[..rules.players as usize] {
            let mut k = 0;
            for value in 1..=rules.ranks {
                for _ in 0..rules.suits {
                    deck[k] = value as u8;
                    k += 1;
                }
            }
            rng.shuffle(&mut deck[..len]);
        }
        self.score(rules)
    }

    /// Seat s's deck as last shuffled, card 1 first.
    pub fn deck(&self, seat: usize, rules: &Rules) -> &[u8] {
        &self.decks[seat][..rules.cards() as usize]
    }

    /// Plays the match on decks already set: `decks[s]` is seat s's deck, card 1 first.
    #[cfg(any(test, feature = "testing"))]
    pub fn play_decks(&mut self, rules: &Rules, decks: &[Vec<u8>]) -> GameRecord {
        for (mine, given) in self.decks.iter_mut().zip(decks) {
            mine[..given.len()].copy_from_slice(given);
        }
        self.score(rules)
    }

    fn score(&self, rules: &Rules) -> GameRecord {
        let players = rules.players as usize;
        let rounds = rules.cards() as usize;
        let mut scores = [0u32; SEATS];
        let mut tied_rounds = 0;
        for i in 0..rounds {
            let (_, best_seat, ties) = top(self.decks[..players].iter().map(|d| u32::from(d[i])));
            if ties == 1 {
                scores[best_seat] += 1;
            } else {
                tied_rounds += 1;
            }
        }
        let (_, leader, leaders) = top(scores[..players].iter().copied());
        let won = leaders == 1;
        GameRecord {
            rounds: rounds as u32,
            winner: won.then_some(leader as u8),
            outcome: if won { Outcome::Win } else { Outcome::Draw },
            win_by: won.then_some(WinBy::Score),
            wars: tied_rounds as u64,
            longest_war: 0,
            // Every player lays one card a round.
            cards_played: (rounds * players) as u64,
        }
    }
}

/// The highest value, the first position holding it, and how many hold it.
fn top(values: impl Iterator<Item = u32>) -> (u32, usize, usize) {
    let mut best = (0, 0, 0);
    for (i, v) in values.enumerate() {
        if v > best.0 || i == 0 {
            best = (v, i, 1);
        } else if v == best.0 {
            best.2 += 1;
        }
    }
    best
}
