//! The per-game table in Apache Parquet (`--parquet`): typed columns (`seed` an unsigned 64-bit
//! integer, `winner` nullable, `outcome` and `decided_by` dictionary-encoded strings, the counts
//! delta-packed), snappy-compressed, streamed in row groups of [`ROW_GROUP`] games, so memory
//! stays bounded however many games a run plays. A sweep adds its cells' settings as leading
//! columns. Written with the `parquet` crate's column writers, without Arrow. Each full row
//! group is encoded on a thread of its own (`encoders.rs`, `group.rs`) while the next one fills,
//! so the one writer thread only appends encoded bytes, in game order.
//!
//! A Parquet file is readable only once its footer is written, at the end ([`GameParquet::close`])
//! and at each checkpoint of a run, which writes on after it (`footer.rs`): a run stopped by a
//! signal still ends it properly, so every game handed to it counts as written, and a second
//! signal waits for that end (a regular file's: see [`hold_exit_until_closed`]); a write error
//! cuts it back to its whole row groups (`salvage.rs`).
//! The footer's key-value metadata carries the run's summary ([`PARQUET_SUMMARY_KEY`]), so the
//! file names what made it.

mod encoders;
mod footer;
mod group;
mod last_group;
mod resume;
mod salvage;
mod tail;

use std::collections::VecDeque;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::thread;

use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};

use crate::batch::{BatchSpec, RecordSink};
use crate::engine::GameRecord;
use crate::interrupt::{ClosingHeld, hold_exit_until_closed};

use super::other_programs::Lost;
use super::room::RoomWatch;
use super::stream::Stream;
use encoders::{Encoding, groups_in_flight};
use group::{Layout, Rows, properties, schema};
pub use resume::{HeldGroups, Holding, NotResumable, check_resumable};
pub use tail::{discard_saved_tail, forget_saved_tail};

/// Games in a row group: about 13 MB of gathered columns. A file holds at most 2^15 row
/// groups, so at most [`MAX_PARQUET_GAMES`] games.
pub const ROW_GROUP: usize = 1 << 18;
/// Most games one Parquet file can hold.
pub const MAX_PARQUET_GAMES: u64 = (ROW_GROUP as u64) << 15;

/// The kind of a leading column (a sweep cell's setting): a whole number or a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadKind {
    /// An unsigned 32-bit integer (`cell`, `players`, `ranks`, …).
    Number,
    /// A string (`rules`, `pickup`, …), dictionary-encoded.
    Name,
}

/// The key of the footer's metadata that holds the run's summary as `--json` writes it (a
/// sweep's: the sweep's JSON).
pub const PARQUET_SUMMARY_KEY: &str = "warsim";

/// Streams game records into a Parquet file (see the module doc).
pub struct GameParquet {
    out: Option<Stream>,
    writer: Option<SerializedFileWriter<Stream>>,
    layout: Layout,
    /// The leading columns' values of every batch begun.
    batches: Vec<Vec<String>>,
    rows: Rows,
    /// Games a row group holds ([`ROW_GROUP`]; fewer in tests).
    group_rows: usize,
    /// Row groups being encoded, oldest first, and how many may be at once (none: each is
    /// encoded by the writer thread itself).
    encoding: VecDeque<Encoding>,
    encoders: usize,
    /// The columns of a row group written, emptied, for the next one.
    spare: Option<Rows>,
    /// Games handed over (buffered or written), and where the current batch began among them.
    taken: u64,
    batch_base: u64,
    /// Games in the row groups appended to the file, and the bytes written then.
    appended: u64,
    appended_bytes: u64,
    /// The most bytes a row group has taken, for the room kept in hand past the file's end.
    largest_group: u64,
    /// Whether the disk has room for the rows to come, asked once the first row group is in.
    room: Option<RoomWatch>,
    /// The file, opened again, to save its whole row groups after a write error (a named
    /// regular file's); the games it held then, once saved; the error a write failed with.
    rescue: Option<File>,
    salvaged: Option<u64>,
    /// Left as a checkpoint sealed it after a failure to write on (`footer.rs`).
    left_whole: bool,
    failed: Option<(io::ErrorKind, String)>,
    /// A second signal's exit, held until the file is closed (a regular file's), as it cannot
    /// be read before. Dropped last, after the footer has been synced.
    closing: Option<ClosingHeld>,
    /// The name it was given (a regular file's), beside which its tail is saved.
    name: Option<PathBuf>,
    /// Where its full row groups end, while it is ended with a checkpoint's footer (`footer.rs`).
    sealed: Option<u64>,
    /// A file written on after a resume or a checkpoint, whose tail is saved beside it until
    /// a state counts the games written on (`resume.rs`), and the games it held then.
    saved_tail: Option<PathBuf>,
    tail_holds: u64,
    /// The number of the game after the last one taken (noted once per range: a range that
    /// failed part-way gives the writer up, and no checkpoint follows).
    next_game: u64,
}

