//! Random streams: the per-game seed derivation, and the shuffle (with its bounded draws) the
//! engine makes from them, exact and written out here.
//!
//! Nothing here depends on the version of `rand`, so a seed replays the same game for as long
//! as the stream is unchanged (the `value_stability` tests pin it). warsim's own generator draws
//! several shuffle positions from each 64-bit output; war_card_game's generator draws them as
//! rand 0.8 does, one 32-bit output each, so that its seeds deal the crate's games.

mod batched;
pub(crate) mod chacha;
pub(crate) mod chacha_lanes;
mod chacha_wide;
mod quirks;

pub use batched::batched_shuffle;
pub use quirks::Shuffler;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::engine::rules::{Generator, MAX_CARDS, Rules};

/// The generator warsim's own games use: xoshiro256++ seeded from a u64 through SplitMix64.
pub type GameRng = Xoshiro256PlusPlus;

pub use chacha::WarCardGameRng;

/// A game's random stream with the shuffle the engine draws from it.
pub trait GameRandom: Rng {
    /// Puts `items` in a uniformly random order (Fisher–Yates, last position first).
    fn shuffle<T>(&mut self, items: &mut [T]);
}

impl GameRandom for GameRng {
    // One copy, out of line, with the batched shuffle inlined into it: left to the inliner,
    // the layout changed with the callers the original programs' shuffles added, and the
    // shuffle cost up to half as much again.
    #[inline(never)]
    fn shuffle<T>(&mut self, items: &mut [T]) {
        // The state in a local, so that it stays in registers: behind `&mut self` it was stored
        // back after every batch (four stores a batch; war-simulator's rounds 6% slower).
        let mut local = self.clone();
        batched_shuffle(&mut local, items);
        *self = local;
    }
}

impl GameRandom for AnyRng {
    fn shuffle<T>(&mut self, items: &mut [T]) {
        match self {
            AnyRng::Xoshiro(rng) => rng.shuffle(items),
            AnyRng::WarCardGame(rng) => rng.shuffle(items),
        }
    }
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// Either generator, chosen at run time: for single games, where speed does not matter.
pub enum AnyRng {
    /// warsim's own.
    Xoshiro(GameRng),
    /// war_card_game's (boxed: ChaCha's buffer is large).
    WarCardGame(Box<WarCardGameRng>),
}

impl AnyRng {
    /// The stream of `seed` from `generator`.
    pub fn new(generator: Generator, seed: u64) -> AnyRng {
        match generator {
            Generator::Xoshiro => AnyRng::Xoshiro(game_rng(seed)),
            Generator::WarCardGame => AnyRng::WarCardGame(Box::new(WarCardGameRng::new(seed))),
        }
    }
}

impl rand_xoshiro::rand_core::TryRng for AnyRng {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(match self {
            AnyRng::Xoshiro(rng) => rng.next_u32(),
            AnyRng::WarCardGame(rng) => rng.next_u32(),
        })
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(match self {
            AnyRng::Xoshiro(rng) => rng.next_u64(),
            AnyRng::WarCardGame(rng) => rng.next_u64(),
        })
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        match self {
            AnyRng::Xoshiro(rng) => rng.fill_bytes(dst),
            AnyRng::WarCardGame(rng) => rng.fill_bytes(dst),
        }
        Ok(())
    }
}

impl Rules {
    /// The seed that plays game `index` of a batch with base seed `base`: [`game_seed`] for
    /// warsim's own generator, `base + index` for war_card_game's (the crate's `--range`).
    /// (Defined here, with the streams it seeds, rather than with the rules.)
    pub fn game_seed(&self, base: u64, index: u64) -> u64 {
        match self.generator {
            Generator::Xoshiro => game_seed(base, index),
            Generator::WarCardGame => base.wrapping_add(index),
        }
    }
}

