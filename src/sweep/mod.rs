//! `warsim sweep`: every combination of the rule settings given as lists or ranges, each cell
//! played exactly as `warsim run` would play it (same seed, same games, so cells share their
//! deals where decks allow), all on one pool of workers, with one progress bar. Writes a tidy
//! table with one row per cell, a long table of seats, JSON, the length histograms of every
//! cell, and a readable table on standard output; a shard (`--shard K/N`) plays its part of every
//! cell and writes a sweep state that `warsim merge` joins with the others'. Knows nothing of
//! clap.

mod files;
pub mod grid;
mod play;
mod tables;

use std::time::{Duration, Instant};

use crate::batch::{Shard, Workers};
use crate::config::{
    ConfigError, check_checkpoints, check_counts, check_parquet, one_on_stdout, parquet_stops,
};
use crate::export::text::group;
use crate::export::{Holding, LeadKind, RunInfo, Target};
use crate::interrupt::Interrupt;
use crate::plot::plottable;
use crate::run::{
    RunEnd, RunError, StopFailure, forget_tail_once_counted, game_files, write_report_with,
};
use crate::state::check_outputs_beside_state;
use crate::stats::Stats;

pub(crate) use files::write_sweep_files;
use files::{SWEEP_STATE, interrupted_text, kept_text};
pub use grid::{AXES, Cell, Grid, Skipped};
use play::{lead_kind, play_cells};
use tables::sweep_json;
pub(crate) use tables::write_sweep_report;

/// Everything `warsim sweep` needs, already parsed.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The cells, and the combinations that cannot be played.
    pub grid: Grid,
    /// Play the playable cells even when some combinations cannot be played.
    pub skip_invalid: bool,
    /// Games per cell.
    pub games: u64,
    /// Base seed of every cell.
    pub seed: u64,
    /// The part of every cell's games to play, if only one (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Worker threads.
    pub threads: usize,
    /// The table of cells: one row each.
    pub csv: Option<Target>,
    /// The table of seats: one row per cell and seat.
    pub seats: Option<Target>,
    /// Every cell's summary as JSON.
    pub json: Option<Target>,
    /// Every cell's length distribution, exact per round, in one CSV.
    pub histogram: Option<Target>,
    /// Every cell's length histogram, one interval each, in one HdrHistogram log.
    pub hdr: Option<Target>,
    /// Every game of every cell, one row each, led by the cell's settings.
    pub games_csv: Option<Target>,
    /// The same rows as Parquet.
    pub parquet: Option<Target>,
    /// The medians as SVG: a band over one setting, a heatmap over two, lines beyond.
    pub plot: Option<Target>,
    /// Every cell's exact, mergeable statistics (a sweep state file), for `warsim merge`.
    pub state: Option<Target>,
    /// How often a sweep with a state file checkpoints it (zero: only at the end).
    pub checkpoint_every: Duration,
    /// `--continue`: continue the checkpoint in the state file when it is this sweep's own.
    pub continue_from_state: bool,
    /// The sweep's arguments after `warsim`, for `warsim resume`.
    pub command: Vec<String>,
    /// The checkpoint this sweep continues, if resumed.
    pub resume: Option<SweepResume>,
    /// No progress bar.
    pub quiet: bool,
    /// Seconds a round takes at a real table, for the report's durations.
    pub seconds_per_round: Option<f64>,
}

/// Where a resumed sweep starts: the cells its checkpoint holds.
#[derive(Clone, Debug)]
pub struct SweepResume {
    /// Each cell begun, in grid order: the statistics of its games so far and its wall time.
    pub cells: Vec<(Stats, f64)>,
    /// Bytes of the `--games-csv` holding their games.
    pub csv_bytes: u64,
}

