//! The batch runner: plays games 0..N on a rayon pool and streams their records in game order.
//!
//! Game i is played from its own seed (a pure function of the base seed and i), so which thread
//! plays it changes nothing. Workers claim contiguous ranges of games in increasing order
//! (`claims.rs`) and always finish what they claimed, so a run that stops early (a signal, a
//! write error) has played exactly games 0..n, and its statistics are those of the prefix.
//! Without records, each worker keeps its own [`Stats`], merged at the end. With records, the
//! finished ranges go, a few at a time (`held.rs`), to the thread that runs the batch, which
//! puts them back in order (`ordered.rs`) and counts each game only once its row is wholly
//! written, so the statistics always describe exactly the rows in the file. While that thread
//! is busy, the workers also format their ranges' rows (the sink's [`RowFormatter`]), so that
//! one thread keeps up with many.

mod claims;
mod controls;
mod held;
mod ordered;
mod shard;
mod sink;
mod workers;

use std::io;
use std::ops::Range;
use std::sync::mpsc::channel;
use std::time::Instant;

use crate::engine::rules::counted;
use crate::engine::{Engine, Rules};
use crate::stats::Stats;

pub use claims::MAX_CHUNK;
use claims::{Claims, next_size};
pub use controls::{Checkpoints, Controls, Footer, Occasion};
use held::Held;
use ordered::{Played, Room, write_in_order};
pub use shard::Shard;
use sink::Nowhere;
pub use sink::{RecordSink, RowFormatter};
pub use workers::Workers;

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

#[cfg(test)]
impl BatchSpec {
    /// The batch's games played one at a time, in game order: the records a run hands its
    /// sinks, for the sinks' tests.
    pub(crate) fn played_one_by_one(&self) -> Vec<crate::engine::GameRecord> {
        (self.first..self.first + self.games)
            .map(|game| {
                crate::engine::play_game(&self.rules, self.rules.game_seed(self.seed, game))
            })
            .collect()
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
    /// The worker threads could not start (the system's limits on threads or memory).
    #[error(
        "could not start {} (--threads {threads}): {source}; the system's limits on threads \
         and memory (`ulimit -u`, `ulimit -v`) allow fewer: try a smaller --threads",
        counted(*threads as u64, "worker thread")
    )]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why the system refused.
        source: io::Error,
    },
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
        let per_worker: Vec<Stats> = workers.each(|| {
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
    play_to_sink(pool, spec, sink, controls, &Room::new(spec.first))
}

/// The batch with records: the workers' tasks go to the pool, and this thread writes their
/// records as they come, `room` keeping the workers within [`ordered::AHEAD`] games of them.
fn play_to_sink(
    pool: &rayon::ThreadPool,
    spec: &BatchSpec,
    sink: &mut dyn RecordSink,
    controls: &Controls,
    room: &Room,
) -> Result<Stats, BatchError> {
    let claims = Claims::range(spec.first..spec.first + spec.games, spec.threads);
    let format = sink.row_formatter();
    let (send, receive) = channel::<Vec<Played>>();
    let checkpoints = controls.checkpoints.as_ref();
    // No thread of its own writes: one had to be woken per batch, on a busy machine a time
    // slice later, once per cell of a sweep with a per-game file or checkpoints.
    pool.in_place_scope(|scope| {
        for _ in 0..spec.threads {
            let (held, format, claims) = (Held::new(send.clone()), &format, &claims);
            scope.spawn(move |_| {
                // Ranges held are handed over before waiting for room: the writer may need them.
                let has_room = || {
                    let next = claims.next();
                    room.fits(next) || (held.hand_over() && room.wait_for(next))
                };
                play_claims(spec, claims, controls, &has_room, |engine, games| {
                    let (first, started) = (games.start, Instant::now());
                    let mut records = Vec::with_capacity((games.end - first) as usize);
                    engine.play_games(&spec.rules, spec.seed, games, |record| records.push(record));
                    // Formatted here unless the writer is free to (see `Room::writer_idle`): the
                    // same bytes either way.
                    let rows = format
                        .as_ref()
                        .filter(|_| !room.writer_idle())
                        .map(|format| {
                            let mut rows = Vec::with_capacity(records.len() * 64);
                            format(spec, first, &records, &mut rows);
                            rows
                        });
                    held.keep((first, records, rows), started)
                });
                // Stopped or done: whatever it played is written (a stopped writer says why).
                held.hand_over();
            });
        }
        drop(send);
        write_in_order(spec, sink, receive, room, checkpoints)
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
mod tests;
