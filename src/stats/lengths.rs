//! The exact distribution of game lengths, with the games that have none.
//!
//! A finished game (won or drawn) lasted a whole number of rounds, counted here exactly, one
//! count per length. A capped game was stopped while still going and a cycling game would never
//! end: neither has a length, so both are *right-censored*. They are counted apart, ranked above
//! every finished game by the quantiles (capped below cycles: a capped game might still end),
//! left out of the mean, spread, min and max, and counted as still running by the survival
//! curve. Lengths up to [`DENSE`] rounds sit in a flat array, which starts short and grows as
//! longer games come (a few times a batch at most); the rare longer ones in a map.

use std::collections::BTreeMap;

use super::quantile_ranks::quantile_ci_ranks;
use super::spread::Sums;

/// Lengths counted in the flat array (longer ones go to a map): at most 128 KB per worker,
/// whatever the cap, so a thousand threads stay within memory; a game that long costs far more
/// than an insertion into the map.
pub const DENSE: u64 = 1 << 14;

/// Lengths the flat array starts with: most rule sets' games end within them. A batch's
/// statistics are zeroed, merged and compacted whole, so a sweep's short cells cost a fraction
/// of what a full array did (each worker's 128 KB per cell).
const FIRST: u64 = 1 << 10;

/// A quantile of game lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantile {
    /// The quantile falls on a finished game of this many rounds.
    Rounds(u64),
    /// It falls among capped games: longer than the cap, by how much unknown.
    AboveCap(u32),
    /// It falls among games that never end.
    Never,
}

impl Quantile {
    /// The rounds of a quantile that falls on a finished game; none among censored games.
    pub fn rounds(self) -> Option<u64> {
        match self {
            Quantile::Rounds(rounds) => Some(rounds),
            _ => None,
        }
    }
}

/// Exact game lengths of finished games, and the censored games. Every length the map holds is
/// past the flat array's end, so that [`Lengths::counts`] lists them shortest first.
#[derive(Clone, Debug)]
pub struct Lengths {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
    finished: u64,
    capped: u64,
    never: u64,
    cap: u32,
    min: u64,
    max: u64,
    sum: u128,
    squares: u128,
}

impl Lengths {
    /// No games yet; finished games last at most `most` rounds, capped ones stop at `cap`.
    pub fn new(most: u32, cap: u32) -> Lengths {
        Lengths {
            dense: vec![0; (u64::from(most) + 1).min(FIRST) as usize],
            sparse: BTreeMap::new(),
            finished: 0,
            capped: 0,
            never: 0,
            cap,
            min: u64::MAX,
            max: 0,
            sum: 0,
            squares: 0,
        }
    }

    /// No games yet, laid out to take finished games of the lengths `rounds` (shortest first)
    /// as [`Lengths::compact`] would leave them: the array up to the longest, or only the map
    /// when the lengths are few and far apart. Saves building the whole array to cut it.
    pub fn laid_out_for(rounds: &[u64], cap: u32) -> Lengths {
        let within = &rounds[..rounds.partition_point(|&r| r < DENSE)];
        let used = within.last().map_or(0, |&longest| longest as usize + 1);
        let mut lengths = Lengths::new(0, cap);
        lengths.dense = match within.len() * 6 < used {
            true => Vec::new(),
            false => vec![0; used],
        };
        lengths
    }

    /// Adds a finished game of `rounds` rounds.
    #[inline]
    pub fn finished(&mut self, rounds: u32) {
        let rounds = u64::from(rounds);
        match self.dense.get_mut(rounds as usize) {
            Some(count) => *count += 1,
            None => self.finished_past_array(rounds),
        }
        self.finished += 1;
        self.min = self.min.min(rounds);
        self.max = self.max.max(rounds);
        self.sum += u128::from(rounds);
        self.squares += u128::from(rounds * rounds);
    }

