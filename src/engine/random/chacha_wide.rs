//! ChaCha12 eight blocks at a time with AVX-512, for war_card_game's stream (`chacha.rs`).
//!
//! rand_chacha makes four blocks per refill with AVX2 at about 600 instructions, and a deal
//! needs five blocks (about 76 words), so it refilled twice. Here one call makes eight blocks
//! in two independent sets of four (each block's rows in one 128-bit lane of four 512-bit
//! registers; AVX-512's rotate is one instruction), about 300 instructions in all. The
//! one-block reference below is the cipher as written in RFC 8439 with twelve rounds; the
//! tests hold both to rand_chacha's stream.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

pub(in crate::engine) use crate::engine::cpu::Wide;

/// Blocks one [`Wide::blocks8`] call makes.
pub(in crate::engine) const BLOCKS: usize = 8;

/// Words in a ChaCha block.
pub(in crate::engine) const BLOCK_WORDS: usize = 16;

/// "expand 32-byte k".
#[cfg(any(target_arch = "x86_64", test))]
pub(in crate::engine) const CONSTANTS: [u32; 4] =
    [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// Double rounds in ChaCha12.
#[cfg(any(target_arch = "x86_64", test))]
pub(in crate::engine) const DOUBLE_ROUNDS: usize = 6;

impl Wide {
    /// Blocks `block` … `block + 7` of the stream with `key` (nonce 0), block after block.
    #[inline]
    pub(in crate::engine) fn blocks8(
        self,
        key: &[u32; 8],
        block: u64,
        out: &mut [u32; BLOCKS * BLOCK_WORDS],
    ) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token exists only where the processor has AVX-512F.
        unsafe {
            blocks8_avx512(key, block, out)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (key, block, out);
            unreachable!("no token off x86_64")
        }
    }
}

/// One quarter round on four 512-bit registers (places: variables or array elements), lane by
/// lane: here every lane a block's row, in `chacha_lanes.rs` every register one word of sixteen
/// blocks.
#[cfg(target_arch = "x86_64")]
macro_rules! quarter {
    ($a:expr, $b:expr, $c:expr, $d:expr) => {
        $a = _mm512_add_epi32($a, $b);
        $d = _mm512_rol_epi32::<16>(_mm512_xor_si512($d, $a));
        $c = _mm512_add_epi32($c, $d);
        $b = _mm512_rol_epi32::<12>(_mm512_xor_si512($b, $c));
        $a = _mm512_add_epi32($a, $b);
        $d = _mm512_rol_epi32::<8>(_mm512_xor_si512($d, $a));
        $c = _mm512_add_epi32($c, $d);
        $b = _mm512_rol_epi32::<7>(_mm512_xor_si512($b, $c));
    };
}

#[cfg(target_arch = "x86_64")]
pub(in crate::engine) use quarter;

/// Lines the diagonals up as columns (`rotate` b by one word, c by two, d by three), or back.
#[cfg(target_arch = "x86_64")]
macro_rules! turn {
    ($b:ident, $c:ident, $d:ident, $mb:literal, $md:literal) => {
        $b = _mm512_shuffle_epi32::<$mb>($b);
        $c = _mm512_shuffle_epi32::<0x4E>($c);
        $d = _mm512_shuffle_epi32::<$md>($d);
    };
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn blocks8_avx512(key: &[u32; 8], block: u64, out: &mut [u32; BLOCKS * BLOCK_WORDS]) {
    let lane = |words: [u32; 4]| {
        // SAFETY: reads 16 bytes of a local array.
        _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(words.as_ptr().cast()) })
    };
    let counters = |first: u64| {
        let word = |k: u64, high: bool| {
            let n = first.wrapping_add(k);
            (if high { n >> 32 } else { n }) as u32 as i32
        };
        _mm512_set_epi32(
            0,
            0,
            word(3, true),
            word(3, false),
            0,
            0,
            word(2, true),
            word(2, false),
            0,
            0,
            word(1, true),
            word(1, false),
            0,
            0,
            word(0, true),
            word(0, false),
        )
    };
    let k = lane(CONSTANTS);
    let k0 = lane([key[0], key[1], key[2], key[3]]);
    let k1 = lane([key[4], key[5], key[6], key[7]]);
    let d_first = counters(block);
    let d_second = counters(block.wrapping_add(4));
    let (mut a, mut b, mut c, mut d) = (k, k0, k1, d_first);
    let (mut e, mut f, mut g, mut h) = (k, k0, k1, d_second);
    for _ in 0..DOUBLE_ROUNDS {
        quarter!(a, b, c, d);
        quarter!(e, f, g, h);
        turn!(b, c, d, 0x39, 0x93);
        turn!(f, g, h, 0x39, 0x93);
        quarter!(a, b, c, d);
        quarter!(e, f, g, h);
        turn!(b, c, d, 0x93, 0x39);
        turn!(f, g, h, 0x93, 0x39);
    }
    let rows = [
        [
            _mm512_add_epi32(a, k),
            _mm512_add_epi32(b, k0),
            _mm512_add_epi32(c, k1),
            _mm512_add_epi32(d, d_first),
        ],
        [
            _mm512_add_epi32(e, k),
            _mm512_add_epi32(f, k0),
            _mm512_add_epi32(g, k1),
            _mm512_add_epi32(h, d_second),
        ],
    ];
    for (set, [a, b, c, d]) in rows.into_iter().enumerate() {
        // Lane i of each row register is row r of block i.
        for (i, words) in transpose_lanes([a, b, c, d]).into_iter().enumerate() {
            let at = (set * 4 + i) * BLOCK_WORDS;
            let target: &mut [u32; BLOCK_WORDS] = (&mut out[at..at + BLOCK_WORDS])
                .try_into()
                .expect("a block's words");
            // SAFETY: writes the 64 bytes of one block of `out`.
            unsafe { _mm512_storeu_si512(target.as_mut_ptr().cast(), words) };
        }
    }
}

