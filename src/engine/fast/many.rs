//! The fast path of the table family for three or more players: a round whose highest card is
//! alone is played straight on the piles, without the round log and its segments, sorting only
//! the cards won. A round whose highest cards tie is a war: under the table pickup order, a war
//! that one layout decides with nobody short is played here too; every other war goes to the
//! general path (`families/table.rs`). A test checks that both paths play the same games.

use super::seats::{MOST_LAYOUT, RunEnd, RunRules, plain_run};
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
    pub(in crate::engine) fn many_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        // The common tables get a loop of their own, unrolled for their number of players.
        match self.active_len {
            3 => self.seated_rounds::<3, R>(rules, rng, record, limit),
            4 => self.seated_rounds::<4, R>(rules, rng, record, limit),
            _ => self.seated_rounds::<0, R>(rules, rng, record, limit),
        }
    }

    /// [`PileGame::many_rounds`] for `PLAYERS` players (0: any number).
    #[inline(never)]
    fn seated_rounds<const PLAYERS: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(self.active_len > 2 && rules.deterministic_rounds() && !self.trace);
        debug_assert!(PLAYERS == 0 || PLAYERS == self.active_len);
        let n = if PLAYERS == 0 {
            self.active_len
        } else {
            PLAYERS
        };
        let seats = self.active;
        // As indices below SEATS (they are), so the loop checks no bounds.
        let at = seats.map(|seat| usize::from(seat) % SEATS);
        // The cycle watch compares whole positions only where the first seat holds as many
        // cards as in the saved one (usize::MAX: nothing watched).
        let target = self.watch_target();
        // The cycle watch's saves are made by the caller.
        let limit = limit.min(self.next_save());
        let mut top = [C::default(); SEATS];
        // A plain round of the natural order is a single table, highest first, as the table
        // order's; its wars are the general path's.
        let table = matches!(rules.pickup, Pickup::Table | Pickup::Natural);
        let table_wars = rules.pickup == Pickup::Table;
        let layout = rules.face_down as usize + 1;
        let run_rules = RunRules {
            limit,
            target,
            blocks: self.blocks,
            war_layout: (table_wars && layout <= MOST_LAYOUT).then_some(layout),
        };
        while record.rounds < limit {
            if PLAYERS > 0 && C::RANK_ONLY && table {
                // Plain rounds in a run of their own; the round that stops it, if a tie, below.
                let Ok(piles) = self.piles.get_disjoint_mut(std::array::from_fn(|i| at[i])) else {
                    unreachable!("the active seats are distinct")
                };
                let end = plain_run::<C, CAP, PLAYERS>(piles, (record, &mut self.laid), run_rules);
                match end {
                    RunEnd::Limit => break,
                    RunEnd::LastCard => return RoundEnd::Taken,
                    RunEnd::Watched if self.same_as_saved() => return RoundEnd::Cycle,
                    RunEnd::Watched => continue,
                    RunEnd::Tie => {}
                }
            }
            // The highest rank, how many hold it, whose it is (when one does), and whether
            // anyone plays their last card, with selects marked unpredictable and arithmetic
            // (the ranks are random; plain selects of a running maximum became branches).
            let mut best_rank = 0;
            let mut last_card = false;
            for i in 0..n {
                let pile = &self.piles[at[i]];
                top[i] = pile.top();
                let rank = top[i].rank();
                best_rank = std::hint::select_unpredictable(rank > best_rank, rank, best_rank);
                last_card |= pile.len() == 1;
            }
            let (mut holders, mut best) = (0, 0);
            for (i, card) in top[..n].iter().enumerate() {
                let holds = usize::from(card.rank() == best_rank);
                holders += holds;
                best += i * holds;
            }
            let tie = holders > 1;
            record.rounds += 1;
            if tie {
                let war = match table_wars {
                    true => self.table_war::<PLAYERS>(rules, &at[..n], &top[..n], best_rank),
                    false => None,
                };
                let Some(fighter_out) = war else {
                    return self.round(rules, rng, record);
                };
                record.add_wars(1, 1);
                last_card |= fighter_out;
            } else {
                for &seat in &at[..n] {
                    self.piles[seat].pop();
                }
                // The order the general path gives a round without a war: the table's cards
                // highest first (seat order on equal ranks), or by seat (see `give_round`).
                // The table order tested apart: a jump table here cost a jump a round.
                if table {
                    if PLAYERS > 0 && C::RANK_ONLY {
                        network_high_first(&mut top[..PLAYERS]);
                    } else if n <= FEW {
                        place_high_first(&mut top[..n]);
                    } else {
                        sort_high_first(&mut top[..n], |c| c.rank());
                    }
                } else {
                    match rules.pickup {
                        Pickup::Table | Pickup::Natural => {
                            unreachable!("the table order is tested first")
                        }
                        Pickup::WinnerFirst => top[..=best].rotate_right(1),
                        Pickup::LoserFirst => top[best..n].rotate_left(1),
                        Pickup::Seats | Pickup::Alternating => {}
                        Pickup::ReverseSeats | Pickup::Shuffled | Pickup::Reversed => {
                            top[..n].reverse()
                        }
                    }
                }
                self.piles[at[best] % SEATS].extend(&top[..n]);
                self.laid += n as u64;
            }
            if last_card {
                // Someone may be out: the caller drops empty seats (and checks the watch).
                return RoundEnd::Taken;
            }
            if self.piles[at[0]].len() == target && self.same_as_saved() {
                return RoundEnd::Cycle;
            }
        }
        RoundEnd::Plain
    }

    /// Settles the common war of a round whose `shown` cards (of the seats at `at`, still on
    /// the piles) tie at `top_rank`, under the table pickup order, if it is one: every fighter
    /// holds a whole layout after its shown card and the face-up cards have a single highest,
    /// so one war decides the round and no shortage rule applies. The winner takes the shown
    /// cards, the face-down cards and the face-up cards, each group highest first (seat order
    /// on equal ranks), as the general path's segments give them. Returns whether a fighter
    /// laid its last card; None, with nothing changed, for any other war. Selects, not
    /// branches, wherever the ranks decide (they are random).
    #[inline(never)]
    fn table_war<const PLAYERS: usize>(
        &mut self,
        rules: &Rules,
        at: &[usize],
        shown: &[C],
        top_rank: u8,
    ) -> Option<bool> {
        let layout = rules.face_down as usize + 1;
        // A known number of players unrolls the loops over the table.
        let n = if PLAYERS == 0 { shown.len() } else { PLAYERS };
        let (at, shown) = (&at[..n], &shown[..n]);
        // Seats as indices below SEATS (they are), so no access checks bounds; a byte each,
        // so the list is cheap to clear.
        let pile = |seat: u8| usize::from(seat) % SEATS;
        let (mut fighters, mut count) = ([0u8; SEATS], 0);
        let (mut short, mut out) = (false, false);
        for (&seat, card) in at.iter().zip(shown) {
            let fights = card.rank() == top_rank;
            fighters[count] = seat as u8;
            count += usize::from(fights);
            let held = self.piles[seat % SEATS].len();
            short |= fights & (held <= layout);
            out |= fights & (held == layout + 1);
        }
        if short {
            return None;
        }
        let fighters = &fighters[..count];
        // The cards won, in place: shown, face-down, face-up.
        let up = n + count * (layout - 1);
        for (i, &seat) in fighters.iter().enumerate() {
            self.scratch[up + i] = self.piles[pile(seat)].peek(layout);
        }
        let face_up = &self.scratch[up..up + count];
        let (mut winner, mut best, mut tied) = (fighters[0], face_up[0].rank(), false);
        for (&seat, card) in fighters.iter().zip(face_up).skip(1) {
            let higher = card.rank() > best;
            tied = (tied | (card.rank() == best)) & !higher;
            winner = std::hint::select_unpredictable(higher, seat, winner);
            best = best.max(card.rank());
        }
        if tied {
            return None;
        }
        self.scratch[..n].copy_from_slice(shown);
        if PLAYERS > 0 && C::RANK_ONLY {
            network_high_first(&mut self.scratch[..PLAYERS]);
        } else {
            order_high_first(&mut self.scratch[..n]);
        }
        let mut won = n;
        for &seat in fighters {
            for depth in 1..layout {
                self.scratch[won] = self.piles[pile(seat)].peek(depth);
                won += 1;
            }
        }
        debug_assert_eq!(won, up);
        order_high_first(&mut self.scratch[n..up]);
        order_high_first(&mut self.scratch[up..up + count]);
        let won = up + count;
        for &seat in at {
            self.piles[seat % SEATS].pop();
        }
        for &seat in fighters {
            self.piles[pile(seat)].discard(layout);
        }
        self.piles[pile(winner)].extend(&self.scratch[..won]);
        self.laid += won as u64;
        Some(out)
    }
}

