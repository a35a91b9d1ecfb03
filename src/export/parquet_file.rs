//! The per-game table in Apache Parquet (`--parquet`): typed columns (`seed` an unsigned 64-bit
//! integer, `winner` nullable, `outcome` and `decided_by` dictionary-encoded strings, the counts
//! delta-packed), snappy-compressed, streamed in row groups of [`ROW_GROUP`] games, so memory
//! stays bounded however many games a run plays. A sweep adds its cells' settings as leading
//! columns. Written with the `parquet` crate's column writers, without Arrow.
//!
//! A Parquet file is readable only once its footer is written, at the end ([`GameParquet::close`]):
//! a run stopped by a signal still ends it properly, so every game handed to it counts as
//! written; after a write error the file has no footer and cannot be read. The footer's
//! key-value metadata carries the run's summary ([`PARQUET_SUMMARY_KEY`]), so the file names
//! what made it.

use std::io;
use std::sync::Arc;

use parquet::basic::{Compression, Encoding};
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;

use crate::batch::{BatchSpec, RecordSink};
use crate::engine::{GameRecord, Outcome, WinBy};

use super::files::Stream;

/// Games in a row group: about 10 MB of buffered columns. A file holds at most 2^15 row
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

/// The games' columns, buffered until a row group is full.
#[derive(Default)]
struct Rows {
    batch: Vec<u32>,
    game: Vec<i64>,
    seed: Vec<i64>,
    rounds: Vec<i32>,
    winner: Vec<i32>,
    winner_defined: Vec<i16>,
    outcome: Vec<u8>,
    wars: Vec<i32>,
    longest_war: Vec<i32>,
    decided_by: Vec<u8>,
    decided_defined: Vec<i16>,
    cards_played: Vec<i64>,
}

impl Rows {
    fn with_capacity(n: usize) -> Rows {
        Rows {
            batch: Vec::with_capacity(n),
            game: Vec::with_capacity(n),
            seed: Vec::with_capacity(n),
            rounds: Vec::with_capacity(n),
            winner: Vec::with_capacity(n),
            winner_defined: Vec::with_capacity(n),
            outcome: Vec::with_capacity(n),
            wars: Vec::with_capacity(n),
            longest_war: Vec::with_capacity(n),
            decided_by: Vec::with_capacity(n),
            decided_defined: Vec::with_capacity(n),
            cards_played: Vec::with_capacity(n),
        }
    }
}

/// The key of the footer's metadata that holds the run's summary as `--json` writes it (a
/// sweep's: the sweep's JSON).
pub const PARQUET_SUMMARY_KEY: &str = "warsim";

/// Streams game records into a Parquet file (see the module doc).
pub struct GameParquet {
    out: Option<Stream>,
    writer: Option<SerializedFileWriter<Stream>>,
    leads: Vec<(String, LeadKind)>,
    /// The leading columns' values of every batch begun.
    batches: Vec<Vec<String>>,
    rows: Rows,
    /// Games handed over (buffered or written), and where the current batch began among them.
    taken: u64,
    batch_base: u64,
}

impl GameParquet {
    /// Takes the output; `leads` name the columns before the game's own (a sweep's settings),
    /// filled in by [`GameParquet::start_batch`].
    pub fn new(out: Stream, leads: &[(&str, LeadKind)]) -> GameParquet {
        GameParquet {
            out: Some(out),
            writer: None,
            leads: leads.iter().map(|(n, k)| (n.to_string(), *k)).collect(),
            batches: vec![vec![String::new(); leads.len()]],
            rows: Rows::default(),
            taken: 0,
            batch_base: 0,
        }
    }

    /// Starts the rows of another batch (game numbers from 0 again) led by `values`.
    pub fn start_batch(&mut self, values: &[String]) {
        self.batch_base = self.taken;
        self.batches.push(values.to_vec());
    }

