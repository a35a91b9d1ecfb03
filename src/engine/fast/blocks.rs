//! Plain two-player rounds sixteen at a time with SSSE3, for byte cards: the fast loop's
//! inner pass (`mod.rs`) when the processor has it, with the scalar pass as the fallback.
//!
//! One block compares sixteen pairs of top cards at once, finds the first tie, and appends the
//! won pairs of the rounds before it under both piles with one byte shuffle per eight rounds
//! (a table maps each eight-bit "who won" mask to the shuffle that packs the winner's pairs).
//! Classic's wars of one step are settled in the loop too (`pass.rs`), and a watching pass
//! makes the cycle watch's saves itself, without stopping (`Pass`, `watch.rs`). The scalar pass
//! spends about 24 instructions on a round; a block of up to sixteen about 85 with its
//! bookkeeping. Tests check that both passes leave the same piles, and that the saves and stops
//! are those of single rounds.

use super::pass::Pass;
// (The tests name them on every processor, and mark themselves ignored where blocks can't run.)
#[cfg(any(target_arch = "x86_64", test))]
use super::pass::{HIGH_LOW, LOW_HIGH, NATURAL, SEATS_UP};
use crate::engine::cpu::Blocks;
use crate::engine::game::LINEAR;

/// Bytes a block may write past a pile's last card (two stores of 16 bytes).
pub(in crate::engine) const BLOCK_SLACK: usize = 32;

// Two piles of the largest deck and a block's slack fit the linear buffers.
const _: () = assert!(2 * crate::engine::rules::MAX_CARDS as usize + BLOCK_SLACK < LINEAR);

impl Blocks {
    /// Runs `body` compiled with SSSE3 and POPCNT, so that [`Blocks::play`] inlines into the
    /// loop that calls it: `body` and everything down to `play` must be `#[inline(always)]`.
    #[inline(always)]
    pub(in crate::engine) fn with_features<T>(self, body: impl FnOnce() -> T) -> T {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "ssse3,popcnt")]
        fn call<T>(body: impl FnOnce() -> T) -> T {
            body()
        }
        #[cfg(not(target_arch = "x86_64"))]
        fn call<T>(body: impl FnOnce() -> T) -> T {
            body()
        }
        // SAFETY: the token proves the features.
        #[allow(unused_unsafe)]
        unsafe {
            call(body)
        }
    }

    /// Plays the pass with blocks (see [`Pass`]). The buffers must have room for the budget:
    /// `head + budget + total + BLOCK_SLACK <= LINEAR`.
    #[inline(always)]
    pub(in crate::engine) fn play<const ORDER: u8, const WATCH: bool>(
        self,
        piles: &mut [[u8; LINEAR]; 2],
        pass: Pass,
    ) -> Pass {
        assert!(pass.head + pass.budget as usize + pass.total + BLOCK_SLACK <= LINEAR);
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: the token proves the features; the bounds were just checked.
            unsafe { play_x86::<ORDER, WATCH>(piles, pass) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = piles;
            unreachable!("no block pass off x86_64")
        }
    }
}

/// For each eight-bit mask of rounds won, the `pshufb` control that packs those rounds' pairs
/// (bytes 2i and 2i + 1 for round i) to the front; 0x80 zeroes the rest.
#[cfg(target_arch = "x86_64")]
static PACK: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut out, mut round) = (0, 0);
        while round < 8 {
            if mask & (1 << round) != 0 {
                table[mask][out] = 2 * round as u8;
                table[mask][out + 1] = 2 * round as u8 + 1;
                out += 2;
            }
            round += 1;
        }
        mask += 1;
    }
    table
};

