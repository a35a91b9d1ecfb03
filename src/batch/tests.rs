//! The batch runner's tests: order, determinism across threads, stops, write errors and
//! checkpoints.

use super::*;
use crate::engine::{GameRecord, Preset};
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
    fn write_games(
        &mut self,
        _: &BatchSpec,
        _: u64,
        records: &[GameRecord],
        _: Option<&[u8]>,
    ) -> io::Result<()> {
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
    let save = |prefix: &Stats, _: u64, _: &str, _| {
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
            asked: &|| false,
            footer: None,
            since: None,
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

/// A batch's first checkpoint comes with its first games, unless one was saved less than
/// `every` before it began (a sweep's earlier cell's): then none is due in a short batch.
#[test]
fn the_first_checkpoint_waits_for_one_saved_before_the_batch() {
    let persisted = AtomicU64::new(0);
    for (since, expected) in [(None, 1), (Some(std::time::Instant::now()), 0)] {
        let saved = AtomicU64::new(0);
        let save = |_: &Stats, _: u64, _: &str, _| {
            saved.fetch_add(1, Ordering::SeqCst);
            Ok(())
        };
        let controls = Controls {
            progress: &|_| {},
            stop: &|| false,
            checkpoints: Some(Checkpoints {
                every: std::time::Duration::from_secs(3_600),
                save: &save,
                asked: &|| false,
                footer: None,
                since,
            }),
        };
        let mut sink = Durable {
            games: 0,
            persisted: &persisted,
        };
        run_batch(&spec(2_000, 2), Some(&mut sink), &controls).unwrap();
        assert_eq!(saved.into_inner(), expected, "since {since:?}");
    }
}

impl RecordSink for Collect {
    fn write_games(
        &mut self,
        _: &BatchSpec,
        first: u64,
        records: &[GameRecord],
        _: Option<&[u8]>,
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
        let stats = run_batch(&spec(60_000, threads), Some(&mut sink), &Controls::none()).unwrap();
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
    // Each worker's first look waits (up to a minute) until the other has begun too, so that a
    // second worker the system wakes late still finds games: the test asks whether both run the
    // batch, not whether the second wakes within the first's three games.
    let begun = (
        std::sync::Mutex::new(std::collections::HashSet::new()),
        std::sync::Condvar::new(),
    );
    let slow = || {
        let (threads, arrived) = &begun;
        let mut seen = threads.lock().unwrap();
        if seen.insert(std::thread::current().id()) {
            arrived.notify_all();
            let minute = std::time::Duration::from_secs(60);
            drop(arrived.wait_timeout_while(seen, minute, |seen| seen.len() < 2));
        }
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

/// Notes the thread each write ran on, and counts the games.
struct WriterThreads(Vec<std::thread::ThreadId>, u64);

impl RecordSink for WriterThreads {
    fn write_games(
        &mut self,
        _: &BatchSpec,
        _: u64,
        records: &[GameRecord],
        _: Option<&[u8]>,
    ) -> io::Result<()> {
        self.0.push(std::thread::current().id());
        self.1 += records.len() as u64;
        Ok(())
    }
    fn committed(&self) -> u64 {
        self.1
    }
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn batches_wait_for_no_paused_worker_and_keep_one_writer() {
    use std::sync::{Arc, mpsc::channel};
    let workers = Arc::new(Workers::new(2).unwrap());
    // One worker held, as a busy machine's scheduler may pause any thread for a time slice.
    let (held, release) = (channel(), channel::<()>());
    workers.pool.spawn(move || {
        held.0.send(()).unwrap();
        release.1.recv().ok();
    });
    held.1.recv().unwrap();
    let (done, finished) = channel();
    let batches = Arc::clone(&workers);
    std::thread::spawn(move || {
        let batch = |sink: Option<&mut dyn RecordSink>| {
            run_batch_on(&batches, &spec(2_000, 2), sink, &Controls::none())
        };
        let none = batch(None);
        let mut sink = WriterThreads(Vec::new(), 0);
        let first = batch(Some(&mut sink));
        let writes = sink.0.len();
        sink.1 = 0;
        let second = batch(Some(&mut sink));
        let games = [none, first, second].map(|stats| stats.unwrap().games);
        done.send((games, writes, sink.0)).unwrap();
    });
    // Generous: the three batches take milliseconds; a batch waiting for the held worker never
    // ends.
    let outcome = finished.recv_timeout(std::time::Duration::from_secs(60));
    release.0.send(()).unwrap();
    let (games, writes, threads) = outcome.expect("a batch waited for the worker held");
    assert_eq!(games, [2_000; 3]);
    // Both batches' writes ran on one thread: the one that ran the batches.
    assert!(0 < writes && writes < threads.len());
    assert!(threads.iter().all(|id| *id == threads[0]), "{threads:?}");
}

#[test]
fn a_workers_short_ranges_reach_the_writer_together() {
    // 2,000 games on two threads are dozens of ranges (they start at one game and shrink again
    // at the end). Sent one by one, each woke the thread that writes; held and handed over
    // together, they come in a few hand-overs.
    let room = Room::new(0);
    let mut sink = WriterThreads(Vec::new(), 0);
    let pool = Workers::new(2).unwrap().pool;
    let stats = play_to_sink(&pool, &spec(2_000, 2), &mut sink, &Controls::none(), &room);
    assert_eq!(stats.unwrap().games, 2_000);
    let (ranges, hand_overs) = (sink.0.len() as u64, room.hand_overs());
    assert!(
        ranges >= 12 && 2 * hand_overs <= ranges,
        "{hand_overs} hand-overs of {ranges} ranges"
    );
}
