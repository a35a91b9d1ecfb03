//! Where a batch's records go: the [`RecordSink`] a per-game file implements, and a sink that
//! keeps nothing, for batches that only need their games put in order.

use std::io;

use crate::engine::GameRecord;

use super::BatchSpec;

/// Formats the rows of games `first`, `first + 1`, ... (their `records`) onto the bytes given:
/// a sink's [`RecordSink::row_formatter`], run by the worker that played them.
pub type RowFormatter = Box<dyn Fn(&BatchSpec, u64, &[GameRecord], &mut Vec<u8>) + Send + Sync>;

/// Receives the records of a batch in game order.
pub trait RecordSink: Send {
    /// Takes the records of games `first`, `first + 1`, ... (always the games after the last
    /// ones taken), with their `rows` when a worker formatted them with the sink's
    /// [`RecordSink::row_formatter`] (`None`: the sink formats them, if it keeps rows).
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
        rows: Option<&[u8]>,
    ) -> io::Result<()>;
    /// What formats this sink's rows, for the workers to run on the games they play while the
    /// one writer thread is busy: it then only writes them out, so a per-game file keeps up
    /// with many cores. `None` (the default) when the sink formats nothing.
    fn row_formatter(&self) -> Option<RowFormatter> {
        None
    }
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
    /// The last whole row of the output's [`RecordSink::position`] bytes, read from the output
    /// itself (a state keeps it, to know the file again when resumed); empty where there is
    /// none.
    fn last_row(&self) -> io::Result<String> {
        Ok(String::new())
    }
    /// Ends the output readable at a checkpoint, before the state that counts it is written,
    /// its `footer` saying what it holds (a Parquet file, readable only once it has a footer);
    /// [`RecordSink::go_on`] then writes on. Nothing for an output readable as it goes.
    fn seal(&mut self, _footer: String) -> io::Result<()> {
        Ok(())
    }
    /// Writes on after a checkpoint whose state counts what [`RecordSink::seal`] ended.
    fn go_on(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A sink that keeps nothing: a batch saving checkpoints without a per-game file still puts its
/// games in order, so that what a checkpoint counts is a whole prefix.
pub(super) struct Nowhere(pub(super) u64);

impl RecordSink for Nowhere {
    fn write_games(
        &mut self,
        _: &BatchSpec,
        _: u64,
        records: &[GameRecord],
        _: Option<&[u8]>,
    ) -> io::Result<()> {
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
