//! war_card_game's random stream: rand 0.8's `StdRng`, which is rand_chacha 0.3's ChaCha12
//! behind rand_core 0.6's `BlockRng` buffer, rebuilt here with the buffer in our hands.
//!
//! Owning the buffer lets the deal's shuffle read words straight from it, with the position in
//! a register and one predictable check per word, and lets the words come from the eight-block
//! AVX-512 ChaCha (`chacha_wide.rs`) where the processor has it, from rand_chacha's own core
//! elsewhere. A run starts [`Streams`] sixteen at a time, their first words made together
//! (`chacha_lanes.rs`). The stream is a sequence of words whatever the buffer: a double word is two
//! words, low first, even across a refill, and bytes use up whole words, as in `BlockRng`. The
//! tests replay mixed calls against rand_chacha.

use rand_chacha::ChaCha12Core;
use rand_chacha::rand_core::SeedableRng as _;
use rand_chacha::rand_core::block::BlockRngCore;

use super::chacha_lanes::{AHEAD_BLOCKS, AHEAD_WORDS, LANES};
use super::chacha_wide::{BLOCK_WORDS, BLOCKS, Wide};
use super::{GameRandom, shuffle_from_words};

/// The words one rand_chacha refill makes (four blocks).
type CoreWords = <ChaCha12Core as BlockRngCore>::Results;

/// Words the buffer holds: one eight-block refill.
const BUFFER: usize = BLOCKS * BLOCK_WORDS;

/// war_card_game 0.3.1's generator: rand 0.8's `StdRng::seed_from_u64(seed)`, which is
/// ChaCha12 (rand_chacha 0.3) seeded through rand_core 0.6's PCG32 expansion of the u64.
pub struct WarCardGameRng {
    words: [u32; BUFFER],
    /// Words made by the last refill.
    made: usize,
    /// The next word to hand out; `made` when the buffer is used up.
    next: usize,
    source: Source,
}

/// Where the words come from: the same stream either way.
enum Source {
    /// rand_chacha's core, four blocks a refill.
    Core(ChaCha12Core),
    /// The key and the next block, eight blocks a refill.
    Wide {
        wide: Wide,
        key: [u32; 8],
        block: u64,
    },
}

impl WarCardGameRng {
    /// The crate's stream for `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with_source(seed, Wide::detect())
    }

    /// The stream for `seed` from rand_chacha's core even where AVX-512 is there (tests).
    #[cfg(test)]
    fn from_core(seed: u64) -> Self {
        Self::with_source(seed, None)
    }

    #[inline]
    fn with_source(seed: u64, wide: Option<Wide>) -> Self {
        let source = match wide {
            Some(wide) => Source::Wide {
                wide,
                key: key_from_u64(seed),
                block: 0,
            },
            None => Source::Core(ChaCha12Core::seed_from_u64(seed)),
        };
        WarCardGameRng {
            words: [0; BUFFER],
            made: 0,
            next: 0,
            source,
        }
    }

    /// Makes the next words and hands out from the first.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        match &mut self.source {
            Source::Core(core) => {
                let mut words = CoreWords::default();
                core.generate(&mut words);
                self.made = words.as_ref().len();
                self.words[..self.made].copy_from_slice(words.as_ref());
            }
            Source::Wide { wide, key, block } => {
                wide.blocks8(key, *block, &mut self.words);
                *block = block.wrapping_add(BLOCKS as u64);
                self.made = BUFFER;
            }
        }
        self.next = 0;
    }

    #[inline(always)]
    fn word(&mut self) -> u32 {
        if self.next >= self.made {
            self.refill();
        }
        let value = self.words[self.next];
        self.next += 1;
        value
    }
}

/// Sixteen war_card_game streams started together: their first [`AHEAD_WORDS`] words come
/// from one lane-parallel ChaCha call (`chacha_lanes.rs`) straight into each generator's
/// buffer.
pub struct Streams {
    rngs: [WarCardGameRng; LANES],
    wide: Wide,
}

impl Streams {
    /// Sixteen generators, where the processor has AVX-512F (else `None`).
    pub fn new() -> Option<Self> {
        let wide = Wide::detect()?;
        Some(Streams {
            rngs: std::array::from_fn(|_| WarCardGameRng::with_source(0, Some(wide))),
            wide,
        })
    }

    /// Starts stream `lane` of `seeds[lane]` for every lane.
    #[inline]
    pub fn start(&mut self, seeds: &[u64; LANES]) {
        let mut keys = [[0; LANES]; 8];
        for ((lane, &seed), rng) in seeds.iter().enumerate().zip(&mut self.rngs) {
            let key = key_from_u64(seed);
            for (j, &word) in key.iter().enumerate() {
                keys[j][lane] = word;
            }
            rng.source = Source::Wide {
                wide: self.wide,
                key,
                block: AHEAD_BLOCKS as u64,
            };
            (rng.made, rng.next) = (AHEAD_WORDS, 0);
        }
        let out = self.rngs.each_mut().map(|rng| {
            let first: &mut [u32; AHEAD_WORDS] = (&mut rng.words[..AHEAD_WORDS])
                .try_into()
                .expect("the buffer holds the words made ahead");
            first
        });
        self.wide.ahead(&keys, out);
    }

    /// Stream `lane` as started.
    #[inline]
    pub fn lane(&mut self, lane: usize) -> &mut WarCardGameRng {
        &mut self.rngs[lane]
    }
}

