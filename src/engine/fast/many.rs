//! The fast path of the table family for three or more players: a round whose highest card is
//! alone is played straight on the piles, without the round log and its segments, sorting only
//! the cards won. A round whose highest cards tie is a war: under the table pickup order, a war
//! that one layout decides with nobody short is played here too; every other war goes to the
//! general path (`families/table.rs`). A test checks that both paths play the same games.

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
                if rules.pickup == Pickup::Table
                    && self.table_war(rules, &seats[..n], &top[..n], best_rank)
                {
                    record.add_wars(1, 1);
                    return RoundEnd::Taken;
                }
                return self.round(rules, rng, record);
            }
            for &seat in &seats[..n] {
                self.piles[seat as usize].pop();
            }
            // The order the general path gives a round without a war: the table's cards
            // highest first (seat order on equal ranks), or by seat (see `give_round`).
            match rules.pickup {
                Pickup::Table if n <= FEW => place_high_first(&mut top[..n]),
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

    /// Settles the common war of a round whose `shown` cards (of `seats`, still on the piles)
    /// tie at `top_rank`, under the table pickup order, if it is one: every fighter holds a
    /// whole layout after its shown card and the face-up cards have a single highest, so one
    /// war decides the round and no shortage rule applies. The winner takes the shown cards,
    /// the face-down cards and the face-up cards, each group highest first (seat order on
    /// equal ranks), as the general path's segments give them. False, with nothing changed,
    /// for any other war.
    #[inline(never)]
    fn table_war(&mut self, rules: &Rules, seats: &[u8], shown: &[C], top_rank: u8) -> bool {
        let layout = rules.face_down as usize + 1;
        let mut fighters = [0usize; SEATS];
        let mut count = 0;
        for (&seat, card) in seats.iter().zip(shown) {
            if card.rank() == top_rank {
                if self.piles[seat as usize].len() <= layout {
                    return false;
                }
                fighters[count] = seat as usize;
                count += 1;
            }
        }
        let fighters = &fighters[..count];
        let (mut winner, mut best, mut tied) = (0, 0, false);
        for (i, &seat) in fighters.iter().enumerate() {
            let rank = self.piles[seat].peek(layout).rank();
            if i == 0 || rank > best {
                (winner, best, tied) = (seat, rank, false);
            } else if rank == best {
                tied = true;
            }
        }
        if tied {
            return false;
        }
        let mut won = 0;
        let mut group = |cards: &mut [C], group: &mut dyn Iterator<Item = C>| {
            let start = won;
            for card in group {
                cards[won] = card;
                won += 1;
            }
            sort_high_first(&mut cards[start..won], |c| c.rank());
        };
        group(&mut self.scratch, &mut shown.iter().copied());
        let piles = &self.piles;
        group(
            &mut self.scratch,
            &mut fighters
                .iter()
                .flat_map(|&seat| (1..layout).map(move |depth| piles[seat].peek(depth))),
        );
        group(
            &mut self.scratch,
            &mut fighters.iter().map(|&seat| piles[seat].peek(layout)),
        );
        for &seat in seats {
            self.piles[seat as usize].pop();
        }
        for &seat in fighters {
            for _ in 0..layout {
                self.piles[seat].pop();
            }
        }
        self.piles[winner].extend(&self.scratch[..won]);
        self.laid += won as u64;
        true
    }
}

/// Tables of at most this many cards are ordered by [`place_high_first`].
const FEW: usize = 8;

/// [`sort_high_first`] by rank for at most [`FEW`] cards, without a branch on the ranks (an
/// insertion sort's were mispredicted on random ranks): each card's place is the number of
/// cards ranked above it plus the equal ones before it, so equal ranks keep their order.
#[inline(always)]
fn place_high_first<C: Card>(cards: &mut [C]) {
    let mut placed = [C::default(); FEW];
    for (i, card) in cards.iter().enumerate() {
        let rank = card.rank();
        let place: usize = cards
            .iter()
            .enumerate()
            .map(|(j, other)| {
                usize::from(other.rank() > rank) + usize::from(j < i && other.rank() == rank)
            })
            .sum();
        placed[place] = *card;
    }
    cards.copy_from_slice(&placed[..cards.len()]);
}
