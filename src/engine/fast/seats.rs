//! Runs of plain rounds for a table of a known number of players (three or four) under the
//! table or natural pickup order, with cards that are their ranks: the piles' heads (one count
//! of rounds for all) and ends (16-bit lanes of one word) are kept in registers for the whole
//! run and written back once at its end. The common war of the table pickup order is settled
//! in the run too (`seat_wars.rs`). `many.rs` plays every other round (other wars, the last
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
use crate::engine::record::GameRecord;

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

/// What a run may play: rounds up to `limit`, stopping where the first seat holds `target`
/// cards (usize::MAX: nothing watched), sixteen at a time where `blocks` (and nothing is
/// watched), and the common war of `war_layout` cards a fighter (Some under the table pickup
/// order, for layouts of at most [`MOST_LAYOUT`]; None: a tie ends the run).
#[derive(Clone, Copy, Debug)]
pub(super) struct RunRules {
    pub(super) limit: u32,
    pub(super) target: usize,
    pub(super) blocks: Option<Blocks>,
    pub(super) war_layout: Option<usize>,
}

/// Plays plain rounds on `piles` (the table's seats in order), and the common wars `rules`
/// allows, until the round limit, a tie it does not settle (not played), a round in which
/// someone laid their last card, or a round that leaves the first seat with `target` cards.
/// The winner of a round takes its cards highest first, as the general path's table order
/// gives them. Returns why it stopped; `record` counts the rounds and wars played, `laid` the
/// cards laid.
#[inline(always)]
pub(super) fn plain_run<C: Card, const CAP: usize, const PLAYERS: usize>(
    mut piles: [&mut Pile<C, CAP>; PLAYERS],
    (record, laid): (&mut GameRecord, &mut u64),
    rules: RunRules,
) -> RunEnd {
    // Between two looks at the lanes a run adds at most a pass of rounds and a war to a pile.
    const { assert!(PLAYERS <= MOST && CAP * PLAYERS + MOST * (MOST_LAYOUT + 1) < 1 << (LANE - 1)) };
    debug_assert!(C::RANK_ONLY && PLAYERS >= 2);
    let mut table = Table::new(&mut piles);
    let left = rules.limit.saturating_sub(record.rounds) as usize;
    let end = match rules.blocks {
        Some(blocks) if rules.target == usize::MAX && size_of::<C>() == 1 && CAP >= BLOCK => blocks
            .with_features(
                #[inline(always)]
                || table.run::<CAP, true>(left, rules),
            ),
        _ => table.run::<CAP, false>(left, rules),
    };
    record.rounds += table.played as u32;
    if table.wars > 0 {
        record.add_wars(table.wars, 1);
    }
    *laid += (table.played * PLAYERS) as u64 + table.war_cards;
    table.write_back(piles);
    end
}

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    /// The run's view of `piles`: their rings, heads and ends.
    pub(super) fn new<const CAP: usize>(piles: &mut [&mut Pile<C, CAP>; PLAYERS]) -> Self {
        let mut table = Table {
            cards: [std::ptr::null_mut::<C>(); PLAYERS],
            heads: [0; PLAYERS],
            tails: 0,
            played: 0,
            wars: 0,
            war_cards: 0,
        };
        for (i, pile) in piles.iter_mut().enumerate() {
            let (buffer, head, len) = pile.raw();
            (table.cards[i], table.heads[i]) = (buffer.as_mut_ptr(), head);
            table.tails |= ((head + len) as u64) << (LANE * i);
        }
        table
    }

    /// Sets the piles' heads and sizes to the run's.
    pub(super) fn write_back<const CAP: usize>(&self, piles: [&mut Pile<C, CAP>; PLAYERS]) {
        for (i, pile) in piles.into_iter().enumerate() {
            pile.set_raw(self.head(i), self.len(i));
        }
    }

    /// [`plain_run`]'s rounds, up to `left` of them; `BLOCKS`: in blocks (not watching).
    #[inline(always)]
    fn run<const CAP: usize, const BLOCKS: bool>(
        &mut self,
        left: usize,
        rules: RunRules,
    ) -> RunEnd {
        loop {
            if self.played == left {
                break RunEnd::Limit;
            }
            if self.tails & HIGH_BITS != 0 {
                self.rebase::<CAP>();
            }
            // Every pile loses at most a card a round: for one round less than the shortest pile
            // holds, nobody lays their last card, and those rounds need not look.
            let shortest = (0..PLAYERS).map(|i| self.len(i)).min().unwrap_or(0);
            debug_assert!(shortest > 0, "an active seat holds cards");
            if shortest <= 1 {
                // Someone lays their last card (a war here is the general path's).
                if !self.round::<CAP>() {
                    break RunEnd::Tie;
                }
                break RunEnd::LastCard;
            }
            let count = (left - self.played).min(shortest - 1);
            let mut tie = false;
            #[cfg(target_arch = "x86_64")]
            if BLOCKS {
                let count = count.min(BLOCK);
                // SAFETY: `plain_run` checked the cards, CAP and the token, and its caller's
                // `with_features` compiles this with SSSE3.
                tie = unsafe { self.block::<CAP>(count) } < count;
            }
            if !BLOCKS {
                for _ in 0..count {
                    tie = !self.round::<CAP>();
                    if tie {
                        break;
                    }
                    if self.len(0) == rules.target {
                        return RunEnd::Watched;
                    }
                }
            }
            if !tie {
                continue;
            }
            // The round that stopped the pass is a war (every pile holds two cards or more).
            let Some(layout) = rules.war_layout else {
                break RunEnd::Tie;
            };
            match self.war::<CAP>(layout) {
                None => break RunEnd::Tie,
                Some(true) => break RunEnd::LastCard,
                Some(false) if !BLOCKS && self.len(0) == rules.target => break RunEnd::Watched,
                Some(false) => {}
            }
        }
    }

    /// Takes whole rings' worth off every pile's head and end (the same position in the ring),
    /// so the ends stay within their lanes however long the run.
    #[inline(never)]
    fn rebase<const CAP: usize>(&mut self) {
        for i in 0..PLAYERS {
            let whole = self.head(i) & !(CAP - 1);
            self.heads[i] = self.heads[i].wrapping_sub(whole);
            self.tails -= (whole as u64) << (LANE * i);
        }
    }
}

