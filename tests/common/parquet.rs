//! Parquet files read back with the parquet crate's own reader.

use std::fs::File;
use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

/// Every row of the file as a CSV line, and the number of row groups.
pub fn rows_as_csv(path: &Path) -> (Vec<String>, usize) {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let groups = reader.metadata().num_row_groups();
    let lines = reader
        .into_iter()
        .map(|row| {
            let row = row.unwrap();
            let cells: Vec<String> = row
                .get_column_iter()
                .map(|(_, field)| match field {
                    Field::Null => String::new(),
                    Field::Str(text) => text.clone(),
                    other => other.to_string(),
                })
                .collect();
            cells.join(",")
        })
        .collect();
    (lines, groups)
}
