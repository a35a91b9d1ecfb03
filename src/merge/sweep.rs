//! `warsim merge` of sweep states: the states of a sweep's shards (`warsim sweep --shard K/N
//! --state PATH`) joined cell by cell, each cell exactly as a run's shards merge, into the whole
//! sweep's tables, JSON, histograms and plot. Refuses states of different sweeps and cells whose
//! games are missing (unless partial results are allowed), naming the files and cells.

use std::path::PathBuf;
use std::time::Duration;

use super::fold::{Shards, not_one_batch};
use super::{MergeOptions, fold_rest, mixed, refuse, spans};
use crate::export::Target;
use crate::export::text::{counted, group};
use crate::progress::games_bar;
use crate::run::{RunEnd, RunError, write_report_with};
use crate::state::{AnyState, State, SweepState};
use crate::sweep::{
    AXES, Cell, CellResult, Grid, Skipped, SweepOptions, write_sweep_files, write_sweep_report,
};

/// Merges the states of one sweep's shards, `first` the first's, and writes the sweep's
/// outputs.
pub(super) fn merge_sweep(
    options: &MergeOptions,
    mut first: SweepState,
) -> Result<RunEnd, RunError> {
    if options.survival_scale.is_some() {
        return Err(refuse(
            "--plot-scale is a run's plot's, and these are a sweep's states (its plot draws medians): leave it out".into(),
        ));
    }
    let paths = &options.states[..];
    let grid = grid_of(&first).map_err(|e| refuse(format!("{}: {e}", paths[0].display())))?;
    let mut sweep = SweepOptions {
        grid,
        skip_invalid: true,
        games: first.games,
        seed: first.seed,
        shard: None,
        threads: 1,
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
    let grid = &sweep.grid;
    let cells = grid.cells.len();
    let bar = games_bar(first.games.saturating_mul(cells as u64), options.quiet);
    // Each cell's shards, the cells any state began: a prefix of the grid, as each state's is.
    let mut folded: Vec<Shards> = Vec::new();
    let begun = std::mem::take(&mut first.cells);
    let folded_first = fold_cells(&mut folded, begun, (paths, 0), grid);
    let folded_rest = folded_first.and_then(|games| {
        bar.inc(games);
        fold_rest(paths, |file, state| {
            let state = match state {
                AnyState::Sweep(state) => state,
                other => return Err(mixed(paths, (file, other.kind()), (0, "sweep"))),
            };
            if let Some(setting) = differs(&state, &first) {
                let files = (paths, 0, file);
                return Err(not_one_batch(files, String::new(), "sweep", setting));
            }
            bar.inc(fold_cells(&mut folded, state.cells, (paths, file), grid)?);
            Ok(())
        })
    });
    bar.finish_and_clear();
    folded_rest?;
    let mut results = Vec::with_capacity(folded.len());
    let mut incomplete = Vec::new();
    let mut seconds = 0.0;
    for (index, shards) in folded.into_iter().enumerate() {
        let merged = shards.finish(paths, &|| cell_context(grid, index))?;
        if !merged.missing.is_empty() {
            let count: u64 = merged.missing.iter().map(|(a, b)| b - a).sum();
            incomplete.push(format!(
                "cell {index} lacks {} ({})",
                counted(count, "game"),
                spans(&merged.missing)
            ));
        }
        seconds += merged.seconds;
        results.push(CellResult {
            values: grid.cells[index].values.clone(),
            info: merged.info(options.seconds_per_round),
            stats: merged.total,
        });
    }
    let begun = results.len();
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
    sweep.threads = results.iter().map(|r| r.info.threads).max().unwrap_or(1);
    // A merge plays no games, and writes no per-game CSV.
    let failures = write_sweep_files(&sweep, &results, &Default::default());
    let on_stdout = sweep.outputs().iter().any(|(_, t)| **t == Target::Stdout);
    let elapsed = crate::export::RunInfo::wall_time(seconds);
    write_report_with(on_stdout, &|out| {
        write_sweep_report(out, &sweep, &results, elapsed)
    })?;
    if !incomplete.is_empty() {
        let played: u64 = results.iter().map(|r| r.stats.games).sum();
        say!(
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

/// Where a cell's message starts: "cell 4 (players 3, ranks 13): ".
fn cell_context(grid: &Grid, index: usize) -> String {
    format!("cell {index} ({}): ", grid.label(&grid.cells[index].values))
}

/// The setting in which `state` differs from `first`'s sweep, if any.
fn differs(state: &SweepState, first: &SweepState) -> Option<&'static str> {
    if state.warsim_version != first.warsim_version {
        Some("warsim versions")
    } else if state.swept != first.swept || state.grid != first.grid {
        Some("swept settings")
    } else if state.skipped != first.skipped {
        Some("skipped combinations")
    } else if state.seed != first.seed {
        Some("seeds")
    } else if state.games != first.games {
        Some("games per cell")
    } else {
        None
    }
}

/// Adds the cells a state began (`cells`, read from `paths[file]`) to each cell's shards, and
/// returns the games they hold. Each cell's state is let go once added. (A state holds no more
/// cells than its grid, the first state's: [`SweepState`] checks it.)
fn fold_cells(
    folded: &mut Vec<Shards>,
    cells: Vec<State>,
    (paths, file): (&[PathBuf], usize),
    grid: &Grid,
) -> Result<u64, RunError> {
    let mut games = 0;
    for (index, cell) in cells.into_iter().enumerate() {
        let context = || cell_context(grid, index);
        match folded.get_mut(index) {
            Some(shards) => shards.add(&cell, (paths, file), &context)?,
            None => folded.push(Shards::new(&cell, (paths, file), &context)?),
        }
        games += cell.games;
    }
    Ok(games)
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
