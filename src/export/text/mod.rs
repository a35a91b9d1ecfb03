//! The human-readable report printed at the end of `warsim run`.

mod bars;
mod lengths;
mod precision;
mod words;

use std::io::{self, Write};

use crate::engine::rules::Family;
use crate::engine::{Outcome, WinBy};
use crate::stats::Stats;

use self::bars::write_histogram;
pub use self::lengths::quantile_text;
use self::lengths::{write_durations, write_lengths};
use self::precision::{interval_decimals, mean_and_spread, percent_interval};
pub use self::words::{
    counted, duration, escape_controls, game_span, games_text, group, group_fixed, nice_width,
    percent_of, shell_word, write_line,
};
use super::RunInfo;
use super::summary::games_per_second;

/// Writes the report.
pub fn write_text_report(out: &mut dyn Write, info: &RunInfo, stats: &Stats) -> io::Result<()> {
    let games = stats.games;
    writeln!(out, "rules        {}", info.rules.describe())?;
    writeln!(
        out,
        "seed         {} ({}, one stream per game; see README)   threads {}",
        info.seed, info.rules.generator, info.threads
    )?;
    let first = info.first_game;
    let shard = match info.shard {
        Some((shard, batch)) => format!(
            " (shard {shard} of a batch of {}: {})",
            group(batch),
            game_span(first, info.games_requested)
        ),
        None => String::new(),
    };
    if games == info.games_requested {
        writeln!(out, "games        {}{shard}", group(games))?;
    } else if let Some(described) = &info.described {
        writeln!(
            out,
            "games        {} of {} asked for (incomplete: the figures describe {described})",
            group(games),
            group(info.games_requested),
        )?;
    } else {
        writeln!(
            out,
            "games        {} of {} asked for (incomplete: the figures describe {}){shard}",
            group(games),
            group(info.games_requested),
            game_span(first, games)
        )?;
    }
    let share = |name: &str, n: u64| match games {
        0 => format!("{name} 0"),
        _ => format!("{name} {} ({})", group(n), percent_of(n, games, 2)),
    };
    // `abandoned` only where the rules can abandon a game, so other reports keep their shape.
    let reported = || {
        Outcome::ALL
            .into_iter()
            .filter(|&o| o != Outcome::Abandoned || info.rules.abandon_after > 0)
    };
    let outcomes: Vec<String> = reported()
        .map(|o| share(o.name(), stats.count(o)))
        .collect();
    writeln!(out, "outcomes     {}", outcomes.join("   "))?;
    // The outcomes that occurred (the summary has every one's).
    let intervals: Vec<String> = reported()
        .filter(|&o| stats.count(o) > 0)
        .filter_map(|o| {
            let (_, low, high) = stats.outcome_share(o)?;
            Some(format!("{} {}", o.name(), percent_interval(low, high)))
        })
        .collect();
    if !intervals.is_empty() {
        writeln!(out, "             95% CIs  {}", intervals.join("   "))?;
    }
    if let Some(line) = decided_by(|by| stats.wins_by(by), share) {
        writeln!(out, "{line}")?;
    }
    if games == 0 {
        // Shares, means and quantiles of no games do not exist: none is printed as 0.
        writeln!(out, "figures      none: no game was played")?;
    } else {
        write_figures(out, info, stats)?;
    }
    let seconds = info.elapsed.as_secs_f64();
    writeln!(
        out,
        "time         {seconds:.3} s   {} games/s",
        group(games_per_second(games, seconds) as u64)
    )?;
    if stats.lengths().finished_games() > 0 {
        writeln!(out)?;
        write_histogram(out, stats, info.rules.max_rounds)?;
    }
    Ok(())
}

