//! The figures of a finished batch, typed ([`Summary`]), and as one ordered list of named values
//! ([`Summary::fields`]): the row of the summary CSV and the keys of the summary JSON, so the two
//! never drift.

use std::time::Duration;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::batch::Shard;
use crate::engine::rules::Named;
use crate::engine::{Outcome, Rules, WinBy};
use crate::stats::{Quantile, Stats};

use super::{Figure, Proportion};

/// What was run, for the record.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The rules of every game.
    pub rules: Rules,
    /// Base seed.
    pub seed: u64,
    /// Games asked for (the statistics may hold fewer: an interrupted or failed run); for a
    /// shard, its part of the batch.
    pub games_requested: u64,
    /// The shard played and the whole batch's games, when only a part was played.
    pub shard: Option<(Shard, u64)>,
    /// The first game played (0 but for a shard).
    pub first_game: u64,
    /// Which games the figures describe, when they are not one run of games from `first_game`
    /// (a partial merge: "games 0 to 249,999 and 500,000 to 999,999").
    pub described: Option<String>,
    /// Worker threads (does not change any result).
    pub threads: usize,
    /// Wall time of the batch.
    pub elapsed: Duration,
    /// Seconds a round takes at a real table, for the report's durations.
    pub seconds_per_round: Option<f64>,
}

impl RunInfo {
    /// A wall time of `seconds`: a run's resumed from a state file, or shards' added up by a
    /// merge. State files hold finite times, never negative, but their sum may pass what a
    /// [`Duration`] holds: then the longest it holds, not a panic.
    pub fn wall_time(seconds: f64) -> Duration {
        Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
    }
}

/// What the run was: every rule setting, the generator and the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The rules of every game (preset, family and every setting).
    pub rules: Rules,
    /// Base seed.
    pub seed: u64,
    /// The shard played and the whole batch's games, if a shard.
    pub shard: Option<(Shard, u64)>,
    /// The first game played.
    pub first_game: u64,
}

/// One seat's wins and their share of all games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatWins {
    /// Games the seat won.
    pub wins: u64,
    /// Share of all games with its interval (none of no games).
    pub share: Option<Proportion>,
}

/// Game lengths: moments and extremes of finished games, quantiles of all games (`None` where
/// no value exists: no finished game, or a quantile among capped or cycling games).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lengths {
    /// Games won or drawn: those with a length.
    pub finished: u64,
    /// Mean rounds of finished games.
    pub mean: Option<f64>,
    /// Standard error of the mean.
    pub se: Option<f64>,
    /// Sample standard deviation.
    pub sd: Option<f64>,
    /// Shortest finished game.
    pub min: Option<u64>,
    /// The quantiles of [`QUANTILES`], in order.
    pub quantiles: [Option<u64>; QUANTILES.len()],
    /// The distribution-free 95% confidence intervals of the quantiles of
    /// `QUANTILE_INTERVALS`, in order (order statistics; none where an end falls among
    /// censored games or too few games leave one).
    pub ci95: [[Option<u64>; 2]; QUANTILE_INTERVALS.len()],
    /// Longest finished game.
    pub max: Option<u64>,
}

/// How the run went: the only figures that vary from run to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Worker threads.
    pub threads: usize,
    /// Wall time in seconds.
    pub wall_seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

/// Every summary figure of a run, typed. [`Summary::fields`] lists them as named values in
/// output order: the summary CSV's columns and the JSON's keys (stable, see the README).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// What was run.
    pub setup: Setup,
    /// Games asked for.
    pub games_requested: u64,
    /// Games played.
    pub games: u64,
    /// Games per outcome, as [`Outcome::ALL`].
    pub outcomes: [u64; Outcome::ALL.len()],
    /// Each outcome's share of the games, as [`Outcome::ALL`] (none of no games).
    pub outcome_shares: [Option<Proportion>; Outcome::ALL.len()],
    /// Wins per way of winning, as [`WinBy::ALL`].
    pub win_by: [u64; WinBy::ALL.len()],
    /// Each seat's wins.
    pub seats: Vec<SeatWins>,
    /// Game lengths.
    pub lengths: Lengths,
    /// Mean cards laid on the table in a finished game.
    pub cards_played_mean: Option<f64>,
    /// Its standard error: none below two finished games, or without the squares
    /// ([`crate::stats::Sums`]).
    pub cards_played_se: Option<f64>,
    /// The cards' sample standard deviation, none as the standard error.
    pub cards_played_sd: Option<f64>,
    /// Mean ties per game (none of no games).
    pub wars_per_game: Option<f64>,
    /// Its standard error: none below two games, or without squares.
    pub wars_per_game_se: Option<f64>,
    /// The ties' sample standard deviation, none as the standard error.
    pub wars_per_game_sd: Option<f64>,
    /// Mean ties per finished game, its standard error and sample standard deviation (none
    /// where no game finished, or a state file did not keep the unfinished games' ties).
    pub wars_per_finished_game: [Option<f64>; 3],
    /// Most ties chained in one round.
    pub longest_war: u32,
    /// Threads and time.
    pub timing: Timing,
}

