//! warsim's own shuffle: Fisher–Yates, last position first, drawing up to six positions from
//! each 64-bit output (Brackett-Rozinsky and Lemire, "Batched ranged random integer
//! generation", Software: Practice and Experience, 2024). Written out here, not taken from a
//! crate, because every warsim game is pinned to these exact draws (`shuffle_stream_is_pinned`).

use rand_xoshiro::rand_core::Rng;

/// Batch sizes keep the product of a batch's ranges at most 2^60, as in the paper.
fn batch_size(n: usize) -> usize {
    match n {
        0..=512 => 6,
        513..=2048 => 5,
        2049..=16_384 => 4,
        16_385..=524_288 => 3,
        524_289..=1_073_741_824 => 2,
        _ => 1,
    }
}

/// A batch of `k` positions from `n` whose last low word is at least this is accepted without
/// working out the product of its ranges: that product is below n^k, so below 2^(k·b) for
/// n < 2^b, and the rejection threshold, 2^64 mod product, is below the product. (A fixed
/// 2^60 sent one batch in sixteen to the product and its division, a call and a mispredicted
/// branch: 1% of war-simulator's time in `rejected` alone.)
#[inline(always)]
const fn surely_accepted(n: usize, k: usize) -> u64 {
    let bits = usize::BITS - n.leading_zeros();
    match 1u64.checked_shl(k as u32 * bits) {
        Some(bound) => bound,
        None => u64::MAX,
    }
}

/// Puts `items` in a uniformly random order. The positions for ranges n, n−1, …, n−k+1 are
/// the high words of multiplying one output by each range in turn, carrying the low word; the
/// batch is exactly uniform when the last low word is at least 2^64 mod n(n−1)…(n−k+1), and
/// drawn again otherwise. A 52-card deck takes 9 outputs instead of 51.
#[inline]
pub fn batched_shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    // One copy of the batch per size, so that each is unrolled with its positions in registers
    // (a loop over a run-time size cost a third of a refill's shuffle).
    let mut n = items.len();
    // SAFETY, for every batch below: n starts at the length and only falls, each batch is
    // drawn while n ≥ 2, and each but the last while n > K.
    // Two cards, the pot of every plain round under `--pickup shuffled`: one position, not
    // the five-position last batch below.
    if n == 2 {
        unsafe { draw_batch::<T, R, 1, false>(rng, items, n, const { surely_accepted(2, 1) }) };
        return;
    }
    while n > 512 {
        let batch = batch_size(n);
        let sure = surely_accepted(n, batch);
        unsafe {
            match batch {
                5 => draw_batch::<T, R, 5, false>(rng, items, n, sure),
                4 => draw_batch::<T, R, 4, false>(rng, items, n, sure),
                3 => draw_batch::<T, R, 3, false>(rng, items, n, sure),
                2 => draw_batch::<T, R, 2, false>(rng, items, n, sure),
                _ => draw_batch::<T, R, 1, false>(rng, items, n, sure),
            }
        }
        n -= batch;
    }
    // The bound as a constant (in a register, it cost more than the calls it saved): one
    // copy of the six-position batches for up to 64 items (every pile and heap of the
    // 64-card size class), one for up to 512.
    n = if n <= 64 {
        six_position_batches::<T, R, 64>(rng, items, n)
    } else {
        six_position_batches::<T, R, 512>(rng, items, n)
    };
    // The last batch, n − 1 < 6 positions, is the five-position batch with the ranges past
    // n − 1 clamped to 1: a range of 1 draws position 0 for position 0 and leaves the low word
    // as it was, so those steps change nothing, and one copy serves every length without a
    // jump on it (mispredicted once a refill).
    if n > 1 {
        unsafe { draw_batch::<T, R, 5, true>(rng, items, n, const { surely_accepted(6, 5) }) };
    }
}

/// Six-position batches of `items[..n]` while more than six are left, for n ≤ `MOST`, with
/// the bound of batches from `MOST` items; returns how many are left.
#[inline(always)]
fn six_position_batches<T, R: Rng + ?Sized, const MOST: usize>(
    rng: &mut R,
    items: &mut [T],
    mut n: usize,
) -> usize {
    debug_assert!(n <= MOST && n <= items.len());
    while n > 6 {
        // SAFETY: n ≤ items.len() (the caller's), and n > 6 here.
        unsafe { draw_batch::<T, R, 6, false>(rng, items, n, const { surely_accepted(MOST, 6) }) };
        n -= 6;
    }
    n
}

