//! The batch runner: plays games 0..N on a rayon pool and streams their records in game order.
//!
//! Games are cut into fixed chunks of [`CHUNK`] games. Game i is played from its own seed
//! (a pure function of the base seed and i), so which thread plays a chunk changes nothing.
//! Each worker keeps its own game state and [`Stats`], locked once per chunk, merged at the end.
//! When records are wanted, chunks are played a window at a time and each finished window goes
//! to a writer thread through a one-slot channel: records leave in game order, at most two
//! windows are held in memory, and playing goes on while the previous window is written.

use std::io;
use std::sync::Mutex;
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use crate::engine::{Engine, GameRecord, Rules};
use crate::stats::Stats;

/// Games per unit of work: large enough that locking and progress updates cost nothing,
/// small enough to balance two threads at the end of a run.
pub const CHUNK: u64 = 4096;
/// Chunks per window when records are streamed.
const WINDOW_CHUNKS: u64 = 64;

/// What to play.
#[derive(Clone, Debug)]
pub struct BatchSpec {
    /// The rules of every game.
    pub rules: Rules,
    /// Number of games.
    pub games: u64,
    /// Base seed: game i is played from `rules.game_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Receives the records of a batch in game order.
pub trait RecordSink: Send {
    /// Takes the records of games `first`, `first + 1`, ...
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
    ) -> io::Result<()>;
    /// Flushes everything written.
    fn finish(&mut self) -> io::Result<()>;
}

/// A batch that could not finish.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The record sink failed; the games before `written` were written.
    #[error("writing game records failed after {written} games: {source}")]
    Write {
        /// Games whose records were written before the failure.
        written: u64,
        /// The I/O error.
        source: io::Error,
    },
    /// The thread pool could not start.
    #[error("could not start {threads} worker threads: {source}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why rayon refused.
        source: rayon::ThreadPoolBuildError,
    },
}

/// One thread's game state and statistics. Aligned to two cache lines so that neighbouring
/// workers' statistics, written after every game, never share a line (false sharing).
#[repr(align(128))]
struct Worker {
    engine: Engine,
    stats: Stats,
}

/// Plays the batch. `progress` is called with the number of games each finished chunk played.
pub fn run_batch(
    spec: &BatchSpec,
    sink: Option<&mut dyn RecordSink>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Stats, BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.threads)
        .build()
        .map_err(|source| BatchError::Pool {
            threads: spec.threads,
            source,
        })?;
    let workers: Vec<Mutex<Worker>> = (0..spec.threads)
        .map(|_| {
            Mutex::new(Worker {
                engine: Engine::for_rules(&spec.rules),
                stats: Stats::new(spec.rules.players as usize, spec.rules.most_rounds()),
            })
        })
        .collect();
    let chunks = spec.games.div_ceil(CHUNK);
    let play_chunk = |chunk: u64, keep: bool| -> Vec<GameRecord> {
        let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
        let mut worker = workers[slot].lock().unwrap_or_else(|e| e.into_inner());
        let Worker { engine, stats } = &mut *worker;
        let first = chunk * CHUNK;
        let last = (first + CHUNK).min(spec.games);
        let mut records = Vec::with_capacity(if keep { (last - first) as usize } else { 0 });
        engine.play_games(&spec.rules, spec.seed, first..last, |record| {
            stats.record(&record);
            if keep {
                records.push(record);
            }
        });
        drop(worker);
        progress(last - first);
        records
    };

    match sink {
        None => pool.install(|| {
            (0..chunks)
                .into_par_iter()
                .for_each(|c| drop(play_chunk(c, false)))
        }),
        Some(sink) => stream_windows(spec, chunks, sink, &|range: std::ops::Range<u64>| {
            pool.install(|| range.into_par_iter().map(|c| play_chunk(c, true)).collect())
        })?,
    }

    let mut total = Stats::new(spec.rules.players as usize, spec.rules.most_rounds());
    for worker in workers {
        total += &worker.into_inner().unwrap_or_else(|e| e.into_inner()).stats;
    }
    Ok(total)
}

type Window = Vec<Vec<GameRecord>>;

/// Plays windows of chunks in order and hands each to a writer thread, one window in flight.
fn stream_windows(
    spec: &BatchSpec,
    chunks: u64,
    sink: &mut dyn RecordSink,
    play_window: &(dyn Fn(std::ops::Range<u64>) -> Window + Sync),
) -> Result<(), BatchError> {
    let (send, receive) = sync_channel::<Window>(1);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> Result<(), BatchError> {
            let mut written = 0u64;
            for window in receive {
                for records in window {
                    sink.write_games(spec, written, &records)
                        .map_err(|source| BatchError::Write { written, source })?;
                    written += records.len() as u64;
                }
            }
            sink.finish()
                .map_err(|source| BatchError::Write { written, source })
        });
        let mut start = 0;
        while start < chunks {
            let end = (start + WINDOW_CHUNKS).min(chunks);
            let window = play_window(start..end);
            if send.send(window).is_err() {
                break; // the writer stopped on an error, which join reports
            }
            start = end;
        }
        drop(send);
        writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    struct Collect(Vec<(u64, GameRecord)>);

    impl RecordSink for Collect {
        fn write_games(
            &mut self,
            _: &BatchSpec,
            first: u64,
            records: &[GameRecord],
        ) -> io::Result<()> {
            self.0.extend(
                records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (first + i as u64, *r)),
            );
            Ok(())
        }
        fn finish(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn records_arrive_in_game_order_and_match_single_games() {
        let spec = BatchSpec {
            rules: Preset::Classic.rules(),
            games: CHUNK * 2 + 17,
            seed: 5,
            threads: 2,
        };
        let mut sink = Collect(Vec::new());
        let stats = run_batch(&spec, Some(&mut sink), &|_| {}).unwrap();
        assert_eq!(stats.games, spec.games);
        assert_eq!(sink.0.len() as u64, spec.games);
        for (expected, (index, record)) in sink.0.iter().enumerate() {
            assert_eq!(*index, expected as u64);
            if expected % 997 == 0 {
                let alone = crate::engine::play_game(&spec.rules, spec.rules.game_seed(5, *index));
                assert_eq!(*record, alone);
            }
        }
    }
}