/// The seed of game `index` in a batch with base seed `base`: output number `index` (0-based)
/// of a SplitMix64 stream started at `base`. Random access, so any game replays on its own.
#[inline]
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base.wrapping_add(index.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The random stream of one game.
#[inline]
pub fn game_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A uniform integer in `0..range` (`range` ≥ 1): widening multiply with rejection, as rand
/// 0.8's `gen_range` for u32, so it is exact and reproducible.
#[cfg(any(test, feature = "testing"))]
#[inline]
pub fn bounded_u32<R: Rng + ?Sized>(rng: &mut R, range: u32) -> u32 {
    bounded_from_words(range, || rng.next_u32())
}

/// `bounded_u32` (built for tests) drawing 32-bit words from `next_word`.
#[inline]
fn bounded_from_words(range: u32, mut next_word: impl FnMut() -> u32) -> u32 {
    debug_assert!(range > 0);
    let zone = zone(range);
    loop {
        let wide = u64::from(next_word()) * u64::from(range);
        if (wide as u32) <= zone {
            return (wide >> 32) as u32;
        }
    }
}

/// rand 0.8's acceptance bound for a draw in `0..range`: the low half of the product must not
/// exceed it.
const fn zone(range: u32) -> u32 {
    (range << range.leading_zeros()).wrapping_sub(1)
}

/// Ranges with a looked-up [`zone`]: a power of two above every deck size, so that a mask
/// keeps lookups in bounds without a check.
const ZONED: usize = (MAX_CARDS as usize + 1).next_power_of_two();

/// [`zone`] for every range of a deck's shuffle, looked up: on the shuffle's critical path, the
/// leading-zero count costs four cycles here.
static ZONES: [u32; ZONED] = {
    let mut zones = [0; ZONED];
    let mut range = 1;
    while range < zones.len() {
        zones[range] = zone(range as u32);
        range += 1;
    }
    zones
};

/// Fisher–Yates shuffle, last position first, one [`bounded_u32`] a position (rand 0.8's
/// `SliceRandom::shuffle`).
///
/// Without a branch on each rejection: about a quarter of rand 0.8's draws are rejected, at
/// random, and a mispredicted branch on each cost more than the rest of the shuffle. Same
/// draws, same order as [`bounded_u32`].
#[cfg(any(test, feature = "testing"))]
#[inline]
pub fn shuffle_one_by_one<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    shuffle_from_words(items, || rng.next_u32());
}

