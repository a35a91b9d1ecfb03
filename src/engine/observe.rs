//! Single games seen from outside (`warsim play`): an observer called around every round, and
//! what it can read — piles and heaps, the shuffled deck, the steps of the last round, the
//! seats still in.
//! Batch runs never observe, so none of this touches their hot loop.

use super::random::GameRandom;

use super::card::Card;
use super::game::{PileGame, Play};
use super::record::{GameRecord, Outcome};
use super::rules::Rules;

/// What a step of a round's log holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    /// The cards shown at the start of the round.
    #[default]
    Shown,
    /// A war's face-down cards (WarSimulator: stakes).
    FaceDown,
    /// A war's face-up cards (WarSimulator: stakes and champions, and nested wars).
    FaceUp,
}

/// Watches a single game round by round (`warsim play`); batch runs use none.
pub trait Observer<C: Card, const CAP: usize> {
    /// Before round `round` (1-based) is played; return false to stop the game there.
    fn before_round(&mut self, round: u32, game: &PileGame<C, CAP>) -> bool;
    /// After round `round`, with the seat that took the cards (none: nobody did).
    fn after_round(&mut self, round: u32, game: &PileGame<C, CAP>, winner: Option<usize>);
}

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Seat s's pile, top first.
    pub fn pile(&self, seat: usize) -> Vec<C> {
        self.piles[seat].iter().collect()
    }

    /// Seat s's spoil heap, oldest first.
    pub fn heap(&self, seat: usize) -> Vec<C> {
        self.heaps[seat].iter().collect()
    }

    /// The cards played in the last round (left on the table when the game ended stuck).
    #[cfg(any(test, feature = "testing"))]
    pub fn table(&self) -> Vec<C> {
        self.log[..self.log_len].iter().map(|p| p.card).collect()
    }

    /// Plays the game already dealt, showing every round to `observer`.
    pub fn play_observed<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        observer: &mut dyn Observer<C, CAP>,
    ) -> GameRecord {
        self.trace = true;
        let record = self.play_dealt(rules, rng, Some(observer));
        self.trace = false;
        record
    }

    /// The deck as shuffled by the last [`PileGame::deal`], before it was dealt (valid until
    /// the first round is played).
    pub fn shuffled_deck(&self, rules: &Rules) -> Vec<C> {
        self.scratch[..rules.cards_in_play() as usize].to_vec()
    }

    /// The cards of the last round, in the order they were played, cut into steps: the cards
    /// shown, then for each war its face-down cards and its face-up cards (groups family: the
    /// cards shown, then every war card). Table pickup leaves each step sorted highest first.
    pub fn round_steps(&self) -> Vec<(Step, Vec<Play<C>>)> {
        let mut steps = Vec::new();
        let mut start = 0;
        for (&end, &step) in self.segment_ends[..self.segments]
            .iter()
            .zip(&self.segment_steps)
        {
            steps.push((step, self.log[start..end as usize].to_vec()));
            start = end as usize;
        }
        if start < self.log_len {
            steps.push((Step::FaceUp, self.log[start..self.log_len].to_vec()));
        }
        steps
    }

    /// Under `--at-cap larger-pile`, the loop the last observed game fell into, if the cycle
    /// watch found one: the position after the first round came back after the second, and the
    /// game repeated those rounds until the cap decided it.
    pub fn loop_found(&self) -> Option<(u32, u32)> {
        self.loop_found
    }

    /// When the last observed game (`record`) ended as a cycle: the cycle watch's saved
    /// position, after the first round, came back after the second, so the game would repeat
    /// those rounds forever (the saved position was the first to come back, so they are one
    /// lap of the cycle, not several).
    pub fn cycle_found(&self, record: &GameRecord) -> Option<(u32, u32)> {
        (record.outcome == Outcome::Cycle && self.saved_power > 0)
            .then_some((self.saved_round, record.rounds))
    }

    /// Seats still holding cards, in seat order.
    pub fn seats_in(&self) -> Vec<usize> {
        self.active[..self.active_len]
            .iter()
            .map(|&s| s as usize)
            .collect()
    }
}
