// The standalone loop of results/2026-11-26-swap-floor (a scratch crate: Cargo.toml with no
// dependencies, release profile lto = true, codegen-units = 1; built with
// RUSTFLAGS="-C target-feature=+ssse3"). Run: swap-floor LOW HIGH (heap sizes drawn uniformly in
// LOW..=HIGH). "batch first" is warsim's shuffle as of eb454b4; "xmm" the SSSE3 register
// shuffle of 2026-11-26-shuffle-bound again (heaps of up to 16 cards, the rest as "batch
// first"); "swaps only" makes the same number of swaps with positions read from a list made
// beforehand: no generator and no multiplies, a floor for any shuffle that swaps in place.
// "xmm" is checked against "batch first" for the same orders and words before the timing.
// "sorted keys" (module `sorted`, needs AVX-512: build with RUSTFLAGS="-C target-cpu=native")
// is a different stream, a probe for a new pinned shuffle: each card gets a random 24-bit key
// and a bitonic network sorts 16, 32 or 64 lanes; a check before the timing asserts that it
// gives permutations and puts each card at each place about equally often. standalone.txt
// came from the SSSE3 build before that module was added; sorted-keys.txt from the native
// build of this file.
use std::time::Instant;
use std::arch::x86_64::*;
struct X([u64;4]);
impl X {
    #[inline(always)]
    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let r = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = s[3].rotate_left(45);
        r
    }
}
const fn sure(n: usize, k: usize) -> u64 { let b = usize::BITS - n.leading_zeros(); match 1u64.checked_shl(k as u32 * b) { Some(x)=>x, None=>u64::MAX } }
#[cold] #[inline(never)]
fn rejected(n: usize, k: usize, low: u64) -> bool { let p: u64 = (0..k).map(|s| (n-s) as u64).product(); low < p && low < p.wrapping_neg() % p }
#[inline(always)]
fn sw(items: &mut [u8], i: usize, j: usize) { unsafe { let b = items.as_mut_ptr(); std::ptr::swap(b.add(i), b.add(j)); } }

#[inline(always)]
fn positions<const K: usize>(rng: &mut X, n: usize, s: u64) -> [usize; K] {
    loop {
        let mut low = rng.next();
        let mut pos = [0usize; K];
        for (step, p) in pos.iter_mut().enumerate() {
            let range = n.saturating_sub(step).max(1);
            let w = u128::from(low) * range as u128;
            low = w as u64; *p = (w >> 64) as usize;
        }
        if low >= s || !rejected(n, K.min(n-1), low) { return pos; }
    }
}
#[inline(always)]
fn batch_first<const K: usize>(rng: &mut X, items: &mut [u8], n: usize, s: u64) {
    let last = n - 1;
    let pos = positions::<K>(rng, n, s);
    for (step, &p) in pos.iter().enumerate() { sw(items, last.saturating_sub(step), p); }
}
#[inline(never)]
fn first(rng: &mut X, items: &mut [u8]) {
    let mut n = items.len();
    if n == 2 { batch_first::<1>(rng, items, n, const { sure(2,1) }); return; }
    while n > 6 { batch_first::<6>(rng, items, n, const { sure(64,6) }); n -= 6; }
    if n > 1 { batch_first::<5>(rng, items, n, const { sure(6,5) }); }
}

/// Transpositions of two lanes as pshufb controls, at i * 16 + j.
static TRANS: [[u8; 16]; 256] = {
    let mut t = [[0u8; 16]; 256];
    let mut i = 0;
    while i < 16 { let mut j = 0; while j < 16 {
        let mut k = 0; while k < 16 { t[i*16+j][k] = k as u8; k += 1; }
        t[i*16+j][i] = j as u8; t[i*16+j][j] = i as u8;
        j += 1; } i += 1; }
    t
};
#[inline(always)]
unsafe fn batch_xmm<const K: usize>(rng: &mut X, v: __m128i, n: usize, s: u64) -> __m128i {
    let last = n - 1;
    let pos = positions::<K>(rng, n, s);
    let mut v = v;
    for (step, &p) in pos.iter().enumerate() {
        let i = last.saturating_sub(step);
        unsafe {
            let ctrl = _mm_loadu_si128(TRANS.as_ptr().add(i * 16 + p).cast());
            v = _mm_shuffle_epi8(v, ctrl);
        }
    }
    v
}
/// items: at most 16, with 16 bytes readable and writable from its start
#[inline(never)]
fn xmm(rng: &mut X, items: &mut [u8]) {
    let mut n = items.len();
    if n > 16 { return first(rng, items); }
    if n == 2 { batch_first::<1>(rng, items, n, const { sure(2,1) }); return; }
    unsafe {
        let mut v = _mm_loadu_si128(items.as_ptr().cast());
        while n > 6 { v = batch_xmm::<6>(rng, v, n, const { sure(64,6) }); n -= 6; }
        if n > 1 { v = batch_xmm::<5>(rng, v, n, const { sure(6,5) }); }
        _mm_storeu_si128(items.as_mut_ptr().cast(), v);
    }
}

