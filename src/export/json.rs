//! The summary as one JSON object, keys in the order of [`Summary`].

use std::io::{self, Write};

use super::Summary;

/// Writes the summary as pretty JSON followed by a newline.
pub fn write_summary_json(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, summary)?;
    writeln!(out)?;
    out.flush()
}
