//! The human-readable report printed at the end of `warsim run`.

mod bars;

use std::io::{self, Write};

use crate::engine::rules::Family;
use crate::engine::{Outcome, WinBy};
use crate::stats::{Quantile, Stats, Sums};

use self::bars::write_histogram;
use super::RunInfo;
use super::summary::{QUANTILES, games_per_second};

/// Writes the report.
pub fn write_text_report(out: &mut dyn Write, info: &RunInfo, stats: &Stats) -> io::Result<()> {
    let games = stats.games;
    let pct = |n: u64| 100.0 * n as f64 / games as f64;
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
        _ => format!("{name} {} ({:.2}%)", group(n), pct(n)),
    };
    // `abandoned` only where the rules can abandon a game, so other reports keep their shape.
    let outcomes: Vec<String> = Outcome::ALL
        .iter()
        .filter(|&&o| o != Outcome::Abandoned || info.rules.abandon_after > 0)
        .map(|&o| share(o.name(), stats.count(o)))
        .collect();
    writeln!(out, "outcomes     {}", outcomes.join("   "))?;
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
        writeln!(
            out,
            "{label:<12} seat {:<3} {:>7.3}%  95% CI [{:.3}%, {:.3}%]  ({})",
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
                "ties         {}   tied rounds per match   tied matches {} ({:.3}%)",
                mean_and_spread(per_game, stats.wars(), stats.games, 3),
                group(tied),
                100.0 * tied as f64 / stats.games as f64
            )
        }
        Some(per_game) => writeln!(
            out,
            "wars         {}   per game   longest chain {}",
            mean_and_spread(per_game, stats.wars(), stats.games, 3),
            stats.longest_war
        ),
        None => Ok(()),
    }
}

/// `mean M ± SE (s.e.)   sd SD` to `places` decimals, as the rounds' line gives them; the mean
/// alone where there is no spread (one game, or squares a state file did not keep).
fn mean_and_spread(mean: f64, sums: &Sums, games: u64, places: usize) -> String {
    match (sums.se(games), sums.sd(games)) {
        (Some(se), Some(sd)) => format!(
            "mean {} ± {} (s.e.)   sd {}",
            group_fixed(mean, places),
            group_fixed(se, places),
            group_fixed(sd, places)
        ),
        _ => format!("mean {}", group_fixed(mean, places)),
    }
}

/// The length figures: moments and extremes of finished games, quantiles of all games.
fn write_lengths(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    let lengths = stats.lengths();
    let finished = lengths.finished_games();
    match (lengths.mean(), lengths.min(), lengths.max()) {
        (Some(mean), Some(min), Some(max)) => {
            let spread = match (lengths.se(), lengths.sd()) {
                (Some(se), Some(sd)) => format!(
                    "mean {} ± {} (s.e.)   sd {}",
                    group_fixed(mean, 2),
                    group_fixed(se, 2),
                    group_fixed(sd, 2)
                ),
                _ => format!("mean {} (one game: no sd or s.e.)", group_fixed(mean, 2)),
            };
            writeln!(
                out,
                "rounds       {spread}   min {}   max {}   ({})",
                group(min),
                group(max),
                counted(finished, "finished game")
            )?
        }
        _ => writeln!(out, "rounds       no game finished: none has a length")?,
    }
    let quantiles: Vec<String> = QUANTILES
        .iter()
        .filter_map(|&(_, label, parts)| {
            lengths
                .quantile(parts)
                .map(|q| format!("{label} {}", quantile_text(q)))
        })
        .collect();
    if quantiles.len() < QUANTILES.len() {
        return Ok(()); // no game at all
    }
    // Up to the median with its interval, then the upper tail.
    let median = QUANTILES
        .iter()
        .position(|q| q.2 == 50_000)
        .map_or(0, |i| i + 1);
    let (low, high) = quantiles.split_at(median);
    let interval = match lengths.median_ci95() {
        Some((a, b)) => format!(
            "   (median 95% CI {} – {})",
            quantile_text(a),
            quantile_text(b)
        ),
        None => String::new(),
    };
    writeln!(out, "             {}{interval}", low.join("   "))?;
    let note = if lengths.games() > finished {
        "   (all games; capped and cycling games count as longest)"
    } else {
        ""
    };
    writeln!(out, "             {}{note}", high.join("   "))?;
    Ok(())
}

/// The length quantiles as time at a real table: the median, p90, and the 1-in-100 and
/// 1-in-1,000 longest games.
fn write_durations(out: &mut dyn Write, stats: &Stats, seconds_per_round: f64) -> io::Result<()> {
    let lengths = stats.lengths();
    let at = |parts: u32| {
        lengths.quantile(parts).map_or(String::new(), |q| match q {
            Quantile::Rounds(rounds) => duration(rounds as f64 * seconds_per_round),
            Quantile::AboveCap(cap) => {
                format!("over {}", duration(f64::from(cap) * seconds_per_round))
            }
            Quantile::Never => "never ends".to_string(),
        })
    };
    writeln!(
        out,
        "duration     at {seconds_per_round} s a round: median {}, p90 {}; 1 game in 100 {}, 1 in 1,000 {}",
        at(50_000),
        at(90_000),
        longer(at(99_000)),
        longer(at(99_900))
    )
}

