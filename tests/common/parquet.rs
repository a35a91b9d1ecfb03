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

/// The summary the file's footer carries (key-value metadata `warsim`), without the two timings
/// that differ from run to run.
pub fn footer_summary(path: &Path) -> serde_json::Value {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap();
    let entry = metadata
        .iter()
        .find(|kv| kv.key == warsim::export::PARQUET_SUMMARY_KEY)
        .unwrap();
    without_timings(serde_json::from_str(entry.value.as_deref().unwrap()).unwrap())
}

/// `value` without the timings that differ from run to run, at any depth.
pub fn without_timings(mut value: serde_json::Value) -> serde_json::Value {
    match &mut value {
        serde_json::Value::Object(map) => {
            map.remove("wall_seconds");
            map.remove("games_per_second");
            for (_, inner) in map.iter_mut() {
                *inner = without_timings(inner.take());
            }
        }
        serde_json::Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_timings(item.take());
            }
        }
        _ => {}
    }
    value
}
