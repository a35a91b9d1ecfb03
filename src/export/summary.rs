//! The figures of a finished batch as one ordered list of named values: the row of the summary
//! CSV and the keys of the summary JSON.

use std::time::Duration;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::engine::rules::Named;
use crate::engine::{Outcome, Rules, WinBy};
use crate::stats::{Quantile, Stats};

/// What was run, for the record.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// The rules of every game.
    pub rules: Rules,
    /// Base seed.
    pub seed: u64,
    /// Games asked for (the statistics may hold fewer: an interrupted or failed run).
    pub games_requested: u64,
    /// Worker threads (does not change any result).
    pub threads: usize,
    /// Wall time of the batch.
    pub elapsed: Duration,
}

/// One figure: a whole number, a real number, text, a yes/no, or nothing (no value exists,
/// e.g. the mean length when no game finished): empty in CSV, `null` in JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Figure {
    /// A count.
    Int(u64),
    /// A measured or estimated value.
    Real(f64),
    /// A name.
    Text(String),
    /// Yes or no.
    Bool(bool),
    /// No value.
    Missing,
}

impl Figure {
    fn real(value: Option<f64>) -> Figure {
        value.map_or(Figure::Missing, Figure::Real)
    }

    fn int(value: Option<u64>) -> Figure {
        value.map_or(Figure::Missing, Figure::Int)
    }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Figure::Int(v) => write!(f, "{v}"),
            Figure::Real(v) => write!(f, "{v}"),
            Figure::Text(v) => f.write_str(v),
            Figure::Bool(v) => write!(f, "{v}"),
            Figure::Missing => Ok(()),
        }
    }
}

/// Every summary figure, in output order. Key names are stable (see the README).
#[derive(Clone, Debug)]
pub struct Summary {
    /// (key, value) pairs.
    pub fields: Vec<(String, Figure)>,
}

impl Summary {
    /// The figures of `stats` for the run `info`.
    pub fn new(info: &RunInfo, stats: &Stats) -> Summary {
        let r = &info.rules;
        let mut fields: Vec<(String, Figure)> = Vec::new();
        let mut put = |key: &str, value: Figure| fields.push((key.to_string(), value));
        put(
            "warsim_version",
            Figure::Text(env!("CARGO_PKG_VERSION").to_string()),
        );
        put("rules", Figure::Text(r.preset.name().to_string()));
        put("family", Figure::Text(r.family.name().to_string()));
        put("players", Figure::Int(r.players.into()));
        put("suits", Figure::Int(r.suits.into()));
        put("ranks", Figure::Int(r.ranks.into()));
        put("cards", Figure::Int(r.cards().into()));
        put("cards_in_play", Figure::Int(r.cards_in_play().into()));
        put("uneven", Figure::Text(r.uneven.name().to_string()));
        put("face_down", Figure::Int(r.face_down.into()));
        put("war_shortage", Figure::Text(r.shortage.name().to_string()));
        put("pickup", Figure::Text(r.pickup.name().to_string()));
        put("spoils", Figure::Text(r.spoils.name().to_string()));
        put("reshuffle_every", Figure::Int(r.reshuffle_every.into()));
        put("max_rounds", Figure::Int(r.max_rounds.into()));
        put("at_cap", Figure::Text(r.at_cap.name().to_string()));
        put("deal", Figure::Text(r.deal.name().to_string()));
        put("generator", Figure::Text(r.generator.name().to_string()));
        put("seed", Figure::Int(info.seed));
        put("games_requested", Figure::Int(info.games_requested));
        put("games", Figure::Int(stats.games));
        put(
            "complete",
            Figure::Bool(stats.games == info.games_requested),
        );
        for outcome in Outcome::ALL {
            put(outcome.name(), Figure::Int(stats.count(outcome)));
        }
        let lengths = stats.lengths();
        put("finished", Figure::Int(lengths.finished_games()));
        for by in WinBy::ALL {
            put(
                &format!("win_by_{}", by.name()),
                Figure::Int(stats.wins_by(by)),
            );
        }
        for seat in 0..stats.wins_by_seat.len() {
            let (share, low, high) = stats.win_share(seat);
            let n = seat + 1;
            put(
                &format!("seat{n}_wins"),
                Figure::Int(stats.wins_by_seat[seat]),
            );
            put(&format!("seat{n}_win_share"), Figure::Real(share));
            put(&format!("seat{n}_ci95_low"), Figure::Real(low));
            put(&format!("seat{n}_ci95_high"), Figure::Real(high));
        }
        put("rounds_mean", Figure::real(lengths.mean()));
        put("rounds_se", Figure::real(lengths.se()));
        put("rounds_sd", Figure::real(lengths.sd()));
        put("rounds_min", Figure::int(lengths.min()));
        for (key, _, parts) in QUANTILES {
            let value = match lengths.quantile(parts) {
                Some(Quantile::Rounds(rounds)) => Some(rounds),
                _ => None,
            };
            put(key, Figure::int(value));
        }
        put("rounds_max", Figure::int(lengths.max()));
        put("wars_per_game", Figure::Real(stats.wars_per_game()));
        put("longest_war", Figure::Int(stats.longest_war.into()));
        put("threads", Figure::Int(info.threads as u64));
        let seconds = info.elapsed.as_secs_f64();
        put("wall_seconds", Figure::Real(seconds));
        put(
            "games_per_second",
            Figure::Real(games_per_second(stats.games, seconds)),
        );
        Summary { fields }
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Figure> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// The round quantiles reported: summary key, report label, quantile in parts per 100,000.
pub const QUANTILES: [(&str, &str, u32); 4] = [
    ("rounds_p50", "p50", 50_000),
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
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}
