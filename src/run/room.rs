//! The warning that a per-game file's disk will not hold the games still to come: set up for
//! a run's or a sweep's per-game files, told by the file once it holds enough rows to judge.

use crate::export::text::group;
use crate::export::{GameFiles, ROW_GROUP, RoomWatch, Shortfall, Target, Which};

/// Asks whether the disks of the per-game files given (`(flag, target)` of the CSV and of the
/// Parquet file) have room for the `rows` each is to hold when the batch is done (a resumed
/// run's among them); where one has not, a run (`batch` is "run") or a sweep says so in one
/// `warning:` line above the progress bar, and plays on.
pub fn watch_room(
    files: &mut GameFiles,
    outputs: [(&'static str, Option<&Target>); 2],
    rows: u64,
    batch: &'static str,
    bar: &indicatif::ProgressBar,
) {
    let [csv, parquet] = outputs;
    let row_groups = group(ROW_GROUP as u64);
    for ((flag, target), which, kept) in [
        (
            csv,
            Which::Csv,
            "keeping every finished game on a whole row".to_string(),
        ),
        (
            parquet,
            Which::Parquet,
            format!("keeping the Parquet file's whole row groups ({row_groups} games each)"),
        ),
    ] {
        let Some(target) = target else {
            continue;
        };
        let (path, bar) = (target.to_string(), bar.clone());
        let warn = Box::new(move |short: Shortfall| {
            // Where the file keeps room in hand, it and the files beside it end whole in it.
            let stops = match short.in_hand {
                Some(bytes) => format!(
                    "when less than {} MiB is left (kept in hand to end every file whole) the \
                     {batch} stops, keeping every finished game",
                    bytes.div_ceil(1 << 20)
                ),
                None => format!("when it is full the {batch} stops, {kept}"),
            };
            bar.suspend(|| {
                say!(
                    "warning: {flag} {path}: at {:.0} bytes a game so far, the {} games still to \
                     come need about {}, and its disk has {} free: {stops}",
                    short.bytes_per_row,
                    group(short.rows_left),
                    indicatif::DecimalBytes(short.need),
                    indicatif::DecimalBytes(short.free),
                );
            });
        });
        files.watch_room(which, RoomWatch::new(rows, warn));
    }
}
