//! The fast path of the table family for three or more players: a round whose highest card is
//! alone is played straight on the piles, without the round log and its segments, sorting only
//! the cards won. A round whose highest cards tie is a war, and goes to the general path
//! (`families/table.rs`); a test checks that both paths play the same games.

use crate::engine::card::Card;
use crate::engine::game::{PileGame, RoundEnd, SEATS, sort_high_first};
use crate::engine::random::GameRandom;
use crate::engine::record::GameRecord;
use crate::engine::rules::{Pickup, Rules};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays rounds of three or more players until one ends with a player out of cards, a war
    /// (played by the general path, which ends the call), the cycle watch finding the saved
    /// position again, or round `limit`. Only for rules with nothing random in a round (the
    /// caller checks, and sets `limit` as for [`PileGame::fast_rounds`]). Returns how the last
    /// round ended (at the limit: a plain round).
    // Out of line: inlined, it made the general path (shuffled pickup) 2.4% more instructions.
    #[inline(never)]
    pub(in crate::engine) fn many_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(self.active_len > 2 && rules.deterministic_rounds() && !self.trace);
        let n = self.active_len;
        let seats = self.active;
        // The cycle watch compares whole positions only where the first seat holds as many
        // cards as in the saved one (usize::MAX: nothing watched).
        let target = self.watch_target();
        // The cycle watch's saves are made by the caller.
        let limit = limit.min(self.next_save());
        let mut top = [C::default(); SEATS];
        while record.rounds < limit {
            // The highest card, whether another ties it, and whether anyone plays their last
            // card; selects, not branches, as the ranks are random.
            let first = &self.piles[seats[0] as usize];
            top[0] = first.top();
            let (mut best, mut best_rank) = (0, top[0].rank());
            let mut tie = false;
            let mut last_card = first.len() == 1;
            for i in 1..n {
                let pile = &self.piles[seats[i] as usize];
                let card = pile.top();
                top[i] = card;
                let higher = card.rank() > best_rank;
                tie = (tie | (card.rank() == best_rank)) & !higher;
                best = if higher { i } else { best };
                best_rank = best_rank.max(card.rank());
                last_card |= pile.len() == 1;
            }
            record.rounds += 1;
            if tie {
                return self.round(rules, rng, record);
            }
            for &seat in &seats[..n] {
                self.piles[seat as usize].pop();
            }
            // The order the general path gives a round without a war: the table's cards
            // highest first (seat order on equal ranks), or by seat (see `give_round`).
            match rules.pickup {
                Pickup::Table => sort_high_first(&mut top[..n], |c| c.rank()),
                Pickup::WinnerFirst => top[..=best].rotate_right(1),
                Pickup::LoserFirst => top[best..n].rotate_left(1),
                Pickup::Seats => {}
                Pickup::ReverseSeats | Pickup::Shuffled => top[..n].reverse(),
            }
            self.piles[seats[best] as usize].extend(&top[..n]);
            self.laid += n as u64;
            if last_card {
                // Someone may be out: the caller drops empty seats (and checks the watch).
                return RoundEnd::Taken;
            }
            if self.piles[seats[0] as usize].len() == target && self.same_as_saved() {
                return RoundEnd::Cycle;
            }
        }
        RoundEnd::Plain
    }
}
