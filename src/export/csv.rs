//! CSV outputs: the per-game stream (one row per game, in game order) and the one-row summary.

use std::io::{self, Write};

use crate::batch::{BatchSpec, RecordSink, RowFormatter};
use crate::engine::GameRecord;

use super::Summary;
use super::lines::{newlines, write_lines};
use super::other_programs::Lost;
use super::room::RoomWatch;
use super::stream::Stream;

/// The per-game CSV header.
pub const GAME_CSV_HEADER: [&str; 9] = [
    "game",
    "seed",
    "rounds",
    "winner",
    "outcome",
    "wars",
    "longest_war",
    "decided_by",
    "cards_played",
];

/// Bytes gathered before they are written out.
const BUFFER: usize = 1 << 16;

/// Streams game records as CSV rows, gathered in its own buffer so that it knows where every
/// row ends (at its newline: no value holds one): after a failed write the output is cut back
/// to its last whole row (where it can be: a regular file) and [`RecordSink::committed`] counts
/// exactly the rows it holds. The workers that played the games format their rows while the
/// one thread that writes them is busy ([`RecordSink::row_formatter`]).
pub struct GameCsv {
    out: Stream,
    buffer: Vec<u8>,
    /// Rows in the buffer, the header's among them while it is pending.
    rows_buffered: u64,
    header_pending: bool,
    /// Bytes and game rows wholly written before the buffer.
    written_bytes: u64,
    committed: u64,
    /// Leading columns every row repeats (a sweep cell's settings), with their comma.
    prefix: Vec<u8>,
    /// Rows written before the current batch began: [`RecordSink::committed`] counts from it.
    batch_base: u64,
    /// Rows the file held before this process wrote to it (a resumed run's).
    rows_before: u64,
    /// Whether the disk has room for the rows to come, asked once the first rows are written.
    room: Option<RoomWatch>,
}

impl GameCsv {
    /// Takes the output and queues the header.
    pub fn new(out: Stream) -> GameCsv {
        GameCsv::with_columns(out, &[])
    }

    /// Like [`GameCsv::new`], with `columns` before the game's own: a sweep names its cells'
    /// settings there and fills them in with [`GameCsv::start_batch`].
    pub fn with_columns(out: Stream, columns: &[&str]) -> GameCsv {
        let mut buffer = Vec::with_capacity(BUFFER + 256);
        let header: Vec<&str> = columns.iter().chain(&GAME_CSV_HEADER).copied().collect();
        buffer.extend_from_slice(header.join(",").as_bytes());
        buffer.push(b'\n');
        GameCsv {
            out,
            rows_buffered: 1,
            buffer,
            header_pending: true,
            written_bytes: 0,
            committed: 0,
            prefix: Vec::new(),
            batch_base: 0,
            rows_before: 0,
            room: None,
        }
    }

    /// Continues a file that already holds `bytes` bytes of whole rows, `rows` of them (a
    /// resumed run): no header, the rows appended.
    pub fn resumed(out: Stream, bytes: u64, rows: u64) -> GameCsv {
        let mut csv = GameCsv::new(out).without_header();
        csv.written_bytes = bytes;
        csv.rows_before = rows;
        csv
    }

    /// Asks, once the file holds its first rows (65,536, a resumed run's among them), whether
    /// the disk has room for the rest of the rows it is to hold.
    pub fn watch_room(&mut self, watch: RoomWatch) {
        self.room = Some(watch);
    }

    /// The projection [`GameCsv::watch_room`] asked for, when its rows are written (a pipe or
    /// a device has no disk to fill).
    fn check_room(&mut self) {
        let rows = self.rows_before + self.committed;
        let in_hand = self.out.in_hand();
        RoomWatch::check_once(
            &mut self.room,
            (rows, self.written_bytes),
            || self.out.free_bytes(),
            in_hand,
        );
    }

    /// Leaves the header out: the rows can be appended to another file of the same columns
    /// (one shard's rows after another's).
    pub fn without_header(mut self) -> GameCsv {
        self.buffer.clear();
        self.rows_buffered = 0;
        self.header_pending = false;
        self
    }