fn run(f: fn(&mut X, &mut [u8]), sizes: &[usize], reps: usize) -> (f64, u64) {
    let mut rng = X([1,2,3,4]);
    let mut buf = [0u8; 64];
    for (i, b) in buf.iter_mut().enumerate() { *b = i as u8; }
    let mut cards = 0usize; let mut acc = 0u64;
    let t = Instant::now();
    for _ in 0..reps { for &s in sizes {
        f(&mut rng, &mut buf[..s]); cards += s;
        acc = acc.wrapping_add(buf[(acc as usize) % s] as u64);
    } }
    (t.elapsed().as_nanos() as f64 / cards as f64, acc)
}
/// Swaps only: positions read from a list made beforehand (a lower bound for any shuffle that
/// swaps in place, whatever its draws).
fn run_swaps_only(sizes: &[usize], reps: usize) -> f64 {
    let mut rng = X([1,2,3,4]);
    let mut js: Vec<u8> = Vec::new();
    for &s in sizes { for i in (1..s).rev() { js.push(((rng.next() >> 32) * (i as u64 + 1) >> 32) as u8); } }
    let mut buf = [0u8; 64];
    for (i, b) in buf.iter_mut().enumerate() { *b = i as u8; }
    let mut cards = 0usize; let mut acc = 0u64;
    let t = Instant::now();
    for _ in 0..reps {
        let mut at = 0;
        for &s in sizes {
            let items = &mut buf[..s];
            for i in (1..s).rev() { sw(items, i, js[at] as usize); at += 1; }
            cards += s;
            acc = acc.wrapping_add(buf[(acc as usize) % s] as u64);
        }
    }
    std::hint::black_box(acc);
    t.elapsed().as_nanos() as f64 / cards as f64
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lo: usize = args[1].parse().unwrap(); let hi: usize = args[2].parse().unwrap();
    let mut r = X([9,8,7,6]); let sizes: Vec<usize> = (0..4096).map(|_| lo + (r.next() as usize) % (hi-lo+1)).collect();
    for &s in &sizes[..1000] {
        let mut a = X([5,5,5,s as u64]); let mut b = X([5,5,5,s as u64]);
        let mut x = [0u8; 64]; for (i, c) in x.iter_mut().enumerate() { *c = i as u8 * 3; }
        let mut y = x;
        first(&mut a, &mut x[..s]); xmm(&mut b, &mut y[..s]); assert_eq!(x, y, "{s}"); assert_eq!(a.next(), b.next());
    }
    {
        // sorted keys: a permutation, and each card lands at each place about equally often
        let mut rng = X([3,1,4,1]);
        for n in [2usize, 5, 16, 17, 31, 32, 33, 52, 64] {
            let mut counts = vec![0u32; n * n];
            let trials = 20000;
            for _ in 0..trials {
                let mut buf = [0u8; 64];
                for (i, c) in buf.iter_mut().enumerate() { *c = i as u8; }
                sorted::shuffle(&mut rng, &mut buf[..n]);
                let mut seen = buf[..n].to_vec(); seen.sort(); assert_eq!(seen, (0..n as u8).collect::<Vec<_>>(), "{n}");
                for (place, &card) in buf[..n].iter().enumerate() { counts[card as usize * n + place] += 1; }
            }
            let expect = trials as f64 / n as f64;
            let worst = counts.iter().map(|&c| ((c as f64 - expect) / expect.sqrt()).abs()).fold(0.0, f64::max);
            assert!(worst < 6.0, "{n}: {worst}");
        }
    }
    for _ in 0..5 {
        let (a, _) = run(first, &sizes, 3000);
        let (b, _) = run(xmm, &sizes, 3000);
        let c = run_swaps_only(&sizes, 3000);
        let (d, _) = run(sorted::shuffle, &sizes, 3000);
        println!("ns a card: batch first {a:.3} | xmm {b:.3} ({:.2}) | swaps only {c:.3} ({:.2}) | sorted keys {d:.3} ({:.2})", b/a, c/a, d/a);
    }
}

// ---- A shuffle by sorting random keys in AVX-512 registers (a different stream: a probe for
// a new pinned shuffle, not warsim's). Each card becomes key << 8 | card in a 32-bit lane, the
// lanes past the heap hold u32::MAX, and a bitonic network sorts 16, 32 or 64 lanes; tied keys
// (about n²/2^25) draw all the keys again.
mod sorted {
    use super::X;
    use std::arch::x86_64::*;

    const fn take_min(k: usize, j: usize, reg: usize) -> u16 {
        let mut m = 0u16;
        let mut l = 0;
        while l < 16 {
            let i = 16 * reg + l;
            let low = i & j == 0;
            let asc = i & k == 0;
            if low == asc { m |= 1 << l; }
            l += 1;
        }
        m
    }
    const fn lanes_xor(j: usize) -> [u32; 16] {
        let mut a = [0u32; 16];
        let mut l = 0;
        while l < 16 { a[l] = (l ^ j) as u32; l += 1; }
        a
    }
    static XOR: [[u32; 16]; 4] = [lanes_xor(1), lanes_xor(2), lanes_xor(4), lanes_xor(8)];

