//! How tied players lay a war in the table family under each `--war-shortage` rule, and
//! cards-war's ending: the layouts `table.rs`'s `settle` calls once it knows who fights.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{PileGame, Play, RoundEnd, SEATS, Step};
use crate::engine::rules::Rules;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// The `Lose` layout: each fighter puts `face_down` cards down and one up; one who runs
    /// short drops out (its cards stay in). Returns how many face-up cards are on `table`.
    pub(super) fn lay_or_drop_out<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        fighters: &[Play<C>],
        table: &mut [Play<C>; SEATS],
    ) -> usize {
        let mut still_in = [true; SEATS];
        for (i, f) in fighters.iter().enumerate() {
            for _ in 0..rules.face_down {
                match self.draw(f.seat as usize, rng) {
                    Some(card) => self.log_play(card, f.seat as usize),
                    None => {
                        still_in[i] = false;
                        break;
                    }
                }
            }
        }
        self.close_segment(Step::FaceDown);
        let mut n = 0;
        for (i, f) in fighters.iter().enumerate() {
            if still_in[i]
                && let Some(card) = self.draw(f.seat as usize, rng)
            {
                self.log_play(card, f.seat as usize);
                table[n] = Play { card, seat: f.seat };
                n += 1;
            }
        }
        self.close_segment(Step::FaceUp);
        n
    }

    /// How many cards each fighter can lay: what it holds, at most `layout`.
    pub(super) fn layable(&self, fighters: &[Play<C>], layout: usize) -> [usize; SEATS] {
        let mut counts = [0usize; SEATS];
        for (count, f) in counts.iter_mut().zip(fighters) {
            *count = self.holding(f.seat as usize).min(layout);
        }
        counts
    }

    /// kbWar's layout when two or more tied players hold cards: each puts down up to `layout`
    /// − 1 of them, all but its last card if it has fewer, then one face up; a player with none
    /// drops out. Returns how many face-up cards are on `table`.
    pub(super) fn lay_what_you_have<R: GameRandom>(
        &mut self,
        rng: &mut R,
        fighters: &[Play<C>],
        layout: usize,
        table: &mut [Play<C>; SEATS],
    ) -> usize {
        let counts = self.layable(fighters, layout);
        self.lay(rng, fighters, &counts, table);
        // `lay` keeps a player with none on its tied card; in kbWar it is out of the war.
        let mut n = 0;
        for i in 0..fighters.len() {
            if counts[i] > 0 {
                table[n] = table[i];
                n += 1;
            }
        }
        n
    }

    /// Each fighter i puts `counts[i]` cards down, the last face up; with none, its tied card
    /// stays its face-up card. The fighters' face-up cards replace `table[..fighters.len()]`.
    pub(super) fn lay<R: GameRandom>(
        &mut self,
        rng: &mut R,
        fighters: &[Play<C>],
        counts: &[usize; SEATS],
        table: &mut [Play<C>; SEATS],
    ) {
        for (f, &count) in fighters.iter().zip(counts) {
            for _ in 1..count {
                let card = self
                    .draw(f.seat as usize, rng)
                    .expect("counted cards are there");
                self.log_play(card, f.seat as usize);
            }
        }
        self.close_segment(Step::FaceDown);
        for (i, (f, &count)) in fighters.iter().zip(counts).enumerate() {
            table[i] = if count == 0 {
                *f
            } else {
                let card = self
                    .draw(f.seat as usize, rng)
                    .expect("counted cards are there");
                self.log_play(card, f.seat as usize);
                Play { card, seat: f.seat }
            };
        }
        self.close_segment(Step::FaceUp);
    }

    /// cards-war's ending: the larger hand (the first seat on equal hands) takes the round,
    /// which leaves the smaller hand with nothing.
    pub(super) fn short_tie<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        fighters: &[Play<C>],
    ) -> RoundEnd {
        let mut best = fighters[0].seat as usize;
        for f in &fighters[1..] {
            if self.holding(f.seat as usize) > self.holding(best) {
                best = f.seat as usize;
            }
        }
        self.give_round(rules, rng, best);
        RoundEnd::ShortTie
    }
}
