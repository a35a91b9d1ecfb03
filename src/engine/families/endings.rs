//! How a game of the shared-deck families can end besides one player holding every card:
//! Game-of-War's cap with its sudden death, positions that repeat forever (Brent's cycle
//! detection) or that Game-of-War's cap decides after their loop's laps are skipped, and the
//! reshuffle that keeps such positions from repeating.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{CYCLE_CHECK_FROM, PileGame, RoundEnd};
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

    /// Under `larger-pile`, after the cycle watch found the position after round
    /// `record.rounds` repeating: the loop's whole laps up to the cap skipped in `record`. The
    /// next lap is played (`fast`: on the fast loops) to count its wars and cards, and every
    /// later lap adds the same. Single-game mode skips nothing and notes the loop
    /// (`loop_found`). The watch ends here.
    #[cold]
    #[inline(never)]
    pub(in crate::engine) fn skip_loop<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        fast: bool,
    ) {
        (self.watching, self.saved_power) = (false, 0);
        // The position came back `period` rounds after its save: every lap from here repeats.
        let period = record.rounds - self.saved_round;
        if self.trace {
            // Single-game mode shows every round: the loop is only noted.
            self.loop_found = Some((self.saved_round, record.rounds));
            return;
        }
        match record.rounds.checked_add(period) {
            Some(end) if end < rules.max_rounds => {
                let (wars, laid) = (record.wars, self.laid);
                self.play_lap(rules, rng, record, (end, fast));
                let laps = (rules.max_rounds - end) / period;
                record.rounds += laps * period;
                // Below 2^32 rounds of at most a deck's ties each: far from u64's end.
                record.wars += (record.wars - wars) * u64::from(laps);
                self.laid += (self.laid - laid) * u64::from(laps);
            }
            _ => {} // the cap comes within a lap: its rounds are played
        }
    }

    /// Brent's algorithm, after round `round`: compares the position with the saved one, and
    /// saves the position 1, 2, 4, 8, ... rounds after the last save, so a loop of any length is
    /// found within a few laps of it. Called after every round from [`CYCLE_CHECK_FROM`] on
    /// but those the fast loops check themselves; they stop at every save
    /// ([`Self::next_save`]) or save as this does.
    ///
    /// Out of the game loop's line (inlined, it made every rule set on the general path,
    /// watched or not, 2% slower), and short: the general path checks every round, and most
    /// rounds return at the first tests.
    #[inline(never)]
    pub(in crate::engine) fn position_repeats(&mut self, round: u32) -> bool {
        // (A fast loop may have saved this very round before it returned.)
        let nominated =
            self.saved_power > 0 && round > self.saved_round && self.first_seat_as_saved();
        let save_due = self.saved_power == 0 || round - self.saved_round >= self.saved_power;
        (nominated || save_due) && self.repeats_or_saves(round, (nominated, save_due))
    }

    /// [`Self::position_repeats`] for a round that may repeat the saved position (`nominated`)
    /// or is the next save (`save_due`).
    #[cold]
    #[inline(never)]
    fn repeats_or_saves(&mut self, round: u32, (nominated, save_due): (bool, bool)) -> bool {
        if nominated && self.same_as_saved() {
            return true;
        }
        if save_due {
            self.save_position(round);
        }
        false
    }

    /// The round of the cycle watch's next save (`u32::MAX` when the game is not watched):
    /// a fast loop must stop there, or save itself.
    #[inline(always)]
    pub(in crate::engine) fn next_save(&self) -> u32 {
        match self.saved_power {
            _ if !self.watching => u32::MAX,
            0 => CYCLE_CHECK_FROM,
            power => self.saved_round.saturating_add(power),
        }
    }

    /// The saved pile size of the first active seat when the same seats are active as at the
    /// save, else `usize::MAX`: a fast loop compares whole positions only where its first
    /// seat holds that many cards.
    #[inline(always)]
    pub(in crate::engine) fn watch_target(&self) -> usize {
        let same_seats = self.saved_power > 0
            && self.saved_len == self.active_len
            && self.saved_active[..self.saved_len] == self.active[..self.active_len];
        if same_seats {
            usize::from(self.saved_counts[0])
        } else {
            usize::MAX
        }
    }

    /// True when as many seats are active as at the save and the first holds as many cards in
    /// its pile and heap: the cheap test that spares most rounds the whole comparison.
    #[inline(always)]
    fn first_seat_as_saved(&self) -> bool {
        let seat = self.active[0] as usize;
        self.active_len == self.saved_len
            && self.piles[seat].len() == usize::from(self.saved_counts[0])
            && self.heaps[seat].len() == usize::from(self.saved_heaps[0])
    }

    /// True when every active seat holds the saved ranks (the same seats active): its pile,
    /// and with `--spoils heap-unshuffled` its heap too (the heap's order decides the game).
    /// Ranks, not cards: only ranks decide a game, and `warsim play`'s suited cards must find
    /// the loop a batch of rank-only cards finds (a loop that moves the suits round takes
    /// several laps to bring them back).
    #[cold]
    #[inline(never)]
    pub(in crate::engine) fn same_as_saved(&self) -> bool {
        let active = &self.active[..self.active_len];
        if self.saved_active[..self.saved_len] != *active {
            return false;
        }
        let mut from = 0;
        for (i, &seat) in active.iter().enumerate() {
            let seat = seat as usize;
            let (count, heap) = (
                usize::from(self.saved_counts[i]),
                usize::from(self.saved_heaps[i]),
            );
            let (pile, saved) = (&self.piles[seat], &self.saved[from..from + count + heap]);
            if pile.len() != count
                || self.heaps[seat].len() != heap
                || !pile
                    .iter()
                    .chain(self.heaps[seat].iter())
                    .map(C::rank)
                    .eq(saved.iter().map(|card| card.rank()))
            {
                return false;
            }
            from += count + heap;
        }
        true
    }

    fn save_position(&mut self, round: u32) {
        let mut from = 0;
        for i in 0..self.active_len {
            let seat = self.active[i] as usize;
            for part in [&self.piles[seat], &self.heaps[seat]] {
                part.copy_to(&mut self.saved[from..]);
                from += part.len();
            }
            self.saved_counts[i] = self.piles[seat].len() as u16;
            self.saved_heaps[i] = self.heaps[seat].len() as u16;
        }
        self.saved_active = self.active;
        self.saved_len = self.active_len;
        self.saved_round = round;
        self.saved_power = (self.saved_power * 2).max(1);
    }

    pub(in crate::engine) fn reshuffle<R: GameRandom>(&mut self, rng: &mut R) {
        for i in 0..self.active_len {
            self.shuffle_under_pile(self.active[i] as usize, false, rng);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_position_includes_the_heaps() {
        let mut game = PileGame::<u8, 16>::boxed();
        game.piles[0].set(&[3, 1]);
        game.piles[1].set(&[2]);
        game.heaps[1].set(&[4, 5]);
        game.active[..2].copy_from_slice(&[0, 1]);
        game.active_len = 2;
        game.save_position(1024);
        assert!(game.same_as_saved());
        // The same piles with the heap's cards in another order: another position.
        game.heaps[1].set(&[5, 4]);
        assert!(!game.same_as_saved());
        // A card moved from the heap to the pile: another position.
        game.piles[1].set(&[2, 4]);
        game.heaps[1].set(&[5]);
        assert!(!game.same_as_saved());
    }
}
