//! The length histogram as an HdrHistogram interval log (`.hlog`): the text format HdrHistogram's
//! own tools read (Java's `HistogramLogReader`, Python's `hdrhistogram`), one interval per run,
//! each a base64 V2-deflate histogram of the finished games' lengths (3 significant digits),
//! tagged with the run's settings and which games it holds (`key=value;…`, the summary's keys).
//! Logs of several runs concatenate and merge.
//! Capped and cycling games have no length: the tag counts them (`capped=`, `cycle=`, which
//! counts abandoned games too: they never end either).

use std::io::{self, Write};
use std::time::Duration;

use hdrhistogram::Histogram;
use hdrhistogram::serialization::V2DeflateSerializer;
use hdrhistogram::serialization::interval_log::{IntervalLogWriterBuilder, Tag};

use crate::stats::Stats;

use super::{Figure, RunInfo, Summary};

/// Significant digits of the exported histogram.
pub const HDR_DIGITS: u8 = 3;

/// The tag of a run's interval, `key=value;…`: the summary's keys from `warsim_version` to
/// `complete` (every setting that changes a game, the seed, which games of which batch; so tags
/// join summaries, and `shard`/`shards` only for a shard: a tag has no empty values), then its
/// censored games.
pub fn hdr_tag(info: &RunInfo, stats: &Stats) -> String {
    let lengths = stats.lengths();
    let mut pairs: Vec<String> = Summary::new(info, stats)
        .run_fields()
        .into_iter()
        .filter(|(_, value)| *value != Figure::Missing)
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    pairs.push(format!("capped={}", lengths.capped_games()));
    pairs.push(format!("cycle={}", lengths.never_games()));
    pairs.join(";")
}

/// Writes the log: a comment line, then one interval per run (a sweep's cells, one after
/// another in time) holding its finished games' lengths, tagged with [`hdr_tag`].
pub fn write_hdr_log(out: &mut dyn Write, runs: &[(&RunInfo, &Stats)]) -> io::Result<()> {
    let mut serializer = V2DeflateSerializer::new();
    let mut builder = IntervalLogWriterBuilder::new();
    builder.add_comment(&format!(
        "warsim {}: game lengths in rounds of finished games; capped and cycling games counted in the tag",
        env!("CARGO_PKG_VERSION")
    ));
    // The log writer wants a sized writer: the text is small, so it goes through a buffer.
    let mut text = Vec::new();
    let mut log = builder.begin_log_with(&mut text, &mut serializer)?;
    let mut start = Duration::ZERO;
    for (info, stats) in runs {
        let lengths = stats.lengths();
        let highest = lengths.max().unwrap_or(1).max(2);
        let mut histogram = Histogram::<u64>::new_with_bounds(1, highest, HDR_DIGITS)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        for (rounds, games) in lengths.counts() {
            histogram
                .record_n(rounds.max(1), games)
                .map_err(|e| io::Error::other(format!("{e:?}")))?;
        }
        let tag_text = hdr_tag(info, stats);
        let tag =
            Tag::new(&tag_text).ok_or_else(|| io::Error::other("a run's tag has no spaces"))?;
        log.write_histogram(&histogram, start, info.elapsed, Some(tag))
            .map_err(|e| io::Error::other(format!("could not write the histogram: {e:?}")))?;
        start = start.saturating_add(info.elapsed);
    }
    drop(log);
    out.write_all(&text)?;
    out.flush()
}
