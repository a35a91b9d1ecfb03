//! The length distribution, exact per round, as CSV: one row for every length a finished game
//! had, with the share of all games that ended at it, the share that had ended by it, and the
//! share still going after it (the survival curve). Capped and cycling games never end: they
//! count in every share's denominator and stay in the survival to the last row.

use std::io::{self, Write};

use crate::stats::Stats;

/// The histogram CSV header.
pub const HISTOGRAM_HEADER: &str = "rounds,games,share,cumulative,survival";

/// Writes the histogram of `stats` (see the module doc).
pub fn write_histogram_csv(out: &mut dyn Write, stats: &Stats) -> io::Result<()> {
    write_histogram_table(out, &[], &[(&[], stats)])
}

/// Writes one histogram per part in one table: `columns` head the header, and each part's rows
/// begin with its values (a sweep cell's settings; names and numbers, which need no quoting).
pub fn write_histogram_table(
    out: &mut dyn Write,
    columns: &[&str],
    parts: &[(&[String], &Stats)],
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for column in columns {
        write!(out, "{column},")?;
    }
    writeln!(out, "{HISTOGRAM_HEADER}")?;
    for (values, stats) in parts {
        let prefix: String = values.iter().map(|v| format!("{v},")).collect();
        let lengths = stats.lengths();
        let all = lengths.games().max(1) as f64;
        let mut ended = 0u64;
        for (rounds, games) in lengths.counts() {
            ended += games;
            let still_going = lengths.games() - ended;
            writeln!(
                out,
                "{prefix}{rounds},{games},{},{},{}",
                games as f64 / all,
                ended as f64 / all,
                still_going as f64 / all
            )?;
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameRecord, Outcome};

    #[test]
    fn rows_are_exact_per_round_and_censored_games_stay_in_the_survival() {
        let mut stats = Stats::new(2, 1000, 1000);
        for (rounds, outcome) in [(10, Outcome::Win), (10, Outcome::Draw), (25, Outcome::Win)] {
            stats.record(&GameRecord {
                rounds,
                outcome,
                ..GameRecord::default()
            });
        }
        stats.record(&GameRecord {
            rounds: 1000,
            outcome: Outcome::Capped,
            ..GameRecord::default()
        });
        let mut text = Vec::new();
        write_histogram_csv(&mut text, &stats).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "rounds,games,share,cumulative,survival\n10,2,0.5,0.5,0.5\n25,1,0.25,0.75,0.25\n"
        );
    }
}
