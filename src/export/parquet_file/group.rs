//! One row group of the per-game Parquet file: its games' columns as they are gathered, and
//! their encoding, either straight into the file by the writer thread or into column chunks in
//! memory on a thread of its own. Then the writer thread only appends the encoded bytes, in
//! order (`append_column`, as parquet-rs's `parquet-concat` does), and keeps up with many
//! workers. The chunks are those the column writers write to the file directly: the same
//! encoders, the same bytes. The columns themselves, and how each is encoded, are set here too
//! ([`schema`], [`properties`]).

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Encoding};
use parquet::column::writer::{ColumnCloseResult, get_column_writer, get_typed_column_writer};
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int32Type, Int64Type};
use parquet::errors::Result;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::{ColumnPath, SchemaDescPtr, SchemaDescriptor};

use super::LeadKind;
use crate::engine::{Outcome, WinBy};
use crate::export::stream::Stream;

/// The games' columns, gathered until a row group is full.
#[derive(Default)]
pub(super) struct Rows {
    pub batch: Vec<u32>,
    pub game: Vec<i64>,
    pub seed: Vec<i64>,
    pub rounds: Vec<i32>,
    pub winner: Vec<i32>,
    pub winner_defined: Vec<i16>,
    pub outcome: Vec<u8>,
    pub wars: Vec<i64>,
    pub longest_war: Vec<i32>,
    pub decided_by: Vec<u8>,
    pub decided_defined: Vec<i16>,
    pub cards_played: Vec<i64>,
}

impl Rows {
    /// Empties the columns, keeping their memory for the next row group: fresh memory would
    /// be faulted in page by page (about 3,700 faults a group).
    pub fn cleared(mut self) -> Rows {
        // Every column named, with no `..`: one added to `Rows` but not cleared here would
        // carry its rows into the next group, so it must not compile.
        let Rows {
            batch,
            game,
            seed,
            rounds,
            winner,
            winner_defined,
            outcome,
            wars,
            longest_war,
            decided_by,
            decided_defined,
            cards_played,
        } = &mut self;
        batch.clear();
        game.clear();
        seed.clear();
        rounds.clear();
        winner.clear();
        winner_defined.clear();
        outcome.clear();
        wars.clear();
        longest_war.clear();
        decided_by.clear();
        decided_defined.clear();
        cards_played.clear();
        self
    }

    pub fn with_capacity(n: usize) -> Rows {
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

/// What a row group is encoded with: the file's schema and properties, and its leading columns
/// (a sweep's settings).
#[derive(Clone)]
pub(super) struct Layout {
    pub schema: SchemaDescPtr,
    pub properties: WriterPropertiesPtr,
    pub leads: Vec<(String, LeadKind)>,
}

/// A row group's column chunks, encoded: each chunk's bytes with what closing its writer
/// returned (its metadata, as `append_column` takes it).
pub(super) type Chunks = Vec<(Bytes, ColumnCloseResult)>;

/// Where a row group's columns go, one after the other in the schema's order.
pub(super) trait Columns {
    /// Writes the next column: `values`, with their definition levels for a nullable one.
    fn column<T: DataType>(&mut self, values: &[T::T], defined: Option<&[i16]>) -> Result<()>;
}

/// Columns written straight into the file's row group, by the writer thread.
impl Columns for SerializedRowGroupWriter<'_, Stream> {
    fn column<T: DataType>(&mut self, values: &[T::T], defined: Option<&[i16]>) -> Result<()> {
        let mut column = self.next_column()?.expect("the schema has this column");
        column.typed::<T>().write_batch(values, defined, None)?;
        column.close()
    }
}

/// Columns encoded in memory, each into a chunk of its own (on a thread of their own).
pub(super) struct InMemory<'a> {
    layout: &'a Layout,
    next: usize,
    pub chunks: Chunks,
}

impl<'a> InMemory<'a> {
    pub fn new(layout: &'a Layout) -> InMemory<'a> {
        InMemory {
            layout,
            next: 0,
            chunks: Vec::new(),
        }
    }
}

impl Columns for InMemory<'_> {
    fn column<T: DataType>(&mut self, values: &[T::T], defined: Option<&[i16]>) -> Result<()> {
        let column = self.layout.schema.column(self.next);
        self.next += 1;
        let mut out = TrackedWrite::new(Vec::new());
        let closed = {
            let pages = Box::new(SerializedPageWriter::new(&mut out));
            let writer = get_column_writer(column, self.layout.properties.clone(), pages);
            let mut writer = get_typed_column_writer::<T>(writer);
            writer.write_batch(values, defined, None)?;
            writer.close()?
        };
        self.chunks.push((Bytes::from(out.into_inner()?), closed));
        Ok(())
    }
}

