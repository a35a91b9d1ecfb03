//! How a game of the shared-deck families can end besides one player holding every card:
//! Game-of-War's cap with its sudden death, positions that repeat forever (Brent's cycle
//! detection), and the reshuffle that keeps such positions from repeating.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{PileGame, RoundEnd};
use crate::engine::record::{GameRecord, Outcome, WinBy};
use crate::engine::rules::Rules;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Game-of-War's cap: the larger pile wins; equal piles play one sudden-death round, after
    /// which the first seat wins only with strictly more cards.
    pub(in crate::engine) fn decide_at_cap<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        mut record: GameRecord,
    ) -> GameRecord {
        let (first, second) = (self.active[0] as usize, self.active[1] as usize);
        let (a, b) = (self.holding(first), self.holding(second));
        record.outcome = Outcome::Win;
        if a != b {
            record.winner = Some(if a > b { first } else { second } as u8);
            record.win_by = Some(WinBy::Cap);
            return record;
        }
        record.rounds += 1;
        if self.round(rules, rng, &mut record) == RoundEnd::Stuck {
            record.outcome = Outcome::Draw;
            return record;
        }
        let first_wins = self.holding(first) > self.holding(second);
        record.winner = Some(if first_wins { first } else { second } as u8);
        record.win_by = Some(WinBy::SuddenDeath);
        self.drop_empty_seats();
        record
    }

    /// Brent's algorithm: compares the position with the saved one, and saves the position
    /// after 1, 2, 4, 8, ... rounds, so a loop of any length is found within a few laps of it.
    pub(in crate::engine) fn position_repeats(&mut self) -> bool {
        let active = &self.active[..self.active_len];
        if self.saved_power > 0
            && self.saved_len == self.active_len
            && self.saved_active[..self.saved_len] == *active
            && active
                .iter()
                .all(|&s| self.piles[s as usize].same_cards(&self.saved[s as usize]))
        {
            return true;
        }
        self.saved_age += 1;
        if self.saved_age >= self.saved_power {
            for &seat in active {
                self.saved[seat as usize].clone_from(&self.piles[seat as usize]);
            }
            self.saved_active = self.active;
            self.saved_len = self.active_len;
            self.saved_power = (self.saved_power * 2).max(1);
            self.saved_age = 0;
        }
        false
    }

    pub(in crate::engine) fn reshuffle<R: GameRandom>(&mut self, rng: &mut R) {
        for i in 0..self.active_len {
            self.shuffle_under_pile(self.active[i] as usize, false, rng);
        }
    }
}
