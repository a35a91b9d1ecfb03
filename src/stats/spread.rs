//! The mean and spread of a count each game has (its rounds, ties or cards), from two exact
//! integer sums: merged in any order, by threads, shards or resumed runs, they stay exactly the
//! same, and so do the standard deviation and standard error computed from them.

/// The sum of one count over games, and the sum of its squares. The squares are unknown
/// (`None` figures) when some of the games came from a state file that did not keep them (one
/// written before they were kept), or when a merge of edited files would pass what a u128 holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sums {
    /// Σx.
    pub sum: u128,
    /// Σx², when known.
    pub squares: Option<u128>,
}

impl Sums {
    /// No games yet.
    pub const NONE: Sums = Sums {
        sum: 0,
        squares: Some(0),
    };

    /// Adds one game's count. A u128 takes 2^64 games of 2^32 ties or cards each, the
    /// squares included, far past any batch: no check in the per-game path.
    #[inline]
    pub fn add(&mut self, x: u64) {
        let x = u128::from(x);
        self.sum += x;
        if let Some(squares) = &mut self.squares {
            *squares += x * x;
        }
    }

    /// Adds `other`'s games; squares that would pass a u128 become unknown.
    pub fn merge(&mut self, other: &Sums) {
        self.sum += other.sum;
        self.squares = self
            .squares
            .zip(other.squares)
            .and_then(|(a, b)| a.checked_add(b));
    }

    /// Whether the squares can be those of `games` games whose counts sum to `sum`: each x² is
    /// at least x, Σx² at most (Σx)² (no count is negative), and n·Σx² at least (Σx)² (nor is
    /// the variance). A damaged state file fails one or another.
    pub fn plausible(&self, games: u64) -> bool {
        let Some(squares) = self.squares else {
            return true;
        };
        let sum_squared = self.sum.checked_mul(self.sum);
        let spread_not_negative = u128::from(games)
            .checked_mul(squares)
            .zip(sum_squared)
            .is_none_or(|(a, b)| a >= b);
        squares >= self.sum && sum_squared.is_none_or(|b| squares <= b) && spread_not_negative
    }

    /// The mean over `games` games; none of no games.
    pub fn mean(&self, games: u64) -> Option<f64> {
        (games > 0).then(|| self.sum as f64 / games as f64)
    }

    /// The sample standard deviation over `games` games (see [`sample_sd`]).
    pub fn sd(&self, games: u64) -> Option<f64> {
        sample_sd(games, self.sum, self.squares?)
    }

    /// The standard error of the mean over `games` games; none where the deviation is none.
    pub fn se(&self, games: u64) -> Option<f64> {
        self.sd(games).map(|sd| sd / (games as f64).sqrt())
    }
}

/// The sample standard deviation (n − 1 in the denominator) of `n` values with sum `sum` and
/// sum of squares `squares`; none below two values, where it is undefined (0/0), as in R and
/// pandas: a 0 would claim a spread measured as nil.
pub fn sample_sd(n: u64, sum: u128, squares: u128) -> Option<f64> {
    if n < 2 {
        return None;
    }
    // n·Σx² − (Σx)² is exact in u128 (no cancellation) while it fits: 10^13 games of 10^5
    // rounds still do. Past that, f64 on the same sums: a relative error of about 1e-16 on
    // each term, far below the statistic's own.
    let n = u128::from(n);
    let exact = n
        .checked_mul(squares)
        .zip(sum.checked_mul(sum))
        .map(|(a, b)| a.saturating_sub(b) as f64 / (n as f64 * (n - 1) as f64));
    let variance = exact.unwrap_or_else(|| {
        let (n, mean) = (n as f64, sum as f64 / n as f64);
        (squares as f64 - n * mean * mean) / (n - 1.0)
    });
    Some(variance.max(0.0).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(values: &[u64]) -> Sums {
        let mut sums = Sums::NONE;
        values.iter().for_each(|&x| sums.add(x));
        sums
    }

    #[test]
    fn the_spread_is_the_textbook_one() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations 32, sample variance 32/7.
        let sums = of(&[2, 4, 4, 4, 5, 5, 7, 9]);
        assert_eq!((sums.sum, sums.squares), (40, Some(232)));
        let sd = sums.sd(8).unwrap();
        assert!((sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-15, "{sd}");
        assert!((sums.se(8).unwrap() - sd / 8f64.sqrt()).abs() < 1e-15);
        assert_eq!(of(&[6, 6, 6]).sd(3), Some(0.0));
        assert_eq!(of(&[6]).sd(1), None);
        assert_eq!(Sums::NONE.se(0), None);
    }

    #[test]
    fn merged_sums_are_the_whole_ones_unless_squares_are_unknown() {
        let (mut left, right) = (of(&[1, 2, 3]), of(&[10, 20]));
        left.merge(&right);
        assert_eq!(left, of(&[1, 2, 3, 10, 20]));
        let mut old = Sums {
            sum: 7,
            squares: None,
        };
        old.merge(&right);
        assert_eq!((old.sum, old.squares, old.sd(3)), (37, None, None));
        let mut huge = Sums {
            sum: 1,
            squares: Some(u128::MAX),
        };
        huge.merge(&right);
        assert_eq!(huge.squares, None);
    }

    #[test]
    fn squares_that_no_games_can_have_are_implausible() {
        assert!(of(&[3, 0, 5]).plausible(3));
        assert!(
            Sums {
                sum: 8,
                squares: None
            }
            .plausible(3)
        );
        // Fewer squares than the sum: some x² < x.
        assert!(
            !Sums {
                sum: 8,
                squares: Some(7)
            }
            .plausible(3)
        );
        // 3 games summing to 9 have Σx² ≥ 27.
        assert!(
            !Sums {
                sum: 9,
                squares: Some(26)
            }
            .plausible(3)
        );
        assert!(
            Sums {
                sum: 9,
                squares: Some(27)
            }
            .plausible(3)
        );
        // Σx = 9 allows Σx² ≤ 81 (one game of 9).
        assert!(
            Sums {
                sum: 9,
                squares: Some(81)
            }
            .plausible(3)
        );
        assert!(
            !Sums {
                sum: 9,
                squares: Some(82)
            }
            .plausible(3)
        );
    }
}