/// [`sort_high_first`] by rank, without branches on the ranks for a few cards.
#[inline(always)]
pub(super) fn order_high_first<C: Card>(cards: &mut [C]) {
    if let [a, b] = cards {
        // The usual group of a war: two fighters' cards.
        let swap = a.rank() < b.rank();
        (*a, *b) = (
            std::hint::select_unpredictable(swap, *b, *a),
            std::hint::select_unpredictable(swap, *a, *b),
        );
    } else if cards.len() <= FEW {
        place_high_first(cards);
    } else {
        sort_high_first(cards, |c| c.rank());
    }
}

/// Orders cards that are their ranks alone ([`Card::RANK_ONLY`]) highest first with a
/// network of maxima and minima (the best of five steps for four cards, a bubble network
/// otherwise; `seat_blocks.rs` uses the same five in vectors): for the few cards of a table
/// of known size, no branches and fewer steps than [`place_high_first`]'s counting.
#[inline(always)]
pub(super) fn network_high_first<C: Card>(cards: &mut [C]) {
    debug_assert!(C::RANK_ONLY);
    let n = cards.len();
    let mut order = |i: usize, j: usize| {
        let (a, b) = (cards[i], cards[j]);
        // The compiler's own max and min were branches here, mispredicted.
        let swap = a.rank() < b.rank();
        cards[i] = std::hint::select_unpredictable(swap, b, a);
        cards[j] = std::hint::select_unpredictable(swap, a, b);
    };
    if n == 4 {
        // Five steps instead of the bubble's six (cards that are their ranks have no order
        // among equals to keep).
        for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
            order(i, j);
        }
        return;
    }
    for end in (1..n).rev() {
        for i in 0..end {
            order(i, i + 1);
        }
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
        // The mask drops a bounds check (a place is below the table's size, at most FEW).
        placed[place % FEW] = *card;
    }
    cards.copy_from_slice(&placed[..cards.len()]);
}
