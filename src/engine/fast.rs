//! The fast path of the table family: plain two-player rounds in a tight loop over local
//! copies of both rings, with head and tail in registers and the winner chosen without a
//! branch; one-step wars settled in place. Everything else goes through `table.rs`'s general
//! path, and a test checks that both give the same games.

use super::random::GameRandom;

use super::GameRecord;
use super::card::Card;
use super::game::{PileGame, RoundEnd, sort_high_first};
use super::rules::{Pickup, Rules};

/// The orders of a plain two-player round's cards under the winner's pile.
const HIGH_LOW: u8 = 0;
const LOW_HIGH: u8 = 1;
const SEATS_UP: u8 = 2;
const SEATS_DOWN: u8 = 3;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays plain two-player rounds with both piles' indices in registers, until a war, the
    /// end of the game or round `limit`; wars go through the general [`PileGame::settle`].
    /// Only for rules with nothing random after the deal and the piles under-pile (the caller
    /// checks). Returns how the last round ended (at the limit: a plain round).
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
        // Local copies of both rings: nothing else can alias them, so head and tail stay in
        // registers. They go back to the piles whenever the loop hands over.
        let mut rings = [*self.piles[seats[0]].ring(), *self.piles[seats[1]].ring()];
        // Head and tail of each ring as scalars: indexing arrays by the winner would keep
        // them in memory.
        let (mut h0, n0) = self.piles[seats[0]].head_len();
        let (mut h1, n1) = self.piles[seats[1]].head_len();
        let (mut t0, mut t1) = (h0 + n0, h1 + n1);
        let mask = CAP - 1;
        let layout = rules.face_down as usize + 1;
        let mut rounds = record.rounds;
        let end = loop {
            if rounds == limit {
                break RoundEnd::Plain;
            }
            rounds += 1;
            let a = rings[0][h0 & mask];
            let b = rings[1][h1 & mask];
            h0 += 1;
            h1 += 1;
            if a.rank() == b.rank() {
                let (mut head, mut tail) = ([h0, h1], [t0, t1]);
                let won = self.single_war(rules, &mut rings, &mut head, &mut tail, layout);
                [h0, h1] = head;
                [t0, t1] = tail;
                if won.is_some() {
                    record.wars += 1;
                    record.longest_war = record.longest_war.max(1);
                    if h0 == t0 || h1 == t1 {
                        break RoundEnd::Taken;
                    }
                    continue;
                }
                // A war that chains or finds a player short: the general path settles it.
                self.store_rings(seats, &rings, [h0, h1], [t0, t1]);
                record.rounds = rounds;
                let end = self.war_after_tie(rules, rng, (a, seats[0]), (b, seats[1]));
                record.wars += self.ties;
                record.longest_war = record.longest_war.max(self.chain);
                return end;
            }
            // Branch-free: the winner is an index, the order a select on loop-invariant ORDER.
            let b_wins = b.rank() > a.rank();
            let winner = usize::from(b_wins);
            let (high, low) = if b_wins { (b, a) } else { (a, b) };
            let (first, second) = match ORDER {
                HIGH_LOW => (high, low),
                LOW_HIGH => (low, high),
                SEATS_UP => (a, b),
                _ => (b, a),
            };
            let t = if b_wins { t1 } else { t0 };
            rings[winner][t & mask] = first;
            rings[winner][(t + 1) & mask] = second;
            t0 += 2 - 2 * winner;
            t1 += 2 * winner;
            if h0 == t0 || h1 == t1 {
                break RoundEnd::Taken;
            }
        };
        self.store_rings(seats, &rings, [h0, h1], [t0, t1]);
        record.rounds = rounds;
        end
    }

    /// Hands the local rings of [`PileGame::fast_rounds_in`] back to the piles.
    #[inline(always)]
    fn store_rings(
        &mut self,
        seats: [usize; 2],
        rings: &[[C; CAP]; 2],
        head: [usize; 2],
        tail: [usize; 2],
    ) {
        for j in 0..2 {
            *self.piles[seats[j]].ring_mut() = rings[j];
            self.piles[seats[j]].set_raw(head[j], tail[j] - head[j]);
        }
    }

    /// Settles, on the local rings, a war of one step: when both players can lay the full
    /// layout and their face-up cards differ (most wars). Then every shortage rule agrees, and
    /// the won cards go under the winner's pile in the order the general path would give.
    /// Returns the winner (0 or 1), or `None` (nothing touched) for the general path.
    /// Out of line, so that the plain-round loop keeps its registers.
    #[inline(never)]
    fn single_war(
        &mut self,
        rules: &Rules,
        rings: &mut [[C; CAP]; 2],
        head: &mut [usize; 2],
        tail: &mut [usize; 2],
        layout: usize,
    ) -> Option<usize> {
        let mask = CAP - 1;
        if tail[0] - head[0] < layout || tail[1] - head[1] < layout {
            return None;
        }
        let up = [
            rings[0][(head[0] + layout - 1) & mask],
            rings[1][(head[1] + layout - 1) & mask],
        ];
        if up[0].rank() == up[1].rank() {
            return None;
        }
        let winner = usize::from(up[1].rank() > up[0].rank());
        if layout == 2 && rules.pickup == Pickup::Table {
            // Classic's war, straight-line: the tied pair, the two face-down cards highest first
            // (seat 1's first on equal ranks), the face-up cards highest first.
            let (tied0, tied1) = (
                rings[0][(head[0] - 1) & mask],
                rings[1][(head[1] - 1) & mask],
            );
            let (down0, down1) = (rings[0][head[0] & mask], rings[1][head[1] & mask]);
            let (high, low) = if down1.rank() > down0.rank() {
                (down1, down0)
            } else {
                (down0, down1)
            };
            let won = [tied0, tied1, high, low, up[winner], up[1 - winner]];
            head[0] += 2;
            head[1] += 2;
            let t = tail[winner];
            for (i, &card) in won.iter().enumerate() {
                rings[winner][(t + i) & mask] = card;
            }
            tail[winner] = t + 6;
            return Some(winner);
        }
        // Player j played 1 + layout cards, in play order from ring position head[j] - 1.
        let played = |j: usize, k: usize| rings[j][(head[j] - 1 + k) & mask];
        let per_player = 1 + layout;
        let mut n = 0;
        let mut put = |card: C, scratch: &mut [C; CAP]| {
            scratch[n] = card;
            n += 1;
        };
        match rules.pickup {
            Pickup::Table => {
                // The tied cards (seat order), the face-down cards highest first (stable),
                // then the face-up cards highest first.
                put(played(0, 0), &mut self.scratch);
                put(played(1, 0), &mut self.scratch);
                let down_start = 2;
                for j in 0..2 {
                    for k in 1..layout {
                        put(played(j, k), &mut self.scratch);
                    }
                }
                let down = &mut self.scratch[down_start..down_start + 2 * (layout - 1)];
                sort_high_first(down, |c| c.rank());
                put(up[winner], &mut self.scratch);
                put(up[1 - winner], &mut self.scratch);
            }
            pickup => {
                let order = match pickup {
                    Pickup::WinnerFirst => [winner, 1 - winner],
                    Pickup::LoserFirst => [1 - winner, winner],
                    Pickup::Seats => [0, 1],
                    _ => [1, 0],
                };
                for j in order {
                    for k in 0..per_player {
                        put(played(j, k), &mut self.scratch);
                    }
                }
            }
        }
        debug_assert_eq!(n, 2 * per_player);
        head[0] += layout;
        head[1] += layout;
        let t = tail[winner];
        for (i, &card) in self.scratch[..n].iter().enumerate() {
            rings[winner][(t + i) & mask] = card;
        }
        tail[winner] = t + n;
        Some(winner)
    }
}
