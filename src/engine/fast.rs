//! The fast path of the table family: plain two-player rounds and one-step wars in a tight loop
//! over two linear copies of the piles. Everything else goes through `table.rs`'s general path,
//! and a test checks that both give the same games.
//!
//! Both players lay the same number of cards in every round of a two-player game, so one index
//! is the top of both piles: pile j is `linear[j][head..head + n_j]`. Won cards are written past
//! the winner's last card; a plain round writes its two cards past *both* piles' ends and keeps
//! only the winner's (the loser's copy lands in free space), so the round has no branch on who
//! won. When the head nears the end of the buffers, both piles move back to the start.

use super::GameRecord;
use super::card::Card;
use super::game::{PileGame, RoundEnd, sort_high_first};
use super::random::GameRandom;
use super::rules::{MAX_CARDS, Pickup, Rules};

/// Cards in each linear pile buffer: the largest deck, room for the head to advance about a
/// thousand rounds between moves, and a margin for the cards a round writes.
pub(super) const LINEAR: usize = 2 * MAX_CARDS as usize + 64;

/// The orders of a plain two-player round's cards under the winner's pile.
const HIGH_LOW: u8 = 0;
const LOW_HIGH: u8 = 1;
const SEATS_UP: u8 = 2;
const SEATS_DOWN: u8 = 3;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays plain two-player rounds and one-step wars until another war, the end of the game
    /// or round `limit`; other wars go through the general [`PileGame::settle`]. Only for rules
    /// with nothing random in a round and the piles under-pile, up to the next reshuffle (the
    /// caller checks and sets `limit`). Returns how the last round ended (at the limit: a plain
    /// round).
    #[inline(always)]
    pub(super) fn fast_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        match rules.pickup {
            Pickup::Table | Pickup::WinnerFirst => {
                self.fast_rounds_in::<HIGH_LOW, R>(rules, rng, record, limit)
            }
            Pickup::LoserFirst => self.fast_rounds_in::<LOW_HIGH, R>(rules, rng, record, limit),
            Pickup::Seats => self.fast_rounds_in::<SEATS_UP, R>(rules, rng, record, limit),
            Pickup::ReverseSeats | Pickup::Shuffled => {
                self.fast_rounds_in::<SEATS_DOWN, R>(rules, rng, record, limit)
            }
        }
    }

    #[inline(always)]
    fn fast_rounds_in<const ORDER: u8, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(rules.pickup != Pickup::Shuffled && self.active_len == 2 && !self.trace);
        let seats = [self.active[0] as usize, self.active[1] as usize];
        let mut n0 = self.piles[seats[0]].len();
        let total = n0 + self.piles[seats[1]].len();
        for (j, &seat) in seats.iter().enumerate() {
            self.piles[seat].copy_to(&mut self.linear[j]);
        }
        let mut head = 0;
        let layout = rules.face_down as usize + 1;
        let mut rounds = record.rounds;
        let end = loop {
            if head + total + 2 >= LINEAR {
                head = self.move_to_start(head, [n0, total - n0]);
            }
            // Plain rounds this pass may play: each moves the head by one and writes at most
            // two cards past head + total, which must stay inside the buffers.
            let budget = (limit - rounds).min((LINEAR - 2 - total - head) as u32);
            if budget == 0 {
                break RoundEnd::Plain;
            }
            // A plain round moves one card between the piles, so nobody can run out within
            // the smaller pile's size: those rounds need no check for the end of the game.
            let budget = budget.min(n0.min(total - n0) as u32);
            let [pile0, pile1] = &mut self.linear;
            let mut tied = false;
            for _ in 0..budget {
                debug_assert!(head + total + 2 <= LINEAR && n0 > 0 && n0 < total);
                // SAFETY: head + n < head + total and head + total + 2 <= LINEAR (the budget),
                // so every index below is inside the buffers.
                let (a, b) = unsafe { (*pile0.get_unchecked(head), *pile1.get_unchecked(head)) };
                if a.rank() == b.rank() {
                    tied = true;
                    break;
                }
                // Branch-free: the order is a select on loop-invariant ORDER, and both piles
                // get the cards.
                let b_wins = b.rank() > a.rank();
                let (high, low) = if b_wins { (b, a) } else { (a, b) };
                let (first, second) = match ORDER {
                    HIGH_LOW => (high, low),
                    LOW_HIGH => (low, high),
                    SEATS_UP => (a, b),
                    _ => (b, a),
                };
                let (end0, end1) = (head + n0, head + total - n0);
                unsafe {
                    let slot0 = pile0.get_unchecked_mut(end0..end0 + 2);
                    C::write_pair(&mut *slot0.as_mut_ptr().cast(), first, second);
                    let slot1 = pile1.get_unchecked_mut(end1..end1 + 2);
                    C::write_pair(&mut *slot1.as_mut_ptr().cast(), first, second);
                }
                n0 = n0 + 1 - 2 * usize::from(b_wins);
                head += 1;
                rounds += 1;
            }
            if n0 == 0 || n0 == total {
                break RoundEnd::Taken;
            }
            if !tied {
                continue;
            }
            rounds += 1;
            let counts = [n0, total - n0];
            if head + total + 1 + layout > LINEAR {
                // The war's cards end up to 1 + layout past head + total.
                head = self.move_to_start(head, counts);
            }
            if let Some(winner) = self.single_war(rules, head, counts, layout) {
                record.wars += 1;
                record.longest_war = record.longest_war.max(1);
                // The winner gains the loser's 1 + layout cards.
                n0 = if winner == 0 {
                    n0 + 1 + layout
                } else {
                    n0 - 1 - layout
                };
                head += 1 + layout;
                if n0 == 0 || n0 == total {
                    break RoundEnd::Taken;
                }
                continue;
            }
            // A war that chains or finds a player short: the general path settles it, from
            // piles without the tied cards.
            let (a, b) = (self.linear[0][head], self.linear[1][head]);
            self.store_linear(seats, head + 1, [n0 - 1, total - n0 - 1]);
            record.rounds = rounds;
            let end = self.war_after_tie(rules, rng, (a, seats[0]), (b, seats[1]));
            record.wars += self.ties;
            record.longest_war = record.longest_war.max(self.chain);
            return end;
        };
        self.store_linear(seats, head, [n0, total - n0]);
        record.rounds = rounds;
        end
    }

    /// Moves both linear piles to the start of their buffers; returns the new head, 0.
    #[inline(never)]
    fn move_to_start(&mut self, head: usize, counts: [usize; 2]) -> usize {
        for (pile, count) in self.linear.iter_mut().zip(counts) {
            pile.copy_within(head..head + count, 0);
        }
        0
    }

    /// Hands the linear piles of [`PileGame::fast_rounds_in`] back to the seats' piles.
    #[inline(always)]
    fn store_linear(&mut self, seats: [usize; 2], head: usize, counts: [usize; 2]) {
        for j in 0..2 {
            self.piles[seats[j]].set(&self.linear[j][head..head + counts[j]]);
        }
    }

    /// Settles, on the linear piles, a war of one step whose tied cards sit at `head`, when
    /// both players can lay the full layout after them and their face-up cards differ (most
    /// wars). Then every shortage rule agrees, and the won cards go under the winner's pile in
    /// the order the general path would give. `counts` are the piles' sizes with the tied
    /// cards. Returns the winner (0 or 1), or `None` (nothing touched) for the general path.
    /// Out of line, so that the plain-round loop keeps its registers.
    #[inline(never)]
    fn single_war(
        &mut self,
        rules: &Rules,
        head: usize,
        counts: [usize; 2],
        layout: usize,
    ) -> Option<usize> {
        let per_player = 1 + layout;
        if counts[0] < per_player || counts[1] < per_player {
            return None;
        }
        let up = [self.linear[0][head + layout], self.linear[1][head + layout]];
        if up[0].rank() == up[1].rank() {
            return None;
        }
        let winner = usize::from(up[1].rank() > up[0].rank());
        // Won cards go right after the winner's last card.
        let end = head + counts[winner];
        if layout == 2 && rules.pickup == Pickup::Table {
            // Classic's war, straight-line: the tied pair, the two face-down cards highest first
            // (seat 1's first on equal ranks), the face-up cards highest first.
            let (down0, down1) = (self.linear[0][head + 1], self.linear[1][head + 1]);
            let (high, low) = if down1.rank() > down0.rank() {
                (down1, down0)
            } else {
                (down0, down1)
            };
            let won = [
                self.linear[0][head],
                self.linear[1][head],
                high,
                low,
                up[winner],
                up[1 - winner],
            ];
            self.linear[winner][end..end + 6].copy_from_slice(&won);
            return Some(winner);
        }
        // Player j played 1 + layout cards, in play order from `head`.
        let mut n = 0;
        match rules.pickup {
            Pickup::Table => {
                // The tied cards (seat order), the face-down cards highest first (stable),
                // then the face-up cards highest first.
                self.scratch[0] = self.linear[0][head];
                self.scratch[1] = self.linear[1][head];
                n = 2;
                for j in 0..2 {
                    let down = &self.linear[j][head + 1..head + layout];
                    self.scratch[n..n + down.len()].copy_from_slice(down);
                    n += down.len();
                }
                sort_high_first(&mut self.scratch[2..n], |c| c.rank());
                self.scratch[n] = up[winner];
                self.scratch[n + 1] = up[1 - winner];
                n += 2;
            }
            pickup => {
                let order = match pickup {
                    Pickup::WinnerFirst => [winner, 1 - winner],
                    Pickup::LoserFirst => [1 - winner, winner],
                    Pickup::Seats => [0, 1],
                    _ => [1, 0],
                };
                for j in order {
                    let played = &self.linear[j][head..head + per_player];
                    self.scratch[n..n + per_player].copy_from_slice(played);
                    n += per_player;
                }
            }
        }
        debug_assert_eq!(n, 2 * per_player);
        let (scratch, linear) = (&self.scratch, &mut self.linear);
        linear[winner][end..end + n].copy_from_slice(&scratch[..n]);
        Some(winner)
    }
}
