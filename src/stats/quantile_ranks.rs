//! Which order statistics bound a quantile's 95% confidence interval. For the quantile p of N
//! values it is X(l) to X(u), with l the largest rank such that P(B < l) ≤ 2.5% and u the
//! smallest such that P(B ≥ u) ≤ 2.5%, B ~ Bin(N, p): the distribution-free interval (for the
//! median, u = N + 1 − l). The ranks come from the binomial distribution itself up to 2^50
//! values, so they are those R's `qbinom` and scipy's `binom.ppf` give, not an approximation's.
//!
//! Written here rather than taken from a crate: a tail of Bin(10^12, p) needs each probability
//! to about 1e-13, and the crates we know compute ln C(n, k) from ln Γ, whose value near
//! 2.6·10^13 at n = 10^12 leaves its last bits worth 0.3% of the probability.

/// Past this many values a rank is the normal approximation's (below it, the exact rank costs
/// up to 3.5·√(Np(1−p)) terms: the median's 0.2 s at 2^50 ≈ 1.1·10^15 values, 7 ms at 10^12,
/// a few microseconds at 10^4).
const EXACT_UP_TO: u64 = 1 << 50;

/// Each tail the interval leaves out.
const TAIL: f64 = 0.025;

/// The ranks (l, u) of the 95% interval of the quantile `parts / 100,000` of `n` values; none
/// when an end does not exist: too few values for an interval that reaches 95% (the median
/// needs 6, p90 36, p99 368, p99.9 3,688).
pub fn quantile_ci_ranks(n: u64, parts: u32) -> Option<(u64, u64)> {
    let p = f64::from(parts) / 100_000.0;
    let q = f64::from(100_000 - parts.min(100_000)) / 100_000.0;
    // P(B ≥ u) = P(n − B ≤ n − u), and n − B ~ Bin(n, 1 − p).
    let low = least_past_tail(n, p, q);
    let high = n + 1 - least_past_tail(n, q, p);
    (low >= 1 && high <= n).then_some((low, high))
}

/// The least c with P(B ≤ c) > 2.5% for B ~ Bin(n, p), q = 1 − p.
fn least_past_tail(n: u64, p: f64, q: f64) -> u64 {
    if p == 0.0 {
        return 0; // P(B ≤ 0) = 1
    }
    // The normal approximation with its continuity correction, P(B ≤ c) ≈
    // Φ((c + ½ − np) / √(npq)), gives c or one from it past a few hundred values; the tails
    // settle which.
    let (mean, sd) = (n as f64 * p, (n as f64 * p * q).sqrt());
    let mut c = ((mean + 0.5 - 1.959_963_984_540_054 * sd).floor().max(0.0) as u64).min(n);
    if n > EXACT_UP_TO {
        return c;
    }
    // One tail summed, then moved a term at a time.
    let mut at = probability(n, c, p, q); // P(B = c)
    let mut tail = at + below(n, c, at, p, q); // P(B ≤ c)
    while tail <= TAIL && c < n {
        c += 1;
        at *= (n - c + 1) as f64 / c as f64 * (p / q);
        tail += at;
    }
    while c > 0 && tail - at > TAIL {
        tail -= at;
        at *= c as f64 / (n - c + 1) as f64 * (q / p);
        c -= 1;
    }
    c
}

/// P(B < c) for B ~ Bin(n, p), given P(B = c): each term below from the last (P(B = k − 1) =
/// P(B = k) · kq / ((n − k + 1)p)), until what is left is below 1e-16 of the sum (below the
/// mode the ratios shrink as k falls, so the current one bounds a geometric rest).
fn below(n: u64, c: u64, at_c: f64, p: f64, q: f64) -> f64 {
    let (mut term, mut sum) = (at_c, 0.0);
    for k in (1..=c).rev() {
        let ratio = k as f64 * q / ((n - k + 1) as f64 * p);
        term *= ratio;
        sum += term;
        if ratio < 1.0 && term * ratio / (1.0 - ratio) <= sum * 1e-16 {
            break;
        }
    }
    sum
}

/// P(B = k) for B ~ Bin(n, p), q = 1 − p, to about 1e-15 of itself: Catherine Loader's
/// saddle-point form ("Fast and accurate computation of binomial probabilities", 2000; R's
/// `dbinom`), whose terms are small and never cancel.
fn probability(n: u64, k: u64, p: f64, q: f64) -> f64 {
    let (n_f, k_f, rest) = (n as f64, k as f64, (n - k) as f64);
    if k == 0 || k == n {
        // q^n or p^n, as exp(n ln(1 − p)) where p is small.
        let other = if k == 0 { p } else { q };
        return (n_f * (-other).ln_1p()).exp();
    }
    let exponent = stirling_error(n_f)
        - stirling_error(k_f)
        - stirling_error(rest)
        - deviance(k_f, n_f * p)
        - deviance(rest, n_f * q);
    // ln(2π k (n − k) / n)
    let spread = (2.0 * std::f64::consts::PI).ln() + k_f.ln() + (-k_f / n_f).ln_1p();
    (exponent - 0.5 * spread).exp()
}

/// ln x! − ln(√(2πx) (x/e)^x) for a whole x: a table to 15, then its series, with as many
/// terms as leave less than 1e-17 (as Loader's `stirlerr`).
fn stirling_error(x: f64) -> f64 {
    const TABLE: [f64; 16] = [
        0.0,
        0.081_061_466_795_327_26,
        0.041_340_695_955_409_3,
        0.027_677_925_684_998_34,
        0.020_790_672_103_765_093,
        0.016_644_691_189_821_193,
        0.013_876_128_823_070_748,
        0.011_896_709_945_891_77,
        0.010_411_265_261_972_096,
        0.009_255_462_182_712_733,
        0.008_330_563_433_362_87,
        0.007_573_675_487_951_841,
        0.006_942_840_107_209_53,
        0.006_408_994_188_004_207,
        0.005_951_370_112_758_848,
        0.005_554_733_551_962_801,
    ];
    const S: [f64; 5] = [
        1.0 / 12.0,
        1.0 / 360.0,
        1.0 / 1260.0,
        1.0 / 1680.0,
        1.0 / 1188.0,
    ];
    if x <= 15.0 {
        return TABLE[x as usize];
    }
    let terms = match x {
        x if x > 500.0 => 2,
        x if x > 80.0 => 3,
        x if x > 35.0 => 4,
        _ => 5,
    };
    let squared = x * x;
    let series = S[..terms]
        .iter()
        .rev()
        .fold(0.0, |rest, s| s - rest / squared);
    series / x
}

/// x ln(x / m) + m − x, without the cancellation of its terms when x is near m: the series in
/// v = (x − m)/(x + m) there, as Loader's `bd0`.
fn deviance(x: f64, m: f64) -> f64 {
    if (x - m).abs() >= 0.1 * (x + m) {
        return x * (x / m).ln() + m - x;
    }
    let v = (x - m) / (x + m);
    let mut sum = (x - m) * v;
    let mut power = 2.0 * x * v;
    for j in 1..1000 {
        power *= v * v;
        let next = sum + power / f64::from(2 * j + 1);
        if next == sum {
            break;
        }
        sum = next;
    }
    sum
}

#[cfg(test)]
mod tests;
