//! The files a sweep writes once its cells are played: the tables, the JSON, the histograms,
//! the plot and the sweep state, each atomically; `warsim merge` writes a merged sweep's with
//! them too.

use std::io;

use super::tables::{write_cells_csv, write_seats_csv, write_sweep_json};
use super::{CellResult, SweepOptions};
use crate::export::text::{counted, game_span, games_text, group};
use crate::export::{
    CsvEnd, OutputError, RunInfo, Target, Which, write_hdr_log, write_histogram_table,
};
use crate::plot::{SurvivalScale, draw_run, draw_sweep, varied_keys};
use crate::run::{
    self, Holds, OutputWriter, ParquetLeft, RunError, StopFailure, ThisBatch, play_on_once,
    plot_titles, resumable, write_each,
};
use crate::state::{GridCell, RuleSettings, SkippedState, State, SweepState};
use crate::stats::Stats;

/// The sweep state's name in messages, shared by its writing and the closing message.
pub(super) const SWEEP_STATE: &str = "the sweep state";

/// Writes the tables, the JSON, the histograms, the plot and the state (each atomically), which
/// records where the per-game CSV ends (`csv_end`); returns what failed.
pub(crate) fn write_sweep_files(
    options: &SweepOptions,
    results: &[CellResult],
    csv_end: &CsvEnd,
) -> Vec<RunError> {
    let keys = &options.grid.keys;
    let mut columns = vec!["cell"];
    columns.extend(keys);
    let numbered: Vec<Vec<String>> = results
        .iter()
        .enumerate()
        .map(|(index, result)| {
            let mut values = vec![index.to_string()];
            values.extend(result.values.iter().cloned());
            values
        })
        .collect();
    let parts: Vec<(&[String], &Stats)> = numbered
        .iter()
        .zip(results)
        .map(|(values, result)| (values.as_slice(), &result.stats))
        .collect();
    let runs: Vec<(&RunInfo, &Stats)> = results.iter().map(|r| (&r.info, &r.stats)).collect();
    let outputs: [(&'static str, &Option<Target>, OutputWriter); 7] = [
        ("the table of cells", &options.csv, &|out| {
            write_cells_csv(out, keys, results)
        }),
        ("the table of seats", &options.seats, &|out| {
            write_seats_csv(out, keys, results)
        }),
        ("the sweep JSON", &options.json, &|out| {
            write_sweep_json(out, options, results)
        }),
        ("the length histograms", &options.histogram, &|out| {
            write_histogram_table(out, &columns, &parts)
        }),
        ("the HdrHistogram log", &options.hdr, &|out| {
            write_hdr_log(out, &runs)
        }),
        ("the plot", &options.plot, &|out| {
            out.write_all(sweep_plot(options, results)?.as_bytes())
        }),
        (SWEEP_STATE, &options.state, &|out| {
            let refs: Vec<&CellResult> = results.iter().collect();
            let mut state = sweep_state(options, &refs);
            state.resume = resumable(&options.command, &options.games_csv, csv_end);
            state.write(out)
        }),
    ];
    write_each(&outputs)
}

/// What a checkpoint asked for in cell `index`, after `games` of its games, holds:
/// `games 0 to 1,233 of cell 4 of cells 0 to 7 and every cell before it`.
pub(super) fn checkpoint_holds(options: &SweepOptions, index: usize, games: u64) -> String {
    let held = game_span(options.part().start, games);
    let cell = options.grid.cell_named(index);
    match index {
        0 => format!("{held} of {cell}"),
        _ => format!("{held} of {cell} and every cell before it"),
    }
}

/// The sweep's state: its grid and every cell begun as a run's state, for `warsim merge`.
pub(super) fn sweep_state(options: &SweepOptions, results: &[&CellResult]) -> SweepState {
    let grid = &options.grid;
    SweepState::new(
        grid.keys.iter().map(|k| k.to_string()).collect(),
        (options.seed, options.games),
        grid.cells
            .iter()
            .map(|c| GridCell {
                values: c.values.clone(),
                rules: RuleSettings::of(&c.rules),
            })
            .collect(),
        grid.skipped
            .iter()
            .map(|s| SkippedState {
                values: s.values.clone(),
                reason: s.reason.clone(),
            })
            .collect(),
        results
            .iter()
            .map(|r| State::of_run(&r.info, &r.stats))
            .collect(),
    )
}

/// Refuses a sweep table, JSON, state, HdrHistogram log or per-game file that holds games of
/// this same sweep that it does not play: another shard's, or the whole sweep's
/// (`run::check_other_parts`).
pub(super) fn check_other_parts(options: &SweepOptions) -> Result<(), OutputError> {
    let batch = ThisBatch {
        cells: options.grid.cells.iter().map(|cell| &cell.rules).collect(),
        seed: options.seed,
        games: options.games,
        part: options.part(),
        sweep: true,
    };
    let (state, games_csv) = run::state_and_csv_to_check(
        (options.resume.is_some(), options.shard.is_some()),
        (&options.state, &options.games_csv),
    );
    let summaries = [
        ("--csv", &options.csv, Holds::SummaryCsv),
        ("--json", &options.json, Holds::SummaryJson),
        ("--state", state, Holds::State),
        ("--games-csv", games_csv, Holds::GameCsv),
        ("--parquet", &options.parquet, Holds::GameParquet),
        ("--hdr", &options.hdr, Holds::HdrLog),
    ];
    run::check_other_parts(&batch, &summaries)
}

/// The sweep's figure: over the settings that vary, or, when none does, the one cell as a run.
fn sweep_plot(options: &SweepOptions, results: &[CellResult]) -> io::Result<String> {
    let Some(first) = results.first() else {
        return Err(io::Error::other("no cell was played: nothing to draw"));
    };
    let cells: Vec<(&[String], &Stats)> =
        results.iter().map(|r| (&r.values[..], &r.stats)).collect();
    let values: Vec<&[String]> = cells.iter().map(|(v, _)| *v).collect();
    // A figure is read by people (and printed in papers), the tables by programs: its axes
    // and title name a setting in words (`face down`), as its flag does, not by its column.
    let labels: Vec<String> = options
        .grid
        .keys
        .iter()
        .map(|k| k.replace('_', " "))
        .collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let varied = varied_keys(&labels, &values);
    let title = format!(
        "How long does War last? The median by {}, {}",
        varied.join(" × "),
        games_a_cell(options, results)
    );
    let lines = vec![
        format!(
            "cell 0: {}; {}",
            first.info.rules.describe(),
            how_cells_differ(&varied)
        ),
        format!(
            "{} cells · seed {} · warsim {}",
            results.len(),
            options.seed,
            env!("CARGO_PKG_VERSION")
        ),
    ];
    match draw_sweep(&title, &lines, &labels, &cells)? {
        Some(svg) => Ok(svg),
        None => {
            let (title, subtitle) = plot_titles(&first.info, &first.stats);
            draw_run(&title, &subtitle, &first.stats, SurvivalScale::Log)
        }
    }
}

/// What sets the other cells apart from cell 0, whose rules the figure spells out: the settings
/// drawn, and, where presets are swept, each preset's own value of a setting not given.
fn how_cells_differ(varied: &[&str]) -> String {
    let named = match varied {
        [] => return "every cell plays these rules".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    match varied.contains(&"rules") {
        true => format!(
            "the other cells differ from it in {named}, and take each preset's own value of a setting not given"
        ),
        false => format!("the other cells differ from it in {named} alone"),
    }
}

/// The games each cell holds, as played, not as asked: a shard's part (`250 games a cell
/// (shard 1/4)`), or the least and most where cells differ (a stopped sweep, a partial merge).
fn games_a_cell(options: &SweepOptions, results: &[CellResult]) -> String {
    let played = || results.iter().map(|r| r.stats.games);
    let (least, most) = (played().min().unwrap_or(0), played().max().unwrap_or(0));
    let games = match least == most {
        true => games_text(most),
        false => format!("{} to {}", group(least), games_text(most)),
    };
    match options.shard {
        Some(shard) => format!("{games} a cell (shard {shard})"),
        None => format!("{games} a cell"),
    }
}

/// What a sweep stopped by a write error in `cell` (the last begun), `played` of its `asked`
/// games played, kept: every game before the stop (every game, found at the end), in each
/// per-game file but a Parquet file whose own write failed (it keeps its whole row groups, or
/// nothing where it could not be cut back to them), and in the tables.
///
/// A per-game file removed or cut short while written is not said to hold anything; a CSV
/// another program moved while written is named where it stands now (`csv_end`). When a file
/// of the sweep's results could not be written too (in `unwritten`, each with its own error),
/// only the others are said to describe the games. Then how to play on, if the sweep can.
pub(super) fn kept_text(
    options: &SweepOptions,
    failure: &StopFailure,
    (cell, played, asked): (&str, u64, u64),
    (unwritten, csv_end): (&[RunError], &CsvEnd),
) -> String {
    let (when, games) = match played == asked {
        true => (
            format!("after every game was played ({})", counted(played, "game")),
            "every game",
        ),
        false => (
            format!(
                "stopped in {cell} after {} of its games",
                group(failure.written)
            ),
            "every game before it",
        ),
    };
    let left = (failure.lost(Which::Csv), failure.parquet_left());
    let mut kept = per_game_files(options, left, csv_end, games);
    kept.push(match unwritten.is_empty() {
        true => format!("the tables describe {games}"),
        false => format!("the other files written describe {games}"),
    });
    let parquet = left.1.in_the_way(&options.parquet, played);
    let files = (&options.state, &parquet);
    let moved_from = csv_end.moved_from(&options.games_csv);
    let play_on = failure.play_on(files, (unwritten, SWEEP_STATE), moved_from);
    format!("{when}: {}{play_on}", kept.join("; "))
}

/// What the sweep's per-game files hold ([`run::per_game_kept`]): `games` each, or a failed
/// Parquet file's first games.
fn per_game_files(
    options: &SweepOptions,
    left: (bool, ParquetLeft),
    csv_end: &CsvEnd,
    games: &str,
) -> Vec<String> {
    let files = (options.games_csv.as_ref(), options.parquet.as_ref());
    let first = |saved| format!("its first {}", counted(saved, "game"));
    run::per_game_kept(
        files,
        left,
        csv_end.moved_to.as_deref(),
        (games, games),
        first,
    )
}

/// What an interrupted sweep says it kept: `played` of the `asked` games, in its per-game files
/// and tables, and `cell` the last begun (`signal` stopped it there). When a file of the sweep's
/// results could not be written (`all_written` false; its error follows), the tables written.
/// A per-game CSV moved while written (`csv_end`) must be put back before the sweep is resumed.
pub(super) fn interrupted_text(
    options: &SweepOptions,
    (cell, signal): (&str, &str),
    (played, asked): (u64, u64),
    (all_written, csv_end): (bool, &CsvEnd),
) -> String {
    let written = if all_written { "" } else { " written" };
    let mut kept = per_game_files(options, (false, ParquetLeft::Whole), csv_end, "them");
    kept.push(format!(
        "the tables{written} hold every cell begun, the last marked complete: false"
    ));
    let parquet = ParquetLeft::Whole.in_the_way(&options.parquet, played);
    let files = (&options.state, &parquet);
    let moved_from = csv_end.moved_from(&options.games_csv);
    format!(
        "interrupted in {cell} ({signal}): {} of {} games played; {}{}",
        group(played),
        group(asked),
        kept.join("; "),
        play_on_once(files, (None, moved_from))
    )
}
