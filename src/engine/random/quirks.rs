//! The shuffles some original programs run instead of a uniform one (`--shuffle`): Sattolo's
//! algorithm, which WarSimulator runs by drawing `Next(i)` where Fisher–Yates draws
//! `Next(i + 1)` (and then reads the list from its end, pushing it onto a stack), and
//! Game-of-War's reshuffle, each card in turn swapped with one drawn from the
//! whole pile. Written out like the pinned Fisher–Yates (one bounded draw a position, rand 0.8's
//! sampler), so that a seed replays the same games; neither is in a crate, being wrong on
//! purpose.

use rand_xoshiro::rand_core::{Rng, TryRng};

use super::{GameRandom, bounded_from_words};
use crate::engine::rules::Shuffle;

/// A game's random stream whose shuffles follow `method`; every other draw passes through.
pub struct Shuffler<R> {
    inner: R,
    method: Shuffle,
}

impl<R: GameRandom> Shuffler<R> {
    /// `inner`'s draws, shuffled by `method`.
    pub fn new(inner: R, method: Shuffle) -> Self {
        Shuffler { inner, method }
    }
}

impl<R: GameRandom> GameRandom for Shuffler<R> {
    fn shuffle<T>(&mut self, items: &mut [T]) {
        match self.method {
            Shuffle::FisherYates => self.inner.shuffle(items),
            Shuffle::Sattolo => {
                // WarSimulator pushes the shuffled list onto its pile: the list's last card
                // comes out first.
                sattolo(&mut self.inner, items);
                items.reverse();
            }
            Shuffle::SwapAny => swap_any(&mut self.inner, items),
        }
    }
}

/// Sattolo's shuffle: position i (last first) swapped with one drawn strictly below it, so no
/// card stays where it was and the result is one cycle through every position, each of the
/// (n − 1)! such orders equally likely.
pub fn sattolo<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = bounded_from_words(i as u32, || rng.next_u32());
        items.swap(i, j as usize);
    }
}

/// Each position in turn, first to last, swapped with one drawn from the whole pile: nⁿ
/// equally likely draws onto n! orders, so some orders come up more often than others.
pub fn swap_any<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    let n = items.len() as u32;
    for i in 0..items.len() {
        let j = bounded_from_words(n, || rng.next_u32());
        items.swap(i, j as usize);
    }
}

impl<R: GameRandom> TryRng for Shuffler<R> {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.inner.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.inner.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.inner.fill_bytes(dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random::game_rng;
    use std::collections::HashMap;

    /// How often each order of `0..len` comes up in `draws` shuffles.
    fn orders(
        shuffle: fn(&mut crate::engine::random::GameRng, &mut [u8]),
        len: u8,
        draws: u32,
    ) -> HashMap<Vec<u8>, u32> {
        let mut rng = game_rng(7);
        let mut seen = HashMap::new();
        for _ in 0..draws {
            let mut items: Vec<u8> = (0..len).collect();
            shuffle(&mut rng, &mut items);
            *seen.entry(items).or_insert(0) += 1;
        }
        seen
    }

    #[test]
    fn sattolo_gives_every_single_cycle_and_nothing_else() {
        // Four cards: the 3! = 6 orders that move every card along one cycle, each about
        // equally often; never a card in place.
        let seen = orders(sattolo, 4, 60_000);
        assert_eq!(seen.len(), 6);
        for (order, &count) in &seen {
            assert!(
                order.iter().enumerate().all(|(i, &c)| usize::from(c) != i),
                "{order:?}"
            );
            assert!((9_000..11_000).contains(&count), "{order:?} {count}");
        }
    }

    #[test]
    fn swap_any_gives_every_order_with_the_known_bias() {
        // Three cards: 27 equally likely draws onto 6 orders; 1 2 0, 1 0 2 and 0 2 1 come
        // from 5 draws each, the other three from 4 (the textbook count).
        let seen = orders(swap_any, 3, 270_000);
        assert_eq!(seen.len(), 6);
        for (order, &count) in &seen {
            let draws = match order.as_slice() {
                [1, 2, 0] | [1, 0, 2] | [0, 2, 1] => 5,
                _ => 4,
            };
            let expected = 10_000 * draws;
            assert!(
                count.abs_diff(expected) < 1_000,
                "{order:?} {count} vs {expected}"
            );
        }
    }
}
