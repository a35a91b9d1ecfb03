// The standalone shuffle loop of results/2026-11-26-shuffle-swaps (a scratch crate: Cargo.toml
// with no dependencies, release profile lto = true, codegen-units = 1). Run: shb LOW HIGH
// (heap sizes drawn uniformly in LOW..=HIGH). Every variant is checked against the first for
// the same orders and the same words used before it is timed.
use std::time::Instant;
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
fn batch_serial<const K: usize>(rng: &mut X, items: &mut [u8], n: usize, s: u64) {
    assert!(n >= 2 && n <= items.len());
    let last = n - 1;
    loop {
        let mut low = rng.next();
        let mut pos = [0usize; K];
        for (step, p) in pos.iter_mut().enumerate() {
            let range = n.saturating_sub(step).max(1);
            let w = u128::from(low) * range as u128;
            low = w as u64; *p = (w >> 64) as usize;
            sw(items, last.saturating_sub(step), *p);
        }
        if low >= s || !rejected(n, K.min(n-1), low) { return; }
        for (step, &p) in pos.iter().enumerate().rev() { sw(items, last.saturating_sub(step), p); }
    }
}
#[inline(always)]
fn batch_par<const K: usize>(rng: &mut X, items: &mut [u8], n: usize, s: u64) {
    assert!(n >= 2 && n <= items.len());
    let last = n - 1;
    // products of the ranges before each step, mod 2^64
    let mut prods = [1u64; K];
    let mut p = 1u64;
    for step in 0..K { prods[step] = p; p = p.wrapping_mul(n.saturating_sub(step).max(1) as u64); }
    loop {
        let x = rng.next();
        let mut pos = [0usize; K];
        for (step, q) in pos.iter_mut().enumerate() {
            let range = n.saturating_sub(step).max(1);
            let low = x.wrapping_mul(prods[step]);
            let w = u128::from(low) * range as u128;
            *q = (w >> 64) as usize;
            sw(items, last.saturating_sub(step), *q);
        }
        let low = x.wrapping_mul(p);
        if low >= s || !rejected(n, K.min(n-1), low) { return; }
        for (step, &q) in pos.iter().enumerate().rev() { sw(items, last.saturating_sub(step), q); }
    }
}
macro_rules! shuffle { ($name:ident, $b:ident) => {
#[inline(never)]
fn $name(rng: &mut X, items: &mut [u8]) {
    let mut n = items.len();
    if n == 2 { $b::<1>(rng, items, n, const { sure(2,1) }); return; }
    while n > 6 { $b::<6>(rng, items, n, const { sure(64,6) }); n -= 6; }
    if n > 1 { $b::<5>(rng, items, n, const { sure(6,5) }); }
}}}
shuffle!(serial, batch_serial);
shuffle!(par, batch_par);
#[inline(always)]
fn batch_noswap<const K: usize>(rng: &mut X, items: &mut [u8], n: usize, s: u64) {
    assert!(n >= 2 && n <= items.len());
    let mut acc = 0usize;
    loop {
        let mut low = rng.next();
        for step in 0..K {
            let range = n.saturating_sub(step).max(1);
            let w = u128::from(low) * range as u128;
            low = w as u64; acc ^= (w >> 64) as usize;
        }
        if low >= s || !rejected(n, K.min(n-1), low) { break; }
    }
    items[0] ^= acc as u8;
}
shuffle!(noswap, batch_noswap);
#[inline(always)]
fn batch_first<const K: usize>(rng: &mut X, items: &mut [u8], n: usize, s: u64) {
    assert!(n >= 2 && n <= items.len());
    let last = n - 1;
    loop {
        let mut low = rng.next();
        let mut pos = [0usize; K];
        for (step, p) in pos.iter_mut().enumerate() {
            let range = n.saturating_sub(step).max(1);
            let w = u128::from(low) * range as u128;
            low = w as u64; *p = (w >> 64) as usize;
        }
        if low >= s || !rejected(n, K.min(n-1), low) {
            for (step, &p) in pos.iter().enumerate() { sw(items, last.saturating_sub(step), p); }
            return;
        }
    }
}
shuffle!(first, batch_first);
#[inline(always)]
fn draw6(rng: &mut X, n: usize, s: u64) -> [usize; 6] {
    loop {
        let mut low = rng.next();
        let mut pos = [0usize; 6];
        for (step, p) in pos.iter_mut().enumerate() {
            let range = n - step;
            let w = u128::from(low) * range as u128;
            low = w as u64; *p = (w >> 64) as usize;
        }
        if low >= s || !rejected(n, 6, low) { return pos; }
    }
}
#[inline(never)]
fn pairs(rng: &mut X, items: &mut [u8]) {
    let mut n = items.len();
    if n == 2 { batch_first::<1>(rng, items, n, const { sure(2,1) }); return; }
    assert!(n <= items.len());
    while n > 12 {
        let a = draw6(rng, n, const { sure(64,6) });
        let b = draw6(rng, n - 6, const { sure(64,6) });
        for (step, &p) in a.iter().chain(b.iter()).enumerate() { sw(items, n - 1 - step, p); }
        n -= 12;
    }
    while n > 6 { batch_first::<6>(rng, items, n, const { sure(64,6) }); n -= 6; }
    if n > 1 { batch_first::<5>(rng, items, n, const { sure(6,5) }); }
}
#[inline(never)]
fn twophase(rng: &mut X, items: &mut [u8]) {
    let len = items.len();
    let mut js = [0u8; 64];
    let mut n = len;
    // phase 1: positions, js[i] for i = n-1 down to 1
    macro_rules! b { ($k:expr, $sure:expr) => {{
        loop {
            let mut low = rng.next();
            for step in 0..$k {
                let range = n.saturating_sub(step).max(1);
                let w = u128::from(low) * range as u128;
                low = w as u64; js[(n-1).saturating_sub(step)] = (w >> 64) as u8;
            }
            if low >= $sure || !rejected(n, ($k as usize).min(n-1), low) { break; }
        }
    }}}
    if n == 2 { b!(1, const { sure(2,1) }); }
    else {
        while n > 6 { b!(6, const { sure(64,6) }); n -= 6; }
        if n > 1 { b!(5, const { sure(6,5) }); }
    }
    // js[0] may hold garbage from clamped steps: position 0 swaps with itself
    js[0] = 0;
    for i in (1..len).rev() { sw(items, i, js[i] as usize); }
}

