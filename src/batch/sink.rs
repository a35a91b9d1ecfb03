//! Where a batch's records go: the [`RecordSink`] a per-game file implements, and a sink that
//! keeps nothing, for batches that only need their games put in order.

use std::io;

use crate::engine::GameRecord;

use super::BatchSpec;

/// Receives the records of a batch in game order.
pub trait RecordSink: Send {
    /// Takes the records of games `first`, `first + 1`, ... (always the games after the last
    /// ones taken).
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
    ) -> io::Result<()>;
    /// Games whose rows are wholly in the output, counted from game 0. After an error, the
    /// output ends on the last of them.
    fn committed(&self) -> u64;
    /// Writes out everything taken.
    fn finish(&mut self) -> io::Result<()>;
    /// Makes what was written out durable (on the disk, or the file server), so that a state
    /// file counting it survives a crash of the machine, not only of the process.
    fn persist(&mut self) -> io::Result<()> {
        Ok(())
    }
    /// Bytes wholly written to the output (where a resumed run continues it); 0 where that
    /// means nothing.
    fn position(&self) -> u64 {
        0
    }
}

/// A sink that keeps nothing: a batch saving checkpoints without a per-game file still puts its
/// games in order, so that what a checkpoint counts is a whole prefix.
pub(super) struct Nowhere(pub(super) u64);

impl RecordSink for Nowhere {
    fn write_games(&mut self, _: &BatchSpec, _: u64, records: &[GameRecord]) -> io::Result<()> {
        self.0 += records.len() as u64;
        Ok(())
    }
    fn committed(&self) -> u64 {
        self.0
    }
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}