impl Summary {
    /// The figures of `stats` for the run `info`.
    pub fn new(info: &RunInfo, stats: &Stats) -> Summary {
        let lengths = stats.lengths();
        let finished = lengths.finished_games();
        let seconds = info.elapsed.as_secs_f64();
        Summary {
            setup: Setup {
                rules: info.rules.clone(),
                seed: info.seed,
                shard: info.shard,
                first_game: info.first_game,
            },
            games_requested: info.games_requested,
            games: stats.games,
            outcomes: Outcome::ALL.map(|o| stats.count(o)),
            outcome_shares: Outcome::ALL.map(|o| Proportion::of(stats.outcome_share(o))),
            win_by: WinBy::ALL.map(|by| stats.wins_by(by)),
            seats: (0..stats.wins_by_seat.len())
                .map(|seat| SeatWins {
                    wins: stats.wins_by_seat[seat],
                    share: Proportion::of(stats.win_share(seat)),
                })
                .collect(),
            lengths: Lengths {
                finished,
                mean: lengths.mean(),
                se: lengths.se(),
                sd: lengths.sd(),
                min: lengths.min(),
                quantiles: QUANTILES
                    .map(|(_, _, parts)| lengths.quantile(parts).and_then(Quantile::rounds)),
                max: lengths.max(),
                ci95: QUANTILE_INTERVALS.map(|(_, _, parts)| match lengths.quantile_ci95(parts) {
                    Some((low, high)) => [low.rounds(), high.rounds()],
                    None => [None, None],
                }),
            },
            cards_played_mean: stats.cards_played_mean(),
            cards_played_se: stats.cards_played().se(finished),
            cards_played_sd: stats.cards_played().sd(finished),
            wars_per_game: stats.wars_per_game(),
            wars_per_game_se: stats.wars().se(stats.games),
            wars_per_game_sd: stats.wars().sd(stats.games),
            wars_per_finished_game: match stats.finished_wars() {
                Some(sums) => [sums.mean(finished), sums.se(finished), sums.sd(finished)],
                None => [None; 3],
            },
            longest_war: stats.longest_war,
            timing: Timing {
                threads: info.threads,
                wall_seconds: seconds,
                games_per_second: games_per_second(stats.games, seconds),
            },
        }
    }

    /// True when every game asked for was played.
    pub fn complete(&self) -> bool {
        self.games == self.games_requested
    }

    /// Every figure as `(key, value)`, in output order.
    pub fn fields(&self) -> Vec<(String, Figure)> {
        self.fields_with(true)
    }

    /// Every figure but the per-seat ones (`seatN_…`), whose number changes with the players:
    /// a sweep's table keeps one set of columns and puts the seats in a table of their own.
    pub fn fields_without_seats(&self) -> Vec<(String, Figure)> {
        self.fields_with(false)
    }

    /// The figures that say what was run, the summary's first keys: the rules
    /// ([`rule_fields`]), the seed, which games of which batch, and whether they are all there
    /// (`warsim_version` to `complete`).
    pub fn run_fields(&self) -> Vec<(String, Figure)> {
        let mut fields = rule_fields(&self.setup.rules);
        let mut put = |key: &str, value: Figure| fields.push((key.to_string(), value));
        put("seed", Figure::Int(self.setup.seed));
        let shard = self.setup.shard;
        // Two whole numbers, not "K/N": a spreadsheet reads "1/3" as a date.
        put(
            "shard",
            shard.map_or(Figure::Missing, |(s, _)| Figure::Int(s.index)),
        );
        put(
            "shards",
            shard.map_or(Figure::Missing, |(s, _)| Figure::Int(s.count)),
        );
        put(
            "batch_games",
            Figure::Int(shard.map_or(self.games_requested, |(_, g)| g)),
        );
        put("first_game", Figure::Int(self.setup.first_game));
        put("games_requested", Figure::Int(self.games_requested));
        put("games", Figure::Int(self.games));
        put("complete", Figure::Bool(self.complete()));
        fields
    }