    /// Removes the output if this run created it and no game was written to it.
    pub fn discard_if_empty(mut self) {
        if self.taken == 0
            && let Some(out) = self.out.take()
        {
            out.discard();
        }
    }

    fn schema(&self) -> String {
        let mut fields: Vec<String> = self
            .leads
            .iter()
            .map(|(name, kind)| match kind {
                LeadKind::Number => format!("REQUIRED INT32 {name} (INTEGER(32,false));"),
                LeadKind::Name => format!("REQUIRED BYTE_ARRAY {name} (STRING);"),
            })
            .collect();
        fields.extend(
            [
                "REQUIRED INT64 game (INTEGER(64,false));",
                "REQUIRED INT64 seed (INTEGER(64,false));",
                "REQUIRED INT32 rounds (INTEGER(32,false));",
                "OPTIONAL INT32 winner (INTEGER(8,false));",
                "REQUIRED BYTE_ARRAY outcome (STRING);",
                "REQUIRED INT32 wars (INTEGER(32,false));",
                "REQUIRED INT32 longest_war (INTEGER(32,false));",
                "OPTIONAL BYTE_ARRAY decided_by (STRING);",
                "REQUIRED INT64 cards_played (INTEGER(64,false));",
            ]
            .map(String::from),
        );
        format!("message games {{ {} }}", fields.join(" "))
    }

