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

/// Where the row groups of the Parquet file at `path` end (its page indexes and footer follow).
pub fn row_groups_end(path: &Path) -> usize {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    let columns = metadata
        .row_groups()
        .iter()
        .flat_map(|group| group.columns());
    let ends = columns.map(|column| column.byte_range().0 + column.byte_range().1);
    ends.max().unwrap() as usize
}

/// Plays `command` (a `warsim run` or `sweep` command line, whose per-game CSV is `csv_flag`)
/// uninterrupted in `dir`, into `whole.parquet` and `whole.csv`, for [`same_as_whole`].
pub fn played_whole(dir: &Path, command: &str, csv_flag: &str) {
    let whole = format!("{command} --parquet whole.parquet {csv_flag} whole.csv");
    (super::warsim().current_dir(dir))
        .args(whole.split_whitespace())
        .assert()
        .success();
}

/// Checks that `games.parquet` and `games.csv` in `dir`, a run's or sweep's stopped and
/// continued, are those of the same one uninterrupted, `whole.parquet` and `whole.csv`: the
/// rows, in order, in the same row groups, every byte before the page indexes and footer, and
/// the footer's summary but for its timings.
pub fn same_as_whole(dir: &Path) {
    let (rows, groups) = rows_as_csv(&dir.join("games.parquet"));
    let (whole_rows, whole_groups) = rows_as_csv(&dir.join("whole.parquet"));
    assert!(rows == whole_rows, "the uninterrupted rows, in order");
    // The row group the stop cut short was written again whole.
    assert_eq!(groups, whole_groups);
    let [continued, whole] = ["games.parquet", "whole.parquet"].map(|name| {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        bytes[..row_groups_end(&dir.join(name))].to_vec()
    });
    assert!(continued == whole, "the row groups' bytes differ");
    assert_eq!(
        footer_summary(&dir.join("games.parquet")),
        footer_summary(&dir.join("whole.parquet"))
    );
    let csv = std::fs::read(dir.join("games.csv")).unwrap();
    assert!(csv == std::fs::read(dir.join("whole.csv")).unwrap());
}
