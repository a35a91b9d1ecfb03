//! Checkpoints and what a stopped run or sweep needs to be resumed: when checkpoints are kept
//! and asked for (SIGUSR1), the resume record a state carries, the per-game CSV continued, and
//! how the closing message says to play on.

use std::io;
use std::time::Duration;

use indicatif::ProgressBar;

use crate::batch::{Checkpoints, Footer, Occasion};
use crate::config::ConfigError;
use crate::export::text::shell_word;
use crate::export::{
    CsvEnd, GameCsv, GameFiles, GameParquet, Holding, LeadKind, Stream, Target, check_resumable,
    forget_saved_tail,
};
use crate::interrupt::{self, CheckpointAnswer, Interrupt};
use crate::state::Resumable;
use crate::stats::Stats;

use super::RunError;
use super::outputs::open_game_files;

/// What `warsim resume` needs to continue a run or sweep that ended early (`command`, none for
/// a merge): its command, its folder and where its per-game CSV (`csv`) ends, `end` (on a whole
/// row, after an interrupt; [`GameFiles::csv_end`]).
pub fn resumable(command: &[String], csv: &Option<Target>, end: &CsvEnd) -> Option<Resumable> {
    if command.is_empty() {
        return None;
    }
    Some(resumable_at(command, csv, (end.bytes, &end.last_row)))
}

/// The checkpoints of a run, sweep or enumeration with `state`, saved by `save` every `every`
/// and when asked (SIGUSR1, [`interrupt::checkpoint_asked`]): none without a state, with
/// `every` zero, or for a state that cannot keep them.
pub fn checkpoints_of<'a, Prefix>(
    state: &Option<Target>,
    every: Duration,
    save: &'a (dyn Fn(&Prefix, u64, &str, Occasion) -> io::Result<()> + Sync),
) -> Option<Checkpoints<'a, Prefix>> {
    (!keeps_none(state, every)).then_some(Checkpoints {
        every,
        save,
        asked: &interrupt::checkpoint_asked,
        footer: None,
        since: None,
    })
}

/// The checkpoints of a run or sweep ([`checkpoints_of`]) writing `parquet`: a named Parquet
/// file is ended before each with `footer`, what the games so far make (the run's summary, the
/// sweep's JSON).
pub fn checkpoints_sealing<'a>(
    (state, every): (&Option<Target>, Duration),
    save: &'a (dyn Fn(&Stats, u64, &str, Occasion) -> io::Result<()> + Sync),
    (parquet, footer): (&Option<Target>, Footer<'a>),
) -> Option<Checkpoints<'a>> {
    let sealed = matches!(parquet, Some(Target::File(_)));
    checkpoints_of(state, every, save).map(|c| Checkpoints {
        footer: sealed.then_some(footer),
        ..c
    })
}

/// True when a run or sweep with `state` keeps no checkpoints: without a state, with `every`
/// zero, or for a state that cannot keep them (standard output, a pipe, a device: they take the
/// final state alone).
fn keeps_none(state: &Option<Target>, every: Duration) -> bool {
    every.is_zero() || !state.as_ref().is_some_and(Target::keeps_checkpoints)
}

/// From now on, where the job handles signals (`interrupt`), SIGUSR1 asks it for a checkpoint,
/// or has it say that it keeps none; it plays on either way.
pub fn answer_checkpoint_requests(
    interrupt: Option<&Interrupt>,
    state: &Option<Target>,
    every: Duration,
) {
    if interrupt.is_some() {
        interrupt::answer_checkpoint_requests(match keeps_none(state, every) {
            true => CheckpointAnswer::NoState,
            false => CheckpointAnswer::Save,
        });
    }
}

/// Says, above the progress bar, that the checkpoint asked for was written to `state`,
/// holding `held` (`games 0 to 6,373,373 of 1,000,000,000`).
pub fn say_checkpoint_written(bar: &ProgressBar, state: &Target, held: &str) {
    bar.suspend(|| say!("warsim: checkpoint written as asked (SIGUSR1): {state} holds {held}"));
}

/// How to play on after an interrupt, for its message: `warsim resume` or `--continue`, when the
/// run or sweep wrote a state file that can be continued; the command again beside a Parquet
/// file that cannot be (`parquet`: a sweep's, or a run's that does not hold the state's games,
/// [`ParquetLeft::in_the_way`](super::ParquetLeft::in_the_way)), whose state `warsim resume`
/// refuses; empty otherwise.
pub fn play_on(state: &Option<Target>, parquet: &Option<Target>) -> String {
    play_on_when(state, parquet, "")
}

/// How to play on ([`play_on`]) once what stands in the way is mended: `mend` ("its disk has
/// room"), and a per-game CSV another program moved while written back at its name
/// (`csv_moved`: that name), where `warsim resume` looks for it.
pub fn play_on_once(
    (state, parquet): (&Option<Target>, &Option<Target>),
    (mend, csv_moved): (Option<&str>, Option<&Target>),
) -> String {
    let back = csv_moved.map(|csv| format!("the per-game CSV is back at {csv}"));
    let wanted: Vec<String> = mend.map(str::to_string).into_iter().chain(back).collect();
    let when = match wanted.is_empty() {
        true => String::new(),
        false => format!(" once {}", wanted.join(" and ")),
    };
    play_on_when(state, parquet, &when)
}