impl GameParquet {
    /// Takes the output; `leads` name the columns before the game's own (a sweep's settings),
    /// filled in by [`GameParquet::start_batch`].
    pub fn new(mut out: Stream, leads: &[(&str, LeadKind)]) -> GameParquet {
        let leads: Vec<(String, LeadKind)> =
            leads.iter().map(|(n, k)| (n.to_string(), *k)).collect();
        let count = leads.len();
        // A row group takes about 25 ms to encode (about 100 ns a game): a quarter of the cores
        // keep up with workers on all of them. Each group being encoded holds about 30 MB.
        // Below four cores the writer thread encodes, as it has a core of its own or shares
        // the workers': a thread more would only cost (1 thread, 2 cores: +4%).
        let cores = thread::available_parallelism().map_or(1, |n| n.get());
        let encoders = cores / 4;
        // Until a row group is written and measured, a generous 16 bytes a game (about 13
        // here) for the groups in flight, and 1 MiB for the footer.
        out.need_in_hand(groups_in_flight(encoders) * ROW_GROUP as u64 * 16 + (1 << 20));
        let closing = out.is_regular_file().then(hold_exit_until_closed);
        let rescue = out.reopened();
        GameParquet {
            out: Some(out),
            writer: None,
            layout: Layout {
                schema: schema(&leads),
                properties: properties(true),
                leads,
            },
            batches: vec![vec![String::new(); count]],
            rows: Rows::default(),
            group_rows: ROW_GROUP,
            encoding: VecDeque::new(),
            encoders,
            spare: None,
            taken: 0,
            batch_base: 0,
            appended: 0,
            appended_bytes: 0,
            largest_group: 0,
            room: None,
            rescue,
            salvaged: None,
            left_whole: false,
            failed: None,
            closing,
            name: None,
            sealed: None,
            saved_tail: None,
            tail_holds: 0,
            next_game: 0,
        }
    }

    /// Names the file (`--parquet PATH`): its tail is saved beside it when it is written on
    /// after a checkpoint ([`GameParquet::seal`]).
    pub fn named(mut self, path: &Path) -> GameParquet {
        self.name = Some(path.to_path_buf());
        self
    }

    /// Starts the rows of another batch (game numbers from 0 again) led by `values`.
    pub fn start_batch(&mut self, values: &[String]) {
        self.batch_base = self.taken;
        self.batches.push(values.to_vec());
    }

    /// Lets a second signal end the process at once after all, without the footer: for a file
    /// written beside a pipe, whose reader could stall the run's wind-down for ever.
    pub fn let_exit_cut(&mut self) {
        self.closing = None;
    }

    /// Why the batch should stop before its next games: its file was removed, or (the first
    /// time after) its disk would not give the room it keeps in hand, the file then ended in
    /// the room still held (asked by [`GameFiles`](crate::export::GameFiles) as the CSV's
    /// [`GameCsv::stop_reason`](crate::export::GameCsv::stop_reason) is).
    pub fn stop_reason(&mut self) -> Option<io::Error> {
        self.writer
            .as_mut()
            .and_then(|w| w.inner_mut().stop_reason())
    }