    fn writer(&mut self) -> io::Result<&mut SerializedFileWriter<Stream>> {
        if self.writer.is_none() {
            let schema = parse_message_type(&self.schema()).map_err(io::Error::other)?;
            let mut properties = WriterProperties::builder()
                .set_compression(Compression::SNAPPY)
                // Minimum and maximum per column chunk, not per page: the same for readers that
                // skip row groups, and less work per value.
                .set_statistics_enabled(EnabledStatistics::Chunk)
                .set_created_by(format!("warsim {}", env!("CARGO_PKG_VERSION")));
            // Counts change little from row to row or are small: delta-packed, not dictionaries.
            for column in ["game", "rounds", "wars", "longest_war", "cards_played"] {
                let path = ColumnPath::from(column);
                properties = properties
                    .set_column_dictionary_enabled(path.clone(), false)
                    .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED);
            }
            // Names take their few values from the dictionary: no minimum and maximum to keep.
            for column in ["outcome", "decided_by"] {
                properties = properties.set_column_statistics_enabled(
                    ColumnPath::from(column),
                    EnabledStatistics::None,
                );
            }
            // Seeds are random: no dictionary, and nothing for a codec to find.
            let seed = ColumnPath::from("seed");
            properties = properties
                .set_column_dictionary_enabled(seed.clone(), false)
                .set_column_compression(seed, Compression::UNCOMPRESSED);
            let out = self
                .out
                .take()
                .expect("the output is there until the writer takes it");
            let writer =
                SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties.build()))
                    .map_err(io::Error::other)?;
            self.writer = Some(writer);
        }
        Ok(self.writer.as_mut().expect("just made"))
    }

    /// Writes the buffered rows as one row group.
    fn write_group(&mut self) -> io::Result<()> {
        let rows = std::mem::replace(&mut self.rows, Rows::with_capacity(ROW_GROUP));
        let leads = self.leads.clone();
        let batches = std::mem::take(&mut self.batches);
        let result = (|| -> parquet::errors::Result<()> {
            let writer = self
                .writer()
                .map_err(|e| parquet::errors::ParquetError::External(Box::new(e)))?;
            let mut group = writer.next_row_group()?;
            for (index, (_, kind)) in leads.iter().enumerate() {
                let values = rows.batch.iter().map(|&b| &batches[b as usize][index]);
                let mut column = group.next_column()?.expect("the schema has this column");
                match kind {
                    LeadKind::Number => {
                        let numbers: Vec<i32> = values
                            .map(|v| v.parse::<u32>().unwrap_or(0) as i32)
                            .collect();
                        column
                            .typed::<Int32Type>()
                            .write_batch(&numbers, None, None)?;
                    }
                    LeadKind::Name => {
                        let arrays: Vec<ByteArray> = (batches.iter())
                            .map(|b| ByteArray::from(b[index].as_str()))
                            .collect();
                        let names: Vec<ByteArray> = (rows.batch.iter())
                            .map(|&b| arrays[b as usize].clone())
                            .collect();
                        column
                            .typed::<ByteArrayType>()
                            .write_batch(&names, None, None)?;
                    }
                }
                column.close()?;
            }
            let mut next = |write: &mut dyn FnMut(
                &mut parquet::file::writer::SerializedColumnWriter<'_>,
            )
                -> parquet::errors::Result<usize>|
             -> parquet::errors::Result<()> {
                let mut column = group.next_column()?.expect("the schema has this column");
                write(&mut column)?;
                column.close()
            };
            next(&mut |c| c.typed::<Int64Type>().write_batch(&rows.game, None, None))?;
            next(&mut |c| c.typed::<Int64Type>().write_batch(&rows.seed, None, None))?;
            next(&mut |c| c.typed::<Int32Type>().write_batch(&rows.rounds, None, None))?;
            next(&mut |c| {
                c.typed::<Int32Type>()
                    .write_batch(&rows.winner, Some(&rows.winner_defined), None)
            })?;
            // One array per name, cloned per value: over static bytes a clone copies a pointer
            // (no allocation, no reference count; those took a sixth of this thread's time).
            let outcome_names = Outcome::ALL.map(|o| static_name(o.name()));
            let outcomes: Vec<ByteArray> = (rows.outcome.iter())
                .map(|&o| outcome_names[o as usize].clone())
                .collect();
            next(&mut |c| {
                c.typed::<ByteArrayType>()
                    .write_batch(&outcomes, None, None)
            })?;
            next(&mut |c| c.typed::<Int32Type>().write_batch(&rows.wars, None, None))?;
            next(&mut |c| {
                c.typed::<Int32Type>()
                    .write_batch(&rows.longest_war, None, None)
            })?;
            let win_by_names = WinBy::ALL.map(|by| static_name(by.name()));
            let decided: Vec<ByteArray> = (rows.decided_by.iter())
                .map(|&by| win_by_names[by as usize].clone())
                .collect();
            next(&mut |c| {
                c.typed::<ByteArrayType>()
                    .write_batch(&decided, Some(&rows.decided_defined), None)
            })?;
            next(&mut |c| {
                c.typed::<Int64Type>()
                    .write_batch(&rows.cards_played, None, None)
            })?;
            group.close()?;
            Ok(())
        })();
        // Only the batch being written on stays wanted.
        self.batches = vec![batches.last().cloned().unwrap_or_default()];
        result.map_err(into_io)
    }
}

/// A name as a Parquet string whose clones share its static bytes.
fn static_name(name: &'static str) -> ByteArray {
    ByteArray::from(bytes::Bytes::from_static(name.as_bytes()))
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
            rows.wars.push(record.wars as i32);
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
            if rows.game.len() == ROW_GROUP {
                self.write_group()?;
            }
        }
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

impl GameParquet {
    /// Writes the last row group and the footer: the file is complete and readable. The
    /// footer's key-value metadata holds `summary` under the key [`PARQUET_SUMMARY_KEY`], so
    /// the file says which rules, seed and games made it.
    pub fn close(mut self, summary: String) -> io::Result<()> {
        if !self.rows.game.is_empty() {
            self.write_group()?;
        }
        self.writer()?;
        let mut writer = self.writer.take().expect("just made");
        writer.append_key_value_metadata(KeyValue::new(PARQUET_SUMMARY_KEY.to_string(), summary));
        // `finish` (the footer, then a flush through to the file) keeps a write error's own
        // kind; `into_inner` would turn it into text ("fail to get inner writer: …").
        writer.finish().map_err(into_io)?;
        Ok(())
    }
}
