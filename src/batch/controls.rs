//! How a batch is driven from outside while it runs: progress, an early stop, checkpoints.

use std::io;
use std::time::{Duration, Instant};

use crate::stats::Stats;

/// How a batch is driven from outside: progress reports and a request to stop early. `Prefix`
/// is what a checkpoint saves of the work so far: a run's [`Stats`], an enumeration's tally.
pub struct Controls<'a, Prefix = Stats> {
    /// Called with the number of games each finished range played (an enumeration's: the
    /// sequences of each finished chunk).
    pub progress: &'a (dyn Fn(u64) + Sync),
    /// Polled before each range: once it returns true, no new range is started.
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Checkpoints to save while the batch runs, if any.
    pub checkpoints: Option<Checkpoints<'a, Prefix>>,
}

/// Saving a checkpoint now and then: the statistics of every game written so far (always a whole
/// prefix of the batch) and the record sink's position, once the sink has written out all it
/// took.
pub struct Checkpoints<'a, Prefix = Stats> {
    /// How often, at the least.
    pub every: Duration,
    /// Saves one: the prefix's statistics, the sink's
    /// [`RecordSink::position`](super::RecordSink::position) (an enumeration's: the next
    /// sequence) and its [`RecordSink::last_row`](super::RecordSink::last_row) there (empty for
    /// an enumeration), and why now.
    pub save: &'a (dyn Fn(&Prefix, u64, &str, Occasion) -> io::Result<()> + Sync),
    /// Polled after each hand-over of ranges is written: true (once) when one is asked for now,
    /// from outside.
    pub asked: &'a (dyn Fn() -> bool + Sync),
    /// What the sink's output says of the prefix where it must be ended readable before a
    /// state counts it (a Parquet file's footer: the run's summary so far), if it must
    /// ([`RecordSink::seal`](super::RecordSink::seal)).
    pub footer: Option<Footer<'a, Prefix>>,
    /// When the last checkpoint before this batch was saved (a sweep's, in an earlier cell):
    /// the first is due [`Checkpoints::every`] after it; none, with the first games.
    pub since: Option<Instant>,
}

/// What an output ended at a checkpoint says of the prefix ([`Checkpoints::footer`]).
pub type Footer<'a, Prefix = Stats> = &'a (dyn Fn(&Prefix) -> String + Sync);

/// Why a checkpoint is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// With the first games, or [`Checkpoints::every`] after the last.
    Due,
    /// Asked for now ([`Checkpoints::asked`]), whenever the last was.
    Asked,
}

impl Controls<'static, Stats> {
    /// No progress reports, never stops early.
    pub fn none() -> Controls<'static> {
        Controls {
            progress: &|_| {},
            stop: &|| false,
            checkpoints: None,
        }
    }
}
