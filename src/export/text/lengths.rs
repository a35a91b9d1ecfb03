//! The report's length figures: the moments and extremes of the finished games, the quantiles
//! of all games with their intervals (capped, cycling and abandoned games ranked longest), and
//! the same quantiles as time at a real table.

use std::io::{self, Write};

use crate::engine::Outcome;
use crate::stats::{Quantile, Stats};

use super::precision::mean_and_spread;
use super::words::{counted, duration, group};
use crate::export::summary::{QUANTILE_INTERVALS, QUANTILES};

/// The length figures: moments and extremes of finished games, quantiles of all games.
pub(super) fn write_lengths(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    let lengths = stats.lengths();
    let finished = lengths.finished_games();
    match (lengths.mean(), lengths.min(), lengths.max()) {
        (Some(mean), Some(min), Some(max)) => {
            let mut spread = mean_and_spread(mean, &lengths.sums(), finished, 2);
            if finished == 1 {
                spread.push_str(" (one game: no sd or s.e.)");
            }
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
        Some((a, b)) => format!("   (median 95% CI {})", interval_text(a, b)),
        None => String::new(),
    };
    writeln!(out, "             {}{interval}", low.join("   "))?;
    // The unfinished games the tail holds, by name: an abandoned game has no length either.
    let unfinished: Vec<&str> = [
        (Outcome::Capped, "capped"),
        (Outcome::Cycle, "cycling"),
        (Outcome::Abandoned, "abandoned"),
    ]
    .into_iter()
    .filter(|&(outcome, _)| stats.count(outcome) > 0)
    .map(|(_, name)| name)
    .collect();
    let note = match unfinished[..] {
        [] => String::new(),
        [one] => format!("   (all games; {one} games count as longest)"),
        [ref first @ .., last] => {
            format!(
                "   (all games; {} and {last} games count as longest)",
                first.join(", ")
            )
        }
    };
    writeln!(out, "             {}{note}", high.join("   "))?;
    let tails: Vec<String> = QUANTILE_INTERVALS[1..]
        .iter()
        .filter_map(|&(_, label, parts)| {
            let (a, b) = lengths.quantile_ci95(parts)?;
            Some(format!("{label} {}", interval_text(a, b)))
        })
        .collect();
    if !tails.is_empty() {
        writeln!(out, "             95% CIs  {}", tails.join("   "))?;
    }
    Ok(())
}

/// The length quantiles as time at a real table: the median, p90, and the 1-in-100 and
/// 1-in-1,000 longest games.
pub(super) fn write_durations(
    out: &mut dyn Write,
    stats: &Stats,
    seconds_per_round: f64,
) -> io::Result<()> {
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

/// What the longest games do: "lasts at least 12 min" (the quantile is the length of one of
/// them, and shorter than none: with ties, a 1-game-in-100 quantile may be every game's length),
/// "lasts over 3 h" (past the cap: such games were stopped unfinished there), or "never ends".
fn longer(text: String) -> String {
    if text.starts_with("never") {
        text
    } else if text.starts_with("over ") {
        format!("lasts {text}")
    } else {
        format!("lasts at least {text}")
    }
}

/// A quantile as the report prints it: rounds, "> cap" or "never".
pub fn quantile_text(quantile: Quantile) -> String {
    match quantile {
        Quantile::Rounds(rounds) => group(rounds),
        Quantile::AboveCap(cap) => format!("> {}", group(cap)),
        Quantile::Never => "never".to_string(),
    }
}

/// "194 – 199", "890 – > 1,000"; "> 1,000" once when both ends are among the capped games (or
/// "never" among the cycles).
fn interval_text(low: Quantile, high: Quantile) -> String {
    if low == high && !matches!(low, Quantile::Rounds(_)) {
        return quantile_text(low);
    }
    format!("{} – {}", quantile_text(low), quantile_text(high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longer_lasts_at_least_its_quantile_and_over_the_cap() {
        assert_eq!(
            longer("6 min 32 s".to_string()),
            "lasts at least 6 min 32 s"
        );
        assert_eq!(longer("over 3 h 0 min".to_string()), "lasts over 3 h 0 min");
        assert_eq!(longer("never ends".to_string()), "never ends");
    }
}
