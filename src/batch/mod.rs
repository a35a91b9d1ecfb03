//! The batch runner: plays games 0..N on a rayon pool and streams their records in game order.
//!
//! Game i is played from its own seed (a pure function of the base seed and i), so which thread
//! plays it changes nothing. Workers claim contiguous ranges of games in increasing order
//! (`claims.rs`) and always finish what they claimed, so a run that stops early (a signal, a
//! write error) has played exactly games 0..n, and its statistics are those of the prefix.
//! Without records, each worker keeps its own [`Stats`], merged at the end. With records, the
//! finished ranges go to a writer thread that puts them back in order (`ordered.rs`) and counts
//! each game only once its row is wholly written, so the statistics always describe exactly the
//! rows in the file.

mod claims;
mod controls;
mod ordered;
mod shard;
mod sink;

use std::io;
use std::ops::Range;
use std::sync::mpsc::channel;
use std::time::Instant;

use crate::engine::{Engine, GameRecord, Rules};
use crate::stats::Stats;

pub use claims::MAX_CHUNK;
use claims::{Claims, next_size};
pub use controls::{Checkpoints, Controls};
use ordered::{Room, write_in_order};
pub use shard::Shard;
use sink::Nowhere;
pub use sink::RecordSink;

/// What to play.
#[derive(Clone, Debug)]
pub struct BatchSpec {
    /// The rules of every game.
    pub rules: Rules,
    /// The first game: the batch plays games `first..first + games` (a shard of a larger
    /// batch starts past 0; game numbers and seeds are the whole batch's).
    pub first: u64,
    /// Number of games.
    pub games: u64,
    /// Base seed: game i is played from `rules.game_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

impl BatchSpec {
    /// Empty statistics for games of these rules.
    pub fn new_stats(&self) -> Stats {
        Stats::new(
            self.rules.players as usize,
            self.rules.most_rounds(),
            self.rules.max_rounds,
        )
    }
}

/// A batch that could not finish.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The record sink, or saving a checkpoint, failed; games `0..written` are wholly written
    /// and `stats` counts them.
    #[error("writing game records failed after {written} games: {source}")]
    Write {
        /// Games whose records were wholly written before the failure.
        written: u64,
        /// True when saving a checkpoint failed (the records are whole), false when the sink did.
        checkpoint: bool,
        /// The I/O error.
        source: io::Error,
        /// The statistics of the written games.
        stats: Box<Stats>,
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

/// A pool of worker threads, started once and used for any number of batches (a sweep plays
/// every cell on the same workers, with no start-up cost between cells).
pub struct Workers {
    pool: rayon::ThreadPool,
}

impl Workers {
    /// Starts `threads` workers.
    pub fn new(threads: usize) -> Result<Workers, BatchError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(|pool| Workers { pool })
            .map_err(|source| BatchError::Pool { threads, source })
    }
}

/// Plays the batch, or its prefix 0..n when `controls.stop` asks for an early end (then
/// `stats.games` is n).
pub fn run_batch(
    spec: &BatchSpec,
    sink: Option<&mut dyn RecordSink>,
    controls: &Controls,
) -> Result<Stats, BatchError> {
    run_batch_on(&Workers::new(spec.threads)?, spec, sink, controls)
}

/// [`run_batch`] on workers already started (`spec.threads` should be their number: it sizes
/// the ranges they claim).
pub fn run_batch_on(
    workers: &Workers,
    spec: &BatchSpec,
    sink: Option<&mut dyn RecordSink>,
    controls: &Controls,
) -> Result<Stats, BatchError> {
    let pool = &workers.pool;
    let claims = Claims::range(spec.first..spec.first + spec.games, spec.threads);
    let mut nowhere = Nowhere(0);
    let sink = match sink {
        None if controls.checkpoints.is_some() => Some(&mut nowhere as &mut dyn RecordSink),
        sink => sink,
    };
    let Some(sink) = sink else {
        let per_worker = pool.broadcast(|_| {
            let mut stats = spec.new_stats();
            play_claims(spec, &claims, controls, &|| true, |engine, games| {
                engine.play_games(&spec.rules, spec.seed, games, |record| {
                    stats.record(&record)
                });
                true
            });
            stats
        });
        let mut total = spec.new_stats();
        per_worker.iter().for_each(|stats| total += stats);
        return Ok(total);
    };
    let room = Room::new(spec.first);
    let (send, receive) = channel::<(u64, Vec<GameRecord>)>();
    let checkpoints = controls.checkpoints.as_ref();
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| write_in_order(spec, sink, receive, &room, checkpoints));
        pool.broadcast(|_| {
            let send = send.clone();
            let has_room = || room.wait_for(claims.next());
            play_claims(spec, &claims, controls, &has_room, |engine, games| {
                let first = games.start;
                let mut records = Vec::with_capacity((games.end - first) as usize);
                engine.play_games(&spec.rules, spec.seed, games, |record| records.push(record));
                // A closed channel means the writer stopped on an error, which join reports.
                send.send((first, records)).is_ok()
            });
        });
        drop(send);
        writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// One worker's loop: claims ranges until the batch is handed out, `stop` asks to end,
/// `has_room` refuses or `play` returns false; `play` plays each range on the worker's engine.
fn play_claims(
    spec: &BatchSpec,
    claims: &Claims,
    controls: &Controls,
    has_room: &dyn Fn() -> bool,
    mut play: impl FnMut(&mut Engine, Range<u64>) -> bool,
) {
    let mut engine = Engine::for_rules(&spec.rules);
    let mut size = 1;
    while !(controls.stop)() && has_room() {
        let Some(games) = claims.claim(size) else {
            break;
        };
        let started = Instant::now();
        let count = games.end - games.start;
        let go_on = play(&mut engine, games);
        size = next_size(count, started.elapsed());
        (controls.progress)(count);
        if !go_on {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Keeps every record; fails once `fail_at` games were taken, having committed them.
    struct Collect {
        games: Vec<(u64, GameRecord)>,
        fail_at: Option<u64>,
    }

    /// Counts its games, and notes how many were made durable.
    struct Durable<'a> {
        games: u64,
        persisted: &'a AtomicU64,
    }

    impl RecordSink for Durable<'_> {
        fn write_games(&mut self, _: &BatchSpec, _: u64, records: &[GameRecord]) -> io::Result<()> {
            self.games += records.len() as u64;
            Ok(())
        }
        fn committed(&self) -> u64 {
            self.games
        }
        fn finish(&mut self) -> io::Result<()> {
            Ok(())
        }
        fn persist(&mut self) -> io::Result<()> {
            self.persisted.store(self.games, Ordering::SeqCst);
            Ok(())
        }
    }

    #[test]
    fn a_checkpoint_counts_only_games_made_durable() {
        let persisted = AtomicU64::new(0);
        let saved = std::sync::Mutex::new(Vec::new());
        let save = |prefix: &Stats, _: u64| {
            let durable = persisted.load(Ordering::SeqCst);
            saved.lock().unwrap().push((prefix.games, durable));
            Ok(())
        };
        let controls = Controls {
            progress: &|_| {},
            stop: &|| false,
            checkpoints: Some(Checkpoints {
                every: std::time::Duration::ZERO,
                save: &save,
            }),
        };
        let mut sink = Durable {
            games: 0,
            persisted: &persisted,
        };
        run_batch(&spec(20_000, 2), Some(&mut sink), &controls).unwrap();
        let saved = saved.into_inner().unwrap();
        assert!(saved.len() > 1 && saved.last().unwrap().0 > 0, "{saved:?}");
        for (games, durable) in saved {
            assert_eq!(
                games, durable,
                "every game a checkpoint counts was made durable first"
            );
        }
    }

    impl RecordSink for Collect {
        fn write_games(
            &mut self,
            _: &BatchSpec,
            first: u64,
            records: &[GameRecord],
        ) -> io::Result<()> {
            for (i, record) in records.iter().enumerate() {
                if Some(self.games.len() as u64) == self.fail_at {
                    return Err(io::Error::other("disk full"));
                }
                self.games.push((first + i as u64, *record));
            }
            Ok(())
        }
        fn committed(&self) -> u64 {
            self.games.len() as u64
        }
        fn finish(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn spec(games: u64, threads: usize) -> BatchSpec {
        BatchSpec {
            first: 0,
            rules: Preset::Classic.rules(),
            games,
            seed: 5,
            threads,
        }
    }

    fn stats_of(records: &[(u64, GameRecord)], spec: &BatchSpec) -> Stats {
        let mut stats = spec.new_stats();
        records.iter().for_each(|(_, r)| stats.record(r));
        stats
    }

    #[test]
    fn records_arrive_in_game_order_and_match_single_games() {
        let spec = spec(MAX_CHUNK * 2 + 17, 2);
        let mut sink = Collect {
            games: Vec::new(),
            fail_at: None,
        };
        let stats = run_batch(&spec, Some(&mut sink), &Controls::none()).unwrap();
        assert_eq!(stats.games, spec.games);
        assert_eq!(sink.games.len() as u64, spec.games);
        for (expected, (index, record)) in sink.games.iter().enumerate() {
            assert_eq!(*index, expected as u64);
            if expected % 997 == 0 {
                let alone = crate::engine::play_game(&spec.rules, spec.rules.game_seed(5, *index));
                assert_eq!(*record, alone);
            }
        }
        let without_records = run_batch(&spec, None, &Controls::none()).unwrap();
        assert_eq!(without_records.lengths(), stats.lengths());
        assert_eq!(without_records.wins_by_seat, stats.wins_by_seat);
    }

    #[test]
    fn many_threads_write_in_order_across_many_room_limits() {
        // 60,000 games against a room of 512 games ahead: the writer waits and the workers wait
        // on it over and over; the records and the figures are those of one thread.
        let one = {
            let mut sink = Collect {
                games: Vec::new(),
                fail_at: None,
            };
            let stats = run_batch(&spec(60_000, 1), Some(&mut sink), &Controls::none()).unwrap();
            (sink.games, stats)
        };
        for threads in [2, 7, 16] {
            let mut sink = Collect {
                games: Vec::new(),
                fail_at: None,
            };
            let stats =
                run_batch(&spec(60_000, threads), Some(&mut sink), &Controls::none()).unwrap();
            assert!(sink.games == one.0, "{threads} threads");
            assert_eq!(stats.lengths(), one.1.lengths());
        }
    }

    #[test]
    fn a_stopped_batch_has_played_exactly_a_prefix() {
        for threads in [1, 2, 3] {
            for with_records in [false, true] {
                let spec = spec(200_000, threads);
                let started = AtomicU64::new(0);
                let stop = || started.fetch_add(1, Ordering::Relaxed) >= 7;
                let controls = Controls {
                    progress: &|_| {},
                    stop: &stop,
                    checkpoints: None,
                };
                let mut sink = Collect {
                    games: Vec::new(),
                    fail_at: None,
                };
                let sink_ref = with_records.then_some(&mut sink as &mut dyn RecordSink);
                let stats = run_batch(&spec, sink_ref, &controls).unwrap();
                assert!(
                    stats.games > 0 && stats.games < spec.games,
                    "{}",
                    stats.games
                );
                // The same figures as the first n games played as a whole batch.
                let prefix = run_batch(
                    &BatchSpec {
                        games: stats.games,
                        ..spec.clone()
                    },
                    None,
                    &Controls::none(),
                )
                .unwrap();
                assert_eq!(stats.lengths(), prefix.lengths(), "threads {threads}");
                assert_eq!(stats.wins_by_seat, prefix.wins_by_seat);
                if with_records {
                    assert_eq!(sink.games.len() as u64, stats.games);
                }
            }
        }
    }

    #[test]
    fn a_failed_sink_leaves_statistics_of_the_written_games() {
        let spec = spec(50_000, 2);
        let mut sink = Collect {
            games: Vec::new(),
            fail_at: Some(12_345),
        };
        let error = run_batch(&spec, Some(&mut sink), &Controls::none()).unwrap_err();
        let BatchError::Write { written, stats, .. } = error else {
            panic!("a write error")
        };
        assert_eq!(written, 12_345);
        assert_eq!(stats.games, 12_345);
        assert_eq!(stats.lengths(), stats_of(&sink.games, &spec).lengths());
    }

    #[test]
    fn few_slow_games_keep_every_thread_busy() {
        // Four games on two threads: the first claims hand out one game each.
        let spec = spec(4, 2);
        let threads_used = std::sync::Mutex::new(std::collections::HashSet::new());
        let progress = |_| {
            threads_used
                .lock()
                .unwrap()
                .insert(std::thread::current().id());
        };
        let slow = || {
            std::thread::sleep(std::time::Duration::from_millis(30));
            false
        };
        let controls = Controls {
            progress: &progress,
            stop: &slow,
            checkpoints: None,
        };
        let stats = run_batch(&spec, None, &controls).unwrap();
        assert_eq!(stats.games, 4);
        assert_eq!(threads_used.lock().unwrap().len(), 2);
    }
}