    /// A finished game longer than the flat array holds: the array grows to take it (at least
    /// doubling, up to [`DENSE`]); a longer game goes to the map.
    #[cold]
    fn finished_past_array(&mut self, rounds: u64) {
        if rounds < DENSE {
            let len = (rounds + 1).max(2 * self.dense.len() as u64).min(DENSE);
            self.grow_array(len as usize);
            self.dense[rounds as usize] += 1;
        } else {
            *self.sparse.entry(rounds).or_insert(0) += 1;
        }
    }

    /// Makes the flat array `len` long; what the map held below its new end moves into it.
    fn grow_array(&mut self, len: usize) {
        self.dense.resize(len, 0);
        let past = self.sparse.split_off(&(len as u64));
        for (rounds, count) in std::mem::replace(&mut self.sparse, past) {
            self.dense[rounds as usize] += count;
        }
    }

    /// Adds `games` finished games of `rounds` rounds at once (a state file's counts), in the
    /// layout the lengths have (read laid out, they are not grown).
    pub fn finished_many(&mut self, rounds: u64, games: u64) {
        match self.dense.get_mut(rounds as usize) {
            Some(count) => *count += games,
            None => *self.sparse.entry(rounds).or_insert(0) += games,
        }
        if games > 0 {
            self.min = self.min.min(rounds);
            self.max = self.max.max(rounds);
        }
        self.finished += games;
        self.sum += u128::from(rounds) * u128::from(games);
        self.squares += u128::from(rounds) * u128::from(rounds) * u128::from(games);
    }

    /// Adds `capped` games stopped by the cap and `never` that never end.
    pub fn censored_many(&mut self, capped: u64, never: u64) {
        self.capped += capped;
        self.never += never;
    }

    /// Adds a game stopped by the cap.
    #[inline]
    pub fn capped(&mut self) {
        self.capped += 1;
    }

    /// Adds a game that would never end.
    #[inline]
    pub fn never(&mut self) {
        self.never += 1;
    }

    /// Finished games.
    pub fn finished_games(&self) -> u64 {
        self.finished
    }

    /// Every game, finished or censored.
    pub fn games(&self) -> u64 {
        self.finished + self.capped + self.never
    }

    /// Mean rounds of the finished games.
    pub fn mean(&self) -> Option<f64> {
        (self.finished > 0).then(|| self.sum as f64 / self.finished as f64)
    }

    /// The finished games' rounds, summed and squared (their spread as the ties' and cards').
    pub fn sums(&self) -> Sums {
        Sums {
            sum: self.sum,
            squares: Some(self.squares),
        }
    }

    /// Sample standard deviation of the finished games' rounds ([`Sums::sd`]).
    pub fn sd(&self) -> Option<f64> {
        self.sums().sd(self.finished)
    }

    /// Standard error of the mean; none below two games, like the standard deviation.
    pub fn se(&self) -> Option<f64> {
        self.sums().se(self.finished)
    }

    /// Fewest rounds of a finished game.
    pub fn min(&self) -> Option<u64> {
        (self.finished > 0).then_some(self.min)
    }

    /// Most rounds of a finished game.
    pub fn max(&self) -> Option<u64> {
        (self.finished > 0).then_some(self.max)
    }

    /// The quantile `parts / 100,000` of all games (nearest rank: the ⌈q·N⌉-th shortest, censored
    /// games last); `None` when there are no games.
    pub fn quantile(&self, parts: u32) -> Option<Quantile> {
        let games = self.games();
        let rank = (u128::from(games) * u128::from(parts))
            .div_ceil(100_000)
            .clamp(1, u128::from(games.max(1))) as u64;
        self.order_statistic(rank)
    }

    /// The `rank`-th shortest game (1-based, censored games last); `None` outside 1..=N.
    pub fn order_statistic(&self, rank: u64) -> Option<Quantile> {
        if rank == 0 || rank > self.games() {
            return None;
        }
        if rank > self.finished + self.capped {
            return Some(Quantile::Never);
        }
        if rank > self.finished {
            return Some(Quantile::AboveCap(self.cap));
        }
        let mut seen = 0;
        for (rounds, count) in self.counts() {
            seen += count;
            if seen >= rank {
                return Some(Quantile::Rounds(rounds));
            }
        }
        unreachable!("the finished games add up to {}", self.finished)
    }

