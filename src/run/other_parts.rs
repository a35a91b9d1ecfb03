//! A run or sweep never replaces the summary, state, log or per-game file of another part of
//! its own batch. Tasks of an array given one `--json`, `--summary`/`--csv`, `--state`,
//! `--parquet` or `--hdr` (the task's number left out of it) each write that one file, and a
//! task that begins after another has ended would replace the other's file, its games then lost
//! to a merge. An existing summary (CSV or JSON), state, per-game Parquet file or HdrHistogram
//! log that describes games of this same batch (the same rules, seed and `--games`, cell by cell
//! for a sweep) that this one does not play is refused before the batch, and so is a shard's
//! per-game CSV told by its game seeds (`game_csv_part`); any other file is replaced, as asked.
//! (Files written while it plays: `export::as_found`.)

use std::collections::BTreeSet;
use std::fs;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;

use crate::config::RunOptions;
use crate::engine::Rules;
use crate::export::text::game_span;
use crate::export::{Figure, OutputError, PARQUET_SUMMARY_KEY, Target, rule_fields};
use crate::state::{AnyState, RuleSettings, State};

use super::summary_cells::{Fields, summary_cells};

/// The batch a run or sweep plays: each cell's rules (a run's one), the seed, each cell's
/// games (`--games`), and the part of them this one plays (all, or its shard's).
pub struct ThisBatch<'a> {
    /// Each cell's rules, in sweep order; a run's alone.
    pub cells: Vec<&'a Rules>,
    /// The base seed.
    pub seed: u64,
    /// Games in each cell's batch.
    pub games: u64,
    /// The games of each cell this one plays.
    pub part: Range<u64>,
    /// Whether it is a sweep's (its cells a grid), not a run's.
    pub sweep: bool,
}

impl<'a> ThisBatch<'a> {
    /// A run's batch, one cell.
    pub fn of_run(options: &'a RunOptions) -> ThisBatch<'a> {
        ThisBatch {
            cells: vec![&options.rules],
            seed: options.seed,
            games: options.games,
            part: options.part(),
            sweep: false,
        }
    }

    /// `run` or `sweep`, for messages.
    pub(super) fn kind(&self) -> &'static str {
        if self.sweep { "sweep" } else { "run" }
    }
}

/// What an output holds, so that it is read as that: a summary (CSV or JSON), a state, a
/// per-game file or an HdrHistogram log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// A header, then a row a cell (a run's one).
    SummaryCsv,
    /// A summary object, or a sweep's, with its cells under `cells`.
    SummaryJson,
    /// A run's or a sweep's state.
    State,
    /// A shard's per-game CSV, its rows in game order: it names no rules, but each row's game
    /// seed tells the batch's seed (`game_csv_part`).
    GameCsv,
    /// An HdrHistogram log, each interval tagged with its summary's keys.
    HdrLog,
    /// A per-game Parquet file, whose footer holds the summary JSON of its games.
    GameParquet,
}

/// A summary or log is a few KB a cell (a sweep's up to 100,000 cells): a file larger than
/// this and [`CELL_MOST`] a cell is not one, and is not read to its end.
const SUMMARY_MOST: u64 = 16 << 20;

/// The most a summary or log may hold for each cell, over [`SUMMARY_MOST`].
const CELL_MOST: u64 = 64 << 10;

/// The state and per-game CSV the check reads, of a run's or sweep's given ones. A resumed
/// one's hold its own games so far (its state read already, and a sweep's may be large): neither
/// is read. A per-game CSV names no batch size, so a whole run's or sweep's is not read either
/// (a rerun of fewer games and the same seed replaces it, as asked): only a shard's is.
pub fn state_and_csv_to_check<'a>(
    (resumed, sharded): (bool, bool),
    (state, csv): (&'a Option<Target>, &'a Option<Target>),
) -> (&'a Option<Target>, &'a Option<Target>) {
    match (resumed, sharded) {
        (true, _) => (&None, &None),
        (false, false) => (state, &None),
        (false, true) => (state, csv),
    }
}

