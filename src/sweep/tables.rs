//! A sweep's outputs: the tidy table of cells (one row each, the same columns whatever the
//! players), the long table of seats (one row per cell and seat), the JSON, and the readable
//! table on standard output.

use std::io::{self, Write};
use std::time::Duration;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::engine::Outcome;
use crate::export::text::{
    counted, duration, game_span, games_text, group, group_fixed, percent_of, quantile_text,
};
use crate::export::{Figure, Proportion, Summary, into_io};
use crate::stats::Quantile;

use super::{CellResult, SweepOptions};

/// The skipped combinations a report names one by one when there are too many to list all
/// (more than twice this many).
const SKIPPED_LISTED: usize = 10;

/// The first columns of both tables: the cell's number and its swept settings.
fn lead(keys: &[&str]) -> Vec<String> {
    std::iter::once("cell")
        .chain(keys.iter().copied())
        .map(String::from)
        .collect()
}

fn lead_values(index: usize, result: &CellResult) -> Vec<String> {
    std::iter::once(index.to_string())
        .chain(result.values.iter().cloned())
        .collect()
}

/// One row per cell: `cell`, the swept settings, then every summary key but the per-seat ones
/// (and but the swept settings, already there).
pub fn write_cells_csv(
    out: &mut dyn Write,
    keys: &[&str],
    results: &[CellResult],
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(out);
    let mut header_written = false;
    for (index, result) in results.iter().enumerate() {
        let fields: Vec<(String, Figure)> = Summary::new(&result.info, &result.stats)
            .fields_without_seats()
            .into_iter()
            .filter(|(key, _)| !keys.contains(&key.as_str()))
            .collect();
        if !header_written {
            let mut header = lead(keys);
            header.extend(fields.iter().map(|(key, _)| key.clone()));
            out.write_record(&header).map_err(into_io)?;
            header_written = true;
        }
        let mut row = lead_values(index, result);
        row.extend(fields.iter().map(|(_, value)| value.to_string()));
        out.write_record(&row).map_err(into_io)?;
    }
    out.flush()
}

/// One row per cell and seat: `cell`, the swept settings, `seat`, `wins`, `win_share`,
/// `ci95_low`, `ci95_high`.
pub fn write_seats_csv(
    out: &mut dyn Write,
    keys: &[&str],
    results: &[CellResult],
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(out);
    let mut header = lead(keys);
    header.extend(["seat", "wins", "win_share", "ci95_low", "ci95_high"].map(String::from));
    out.write_record(&header).map_err(into_io)?;
    for (index, result) in results.iter().enumerate() {
        let summary = Summary::new(&result.info, &result.stats);
        for (seat, wins) in summary.seats.iter().enumerate() {
            let mut row = lead_values(index, result);
            row.push((seat + 1).to_string());
            row.push(wins.wins.to_string());
            row.extend(Proportion::figures(wins.share).map(|f| f.to_string()));
            out.write_record(&row).map_err(into_io)?;
        }
    }
    out.flush()
}

/// `{"swept": [...], "games_requested", "seed", "complete", "cells": [{"cell", settings...,
/// summary keys...}], "skipped": [{settings..., "reason"}]}`.
pub fn write_sweep_json(
    out: &mut dyn Write,
    options: &SweepOptions,
    results: &[CellResult],
) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &sweep_json(options, (results, None)))?;
    writeln!(out)?;
    out.flush()
}

/// The sweep's JSON document (see [`write_sweep_json`]) of the cells `played` and the one being
/// played, if any (at a checkpoint): the cells' objects are built one at a time as it is
/// written, since all of them as JSON values took ten times the memory of the text (345 MB for
/// 7,533 cells).
pub fn sweep_json<'a>(
    options: &'a SweepOptions,
    (played, playing): (&'a [CellResult], Option<&'a CellResult>),
) -> SweepJson<'a> {
    let keys = &options.grid.keys;
    let skipped = (options.grid.skipped.iter())
        .map(|skip| {
            let mut entry = settings(keys, &skip.values);
            entry.insert("reason".into(), Value::from(skip.reason.clone()));
            Value::Object(entry)
        })
        .collect();
    let results = Cells {
        keys,
        played,
        playing,
    };
    let complete = results.iter().count() == options.grid.cells.len()
        && results
            .iter()
            .all(|r| r.stats.games == r.info.games_requested);
    SweepJson {
        warsim_version: env!("CARGO_PKG_VERSION"),
        swept: keys,
        seed: options.seed,
        games_requested: options.part_games(),
        complete,
        cells: results,
        skipped,
    }
}

/// The sweep's JSON document, its keys in this order ([`sweep_json`]).
#[derive(Serialize)]
pub struct SweepJson<'a> {
    warsim_version: &'static str,
    swept: &'a [&'static str],
    seed: u64,
    games_requested: u64,
    complete: bool,
    cells: Cells<'a>,
    skipped: Vec<Value>,
}

/// The cells of [`SweepJson`], each one's object made as it is written.
struct Cells<'a> {
    keys: &'a [&'static str],
    played: &'a [CellResult],
    playing: Option<&'a CellResult>,
}