/// # Safety
/// The processor has SSSE3 and POPCNT (a [`Blocks`] token), and
/// `pass.head + pass.budget + pass.total + BLOCK_SLACK <= LINEAR`. Not a `#[target_feature]`
/// function, because those cannot be `#[inline(always)]` and a call would cost more than a short
/// pass: it is fast only inlined into code compiled with the features
/// ([`Blocks::with_features`]), where its intrinsics inline too.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn play_x86<const ORDER: u8, const WATCH: bool>(
    piles: &mut [[u8; LINEAR]; 2],
    mut pass: Pass,
) -> Pass {
    use std::arch::x86_64::*;
    debug_assert!(pass.head + pass.budget as usize + pass.total + BLOCK_SLACK <= LINEAR);
    let total = pass.total;
    // Where the pass began: its rounds are counted from the head's moves, not in the loop (a
    // count there cost a register). The head's limit, and where it will be at the next save
    // while every round moves it by one (a settled war moves it further).
    let (first, wars_before) = (pass.head, pass.wars);
    let war_cards = if ORDER == NATURAL { 2 } else { 3 };
    let budget_end = pass.head + pass.budget as usize;
    let mut save_head = pass.head + pass.save_in as usize;
    // (Not watching, the budget alone: a min with a far save cost that loop a register.)
    let mut stop_at = if WATCH {
        budget_end.min(save_head)
    } else {
        budget_end
    };
    // Rounds played since the pass began, settled wars included.
    let rounds_in = |pass: &Pass| {
        (pass.head - first - (war_cards - 1) * (pass.wars - wars_before) as usize) as u32
    };
    // A position the watch has checked already (the caller, at the pass's start) or saved.
    let mut checked = pass.head;
    // The watched top ranks in every lane. SAFETY: SSE2 is the caller's.
    let splat =
        |tops: [u8; 2]| unsafe { (_mm_set1_epi8(tops[0] as i8), _mm_set1_epi8(tops[1] as i8)) };
    let (mut top0, mut top1) = splat(pass.tops);
    'pass: loop {
        while pass.head < stop_at && pass.n0 > 0 && pass.n0 < total {
            let (head, n0) = (pass.head, pass.n0);
            // Taken afresh each block: `settle_war` below borrows the piles.
            let [pile0, pile1] = &mut *piles;
            let (p0, p1) = (pile0.as_mut_ptr(), pile1.as_mut_ptr());
            // A block plays at most as many rounds as the smaller pile holds, so nobody runs out
            // within it and every card it uses is already in place.
            let cap = (stop_at - head).min(16).min(n0).min(total - n0);
            // SAFETY: the features are the caller's. Reads end at head + 16 <= LINEAR; writes
            // start at a pile's end, at most head + total, and go at most 32 bytes further, inside
            // the buffers by the caller's bound. Only the first `cap` rounds' cards are used; the
            // rest of each read is masked off.
            unsafe {
                let a = _mm_loadu_si128(p0.add(head).cast());
                let b = _mm_loadu_si128(p1.add(head).cast());
                let high = _mm_max_epu8(a, b);
                let tie = _mm_cmpeq_epi8(a, b);
                // The cycle watch: a block also stops at the rounds that leave the watched top
                // ranks (lane k of `a` and `b` holds the tops after k rounds; the position after
                // the block's last round is the next block's lane 0).
                let stop = match WATCH {
                    true => {
                        let watched =
                            _mm_and_si128(_mm_cmpeq_epi8(a, top0), _mm_cmpeq_epi8(b, top1));
                        _mm_or_si128(tie, watched)
                    }
                    false => tie,
                };
                let b_high = _mm_movemask_epi8(_mm_cmpeq_epi8(high, b)) as u32;
                let stops = _mm_movemask_epi8(stop) as u32 & ((1 << cap) - 1);
                // Rounds played: up to the first tie (or watched tops), else the whole block.
                let played = if stops != 0 {
                    stops.trailing_zeros() as usize
                } else {
                    cap
                };
                let played_mask = (1u32 << played) - 1;
                let won = [!b_high & played_mask, b_high & played_mask];
                let low = _mm_min_epu8(a, b);
                let (first, second) = match ORDER {
                    HIGH_LOW | NATURAL => (high, low),
                    LOW_HIGH => (low, high),
                    SEATS_UP => (a, b),
                    _ => (b, a),
                };
                let pairs = [
                    _mm_unpacklo_epi8(first, second),
                    _mm_unpackhi_epi8(first, second),
                ];
                let mut ends = [head + n0, head + total - n0];
                store_won_pairs([p0, p1], &mut ends, pairs, won);
                pass.head = head + played;
                pass.n0 = ends[0] - pass.head;
                if stops != 0 {
                    // A tie or the watched tops stopped the block at round `played`: a position
                    // that may repeat the saved one ends the pass (unless checked already).
                    if WATCH && pass.head != checked && pass.watched_at(piles) {
                        break 'pass;
                    }
                    if WATCH && piles[0][pass.head] != piles[1][pass.head] {
                        // Watched tops, not a tie, but not the saved position: one round on, so
                        // that the next block does not stop here again.
                        (pass.head, pass.n0) = one_round::<ORDER>(piles, pass);
                        continue;
                    }
                    if pass.settle_war::<u8, ORDER>(piles, &mut (budget_end - pass.head)) {
                        if WATCH {
                            save_head += war_cards - 1;
                            stop_at = budget_end.min(save_head);
                        }
                        continue;
                    }
                    pass.tied = true;
                    break 'pass;
                }
            }
        }
        if !WATCH || pass.head != save_head || pass.n0 == 0 || pass.n0 == total {
            break;
        }
        // The next save's round. A position that may repeat the saved one goes to the caller,
        // which compares and saves; any other is saved here, by where it lies.
        if pass.head != checked && pass.watched_at(piles) {
            break;
        }
        pass.power = (pass.power * 2).max(1);
        pass.saves += 1;
        pass.saved_head = pass.head;
        pass.saved_n0 = pass.n0;
        pass.saved_after = rounds_in(&pass);
        pass.target = pass.n0;
        pass.tops = [piles[0][pass.head], piles[1][pass.head]];
        (top0, top1) = splat(pass.tops);
        save_head = pass.head + pass.power as usize;
        stop_at = budget_end.min(save_head);
        checked = pass.head;
        if pass.head < stop_at && piles[0][pass.head] != piles[1][pass.head] {
            // The saved position's own tops would stop the next block at once: its round here.
            (pass.head, pass.n0) = one_round::<ORDER>(piles, pass);
        }
    }
    // `settle_war` counted its wars' rounds already.
    pass.rounds += rounds_in(&pass) - (pass.wars - wars_before);
    pass
}