/// Refuses an output in `outputs` whose file holds games of `batch` that it does not play
/// (another shard's, or the whole batch's), naming them and how to keep both.
pub fn check_other_parts(
    batch: &ThisBatch,
    outputs: &[(&'static str, &Option<Target>, Holds)],
) -> Result<(), OutputError> {
    for &(flag, target, holds) in outputs {
        let Some(Target::File(path)) = target else {
            continue;
        };
        if !fs::metadata(path).is_ok_and(|m| m.is_file()) {
            continue;
        }
        let held = match holds {
            Holds::SummaryCsv => summary_csv_parts(path, batch),
            Holds::SummaryJson => summary_json_parts(path, batch),
            Holds::State => state_parts(path, batch),
            Holds::GameCsv => match super::game_csv_part::refusal(flag, path, batch) {
                Some(refusal) => return Err(refusal),
                None => continue,
            },
            Holds::GameParquet => game_parquet_parts(path, batch),
            Holds::HdrLog => hdr_log_parts(path, batch),
        };
        let part = &batch.part;
        let played = |games: &Range<u64>| part.start <= games.start && games.end <= part.end;
        let outside = held
            .into_iter()
            .flatten()
            .enumerate()
            .find(|(_, games)| !games.is_empty() && !played(games));
        let Some((cell, games)) = outside else {
            continue;
        };
        let span = |games: &Range<u64>| game_span(games.start, games.end - games.start);
        let what = match holds {
            Holds::State => "state",
            Holds::GameParquet => "per-game Parquet file",
            Holds::HdrLog => "HdrHistogram log",
            _ => "summary",
        };
        let kind = batch.kind();
        let (batch_named, of_each) = match batch.sweep {
            true => (
                format!(
                    "cell {cell}, the same batch as this sweep's cell {cell} (same rules, seed \
                     and --games)"
                ),
                " of each cell",
            ),
            false => (
                "this same batch (same rules, seed and --games)".to_string(),
                "",
            ),
        };
        let held = format!("the {what} of {} of {batch_named}", span(&games));
        let plays = format!("this {kind} plays {}{of_each}", span(part));
        return Err(another_parts(flag, path, (held, plays), ("games", "shard")));
    }
    Ok(())
}

/// The refusal of `flag`'s file `path`, which is `held` (`the state of games 0 to 999 of …`)
/// while this one `plays` other `units` (games, sequences): each `piece` (shard, part) wants a
/// file of its own, named after its task (Slurm's number, as the scripts name them).
pub fn another_parts(
    flag: &'static str,
    path: &Path,
    (held, plays): (String, String),
    (units, piece): (&str, &str),
) -> OutputError {
    OutputError {
        flag,
        path: path.display().to_string(),
        reason: format!(
            "is {held}, and {plays}: replacing it would lose the {units} this one does not \
             play; give each {piece} its own file (such as {}), or move this one away",
            with_task_number(path)
        ),
    }
}

/// The figures that name a cell's batch: its rules, seed and size (not the warsim version: a
/// part another version played is still a part, and still lost if replaced).
fn batch_fields(rules: &Rules, batch: &ThisBatch) -> Vec<(String, Figure)> {
    let mut fields = rule_fields(rules);
    fields.retain(|(key, _)| key != "warsim_version");
    fields.push(("seed".to_string(), Figure::Int(batch.seed)));
    fields.push(("batch_games".to_string(), Figure::Int(batch.games)));
    fields
}

/// The games each cell holds, when the cells are this batch's first ones (each a run's, for a
/// file of several of them: logs concatenate), each read by `figure(key)`; `None` for a file of
/// another batch (or none).
fn parts_of<R>(
    batch: &ThisBatch,
    rows: impl IntoIterator<Item = R>,
    figure: impl Fn(&R, &str, &Figure) -> bool,
    number: impl Fn(&R, &str) -> Option<u64>,
) -> Option<Vec<Range<u64>>> {
    let mut parts = Vec::new();
    for (cell, row) in rows.into_iter().enumerate() {
        let rules = match batch.sweep {
            true => batch.cells.get(cell)?,
            false => batch.cells.first()?,
        };
        let fields = batch_fields(rules, batch);
        if !fields.iter().all(|(key, value)| figure(&row, key, value)) {
            return None;
        }
        parts.push(games_from(
            number(&row, "first_game")?,
            number(&row, "games")?,
        )?);
    }
    Some(parts)
}

/// The games of this batch a summary JSON file holds.
fn summary_json_parts(path: &Path, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    let cells = summary_cells(bounded_file(path, batch)?, &wanted_keys(batch))?;
    json_parts(cells, batch)
}

/// The games of this batch a per-game Parquet file holds, by the summary in its footer (read
/// alone: the rows are not). A file without its footer (its run killed) names none.
fn game_parquet_parts(path: &Path, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(fs::File::open(path).ok()?).ok()?;
    let pairs = reader.metadata().file_metadata().key_value_metadata()?;
    let summary = pairs.iter().find(|pair| pair.key == PARQUET_SUMMARY_KEY)?;
    let cells = summary_cells(summary.value.as_ref()?.as_bytes(), &wanted_keys(batch))?;
    json_parts(cells, batch)
}

/// The games of this batch a summary holds, cell by cell.
fn json_parts(cells: Vec<Fields>, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    parts_of(
        batch,
        cells,
        |cell, key, figure| field(cell, key) == serde_json::to_value(figure).ok().as_ref(),
        |cell, key| field(cell, key)?.as_u64(),
    )
}

/// The value of `key` among a cell's `(key, value)` pairs (a summary's, or a log tag's).
fn field<'a, V>(pairs: &'a [(String, V)], key: &str) -> Option<&'a V> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, value)| value)
}

