//! Runs of plain rounds for a table of a known number of players (three or four) under the
//! table or natural pickup order, with cards that are their ranks: the piles' heads and ends
//! are kept in registers for the whole run and written back once at its end. `many.rs` plays
//! every other round (wars, the last card of a player, the cycle watch's comparisons) and a
//! test checks that both play the same games.
//!
//! Why a run of its own: with each pile's head and size in memory, the winner's pile end was
//! read back at a seat known only at run time right after the round's pops had stored them, a
//! store-to-load wait every round, and the compiler could not keep them in registers across
//! the card stores (it cannot tell a card from a pile's size).

use super::many::network_high_first;
use crate::engine::card::Card;
use crate::engine::pile::Pile;

/// Why a run of plain rounds stopped; the piles are written back in every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RunEnd {
    /// At the round limit.
    Limit,
    /// The next round's highest cards tie: nothing of it played.
    Tie,
    /// A player laid its last card in the run's last round.
    LastCard,
    /// The first seat holds the watched number of cards: the position may be the saved one.
    Watched,
}

/// Plays plain rounds on `piles` (the table's seats in order) until the round limit, a round
/// whose highest cards tie (not played), a round in which someone laid their last card, or a
/// round that leaves the first seat with `target` cards. The winner of a round takes its
/// cards highest first, as the general path's table order gives them. Returns why it
/// stopped; `rounds` counts the rounds played.
#[inline(always)]
pub(super) fn plain_run<C: Card, const CAP: usize, const PLAYERS: usize>(
    mut piles: [&mut Pile<C, CAP>; PLAYERS],
    rounds: &mut u32,
    limit: u32,
    target: usize,
) -> RunEnd {
    debug_assert!(C::RANK_ONLY && PLAYERS >= 2);
    let mut table = Table {
        cards: [std::ptr::null_mut::<C>(); PLAYERS],
        heads: [0; PLAYERS],
        tails: [0; PLAYERS],
    };
    for (i, pile) in piles.iter_mut().enumerate() {
        let (buffer, head, len) = pile.raw();
        (table.cards[i], table.heads[i]) = (buffer.as_mut_ptr(), head);
        table.tails[i] = head + len;
    }
    let end = 'run: loop {
        let left = limit.saturating_sub(*rounds) as usize;
        if left == 0 {
            break RunEnd::Limit;
        }
        // Every pile loses at most a card a round: for one round less than the shortest pile
        // holds, nobody lays their last card, and those rounds need not look.
        let shortest = (0..PLAYERS).map(|i| table.len(i)).min().unwrap_or(0);
        debug_assert!(shortest > 0, "an active seat holds cards");
        if shortest <= 1 {
            // Someone lays their last card.
            if !table.round::<CAP>() {
                break RunEnd::Tie;
            }
            *rounds += 1;
            break RunEnd::LastCard;
        }
        for _ in 0..left.min(shortest - 1) {
            if !table.round::<CAP>() {
                break 'run RunEnd::Tie;
            }
            *rounds += 1;
            if table.len(0) == target {
                break 'run RunEnd::Watched;
            }
        }
    };
    for (i, pile) in piles.into_iter().enumerate() {
        pile.set_raw(table.heads[i], table.len(i));
    }
    end
}

/// The piles of a run: seat i's cards are `cards[i]`'s `[heads[i], tails[i])`, indices taken
/// modulo the buffers' size.
struct Table<C, const PLAYERS: usize> {
    cards: [*mut C; PLAYERS],
    heads: [usize; PLAYERS],
    tails: [usize; PLAYERS],
}

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    #[inline(always)]
    fn len(&self, i: usize) -> usize {
        self.tails[i] - self.heads[i]
    }

    /// Plays a round whose highest card is alone (every pile holds a card); false, with
    /// nothing changed, when the highest cards tie. `CAP` is the buffers' size.
    #[inline(always)]
    fn round<const CAP: usize>(&mut self) -> bool {
        let mask = CAP - 1;
        // The highest rank and who holds it as `many.rs`'s loop finds them; its copy reads the
        // ring-buffer piles in the same loop (apart, with 5+ players, cost 4% of the time).
        let mut top = [C::default(); PLAYERS];
        let mut best_rank = 0;
        for (i, card) in top.iter_mut().enumerate() {
            // SAFETY: the index is masked below CAP, the length of the pile's buffer.
            *card = unsafe { *self.cards[i].add(self.heads[i] & mask) };
            let rank = card.rank();
            best_rank = std::hint::select_unpredictable(rank > best_rank, rank, best_rank);
        }
        let (mut holders, mut best) = (0, 0);
        for (i, card) in top.iter().enumerate() {
            let holds = usize::from(card.rank() == best_rank);
            holders += holds;
            best += i * holds;
        }
        if holders > 1 {
            return false;
        }
        // The winner's buffer and pile end, selected: the winner is random.
        let (mut winner, mut tail) = (self.cards[0], self.tails[0]);
        for i in 1..PLAYERS {
            let wins = i == best;
            winner = std::hint::select_unpredictable(wins, self.cards[i], winner);
            tail = std::hint::select_unpredictable(wins, self.tails[i], tail);
        }
        network_high_first(&mut top);
        for (k, &card) in top.iter().enumerate() {
            // SAFETY: masked below CAP; the pile has room, the game's cards fit a pile.
            unsafe { *winner.add((tail + k) & mask) = card };
        }
        for i in 0..PLAYERS {
            self.heads[i] += 1;
            self.tails[i] += PLAYERS * usize::from(i == best);
        }
        true
    }
}
