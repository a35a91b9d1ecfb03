//! The words of a run's plot: its title, counting the games it holds (and saying when they are
//! a shard's or fewer than asked for), and the lines under it (the rules, the seed, the marked
//! quantiles and the shares of games that never end).

use crate::export::RunInfo;
use crate::export::text::{games_text, group, percent_of, quantile_text};
use crate::plot::MARKED_QUANTILES;
use crate::stats::Stats;

/// A run's plot title and the lines under it: the rules, the seed and the censored shares.
pub fn plot_titles(info: &RunInfo, stats: &Stats) -> (String, Vec<String>) {
    let share = |n: u64| percent_of(n, stats.games, 2);
    let lengths = stats.lengths();
    let title = format!(
        "How long does War last? {}, {}",
        info.rules.preset.name(),
        games_played(info, stats.games)
    );
    // No game has no shares, so a shard that holds none shows none.
    let censored = match stats.games {
        0 => String::new(),
        _ => format!(
            "capped {} · never end ({}) {} · ",
            share(lengths.capped_games()),
            match stats.count(crate::engine::Outcome::Abandoned) {
                0 => "cycles",
                _ => "cycles, abandoned",
            },
            share(lengths.never_games()),
        ),
    };
    // The quantiles in words too: one among games that never end ("> 300", "never") has no
    // mark to show it.
    let quantiles: String = MARKED_QUANTILES
        .into_iter()
        .filter_map(|(name, parts)| {
            Some(format!(
                "{name} {} · ",
                quantile_text(lengths.quantile(parts)?)
            ))
        })
        .collect();
    let lines = vec![
        info.rules.describe(),
        format!(
            "seed {} · {quantiles}{censored}warsim {}",
            info.seed,
            env!("CARGO_PKG_VERSION")
        ),
    ];
    (title, lines)
}

/// The games a plot describes, saying when they are not the whole batch: a shard's part
/// (`667 games (shard 1/3)`) or fewer than asked for (`3,000 of 10,000 games (incomplete)`:
/// a stopped run, a partial merge), as the report's `games` line does.
fn games_played(info: &RunInfo, games: u64) -> String {
    let mut notes = Vec::new();
    let counted = match games == info.games_requested {
        true => games_text(games),
        false => {
            notes.push("incomplete".to_string());
            format!("{} of {}", group(games), games_text(info.games_requested))
        }
    };
    if let Some((shard, _)) = info.shard {
        notes.push(format!("shard {shard}"));
    }
    match notes.is_empty() {
        true => counted,
        false => format!("{counted} ({})", notes.join(", ")),
    }
}
