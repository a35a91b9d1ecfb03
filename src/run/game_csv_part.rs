//! Which games of its batch a shard's per-game CSV holds, for the other-part check
//! (`other_parts`). A per-game CSV names no rules or batch size, but each row's game seed is its
//! batch's: a file whose first row's seed is this batch's for that game is taken for this
//! batch's, and its games are those of its first and last whole rows. Only a few KB at each end
//! are read, for a file may hold billions of rows.

use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

use crate::export::OutputError;
use crate::export::text::{game_span, group};

use super::other_parts::{ThisBatch, another_parts};

/// How much of a per-game CSV's start and end is read for its first and last rows.
const ENDS: u64 = 4 << 10;

/// A row's place: its cell (a run's is 0) and game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    cell: usize,
    game: u64,
}

/// The refusal of `flag`'s per-game CSV at `path` when its rows are games of this batch (told by
/// their seeds) that this shard does not play; `None` for a file of its own games, of another
/// seed, or that is no per-game CSV.
pub(super) fn refusal(flag: &'static str, path: &Path, batch: &ThisBatch) -> Option<OutputError> {
    let (first, last) = first_and_last(path, batch)?;
    let part = &batch.part;
    if part.contains(&first.game) && part.contains(&last.game) {
        return None;
    }
    let plays = format!("this {} plays {}", batch.kind(), span(part));
    let (held, plays) = match batch.sweep {
        false => (
            format!(
                "the per-game CSV of {} of a batch with this seed (its rows' game seeds are \
                 this batch's)",
                span(&(first.game..last.game + 1))
            ),
            plays,
        ),
        true => (
            format!(
                "the per-game CSV of a sweep with this seed, its rows from game {} of cell {} to \
                 game {} of cell {} (their game seeds are this sweep's)",
                group(first.game),
                first.cell,
                group(last.game),
                last.cell
            ),
            format!("{plays} of each cell"),
        ),
    };
    Some(another_parts(flag, path, (held, plays), ("games", "shard")))
}

/// `games 1,000 to 1,999`.
fn span(games: &Range<u64>) -> String {
    game_span(games.start, games.end - games.start)
}

/// The places of the file's first and last whole rows, when the first row's game seed is this
/// batch's for its game (its cell's, in a sweep) and the rows are in order.
fn first_and_last(path: &Path, batch: &ThisBatch) -> Option<(Place, Place)> {
    let mut file = fs::File::open(path).ok()?;
    let mut head = Vec::new();
    (&mut file).take(ENDS).read_to_end(&mut head).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(ENDS))).ok()?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail).ok()?;

    let mut lines = head.split(|&b| b == b'\n');
    let opening = lines.next()?;
    // A run's rows are `game,seed,…`, after a header `game,seed,…` or none (`--no-header`); a
    // sweep's are `cell,<swept settings>,game,seed,…`, after its header, which it always writes.
    let (game_column, first) = match batch.sweep {
        false => match row(opening, 0) {
            Some(first) => (0, first),
            None => (0, row(lines.next()?, 0)?),
        },
        true => {
            let header = std::str::from_utf8(opening).ok()?;
            let mut columns = header.split(',');
            let game_column = columns.position(|column| column == "game")?;
            if !header.starts_with("cell,") || game_column == 0 {
                return None;
            }
            (game_column, row(lines.next()?, game_column)?)
        }
    };
    // The last whole row: the one before the file's last newline.
    let whole = &tail[..tail.iter().rposition(|&b| b == b'\n')?];
    let last = row(whole.rsplit(|&b| b == b'\n').next()?, game_column)?;

    let (place, seed) = first;
    let rules = batch.cells.get(place.cell)?;
    let ordered = (last.0.cell, last.0.game) >= (place.cell, place.game);
    (seed == rules.game_seed(batch.seed, place.game) && ordered).then_some((place, last.0))
}

/// A row's place and game seed, its game in column `game_column` and its seed in the next (its
/// cell in the first, when the game is not); `None` for a line that is no such row.
fn row(line: &[u8], game_column: usize) -> Option<(Place, u64)> {
    let line = std::str::from_utf8(line).ok()?;
    let cells: Vec<&str> = line.split(',').collect();
    let cell = match game_column {
        0 => 0,
        _ => cells.first()?.parse().ok()?,
    };
    let game = cells.get(game_column)?.parse().ok()?;
    let seed = cells.get(game_column + 1)?.parse().ok()?;
    Some((Place { cell, game }, seed))
}