    /// Starts the rows of another batch (game numbers from 0 again), whose rows begin with
    /// `values` (one per column given to [`GameCsv::with_columns`]; names and numbers, which
    /// need no quoting).
    pub fn start_batch(&mut self, values: &[String]) {
        self.batch_base = self.committed;
        self.prefix.clear();
        for value in values {
            self.prefix.extend_from_slice(value.as_bytes());
            self.prefix.push(b',');
        }
    }

    /// Writes the buffer out; on failure keeps only whole rows.
    fn write_buffer(&mut self) -> io::Result<()> {
        // A second signal waits for these whole rows (a pipe's reader could stall it forever).
        let _held = self.out.is_regular_file().then(crate::interrupt::hold_exit);
        let (whole_bytes, failure) = write_lines(&mut self.out, &self.buffer);
        let whole_rows = match failure {
            None => self.rows_buffered,
            // Rows end at their newlines (counted only here, after a failure).
            Some(_) => newlines(&self.buffer[..whole_bytes]),
        };
        let header = u64::from(self.header_pending);
        self.committed += whole_rows.saturating_sub(header);
        self.header_pending &= whole_rows == 0;
        self.written_bytes += whole_bytes as u64;
        self.buffer.clear();
        self.rows_buffered = 0;
        // Said by a second signal's exit, which waits for this write (`_held`) on a regular
        // file only: elsewhere the last row may be cut.
        if _held.is_some() {
            crate::interrupt::note_csv_rows(self.rows_before + self.committed);
        }
        match failure {
            None => {
                self.check_room();
                Ok(())
            }
            Some((error, true)) => Err(error),
            Some((error, false)) => Err(io::Error::new(
                error.kind(),
                format!("{error} (the output may end on a partial row)"),
            )),
        }
    }

    /// Gives back the room kept in hand past its end: it is complete (every row written out),
    /// and the Parquet file beside it needs the room to end whole.
    pub fn give_back_room(&mut self) {
        self.out.give_back_room();
    }

    /// Whether it goes to a regular file, whose writes no reader can stall.
    pub fn is_regular_file(&self) -> bool {
        self.out.is_regular_file()
    }

    /// Why the batch should stop before its next rows, every row before them whole: its file
    /// was removed, or (the first time after) its disk would not give the room it keeps in
    /// hand ([`Stream::stop_reason`]). [`GameFiles`] asks it before a range, not after one, so
    /// that a batch whose last write met it ends complete.
    ///
    /// [`GameFiles`]: crate::export::GameFiles
    pub fn stop_reason(&mut self) -> Option<io::Error> {
        self.out.stop_reason()
    }

    /// Where its file, opened as `given`, stands now when another program moved it while
    /// written ([`Stream::moved_to`]).
    pub fn moved_to(&self, given: &std::path::Path) -> Option<std::path::PathBuf> {
        self.out.moved_to(given)
    }

    /// Whether another program removed it while written ([`Stream::removed`]).
    pub fn removed(&self) -> bool {
        self.out.removed()
    }

    /// Whether another program took rows written to it: removed it or cut it short
    /// ([`Stream::lost`]).
    pub fn lost(&self) -> Option<Lost> {
        self.out.lost()
    }

    /// Removes the output if this run created it and no game was written to it.
    pub fn discard_if_empty(self) {
        if self.committed == 0 {
            self.out.discard();
        }
    }
}

impl RecordSink for GameCsv {
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
        rows: Option<&[u8]>,
    ) -> io::Result<()> {
        match rows {
            Some(rows) => self.buffer.extend_from_slice(rows),
            None => format_rows(&self.prefix, spec, first, records, &mut self.buffer),
        }
        self.rows_buffered += records.len() as u64;
        if self.buffer.len() >= BUFFER {
            self.write_buffer()?;
        }
        Ok(())
    }

    fn row_formatter(&self) -> Option<RowFormatter> {
        let prefix = self.prefix.clone();
        Some(Box::new(move |spec, first, records, rows| {
            format_rows(&prefix, spec, first, records, rows)
        }))
    }

    fn committed(&self) -> u64 {
        self.committed - self.batch_base
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_buffer()?;
        self.out.flush()
    }

    fn position(&self) -> u64 {
        self.written_bytes
    }

    fn last_row(&self) -> io::Result<String> {
        self.out.last_row(self.written_bytes)
    }

    fn persist(&mut self) -> io::Result<()> {
        self.out.persist()
    }
}

