//! ChaCha12 for sixteen games at once with AVX-512: the first words of sixteen war_card_game
//! streams (`chacha.rs`), one game per 32-bit lane.
//!
//! One game's deal draws about 76 words (rand 0.8's shuffle rejects up to half its draws), so
//! the eight-block call of `chacha_wide.rs` makes three blocks a game never reads, and it is
//! bound by the latency of one block's dependent steps (94 ns a call on the Zen 4 host).
//! With one stream per lane every register holds the same word of sixteen blocks, so the
//! rounds need no shuffles and sixteen independent chains keep the vector units busy: six
//! blocks a game cost 54 ns. Six blocks (96 words) cover all but one deal in three hundred;
//! a longer one goes on from block 6 by the generator's own refills.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::chacha_wide::{BLOCK_WORDS, Wide};
#[cfg(target_arch = "x86_64")]
use super::chacha_wide::{quarter, transpose_lanes};

/// Games made at once.
pub(in crate::engine) const LANES: usize = 16;

/// Blocks made ahead for each game.
pub(in crate::engine) const AHEAD_BLOCKS: usize = 6;

/// Words made ahead for each game.
pub(in crate::engine) const AHEAD_WORDS: usize = AHEAD_BLOCKS * BLOCK_WORDS;

impl Wide {
    /// The first [`AHEAD_WORDS`] words of sixteen ChaCha12 streams (nonce 0) into `out`,
    /// stream `lane` with the key `keys[0][lane]`, …, `keys[7][lane]`.
    #[inline]
    pub(in crate::engine) fn ahead(
        self,
        keys: &[[u32; LANES]; 8],
        out: [&mut [u32; AHEAD_WORDS]; LANES],
    ) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token exists only where the processor has AVX-512F.
        unsafe {
            ahead_avx512(keys, out)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (keys, out);
            unreachable!("no token off x86_64")
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn ahead_avx512(keys: &[[u32; LANES]; 8], out: [&mut [u32; AHEAD_WORDS]; LANES]) {
    use super::chacha_wide::{CONSTANTS, DOUBLE_ROUNDS};
    // SAFETY (every load below): reads the sixteen words of one key row.
    let keys: [__m512i; 8] =
        std::array::from_fn(|j| unsafe { _mm512_loadu_si512(keys[j].as_ptr().cast()) });
    for block in 0..AHEAD_BLOCKS {
        // Nonce 0 and a block counter below 2^32: words 13, 14 and 15 start at zero.
        let start: [__m512i; BLOCK_WORDS] = std::array::from_fn(|w| match w {
            0..4 => _mm512_set1_epi32(CONSTANTS[w] as i32),
            4..12 => keys[w - 4],
            12 => _mm512_set1_epi32(block as i32),
            _ => _mm512_setzero_si512(),
        });
        let mut x = start;
        for _ in 0..DOUBLE_ROUNDS {
            quarter!(x[0], x[4], x[8], x[12]);
            quarter!(x[1], x[5], x[9], x[13]);
            quarter!(x[2], x[6], x[10], x[14]);
            quarter!(x[3], x[7], x[11], x[15]);
            quarter!(x[0], x[5], x[10], x[15]);
            quarter!(x[1], x[6], x[11], x[12]);
            quarter!(x[2], x[7], x[8], x[13]);
            quarter!(x[3], x[4], x[9], x[14]);
        }
        for (word, first) in x.iter_mut().zip(start) {
            *word = _mm512_add_epi32(*word, first);
        }
        // Register w holds word w of the sixteen games. Interleaving words by pairs and then
        // by fours leaves, for each four words 4g..4g+3, register quads[g][j] whose 128-bit
        // lane l holds those words of game 4l + j.
        let mut quads = [[_mm512_setzero_si512(); 4]; 4];
        for (g, quad) in quads.iter_mut().enumerate() {
            let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
            let (ab_low, ab_high) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
            let (cd_low, cd_high) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
            *quad = [
                _mm512_unpacklo_epi64(ab_low, cd_low),
                _mm512_unpackhi_epi64(ab_low, cd_low),
                _mm512_unpacklo_epi64(ab_high, cd_high),
                _mm512_unpackhi_epi64(ab_high, cd_high),
            ];
        }
        for j in 0..4 {
            // Transposing 128-bit lanes gathers game 4l + j's sixteen words.
            let games = transpose_lanes([quads[0][j], quads[1][j], quads[2][j], quads[3][j]]);
            for (l, words) in games.into_iter().enumerate() {
                let target = &mut out[4 * l + j][block * BLOCK_WORDS..][..BLOCK_WORDS];
                // SAFETY: writes the sixteen words of one block of one game.
                unsafe { _mm512_storeu_si512(target.as_mut_ptr().cast(), words) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::chacha_wide::block_reference;
    use super::*;

    #[test]
    #[cfg_attr(
        not(host_avx512f),
        ignore = "this processor lacks AVX-512F: the AVX-512 ChaCha is not used here"
    )]
    fn sixteen_streams_are_sixteen_reference_streams() {
        let wide = Wide::detect().expect("build.rs found AVX-512F on this machine");
        let key = |lane: usize| -> [u32; 8] {
            std::array::from_fn(|j| (lane as u32 + 1).wrapping_mul(0x9E37_79B9) ^ (j as u32) << 28)
        };
        let keys = std::array::from_fn(|j| std::array::from_fn(|lane| key(lane)[j]));
        let mut words = [[0; AHEAD_WORDS]; LANES];
        wide.ahead(&keys, words.each_mut());
        for (lane, words) in words.iter().enumerate() {
            for (block, words) in words.chunks_exact(BLOCK_WORDS).enumerate() {
                let expected = block_reference(&key(lane), block as u64);
                assert_eq!(words, expected, "lane {lane}, block {block}");
            }
        }
    }
}
