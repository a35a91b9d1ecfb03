//! The writer side of a batch with records: ranges arrive in any order, leave in game order,
//! and each game is counted in the statistics only once the sink has wholly written its row.
//!
//! A worker starts no range more than [`AHEAD`] games past the last game written ([`Room`]), so
//! at most `AHEAD` + one range per worker of records wait in memory, however slow the output.

use std::collections::{BTreeMap, VecDeque};
#[cfg(test)]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use super::{BatchError, BatchSpec, Checkpoints, Occasion, RecordSink};
use crate::engine::GameRecord;
use crate::stats::Stats;

/// Most games played ahead of the last one written (small in unit tests, so that a test of a
/// few thousand games crosses the limit many times).
#[cfg(not(test))]
pub const AHEAD: u64 = 1 << 18;
#[cfg(test)]
pub const AHEAD: u64 = 1 << 9;

/// The games written so far, for workers that must not run too far ahead of them, and whether
/// the writer waits for work.
pub struct Room {
    state: Mutex<(u64, bool)>,
    changed: Condvar,
    writer_idle: AtomicBool,
    /// Hand-overs received, for the tests of `held.rs`.
    #[cfg(test)]
    hand_overs: AtomicU64,
}

impl Room {
    /// Nothing written yet; the batch starts at game `first`.
    pub fn new(first: u64) -> Room {
        Room {
            state: Mutex::new((first, false)),
            changed: Condvar::new(),
            writer_idle: AtomicBool::new(false),
            #[cfg(test)]
            hand_overs: AtomicU64::new(0),
        }
    }

    /// True while the writer waits for a range: a worker then leaves its rows to be formatted
    /// there, on a core of its own when there is one spare, instead of formatting them itself.
    pub fn writer_idle(&self) -> bool {
        self.writer_idle.load(Ordering::Relaxed)
    }

    /// How many times workers have handed ranges over so far.
    #[cfg(test)]
    pub fn hand_overs(&self) -> u64 {
        self.hand_overs.load(Ordering::Relaxed)
    }

    /// True when game `next` is less than [`AHEAD`] games past the written ones and the writer
    /// goes on: a worker may start it without waiting.
    pub fn fits(&self, next: u64) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        room_for(*state, next) == Some(true)
    }

    /// Waits until game `next` is less than [`AHEAD`] games past the written ones; false when
    /// the writer has stopped.
    pub fn wait_for(&self, next: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(room) = room_for(*state, next) {
                return room;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn advance(&self, written: u64, closed: bool) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = (written, closed);
        self.changed.notify_all();
    }
}

/// Whether game `next` may start, given the games written and whether the writer has stopped:
/// false once it has, true within [`AHEAD`] games of the written ones, `None` (wait) past them.
fn room_for((written, closed): (u64, bool), next: u64) -> Option<bool> {
    match closed {
        true => Some(false),
        false => (next < written.saturating_add(AHEAD)).then_some(true),
    }
}

/// A range of games a worker played: the first game, their records, and their rows when the
/// worker formatted them (with the sink's row formatter).
pub type Played = (u64, Vec<GameRecord>, Option<Vec<u8>>);

/// Receives the ranges played (a worker's come a few together, see `held.rs`), writes them to
/// `sink` in game order, and returns the statistics of every game written.
pub fn write_in_order(
    spec: &BatchSpec,
    sink: &mut dyn RecordSink,
    ranges: Receiver<Vec<Played>>,
    room: &Room,
    checkpoints: Option<&Checkpoints>,
) -> Result<Stats, BatchError> {
    let mut ledger = Ledger {
        stats: spec.new_stats(),
        uncounted: VecDeque::new(),
    };
    let mut parked: BTreeMap<u64, (Vec<GameRecord>, Option<Vec<u8>>)> = BTreeMap::new();
    // The next ranges, noting while none has come that the writer is idle (see `Room`).
    let receive = || {
        let ranges = match ranges.try_recv() {
            Ok(ranges) => Some(ranges),
            Err(TryRecvError::Disconnected) => None,
            Err(TryRecvError::Empty) => {
                room.writer_idle.store(true, Ordering::Relaxed);
                let ranges = ranges.recv().ok();
                room.writer_idle.store(false, Ordering::Relaxed);
                ranges
            }
        };
        #[cfg(test)]
        if ranges.is_some() {
            room.hand_overs.fetch_add(1, Ordering::Relaxed);
        }
        ranges
    };
    let mut next = spec.first;
    // The first checkpoint comes with the first range written, so a run killed at any moment
    // after it can be resumed (a sweep's later cells': `every` after the last cell's).
    let mut saved: Option<Instant> = checkpoints.and_then(|c| c.since);
    let mut checkpoint_failed = false;
    let result = (|| -> std::io::Result<()> {
        while let Some(ranges) = receive() {
            for (first, records, rows) in ranges {
                parked.insert(first, (records, rows));
            }
            while let Some((records, rows)) = parked.remove(&next) {
                let written = sink.write_games(spec, next, &records, rows.as_deref());
                next += records.len() as u64;
                ledger.uncounted.extend(records);
                ledger.settle(sink.committed());
                written?;
                room.advance(next, false);
            }
            let occasion = checkpoints.and_then(|c| {
                let due = saved.is_none_or(|at| at.elapsed() >= c.every);
                // Asked or not, the request is taken: a checkpoint due now answers it too.
                match ((c.asked)(), due) {
                    (true, _) => Some((c, Occasion::Asked)),
                    (false, true) => Some((c, Occasion::Due)),
                    (false, false) => None,
                }
            });
            if let Some((checkpoints, occasion)) = occasion {
                // Everything taken is written out first and made durable: the checkpoint's
                // prefix is on disk, and a crash of the machine (a lost node) cannot leave a
                // state counting rows the file lost with the machine's cache.
                sink.finish()?;
                sink.persist()?;
                ledger.settle(sink.committed());
                // A file readable only once ended is ended before the state that counts it.
                if let Some(footer) = checkpoints.footer {
                    sink.seal(footer(&ledger.stats))?;
                }
                sink.last_row()
                    .and_then(|row| {
                        (checkpoints.save)(&ledger.stats, sink.position(), &row, occasion)
                    })
                    .inspect_err(|_| checkpoint_failed = true)?;
                sink.go_on()?;
                saved = Some(Instant::now());
            }
        }
        sink.finish()
    })();
    // Workers waiting for room must not wait for a writer that has stopped.
    room.advance(next, true);
    ledger.settle(sink.committed());
    match result {
        Ok(()) => Ok(ledger.stats),
        Err(source) => Err(BatchError::Write {
            written: ledger.stats.games,
            checkpoint: checkpoint_failed,
            source,
            stats: Box::new(ledger.stats),
        }),
    }
}

/// Games handed to the sink, counted once the sink says their rows are written.
struct Ledger {
    stats: Stats,
    uncounted: VecDeque<GameRecord>,
}

impl Ledger {
    fn settle(&mut self, committed: u64) {
        while self.stats.games < committed {
            let Some(record) = self.uncounted.pop_front() else {
                break;
            };
            self.stats.record(&record);
        }
    }
}