/// The ChaCha key rand_core 0.6's `seed_from_u64` makes: eight PCG32 outputs.
pub(in crate::engine) fn key_from_u64(mut state: u64) -> [u32; 8] {
    const MUL: u64 = 6_364_136_223_846_793_005;
    const INC: u64 = 11_634_580_027_462_260_723;
    let mut key = [0; 8];
    for word in &mut key {
        state = state.wrapping_mul(MUL).wrapping_add(INC);
        let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
        *word = xorshifted.rotate_right((state >> 59) as u32);
    }
    key
}

impl rand_xoshiro::rand_core::TryRng for WarCardGameRng {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.word())
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let low = u64::from(self.word());
        Ok(u64::from(self.word()) << 32 | low)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(4) {
            let bytes = self.word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

impl GameRandom for WarCardGameRng {
    #[inline]
    fn shuffle<T>(&mut self, items: &mut [T]) {
        // The position lives in a local while words are drawn, so it stays in a register.
        let (mut next, mut made) = (self.next, self.made);
        shuffle_from_words(items, || {
            if next >= made {
                self.refill();
                (next, made) = (0, self.made);
            }
            let value = self.words[next];
            next += 1;
            value
        });
        self.next = next;
    }
}

#[cfg(test)]
mod tests {
    use super::super::chacha_wide::block_reference;
    use super::*;
    use crate::engine::random::bounded_u32;
    use rand_chacha::rand_core::RngCore as _;
    use rand_xoshiro::rand_core::Rng as _;

    /// rand 0.8's `StdRng::seed_from_u64`, the stream being rebuilt.
    fn reference(seed: u64) -> rand_chacha::ChaCha12Rng {
        rand_chacha::ChaCha12Rng::seed_from_u64(seed)
    }

    /// Both sources: the wide one where the processor has AVX-512 (else the core twice).
    const SOURCES: [fn(u64) -> WarCardGameRng; 2] =
        [WarCardGameRng::new, WarCardGameRng::from_core];

    #[test]
    fn key_and_blocks_are_rand_chacha() {
        for seed in [0, 1, 42, u64::MAX] {
            let key = key_from_u64(seed);
            let mut theirs = reference(seed);
            for block in 0..9 {
                let words = block_reference(&key, block);
                for (i, &word) in words.iter().enumerate() {
                    assert_eq!(
                        word,
                        theirs.next_u32(),
                        "seed {seed}, block {block}, word {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn mixed_calls_match_block_rng() {
        // Word, double-word and byte calls in an order that lands double words on every
        // position of a buffer, across many refills.
        for (source, new) in SOURCES.into_iter().enumerate() {
            let mut ours = new(9);
            let mut theirs = reference(9);
            let mut script = reference(1);
            for step in 0..5_000 {
                let at = format!("source {source}, step {step}");
                match script.next_u32() % 4 {
                    0 => assert_eq!(ours.next_u32(), theirs.next_u32(), "{at}"),
                    1 => assert_eq!(ours.next_u64(), theirs.next_u64(), "{at}"),
                    kind => {
                        let len = (script.next_u32() % 11) as usize + usize::from(kind == 3);
                        let (mut a, mut b) = ([0u8; 12], [0u8; 12]);
                        ours.fill_bytes(&mut a[..len]);
                        theirs.fill_bytes(&mut b[..len]);
                        assert_eq!(a, b, "{at}, {len} bytes");
                    }
                }
            }
        }
    }

    #[test]
    fn double_word_across_a_refill_matches_block_rng() {
        for new in SOURCES {
            for skip in (60..=64).chain(124..=128) {
                let (mut ours, mut theirs) = (new(3), reference(3));
                for _ in 0..skip {
                    assert_eq!(ours.next_u32(), theirs.next_u32());
                }
                assert_eq!(ours.next_u64(), theirs.next_u64(), "after {skip} words");
                assert_eq!(ours.next_u32(), theirs.next_u32(), "after {skip} words");
            }
        }
    }

    #[test]
    fn shuffle_from_the_buffer_is_rand_0_8() {
        // The buffer-reading shuffle against rand 0.8's one draw per position on the reference
        // stream, started at several offsets of a buffer; the streams end at the same word.
        let cases = [
            (0, 52),
            (13, 52),
            (63, 52),
            (127, 52),
            (64, 2),
            (5, 1024),
            (40, 2100),
        ];
        for new in SOURCES {
            for (start, len) in cases {
                let mut ours = new(start as u64);
                let mut theirs = reference(start as u64);
                for _ in 0..start {
                    assert_eq!(ours.next_u32(), theirs.next_u32());
                }
                let mut shuffled: Vec<u32> = (0..len).collect();
                ours.shuffle(&mut shuffled);
                let mut by_hand: Vec<u32> = (0..len).collect();
                for i in (1..by_hand.len()).rev() {
                    let j = bounded_u32(&mut RandCore06(&mut theirs), (i + 1) as u32) as usize;
                    by_hand.swap(i, j);
                }
                assert_eq!(shuffled, by_hand, "start {start}, {len} items");
                assert_eq!(
                    ours.next_u32(),
                    theirs.next_u32(),
                    "start {start}, {len} items"
                );
            }
        }
    }

    /// rand_core 0.6's generator seen through the engine's `Rng` (rand_core 0.10).
    struct RandCore06<'a>(&'a mut rand_chacha::ChaCha12Rng);

    impl rand_xoshiro::rand_core::TryRng for RandCore06<'_> {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0.next_u32())
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.next_u64())
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            self.0.fill_bytes(dst);
            Ok(())
        }
    }
}