/// The keys of a summary [`parts_of`] reads: each cell's batch's, and which games it holds.
fn wanted_keys(batch: &ThisBatch) -> BTreeSet<String> {
    let batch_keys = batch
        .cells
        .iter()
        .flat_map(|rules| batch_fields(rules, batch));
    let games = ["first_game", "games"].map(String::from);
    batch_keys.map(|(key, _)| key).chain(games).collect()
}

/// The games of this batch a summary CSV holds, a row a cell.
fn summary_csv_parts(path: &Path, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    let mut reader = csv::Reader::from_reader(bounded_file(path, batch)?);
    let keys = reader.headers().ok()?.clone();
    // Read a row at a time: the rows of another batch are not read past its first.
    let rows = reader.into_records().map_while(Result::ok);
    let cell = |row: &csv::StringRecord, key: &str| {
        let column = keys.iter().position(|k| k == key)?;
        row.get(column).map(str::to_string)
    };
    parts_of(
        batch,
        rows,
        |row, key, value| cell(row, key) == Some(value.to_string()),
        |row, key| cell(row, key)?.parse().ok(),
    )
}

/// The games of this batch an HdrHistogram log holds, by its intervals' tags (`key=value;…`,
/// the summary's keys but those without a value).
fn hdr_log_parts(path: &Path, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    use std::io::BufRead;
    // Read a line at a time: the intervals of another batch are not read past its first.
    let lines = io::BufReader::new(bounded_file(path, batch)?).lines();
    let tags = lines.map_while(Result::ok).filter_map(|line| {
        let tag = line.strip_prefix("Tag=")?.split(',').next()?;
        let pairs = tag.split(';').filter_map(|pair| pair.split_once('='));
        Some(
            pairs
                .map(|(key, value)| (key.to_string(), value.to_string()))
                .collect::<Vec<_>>(),
        )
    });
    parts_of(
        batch,
        tags,
        |tag, key, figure| {
            let given = (*figure != Figure::Missing).then(|| figure.to_string());
            field(tag, key).map(String::as_str) == given.as_deref()
        },
        |tag, key| field(tag, key)?.parse().ok(),
    )
}

/// The games of this batch a run's or sweep's state holds, cell by cell.
fn state_parts(path: &Path, batch: &ThisBatch) -> Option<Vec<Range<u64>>> {
    let cells: Vec<State> = match AnyState::read(path).ok()? {
        AnyState::Run(state) if !batch.sweep => vec![*state],
        AnyState::Sweep(sweep) if batch.sweep => {
            // The whole grid must be this sweep's, not only the cells begun.
            let grid: Vec<RuleSettings> = batch.cells.iter().map(|r| RuleSettings::of(r)).collect();
            let same = sweep.grid.iter().map(|cell| &cell.rules).eq(grid.iter());
            same.then_some(sweep.cells)?
        }
        _ => return None,
    };
    let mut parts = Vec::new();
    for (cell, state) in cells.iter().enumerate() {
        let same = batch
            .cells
            .get(cell)
            .is_some_and(|r| state.rules == RuleSettings::of(r))
            && state.seed == batch.seed
            && state.batch_games == batch.games;
        if !same {
            return None;
        }
        parts.push(games_from(state.first_game, state.games)?);
    }
    Some(parts)
}

/// Games `first` onwards, `games` of them.
fn games_from(first: u64, games: u64) -> Option<Range<u64>> {
    Some(first..first.checked_add(games)?)
}

/// `path`'s file, to be read up to the most a summary or log of `batch` may hold: a larger
/// one is read no further (a JSON cut there does not parse, so is not taken for a summary; a
/// table's or log's rows before it are compared as they are).
fn bounded_file(path: &Path, batch: &ThisBatch) -> Option<io::Take<fs::File>> {
    let cells = batch.cells.len() as u64;
    let most = SUMMARY_MOST.saturating_add(CELL_MOST.saturating_mul(cells));
    Some(fs::File::open(path).ok()?.take(most))
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
