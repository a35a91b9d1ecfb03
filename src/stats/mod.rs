//! Statistics over a batch: outcome counts, wins by seat, and the distribution of game lengths.
//!
//! Each worker fills its own [`Stats`]; they are merged with `+=` at the end. Every sum is an
//! integer and every length is counted exactly ([`Lengths`]), so the merged figures are exactly
//! the same whatever the thread count or the order of merging.

mod lengths;
mod parts;
mod quantile_ranks;
mod spread;

pub use lengths::{Lengths, Quantile};
pub use parts::StatsParts;
pub use spread::{Sums, sample_sd};

use std::ops::AddAssign;

use crate::engine::{GameRecord, Outcome, WinBy};

/// Accumulated results of many games.
#[derive(Clone, Debug)]
pub struct Stats {
    /// Games recorded.
    pub games: u64,
    /// Games per outcome, indexed as [`Outcome::ALL`].
    pub outcomes: [u64; Outcome::ALL.len()],
    /// Wins per seat (0-based).
    pub wins_by_seat: Vec<u64>,
    /// Wins per way of winning, indexed as [`WinBy::ALL`].
    pub win_by: [u64; WinBy::ALL.len()],
    /// Most ties chained in one round, over all games.
    pub longest_war: u32,
    /// Ties over all games: u128 sums, so that no run, resumed or merged, can pass them.
    wars: Sums,
    /// Cards played in finished games (10^12 games of 10^8 cards stay exact).
    finished_cards: Sums,
    /// Ties in the games that did not finish, none when a state file did not keep them. Kept
    /// rather than the finished games' so that rule sets whose games all end pay nothing.
    unfinished_wars: Option<Sums>,
    lengths: Lengths,
}

impl Stats {
    /// Empty statistics for games of `players` seats, finished within `most_rounds` rounds,
    /// capped at `cap`.
    pub fn new(players: usize, most_rounds: u32, cap: u32) -> Stats {
        Stats {
            games: 0,
            outcomes: [0; Outcome::ALL.len()],
            wins_by_seat: vec![0; players],
            win_by: [0; WinBy::ALL.len()],
            longest_war: 0,
            wars: Sums::NONE,
            finished_cards: Sums::NONE,
            unfinished_wars: Some(Sums::NONE),
            lengths: Lengths::new(most_rounds, cap),
        }
    }

    /// Adds one game.
    #[inline]
    pub fn record(&mut self, game: &GameRecord) {
        self.games += 1;
        self.outcomes[game.outcome as usize] += 1;
        if let Some(seat) = game.winner {
            self.wins_by_seat[seat as usize] += 1;
        }
        if let Some(by) = game.win_by {
            self.win_by[by as usize] += 1;
        }
        match game.outcome {
            Outcome::Win | Outcome::Draw => {
                self.lengths.finished(game.rounds);
                self.finished_cards.add(game.cards_played);
            }
            Outcome::Capped => {
                self.lengths.capped();
                self.unfinished_wars(game.wars);
            }
            // Given up as unresolvable: no length, counted with the games that never end.
            Outcome::Cycle | Outcome::Abandoned => {
                self.lengths.never();
                self.unfinished_wars(game.wars);
            }
        }
        self.wars.add(game.wars);
        self.longest_war = self.longest_war.max(game.longest_war);
    }

    fn unfinished_wars(&mut self, wars: u64) {
        if let Some(sums) = &mut self.unfinished_wars {
            sums.add(wars);
        }
    }

