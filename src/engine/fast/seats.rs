//! Runs of plain rounds for a table of a known number of players (three or four) under the
//! table or natural pickup order, with cards that are their ranks: the piles' heads (one count
//! of rounds for all) and ends (16-bit lanes of one word) are kept in registers for the whole
//! run and written back once at its end. `many.rs` plays every other round (wars, the last
//! card of a player, the cycle watch's comparisons) and a test checks that both play the same
//! games.
//!
//! Why a run of its own: with each pile's head and size in memory, the winner's pile end was
//! read back at a seat known only at run time right after the round's pops had stored them, a
//! store-to-load wait every round, and the compiler could not keep them in registers across
//! the card stores (it cannot tell a card from a pile's size).

use super::many::network_high_first;
use super::seat_blocks::BLOCK;
use crate::engine::card::Card;
use crate::engine::cpu::Blocks;
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
///
/// With `blocks` and no watched position (`target` usize::MAX), byte cards play sixteen
/// rounds at a time (`seat_blocks.rs`).
#[inline(always)]
pub(super) fn plain_run<C: Card, const CAP: usize, const PLAYERS: usize>(
    mut piles: [&mut Pile<C, CAP>; PLAYERS],
    rounds: &mut u32,
    (limit, target): (u32, usize),
    blocks: Option<Blocks>,
) -> RunEnd {
    const { assert!(PLAYERS <= MOST && CAP * (2 + PLAYERS) <= 1 << LANE) };
    debug_assert!(C::RANK_ONLY && PLAYERS >= 2);
    let mut table = Table {
        cards: [std::ptr::null_mut::<C>(); PLAYERS],
        heads: [0; PLAYERS],
        tails: 0,
        played: 0,
    };
    for (i, pile) in piles.iter_mut().enumerate() {
        let (buffer, head, len) = pile.raw();
        (table.cards[i], table.heads[i]) = (buffer.as_mut_ptr(), head);
        table.tails |= ((head + len) as u64) << (LANE * i);
    }
    let left = limit.saturating_sub(*rounds) as usize;
    let end = match blocks {
        Some(blocks) if target == usize::MAX && size_of::<C>() == 1 && CAP >= BLOCK => blocks
            .with_features(
                #[inline(always)]
                || table.run::<CAP, true>(left, target),
            ),
        _ => table.run::<CAP, false>(left, target),
    };
    *rounds += table.played as u32;
    for (i, pile) in piles.into_iter().enumerate() {
        pile.set_raw(table.heads[i] + table.played, table.len(i));
    }
    end
}

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    /// [`plain_run`]'s rounds, up to `left` of them; `BLOCKS`: in blocks (not watching).
    #[inline(always)]
    fn run<const CAP: usize, const BLOCKS: bool>(&mut self, left: usize, target: usize) -> RunEnd {
        let table = self;
        'run: loop {
            if table.played == left {
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
                break RunEnd::LastCard;
            }
            let count = (left - table.played).min(shortest - 1);
            #[cfg(target_arch = "x86_64")]
            if BLOCKS {
                let count = count.min(BLOCK);
                // SAFETY: `plain_run` checked the cards, CAP and the token, and its caller's
                // `with_features` compiles this with SSSE3.
                if unsafe { table.block::<CAP>(count) } < count {
                    break 'run RunEnd::Tie;
                }
                continue;
            }
            // Where the first seat's pile would hold `target` cards, as its tail less the rounds
            // played (its head is `heads[0] + played`).
            let watched = target.wrapping_add(table.heads[0]);
            for _ in 0..count {
                if !table.round::<CAP>() {
                    break 'run RunEnd::Tie;
                }
                if table.tail(0).wrapping_sub(table.played) == watched {
                    break 'run RunEnd::Watched;
                }
            }
        }
    }
}

/// The most players a run plays: their pile ends share a `u64`.
const MOST: usize = 4;
/// Bits of a pile end in [`Table::tails`].
pub(super) const LANE: usize = 16;

/// The piles of a run: seat i's cards are `cards[i]`'s `[heads[i] + played, tail(i))`,
/// indices taken modulo the buffers' size.
///
/// Every pile's head moves by one a round, so one count of rounds serves them all; the pile
/// ends are 16-bit lanes of one word, so the winner's end is a shift away. Both keep the
/// round's state in a few registers: with a head and an end per pile in registers of their
/// own, four players' rounds spilled a dozen values to the stack and reloaded them every round.
pub(super) struct Table<C, const PLAYERS: usize> {
    pub(super) cards: [*mut C; PLAYERS],
    pub(super) heads: [usize; PLAYERS],
    /// Seat i's pile end, unmasked, in bits `LANE * i..LANE * (i + 1)`. A pile end grows by at
    /// most `PLAYERS` a round and a run plays fewer rounds than a pile holds, so a lane stays
    /// below `CAP * (2 + PLAYERS)` (`plain_run` checks that this fits).
    pub(super) tails: u64,
    /// Rounds played in this run.
    pub(super) played: usize,
}

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    #[inline(always)]
    pub(super) fn tail(&self, i: usize) -> usize {
        (self.tails >> (LANE * i)) as u16 as usize
    }

    #[inline(always)]
    fn len(&self, i: usize) -> usize {
        self.tail(i) - self.heads[i] - self.played
    }

    /// Plays a round whose highest card is alone (every pile holds a card); false, with
    /// nothing changed, when the highest cards tie. `CAP` is the buffers' size.
    #[inline(always)]
    fn round<const CAP: usize>(&mut self) -> bool {
        let mask = CAP - 1;
        // SAFETY: the index is masked below CAP, the length of the pile's buffer.
        let mut top: [C; PLAYERS] = std::array::from_fn(|i| unsafe {
            *self.cards[i].add((self.heads[i] + self.played) & mask)
        });
        // A tree of maxima: as a running maximum, the last select became a branch, taken in
        // a quarter of the rounds at random.
        let pair = |a: u8, b: u8| std::hint::select_unpredictable(a > b, a, b);
        let best_rank = match PLAYERS {
            4 => pair(
                pair(top[0].rank(), top[1].rank()),
                pair(top[2].rank(), top[3].rank()),
            ),
            _ => top.iter().fold(0, |best, card| pair(card.rank(), best)),
        };
        // Who holds the highest rank, as bits: a tie when more than one is set.
        let mut holders = 0u32;
        for (i, card) in top.iter().enumerate() {
            holders |= u32::from(card.rank() == best_rank) << i;
        }
        if holders & (holders - 1) != 0 {
            return false;
        }
        let best = holders.trailing_zeros() as usize;
        let (winner, tail) = (self.cards[best % PLAYERS], self.tail(best % PLAYERS));
        network_high_first(&mut top);
        for (k, &card) in top.iter().enumerate() {
            // SAFETY: masked below CAP; the pile has room, the game's cards fit a pile.
            unsafe { *winner.add((tail + k) & mask) = card };
        }
        self.tails += (PLAYERS as u64) << (LANE * best);
        self.played += 1;
        true
    }
}
