//! Exporters: the per-game CSV stream, the one-row summary CSV, the summary JSON and the text
//! report. CSV and JSON share one ordered list of figures ([`Summary`]) so their keys never drift.

mod as_found;
pub(crate) mod csv;
mod fifo;
mod figure;
mod files;
mod games;
mod hdr;
mod histogram;
mod in_hand;
mod json;
mod lines;
mod names;
mod other_programs;
mod parquet_file;
mod replace;
mod room;
mod stream;
mod summary;
pub mod text;
mod write_behind;

pub use self::csv::{GAME_CSV_HEADER, GameCsv, into_io, write_summary_csv};
pub use as_found::WrittenMeanwhile;
pub use fifo::StoppedWaiting;
pub use figure::{Figure, Proportion};
pub use files::{OutputError, check_apart_from_inputs, check_outputs, folder_of, replaceable};
pub use games::{CsvEnd, GameFiles, Which};
pub use hdr::{HDR_DIGITS, hdr_tag, write_hdr_log};
pub use histogram::{HISTOGRAM_HEADER, write_histogram_csv, write_histogram_table};
pub use in_hand::{IN_HAND, LEAST_IN_HAND, RoomShort};
pub use json::{summary_json_line, write_summary_json};
pub use lines::{WholeLines, last_row_of};
pub use other_programs::{AnotherWriter, Lost, lost_bytes};
pub use parquet_file::{
    GameParquet, HeldGroups, Holding, LeadKind, MAX_PARQUET_GAMES, NotResumable,
    PARQUET_SUMMARY_KEY, ROW_GROUP, check_resumable, discard_saved_tail, forget_saved_tail,
};
pub use replace::{held_by_another, write_atomically};
pub use room::{RoomWarning, RoomWatch, Shortfall};
pub use stream::Stream;
pub use summary::{Lengths, QUANTILES, RunInfo, SeatWins, Setup, Summary, Timing, rule_fields};
pub use text::write_text_report;

use std::path::PathBuf;

/// Where an output goes: a file, or standard output for `-`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    File(PathBuf),
}

impl Target {
    /// `-` is standard output; anything else a path.
    pub fn parse(text: &str) -> Target {
        if text == "-" {
            Target::Stdout
        } else {
            Target::File(PathBuf::from(text))
        }
    }

    /// True for a file each checkpoint can replace, or read back: a regular file, or a path
    /// with nothing yet. Standard output, pipes and devices take only the final state:
    /// checkpoints written one after the other into a stream would make it several documents,
    /// none to resume from; nor can a Parquet file sent there be read back to go on with.
    pub fn keeps_checkpoints(&self) -> bool {
        match self {
            Target::Stdout => false,
            Target::File(path) => replaceable(path),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Stdout => f.write_str("standard output"),
            Target::File(path) => write!(f, "{}", path.display()),
        }
    }
}
