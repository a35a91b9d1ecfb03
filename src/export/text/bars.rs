//! The report's text histogram of game lengths: a bar per bin of finished games, one for the
//! long tail, and one each for capped games and games that never end. Labels are as wide as the
//! widest of them, so every bar starts in the same column whatever the cap and the lengths.

use std::io::{self, Write};

use crate::engine::Outcome;
use crate::stats::{Quantile, Stats};

use super::{group, nice_width};

/// Bins of the text histogram (plus one for the tail).
const BINS: u64 = 16;
/// Width of the longest bar.
const BAR_WIDTH: f64 = 40.0;
/// The narrowest a bin's edge is printed, so short reports keep their familiar shape.
const EDGE_WIDTH: usize = 7;

/// A bar's label: a bin's edges, the tail from an edge on, or a word (capped, never).
enum Label {
    Bin(String, String),
    Tail(String),
    Word(String),
}

/// Writes a bar per bin of finished games' lengths from the shortest to the 99.9th percentile
/// of finished games, the longer ones in one bar, and a bar each for capped and cycling games.
pub(super) fn write_histogram(out: &mut dyn Write, stats: &Stats, cap: u32) -> io::Result<()> {
    let bars = bars(stats, cap);
    let most = bars.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    writeln!(out, "game lengths (rounds)")?;
    for (label, &(_, n)) in label_texts(&bars).iter().zip(&bars) {
        let bar = "█".repeat((BAR_WIDTH * n as f64 / most as f64).round() as usize);
        let share = 100.0 * n as f64 / stats.games as f64;
        writeln!(out, "  {label} {bar:<40} {share:6.2}%")?;
    }
    Ok(())
}

/// The bars: each finished game in exactly one bin, so they add up to every finished game.
fn bars(stats: &Stats, cap: u32) -> Vec<(Label, u64)> {
    let lengths = stats.lengths();
    let low = lengths.min().unwrap_or(0);
    // The 99.9th percentile of the finished games: censored games rank after every one of them.
    let rank = lengths.finished_games().saturating_mul(999).div_ceil(1000);
    let high = match lengths.order_statistic(rank) {
        Some(Quantile::Rounds(rounds)) => rounds.max(low),
        _ => low,
    };
    let width = nice_width((high - low + 1).div_ceil(BINS));
    let start = low / width * width;
    let bin_count = ((high - start) / width + 1) as usize;
    let mut counts = vec![0u64; bin_count + 1];
    for (rounds, count) in lengths.counts() {
        let bin = (((rounds - start) / width) as usize).min(bin_count);
        counts[bin] += count;
    }
    let mut bars: Vec<(Label, u64)> = (0..bin_count)
        .map(|i| {
            let edge = start + i as u64 * width;
            let label = Label::Bin(group(edge), group(edge + width - 1));
            (label, counts[i])
        })
        .collect();
    if counts[bin_count] > 0 {
        let edge = start + bin_count as u64 * width;
        bars.push((Label::Tail(group(edge)), counts[bin_count]));
    }
    if lengths.capped_games() > 0 {
        let label = format!("capped > {}", group(cap));
        bars.push((Label::Word(label), lengths.capped_games()));
    }
    if lengths.never_games() > 0 {
        let label = match stats.count(Outcome::Abandoned) {
            0 => "never (cycle)",
            _ => "never/abandoned",
        };
        bars.push((Label::Word(label.to_string()), lengths.never_games()));
    }
    bars
}