/// Writes each seat's won pairs of a block at `ends[j]` in `bases[j]`, packed with [`PACK`]
/// (eight rounds a store: `pairs` holds rounds 0–7 and 8–15, first card then second), and
/// moves the ends past them.
///
/// # Safety
/// The processor has SSSE3 and POPCNT, and 32 bytes from each end are writable.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn store_won_pairs(
    bases: [*mut u8; 2],
    ends: &mut [usize; 2],
    pairs: [std::arch::x86_64::__m128i; 2],
    won: [u32; 2],
) {
    use std::arch::x86_64::*;
    for (j, base) in bases.into_iter().enumerate() {
        for (half, &pair) in pairs.iter().enumerate() {
            let mask = (won[j] >> (8 * half)) & 0xff;
            // SAFETY: the caller's features and bounds.
            unsafe {
                let control = _mm_loadu_si128(PACK[mask as usize].as_ptr().cast());
                _mm_storeu_si128(base.add(ends[j]).cast(), _mm_shuffle_epi8(pair, control));
                ends[j] += 2 * _popcnt32(mask as i32) as usize;
            }
        }
    }
}

/// Plays the plain round at the pass's head (not a tie); returns the new head and seat 0's
/// pile size. Out of line: the block loop needs its registers.
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn one_round<const ORDER: u8>(piles: &mut [[u8; LINEAR]; 2], pass: Pass) -> (usize, usize) {
    let next = super::pass::scalar_pass::<u8, ORDER, false>(piles, Pass { budget: 1, ..pass });
    (next.head, next.n0)
}

#[cfg(test)]
mod tests {
    use super::super::pass::{SEATS_DOWN, one_step, scalar_pass};
    use super::*;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// A number in `low..=high` (modulo bias is harmless here).
    fn pick(rng: &mut Xoshiro256PlusPlus, low: usize, high: usize) -> usize {
        low + (rng.next_u64() % (high - low + 1) as u64) as usize
    }

