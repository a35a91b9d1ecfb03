//! `warsim merge` of sweep states: the states of a sweep's shards (`warsim sweep --shard K/N
//! --state PATH`) joined cell by cell, each cell exactly as a run's shards merge, into the whole
//! sweep's tables, JSON, histograms and plot. Refuses states of different sweeps and cells whose
//! games are missing (unless partial results are allowed), naming the files and cells.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{MergeOptions, all_alike, combine, refuse, spans};
use crate::config::ConfigError;
use crate::export::text::{counted, group};
use crate::export::{Target, check_outputs};
use crate::run::{RunEnd, RunError, write_report_with};
use crate::state::{State, SweepState};
use crate::sweep::{
    AXES, Cell, CellResult, Grid, Skipped, SweepOptions, write_sweep_files, write_sweep_report,
};

/// Merges the states of one sweep's shards and writes the sweep's outputs.
pub(super) fn merge_sweep(
    options: &MergeOptions,
    states: &[(PathBuf, SweepState)],
) -> Result<RunEnd, RunError> {
    if options.survival_scale.is_some() {
        return Err(refuse(
            "--plot-scale is a run's plot's, and these are a sweep's states (its plot draws medians): leave it out".into(),
        ));
    }
    let borrowed: Vec<(&Path, &SweepState)> =
        states.iter().map(|(p, s)| (p.as_path(), s)).collect();
    all_alike(&borrowed, ("", "sweep"), |a, b| {
        if a.warsim_version != b.warsim_version {
            Some("warsim versions")
        } else if a.swept != b.swept || a.grid != b.grid {
            Some("swept settings")
        } else if a.skipped != b.skipped {
            Some("skipped combinations")
        } else if a.seed != b.seed {
            Some("seeds")
        } else if a.games != b.games {
            Some("games per cell")
        } else {
            None
        }
    })?;
    let (first_path, first) = &states[0];
    let grid = grid_of(first).map_err(|e| refuse(format!("{}: {e}", first_path.display())))?;
    // The cells any shard began: a prefix of the grid, as each shard's is.
    let begun = states.iter().map(|(_, s)| s.cells.len()).max().unwrap_or(0);
    let mut results = Vec::with_capacity(begun);
    let mut incomplete = Vec::new();
    let mut seconds = 0.0;
    for (index, cell) in grid.cells.iter().enumerate().take(begun) {
        let parts: Vec<(&Path, &State)> = states
            .iter()
            .filter_map(|(path, s)| s.cells.get(index).map(|c| (path.as_path(), c)))
            .collect();
        let context = format!("cell {index} ({}): ", grid.label(&cell.values));
        let merged = combine(&parts, &context)?;
        if !merged.missing.is_empty() {
            let count = merged.missing.iter().map(|(a, b)| b - a).sum();
            incomplete.push(format!(
                "cell {index} lacks {} ({})",
                counted(count, "game"),
                spans(&merged.missing)
            ));
        }
        seconds += merged.seconds;
        results.push(CellResult {
            values: cell.values.clone(),
            info: merged.info(options.seconds_per_round),
            stats: merged.total,
        });
    }
    if begun < grid.cells.len() {
        incomplete.push(format!(
            "no state began cells {} to {}",
            begun,
            grid.cells.len() - 1
        ));
    }
    let lacking = listed(&incomplete);
    if !incomplete.is_empty() && !options.allow_partial {
        return Err(refuse(format!(
            "the sweep's {} are not all whole: {lacking}; merge every shard's state, or add --allow-partial",
            counted(grid.cells.len() as u64, "cell"),
        )));
    }
    let sweep = SweepOptions {
        grid,
        skip_invalid: true,
        games: first.games,
        seed: first.seed,
        shard: None,
        threads: results.iter().map(|r| r.info.threads).max().unwrap_or(1),
        csv: options.summary.clone(),
        seats: options.seats.clone(),
        json: options.json.clone(),
        histogram: options.histogram.clone(),
        hdr: options.hdr.clone(),
        games_csv: None,
        parquet: None,
        plot: options.plot.clone(),
        state: None,
        checkpoint_every: Duration::ZERO,
        continue_from_state: false,
        command: Vec::new(),
        resume: None,
        quiet: true,
        seconds_per_round: options.seconds_per_round,
    };
    sweep.validate()?;
    check_outputs(&sweep.outputs()).map_err(ConfigError::from)?;
    let failures = write_sweep_files(&sweep, &results);
    let on_stdout = sweep.outputs().iter().any(|(_, t)| **t == Target::Stdout);
    let elapsed = Duration::from_secs_f64(seconds);
    write_report_with(on_stdout, &|out| {
        write_sweep_report(out, &sweep, &results, elapsed)
    })?;
    if !incomplete.is_empty() {
        let played: u64 = results.iter().map(|r| r.stats.games).sum();
        eprintln!(
            "incomplete: {} of {} games merged; {lacking}",
            group(played),
            group(first.games * sweep.grid.cells.len() as u64),
        );
    }
    match RunError::of_all(failures) {
        Some(error) => Err(error),
        None => Ok(RunEnd::Complete),
    }
}

/// The first three of `items` joined, and how many more there are: one line however many.
fn listed(items: &[String]) -> String {
    let mut text = items.iter().take(3).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > 3 {
        text.push_str(&format!("; and {} more", items.len() - 3));
    }
    text
}

/// The sweep's grid, rebuilt from its state: the swept columns, every cell's rules, the
/// combinations skipped.
fn grid_of(state: &SweepState) -> Result<Grid, String> {
    let keys = state
        .swept
        .iter()
        .map(|key| {
            AXES.iter()
                .map(|&(_, known)| known)
                .find(|known| known == key)
                .ok_or_else(|| format!("is damaged: it sweeps '{key}', which warsim does not"))
        })
        .collect::<Result<Vec<&'static str>, String>>()?;
    let cells = state
        .grid
        .iter()
        .map(|cell| {
            Ok(Cell {
                values: cell.values.clone(),
                rules: cell.rules.rules()?,
            })
        })
        .collect::<Result<Vec<Cell>, String>>()?;
    let skipped = state
        .skipped
        .iter()
        .map(|skip| Skipped {
            values: skip.values.clone(),
            reason: skip.reason.clone(),
        })
        .collect();
    Ok(Grid {
        keys,
        cells,
        skipped,
    })
}
