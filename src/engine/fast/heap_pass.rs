//! The passes of plain rounds on the groups family's linear halves (`heaps.rs`): one round at a
//! time, or sixteen at a time with SSSE3 for byte cards, as the table family's block pass
//! (`blocks.rs`) plays them. Both write each round's two cards, first seat first, at the end of
//! both heaps and keep only the winner's copy, and stop after a tie. A test checks that both
//! leave the same piles and heaps.

use crate::engine::card::Card;
use crate::engine::cpu::Blocks;
use crate::engine::game::LINEAR;
use crate::engine::pile::Hand;

/// Bytes a block may write past a heap's last card (two stores of 16 bytes).
pub(super) const HEAP_BLOCK_SLACK: usize = 32;

/// Plays up to `pass` plain rounds (both piles hold at least `pass` cards), each round's two
/// cards written at the end of both heaps and kept by the winner's. Stops after a tie, its
/// cards taken from the piles. Returns the rounds played, the tied one included, and whether
/// the last was tied.
#[inline(always)]
pub(super) fn plain_pass<C: Card>(
    buffer0: &mut [C; LINEAR],
    buffer1: &mut [C; LINEAR],
    hands: &mut [Hand; 2],
    pass: usize,
) -> (usize, bool) {
    let (top0, top1) = (hands[0].top, hands[1].top);
    let (tail0, tail1) = (
        hands[0].heap + hands[0].heap_len,
        hands[1].heap + hands[1].heap_len,
    );
    // A heap and the two piles hold at most the game's cards, which fit a half: the loser's
    // heap has room for the two cards past its end, and no write leaves the heap's half.
    assert!(top0.max(top1) + pass <= LINEAR && tail0.max(tail1) + 2 * pass <= LINEAR);
    let mut played = 0;
    let mut tied = false;
    // Raw pointers: with indices, every read and write paid an add and a mask (the bounds
    // are asserted once above).
    // SAFETY: reads stay below top + pass and writes below tail + 2 * pass, both asserted
    // within the buffers; piles and heaps lie in different halves, so nothing read is written.
    unsafe {
        let (base0, base1) = (buffer0.as_mut_ptr(), buffer1.as_mut_ptr());
        let (read0, read1) = (base0.add(top0).cast_const(), base1.add(top1).cast_const());
        let (mut write0, mut write1) = (base0.add(tail0), base1.add(tail1));
        while played < pass {
            let a = *read0.add(played);
            let b = *read1.add(played);
            played += 1;
            if a.rank() == b.rank() {
                tied = true;
                break;
            }
            *write0 = a;
            *write0.add(1) = b;
            *write1 = a;
            *write1.add(1) = b;
            let second = usize::from(b.rank() > a.rank());
            write0 = write0.add(2 - 2 * second);
            write1 = write1.add(2 * second);
        }
        hands[0].heap_len += write0.offset_from(base0.add(tail0)) as usize;
        hands[1].heap_len += write1.offset_from(base1.add(tail1)) as usize;
    }
    hands[0].top = top0 + played;
    hands[1].top = top1 + played;
    (played, tied)
}

impl Blocks {
    /// [`plain_pass`] sixteen rounds at a time. Each heap's half must have room for
    /// [`HEAP_BLOCK_SLACK`] bytes past the heap's end once the pass has played, and both piles'
    /// tops for sixteen bytes' reads. Fast only inlined into code compiled with the features
    /// ([`Blocks::with_features`]).
    #[inline(always)]
    pub(super) fn heap_pass(
        self,
        buffers: &mut [[u8; LINEAR]; 2],
        hands: &mut [Hand; 2],
        pass: usize,
    ) -> (usize, bool) {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: the token proves the features; the pass checks its bounds.
            unsafe { heap_pass_x86(buffers, hands, pass) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (buffers, hands, pass);
            unreachable!("no block pass off x86_64")
        }
    }
}

