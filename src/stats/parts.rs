//! The statistics as plain numbers ([`StatsParts`]): what a state file stores, and the checks
//! that rebuild the very same statistics from them, refusing counts that do not add up.

use super::{Lengths, Stats, Sums};
use crate::engine::rules::counted;
use crate::engine::{Outcome, WinBy};

/// Every count a [`Stats`] holds, as plain numbers: what a state file stores, from which the
/// very same statistics are rebuilt ([`Stats::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StatsParts {
    /// Games recorded.
    pub games: u64,
    /// Games per outcome, as [`Outcome::ALL`].
    pub outcomes: Vec<u64>,
    /// Wins per seat.
    pub wins_by_seat: Vec<u64>,
    /// Wins per way of winning, as [`WinBy::ALL`].
    pub win_by: Vec<u64>,
    /// Most ties chained in one round.
    pub longest_war: u32,
    /// Ties over all games (a u128, as in [`Stats`]).
    pub wars_sum: u128,
    /// Cards played in finished games.
    pub finished_cards: u128,
    /// Each game's ties squared, summed; absent from states written before warsim kept them
    /// (then the ties have no spread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wars_squares: Option<u128>,
    /// Each finished game's cards squared, summed; absent as `wars_squares`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_cards_squares: Option<u128>,
    /// Ties in the games that did not finish (capped, cycling, abandoned): the finished games'
    /// are the rest. Absent from states written before warsim kept them: then the finished
    /// games' ties are unknown, unless every game finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished_wars: Option<u128>,
    /// Their squares, summed; absent as `unfinished_wars`, or as `wars_squares`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished_wars_squares: Option<u128>,
    /// Every length a finished game had, shortest first...
    pub rounds: Vec<u64>,
    /// ...and how many finished games had it.
    pub rounds_games: Vec<u64>,
    /// Games stopped by the cap.
    pub capped: u64,
    /// Games that never end.
    pub never: u64,
}

impl Stats {
    /// Every count, plain (see [`StatsParts`]).
    pub fn parts(&self) -> StatsParts {
        let (rounds, rounds_games) = self.lengths.counts().unzip();
        StatsParts {
            games: self.games,
            outcomes: self.outcomes.to_vec(),
            wins_by_seat: self.wins_by_seat.clone(),
            win_by: self.win_by.to_vec(),
            longest_war: self.longest_war,
            wars_sum: self.wars.sum,
            finished_cards: self.finished_cards.sum,
            wars_squares: self.wars.squares,
            finished_cards_squares: self.finished_cards.squares,
            unfinished_wars: self.unfinished_wars.map(|sums| sums.sum),
            unfinished_wars_squares: self.unfinished_wars.and_then(|sums| sums.squares),
            rounds,
            rounds_games,
            capped: self.lengths.capped_games(),
            never: self.lengths.never_games(),
        }
    }

    /// The statistics `parts` describe, for games of `players` seats, finished within
    /// `most_rounds` rounds, capped at `cap`; `Err` says what does not add up.
    pub fn from_parts(parts: &StatsParts, most_rounds: u32, cap: u32) -> Result<Stats, String> {
        // Files from before `abandoned` existed list one outcome fewer: none was abandoned.
        let mut outcomes = parts.outcomes.clone();
        if outcomes.len() + 1 == Outcome::ALL.len() {
            outcomes.push(0);
        }
        let (outcomes, win_by) = (&outcomes, &parts.win_by);
        if outcomes.len() != Outcome::ALL.len() || win_by.len() != WinBy::ALL.len() {
            return Err("the outcome or win counts have the wrong length".into());
        }
        if parts.rounds.len() != parts.rounds_games.len()
            || !parts.rounds.windows(2).all(|w| w[0] < w[1])
        {
            return Err("the length counts are not in order".into());
        }
        if parts
            .rounds
            .last()
            .is_some_and(|&r| r > u64::from(most_rounds))
        {
            return Err(format!(
                "a game lasted longer than its rules allow ({})",
                counted(most_rounds, "round")
            ));
        }
        let mut stats = Stats::new(parts.wins_by_seat.len(), 0, cap);
        // Laid out as compacted from the start: a merge or a sweep's resume holds many of
        // these at once, and a merge reads thousands of cells a shard.
        stats.lengths = Lengths::laid_out_for(&parts.rounds, cap);
        // Sums checked: a damaged file's huge counts must not wrap round to agreeing ones.
        let total = |counts: &[u64]| counts.iter().try_fold(0u64, |sum, &n| sum.checked_add(n));
        let Some(finished) = total(&parts.rounds_games) else {
            return Err("its length counts overflow".into());
        };
        stats.games = parts.games;
        stats.outcomes.copy_from_slice(outcomes);
        stats.wins_by_seat.clone_from(&parts.wins_by_seat);
        stats.win_by.copy_from_slice(win_by);
        stats.longest_war = parts.longest_war;
        stats.wars = Sums {
            sum: parts.wars_sum,
            squares: parts.wars_squares,
        };
        stats.finished_cards = Sums {
            sum: parts.finished_cards,
            squares: parts.finished_cards_squares,
        };
        let unfinished = parts.games.saturating_sub(finished);
        stats.unfinished_wars = match parts.unfinished_wars {
            Some(sum) => Some(Sums {
                sum,
                squares: parts.unfinished_wars_squares,
            }),
            // Written before they were kept: known where every game finished.
            None if unfinished == 0 => Some(Sums::NONE),
            None => None,
        };
        for (&rounds, &games) in parts.rounds.iter().zip(&parts.rounds_games) {
            stats.lengths.finished_many(rounds, games);
        }
        stats.lengths.censored_many(parts.capped, parts.never);
        let wins = Some(stats.count(Outcome::Win));
        let won_or_drawn = stats
            .count(Outcome::Win)
            .checked_add(stats.count(Outcome::Draw));
        let never = stats
            .count(Outcome::Cycle)
            .checked_add(stats.count(Outcome::Abandoned));
        let consistent = total(outcomes) == Some(parts.games)
            && Some(finished) == won_or_drawn
            && parts.capped == stats.count(Outcome::Capped)
            && Some(parts.never) == never
            && total(&parts.wins_by_seat) == wins
            && total(win_by) == wins;
        if !consistent {
            return Err(
                "its counts do not add up (games, outcomes, lengths and wins disagree)".into(),
            );
        }
        // A game's ties and its cards are u64s: within these bounds no sum of a batch's games,
        // resumed or merged, can pass a u128.
        let plausible = parts.wars_sum <= u128::from(parts.games) * u128::from(u64::MAX)
            && parts.finished_cards <= u128::from(finished) * u128::from(u64::MAX);
        if !plausible {
            return Err("it counts more ties or cards than its games can hold".into());
        }
        if !stats.wars.plausible(parts.games) || !stats.finished_cards.plausible(finished) {
            return Err("its sums of squared ties or cards do not fit their sums".into());
        }
        // The unfinished games' ties are some of all games' ties, and both parts plausible.
        if let Some(theirs) = stats.unfinished_wars {
            let both_squares = stats.wars.squares.is_some() && theirs.squares.is_some();
            let within = (stats.finished_wars())
                .filter(|rest| rest.squares.is_some() || !both_squares)
                .is_some_and(|rest| rest.plausible(finished) && theirs.plausible(unfinished));
            if !within {
                return Err("its unfinished games' ties do not fit all games' ties".into());
            }
        }
        Ok(stats)
    }
}
