//! Playing a sweep's cells, one batch each on the one pool of workers, in grid order: each
//! resumed cell from its checkpoint's last game, every cell's rows into the same per-game
//! files (led by the cell's settings), and checkpoints of the cells begun, taken every
//! `--checkpoint-every` whichever cell they fall in, a Parquet file ended with the sweep's
//! JSON so far before each.

use std::sync::Mutex;
use std::time::Instant;

use super::files::{checkpoint_holds, sweep_state};
use super::tables::sweep_json;
use super::{CellResult, SweepOptions};
use crate::batch::{BatchSpec, Checkpoints, Controls, Occasion, RecordSink, Workers, run_batch_on};
use crate::export::{GameFiles, LeadKind, RunInfo, write_atomically};
use crate::interrupt::Interrupt;
use crate::progress::{cell_prefix, cells_bar};
use crate::run::{
    OutputWriter, StopFailure, answer_checkpoint_requests, checkpoints_sealing, resumable_at,
    say_checkpoint_written, watch_room,
};
use crate::stats::Stats;

/// Plays the cells in order on `workers`; returns every cell begun and a per-game output's
/// write error with the games of the last cell it holds, if one failed.
pub(super) fn play_cells(
    options: &SweepOptions,
    workers: &Workers,
    files: &mut GameFiles,
    interrupt: Option<&Interrupt>,
) -> (Vec<CellResult>, Option<StopFailure>) {
    let cells = &options.grid.cells;
    let part = options.part();
    // Every cell's games: the bar's whole, and the rows each per-game file is to hold.
    let rows = options.part_games() * cells.len() as u64;
    let bar = cells_bar(rows, cells.len(), options.quiet);
    let outputs = [
        ("--games-csv", options.games_csv.as_ref()),
        ("--parquet", options.parquet.as_ref()),
    ];
    watch_room(files, outputs, rows, "sweep", &bar);
    let stop = || interrupt.is_some_and(Interrupt::requested);
    answer_checkpoint_requests(interrupt, &options.state, options.checkpoint_every);
    // When the last checkpoint was saved, in whichever cell.
    let last_saved: Mutex<Option<Instant>> = Mutex::new(None);
    let mut results: Vec<CellResult> = Vec::with_capacity(cells.len());
    let mut failure = None;
    for (index, cell) in cells.iter().enumerate() {
        if stop() {
            break;
        }
        bar.set_prefix(cell_prefix(index, cells.len()));
        // A resumed cell plays on from its checkpoint's last game.
        let (before, seconds_before) =
            match options.resume.as_ref().and_then(|r| r.cells.get(index)) {
                Some((stats, seconds)) => (stats.clone(), *seconds),
                None => {
                    let r = &cell.rules;
                    (
                        Stats::new(r.players as usize, r.most_rounds(), r.max_rounds),
                        0.0,
                    )
                }
            };
        bar.inc(before.games);
        let spec = BatchSpec {
            first: part.start + before.games,
            rules: cell.rules.clone(),
            games: part.end - part.start - before.games,
            seed: options.seed,
            threads: options.threads,
        };
        let mut values = vec![index.to_string()];
        values.extend(cell.values.iter().cloned());
        files.start_batch(&values);
        let started = Instant::now();
        let result = |stats: Stats| CellResult {
            values: cell.values.clone(),
            info: RunInfo {
                rules: cell.rules.clone(),
                seed: options.seed,
                games_requested: part.end - part.start,
                shard: options.shard.map(|shard| (shard, options.games)),
                first_game: part.start,
                described: None,
                threads: options.threads,
                elapsed: RunInfo::wall_time(seconds_before + started.elapsed().as_secs_f64()),
                seconds_per_round: options.seconds_per_round,
            },
            stats,
        };
        // This cell's result after its games so far: those its checkpoint held, then `prefix`.
        let so_far = |prefix: &Stats| {
            let mut stats = before.clone();
            stats += prefix;
            result(stats)
        };
        // A checkpoint: the cells before this one and this one so far, written once the
        // per-game CSV holds exactly their games (and the Parquet file, ended with a footer
        // first).
        let save = |prefix: &Stats, position: u64, last_row: &str, occasion: Occasion| {
            let Some(target) = &options.state else {
                return Ok(());
            };
            *last_saved.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
            let current = so_far(prefix);
            let mut cells: Vec<&CellResult> = results.iter().collect();
            cells.push(&current);
            let mut state = sweep_state(options, &cells);
            let csv_at = (position, last_row);
            state.resume = Some(resumable_at(&options.command, &options.games_csv, csv_at));
            let write: OutputWriter = &|out| state.write(out);
            write_atomically(target, write)?;
            if occasion == Occasion::Asked {
                let held = checkpoint_holds(options, index, current.stats.games);
                say_checkpoint_written(&bar, target, &held);
            }
            Ok(())
        };
        // The Parquet file's footer at a checkpoint: the sweep's JSON so far.
        let footer = |prefix: &Stats| {
            let current = so_far(prefix);
            let json = serde_json::to_string(&sweep_json(options, (&results, Some(&current))));
            json.expect("a sweep's JSON serialises")
        };
        // Each cell's batch would take a checkpoint with its first games: the sweep takes one
        // every --checkpoint-every, so a grid of many short cells does not write its state per
        // cell.
        let since = *last_saved.lock().unwrap_or_else(|e| e.into_inner());
        let checkpoints = checkpoints_sealing(
            (&options.state, options.checkpoint_every),
            &save,
            (&options.parquet, &footer),
        );
        let checkpoints = checkpoints.map(|c| Checkpoints { since, ..c });
        let controls = Controls {
            progress: &|games| bar.inc(games),
            stop: &stop,
            checkpoints,
        };
        let sink = (!files.is_empty()).then_some(&mut *files as &mut dyn RecordSink);
        let played = match run_batch_on(workers, &spec, sink, &controls) {
            Ok(stats) => stats,
            Err(error) => {
                let stopped = StopFailure::of_batch(error, files);
                let (stats, stop) = stopped.expect("the workers were started before");
                failure = Some(stop);
                stats
            }
        };
        let mut stats = before.clone();
        stats += &played;
        // Kept to the end with every other cell's: only the memory its figures need.
        stats.compact();
        results.push(result(stats));
        if failure.is_some() {
            break;
        }
    }
    bar.finish_and_clear();
    (results, failure)
}

/// How a swept setting is stored in a Parquet column: numbers as integers, names as strings.
pub(super) fn lead_kind(key: &str) -> LeadKind {
    match key {
        "rules" | "war_shortage" | "pickup" | "spoils" | "at_cap" | "shuffle" | "champion"
        | "group_order" => LeadKind::Name,
        _ => LeadKind::Number,
    }
}