    /// Whether another program took rows written to it: removed it or cut it short
    /// ([`Stream::lost`](crate::export::Stream::lost)).
    pub fn lost(&self) -> Option<Lost> {
        match (&self.writer, &self.out) {
            (Some(writer), _) => writer.inner().lost(),
            (None, Some(out)) => out.lost(),
            (None, None) => None,
        }
    }

    /// Removes the output if this run created it and no game was written to it; a resumed
    /// run's file that no game was written to gets its footer back.
    pub fn discard_if_empty(mut self) {
        if self.taken == 0
            && let Some(out) = self.out.take()
        {
            out.discard();
        }
        if let Some(path) = self.saved_tail.take()
            && self.taken == self.tail_holds
            && let Some(file) = self.rescue.take()
        {
            // Through the rescue's descriptor, once the writer has flushed what it held.
            self.writer = None;
            let _ = tail::put_back_through(&file, &path);
        }
    }

    fn writer(&mut self) -> io::Result<&mut SerializedFileWriter<Stream>> {
        // What failed before fails again, as it would have: given up, the writer is gone.
        if let Some((kind, text)) = &self.failed {
            return Err(io::Error::new(*kind, text.clone()));
        }
        if self.writer.is_none() {
            let out = self.out.take().expect("taken here alone");
            let schema = self.layout.schema.root_schema_ptr();
            let properties = self.layout.properties.clone();
            let writer =
                SerializedFileWriter::new(out, schema, properties).map_err(io::Error::other)?;
            self.writer = Some(writer);
        }
        Ok(self.writer.as_mut().expect("just made"))
    }
}

/// Writes the next row group of `writer`, its columns put in by `columns`.
fn row_group(
    writer: &mut SerializedFileWriter<Stream>,
    columns: impl FnOnce(&mut SerializedRowGroupWriter<'_, Stream>) -> parquet::errors::Result<()>,
) -> io::Result<()> {
    let written = (|| {
        let mut group = writer.next_row_group()?;
        columns(&mut group)?;
        group.close().map(drop)
    })();
    written.map_err(into_io)
}

/// A Parquet error as an I/O error, keeping the underlying one (a full disk, a closed pipe).
fn into_io(error: parquet::errors::ParquetError) -> io::Error {
    match error {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

impl RecordSink for GameParquet {
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
        _: Option<&[u8]>,
    ) -> io::Result<()> {
        for (offset, record) in records.iter().enumerate() {
            let game = first + offset as u64;
            // Writing a row group forgets the batches before the current one: index afresh.
            let batch = (self.batches.len() - 1) as u32;
            let rows = &mut self.rows;
            rows.batch.push(batch);
            rows.game.push(game as i64);
            // Unsigned 64-bit values are stored in INT64's bits, as Parquet's UINT_64 says.
            rows.seed.push(spec.rules.game_seed(spec.seed, game) as i64);
            rows.rounds.push(record.rounds as i32);
            match record.winner {
                Some(seat) => {
                    rows.winner.push(i32::from(seat) + 1);
                    rows.winner_defined.push(1);
                }
                None => rows.winner_defined.push(0),
            }
            rows.outcome.push(record.outcome as u8);
            rows.wars.push(record.wars as i64);
            rows.longest_war.push(record.longest_war as i32);
            match record.win_by {
                Some(by) => {
                    rows.decided_by.push(by as u8);
                    rows.decided_defined.push(1);
                }
                None => rows.decided_defined.push(0),
            }
            rows.cards_played.push(record.cards_played as i64);
            self.taken += 1;
            if rows.game.len() == self.group_rows
                && let Err(error) = self.write_group()
            {
                return Err(self.fail(error, None));
            }
        }
        self.next_game = first + records.len() as u64;
        Ok(())
    }

    fn committed(&self) -> u64 {
        self.taken - self.batch_base
    }

    /// Row groups are written as they fill; the last one and the footer by [`GameParquet::close`].
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod sweep_tests;
#[cfg(test)]
mod tests;