    /// A distribution-free 95% confidence interval for the quantile `parts / 100,000` of all
    /// games: the order statistics X(l) and X(u) with l the largest rank such that P(B < l) ≤
    /// 2.5% and u the smallest such that P(B ≥ u) ≤ 2.5%, B ~ Bin(N, parts / 100,000), found
    /// from the binomial distribution (`stats::quantile_ranks`). `None` when too few games
    /// leave an end (fewer than 6 for the median, 3,688 for p99.9).
    pub fn quantile_ci95(&self, parts: u32) -> Option<(Quantile, Quantile)> {
        let (low, high) = quantile_ci_ranks(self.games(), parts)?;
        Some((self.order_statistic(low)?, self.order_statistic(high)?))
    }

    /// The median's interval: [`Lengths::quantile_ci95`] of 50,000 parts.
    pub fn median_ci95(&self) -> Option<(Quantile, Quantile)> {
        self.quantile_ci95(50_000)
    }

    /// `(rounds, finished games of that length)` for every length that occurred, shortest first.
    pub fn counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self.dense.iter().enumerate();
        dense
            .filter(|(_, count)| **count > 0)
            .map(|(rounds, count)| (rounds as u64, *count))
            .chain(self.sparse.iter().map(|(r, c)| (*r, *c)))
    }

    /// Games stopped by the cap.
    pub fn capped_games(&self) -> u64 {
        self.capped
    }

    /// Games that never end.
    pub fn never_games(&self) -> u64 {
        self.never
    }

    /// Share of all games still going after `rounds` rounds (censored games always are).
    pub fn survival(&self, rounds: u64) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        let ended: u64 = self
            .counts()
            .take_while(|(r, _)| *r <= rounds)
            .map(|(_, c)| c)
            .sum();
        (games - ended) as f64 / games as f64
    }

    /// Adds `other`'s games (both must come from the same rules; either may be compacted).
    pub fn merge(&mut self, other: &Lengths) {
        if other.dense.len() > self.dense.len() {
            self.grow_array(other.dense.len());
        }
        for (mine, theirs) in self.dense.iter_mut().zip(&other.dense) {
            *mine += theirs;
        }
        for (&rounds, count) in &other.sparse {
            match self.dense.get_mut(rounds as usize) {
                Some(mine) => *mine += count,
                None => *self.sparse.entry(rounds).or_insert(0) += count,
            }
        }
        self.finished += other.finished;
        self.capped += other.capped;
        self.never += other.never;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum += other.sum;
        self.squares += other.squares;
    }

    /// Keeps only the memory the counts need, for lengths kept long after their games were
    /// played (a sweep's cells, state files read): the flat array cut after the longest game
    /// it counts, or given up for the map when few lengths occurred in it (a map entry costs
    /// about as much as six of the array's). Every figure stays the same, and games may still
    /// be added: 7,533 cells of a sweep took 128 KB each, whatever their games.
    pub fn compact(&mut self) {
        let used = self
            .dense
            .iter()
            .rposition(|&n| n > 0)
            .map_or(0, |last| last + 1);
        let occurred = self.dense[..used].iter().filter(|&&n| n > 0).count();
        if occurred * 6 < used {
            let counted = self.dense[..used]
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0);
            self.sparse
                .extend(counted.map(|(rounds, &n)| (rounds as u64, n)));
            self.dense = Vec::new();
        } else {
            self.dense.truncate(used);
            self.dense.shrink_to_fit();
        }
    }
}

/// Equal when they count the same games, however they hold them (compacted or not).
impl PartialEq for Lengths {
    fn eq(&self, other: &Lengths) -> bool {
        let sums = |l: &Lengths| {
            (
                l.finished, l.capped, l.never, l.cap, l.min, l.max, l.sum, l.squares,
            )
        };
        sums(self) == sums(other) && self.counts().eq(other.counts())
    }
}

#[cfg(test)]
mod tests;