fn run(f: fn(&mut X, &mut [u8]), sizes: &[usize], reps: usize) -> (f64, u64) {
    let mut rng = X([1,2,3,4]);
    let mut buf = [0u8; 64];
    for (i, b) in buf.iter_mut().enumerate() { *b = i as u8; }
    let mut cards = 0usize; let mut acc = 0u64;
    let t = Instant::now();
    for _ in 0..reps { for &s in sizes {
        f(&mut rng, &mut buf[..s]); cards += s;
        // dependent use of the shuffled cards, like play
        acc = acc.wrapping_add(buf[(acc as usize) % s] as u64);
    } }
    (t.elapsed().as_nanos() as f64 / cards as f64, acc)
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lo: usize = args[1].parse().unwrap(); let hi: usize = args[2].parse().unwrap();
    let mut r = X([9,8,7,6]); let sizes: Vec<usize> = (0..4096).map(|_| lo + (r.next() as usize) % (hi-lo+1)).collect();
    // check equality
    let fs: [(&str, fn(&mut X, &mut [u8])); 4] = [("par", par), ("first", first), ("twophase", twophase), ("pairs", pairs)];
    for &s in &sizes[..400] { for (name, f) in fs {
        let mut a = X([5,5,5,5]); let mut b = X([5,5,5,5]);
        let mut x: Vec<u8> = (0..s as u8).collect(); let mut y = x.clone();
        serial(&mut a, &mut x); f(&mut b, &mut y); assert_eq!(x, y, "{name} {s}"); assert_eq!(a.next(), b.next());
    } }
    for _ in 0..3 {
        let (a, _) = run(serial, &sizes, 2000);
        let (b, _) = run(first, &sizes, 2000);
        let (c, _) = run(twophase, &sizes, 2000);
        let (d, _) = run(pairs, &sizes, 2000);
        let (e, _) = run(par, &sizes, 2000);
        let (f, _) = run(noswap, &sizes, 2000);
        println!("ns a card: as they come {a:.3} | batch first {b:.3} ({:.2}) | whole shuffle first {c:.3} ({:.2}) | two batches first {d:.3} ({:.2}) | products beside the word {e:.3} ({:.2}) | draws only {f:.3}", b/a, c/a, d/a, e/a);
    }
}
