//! How many decimals the report gives an estimate: enough to show its uncertainty. A fixed
//! number hides it once a run is large: 21 million games read `mean 0.063 ± 0.000 (s.e.)` and a
//! share's interval `0.000 – 0.000%`, as if they were exact.

use crate::stats::Sums;

use super::words::group_fixed;

/// The most decimals any figure takes: an f64 holds no more that mean anything here.
const MOST_DECIMALS: usize = 12;

/// The decimals that show `uncertainty` (a standard error or an interval's width) to two
/// significant digits, and at least `at_least`: 0.00054 takes 5, 0.3 takes `at_least`. Zero, or
/// no uncertainty at all, takes `at_least`.
pub fn decimals_showing(uncertainty: f64, at_least: usize) -> usize {
    if uncertainty > 0.0 && uncertainty.is_finite() {
        let two_digits = (-uncertainty.log10()).ceil() as i64 + 1;
        (two_digits.max(at_least as i64) as usize).min(MOST_DECIMALS)
    } else {
        at_least
    }
}

/// `low – high%` with at least three decimals, and as many more as show the interval's width
/// to two digits: a million games that all end give `99.99962 – 100.00000%`, not one figure
/// twice.
pub fn percent_interval(low: f64, high: f64) -> String {
    let decimals = interval_decimals(low, high);
    format!("{:.decimals$} – {:.decimals$}%", 100.0 * low, 100.0 * high)
}

/// The decimals a share's interval `low`–`high` is printed to as a percentage: three, or as
/// many more as show its width to two digits.
pub fn interval_decimals(low: f64, high: f64) -> usize {
    decimals_showing(100.0 * (high - low), 3)
}

/// `mean M ± SE (s.e.)   sd SD`, as the rounds', cards' and ties' lines give them: at least
/// `places` decimals, and as many more as show the standard error to two digits (the mean to
/// the same), or the sd where it is that small; the mean alone where there is no spread (one
/// game, or squares a state file did not keep).
pub fn mean_and_spread(mean: f64, sums: &Sums, games: u64, places: usize) -> String {
    match (sums.se(games), sums.sd(games)) {
        (Some(se), Some(sd)) => {
            let d = decimals_showing(se, places);
            format!(
                "mean {} ± {} (s.e.)   sd {}",
                group_fixed(mean, d),
                group_fixed(se, d),
                group_fixed(sd, decimals_showing(sd, places))
            )
        }
        _ => format!("mean {}", group_fixed(mean, places)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_intervals_keep_their_width_visible() {
        assert_eq!(percent_interval(0.16945, 0.1844), "16.945 – 18.440%");
        // A million games that all end: the lower end 1 − 3.84e-6.
        let (_, low, high) = crate::stats::wilson_95(1_000_000, 1_000_000).unwrap();
        assert_eq!(percent_interval(low, high), "99.99962 – 100.00000%");
        assert_eq!(percent_interval(0.25, 0.25), "25.000 – 25.000%");
    }

    #[test]
    fn decimals_show_two_digits_of_the_uncertainty() {
        assert_eq!(decimals_showing(0.3, 2), 2);
        assert_eq!(decimals_showing(0.05, 2), 3);
        assert_eq!(decimals_showing(0.000_054, 3), 6);
        assert_eq!(decimals_showing(0.01, 2), 3);
        assert_eq!(decimals_showing(12.0, 2), 2);
        assert_eq!(decimals_showing(0.0, 3), 3);
        assert_eq!(decimals_showing(f64::NAN, 3), 3);
        assert_eq!(decimals_showing(1e-30, 3), MOST_DECIMALS);
    }

    #[test]
    fn a_tiny_standard_error_stays_visible() {
        // 21 million games, one in 16 with one war: s.e. 5.3e-5, which three places read 0.000.
        let games: u64 = 21_000_000;
        let wars = games / 16;
        let sums = Sums {
            sum: wars.into(),
            squares: Some(wars.into()),
        };
        let mean = sums.mean(games).unwrap();
        assert_eq!(
            mean_and_spread(mean, &sums, games, 3),
            "mean 0.062500 ± 0.000053 (s.e.)   sd 0.242"
        );
        // A small run keeps its places.
        let sums = Sums {
            sum: 3,
            squares: Some(5),
        };
        assert_eq!(
            mean_and_spread(0.75, &sums, 4, 3),
            "mean 0.750 ± 0.479 (s.e.)   sd 0.957"
        );
        assert_eq!(
            mean_and_spread(
                0.75,
                &Sums {
                    sum: 3,
                    squares: None
                },
                4,
                3
            ),
            "mean 0.750"
        );
    }
}