    /// Games that ended with `outcome`.
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.outcomes[outcome as usize]
    }

    /// Wins decided `by` that way.
    pub fn wins_by(&self, by: WinBy) -> u64 {
        self.win_by[by as usize]
    }

    /// Keeps only the memory its figures need ([`Lengths::compact`]), for statistics kept
    /// long after their games (a sweep's cells); games may still be added.
    pub fn compact(&mut self) {
        self.lengths.compact();
    }

    /// The game lengths: exact for finished games, censored for capped and cycling ones.
    pub fn lengths(&self) -> &Lengths {
        &self.lengths
    }

    /// Mean wars per game; none before a game is played.
    pub fn wars_per_game(&self) -> Option<f64> {
        self.wars.mean(self.games)
    }

    /// The ties of every game, summed and squared: their spread over [`Stats::games`].
    pub fn wars(&self) -> &Sums {
        &self.wars
    }

    /// The finished games' ties, summed and squared: all games' less the unfinished ones'
    /// (whose ties count only until the cap or the cycle watch stopped them); none when a state
    /// file did not keep the unfinished games'.
    pub fn finished_wars(&self) -> Option<Sums> {
        let unfinished = self.unfinished_wars?;
        Some(Sums {
            sum: self.wars.sum.checked_sub(unfinished.sum)?,
            squares: (self.wars.squares.zip(unfinished.squares))
                .and_then(|(all, theirs)| all.checked_sub(theirs)),
        })
    }

    /// Mean cards played in a finished game, `None` when no game finished.
    pub fn cards_played_mean(&self) -> Option<f64> {
        self.finished_cards.mean(self.lengths.finished_games())
    }

    /// The cards played in each finished game, summed and squared: their spread over the
    /// finished games.
    pub fn cards_played(&self) -> &Sums {
        &self.finished_cards
    }

    /// Share of games seat `seat` won with its 95% Wilson score interval; none before a game is
    /// played.
    pub fn win_share(&self, seat: usize) -> Option<(f64, f64, f64)> {
        wilson_95(self.wins_by_seat[seat], self.games)
    }

    /// Share of games that ended so with its 95% Wilson score interval (how often games never
    /// end deserves an error bar as much as who wins); none before a game is played.
    pub fn outcome_share(&self, outcome: Outcome) -> Option<(f64, f64, f64)> {
        wilson_95(self.count(outcome), self.games)
    }
}

impl Stats {
    /// Adds `other`'s games as `+=` does, unless a count would pass what it holds (only edited
    /// state files hold such counts): then nothing is added. Checking the totals is enough:
    /// each length's count is at most its side's finished games, and the ties and cards are
    /// u128s bounded by the games ([`Stats::from_parts`] checks a state's).
    pub fn checked_add(&mut self, other: &Stats) -> Result<(), String> {
        let (mine, theirs) = (&self.lengths, &other.lengths);
        let totals = [
            (self.games, other.games),
            (mine.finished_games(), theirs.finished_games()),
            (mine.capped_games(), theirs.capped_games()),
            (mine.never_games(), theirs.never_games()),
        ];
        let mut pairs = (totals.iter().map(|(a, b)| (a, b)))
            .chain(self.outcomes.iter().zip(&other.outcomes))
            .chain(self.wins_by_seat.iter().zip(&other.wins_by_seat))
            .chain(self.win_by.iter().zip(&other.win_by));
        if !pairs.all(|(a, b)| a.checked_add(*b).is_some()) {
            return Err("its counts and the others' add up to more than a count holds".into());
        }
        *self += other;
        Ok(())
    }
}

impl AddAssign<&Stats> for Stats {
    fn add_assign(&mut self, other: &Stats) {
        self.games += other.games;
        for (mine, theirs) in self.outcomes.iter_mut().zip(&other.outcomes) {
            *mine += theirs;
        }
        for (mine, theirs) in self.wins_by_seat.iter_mut().zip(&other.wins_by_seat) {
            *mine += theirs;
        }
        for (mine, theirs) in self.win_by.iter_mut().zip(&other.win_by) {
            *mine += theirs;
        }
        self.longest_war = self.longest_war.max(other.longest_war);
        self.wars.merge(&other.wars);
        self.finished_cards.merge(&other.finished_cards);
        self.unfinished_wars =
            (self.unfinished_wars.zip(other.unfinished_wars)).map(|(mut sums, theirs)| {
                sums.merge(&theirs);
                sums
            });
        self.lengths.merge(&other.lengths);
    }
}

/// Proportion `k / n` with its 95% Wilson score interval (z = 1.959964); none of no trials,
/// where neither exists.
pub fn wilson_95(k: u64, n: u64) -> Option<(f64, f64, f64)> {
    if n == 0 {
        return None;
    }
    let z = 1.959_963_984_540_054_f64;
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2n = z * z / n_f;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n_f + z2n / (4.0 * n_f)).sqrt() / (1.0 + z2n);
    // At no successes (or no failures) the bound is 0 (or 1) exactly, which rounding misses by
    // about 1e-18: set, so files hold the exact figure.
    let low = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Some((p, low, high))
}

#[cfg(test)]
mod tests;
