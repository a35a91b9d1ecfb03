//! The short last row group of a stopped run's Parquet file, read back into the columns the
//! resumed writer gathers: the games after it fill the group as they would have in an
//! uninterrupted run, so a resumed file's row groups (and bytes, but for its footer's timings)
//! are the uninterrupted run's. Read with the parquet crate's typed column readers, as written.

use std::fs::File;

use parquet::column::reader::get_typed_column_reader;
use parquet::data_type::{ByteArray, ByteArrayType, DataType, Int32Type, Int64Type};
use parquet::errors::{ParquetError, Result};
use parquet::file::reader::{FileReader, RowGroupReader, SerializedFileReader};

use super::group::Rows;
use crate::engine::{Outcome, WinBy};

/// The `rows` games of row group `group` of `file` (a run's: no leading columns), as gathered.
pub(super) fn read_back(file: File, group: usize, rows: usize, capacity: usize) -> Result<Rows> {
    let reader = SerializedFileReader::new(file)?;
    let group = reader.get_row_group(group)?;
    let group = &*group;
    let mut out = Rows::with_capacity(capacity);
    out.batch.resize(rows, 0);
    column::<Int64Type>(group, 0, rows, &mut out.game, None)?;
    column::<Int64Type>(group, 1, rows, &mut out.seed, None)?;
    column::<Int32Type>(group, 2, rows, &mut out.rounds, None)?;
    let winner = (&mut out.winner, &mut out.winner_defined);
    column::<Int32Type>(group, 3, rows, winner.0, Some(winner.1))?;
    let mut names = Vec::with_capacity(rows);
    column::<ByteArrayType>(group, 4, rows, &mut names, None)?;
    out.outcome = indexes(&names, &Outcome::ALL.map(Outcome::name))?;
    column::<Int64Type>(group, 5, rows, &mut out.wars, None)?;
    column::<Int32Type>(group, 6, rows, &mut out.longest_war, None)?;
    names.clear();
    let decided = Some(&mut out.decided_defined);
    column::<ByteArrayType>(group, 7, rows, &mut names, decided)?;
    out.decided_by = indexes(&names, &WinBy::ALL.map(WinBy::name))?;
    column::<Int64Type>(group, 8, rows, &mut out.cards_played, None)?;
    Ok(out)
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
