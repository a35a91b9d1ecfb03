//! What a run that stopped early kept, for its closing message: how many games, which files
//! hold them (a per-game CSV moved while written named where it stands now), which summaries
//! and histograms describe them, and how to play on.

use std::path::Path;

use crate::config::RunOptions;
use crate::export::text::{game_span, games_text};
use crate::export::{CsvEnd, RunInfo, Target, Which};

use super::RunError;
use super::outputs::{self, StopFailure};

/// What a run that stopped after `games` games (`complete`: all it was asked for) kept, for its
/// closing message; a Parquet file whose own write failed has no footer, and says so, a per-game
/// file removed or cut short while written (`csv_lost`, or the Parquet file's
/// [`ParquetLeft::Lost`]) is not said to hold anything, and neither is a summary or histogram that
/// could not be written (in `unwritten`, each with its own error). A CSV another program moved
/// while written is named where it stands now (`moved_to`).
pub(super) fn kept_text(
    options: &RunOptions,
    (first, games, complete): (u64, u64, bool),
    (csv_lost, parquet_left): (bool, ParquetLeft),
    moved_to: Option<&Path>,
    unwritten: &[RunError],
) -> String {
    let held = game_span(first, games);
    let whole = if games > 0 { " whole" } else { "" };
    // After a Parquet file that holds fewer games, "those games" would seem to be its own.
    let fewer = match parquet_left {
        ParquetLeft::Salvaged(saved) => saved < games,
        ParquetLeft::Unreadable => true,
        ParquetLeft::Whole | ParquetLeft::Lost => false,
    };
    let those = if fewer { held.as_str() } else { "those games" };
    let mut kept = per_game_kept(
        (options.csv.as_ref(), options.parquet.as_ref()),
        (csv_lost, parquet_left),
        moved_to,
        (&format!("{held}{whole}"), &held),
        |saved| game_span(first, saved),
    );
    let summaries = [
        (outputs::SUMMARY_CSV, &options.summary),
        (outputs::SUMMARY_JSON, &options.json),
    ];
    let histograms = [
        (outputs::LENGTH_HISTOGRAM, &options.histogram),
        (outputs::HDR_LOG, &options.hdr),
    ];
    kept.extend(written_say(
        summaries,
        unwritten,
        (
            &format!("the summaries describe {those} (complete: {complete})"),
            &format!("describes {those} (complete: {complete})"),
        ),
    ));
    kept.extend(written_say(
        histograms,
        unwritten,
        (
            &format!("the histograms count {those}"),
            &format!("counts {those}"),
        ),
    ));
    if kept.is_empty() {
        kept.push("the report describes the games played".to_string());
    }
    kept.join("; ")
}

/// What a stopped run's or sweep's per-game files hold, each named: the CSV `csv_holds` ("games
/// 0 to 9 whole"), the Parquet file `parquet_holds`, or, when its own write failed, what it kept
/// instead (`first(saved)` names the games it saved); a file removed or cut short while written
/// (`csv_lost`, [`ParquetLeft::Lost`]) is not said to hold anything. A CSV another program moved
/// while written is named where it stands now too (`moved_to`: ", moved meanwhile to PATH").
pub fn per_game_kept(
    (csv, parquet): (Option<&Target>, Option<&Target>),
    (csv_lost, parquet_left): (bool, ParquetLeft),
    moved_to: Option<&Path>,
    (csv_holds, parquet_holds): (&str, &str),
    first: impl Fn(u64) -> String,
) -> Vec<String> {
    let mut kept = Vec::new();
    if let Some(csv) = csv.filter(|_| !csv_lost) {
        let moved = moved_to.map_or(String::new(), |now| {
            format!(", moved meanwhile to {}", now.display())
        });
        kept.push(format!("the per-game CSV ({csv}{moved}) holds {csv_holds}"));
    }
    if let Some(parquet) = parquet {
        let name = format!("the Parquet file ({parquet})");
        kept.extend(parquet_left.kept(&name, parquet_holds, first));
    }
    kept
}