    fn fields_with(&self, seats: bool) -> Vec<(String, Figure)> {
        let mut fields = self.run_fields();
        let mut put = |key: &str, value: Figure| fields.push((key.to_string(), value));
        for (outcome, count) in Outcome::ALL.iter().zip(self.outcomes) {
            put(outcome.name(), Figure::Int(count));
        }
        put("finished", Figure::Int(self.lengths.finished));
        for (outcome, share) in Outcome::ALL.iter().zip(self.outcome_shares) {
            let name = outcome.name();
            let keys = ["share", "ci95_low", "ci95_high"].map(|key| format!("{name}_{key}"));
            for (key, figure) in keys.iter().zip(Proportion::figures(share)) {
                put(key, figure);
            }
        }
        for (by, count) in WinBy::ALL.iter().zip(self.win_by) {
            put(&format!("win_by_{}", by.name()), Figure::Int(count));
        }
        for (seat, wins) in self.seats.iter().enumerate().filter(|_| seats) {
            let n = seat + 1;
            put(&format!("seat{n}_wins"), Figure::Int(wins.wins));
            let keys = ["win_share", "ci95_low", "ci95_high"].map(|key| format!("seat{n}_{key}"));
            for (key, figure) in keys.iter().zip(Proportion::figures(wins.share)) {
                put(key, figure);
            }
        }
        let l = &self.lengths;
        put("rounds_mean", Figure::real(l.mean));
        put("rounds_se", Figure::real(l.se));
        put("rounds_sd", Figure::real(l.sd));
        put("rounds_min", Figure::int(l.min));
        for ((key, _, _), value) in QUANTILES.iter().zip(l.quantiles) {
            put(key, Figure::int(value));
        }
        for ((key, _, _), [low, high]) in QUANTILE_INTERVALS.iter().zip(l.ci95) {
            put(&format!("{key}_ci95_low"), Figure::int(low));
            put(&format!("{key}_ci95_high"), Figure::int(high));
        }
        put("rounds_max", Figure::int(l.max));
        put("cards_played_mean", Figure::real(self.cards_played_mean));
        put("cards_played_se", Figure::real(self.cards_played_se));
        put("cards_played_sd", Figure::real(self.cards_played_sd));
        put("wars_per_game", Figure::real(self.wars_per_game));
        put("wars_per_game_se", Figure::real(self.wars_per_game_se));
        put("wars_per_game_sd", Figure::real(self.wars_per_game_sd));
        let [mean, se, sd] = self.wars_per_finished_game;
        put("wars_per_finished_game", Figure::real(mean));
        put("wars_per_finished_game_se", Figure::real(se));
        put("wars_per_finished_game_sd", Figure::real(sd));
        put("longest_war", Figure::Int(self.longest_war.into()));
        put("threads", Figure::Int(self.timing.threads as u64));
        put("wall_seconds", Figure::Real(self.timing.wall_seconds));
        put(
            "games_per_second",
            Figure::Real(self.timing.games_per_second),
        );
        fields
    }
}

/// The warsim version, then the preset and every setting, one key each (`rules`, `family`,
/// `players`, … `generator`): the columns every summary starts with.
pub fn rule_fields(r: &Rules) -> Vec<(String, Figure)> {
    let mut fields: Vec<(String, Figure)> = Vec::new();
    let mut put = |key: &str, value: Figure| fields.push((key.to_string(), value));
    let text = |value: &str| Figure::Text(value.to_string());
    put("warsim_version", text(env!("CARGO_PKG_VERSION")));
    put("rules", text(r.preset.name()));
    put("family", text(r.family.name()));
    put("players", Figure::Int(r.players.into()));
    put("suits", Figure::Int(r.suits.into()));
    put("ranks", Figure::Int(r.ranks.into()));
    put("cards", Figure::Int(r.cards().into()));
    put("cards_in_play", Figure::Int(r.cards_in_play().into()));
    put("uneven", text(r.uneven.name()));
    put("face_down", Figure::Int(r.face_down.into()));
    put("war_shortage", text(r.shortage.name()));
    put("pickup", text(r.pickup.name()));
    put("spoils", text(r.spoils.name()));
    put("reshuffle_every", Figure::Int(r.reshuffle_every.into()));
    put("max_rounds", Figure::Int(r.max_rounds.into()));
    put("at_cap", text(r.at_cap.name()));
    put("shuffle", text(r.shuffle.name()));
    put("champion", text(r.champion.name()));
    put("abandon_after", Figure::Int(r.abandon_after.into()));
    put("group_order", text(r.group_order.name()));
    put("deal", text(r.deal.name()));
    put("generator", text(r.generator.name()));
    fields
}

/// The round quantiles reported: summary key, report label, quantile in parts per 100,000.
pub const QUANTILES: [(&str, &str, u32); 10] = [
    ("rounds_p1", "p1", 1_000),
    ("rounds_p5", "p5", 5_000),
    ("rounds_p10", "p10", 10_000),
    ("rounds_p25", "p25", 25_000),
    ("rounds_p50", "p50", 50_000),
    ("rounds_p75", "p75", 75_000),
    ("rounds_p90", "p90", 90_000),
    ("rounds_p95", "p95", 95_000),
    ("rounds_p99", "p99", 99_000),
    ("rounds_p999", "p99.9", 99_900),
];

/// The quantiles given a 95% confidence interval (summary keys `KEY_ci95_low`, `KEY_ci95_high`):
/// the median and the upper tail, as [`QUANTILES`] name them.
pub const QUANTILE_INTERVALS: [(&str, &str, u32); 4] = [
    ("rounds_p50", "median", 50_000),
    ("rounds_p90", "p90", 90_000),
    ("rounds_p99", "p99", 99_000),
    ("rounds_p999", "p99.9", 99_900),
];

/// Games per second, 0 when no time passed.
pub fn games_per_second(games: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        games as f64 / seconds
    } else {
        0.0
    }
}

impl Serialize for Summary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = self.fields();
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, value) in &fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}