/// What the longest games do: "lasts over 12 min" (a quantile bounds the games beyond it), or
/// "never ends".
fn longer(text: String) -> String {
    if text.starts_with("never") {
        text
    } else {
        format!("lasts over {}", text.trim_start_matches("over "))
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

/// 392 s → "6 min 32 s"; 4,200 s → "1 h 10 min"; days beyond 48 h; below 10 s, to three figures
/// ("0.178 s", "1.3 s"), down to the thousandth, the finest `--seconds-per-round` gives.
pub fn duration(seconds: f64) -> String {
    if seconds < 9.995 {
        let decimals = if seconds < 1.0 { 3 } else { 2 };
        let text = format!("{seconds:.decimals$}");
        return format!("{} s", text.trim_end_matches('0').trim_end_matches('.'));
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3_600 => format!("{} min {} s", s / 60, s % 60),
        3_600..172_800 => format!("{} h {} min", s / 3_600, s % 3_600 / 60),
        _ => format!("{} days {} h", group(s / 86_400), s % 86_400 / 3_600),
    }
}

/// A quantile as the report prints it: rounds, "> cap" or "never".
pub fn quantile_text(quantile: Quantile) -> String {
    match quantile {
        Quantile::Rounds(rounds) => group(rounds),
        Quantile::AboveCap(cap) => format!("> {}", group(cap.into())),
        Quantile::Never => "never".to_string(),
    }
}

/// The smallest of 1, 2, 5 × 10^k at least `raw`.
pub fn nice_width(raw: u64) -> u64 {
    let mut unit = 1;
    loop {
        for step in [1, 2, 5] {
            if step * unit >= raw {
                return step * unit;
            }
        }
        unit *= 10;
    }
}

/// "1 game", "2,000 games".
pub fn games_text(n: u64) -> String {
    counted(n, "game")
}

/// "1 round", "2,000 rounds": `n` things, grouped, in the singular for one.
pub fn counted(n: u64, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{} {thing}s", group(n)),
    }
}

/// `games` games from game `first` on: "games 1,000 to 1,999", "game 7" or "no games".
pub fn game_span(first: u64, games: u64) -> String {
    match games {
        0 => "no games".to_string(),
        1 => format!("game {}", group(first)),
        _ => format!("games {} to {}", group(first), group(first + games - 1)),
    }
}

/// 85714621.136 → "85,714,621.14": `x` to `decimals` places, its whole part grouped as
/// [`group`] does (as printed, unchanged, where it has no whole part of digits: NaN, inf).
pub fn group_fixed(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x.abs());
    let (whole, fraction) = text.split_at(text.find('.').unwrap_or(text.len()));
    match whole.parse::<u64>() {
        Ok(whole) => {
            let sign = if x < 0.0 { "-" } else { "" };
            format!("{sign}{}{fraction}", group(whole))
        }
        Err(_) => format!("{x:.decimals$}"),
    }
}

/// 1234567 → "1,234,567".
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_a_clock() {
        assert_eq!(duration(392.0), "6 min 32 s");
        assert_eq!(duration(4_200.0), "1 h 10 min");
        assert_eq!(duration(59.4), "59 s");
        assert_eq!(duration(200_000.0), "2 days 7 h");
        assert_eq!(duration(0.178), "0.178 s");
        assert_eq!(duration(0.25), "0.25 s");
        assert_eq!(duration(0.001), "0.001 s");
        assert_eq!(duration(0.4999), "0.5 s");
        assert_eq!(duration(1.302), "1.3 s");
        assert_eq!(duration(9.996), "10 s");
        // The longest game at the slowest table the flag takes, exact to the day.
        assert_eq!(
            duration(86_400.0 * 4_294_967_294.0),
            "4,294,967,294 days 0 h"
        );
        assert_eq!(longer("6 min 32 s".to_string()), "lasts over 6 min 32 s");
        assert_eq!(longer("over 3 h 0 min".to_string()), "lasts over 3 h 0 min");
        assert_eq!(longer("never ends".to_string()), "never ends");
    }

    #[test]
    fn grouping_and_widths() {
        assert_eq!(games_text(1), "1 game");
        assert_eq!(games_text(1000), "1,000 games");
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(group_fixed(85_714_621.136, 2), "85,714,621.14");
        assert_eq!(group_fixed(999.999, 2), "1,000.00");
        assert_eq!(group_fixed(247.17, 2), "247.17");
        assert_eq!(group_fixed(1234.5, 0), "1,234");
        assert_eq!(group_fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(group_fixed(f64::NAN, 2), "NaN");
        assert_eq!(nice_width(1), 1);
        assert_eq!(nice_width(3), 5);
        assert_eq!(nice_width(11), 20);
        assert_eq!(nice_width(151), 200);
    }
}