/// Appends the rows of games `first`, `first + 1`, ... (their `records`) to `rows`, each led
/// by `prefix` (a sweep cell's settings, with their comma).
pub fn format_rows(
    prefix: &[u8],
    spec: &BatchSpec,
    first: u64,
    records: &[GameRecord],
    rows: &mut Vec<u8>,
) {
    let mut number = itoa::Buffer::new();
    for (offset, record) in records.iter().enumerate() {
        let game = first + offset as u64;
        rows.extend_from_slice(prefix);
        rows.extend_from_slice(number.format(game).as_bytes());
        rows.push(b',');
        let seed = spec.rules.game_seed(spec.seed, game);
        rows.extend_from_slice(number.format(seed).as_bytes());
        rows.push(b',');
        rows.extend_from_slice(number.format(record.rounds).as_bytes());
        rows.push(b',');
        if let Some(seat) = record.winner {
            rows.extend_from_slice(number.format(u32::from(seat) + 1).as_bytes());
        }
        rows.push(b',');
        rows.extend_from_slice(record.outcome.name().as_bytes());
        rows.push(b',');
        rows.extend_from_slice(number.format(record.wars).as_bytes());
        rows.push(b',');
        rows.extend_from_slice(number.format(record.longest_war).as_bytes());
        rows.push(b',');
        rows.extend_from_slice(record.win_by.map_or("", |by| by.name()).as_bytes());
        rows.push(b',');
        rows.extend_from_slice(number.format(record.cards_played).as_bytes());
        rows.push(b'\n');
    }
}

/// Writes the summary as a header row and one value row.
pub fn write_summary_csv(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(out);
    let fields = summary.fields();
    out.write_record(fields.iter().map(|(k, _)| k.as_str()))
        .map_err(into_io)?;
    out.write_record(fields.iter().map(|(_, v)| v.to_string()))
        .map_err(into_io)?;
    out.flush()
}

/// The underlying I/O error of a CSV error, so a broken pipe stays recognisable.
pub fn into_io(error: csv::Error) -> io::Error {
    if !error.is_io_error() {
        return io::Error::other(error.to_string());
    }
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        _ => unreachable!("is_io_error said so"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Controls, run_batch};
    use crate::engine::Preset;
    use crate::export::Target;

    /// A sweep-like CSV (a leading `cell` column of 4) of `path`.
    fn cell_csv(path: &std::path::Path) -> GameCsv {
        let out = Stream::create(&Target::File(path.into())).unwrap();
        let mut csv = GameCsv::with_columns(out, &["cell"]);
        csv.start_batch(&["4".to_string()]);
        csv
    }

    #[test]
    fn rows_the_workers_format_are_those_the_writer_would() {
        let dir = tempfile::tempdir().unwrap();
        let spec = BatchSpec {
            rules: Preset::WarSimulator.rules(),
            first: 10,
            games: 3_000,
            seed: 7,
            threads: 2,
        };
        let records = spec.played_one_by_one();
        let by_writer = dir.path().join("writer.csv");
        let mut csv = cell_csv(&by_writer);
        csv.write_games(&spec, 10, &records, None).unwrap();
        csv.finish().unwrap();
        let expected = fs_text(&by_writer);
        assert_eq!(expected.lines().count(), 3_001);
        assert!(expected.starts_with("cell,game,") && expected.contains("\n4,10,"));
        // The formatter's rows, for the first half; the writer's own, for the rest.
        let mixed = dir.path().join("mixed.csv");
        let mut csv = cell_csv(&mixed);
        let mut rows = Vec::new();
        (csv.row_formatter().unwrap())(&spec, 10, &records[..1_500], &mut rows);
        csv.write_games(&spec, 10, &records[..1_500], Some(&rows))
            .unwrap();
        csv.write_games(&spec, 1_510, &records[1_500..], None)
            .unwrap();
        csv.finish().unwrap();
        assert!(fs_text(&mixed) == expected, "the formatter's rows differ");
        // A batch, its rows formatted wherever a worker or the writer was free.
        let batch = dir.path().join("batch.csv");
        let mut csv = cell_csv(&batch);
        run_batch(&spec, Some(&mut csv), &Controls::none()).unwrap();
        csv.finish().unwrap();
        assert!(fs_text(&batch) == expected, "the batch's rows differ");
    }

    fn fs_text(path: &std::path::Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }
}