/// A 4×4 transpose of 128-bit lanes: lane i of result r is lane r of `rows[i]`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(in crate::engine) fn transpose_lanes(rows: [__m512i; 4]) -> [__m512i; 4] {
    let [a, b, c, d] = rows;
    let ab_low = _mm512_shuffle_i32x4::<0x44>(a, b);
    let cd_low = _mm512_shuffle_i32x4::<0x44>(c, d);
    let ab_high = _mm512_shuffle_i32x4::<0xEE>(a, b);
    let cd_high = _mm512_shuffle_i32x4::<0xEE>(c, d);
    [
        _mm512_shuffle_i32x4::<0x88>(ab_low, cd_low),
        _mm512_shuffle_i32x4::<0xDD>(ab_low, cd_low),
        _mm512_shuffle_i32x4::<0x88>(ab_high, cd_high),
        _mm512_shuffle_i32x4::<0xDD>(ab_high, cd_high),
    ]
}

/// Block `block` of the ChaCha12 stream with `key` and nonce 0, one word at a time.
#[cfg(test)]
pub(in crate::engine) fn block_reference(key: &[u32; 8], block: u64) -> [u32; BLOCK_WORDS] {
    let mut start = [0u32; BLOCK_WORDS];
    start[..4].copy_from_slice(&CONSTANTS);
    start[4..12].copy_from_slice(key);
    start[12] = block as u32;
    start[13] = (block >> 32) as u32;
    let mut x = start;
    let quarter = |x: &mut [u32; BLOCK_WORDS], a: usize, b: usize, c: usize, d: usize| {
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(16);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(12);
        x[a] = x[a].wrapping_add(x[b]);
        x[d] = (x[d] ^ x[a]).rotate_left(8);
        x[c] = x[c].wrapping_add(x[d]);
        x[b] = (x[b] ^ x[c]).rotate_left(7);
    };
    for _ in 0..DOUBLE_ROUNDS {
        quarter(&mut x, 0, 4, 8, 12);
        quarter(&mut x, 1, 5, 9, 13);
        quarter(&mut x, 2, 6, 10, 14);
        quarter(&mut x, 3, 7, 11, 15);
        quarter(&mut x, 0, 5, 10, 15);
        quarter(&mut x, 1, 6, 11, 12);
        quarter(&mut x, 2, 7, 8, 13);
        quarter(&mut x, 3, 4, 9, 14);
    }
    for (word, first) in x.iter_mut().zip(start) {
        *word = word.wrapping_add(first);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(
        not(host_avx512f),
        ignore = "this processor lacks AVX-512F: the AVX-512 ChaCha is not used here"
    )]
    fn eight_blocks_are_eight_reference_blocks() {
        let wide = Wide::detect().expect("build.rs found AVX-512F on this machine");
        let key = [1, 2, 3, 0xDEAD_BEEF, 5, 6, 7, 0x8000_0001];
        // Counters that carry into the high word inside a call.
        for first in [0, 1, 13, u64::from(u32::MAX) - 5, u64::MAX - 2] {
            let mut out = [0; BLOCKS * BLOCK_WORDS];
            wide.blocks8(&key, first, &mut out);
            for (i, words) in out.chunks_exact(BLOCK_WORDS).enumerate() {
                let expected = block_reference(&key, first.wrapping_add(i as u64));
                assert_eq!(words, expected, "block {first} + {i}");
            }
        }
    }
}