/// Fills positions n−1, …, n−K of `items[..n]` from one output (more if it is rejected); if
/// `CLAMPED`, for n ≤ K, positions n−1 down to 0, the steps past position 1 drawing from a
/// range of 1. A last low word of at least `sure` ([`surely_accepted`]) accepts the batch at
/// once.
///
/// # Safety
/// 2 ≤ n ≤ `items.len()`, and n > K unless `CLAMPED`: [`batched_shuffle`]'s loop holds
/// this by construction, so it is not checked again in every batch.
#[inline(always)]
unsafe fn draw_batch<T, R: Rng + ?Sized, const K: usize, const CLAMPED: bool>(
    rng: &mut R,
    items: &mut [T],
    n: usize,
    sure: u64,
) {
    debug_assert!(n >= 2 && n <= items.len() && (CLAMPED || n > K));
    // The clamps only where a batch may run past position 0: elsewhere they cost a
    // compare and a move a position.
    let below = |from: usize, step: usize| {
        if CLAMPED {
            from.saturating_sub(step)
        } else {
            from - step
        }
    };
    let last = n - 1;
    loop {
        // The positions first, in registers, then the swaps: swapping as each position came
        // took 1.3 times as long in a standalone loop and war-simulator's rounds 1.1 times (a
        // swap's loads waited on the stores of the one before, whose addresses came late from
        // the chain of multiplies), and a rejection has nothing to undo.
        let mut low = rng.next_u64();
        let mut positions = [0usize; K];
        for (step, position) in positions.iter_mut().enumerate() {
            let range = below(n, step).max(1);
            let wide = u128::from(low) * range as u128;
            low = wide as u64;
            *position = (wide >> 64) as usize;
        }
        if low >= sure || !rejected(n, K.min(n - 1), low) {
            for (step, &position) in positions.iter().enumerate() {
                // SAFETY: i = below(last, step) < n ≤ items.len() by the contract above, and
                // the position, the high word of x·(i + 1) for some x < 2^64 (x·1 when
                // clamped, with i = 0), is at most i.
                unsafe { swap_below(items, below(last, step), position) };
            }
            return;
        }
    }
}

/// True when a batch of `k` positions from `n` whose last low word is `low` is rejected: `low`
/// is below 2^64 mod n(n−1)…(n−k+1).
// Out of line: inlined, its product was worked out for every batch, accepted or not. The
// division only when the low word is below the product (the threshold is below it): for a
// 52-card deck's batch that is one time in about 10^9, and the division was 3% of
// war-simulator's time.
#[cold]
#[inline(never)]
fn rejected(n: usize, k: usize, low: u64) -> bool {
    let product: u64 = (0..k).map(|step| (n - step) as u64).product();
    low < product && low < product.wrapping_neg() % product
}

/// Swaps `items[i]` and `items[j]`.
///
/// # Safety
/// j ≤ i < `items.len()`.
#[inline(always)]
unsafe fn swap_below<T>(items: &mut [T], i: usize, j: usize) {
    debug_assert!(j <= i && i < items.len());
    // SAFETY: the caller gives j ≤ i < items.len().
    unsafe {
        let base = items.as_mut_ptr();
        std::ptr::swap(base.add(i), base.add(j));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{SeedableRng, TryRng};

    /// The shuffle as first written (one loop over the batch, the product worked out at every
    /// position): the draws every warsim game was pinned to.
    fn reference<T>(rng: &mut impl Rng, items: &mut [T]) {
        let mut n = items.len();
        let mut positions = [0usize; 6];
        while n > 1 {
            let batch = batch_size(n).min(n - 1);
            loop {
                let mut low = rng.next_u64();
                let mut product = 1u64;
                for (step, slot) in positions[..batch].iter_mut().enumerate() {
                    let range = (n - step) as u64;
                    let wide = u128::from(low) * u128::from(range);
                    low = wide as u64;
                    product *= range;
                    *slot = (wide >> 64) as usize;
                    items.swap(n - 1 - step, *slot);
                }
                if low >= product || low >= product.wrapping_neg() % product {
                    break;
                }
                for (step, &j) in positions[..batch].iter().enumerate().rev() {
                    items.swap(n - 1 - step, j);
                }
            }
            n -= batch;
        }
    }

    /// A stream whose outputs are often tiny, so that batches are rejected.
    struct Lowly(Xoshiro256PlusPlus);

    impl TryRng for Lowly {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.next_u32())
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let word = self.0.next_u64();
            // Shifted right by 0 to 63 bits: below 2^60 one time in about 1.1.
            Ok(word >> (word & 63))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            self.0.fill_bytes(dst);
            Ok(())
        }
    }

    /// Shuffles `len` items with [`reference`] and with [`batched_shuffle`], each from a fresh
    /// stream of `stream`, and checks the orders and where the streams were left.
    fn same_draws<R: Rng>(len: u16, stream: impl Fn() -> R, label: &str) {
        let mut expected: Vec<u16> = (0..len).collect();
        let mut rng = stream();
        reference(&mut rng, &mut expected);
        let mut items: Vec<u16> = (0..len).collect();
        let mut again = stream();
        batched_shuffle(&mut again, &mut items);
        assert_eq!(items, expected, "{len} items, {label}");
        assert_eq!(again.next_u64(), rng.next_u64(), "{len} items, {label}");
    }

    #[test]
    fn the_unrolled_batches_draw_as_the_first_shuffle() {
        for len in (0..=700).chain([1023, 1024, 2047, 2048, 2049, 5000]) {
            for seed in 0..3 {
                same_draws(
                    len,
                    || Xoshiro256PlusPlus::seed_from_u64(seed),
                    &format!("seed {seed}"),
                );
                // Rejected batches: undone and drawn again, exactly as before.
                let low = || Lowly(Xoshiro256PlusPlus::seed_from_u64(seed));
                same_draws(len, low, &format!("seed {seed}, low outputs"));
            }
        }
    }
}
