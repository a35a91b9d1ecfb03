//! The cycle watch inside the two-player fast loop (`mod.rs`): Brent's saves and comparisons
//! on the linear piles, where a save copies no cards.
//!
//! A save notes where the position lies in the linear buffers (`saved_in_linear`), because
//! they keep it: a pile's end (head + its size) never moves back and every card is written at
//! or past an end, so the cards a pile held at a save stay where they were until the piles
//! move to the start of the buffers. That move and every way out of the loop copy them to
//! `saved` first ([`PileGame::keep_saved`]), where the rest of the engine reads them. The block
//! pass makes most saves itself, without stopping (`Pass`); the loop makes the others.

use crate::engine::card::Card;
use crate::engine::game::PileGame;

use super::pass::Pass;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// The cycle watch's state for a watching loop: seat 0's pile size and the top ranks of
    /// the saved position (seat 0's pile is saved first, then seat 1's; in the linear buffers
    /// when `saved_in_linear` says so), and the next save.
    #[inline(always)]
    pub(super) fn watched(&self) -> (usize, [u8; 2], u32) {
        let n0 = usize::from(self.saved_counts[0]);
        let tops = match self.saved_in_linear {
            usize::MAX => [self.saved[0].rank(), self.saved[n0].rank()],
            at => [self.linear[0][at].rank(), self.linear[1][at].rank()],
        };
        (n0, tops, self.next_save())
    }

    /// The cycle watch after round `round` on the linear piles at `head` (seat 0's `n0`
    /// cards, then seat 1's): `None` when they hold the saved position (saved at an earlier
    /// round); else saves them when the round is the next save (as `position_repeats` does on
    /// the general path) and returns the watch's state after it ([`Self::watched`]).
    /// A save here copies no cards (see the module's doc).
    #[cold]
    #[inline(never)]
    pub(super) fn watch_linear(
        &mut self,
        head: usize,
        n0: usize,
        total: usize,
        round: u32,
    ) -> Option<(usize, [u8; 2], u32)> {
        if round > self.saved_round
            && n0 == usize::from(self.saved_counts[0])
            && self.same_as_saved_linear(head, n0, total)
        {
            return None;
        }
        if round == self.next_save() {
            let power = (self.saved_power * 2).max(1);
            return Some(self.save_linear(head, n0, total, round, power));
        }
        Some(self.watched())
    }

    /// Notes a save of the linear piles at `head` (seat 0's `n0` cards) after round `round`,
    /// the next one `power` rounds later; returns the watch's state after it. `saved_active`,
    /// `saved_len` and `saved_heaps` are set with the cards ([`Self::keep_saved`]).
    fn save_linear(
        &mut self,
        head: usize,
        n0: usize,
        total: usize,
        round: u32,
        power: u32,
    ) -> (usize, [u8; 2], u32) {
        self.saved_in_linear = head;
        self.saved_counts[..2].copy_from_slice(&[n0 as u16, (total - n0) as u16]);
        self.saved_round = round;
        self.saved_power = power;
        self.watched()
    }

    /// True when the linear piles at `head` hold the saved position's cards (the same sizes).
    #[cold]
    #[inline(never)]
    fn same_as_saved_linear(&self, head: usize, n0: usize, total: usize) -> bool {
        let [pile0, pile1] = &self.linear;
        let (saved0, saved1) = self.saved_piles(total);
        pile0[head..head + n0] == *saved0 && pile1[head..head + total - n0] == *saved1
    }

    /// Both piles of the saved position (of `total` cards), where they lie: in `saved`, or in
    /// the linear buffers (`saved_in_linear`).
    fn saved_piles(&self, total: usize) -> (&[C], &[C]) {
        let n0 = usize::from(self.saved_counts[0]);
        match self.saved_in_linear {
            usize::MAX => self.saved[..total].split_at(n0),
            at => (
                &self.linear[0][at..at + n0],
                &self.linear[1][at..at + total - n0],
            ),
        }
    }

    /// Records the last save a block pass made (see [`Pass`]), the pass having started after
    /// round `rounds`; returns the watch's state after it.
    #[cold]
    #[inline(never)]
    pub(super) fn saved_in_pass(
        &mut self,
        pass: &Pass,
        rounds: u32,
        total: usize,
    ) -> (usize, [u8; 2], u32) {
        let round = rounds + pass.saved_after;
        self.save_linear(pass.saved_head, pass.saved_n0, total, round, pass.power)
    }

    /// Copies a save that lives in the linear buffers (`saved_in_linear`, see
    /// [`Self::watch_linear`]) to `saved`, where the rest of the engine reads it.
    #[cold]
    #[inline(never)]
    pub(super) fn keep_saved(&mut self, total: usize) {
        let at = self.saved_in_linear;
        if at == usize::MAX {
            return;
        }
        let n0 = usize::from(self.saved_counts[0]);
        self.saved[..n0].copy_from_slice(&self.linear[0][at..at + n0]);
        self.saved[n0..total].copy_from_slice(&self.linear[1][at..at + total - n0]);
        self.saved_heaps[..2].fill(0); // the fast loop plays without heaps
        self.saved_active = self.active;
        self.saved_len = self.active_len;
        self.saved_in_linear = usize::MAX;
    }

    /// Moves both linear piles to the start of their buffers, after copying a save that lives
    /// there to `saved`; returns the new head, 0.
    #[inline(never)]
    pub(super) fn move_to_start(&mut self, head: usize, counts: [usize; 2]) -> usize {
        self.keep_saved(counts[0] + counts[1]);
        for (pile, count) in self.linear.iter_mut().zip(counts) {
            pile.copy_within(head..head + count, 0);
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::super::blocks::BLOCK_SLACK;
    use super::super::pass::{HIGH_LOW, NATURAL, SEATS_DOWN, one_step};
    use super::*;
    use crate::engine::cpu::Blocks;
    use crate::engine::game::LINEAR;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// What the watch holds after a round: the head, seat 0's pile size, the saves made, the
    /// last one (round, head, seat 0's pile), and the watched size and tops.
    type State = (usize, usize, u32, (u32, usize, usize), usize, [u8; 2]);

    /// The watch as the loop keeps it between passes, with Brent's schedule.
    #[derive(Clone, Copy)]
    struct Watch {
        saves: u32,
        last: (u32, usize, usize),
        target: usize,
        tops: [u8; 2],
        next_save: u32,
        power: u32,
    }

    impl Watch {
        fn save(&mut self, piles: &[[u8; LINEAR]; 2], round: u32, head: usize, n0: usize) {
            self.power = (self.power * 2).max(1);
            (self.saves, self.last) = (self.saves + 1, (round, head, n0));
            (self.target, self.tops) = (n0, [piles[0][head], piles[1][head]]);
            self.next_save = round + self.power;
        }

        fn state(&self, head: usize, n0: usize) -> State {
            (head, n0, self.saves, self.last, self.target, self.tops)
        }
    }

    fn watched(piles: &[[u8; LINEAR]; 2], watch: &Watch, head: usize, n0: usize) -> bool {
        n0 == watch.target && [piles[0][head], piles[1][head]] == watch.tops
    }

    /// One round (a settled war at a tie) at a time: the state after every round, and the
    /// rounds after which the position may repeat the saved one.
    fn round_by_round<const ORDER: u8>(
        piles: &mut [[u8; LINEAR]; 2],
        start: Pass,
        mut watch: Watch,
    ) -> (Vec<State>, Vec<u32>) {
        let (mut pass, mut round) = (start, 0);
        let mut states = vec![watch.state(pass.head, pass.n0)];
        let mut candidates = Vec::new();
        loop {
            let budget = (start.budget as usize - (pass.head - start.head)) as u32;
            if budget == 0 || pass.n0 == 0 || pass.n0 == pass.total {
                break;
            }
            let next = one_step::<ORDER>(piles, Pass { budget, ..pass });
            if next.rounds == pass.rounds {
                break; // a tie the pass does not settle
            }
            (pass, round) = (next, round + 1);
            // The loop ends a won game before it watches.
            let on = pass.n0 > 0 && pass.n0 < pass.total;
            if on && watched(piles, &watch, pass.head, pass.n0) {
                candidates.push(round);
            }
            if on && round == watch.next_save {
                watch.save(piles, round, pass.head, pass.n0);
            }
            states.push(watch.state(pass.head, pass.n0));
        }
        (states, candidates)
    }

    /// Block passes driven as the loop drives them (the loop's own saves included): the state
    /// after each pass, with its round, and the rounds at which a pass stopped to be checked.
    fn by_passes<const ORDER: u8>(
        blocks: Blocks,
        piles: &mut [[u8; LINEAR]; 2],
        start: Pass,
        mut watch: Watch,
    ) -> (Vec<(u32, State)>, Vec<u32>) {
        let (mut pass, mut round) = (start, 0);
        let (mut states, mut candidates) = (Vec::new(), Vec::new());
        while !pass.tied && pass.n0 > 0 && pass.n0 < pass.total {
            let budget = (start.budget as usize - (pass.head - start.head)) as u32;
            if budget == 0 {
                break;
            }
            let next = Pass {
                budget,
                save_in: watch.next_save - round,
                power: watch.power,
                target: watch.target,
                tops: watch.tops,
                rounds: 0,
                saves: 0,
                ..pass
            };
            let next = blocks.play::<ORDER, true>(piles, next);
            if next.saves > 0 {
                let (at, n0) = (next.saved_head, next.saved_n0);
                watch.power = next.power / 2; // `save` doubles it again
                watch.save(piles, round + next.saved_after, at, n0);
                watch.saves += next.saves - 1;
            }
            (pass, round) = (next, round + next.rounds);
            // (A pass may end on the position it saved: the loop compares only later ones.)
            let on = next.rounds > 0 && pass.n0 > 0 && pass.n0 < pass.total;
            if on && round > watch.last.0 && watched(piles, &watch, pass.head, pass.n0) {
                candidates.push(round);
            }
            if on && round == watch.next_save {
                watch.save(piles, round, pass.head, pass.n0);
            }
            states.push((round, watch.state(pass.head, pass.n0)));
        }
        (states, candidates)
    }

    /// A block pass saves at the rounds of Brent's schedule, where single rounds would, and
    /// stops at every later round that may repeat the position it saved.
    fn saves_as_single_rounds<const ORDER: u8>(blocks: Blocks, rng: &mut Xoshiro256PlusPlus) {
        let mut pick = |low: usize, high: usize| low + (rng.next_u64() as usize) % (high - low + 1);
        // Few ranks, so that positions often show the saved one's tops.
        let ranks = pick(2, 6);
        let total = pick(2, 120);
        let (n0, head) = (pick(1, total - 1), pick(0, 200));
        let budget = pick(0, LINEAR - BLOCK_SLACK - total - head) as u32;
        let mut piles = [[0u8; LINEAR]; 2];
        for card in piles.iter_mut().flatten() {
            *card = pick(1, ranks) as u8;
        }
        let watch = Watch {
            saves: 0,
            last: (0, 0, 0),
            target: pick(1, total - 1),
            tops: [pick(1, ranks) as u8, pick(1, ranks) as u8],
            next_save: pick(1, 40) as u32,
            power: [0, 1, 2, 8][pick(0, 3)],
        };
        let start = Pass::new(head, n0, total, budget, pick(0, 1) == 1, (0, [0; 2]));
        let mut single_piles = piles;
        let (every, candidates) = round_by_round::<ORDER>(&mut single_piles, start, watch);
        let (passes, stops) = by_passes::<ORDER>(blocks, &mut piles, start, watch);
        for (round, state) in &passes {
            assert_eq!(
                *state, every[*round as usize],
                "order {ORDER}, round {round}"
            );
        }
        assert_eq!(stops, candidates, "order {ORDER}");
    }

    #[test]
    #[cfg_attr(
        not(host_ssse3),
        ignore = "this processor lacks SSSE3: the block pass is not used here"
    )]
    fn a_block_pass_saves_and_watches_as_single_rounds_do() {
        let blocks = Blocks::detect().expect("build.rs found SSSE3 and POPCNT on this machine");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
        for _ in 0..3000 {
            saves_as_single_rounds::<HIGH_LOW>(blocks, &mut rng);
            saves_as_single_rounds::<SEATS_DOWN>(blocks, &mut rng);
            saves_as_single_rounds::<NATURAL>(blocks, &mut rng);
        }
    }
}