/// # Safety
/// The processor has SSSE3 and POPCNT (a [`Blocks`] token).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn heap_pass_x86(
    buffers: &mut [[u8; LINEAR]; 2],
    hands: &mut [Hand; 2],
    pass: usize,
) -> (usize, bool) {
    use super::blocks::store_won_pairs;
    use std::arch::x86_64::*;
    let tops = [hands[0].top, hands[1].top];
    let mut tails = [
        hands[0].heap + hands[0].heap_len,
        hands[1].heap + hands[1].heap_len,
    ];
    // Reads end 16 bytes past the last round's cards, writes HEAP_BLOCK_SLACK past the last
    // heap card; the caller keeps each heap's half that much longer than its cards.
    assert!(tops[0].max(tops[1]) + pass + 16 <= LINEAR);
    assert!(tails[0].max(tails[1]) + 2 * pass + HEAP_BLOCK_SLACK <= LINEAR);
    let [buffer0, buffer1] = buffers;
    let bases = [buffer0.as_mut_ptr(), buffer1.as_mut_ptr()];
    let (mut played, mut tied) = (0, false);
    while played < pass {
        let cap = (pass - played).min(16);
        // SAFETY: the features are the caller's; reads and writes stay within the bounds
        // asserted above (each block's rounds are among the pass's).
        unsafe {
            let a = _mm_loadu_si128(bases[0].add(tops[0] + played).cast_const().cast());
            let b = _mm_loadu_si128(bases[1].add(tops[1] + played).cast_const().cast());
            let ties = _mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) as u32 & ((1 << cap) - 1);
            let b_high = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, b), b)) as u32;
            let plain = if ties != 0 {
                ties.trailing_zeros() as usize
            } else {
                cap
            };
            let plain_mask = (1u32 << plain) - 1;
            let won = [!b_high & plain_mask, b_high & plain_mask];
            let pairs = [_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)];
            store_won_pairs(bases, &mut tails, pairs, won);
            if ties != 0 {
                (played, tied) = (played + plain + 1, true);
                break;
            }
            played += cap;
        }
    }
    for (hand, (top, tail)) in hands.iter_mut().zip(tops.into_iter().zip(tails)) {
        hand.top = top + played;
        hand.heap_len = tail - hand.heap;
    }
    (played, tied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// A number in `low..=high` (modulo bias is harmless here).
    fn pick(rng: &mut Xoshiro256PlusPlus, low: usize, high: usize) -> usize {
        low + (rng.next_u64() % (high - low + 1) as u64) as usize
    }

    /// Both passes from one random start: piles in one half, heaps in the other, at most 64
    /// cards in all (a half is twice that), garbage everywhere else. They must leave the same
    /// hands, heaps and piles, and the block pass may write nothing in the piles' halves.
    /// Returns whether the pass ended on a tie.
    fn same_as_scalar(blocks: Blocks, rng: &mut Xoshiro256PlusPlus) -> bool {
        const HALF: usize = 128;
        let ranks = pick(rng, 1, 14);
        let mut buffers = [[0u8; LINEAR]; 2];
        for card in buffers.iter_mut().flatten() {
            *card = pick(rng, 1, ranks) as u8;
        }
        let mut hands = [Hand::default(); 2];
        let mut free = 64;
        for hand in &mut hands {
            let pile_base = HALF * pick(rng, 0, 1);
            let top = pile_base + pick(rng, 0, 20);
            let end = top + pick(rng, 1, 32);
            free -= end - top;
            (hand.top, hand.end, hand.heap) = (top, end, HALF - pile_base);
        }
        for hand in &mut hands {
            hand.heap_len = pick(rng, 0, free);
            free -= hand.heap_len;
        }
        let pass = pick(
            rng,
            0,
            (hands[0].end - hands[0].top).min(hands[1].end - hands[1].top),
        );
        let (mut scalar, mut scalar_hands) = (buffers, hands);
        let [buffer0, buffer1] = &mut scalar;
        let by_rounds = plain_pass(buffer0, buffer1, &mut scalar_hands, pass);
        let by_blocks = blocks.with_features(|| blocks.heap_pass(&mut buffers, &mut hands, pass));
        assert_eq!((by_blocks, hands), (by_rounds, scalar_hands), "pass {pass}");
        for (j, hand) in hands.iter().enumerate() {
            let heap = hand.heap..hand.heap + hand.heap_len;
            assert_eq!(buffers[j][heap.clone()], scalar[j][heap], "seat {j}'s heap");
            let pile_half = HALF - hand.heap..2 * HALF - hand.heap;
            assert_eq!(
                buffers[j][pile_half.clone()],
                scalar[j][pile_half],
                "seat {j}'s pile"
            );
        }
        by_rounds.1
    }

    #[test]
    #[cfg_attr(
        not(host_ssse3),
        ignore = "this processor lacks SSSE3: the block pass is not used here"
    )]
    fn heap_blocks_play_as_single_rounds() {
        let blocks = Blocks::detect().expect("build.rs found SSSE3 and POPCNT on this machine");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut ends = [0; 2];
        for _ in 0..20_000 {
            ends[usize::from(same_as_scalar(blocks, &mut rng))] += 1;
        }
        // Passes that end on a tie and passes played out, often.
        assert!(ends.iter().all(|&count| count > 2000), "{ends:?}");
    }
}
