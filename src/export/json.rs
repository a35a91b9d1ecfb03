//! The summary as one JSON object, keys in the order of [`Summary`].

use std::io::{self, Write};

use super::Summary;

/// The summary as one line of JSON, as the Parquet file's metadata holds it.
pub fn summary_json_line(summary: &Summary) -> String {
    // Numbers, text and options only (no map with other keys than text): it always serialises.
    serde_json::to_string(summary).expect("a summary serialises to JSON")
}

/// Writes the summary as pretty JSON followed by a newline.
pub fn write_summary_json(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, summary)?;
    writeln!(out)?;
    out.flush()
}
