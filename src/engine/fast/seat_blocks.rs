//! Plain rounds of three and four players sixteen at a time with SSSE3, for byte cards: the
//! run of `seats.rs` when the processor has it and no position is watched, with its scalar
//! round as the fallback (and a test that both play the same games).
//!
//! Every pile's head moves by one a round, and a block plays fewer rounds than the shortest
//! pile holds, so the block's cards are already on the piles: one 16-byte load a pile gives
//! them all. One maximum, four comparisons and a sum find every round's winner and the
//! first tie at once; a sorting network of maxima and minima orders every round's cards highest
//! first, and a transpose makes each round's cards one 32-bit word, which the round's winner
//! gets with one store. The scalar round spends about 80 to 100 instructions; a block about
//! 110 and 19 a round (but blocks are short: one stops before the first tie, and plays fewer
//! rounds than the shortest pile holds; 4 to 5 rounds on 52 cards).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

#[cfg(target_arch = "x86_64")]
use super::seats::LANE;
use super::seats::Table;
use crate::engine::card::Card;

/// Rounds in a block: one 16-byte vector of cards a pile.
pub(super) const BLOCK: usize = 16;

/// Sliding controls for `pshufb`: from byte 16 + s on, "bytes s to 15, then zeros"; from byte s
/// on, "zeros, then bytes 0 to s - 1" (0x80 zeroes a byte).
#[cfg(target_arch = "x86_64")]
static WINDOW: [u8; 48] = {
    let mut window = [0x80u8; 48];
    let mut i = 0;
    while i < 16 {
        window[16 + i] = i as u8;
        i += 1;
    }
    window
};

impl<C: Card, const PLAYERS: usize> Table<C, PLAYERS> {
    /// Plays up to `count` (at most [`BLOCK`], fewer than the shortest pile holds) plain rounds
    /// at once, stopping before the first whose highest cards tie; returns the rounds played.
    ///
    /// # Safety
    /// The processor has SSSE3 (a `Blocks` token), the cards are bytes, `CAP >= 16`, and the
    /// caller inlines this into code compiled with the feature (`Blocks::with_features`).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) unsafe fn block<const CAP: usize>(&mut self, count: usize) -> usize {
        debug_assert!(C::RANK_ONLY && size_of::<C>() == 1 && CAP >= BLOCK && count <= BLOCK);
        let mask = CAP - 1;
        // SAFETY (whole body): the loads read within each pile's buffer (`ring_load`), and the
        // stores write masked positions below CAP, past each winner's last card, where the
        // pile has room (the game's cards fit a pile).
        unsafe {
            let mut cards = [_mm_setzero_si128(); 4];
            for (i, lane) in cards.iter_mut().take(PLAYERS).enumerate() {
                let head = self.head(i) & mask;
                *lane = ring_load::<CAP>(self.cards[i].cast::<u8>(), head);
            }
            // Ranks run from 1, so a missing fourth player's zeros never hold the highest.
            let best = _mm_max_epu8(
                _mm_max_epu8(cards[0], cards[1]),
                _mm_max_epu8(cards[2], cards[3]),
            );
            let holds = cards.map(|lane| _mm_cmpeq_epi8(lane, best));
            // Each holder adds -1: a tie where the sum is below -1.
            let holders = _mm_add_epi8(
                _mm_add_epi8(holds[0], holds[1]),
                _mm_add_epi8(holds[2], holds[3]),
            );
            let ties = _mm_movemask_epi8(_mm_cmplt_epi8(holders, _mm_set1_epi8(-1))) as u32;
            let played = (ties | (u32::MAX << count)).trailing_zeros() as usize;
            // The seat that holds it, in rounds without a tie.
            let seat = |i: i8| _mm_and_si128(holds[i as usize], _mm_set1_epi8(i));
            let winners = _mm_or_si128(seat(1), _mm_or_si128(seat(2), seat(3)));
            // Each round's cards highest first, as `network_high_first` orders them.
            let mut sorted = cards;
            for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
                let (a, b) = (sorted[i], sorted[j]);
                (sorted[i], sorted[j]) = (_mm_max_epu8(a, b), _mm_min_epu8(a, b));
            }
            // Round r's four cards as word r (with three players, a zero fourth byte lands in
            // the free slot after the winner's new last card).
            let low = _mm_unpacklo_epi8(sorted[0], sorted[1]);
            let high = _mm_unpackhi_epi8(sorted[0], sorted[1]);
            let low_23 = _mm_unpacklo_epi8(sorted[2], sorted[3]);
            let high_23 = _mm_unpackhi_epi8(sorted[2], sorted[3]);
            let mut words = [0u32; BLOCK];
            for (k, quarter) in [
                _mm_unpacklo_epi16(low, low_23),
                _mm_unpackhi_epi16(low, low_23),
                _mm_unpacklo_epi16(high, high_23),
                _mm_unpackhi_epi16(high, high_23),
            ]
            .into_iter()
            .enumerate()
            {
                _mm_storeu_si128(words.as_mut_ptr().add(4 * k).cast(), quarter);
            }
            let mut seats = [0u8; BLOCK];
            _mm_storeu_si128(seats.as_mut_ptr().cast(), winners);
            let rings: [*mut u8; 4] = std::array::from_fn(|i| self.cards[i % PLAYERS].cast::<u8>());
            for (&seat, &word) in seats.iter().zip(&words).take(played) {
                let seat = usize::from(seat) & 3;
                let end = self.tail(seat) & mask;
                let ring = rings[seat];
                if end + 4 <= CAP {
                    ring.add(end).cast::<u32>().write_unaligned(word);
                } else {
                    // The ring wraps inside the word (3 times in CAP).
                    for (k, byte) in word.to_le_bytes().into_iter().enumerate().take(PLAYERS) {
                        *ring.add((end + k) & mask) = byte;
                    }
                }
                self.tails += (PLAYERS as u64) << (LANE * seat);
            }
            self.played += played;
            played
        }
    }
}