/// What `outputs` (the summaries, or the histograms) say of the games kept: `all` when every
/// one asked for was written ("the summaries describe …"), the one written's name and `one`
/// when the other was not ("the summary JSON describes …"), nothing when none was.
fn written_say(
    outputs: [(&'static str, &Option<Target>); 2],
    unwritten: &[RunError],
    (all, one): (&str, &str),
) -> Option<String> {
    let asked = outputs.iter().filter(|(_, target)| target.is_some());
    let written: Vec<&str> = asked
        .clone()
        .map(|&(what, _)| what)
        .filter(|&what| !unwritten.iter().any(|e| e.is_write_of(what)))
        .collect();
    match written[..] {
        [] => None,
        [name] if asked.count() > 1 => Some(format!("{name} {one}")),
        _ => Some(all.to_string()),
    }
}

/// What a run stopped by `failure` says it kept: after how many games (all of them, when the
/// failure was found at the end), what holds them, and how to play on.
pub(super) fn kept_note(
    options: &RunOptions,
    info: &RunInfo,
    (failure, csv_end): (&StopFailure, &CsvEnd),
    unwritten: &[RunError],
) -> String {
    let games = failure.written;
    let complete = games == info.games_requested;
    let left = (failure.lost(Which::Csv), failure.parquet_left());
    let parquet = left.1.in_the_way(&options.parquet, games);
    let files = (&options.state, &parquet);
    let when = match complete {
        true => format!("after every game was played ({})", games_text(games)),
        false => format!("stopped after {}", games_text(games)),
    };
    format!(
        "; {when}: {}{}",
        kept_text(
            options,
            (info.first_game, games, complete),
            left,
            csv_end.moved_to.as_deref(),
            unwritten
        ),
        failure.play_on(
            files,
            (unwritten, outputs::STATE_FILE),
            csv_end.moved_from(&options.csv)
        )
    )
}

/// What a batch's end left of its Parquet file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParquetLeft {
    /// Every game handed to it, footer and all.
    Whole,
    /// Its own write failed: cut back to its whole row groups, holding this many games.
    Salvaged(u64),
    /// Its own write failed and it could not be saved (a pipe, standard output, or a disk too
    /// full even for a footer once cut back): no footer.
    Unreadable,
    /// Another program removed it or cut it short while it was written
    /// ([`Lost`](crate::export::Lost)): nothing is left to say of it.
    Lost,
}

impl ParquetLeft {
    /// A run's or sweep's Parquet file (`parquet`) if `warsim resume` cannot go on with it once
    /// it stopped after `games` games, as left so: on standard output, a pipe or a device, which
    /// cannot be read back, or holding other games than the state counts (cut back after its
    /// own write error, left without a footer, removed or cut short).
    pub fn in_the_way(self, parquet: &Option<Target>, games: u64) -> Option<Target> {
        let whole = match self {
            ParquetLeft::Whole => true,
            ParquetLeft::Salvaged(kept) => kept == games,
            ParquetLeft::Unreadable | ParquetLeft::Lost => false,
        };
        parquet
            .clone()
            .filter(|target| !whole || !target.keeps_checkpoints())
    }

    /// What the Parquet file called `name` holds, for a closing message: `all`, what a whole
    /// file holds ("games 0 to 99"), or `first(n)`, its first `n` games, when it was cut back;
    /// nothing when it was removed or cut short (its error says so).
    pub fn kept(self, name: &str, all: &str, first: impl Fn(u64) -> String) -> Option<String> {
        let kept = match self {
            ParquetLeft::Whole => format!("{name} holds {all}"),
            ParquetLeft::Salvaged(0) => format!(
                "{name} holds no games (no row group of it was written whole; it was given a \
                 footer after the error)"
            ),
            ParquetLeft::Salvaged(games) => format!(
                "{name} holds {}, its whole row groups (cut back to them after the error, with a \
                 footer)",
                first(games)
            ),
            ParquetLeft::Unreadable => {
                format!("{name} cannot be read (a write error left it without its footer)")
            }
            ParquetLeft::Lost => return None,
        };
        Some(kept)
    }
}