/// The most players a run plays: their pile ends share a `u64`.
pub(super) const MOST: usize = 4;
/// The longest layout (a fighter's cards after its shown card) of a war a run settles.
pub(super) const MOST_LAYOUT: usize = 4;
/// The top bit of every lane of [`Table::tails`].
const HIGH_BITS: u64 = 0x8000_8000_8000_8000;
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
    /// Seat i's pile end, unmasked, in bits `LANE * i..LANE * (i + 1)`; whole rings are taken
    /// off (`rebase`) once a lane reaches its top bit.
    pub(super) tails: u64,
    /// Rounds played in this run, wars included.
    pub(super) played: usize,
    /// Wars settled in this run.
    pub(super) wars: u32,
    /// Cards laid in those wars besides the shown ones.
    pub(super) war_cards: u64,
}

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    #[inline(always)]
    pub(super) fn tail(&self, i: usize) -> usize {
        (self.tails >> (LANE * i)) as u16 as usize
    }

    /// Seat i's head, unmasked (`heads[i]` may have wrapped below zero: see `rebase`).
    #[inline(always)]
    pub(super) fn head(&self, i: usize) -> usize {
        self.heads[i].wrapping_add(self.played)
    }

    #[inline(always)]
    pub(super) fn len(&self, i: usize) -> usize {
        self.tail(i).wrapping_sub(self.head(i))
    }

    /// Plays a round whose highest card is alone (every pile holds a card); false, with
    /// nothing changed, when the highest cards tie. `CAP` is the buffers' size.
    #[inline(always)]
    pub(super) fn round<const CAP: usize>(&mut self) -> bool {
        let mask = CAP - 1;
        // SAFETY: the index is masked below CAP, the length of the pile's buffer.
        let mut top: [C; PLAYERS] =
            std::array::from_fn(|i| unsafe { *self.cards[i].add(self.head(i) & mask) });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random::GameRandom;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;

    /// Three piles dealt from a shuffled 52-card deck.
    fn dealt(seed: u64) -> [Pile<u8, 64>; 3] {
        let mut deck: Vec<u8> = (0..52).map(|i| i % 13 + 1).collect();
        Xoshiro256PlusPlus::seed_from_u64(seed).shuffle(&mut deck);
        std::array::from_fn(|i| {
            let mut pile = Pile::new();
            pile.set(&deck[i * 17..(i + 1) * 17]);
            pile
        })
    }

    #[test]
    fn pile_ends_near_the_top_of_their_lanes_are_taken_down_and_play_the_same() {
        let rules = RunRules {
            limit: 10_000,
            target: usize::MAX,
            blocks: None,
            war_layout: Some(2),
        };
        let mut runs = 0;
        for seed in 0..200 {
            let (mut plain, mut shifted) = (dealt(seed), dealt(seed));
            let mut table = Table::new(&mut plain.each_mut());
            let plain_end = table.run::<64, false>(1_000, rules);
            let played = (table.played, table.wars, table.war_cards);
            table.write_back(plain.each_mut());
            // The same piles, their heads and ends 1,023 rings on: a few cards more and a lane
            // would carry into the next one.
            let mut table = Table::new(&mut shifted.each_mut());
            let rings = 1_023 * 64;
            for i in 0..3 {
                table.heads[i] += rings;
                table.tails += (rings as u64) << (LANE * i);
            }
            assert_eq!(
                table.run::<64, false>(1_000, rules),
                plain_end,
                "seed {seed}"
            );
            assert_eq!((table.played, table.wars, table.war_cards), played);
            table.write_back(shifted.each_mut());
            for (a, b) in plain.iter().zip(&shifted) {
                assert_eq!(a.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
            }
            runs += usize::from(played.0 > 3);
        }
        assert!(runs > 50, "{runs} runs of more than three rounds");
    }
}