/// The figures of at least one game: wins by seat, lengths, cards laid, durations and wars.
fn write_figures(out: &mut dyn Write, info: &RunInfo, stats: &Stats) -> io::Result<()> {
    let seats =
        (0..stats.wins_by_seat.len()).filter_map(|seat| Some((seat, stats.win_share(seat)?)));
    for (seat, (share, low, high)) in seats {
        let label = if seat == 0 { "wins by seat" } else { "" };
        // 20 million games of which a seat won none: [0.000%, 0.0000184%], not [0.000%, 0.000%].
        let d = interval_decimals(low, high);
        writeln!(
            out,
            "{label:<12} seat {:<3} {:>7.d$}%  95% CI [{:.d$}%, {:.d$}%]  ({})",
            seat + 1,
            100.0 * share,
            100.0 * low,
            100.0 * high,
            games_text(stats.wins_by_seat[seat])
        )?;
    }
    write_lengths(out, stats)?;
    let finished = stats.lengths().finished_games();
    if let Some(cards) = stats.cards_played_mean()
        && info.rules.family != Family::FixedRounds
    {
        writeln!(
            out,
            "cards        {}   laid per finished game (face up and down, all players)",
            mean_and_spread(cards, stats.cards_played(), finished, 2)
        )?;
    }
    if let Some(seconds) = info.seconds_per_round {
        write_durations(out, stats, seconds)?;
    }
    match stats.wars_per_game() {
        Some(per_game) if info.rules.family == Family::FixedRounds => {
            let tied = stats.count(Outcome::Draw);
            writeln!(
                out,
                "ties         {}   tied rounds per match   tied matches {} ({})",
                mean_and_spread(per_game, stats.wars(), stats.games, 3),
                group(tied),
                percent_of(tied, stats.games, 3)
            )
        }
        Some(per_game) => {
            writeln!(
                out,
                "wars         {}   per game   longest chain {}",
                mean_and_spread(per_game, stats.wars(), stats.games, 3),
                stats.longest_war
            )?;
            // A game that did not finish counts its ties only until the cap or the cycle watch
            // stopped it: where some did not, the finished games' own figure beside.
            if finished < stats.games
                && let Some(sums) = stats.finished_wars()
                && let Some(mean) = sums.mean(finished)
            {
                writeln!(
                    out,
                    "             {}   per finished game (the others' ties count until they stopped)",
                    mean_and_spread(mean, &sums, finished, 3)
                )?;
            }
            Ok(())
        }
        None => Ok(()),
    }
}

/// A report's `decided by` line: each way of winning that won a game, as `share` writes its
/// name and count; none when the cards decided every win, or nothing was won.
pub fn decided_by(
    wins_by: impl Fn(WinBy) -> u64,
    share: impl Fn(&str, u64) -> String,
) -> Option<String> {
    let decided: Vec<String> = WinBy::ALL
        .iter()
        .filter(|&&by| wins_by(by) > 0)
        .map(|&by| share(by.name(), wins_by(by)))
        .collect();
    let listed = decided.len() > 1 || wins_by(WinBy::Cards) == 0 && !decided.is_empty();
    listed.then(|| format!("decided by   {}", decided.join("   ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A classic run of `games` games, as the report describes it.
    fn classic_run(games: u64) -> RunInfo {
        RunInfo {
            rules: crate::engine::Preset::Classic.rules(),
            seed: 0,
            games_requested: games,
            shard: None,
            first_game: 0,
            described: None,
            threads: 1,
            elapsed: std::time::Duration::from_secs(1),
            seconds_per_round: None,
        }
    }

    #[test]
    fn one_capped_game_in_a_million_is_not_read_as_none() {
        use crate::engine::GameRecord;
        let mut stats = Stats::new(2, 1000, 1000);
        let won = GameRecord {
            rounds: 100,
            outcome: Outcome::Win,
            ..GameRecord::default()
        };
        for _ in 0..999_999 {
            stats.record(&won);
        }
        stats.record(&GameRecord {
            rounds: 1000,
            outcome: Outcome::Capped,
            ..GameRecord::default()
        });
        let info = classic_run(stats.games);
        let mut report = Vec::new();
        write_text_report(&mut report, &info, &stats).unwrap();
        let report = String::from_utf8(report).unwrap();
        let wanted = "win 999,999 (>99.99%)   draw 0 (0.00%)   capped 1 (<0.01%)   cycle 0 (0.00%)";
        assert!(report.contains(wanted), "{report}");
    }

    #[test]
    fn a_seat_that_never_won_in_millions_of_games_shows_its_interval() {
        use crate::stats::StatsParts;
        // 21 million games, all capped: each seat's interval is [0, 1.8e-7], six decimals.
        let games = 21_000_000;
        let parts = StatsParts {
            games,
            outcomes: vec![0, 0, games, 0, 0],
            wins_by_seat: vec![0, 0],
            win_by: vec![0; WinBy::ALL.len()],
            longest_war: 0,
            wars_sum: 0,
            finished_cards: 0,
            wars_squares: Some(0),
            finished_cards_squares: Some(0),
            unfinished_wars: Some(0),
            unfinished_wars_squares: Some(0),
            rounds: vec![],
            rounds_games: vec![],
            capped: games,
            never: 0,
        };
        let stats = Stats::from_parts(&parts, 1, 1).unwrap();
        let info = classic_run(games);
        let mut report = Vec::new();
        write_text_report(&mut report, &info, &stats).unwrap();
        let report = String::from_utf8(report).unwrap();
        assert!(
            report.contains("seat 1   0.000000%  95% CI [0.000000%, 0.000018%]  (0 games)"),
            "{report}"
        );
        assert!(
            report.contains("95% CIs  capped 99.999982 – 100.000000%"),
            "{report}"
        );
    }
}
