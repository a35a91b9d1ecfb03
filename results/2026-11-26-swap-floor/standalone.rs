// The standalone loop of results/2026-11-26-swap-floor (a scratch crate: Cargo.toml with no
// dependencies, release profile lto = true, codegen-units = 1; built with
// RUSTFLAGS="-C target-feature=+ssse3"). Run: swap-floor LOW HIGH (heap sizes drawn uniformly in
// LOW..=HIGH). "batch first" is warsim's shuffle as of eb454b4; "xmm" the SSSE3 register
// shuffle of 2026-11-26-shuffle-bound again (heaps of up to 16 cards, the rest as "batch
// first"); "swaps only" makes the same number of swaps with positions read from a list made
// beforehand: no generator and no multiplies, a floor for any shuffle that swaps in place.
// "xmm" is checked against "batch first" for the same orders and words before the timing.
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
    for _ in 0..5 {
        let (a, _) = run(first, &sizes, 3000);
        let (b, _) = run(xmm, &sizes, 3000);
        let c = run_swaps_only(&sizes, 3000);
        println!("ns a card: batch first {a:.3} | xmm {b:.3} ({:.2}) | swaps only {c:.3} ({:.2})", b/a, c/a);
    }
}