/// [`play_on`], saying `when` after "to play on" (" once its disk has room").
fn play_on_when(state: &Option<Target>, parquet: &Option<Target>, when: &str) -> String {
    match (state, parquet) {
        (Some(target @ Target::File(path)), None) if target.keeps_checkpoints() => format!(
            "; to play on{when}: `warsim resume {}`, or the same command with --continue",
            shell_word(path.as_os_str())
        ),
        (Some(Target::File(_)), Some(_)) => format!(
            "; a Parquet file cannot be continued: to play every game{when}, the same command again"
        ),
        _ => String::new(),
    }
}

/// How to continue a run or sweep from a checkpoint whose games fill the per-game CSV's (`csv`)
/// first `bytes` bytes: its command line, its folder and the CSV's `last_row` there, read from
/// the file warsim wrote ([`RecordSink::last_row`](crate::batch::RecordSink::last_row)), not
/// from its name, where another program may have put another file. A CSV on standard output
/// counts no bytes: it cannot be read back or cut, and a resumed run writes its rows from the
/// checkpoint's games on (`warsim resume` says to join them).
pub fn resumable_at(
    command: &[String],
    csv: &Option<Target>,
    (bytes, last_row): (u64, &str),
) -> Resumable {
    let (bytes, last_row) = match csv {
        Some(Target::File(_)) => (bytes, last_row),
        _ => (0, ""),
    };
    let (cwd, cwd_base64) = Resumable::this_folder();
    Resumable {
        command: command.to_vec(),
        cwd,
        cwd_base64,
        csv_bytes: bytes,
        csv_tail: last_row.to_string(),
    }
}

/// Removes the tail saved beside a run's or sweep's Parquet file (`parquet`) once its final
/// state (`state`, which `unwritten` does not name as `state_named`) counts the games written
/// on after a resume or a checkpoint.
pub fn forget_tail_once_counted(
    (state, parquet): (&Option<Target>, &Option<Target>),
    (unwritten, state_named): (&[RunError], &str),
) {
    if let (Some(_), Some(Target::File(path))) = (state, parquet)
        && !unwritten.iter().any(|e| e.is_write_of(state_named))
    {
        forget_saved_tail(path);
    }
}

/// The per-game files of a run or sweep, resumed from a checkpoint (`resumed`: its CSV's bytes
/// and its games, a run's by number, a sweep's counted) or not: the CSV continued after the
/// checkpoint's rows, or the files opened afresh, the CSV with its `header` unless it goes on,
/// on standard output, from a stopped run's stream (warsim cannot read a stream back: its rows
/// follow the checkpoint's, and the user joins them); a Parquet file continued after its row
/// groups (`warsim resume` checked that they hold the checkpoint's games).
pub fn game_files(
    (flag, csv, header): (&'static str, &Option<Target>, bool),
    parquet: (&'static str, Option<&Target>),
    leads: &[(&str, LeadKind)],
    resumed: Option<(u64, Holding)>,
) -> Result<GameFiles, ConfigError> {
    let Some((bytes, games)) = resumed else {
        return open_game_files((flag, csv.as_ref(), header), parquet, leads);
    };
    let (parquet_flag, parquet) = parquet;
    let goes_on = match parquet {
        Some(Target::File(path)) => Some(path),
        _ => None,
    };
    let fresh_parquet = parquet.filter(|_| goes_on.is_none());
    let files = match bytes > 0 {
        true => resumed_game_csv(flag, csv, (bytes, games.rows()))?,
        false => {
            let stream = *csv == Some(Target::Stdout);
            let csv = (flag, csv.as_ref(), header && !stream);
            open_game_files(csv, (parquet_flag, fresh_parquet), leads)?
        }
    };
    let Some(path) = goes_on else {
        return Ok(files);
    };
    let resumed = (check_resumable(path, games).map_err(|e| io::Error::other(e.why)))
        .and_then(|held| GameParquet::resumed(path, held));
    match resumed {
        Ok(parquet) => Ok(GameFiles::new(files.csv, Some(parquet))),
        Err(e) => {
            files.discard_if_empty();
            Err(ConfigError::Resume(format!(
                "cannot continue the Parquet file {}: {e}",
                path.display()
            )))
        }
    }
}

/// The per-game CSV of a resumed run or sweep: `flag`'s file, cut back to the checkpoint's
/// `bytes` (its `rows`) and continued after them.
fn resumed_game_csv(
    flag: &str,
    csv: &Option<Target>,
    (bytes, rows): (u64, u64),
) -> Result<GameFiles, ConfigError> {
    let Some(Target::File(path)) = csv else {
        return Err(ConfigError::Resume(format!(
            "the checkpoint counts {flag} rows, but no {flag} file is written"
        )));
    };
    let stream = Stream::resume(path, bytes).map_err(|e| {
        ConfigError::Resume(format!(
            "cannot continue the per-game CSV {}: {e}",
            path.display()
        ))
    })?;
    Ok(GameFiles::new(
        Some(GameCsv::resumed(stream, bytes, rows)),
        None,
    ))
}