/// `shuffle_one_by_one` (built for tests) drawing 32-bit words from `next_word`, for a
/// generator that hands out words from its own buffer.
#[inline(always)]
pub(in crate::engine) fn shuffle_from_words<T>(
    items: &mut [T],
    mut next_word: impl FnMut() -> u32,
) {
    // Positions below `i` are still to be filled, last first; position i - 1 draws from 0..i.
    let mut i = items.len();
    // Longer than any deck, past the bounds table: one position at a time.
    while i >= ZONED {
        let j = bounded_from_words(i as u32, &mut next_word);
        items.swap(i - 1, j as usize);
        i -= 1;
    }
    // The range of a draw is `base - previous`: one less after an accepted draw. Both
    // candidates are worked out before the previous draw is decided, so only a select waits
    // on it; a rejected draw swaps its position with itself.
    let (mut base, mut previous) = (i, 0usize);
    while base - previous > 1 {
        let value = u64::from(next_word());
        let wide_same = value * base as u64;
        let wide_less = wide_same - value;
        let ok_same = wide_same as u32 <= ZONES[base & (ZONED - 1)];
        let ok_less = wide_less as u32 <= ZONES[(base - 1) & (ZONED - 1)];
        // A branch on `previous` would be mispredicted.
        let less = previous == 1;
        let wide = std::hint::select_unpredictable(less, wide_less, wide_same);
        let accepted = std::hint::select_unpredictable(less, ok_less, ok_same);
        let position = base - previous - 1;
        let pick = std::hint::select_unpredictable(accepted, (wide >> 32) as usize, position);
        items.swap(position, pick);
        base -= previous;
        previous = usize::from(accepted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_pinned() {
        // value_stability: changing these changes every published result.
        assert_eq!(game_seed(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(game_seed(0, 1), 0x6E78_9E6A_A1B9_65F4);
        assert_ne!(game_seed(1, 0), game_seed(0, 0));
    }

    const PINNED_ORDER: [u8; 12] = [0, 5, 3, 11, 10, 6, 4, 7, 2, 1, 8, 9];

    #[test]
    fn shuffle_stream_is_pinned() {
        // value_stability: a change here changes every warsim game (not war-card-game's).
        let mut rng = game_rng(1);
        let mut items: Vec<u8> = (0..12).collect();
        rng.shuffle(&mut items);
        assert_eq!(items, PINNED_ORDER);
        // Two outputs for 12 items (batches of 6 and 5 positions), none rejected here.
        let mut fresh = game_rng(1);
        fresh.next_u64();
        fresh.next_u64();
        assert_eq!(rng.next_u64(), fresh.next_u64());
    }

    #[test]
    fn bounded_stays_in_range_and_hits_every_value() {
        let mut rng = game_rng(7);
        let mut seen = [0u32; 5];
        for _ in 0..5_000 {
            seen[bounded_u32(&mut rng, 5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn branch_free_shuffle_draws_as_rand_0_8() {
        // rand 0.8's shuffle, one bounded draw per position, against the branch-free version,
        // up to and past the bounds table; the stream must be left at the same place.
        for len in [0, 1, 2, 3, 52, 64, 65, 66, 129, 1024, 2047, 2048, 2100] {
            let mut reference: Vec<u32> = (0..len).collect();
            let mut rng = WarCardGameRng::new(len.into());
            for i in (1..reference.len()).rev() {
                let j = bounded_u32(&mut rng, (i + 1) as u32) as usize;
                reference.swap(i, j);
            }
            let mut branch_free: Vec<u32> = (0..len).collect();
            let mut rng_branch_free = WarCardGameRng::new(len.into());
            shuffle_one_by_one(&mut rng_branch_free, &mut branch_free);
            assert_eq!(branch_free, reference, "{len} items");
            assert_eq!(rng_branch_free.next_u32(), rng.next_u32(), "{len} items");
        }
    }

    #[test]
    fn shuffles_are_permutations() {
        for len in [0, 1, 2, 7, 52, 600, 1024] {
            let mut rng = game_rng(3);
            let mut items: Vec<u32> = (0..len).collect();
            rng.shuffle(&mut items);
            if len > 7 {
                assert_ne!(items, (0..len).collect::<Vec<_>>());
            }
            items.sort_unstable();
            assert_eq!(items, (0..len).collect::<Vec<_>>());
        }
    }

    /// Chi-squared of `draws` shuffles of `len` items against the uniform law on the len!
    /// orders, over `df` = len! − 1 degrees of freedom.
    fn order_chi_squared(shuffle: impl Fn(&mut [u8]), len: usize, draws: u32) -> (f64, f64) {
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            let mut items: Vec<u8> = (0..len as u8).collect();
            shuffle(&mut items);
            *counts.entry(items).or_insert(0u32) += 1;
        }
        let orders: u32 = (1..=len as u32).product();
        assert_eq!(counts.len() as u32, orders, "every order appears");
        let expected = f64::from(draws) / f64::from(orders);
        let chi: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        (chi, f64::from(orders - 1))
    }

    #[test]
    fn batched_shuffle_orders_are_uniform() {
        // 5 items: 120 orders in one batch of 4 positions; 8 items: two batches (6, then 1).
        for len in [5, 8] {
            let rng = std::cell::RefCell::new(game_rng(11));
            let draws = if len == 5 { 240_000 } else { 2_000_000 };
            let (chi, df) = order_chi_squared(|items| rng.borrow_mut().shuffle(items), len, draws);
            // Mean df, sd sqrt(2 df): six standard deviations is a failure, not noise.
            assert!(
                chi < df + 6.0 * (2.0 * df).sqrt(),
                "len {len}: chi² {chi} on {df} df"
            );
        }
    }

    #[test]
    fn war_card_game_shuffle_is_rand_0_8() {
        // rand 0.8's shuffle of 0..10 under StdRng::seed_from_u64(42), taken from the crate.
        let mut rng = WarCardGameRng::new(42);
        let mut items: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut items);
        let mut again = WarCardGameRng::new(42);
        let mut by_hand: Vec<u32> = (0..10).collect();
        shuffle_one_by_one(&mut again, &mut by_hand);
        assert_eq!(items, by_hand);
    }
}