/// Writes `rows` as one row group's columns to `out`; `batches` holds the leading columns'
/// values of the batches `rows.batch` indexes.
pub(super) fn encode(
    out: &mut impl Columns,
    leads: &[(String, LeadKind)],
    rows: &Rows,
    batches: &[Vec<String>],
) -> Result<()> {
    for (index, (_, kind)) in leads.iter().enumerate() {
        let values = rows.batch.iter().map(|&b| &batches[b as usize][index]);
        match kind {
            LeadKind::Number => {
                let numbers: Vec<i32> = values
                    .map(|v| v.parse::<u32>().unwrap_or(0) as i32)
                    .collect();
                out.column::<Int32Type>(&numbers, None)?;
            }
            LeadKind::Name => {
                let arrays: Vec<ByteArray> = (batches.iter())
                    .map(|b| ByteArray::from(b[index].as_str()))
                    .collect();
                let names: Vec<ByteArray> = (rows.batch.iter())
                    .map(|&b| arrays[b as usize].clone())
                    .collect();
                out.column::<ByteArrayType>(&names, None)?;
            }
        }
    }
    out.column::<Int64Type>(&rows.game, None)?;
    out.column::<Int64Type>(&rows.seed, None)?;
    out.column::<Int32Type>(&rows.rounds, None)?;
    out.column::<Int32Type>(&rows.winner, Some(&rows.winner_defined))?;
    // One array per name, cloned per value: over static bytes a clone copies a pointer (no
    // allocation, no reference count; those took a sixth of the writer thread's time).
    let outcome_names = Outcome::ALL.map(|o| static_name(o.name()));
    let outcomes: Vec<ByteArray> = (rows.outcome.iter())
        .map(|&o| outcome_names[o as usize].clone())
        .collect();
    out.column::<ByteArrayType>(&outcomes, None)?;
    out.column::<Int64Type>(&rows.wars, None)?;
    out.column::<Int32Type>(&rows.longest_war, None)?;
    let win_by_names = WinBy::ALL.map(|by| static_name(by.name()));
    let decided: Vec<ByteArray> = (rows.decided_by.iter())
        .map(|&by| win_by_names[by as usize].clone())
        .collect();
    out.column::<ByteArrayType>(&decided, Some(&rows.decided_defined))?;
    out.column::<Int64Type>(&rows.cards_played, None)
}

/// A name as a Parquet string whose clones share its static bytes.
fn static_name(name: &'static str) -> ByteArray {
    ByteArray::from(Bytes::from_static(name.as_bytes()))
}

/// The file's schema: the leading columns (`leads`), then the game's own. The leading columns
/// are named after warsim's own settings, never by the user, so it always parses.
pub(super) fn schema(leads: &[(String, LeadKind)]) -> SchemaDescPtr {
    let mut fields: Vec<String> = leads
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
            "REQUIRED INT64 wars (INTEGER(64,false));",
            "REQUIRED INT32 longest_war (INTEGER(32,false));",
            "OPTIONAL BYTE_ARRAY decided_by (STRING);",
            "REQUIRED INT64 cards_played (INTEGER(64,false));",
        ]
        .map(String::from),
    );
    let text = format!("message games {{ {} }}", fields.join(" "));
    let parsed = parse_message_type(&text).expect("warsim's schema parses");
    Arc::new(SchemaDescriptor::new(Arc::new(parsed)))
}

/// How every column is encoded and compressed; with an offset index (where each page begins)
/// unless `offset_index` is false: a file whose row groups so far have none, as a Parquet
/// writer cannot list some column chunks with an index and others without.
pub(super) fn properties(offset_index: bool) -> WriterPropertiesPtr {
    let mut properties = WriterProperties::builder()
        .set_offset_index_disabled(!offset_index)
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
        properties = properties
            .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
    }
    // Seeds are random: no dictionary, and nothing for a codec to find.
    let seed = ColumnPath::from("seed");
    properties = properties
        .set_column_dictionary_enabled(seed.clone(), false)
        .set_column_compression(seed, Compression::UNCOMPRESSED);
    Arc::new(properties.build())
}
