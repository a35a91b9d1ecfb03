//! The common war of three and four players under the table pickup order, settled inside a run
//! of plain rounds (`seats.rs`) instead of ending it: every fighter holds its whole layout
//! after its shown card and the face-up cards have a single highest, so one war decides the
//! round. It is `many.rs`'s `table_war` on the run's registers: leaving the run for it, and
//! setting the run up again after it, cost more than the war itself. Every other war still
//! ends the run, and a test checks that both paths play the same games.

use super::many::{network_high_first, order_high_first};
use super::seats::{LANE, MOST, MOST_LAYOUT, Table};
use crate::engine::card::Card;

/// Room for the cards a war a run settles lays (every player's layout and shown card, at most
/// 20), a power of two so that positions are masked, not checked.
const ROOM: usize = 32;
const _: () = assert!(MOST * (MOST_LAYOUT + 1) <= ROOM);

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    /// Settles the war of the next round, whose highest shown cards tie, if it is the common
    /// one (`layout` cards a fighter after its shown card, at most [`MOST_LAYOUT`]); every pile
    /// holds two cards or more. The winner takes the shown cards, the face-down cards and the
    /// face-up cards, each group highest first, as the general path's segments give them.
    /// Returns whether a fighter laid its last card; None, with nothing changed, for any other
    /// war. Every seat's cards are read and written whether it fights or not, and only the
    /// fighters' kept (selects, not branches: the ranks are random).
    #[inline(always)]
    pub(super) fn war<const CAP: usize>(&mut self, layout: usize) -> Option<bool> {
        debug_assert!((1..=MOST_LAYOUT).contains(&layout));
        let mask = CAP - 1;
        // SAFETY: masked below CAP, the length of the pile's buffer.
        let card = |table: &Self, i: usize, depth: usize| unsafe {
            *table.cards[i].add((table.head(i) + depth) & mask)
        };
        let mut shown: [C; PLAYERS] = std::array::from_fn(|i| card(self, i, 0));
        let top = shown.iter().map(|c| c.rank()).max().unwrap_or(0);
        let fights: [bool; PLAYERS] = std::array::from_fn(|i| shown[i].rank() == top);
        let (mut short, mut out) = (false, false);
        for (i, &fights) in fights.iter().enumerate() {
            let held = self.len(i);
            short |= fights & (held <= layout);
            out |= fights & (held == layout + 1);
        }
        if short {
            return None;
        }
        // The fighters' face-down cards after the shown ones, their face-up cards from the
        // end, in seat order; the highest face-up card wins, unless it ties.
        let mut won = [C::default(); ROOM];
        let (mut down, mut up) = (PLAYERS, ROOM);
        let (mut winner, mut best, mut tied) = (0, 0, false);
        for (i, &fights) in fights.iter().enumerate() {
            for depth in 1..layout {
                won[down % ROOM] = card(self, i, depth);
                down += usize::from(fights);
            }
            let face_up = card(self, i, layout);
            won[(up - 1) % ROOM] = face_up;
            up -= usize::from(fights);
            let rank = face_up.rank() * u8::from(fights);
            let higher = rank > best;
            tied = (tied | (fights & (rank == best))) & !higher;
            winner = std::hint::select_unpredictable(higher, i, winner);
            best = best.max(rank);
        }
        if tied {
            return None;
        }
        network_high_first(&mut shown);
        won[..PLAYERS].copy_from_slice(&shown);
        order_high_first(&mut won[PLAYERS..down]);
        // The face-up cards were put from the end, in reverse seat order: cards that are their
        // ranks have no order among equals, so sorting them is all the general path's order.
        won.copy_within(up.., down);
        let total = down + (ROOM - up);
        order_high_first(&mut won[down..total]);
        let (ring, end) = (self.cards[winner], self.tail(winner));
        for (k, &card) in won[..total].iter().enumerate() {
            // SAFETY: masked below CAP; the pile has room, the game's cards fit a pile.
            unsafe { *ring.add((end + k) & mask) = card };
        }
        self.tails += (total as u64) << (LANE * winner);
        // Every head moves past its shown card (the round), a fighter's past its layout too.
        for (head, &fights) in self.heads.iter_mut().zip(&fights) {
            *head = head.wrapping_add(layout * usize::from(fights));
        }
        self.played += 1;
        self.wars += 1;
        self.war_cards += (total - PLAYERS) as u64;
        Some(out)
    }
}