impl<'a> Cells<'a> {
    fn iter(&self) -> impl Iterator<Item = &'a CellResult> + use<'a> {
        self.played.iter().chain(self.playing)
    }
}

impl Serialize for Cells<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let cells = self.iter().enumerate();
        serializer.collect_seq(cells.map(|(index, result)| cell_json(self.keys, index, result)))
    }
}

/// One cell's object: its number, its swept settings, then its summary's other figures.
fn cell_json(keys: &[&str], index: usize, result: &CellResult) -> Value {
    let mut cell = Map::new();
    cell.insert("cell".into(), Value::from(index));
    // Numbers, text and options only: a summary always serialises.
    let summary = serde_json::to_value(Summary::new(&result.info, &result.stats))
        .expect("a summary serialises to JSON");
    cell.extend(settings(keys, &result.values));
    if let Value::Object(fields) = summary {
        cell.extend(
            fields
                .into_iter()
                .filter(|(k, _)| !keys.contains(&k.as_str())),
        );
    }
    Value::Object(cell)
}

/// The swept settings' values by key, numbers as numbers.
fn settings(keys: &[&str], values: &[String]) -> Map<String, Value> {
    keys.iter()
        .zip(values)
        .map(|(key, value)| {
            let value = value
                .parse::<u64>()
                .map_or_else(|_| Value::from(value.clone()), Value::from);
            (key.to_string(), value)
        })
        .collect()
}

/// The readable table: one line per cell with its median, mean, p90, p99 and the shares of
/// capped and cycling games (and the median as a duration, given seconds per round).
pub fn write_sweep_report(
    out: &mut dyn Write,
    options: &SweepOptions,
    results: &[CellResult],
    elapsed: Duration,
) -> io::Result<()> {
    let grid = &options.grid;
    let played: u64 = results.iter().map(|r| r.stats.games).sum();
    let games = match options.shard {
        Some(shard) => {
            let part = options.part();
            format!(
                "{} (shard {shard} of {} a cell: {})",
                games_text(part.end - part.start),
                games_text(options.games),
                game_span(part.start, part.end - part.start)
            )
        }
        None => games_text(options.games),
    };
    writeln!(
        out,
        "sweep        {} × {games}   seed {}   threads {}",
        counted(grid.cells.len() as u64, "cell"),
        options.seed,
        options.threads
    )?;
    let mut header: Vec<String> = grid.keys.iter().map(|k| k.to_string()).collect();
    header.extend(["median", "mean", "p90", "p99", "capped", "cycle"].map(String::from));
    // A column for abandoned games only where some were (`--abandon-after`).
    let abandons = results
        .iter()
        .any(|r| r.stats.count(Outcome::Abandoned) > 0);
    if abandons {
        header.push("abandoned".into());
    }
    if options.seconds_per_round.is_some() {
        header.push("median time".into());
    }
    let mut rows = vec![header];
    for result in results {
        let lengths = result.stats.lengths();
        let share = |o: Outcome| percent_of(result.stats.count(o), result.stats.games, 2);
        let quantile = |parts| lengths.quantile(parts).map_or("-".into(), quantile_text);
        let mut row = result.values.clone();
        row.push(quantile(50_000));
        row.push(lengths.mean().map_or("-".into(), |m| group_fixed(m, 1)));
        row.push(quantile(90_000));
        row.push(quantile(99_000));
        row.push(share(Outcome::Capped));
        row.push(share(Outcome::Cycle));
        if abandons {
            row.push(share(Outcome::Abandoned));
        }
        if let Some(seconds) = options.seconds_per_round {
            // As the median column: "> cap" or "never" where the median game did not finish.
            row.push(match lengths.quantile(50_000) {
                Some(Quantile::Rounds(r)) => duration(r as f64 * seconds),
                Some(Quantile::AboveCap(cap)) => {
                    format!("> {}", duration(f64::from(cap) * seconds))
                }
                Some(Quantile::Never) => "never".into(),
                None => "-".into(),
            });
        }
        if result.stats.games < result.info.games_requested {
            row.push(format!(
                "(incomplete: {})",
                counted(result.stats.games, "game")
            ));
        }
        rows.push(row);
    }
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|v| v.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(value, width)| format!("{value:>width$}"))
            .collect();
        writeln!(out, "             {}", cells.join("  ").trim_end())?;
    }
    // A grid may skip thousands of combinations (`--suits 1..8 --ranks 1..255`): past a
    // screenful the report names the first few and counts the rest, which the JSON lists.
    let listed = match grid.skipped.len() {
        n if n <= SKIPPED_LISTED * 2 => n,
        _ => SKIPPED_LISTED,
    };
    for skip in &grid.skipped[..listed] {
        writeln!(
            out,
            "skipped      {}: {}",
            grid.label(&skip.values),
            skip.reason
        )?;
    }
    let rest = grid.skipped.len() - listed;
    if rest > 0 {
        writeln!(
            out,
            "skipped      {} more combinations (--json lists every one with its reason)",
            group(rest as u64)
        )?;
    }
    let seconds = elapsed.as_secs_f64();
    writeln!(
        out,
        "time         {seconds:.3} s   {} games/s over all cells",
        group(if seconds > 0.0 {
            (played as f64 / seconds) as u64
        } else {
            0
        })
    )
}