/// The labels as text of one width: bins' edges in two columns ("  1,000 – 1,099  ", a bin of
/// one length in the first alone), a tail's edge in the first ("  1,300 or more  "), words
/// right-aligned to the whole width.
fn label_texts(bars: &[(Label, u64)]) -> Vec<String> {
    let labels = bars.iter().map(|(label, _)| label);
    let chars = |text: &String| text.chars().count();
    let (mut left, mut right) = (EDGE_WIDTH, EDGE_WIDTH);
    for label in labels.clone() {
        match label {
            Label::Bin(low, high) => (left, right) = (left.max(chars(low)), right.max(chars(high))),
            Label::Tail(low) => left = left.max(chars(low)),
            Label::Word(_) => {}
        }
    }
    // " – " between the edges; "or more" must fit where the upper edge goes.
    let right = right.max("or more".len());
    let words = labels.clone().filter_map(|label| match label {
        Label::Word(word) => Some(chars(word)),
        _ => None,
    });
    let width = (left + 3 + right).max(words.max().unwrap_or(0));
    let left = width - 3 - right;
    labels
        .map(|label| match label {
            // A bin of one length is that length alone ("2", not "2 – 2").
            Label::Bin(low, high) if low == high => format!("{low:>left$}   {:right$}", ""),
            Label::Bin(low, high) => format!("{low:>left$} – {high:<right$}"),
            Label::Tail(low) => format!("{low:>left$} {:<w$}", "or more", w = right + 2),
            Label::Word(word) => format!("{word:>width$}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameRecord;

    fn game(rounds: u32, outcome: Outcome) -> GameRecord {
        GameRecord {
            rounds,
            winner: (outcome == Outcome::Win).then_some(0),
            outcome,
            ..GameRecord::default()
        }
    }

    /// The histogram's lines, after its title.
    fn histogram(stats: &Stats, cap: u32) -> Vec<String> {
        let mut out = Vec::new();
        write_histogram(&mut out, stats, cap).unwrap();
        let text = String::from_utf8(out).unwrap();
        text.lines().skip(1).map(str::to_string).collect()
    }

    #[test]
    fn short_reports_keep_their_shape() {
        let mut stats = Stats::new(2, 2_000, 100_000);
        for rounds in [17, 250, 1_299] {
            stats.record(&game(rounds, Outcome::Win));
        }
        let lines = histogram(&stats, 100_000);
        assert!(lines[0].starts_with("        0 – 99      █"), "{lines:#?}");
        assert!(lines.iter().any(|l| l.starts_with("    1,200 – 1,299   █")));
    }

    #[test]
    fn bins_of_one_round_name_it_once() {
        let mut stats = Stats::new(2, 100, 100_000);
        for rounds in [2, 4, 4, 6] {
            stats.record(&game(rounds, Outcome::Win));
        }
        let lines = histogram(&stats, 100_000);
        assert!(lines[0].starts_with("        2           █"), "{lines:#?}");
        assert!(lines.iter().all(|l| !l.contains(" – ")), "{lines:#?}");
        let width = |line: &String| line.chars().count();
        assert!(lines.iter().all(|l| width(l) == width(&lines[0])));
    }

    #[test]
    fn every_bar_starts_in_one_column_whatever_the_widths() {
        // Lengths up to a billion rounds, a cap as wide, and a tail, capped and never bar.
        let cap = 1_000_000_000;
        let mut stats = Stats::new(2, cap, cap);
        for rounds in (1..=2_000).map(|i| i * 50_000) {
            stats.record(&game(rounds, Outcome::Win));
        }
        stats.record(&game(999_999_999, Outcome::Win));
        stats.record(&game(cap, Outcome::Capped));
        stats.record(&game(5, Outcome::Cycle));
        let lines = histogram(&stats, cap);
        assert!(
            lines.iter().any(|l| l.contains("100,000,000 or more")),
            "{lines:#?}"
        );
        assert!(lines.iter().any(|l| l.contains("capped > 1,000,000,000")));
        assert!(lines.iter().any(|l| l.contains("never (cycle)")));
        // Every bar is padded to one width and every share printed in one width, so lines of
        // one width have labels of one width.
        let width = |line: &String| line.chars().count();
        assert!(
            lines.iter().all(|l| width(l) == width(&lines[0])),
            "{lines:#?}"
        );
        let bar_start = |line: &String| line.chars().position(|c| c == '█');
        let starts: Vec<usize> = lines.iter().filter_map(bar_start).collect();
        assert!(
            starts.len() > 3 && starts.iter().all(|&s| s == starts[0]),
            "{lines:#?}"
        );
    }
}