/// The 16 bytes of a ring buffer of `CAP` bytes from `start` on, wrapping at its end: the last
/// 16 bytes below `start`'s wrap shifted down and the first bytes shifted up (one pair of
/// loads whether it wraps or not: a branch on it would be mispredicted).
///
/// # Safety
/// `ring` points to `CAP >= 16` readable bytes, `start < CAP`, and SSSE3 is enabled.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn ring_load<const CAP: usize>(ring: *const u8, start: usize) -> __m128i {
    let first = start.min(CAP - 16);
    let shift = start - first;
    // SAFETY: both loads read 16 of the ring's CAP bytes; the controls are within WINDOW.
    unsafe {
        let tail = _mm_loadu_si128(ring.add(first).cast());
        let head = _mm_loadu_si128(ring.cast());
        let down = _mm_loadu_si128(WINDOW.as_ptr().add(16 + shift).cast());
        let up = _mm_loadu_si128(WINDOW.as_ptr().add(shift).cast());
        _mm_or_si128(_mm_shuffle_epi8(tail, down), _mm_shuffle_epi8(head, up))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg_attr(
        not(host_ssse3),
        ignore = "this processor lacks SSSE3: the block pass is not used here"
    )]
    fn blocks_of_three_and_four_players_play_what_single_rounds_play() {
        // The kernel is x86-64's alone: elsewhere `host_ssse3` is unset and this is ignored.
        #[cfg(target_arch = "x86_64")]
        x86::blocks_against_rounds();
    }

    #[cfg(target_arch = "x86_64")]
    mod x86 {
        use super::super::*;
        use crate::engine::cpu::Blocks;
        use crate::engine::pile::Pile;
        use crate::engine::random::GameRandom;
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::{Rng, SeedableRng};

        /// A 52-card deck dealt round the table, each pile's ring turned by a random amount (so
        /// that blocks read across the rings' ends).
        fn dealt<const PLAYERS: usize>(rng: &mut Xoshiro256PlusPlus) -> [Pile<u8, 64>; PLAYERS] {
            let mut deck: Vec<u8> = (0..52).map(|i| i % 13 + 1).collect();
            rng.shuffle(&mut deck);
            std::array::from_fn(|i| {
                let mut pile = Pile::new();
                pile.set(
                    &deck
                        .iter()
                        .copied()
                        .skip(i)
                        .step_by(PLAYERS)
                        .collect::<Vec<_>>(),
                );
                for _ in 0..rng.next_u64() % 64 {
                    let card = pile.pop();
                    pile.push(card);
                }
                pile
            })
        }

        /// Plays blocks on one copy of a deal and single rounds on another, block by block,
        /// until a tie or a pile too short; both must leave the same piles.
        fn blocks_as_rounds<const PLAYERS: usize>(blocks: Blocks, rng: &mut Xoshiro256PlusPlus) {
            let mut by_block = dealt::<PLAYERS>(rng);
            let mut by_round = by_block.clone();
            let mut block = Table::new(&mut by_block.each_mut());
            let mut round = Table::new(&mut by_round.each_mut());
            loop {
                let shortest = (0..PLAYERS).map(|i| block.len(i)).min().unwrap_or(0);
                let count = (shortest.saturating_sub(1)).min(BLOCK);
                if count == 0 {
                    break;
                }
                // SAFETY: the token proves SSSE3, the cards are bytes, CAP is 64.
                let played = blocks.with_features(|| unsafe { block.block::<64>(count) });
                let mut single = 0;
                while single < count && round.round::<64>() {
                    single += 1;
                }
                assert_eq!(played, single);
                assert_eq!((block.tails, block.played), (round.tails, round.played));
                if played < count {
                    break;
                }
            }
            block.write_back(by_block.each_mut());
            round.write_back(by_round.each_mut());
            for (a, b) in by_block.iter().zip(&by_round) {
                assert_eq!(a.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
            }
        }

        /// 6,000 deals, half of three players, half of four.
        pub(super) fn blocks_against_rounds() {
            let blocks = Blocks::detect().expect("build.rs found SSSE3 and POPCNT on this machine");
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(34);
            for _ in 0..3000 {
                blocks_as_rounds::<3>(blocks, &mut rng);
                blocks_as_rounds::<4>(blocks, &mut rng);
            }
        }
    }
}
