//! Sweep state files (`warsim sweep --state PATH`): the sweep's grid (its swept columns, every
//! cell's values, the combinations it skipped) and each cell begun as a run's [`State`], so that
//! the states of a sweep's shards merge into the whole sweep's tables (`warsim merge`).

use std::io;

use serde::{Deserialize, Serialize};

use super::{FORMAT_VERSION, Resumable, RuleSettings, State, write_pretty};

/// What the `format` key of a sweep's state holds.
pub const SWEEP_FORMAT: &str = "warsim-sweep-state";

/// One sweep state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepState {
    /// Always [`SWEEP_FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The warsim that wrote it.
    pub warsim_version: String,
    /// The swept settings' table columns (`players`, `ranks`, …), in the tables' order.
    pub swept: Vec<String>,
    /// Base seed of every cell.
    pub seed: u64,
    /// Games in each cell's batch (`--games`).
    pub games: u64,
    /// Every cell, in sweep order, begun or not.
    pub grid: Vec<GridCell>,
    /// The combinations that cannot be played (`--skip-invalid`), and why.
    pub skipped: Vec<SkippedState>,
    /// The cells begun, a prefix of `grid`: each one's state (its part of the cell's games).
    pub cells: Vec<State>,
    /// What `warsim resume` and `sweep --continue` need to continue the sweep: its command
    /// line, its folder and where its `--games-csv` stood.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Resumable>,
}

/// One cell of the grid: its values of the swept settings and its rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridCell {
    /// Its values of the swept settings, as the tables show them.
    pub values: Vec<String>,
    /// Its rules.
    pub rules: RuleSettings,
}

/// A combination the sweep could not play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkippedState {
    /// Its values of the swept settings.
    pub values: Vec<String>,
    /// Why it cannot be played.
    pub reason: String,
}

impl SweepState {
    /// A sweep's state: its grid, and the states of the cells begun (in grid order).
    pub fn new(
        swept: Vec<String>,
        (seed, games): (u64, u64),
        grid: Vec<GridCell>,
        skipped: Vec<SkippedState>,
        cells: Vec<State>,
    ) -> SweepState {
        SweepState {
            format: SWEEP_FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            warsim_version: env!("CARGO_PKG_VERSION").to_string(),
            swept,
            seed,
            games,
            grid,
            skipped,
            cells,
            resume: None,
        }
    }

    /// Writes the state as JSON.
    pub fn write(&self, out: &mut dyn io::Write) -> io::Result<()> {
        write_pretty(out, self)
    }

    /// Reads and checks a sweep state's JSON text (its format already checked).
    pub(super) fn from_json(text: &[u8]) -> Result<SweepState, String> {
        let sweep: SweepState =
            serde_json::from_slice(text).map_err(|e| format!("is damaged: {e}"))?;
        let consistent = sweep.cells.len() <= sweep.grid.len()
            && sweep
                .grid
                .iter()
                .all(|c| c.values.len() == sweep.swept.len())
            && sweep.grid.iter().zip(&sweep.cells).all(|(grid, cell)| {
                grid.rules == cell.rules
                    && cell.damage().is_none()
                    && cell.seed == sweep.seed
                    && cell.batch_games == sweep.games
            });
        if !consistent {
            return Err("is damaged: its cells disagree with its grid".to_string());
        }
        Ok(sweep)
    }
}
