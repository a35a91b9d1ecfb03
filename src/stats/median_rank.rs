//! Which order statistics bound the median's 95% confidence interval: X(j) and X(N+1−j) with the
//! largest j such that P(Bin(N, ½) < j) ≤ 2.5%, the distribution-free interval. j is found from
//! the binomial distribution itself at every N up to 2^50 games, so the interval is the one
//! R's `qbinom` or scipy's `binom.ppf` give, not an approximation's.
//!
//! Written here rather than taken from a crate: a tail of Bin(10^12, ½) needs each probability
//! to about 1e-13, and the crates we know compute ln C(n, k) from ln Γ, whose value near
//! 2.6·10^13 at n = 10^12 leaves its last bits worth 0.3% of the probability.

/// Past this many games the rank is the normal approximation's (below it, the exact rank costs
/// up to 3.5·√N terms: 0.2 s at 2^50 ≈ 1.1·10^15 games, 7 ms at 10^12).
const EXACT_UP_TO: u64 = 1 << 50;

/// The lower rank j of the 95% interval for the median of `n` values; none below 6 values,
/// where no such interval reaches 95%.
pub fn median_ci_rank(n: u64) -> Option<u64> {
    if n < 6 {
        return None;
    }
    if n <= 10_000 {
        return Some(summed_rank(n));
    }
    // The normal approximation with its continuity correction, P(B < j) = P(B ≤ j − 1) ≈
    // Φ((j − ½ − n/2) / (√n / 2)), gives the rank or one below.
    let half = n as f64 / 2.0;
    let approximate = (half + 0.5 - 1.959_963_984_540_054 * (n as f64).sqrt() / 2.0).floor();
    let mut j = (approximate as u64).clamp(1, n / 2);
    if n > EXACT_UP_TO {
        return Some(j);
    }
    // The rank is the least j with P(B ≤ j) > 2.5%: one tail summed, then moved a term at a
    // time from the approximation's j.
    let mut at = ln_probability_half(n, j).exp(); // P(B = j)
    let mut tail = lower_tail(n, j, at); // P(B ≤ j)
    while tail <= 0.025 {
        j += 1;
        at *= (n - j + 1) as f64 / j as f64;
        tail += at;
    }
    while j > 1 && tail - at > 0.025 {
        tail -= at;
        at *= j as f64 / (n - j + 1) as f64;
        j -= 1;
    }
    Some(j)
}

/// The largest j with P(Bin(n, ½) < j) ≤ 2.5%, summing every probability from k = 0: O(n), so
/// used up to 10,000 values (where the saddle-point form below does not hold: k ≤ 500).
pub(super) fn summed_rank(n: u64) -> u64 {
    // P(B = k) summed from k = 0 in log space (no overflow, no underflow that matters at 2.5%).
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_choose = 0.0f64; // ln C(n, 0)
    let mut below = 0.0; // P(B < j) for the j being tried
    let mut j = 0;
    for k in 0..n {
        let p = (ln_choose + ln_half_n).exp();
        if below + p > 0.025 {
            break;
        }
        below += p;
        j = k + 1;
        ln_choose += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    j
}

/// P(B ≤ m) for B ~ Bin(n, ½), m < n/2, given P(B = m): each term below it from the last
/// (P(B = k − 1) = P(B = k) · k / (n − k + 1)), until what is left is below 1e-16 of the sum
/// (the ratios shrink as k falls, so the current one bounds a geometric rest).
fn lower_tail(n: u64, m: u64, at_m: f64) -> f64 {
    let mut term = at_m;
    let mut sum = term;
    let mut k = m;
    while k > 0 {
        let ratio = k as f64 / (n - k + 1) as f64;
        term *= ratio;
        sum += term;
        k -= 1;
        if term * ratio / (1.0 - ratio) < sum * 1e-16 {
            break;
        }
    }
    sum
}

/// ln P(B = k) for B ~ Bin(n, ½) with k and n − k past 500, to about 1e-15 of the probability:
/// Catherine Loader's saddle-point form ("Fast and accurate computation of binomial
/// probabilities", 2000; R's `dbinom`), where each term is small and none cancels another.
fn ln_probability_half(n: u64, k: u64) -> f64 {
    let (n_f, k_f, rest) = (n as f64, k as f64, (n - k) as f64);
    let mean = n_f / 2.0;
    let exponent = stirling_error(n_f)
        - stirling_error(k_f)
        - stirling_error(rest)
        - deviance(k_f, mean)
        - deviance(rest, mean);
    // ln(2π k (n − k) / n)
    let spread = (2.0 * std::f64::consts::PI).ln() + k_f.ln() + (-k_f / n_f).ln_1p();
    exponent - 0.5 * spread
}

/// ln x! − ln(√(2πx) (x/e)^x) for x > 500, where two terms of its series leave less than 1e-22.
fn stirling_error(x: f64) -> f64 {
    (1.0 / 12.0 - 1.0 / (360.0 * x * x)) / x
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
mod tests {
    use super::*;

    #[test]
    fn small_samples_use_the_tables_order_statistics() {
        // Tables of the order-statistic interval: n = 100 uses X(40) and X(61); n = 6 X(1),
        // X(6); n = 20 X(6), X(15).
        assert_eq!(median_ci_rank(100), Some(40));
        assert_eq!(median_ci_rank(6), Some(1));
        assert_eq!(median_ci_rank(20), Some(6));
        assert_eq!(median_ci_rank(5), None);
    }

    #[test]
    fn large_samples_get_the_exact_rank() {
        // Every n from 10,001 to 14,000 against the sum of every probability (the normal
        // approximation alone was one rank low for 6 of them, 10,413 the first).
        for n in 10_001..14_001 {
            assert_eq!(median_ci_rank(n), Some(summed_rank(n)), "n = {n}");
        }
        for n in [123_457, 1_000_001, 2_345_679] {
            assert_eq!(median_ci_rank(n), Some(summed_rank(n)), "n = {n}");
        }
        // scipy's binom.cdf: P(B ≤ j − 1) ≤ 2.5% < P(B ≤ j) at these j (at 10^15 the two
        // differ by 3.7e-9).
        for (n, j) in [
            (10_001, 4_902),
            (20_001, 9_862),
            (1_000_001, 499_021),
            (12_345_678, 6_169_396),
            (1_000_000_000, 499_969_010),
            (987_654_321_987, 493_826_187_080),
            (1_000_000_000_000_000, 499_999_969_010_248),
            (1 << 50, 562_949_920_538_573),
        ] {
            assert_eq!(median_ci_rank(n), Some(j), "n = {n}");
        }
    }

    #[test]
    fn the_saddle_point_probabilities_are_the_summed_ones() {
        // ln P(B = k) against the sum of logarithms, where that is still exact enough.
        for (n, k) in [(10_000u64, 4_900u64), (10_001, 5_000), (20_000, 9_800)] {
            let direct: f64 = (1..=n).map(|i| (i as f64).ln()).sum::<f64>()
                - (1..=k).map(|i| (i as f64).ln()).sum::<f64>()
                - (1..=n - k).map(|i| (i as f64).ln()).sum::<f64>()
                - n as f64 * 2f64.ln();
            let saddle = ln_probability_half(n, k);
            assert!((saddle - direct).abs() < 1e-9, "{n} {k}: {saddle} {direct}");
        }
    }
}