    #[inline(always)]
    unsafe fn intra<const R: usize>(r: &mut [__m512i; R], k: usize, j: usize) {
        unsafe {
            let idx = _mm512_loadu_si512(XOR[j.trailing_zeros() as usize].as_ptr().cast());
            for a in 0..R {
                let p = _mm512_permutexvar_epi32(idx, r[a]);
                let mn = _mm512_min_epu32(r[a], p);
                let mx = _mm512_max_epu32(r[a], p);
                r[a] = _mm512_mask_blend_epi32(take_min(k, j, a), mx, mn);
            }
        }
    }
    #[inline(always)]
    unsafe fn cross<const R: usize>(r: &mut [__m512i; R], k: usize, j: usize) {
        unsafe {
            let d = j / 16;
            for a in 0..R {
                if a & d != 0 { continue; }
                let b = a + d;
                let mn = _mm512_min_epu32(r[a], r[b]);
                let mx = _mm512_max_epu32(r[a], r[b]);
                if (16 * a) & k == 0 { r[a] = mn; r[b] = mx; } else { r[a] = mx; r[b] = mn; }
            }
        }
    }
    macro_rules! steps {
        ($r:ident; $(($k:expr, $j:expr)),*) => {{ $(
            if $j >= 16 { cross(&mut *$r, $k, $j) } else { intra(&mut *$r, $k, $j) }
        )* }};
    }
    #[inline(always)]
    unsafe fn bitonic<const R: usize>(r: &mut [__m512i; R]) {
        unsafe {
            steps!(r; (2, 1), (4, 2), (4, 1), (8, 4), (8, 2), (8, 1), (16, 8), (16, 4), (16, 2), (16, 1));
            if R >= 2 { steps!(r; (32, 16), (32, 8), (32, 4), (32, 2), (32, 1)); }
            if R >= 4 { steps!(r; (64, 32), (64, 16), (64, 8), (64, 4), (64, 2), (64, 1)); }
        }
    }
    #[inline(always)]
    unsafe fn sort_shuffle<const R: usize>(rng: &mut X, items: &mut [u8]) {
        let n = items.len();
        unsafe {
            loop {
                let mut r = [_mm512_setzero_si512(); R];
                for a in 0..R {
                    let keys = _mm512_set_epi64(
                        rng.next() as i64, rng.next() as i64, rng.next() as i64, rng.next() as i64,
                        rng.next() as i64, rng.next() as i64, rng.next() as i64, rng.next() as i64);
                    let from = 16 * a;
                    let here = n.saturating_sub(from).min(16);
                    let mask: u16 = if here >= 16 { 0xffff } else { (1u16 << here) - 1 };
                    let bytes = _mm_maskz_loadu_epi8(mask, items.as_ptr().add(from.min(n)).cast());
                    let cards = _mm512_cvtepu8_epi32(bytes);
                    let v = _mm512_or_si512(_mm512_andnot_si512(_mm512_set1_epi32(0xff), keys), cards);
                    r[a] = _mm512_mask_mov_epi32(_mm512_set1_epi32(-1), mask, v);
                }
                bitonic::<R>(&mut r);
                // Tied keys among the heap's lanes: draw again.
                let mut tied = false;
                for a in 0..R {
                    let next = if a + 1 < R { r[a + 1] } else { _mm512_set1_epi32(-1) };
                    let shifted = _mm512_alignr_epi32(next, r[a], 1);
                    let eq = _mm512_cmpeq_epi32_mask(_mm512_srli_epi32(r[a], 8), _mm512_srli_epi32(shifted, 8));
                    let from = 16 * a;
                    let here = n.saturating_sub(from).min(16);
                    // pairs (l, l + 1) with both in the heap: l + 1 < n
                    let pairs: u16 = if here >= 16 { if from + 16 < n { 0xffff } else { 0x7fff } } else if here == 0 { 0 } else { (1u16 << (here - 1)) - 1 };
                    tied |= eq & pairs != 0;
                }
                if tied { continue; }
                for a in 0..R {
                    let from = 16 * a;
                    let here = n.saturating_sub(from).min(16);
                    if here == 0 { break; }
                    let mask: u16 = if here >= 16 { 0xffff } else { (1u16 << here) - 1 };
                    let bytes = _mm512_cvtepi32_epi8(r[a]);
                    _mm_mask_storeu_epi8(items.as_mut_ptr().add(from).cast(), mask, bytes);
                }
                return;
            }
        }
    }
    #[inline(never)]
    pub fn shuffle(rng: &mut X, items: &mut [u8]) {
        let n = items.len();
        if n < 2 { return; }
        unsafe {
            if n <= 16 { sort_shuffle::<1>(rng, items) }
            else if n <= 32 { sort_shuffle::<2>(rng, items) }
            else { sort_shuffle::<4>(rng, items) }
        }
    }
}
