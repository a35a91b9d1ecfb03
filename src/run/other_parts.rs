//! A run never replaces the summary or state of another part of its own batch. Tasks of an
//! array given one `--json`, `--summary` or `--state` (the task's number left out of it) each
//! write that one file: a task that began after another had ended replaced the other's file,
//! and a merge never saw its games. An existing summary (CSV or JSON) or run state that
//! describes games of this same batch (the same rules, seed and `--games`) that this run does
//! not play is refused before the batch; any other file is replaced, as asked. (Files written
//! while the run plays: `export::as_found`.)

use std::fs;
use std::io::Read;
use std::ops::Range;
use std::path::Path;

use crate::config::RunOptions;
use crate::export::text::game_span;
use crate::export::{Figure, OutputError, Target, rule_fields};
use crate::state::{AnyState, RuleSettings};

/// A summary is a few KB: a larger file is not one, and is not read.
const SUMMARY_MOST: u64 = 1 << 20;

/// How the games a file holds are read from it, if it is a summary or state of this batch.
type PartOf = fn(&Path, &RunOptions) -> Option<Range<u64>>;

/// Refuses a summary or state output whose file holds games of this batch that this run does
/// not play (another shard's, or the whole batch's), naming them and how to keep both.
pub(super) fn check_other_parts(options: &RunOptions) -> Result<(), OutputError> {
    let part = options.part();
    let outputs: [(&'static str, &Option<Target>, &str, PartOf); 3] = [
        ("--json", &options.json, "summary", summary_json_part),
        ("--summary", &options.summary, "summary", summary_csv_part),
        ("--state", &options.state, "state", state_part),
    ];
    for (flag, target, what, part_of) in outputs {
        let Some(Target::File(path)) = target else {
            continue;
        };
        if !fs::metadata(path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let Some(held) = part_of(path, options) else {
            continue;
        };
        if held.is_empty() || (part.start <= held.start && held.end <= part.end) {
            continue;
        }
        let span = |games: &Range<u64>| game_span(games.start, games.end - games.start);
        return Err(OutputError {
            flag,
            path: path.display().to_string(),
            reason: format!(
                "is the {what} of {} of this same batch (same rules, seed and --games), and \
                 this run plays {}: replacing it would lose the games this run does not play; \
                 give each shard its own file (such as {}), or move this one away",
                span(&held),
                span(&part),
                with_task_number(path)
            ),
        });
    }
    Ok(())
}

/// The figures that name a batch: its rules, seed and size (not the warsim version: a part
/// another version played is still a part, and still lost if replaced).
fn batch_fields(options: &RunOptions) -> Vec<(String, Figure)> {
    let mut fields = rule_fields(&options.rules);
    fields.retain(|(key, _)| key != "warsim_version");
    fields.push(("seed".to_string(), Figure::Int(options.seed)));
    fields.push(("batch_games".to_string(), Figure::Int(options.games)));
    fields
}

/// The games of this batch a summary JSON holds.
fn summary_json_part(path: &Path, options: &RunOptions) -> Option<Range<u64>> {
    let summary: serde_json::Value = serde_json::from_slice(&small_file(path)?).ok()?;
    let same = batch_fields(options)
        .iter()
        .all(|(key, figure)| summary.get(key) == serde_json::to_value(figure).ok().as_ref());
    let number = |key: &str| summary.get(key)?.as_u64();
    same.then(|| games_from(number("first_game")?, number("games")?))
        .flatten()
}

/// The games of this batch a summary CSV (a header and one row) holds.
fn summary_csv_part(path: &Path, options: &RunOptions) -> Option<Range<u64>> {
    let text = small_file(path)?;
    let mut reader = csv::Reader::from_reader(&text[..]);
    let keys = reader.headers().ok()?.clone();
    let row = reader.records().next()?.ok()?;
    let cell = |key: &str| keys.iter().position(|k| k == key).and_then(|i| row.get(i));
    let same = batch_fields(options)
        .iter()
        .all(|(key, figure)| cell(key) == Some(figure.to_string().as_str()));
    let number = |key: &str| cell(key)?.parse().ok();
    same.then(|| games_from(number("first_game")?, number("games")?))
        .flatten()
}

/// The games of this batch a run's state holds.
fn state_part(path: &Path, options: &RunOptions) -> Option<Range<u64>> {
    let AnyState::Run(state) = AnyState::read(path).ok()? else {
        return None;
    };
    let same = state.rules == RuleSettings::of(&options.rules)
        && state.seed == options.seed
        && state.batch_games == options.games;
    same.then(|| games_from(state.first_game, state.games))
        .flatten()
}

/// Games `first` onwards, `games` of them.
fn games_from(first: u64, games: u64) -> Option<Range<u64>> {
    Some(first..first.checked_add(games)?)
}

/// A file of at most [`SUMMARY_MOST`] bytes, read whole; `None` for a larger one.
fn small_file(path: &Path) -> Option<Vec<u8>> {
    let mut text = Vec::new();
    let file = fs::File::open(path).ok()?;
    file.take(SUMMARY_MOST + 1).read_to_end(&mut text).ok()?;
    (text.len() as u64 <= SUMMARY_MOST).then_some(text)
}

/// `path` with Slurm's task number before its extension: `s.json` → `s-$SLURM_ARRAY_TASK_ID.json`.
fn with_task_number(path: &Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(extension) => format!(
            "{stem}-$SLURM_ARRAY_TASK_ID.{}",
            extension.to_string_lossy()
        ),
        None => format!("{stem}-$SLURM_ARRAY_TASK_ID"),
    };
    path.with_file_name(name).display().to_string()
}
