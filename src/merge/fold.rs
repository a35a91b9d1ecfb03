//! One batch's shard states folded into its totals one state at a time, so that a merge holds
//! the totals and one state however many shards it reads: a state is checked against the first
//! (same warsim, rules, seed and batch), its counts added, and only the games it holds kept,
//! to check at the end that the states tile the batch once.

use std::path::PathBuf;

use super::{refuse, spans};
use crate::engine::Rules;
use crate::export::RunInfo;
use crate::run::RunError;
use crate::state::{RuleSettings, State};
use crate::stats::Stats;

/// The shards of one batch read so far: their sums, and which games each held.
pub(super) struct Shards {
    /// The file the first state came from, and the settings every shard must share with it.
    first: usize,
    warsim_version: String,
    settings: RuleSettings,
    seed: u64,
    batch_games: u64,
    rules: Rules,
    total: Stats,
    /// The games each state holds, `[start, end)`, and its file.
    held: Vec<(u64, u64, usize)>,
    threads: usize,
    seconds: f64,
}

/// The states of one batch's shards, checked and added up.
pub(super) struct Combined {
    pub rules: Rules,
    pub seed: u64,
    pub batch_games: u64,
    /// Every count of the games the states hold.
    pub total: Stats,
    /// The games no state holds, as `[start, end)` spans.
    pub missing: Vec<(u64, u64)>,
    /// The games merged, adjacent shards joined.
    pub played: Vec<(u64, u64)>,
    /// The most threads a shard used.
    pub threads: usize,
    /// The shards' wall times added: the machine time the batch took.
    pub seconds: f64,
}

impl Shards {
    /// The batch of `state`, read from `paths[file]`; `context` leads each message (a sweep's
    /// cell).
    pub fn new(
        state: &State,
        (paths, file): (&[PathBuf], usize),
        context: &dyn Fn() -> String,
    ) -> Result<Shards, RunError> {
        let rules = state
            .rules()
            .map_err(|e| refuse(format!("{}{}: {e}", context(), paths[file].display())))?;
        // No games yet, then the first state's added as any other's. The empty lengths take
        // the state's layout as they are merged: no full-size array per cell.
        let total = Stats::new(rules.players as usize, 0, rules.max_rounds);
        let mut shards = Shards {
            first: file,
            warsim_version: state.warsim_version.clone(),
            settings: state.rules.clone(),
            seed: state.seed,
            batch_games: state.batch_games,
            rules,
            total,
            held: Vec::new(),
            threads: 0,
            seconds: 0.0,
        };
        shards.add(state, (paths, file), context)?;
        Ok(shards)
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.total.games
    }

    /// Adds `state`, read from `paths[file]`, if it is a shard of the same batch.
    pub fn add(
        &mut self,
        state: &State,
        (paths, file): (&[PathBuf], usize),
        context: &dyn Fn() -> String,
    ) -> Result<(), RunError> {
        let differs = if state.warsim_version != self.warsim_version {
            Some("warsim versions")
        } else if state.rules != self.settings {
            Some("rules")
        } else if state.seed != self.seed {
            Some("seeds")
        } else if state.batch_games != self.batch_games {
            Some("batch sizes")
        } else {
            None
        };
        if let Some(setting) = differs {
            return Err(not_one_batch(
                (paths, self.first, file),
                context(),
                "batch",
                setting,
            ));
        }
        let damaged = |e: String| refuse(format!("{}{}: {e}", context(), paths[file].display()));
        let stats = state.stats(&self.rules).map_err(damaged)?;
        self.total
            .checked_add(&stats)
            .map_err(|e| damaged(format!("is damaged: {e}")))?;
        self.held
            .push((state.first_game, state.first_game + state.games, file));
        self.threads = self.threads.max(state.threads);
        self.seconds += state.wall_seconds;
        Ok(())
    }

    /// The batch's totals, once every state is in: refused if two states hold the same game.
    pub fn finish(
        mut self,
        paths: &[PathBuf],
        context: &dyn Fn() -> String,
    ) -> Result<Combined, RunError> {
        // The games each state played, in order: they must tile the batch once.
        self.held.retain(|(start, end, _)| end > start);
        self.held.sort_unstable();
        for window in self.held.windows(2) {
            let ((_, a_end, a), (b_start, _, b)) = (window[0], window[1]);
            if b_start < a_end {
                return Err(refuse(format!(
                    "{}{} and {} both hold game {}: give each shard once",
                    context(),
                    paths[a].display(),
                    paths[b].display(),
                    crate::export::text::group(b_start)
                )));
            }
        }
        let mut missing = Vec::new();
        let mut played: Vec<(u64, u64)> = Vec::new();
        let mut next = 0u64;
        for &(start, end, _) in &self.held {
            if start > next {
                missing.push((next, start));
            }
            next = end;
            match played.last_mut() {
                Some(last) if last.1 == start => last.1 = end,
                _ => played.push((start, end)),
            }
        }
        if next < self.batch_games {
            missing.push((next, self.batch_games));
        }
        // A sweep's merge keeps every cell's until the end.
        self.total.compact();
        Ok(Combined {
            rules: self.rules,
            seed: self.seed,
            batch_games: self.batch_games,
            total: self.total,
            missing,
            played,
            threads: self.threads,
            seconds: self.seconds,
        })
    }
}

impl Combined {
    /// What was run, as the single run's report and summary describe it.
    pub fn info(&self, seconds_per_round: Option<f64>) -> RunInfo {
        RunInfo {
            rules: self.rules.clone(),
            seed: self.seed,
            games_requested: self.batch_games,
            shard: None,
            first_game: 0,
            described: (!self.missing.is_empty()).then(|| spans(&self.played)),
            threads: self.threads,
            elapsed: RunInfo::wall_time(self.seconds),
            seconds_per_round,
        }
    }
}

/// Refuses `paths[file]` as not a shard of the same `batch` ("batch", "sweep") as
/// `paths[first]`, naming the `setting` that differs; `context` leads the message.
pub(super) fn not_one_batch(
    (paths, first, file): (&[PathBuf], usize, usize),
    context: String,
    batch: &str,
    setting: &str,
) -> RunError {
    refuse(format!(
        "{context}{} and {} are not shards of one {batch}: their {setting} differ",
        paths[first].display(),
        paths[file].display()
    ))
}
