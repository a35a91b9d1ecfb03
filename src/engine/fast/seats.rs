//! Runs of plain rounds for a table of a known number of players (three or four) under the
//! table pickup order, with cards that are their ranks: the piles' heads and sizes are kept in
//! registers for the whole run and written back once at its end. `many.rs` plays every other
//! round (wars, the last card of a player, the cycle watch's comparisons) and a test checks
//! that both play the same games.
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
    let mask = CAP - 1;
    let mut cards = [std::ptr::null_mut::<C>(); PLAYERS];
    let (mut heads, mut lens) = ([0usize; PLAYERS], [0usize; PLAYERS]);
    for (i, pile) in piles.iter_mut().enumerate() {
        let (buffer, head, len) = pile.raw();
        (cards[i], heads[i], lens[i]) = (buffer.as_mut_ptr(), head, len);
    }
    let end = loop {
        if *rounds >= limit {
            break RunEnd::Limit;
        }
        let mut top = [C::default(); PLAYERS];
        let (mut best_rank, mut last_card) = (0, false);
        for i in 0..PLAYERS {
            // SAFETY: the index is masked below CAP, the pile's buffer's length.
            top[i] = unsafe { *cards[i].add(heads[i] & mask) };
            let rank = top[i].rank();
            best_rank = std::hint::select_unpredictable(rank > best_rank, rank, best_rank);
            last_card |= lens[i] == 1;
        }
        let (mut holders, mut best) = (0, 0);
        for (i, card) in top.iter().enumerate() {
            let holds = usize::from(card.rank() == best_rank);
            holders += holds;
            best += i * holds;
        }
        if holders > 1 {
            break RunEnd::Tie;
        }
        // The winner's buffer and pile end, selected: the winner is random.
        let (mut winner, mut tail) = (cards[0], heads[0] + lens[0]);
        for i in 1..PLAYERS {
            let wins = i == best;
            winner = std::hint::select_unpredictable(wins, cards[i], winner);
            tail = std::hint::select_unpredictable(wins, heads[i] + lens[i], tail);
        }
        network_high_first(&mut top);
        for (k, &card) in top.iter().enumerate() {
            // SAFETY: masked below CAP; the pile has room, the game's cards fit a pile.
            unsafe { *winner.add((tail + k) & mask) = card };
        }
        for i in 0..PLAYERS {
            heads[i] += 1;
            lens[i] = lens[i] - 1 + PLAYERS * usize::from(i == best);
        }
        *rounds += 1;
        if last_card {
            break RunEnd::LastCard;
        }
        if lens[0] == target {
            break RunEnd::Watched;
        }
    };
    for (i, pile) in piles.into_iter().enumerate() {
        pile.set_raw(heads[i], lens[i]);
    }
    end
}