impl SweepOptions {
    /// Checks the combination of options before any game is played.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_counts(self.games, self.threads)?;
        check_checkpoints(
            self.state.as_ref(),
            (self.parquet.is_some(), parquet_stops(&self.parquet)),
            (self.checkpoint_every, self.continue_from_state),
            "--games-csv",
        )?;
        // A shard's file holds its part of every cell alone.
        let games = self
            .part_games()
            .saturating_mul(self.grid.cells.len() as u64);
        check_parquet(self.parquet.is_some(), games)?;
        if self.plot.is_some() {
            let cells: Vec<&[String]> = self.grid.cells.iter().map(|c| &c.values[..]).collect();
            plottable(&self.grid.keys, &cells).map_err(ConfigError::Sweep)?;
        }
        let total = self.grid.cells.len() + self.grid.skipped.len();
        if let Some(first) = self.grid.skipped.first() {
            let example = format!("{}: {}", self.grid.label(&first.values), first.reason);
            if total == 1 {
                return Err(ConfigError::Sweep(format!(
                    "the only combination cannot be played, {example}"
                )));
            }
            if self.grid.cells.is_empty() {
                return Err(ConfigError::Sweep(format!(
                    "none of the {total} combinations can be played, e.g. {example}"
                )));
            }
            if !self.skip_invalid {
                return Err(ConfigError::Sweep(format!(
                    "{} of {total} combinations cannot be played, e.g. {example}; sweep other values, or add --skip-invalid to play the others",
                    self.grid.skipped.len()
                )));
            }
        }
        if (self.grid.cells.len() as u64)
            .checked_mul(self.games)
            .is_none()
        {
            return Err(ConfigError::Sweep(format!(
                "--games {} over {} cells is more than {} games: play fewer",
                group(self.games),
                self.grid.cells.len(),
                group(u64::MAX)
            )));
        }
        one_on_stdout(&self.outputs())
    }

    /// The outputs asked for, with their flags.
    pub fn outputs(&self) -> Vec<(&'static str, &Target)> {
        [
            ("--csv", &self.csv),
            ("--seats", &self.seats),
            ("--json", &self.json),
            ("--histogram", &self.histogram),
            ("--hdr", &self.hdr),
            ("--games-csv", &self.games_csv),
            ("--parquet", &self.parquet),
            ("--plot", &self.plot),
            ("--state", &self.state),
        ]
        .into_iter()
        .filter_map(|(flag, target)| target.as_ref().map(|t| (flag, t)))
        .collect()
    }

    /// The columns that lead each row of its per-game files: the cell's number and settings.
    pub fn parquet_leads(&self) -> Vec<(&'static str, LeadKind)> {
        let mut leads = vec![("cell", LeadKind::Number)];
        leads.extend(self.grid.keys.iter().map(|&key| (key, lead_kind(key))));
        leads
    }

    /// What its Parquet file holds after `rows` of its games, for going on with it.
    pub fn parquet_holding(&self, rows: u64) -> Holding {
        let leads = self.parquet_leads().into_iter();
        Holding::Rows(
            rows,
            leads.map(|(name, kind)| (name.to_string(), kind)).collect(),
        )
    }

    /// The games of each cell this sweep plays: all of them, or its shard's.
    pub fn part(&self) -> std::ops::Range<u64> {
        self.shard
            .map_or(0..self.games, |shard| shard.range(self.games))
    }

    /// How many games of each cell this sweep plays.
    pub fn part_games(&self) -> u64 {
        let part = self.part();
        part.end - part.start
    }
}

/// One played cell: its settings, what was run and the statistics of its games.
pub struct CellResult {
    /// The cell's values of the swept flags.
    pub values: Vec<String>,
    /// What was run (the cell's rules, seed, games, threads, time).
    pub info: RunInfo,
    /// Its games.
    pub stats: Stats,
}

/// Plays every cell and writes every output; stops early on a signal or a failed write, keeping
/// every finished game (the cell it stopped in is marked incomplete, later cells are absent).
pub fn sweep(options: &SweepOptions, interrupt: Option<&Interrupt>) -> Result<RunEnd, RunError> {
    options.validate()?;
    let outputs = options.outputs();
    check_outputs_beside_state(&outputs, &["--games-csv", "--parquet"])
        .map_err(ConfigError::from)?;
    files::check_other_parts(options).map_err(ConfigError::from)?;
    let workers = Workers::new(options.threads)?;
    let leads = options.parquet_leads();
    let resumed = options.resume.as_ref().map(|resume| {
        let rows = resume.cells.iter().map(|(stats, _)| stats.games).sum();
        (resume.csv_bytes, options.parquet_holding(rows))
    });
    let mut files = game_files(
        ("--games-csv", &options.games_csv, true),
        ("--parquet", options.parquet.as_ref()),
        &leads,
        resumed,
    )?;
    let started = Instant::now();
    let (results, mut failure) = play_cells(options, &workers, &mut files, interrupt);
    // The Parquet file's footer carries the sweep's JSON: the file says which cells made it.
    let written = results.last().map_or(0, |r| r.stats.games);
    let summary = || {
        let json = serde_json::to_string(&sweep_json(options, (&results, None)));
        json.expect("a sweep's JSON serialises")
    };
    let csv_end = files.csv_end(&options.games_csv);
    StopFailure::close(&mut failure, files, summary, written);
    let mut failures = write_sweep_files(options, &results, &csv_end);
    // The state now counts the games of the Parquet file written on after a resume or a
    // checkpoint: its saved tail goes.
    forget_tail_once_counted((&options.state, &options.parquet), (&failures, SWEEP_STATE));
    // The last cell begun: the one a failure or an interrupt stopped in.
    let last_begun = || options.grid.cell_named(results.len().saturating_sub(1));
    // A sweep a write error stopped says what it kept in that error.
    let stopped = failure.is_some();
    let played: u64 = results.iter().map(|r| r.stats.games).sum();
    let asked = options.part_games() * options.grid.cells.len() as u64;
    if let Some(failure) = failure {
        let games = (&*last_begun(), played, asked);
        let kept = format!(
            "; {}",
            kept_text(options, &failure, games, (&failures, &csv_end))
        );
        let files = (&options.games_csv, &options.parquet, &options.state);
        failure.put_first(files, kept, &mut failures)?;
    }
    let on_stdout = options.outputs().iter().any(|(_, t)| **t == Target::Stdout);
    let elapsed = started.elapsed();
    write_report_with(on_stdout, &|out| {
        write_sweep_report(out, options, &results, elapsed)
    })?;
    let end = match interrupt.and_then(Interrupt::exit_status) {
        Some(status) if played < asked => {
            // Said even when a table could not be written (that error follows, exit 1).
            if !stopped {
                let signal = interrupt.map_or("a signal", Interrupt::signal_name);
                let cell = last_begun();
                let games = (played, asked);
                let written = (failures.is_empty(), &csv_end);
                let said = interrupted_text(options, (&cell, signal), games, written);
                say!("{said}");
            }
            RunEnd::Interrupted(status)
        }
        _ => RunEnd::Complete,
    };
    RunError::of_all(failures).map_or(Ok(end), Err)
}
