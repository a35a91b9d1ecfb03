//! The short last row group of a stopped run's or sweep's Parquet file, read back into the columns
//! (and a sweep's cells' settings) the resumed writer gathers: the games after it fill the group as
//! they would have in an uninterrupted run, so a resumed file's row groups (and bytes, but for its
//! footer's timings) are the uninterrupted run's. Read with the parquet crate's typed column
//! readers, as written.

use std::fs::File;

use parquet::basic::Type;
use parquet::column::reader::get_typed_column_reader;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int32Type, Int64Type};
use parquet::errors::{ParquetError, Result};
use parquet::file::reader::{FileReader, RowGroupReader, SerializedFileReader};

use super::group::Rows;
use crate::engine::{Outcome, WinBy};

/// The `rows` games of row group `group` of `file`, gathered in columns that hold `capacity`,
/// with the values of its `leads` leading columns (a sweep's: its cells' settings) as the
/// batches the rows index, one per run of equal values.
pub(super) fn read_back(
    file: File,
    group: usize,
    (rows, capacity): (usize, usize),
    leads: usize,
) -> Result<(Rows, Vec<Vec<String>>)> {
    let reader = SerializedFileReader::new(file)?;
    let group = reader.get_row_group(group)?;
    let group = &*group;
    let mut out = Rows::with_capacity(capacity);
    let batches = read_leads(group, leads, rows, &mut out.batch)?;
    let at = |column: usize| leads + column;
    column::<Int64Type>(group, at(0), rows, &mut out.game, None)?;
    column::<Int64Type>(group, at(1), rows, &mut out.seed, None)?;
    column::<Int32Type>(group, at(2), rows, &mut out.rounds, None)?;
    let winner = (&mut out.winner, &mut out.winner_defined);
    column::<Int32Type>(group, at(3), rows, winner.0, Some(winner.1))?;
    let mut names = Vec::with_capacity(rows);
    column::<ByteArrayType>(group, at(4), rows, &mut names, None)?;
    out.outcome = indexes(&names, &Outcome::ALL.map(Outcome::name))?;
    column::<Int64Type>(group, at(5), rows, &mut out.wars, None)?;
    column::<Int32Type>(group, at(6), rows, &mut out.longest_war, None)?;
    names.clear();
    let decided = Some(&mut out.decided_defined);
    column::<ByteArrayType>(group, at(7), rows, &mut names, decided)?;
    out.decided_by = indexes(&names, &WinBy::ALL.map(WinBy::name))?;
    column::<Int64Type>(group, at(8), rows, &mut out.cards_played, None)?;
    Ok((out, batches))
}

/// The first `leads` columns' values, each run of rows alike as one batch (their values as
/// the writer was given them: numbers in decimal), its number pushed to `batch` for each row.
/// Without leading columns, one batch of none, as a new writer has. Only a group of rows is
/// read back.
fn read_leads(
    group: &dyn RowGroupReader,
    leads: usize,
    rows: usize,
    batch: &mut Vec<u32>,
) -> Result<Vec<Vec<String>>> {
    let mut columns = Vec::with_capacity(leads);
    for at in 0..leads {
        let lead = match group.metadata().column(at).column_type() {
            Type::INT32 => {
                let mut numbers = Vec::with_capacity(rows);
                column::<Int32Type>(group, at, rows, &mut numbers, None)?;
                Lead::Numbers(numbers)
            }
            _ => {
                let mut names = Vec::with_capacity(rows);
                column::<ByteArrayType>(group, at, rows, &mut names, None)?;
                Lead::Names(names)
            }
        };
        columns.push(lead);
    }
    if leads == 0 {
        batch.resize(rows, 0);
        return Ok(vec![Vec::new()]);
    }
    let mut batches: Vec<Vec<String>> = Vec::new();
    for row in 0..rows {
        if row == 0 || columns.iter().any(|c| c.differs(row - 1, row)) {
            batches.push(columns.iter().map(|c| c.text(row)).collect::<Result<_>>()?);
        }
        batch.push(batches.len() as u32 - 1);
    }
    Ok(batches)
}

/// One leading column's values.
enum Lead {
    Numbers(Vec<i32>),
    Names(Vec<ByteArray>),
}

impl Lead {
    fn differs(&self, a: usize, b: usize) -> bool {
        match self {
            Lead::Numbers(values) => values[a] != values[b],
            Lead::Names(values) => values[a] != values[b],
        }
    }

    fn text(&self, row: usize) -> Result<String> {
        match self {
            // Stored as an unsigned 32-bit integer in INT32's bits.
            Lead::Numbers(values) => Ok((values[row] as u32).to_string()),
            Lead::Names(values) => (values[row].as_utf8())
                .map(str::to_string)
                .map_err(|e| ParquetError::General(e.to_string())),
        }
    }
}

/// Reads the `rows` values of column `at` into `values` (only those defined, with every row's
/// definition level in `defined`, for a nullable column), as the writer gathers them.
fn column<T: DataType>(
    group: &dyn RowGroupReader,
    at: usize,
    rows: usize,
    values: &mut Vec<T::T>,
    defined: Option<&mut Vec<i16>>,
) -> Result<()> {
    let mut reader = get_typed_column_reader::<T>(group.get_column_reader(at)?);
    let (read, _, _) = reader.read_records(rows, defined, None, values)?;
    match read == rows {
        true => Ok(()),
        false => Err(ParquetError::General(format!(
            "column {at} holds {read} rows, not {rows}"
        ))),
    }
}

/// Each name's place among `all` (the order the writer numbers them in).
fn indexes(names: &[ByteArray], all: &[&str]) -> Result<Vec<u8>> {
    let place = |name: &ByteArray| all.iter().position(|known| known.as_bytes() == name.data());
    (names.iter())
        .map(|name| place(name).map(|at| at as u8))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| ParquetError::General("a name warsim does not write".to_string()))
}
