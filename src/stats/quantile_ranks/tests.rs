//! The quantiles' interval ranks: the tables' small cases, the fewest values each quantile
//! needs, the saddle-point path against the summed one, and scipy's ranks up to 2^50.

use super::*;

/// The quantiles reported with an interval, in parts per 100,000.
const PARTS: [u32; 4] = [50_000, 90_000, 99_000, 99_900];

/// The least c with P(B ≤ c) > 2.5%, summing every probability from k = 0: O(n), the
/// reference the saddle-point path is checked against.
fn summed(n: u64, p: f64, q: f64) -> u64 {
    // In log space: no overflow, and no underflow that matters at 2.5%.
    let (ln_p, ln_q) = (p.ln(), q.ln());
    let mut ln_choose = 0.0f64; // ln C(n, k)
    let mut sum = 0.0; // P(B ≤ k)
    for k in 0..=n {
        sum += (ln_choose + k as f64 * ln_p + (n - k) as f64 * ln_q).exp();
        if sum > TAIL {
            return k;
        }
        ln_choose += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    n
}

fn p_and_q(parts: u32) -> (f64, f64) {
    (
        f64::from(parts) / 100_000.0,
        f64::from(100_000 - parts) / 100_000.0,
    )
}

#[test]
fn small_samples_use_the_tables_order_statistics() {
    // Tables of the order-statistic interval for the median: n = 100 uses X(40) and X(61);
    // n = 6 X(1), X(6); n = 20 X(6), X(15).
    assert_eq!(quantile_ci_ranks(100, 50_000), Some((40, 61)));
    assert_eq!(quantile_ci_ranks(6, 50_000), Some((1, 6)));
    assert_eq!(quantile_ci_ranks(20, 50_000), Some((6, 15)));
    // The fewest values with both ends (scipy): P(B = n) = p^n must be at most 2.5%.
    for (parts, fewest, ranks) in [
        (50_000, 6, (1, 6)),
        (90_000, 36, (29, 36)),
        (99_000, 368, (360, 368)),
        (99_900, 3_688, (3_680, 3_688)),
    ] {
        assert_eq!(quantile_ci_ranks(fewest - 1, parts), None, "{parts}");
        assert_eq!(quantile_ci_ranks(fewest, parts), Some(ranks), "{parts}");
    }
}

#[test]
fn every_rank_is_the_summed_one() {
    let ends = |n: u64, parts: u32| {
        let (p, q) = p_and_q(parts);
        let (low, high) = (summed(n, p, q), n + 1 - summed(n, q, p));
        (low >= 1 && high <= n).then_some((low, high))
    };
    // Every n to 2,000 for every quantile, and past 10,000 (where the normal approximation
    // alone was one rank low for the median at 10,413, and missed 2,132 of 4,800 tail ends at
    // every fifth n to 14,000) at every fifth n.
    let every = (1..=2_000).chain((10_001..14_001).step_by(5));
    for n in every.chain([10_413, 123_457, 1_000_001]) {
        for parts in PARTS {
            assert_eq!(
                quantile_ci_ranks(n, parts),
                ends(n, parts),
                "n = {n}, {parts}"
            );
        }
    }
}

#[test]
fn huge_samples_get_scipys_ranks() {
    // scipy's binom.cdf: P(B ≤ l − 1) ≤ 2.5% < P(B ≤ l), and likewise for the upper end (at
    // 10^15 the median's two sides differ by 3.7e-9).
    for (n, parts, ranks) in [
        (10_001, 50_000, (4_902, 5_100)),
        (1_000_001, 50_000, (499_021, 500_981)),
        (12_345_678, 50_000, (6_169_396, 6_176_283)),
        (987_654_321_987, 50_000, (493_826_187_080, 493_828_134_908)),
        (
            1_000_000_000_000_000,
            50_000,
            (499_999_969_010_248, 500_000_030_989_753),
        ),
        (1 << 50, 50_000, (562_949_920_538_573, 562_949_986_304_052)),
        (20_001, 90_000, (17_917, 18_085)),
        (20_001, 99_000, (19_773, 19_829)),
        (20_001, 99_900, (19_972, 19_990)),
        (1_000_000_000, 90_000, (899_981_406, 900_018_594)),
        (1_000_000_000, 99_000, (989_993_833, 990_006_167)),
        (1_000_000_000, 99_900, (998_998_041, 999_001_960)),
        (
            1_000_000_000_000,
            99_900,
            (998_999_938_051, 999_000_061_949),
        ),
    ] {
        assert_eq!(quantile_ci_ranks(n, parts), Some(ranks), "n = {n}, {parts}");
    }
}

#[test]
fn the_saddle_point_probabilities_are_the_summed_ones() {
    // P(B = k) against the sum of logarithms, where that is still exact enough; k on both
    // sides of the mean, near it and in the tails, and at the table's end.
    let ln_factorial = |m: u64| (1..=m).map(|i| (i as f64).ln()).sum::<f64>();
    for (n, k, parts) in [
        (10_000u64, 4_900u64, 50_000),
        (10_001, 5_000, 50_000),
        (20_000, 17_900, 90_000),
        (20_000, 19_990, 99_900),
        (20_000, 19_985, 99_900),
        (40, 25, 90_000),
        (40, 39, 90_000),
    ] {
        let (p, q) = p_and_q(parts);
        let direct = ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
            + k as f64 * p.ln()
            + (n - k) as f64 * q.ln();
        let saddle = probability(n, k, p, q).ln();
        assert!((saddle - direct).abs() < 1e-9, "{n} {k}: {saddle} {direct}");
    }
    // The table is ln x! − ln(√(2πx) (x/e)^x), and the series meets it at 16.
    for x in 1..=40u64 {
        let direct = ln_factorial(x) - (x as f64 + 0.5) * (x as f64).ln() + x as f64
            - 0.5 * (2.0 * std::f64::consts::PI).ln();
        let error = stirling_error(x as f64);
        assert!((error - direct).abs() < 1e-13, "{x}: {error} {direct}");
    }
}
