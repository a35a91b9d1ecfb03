//! CSV outputs: the per-game stream (one row per game, in game order) and the one-row summary.

use std::io::{self, Write};

use crate::batch::{BatchSpec, RecordSink};
use crate::engine::GameRecord;

use super::Summary;
use super::files::Stream;

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

/// Streams game records as CSV rows, formatted into its own buffer so that it knows where every
/// row ends: after a failed write the output is cut back to its last whole row (where it can
/// be: a regular file) and [`RecordSink::committed`] counts exactly the rows it holds.
pub struct GameCsv {
    out: Stream,
    buffer: Vec<u8>,
    /// Where each row in the buffer ends; the first is the header's while it is pending.
    row_ends: Vec<usize>,
    header_pending: bool,
    /// Bytes and game rows wholly written before the buffer.
    written_bytes: u64,
    committed: u64,
    /// Leading columns every row repeats (a sweep cell's settings), with their comma.
    prefix: Vec<u8>,
    /// Rows written before the current batch began: [`RecordSink::committed`] counts from it.
    batch_base: u64,
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
            row_ends: vec![buffer.len()],
            buffer,
            header_pending: true,
            written_bytes: 0,
            committed: 0,
            prefix: Vec::new(),
            batch_base: 0,
        }
    }

    /// Continues a file that already holds `bytes` bytes of whole rows (a resumed run): no
    /// header, the rows appended.
    pub fn resumed(out: Stream, bytes: u64) -> GameCsv {
        let mut csv = GameCsv::new(out).without_header();
        csv.written_bytes = bytes;
        csv
    }

    /// Leaves the header out: the rows can be appended to another file of the same columns
    /// (one shard's rows after another's).
    pub fn without_header(mut self) -> GameCsv {
        self.buffer.clear();
        self.row_ends.clear();
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
        let mut done = 0;
        let mut failure = None;
        while done < self.buffer.len() {
            match self.out.write(&self.buffer[done..]) {
                Ok(0) => {
                    failure = Some(io::Error::from(io::ErrorKind::WriteZero));
                    break;
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let whole_rows = self.row_ends.partition_point(|&end| end <= done);
        let whole_bytes = whole_rows.checked_sub(1).map_or(0, |i| self.row_ends[i]);
        let header = usize::from(self.header_pending);
        self.committed += whole_rows.saturating_sub(header) as u64;
        self.header_pending &= whole_rows == 0;
        self.written_bytes += whole_bytes as u64;
        self.buffer.clear();
        self.row_ends.clear();
        match failure {
            None => Ok(()),
            Some(error) => {
                if done > whole_bytes && !self.out.truncate(self.written_bytes) {
                    return Err(io::Error::new(
                        error.kind(),
                        format!("{error} (the output may end on a partial row)"),
                    ));
                }
                Err(error)
            }
        }
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
    ) -> io::Result<()> {
        let mut number = itoa::Buffer::new();
        for (offset, record) in records.iter().enumerate() {
            let game = first + offset as u64;
            let row = &mut self.buffer;
            row.extend_from_slice(&self.prefix);
            row.extend_from_slice(number.format(game).as_bytes());
            row.push(b',');
            row.extend_from_slice(
                number
                    .format(spec.rules.game_seed(spec.seed, game))
                    .as_bytes(),
            );
            row.push(b',');
            row.extend_from_slice(number.format(record.rounds).as_bytes());
            row.push(b',');
            if let Some(seat) = record.winner {
                row.extend_from_slice(number.format(u32::from(seat) + 1).as_bytes());
            }
            row.push(b',');
            row.extend_from_slice(record.outcome.name().as_bytes());
            row.push(b',');
            row.extend_from_slice(number.format(record.wars).as_bytes());
            row.push(b',');
            row.extend_from_slice(number.format(record.longest_war).as_bytes());
            row.push(b',');
            row.extend_from_slice(record.win_by.map_or("", |by| by.name()).as_bytes());
            row.push(b',');
            row.extend_from_slice(number.format(record.cards_played).as_bytes());
            row.push(b'\n');
            self.row_ends.push(row.len());
            if row.len() >= BUFFER {
                self.write_buffer()?;
            }
        }
        Ok(())
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

    fn persist(&mut self) -> io::Result<()> {
        self.out.persist()
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
