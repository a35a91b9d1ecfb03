//! war_card_game's shuffle is written out by hand for speed (`engine/random/chacha.rs`); rand 0.8
//! itself is the oracle: `StdRng::seed_from_u64(s)` and `SliceRandom::shuffle` must give the
//! same order for every seed, every length, and leave the stream at the same place.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use warsim::testing::{GameRandom, WarCardGameRng};

#[test]
fn decks_equal_rand_08s_for_thousands_of_seeds() {
    for seed in (0..4000).chain([u64::MAX, 1 << 63, 0x9E37_79B9_7F4A_7C15]) {
        let mut ours: Vec<u16> = (0..52).collect();
        let mut theirs = ours.clone();
        let mut stream = WarCardGameRng::new(seed);
        stream.shuffle(&mut ours);
        let mut oracle = StdRng::seed_from_u64(seed);
        theirs.shuffle(&mut oracle);
        assert_eq!(ours, theirs, "seed {seed}");
        // The stream is left where rand leaves it: a second shuffle agrees too.
        let mut again: Vec<u16> = (0..52).collect();
        let mut oracle_again = again.clone();
        stream.shuffle(&mut again);
        oracle_again.shuffle(&mut oracle);
        assert_eq!(again, oracle_again, "seed {seed}, second shuffle");
    }
}

#[test]
fn every_length_up_to_the_largest_deck_shuffles_as_rand_08_does() {
    for len in 0..=1100usize {
        let seed = len as u64 * 7919;
        let mut ours: Vec<u16> = (0..len as u16).collect();
        let mut theirs = ours.clone();
        WarCardGameRng::new(seed).shuffle(&mut ours);
        theirs.shuffle(&mut StdRng::seed_from_u64(seed));
        assert_eq!(ours, theirs, "length {len}");
    }
}