    /// Plays passes until a tie, an empty pile or the budget, as the fast loop does; returns
    /// the last pass, both piles' cards, and the rounds after which a pass stopped with seat 0
    /// holding the watched number of cards.
    fn play_out(
        piles: &mut [[u8; LINEAR]; 2],
        mut pass: Pass,
        play: impl Fn(&mut [[u8; LINEAR]; 2], Pass) -> Pass,
    ) -> (Pass, Vec<u8>, Vec<u8>, Vec<u32>) {
        let mut stops = Vec::new();
        while pass.budget > 0 && !pass.tied && pass.n0 > 0 && pass.n0 < pass.total {
            let next = play(piles, pass);
            let watched = next.n0 == next.target && next.tops_at(piles, next.head);
            if watched && next.rounds > 0 && stops.last() != Some(&next.rounds) {
                stops.push(next.rounds);
            }
            let played = (next.head - pass.head) as u32;
            pass = Pass {
                budget: pass.budget - played,
                ..next
            };
        }
        let (head, n0, total) = (pass.head, pass.n0, pass.total);
        let pile0 = piles[0][head..head + n0].to_vec();
        let pile1 = piles[1][head..head + total - n0].to_vec();
        (pass, pile0, pile1, stops)
    }

    /// Blocks and single rounds leave the same piles from a random start; watching, both stop
    /// at every round that leaves seat 0 with the target's number of cards (each found by the
    /// one-at-a-time walk below).
    fn same_as_scalar<const ORDER: u8, const WATCH: bool>(
        blocks: Blocks,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let ranks = pick(rng, 1, 14);
        let total = pick(rng, 2, 120);
        let n0 = pick(rng, 1, total - 1);
        let head = pick(rng, 0, 200);
        let budget = pick(rng, 0, LINEAR - BLOCK_SLACK - total - head) as u32;
        // Garbage everywhere, so a read or write off the piles shows.
        let mut piles = [[0u8; LINEAR]; 2];
        for card in piles.iter_mut().flatten() {
            *card = pick(rng, 1, ranks) as u8;
        }
        let settles_wars = pick(rng, 0, 1) == 1;
        let target = pick(rng, 1, total - 1);
        let tops = [pick(rng, 1, ranks) as u8, pick(rng, 1, ranks) as u8];
        let pass = Pass::new(head, n0, total, budget, settles_wars, (target, tops));
        let mut scalar_piles = piles;
        let mut single_piles = piles;
        let by_blocks = play_out(&mut piles, pass, |p, pass| {
            blocks.play::<ORDER, WATCH>(p, pass)
        });
        let one_by_one = play_out(&mut scalar_piles, pass, scalar_pass::<u8, ORDER, WATCH>);
        let piles_of = |(pass, pile0, pile1, _): &(Pass, Vec<u8>, Vec<u8>, Vec<u32>)| {
            (*pass, pile0.clone(), pile1.clone())
        };
        assert_eq!(
            piles_of(&by_blocks),
            piles_of(&one_by_one),
            "order {ORDER}, start {pass:?}"
        );
        if WATCH {
            assert_eq!(by_blocks.3, one_by_one.3, "order {ORDER}, start {pass:?}");
            // One round per pass (a war's three cards at a tie): every round's count, the stops
            // a watching pass must make.
            let (.., every_round) = play_out(&mut single_piles, pass, one_step::<ORDER>);
            assert_eq!(by_blocks.3, every_round, "order {ORDER}, start {pass:?}");
        }
    }

    #[test]
    #[cfg_attr(
        not(host_ssse3),
        ignore = "this processor lacks SSSE3: the block pass is not used here"
    )]
    fn blocks_play_as_the_scalar_pass() {
        let blocks = Blocks::detect().expect("build.rs found SSSE3 and POPCNT on this machine");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..3000 {
            same_as_scalar::<HIGH_LOW, false>(blocks, &mut rng);
            same_as_scalar::<LOW_HIGH, false>(blocks, &mut rng);
            same_as_scalar::<SEATS_UP, false>(blocks, &mut rng);
            same_as_scalar::<SEATS_DOWN, false>(blocks, &mut rng);
            same_as_scalar::<NATURAL, false>(blocks, &mut rng);
            same_as_scalar::<HIGH_LOW, true>(blocks, &mut rng);
            same_as_scalar::<SEATS_DOWN, true>(blocks, &mut rng);
            same_as_scalar::<NATURAL, true>(blocks, &mut rng);
        }
    }
}
