//! An enumeration's sequences played in chunks on worker threads and tallied in order. Workers
//! take chunks in turn and tally each alone, then add its tally to the part's once it completes
//! a prefix (holding back those that finish early), so a checkpoint holds exactly the
//! sequences from the part's first to some next one, and a stopped enumeration keeps every
//! chunk before the first it did not finish. Counts merge in any order to the same figures, so
//! nothing depends on the thread count.

use std::collections::BTreeMap;
use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::tally::CycleCache;
use super::{CHUNK, Plan, Tally, deals};
use crate::batch::{Controls, Occasion, Workers};
use crate::engine::{Engine, Outcome};

/// How an enumeration's part was played.
#[derive(Debug)]
pub enum Played {
    /// Every sequence of the part.
    Whole(Tally),
    /// Stopped early (`stop`): the tally of the sequences before `next`.
    Stopped {
        /// The counts over the part's first sequences.
        tally: Tally,
        /// The first sequence not counted.
        next: u128,
    },
    /// A checkpoint could not be saved, so play stopped at `next` (the last checkpoint saved
    /// is what is kept), with the error.
    Failed {
        /// The first sequence not counted.
        next: u128,
        /// Why the checkpoint was not saved.
        error: io::Error,
    },
}

/// The counts of the chunks finished so far, gathered by whichever worker finishes one.
struct Gathered {
    /// The counts of chunks 0 to `done − 1`.
    prefix: Tally,
    /// Chunks finished while one before them still plays, held back.
    early: BTreeMap<u64, Tally>,
    /// Chunks in `prefix`.
    done: u64,
    /// When the last checkpoint was saved, and the next sequence it held.
    saved: (Instant, u128),
    /// Why a checkpoint could not be saved, if one could not.
    failure: Option<io::Error>,
    /// A worker is saving a checkpoint (outside the lock), so no other starts one.
    saving: bool,
}

impl Plan {
    /// Plays the plan's part on `workers` from sequence `next`, whose predecessors in the
    /// part `before` counts (a checkpoint's; an empty tally from the part's start). `controls`
    /// gets the sequences of each finished chunk, can stop play between chunks, and saves
    /// checkpoints: the tally of the sequences before some next one, and that next one.
    pub fn play(
        &self,
        workers: &Workers,
        (next, before): (u128, Tally),
        controls: &Controls<Tally>,
    ) -> Played {
        let players = self.rules.players as usize;
        let chunks = (self.part.end - next).div_ceil(CHUNK) as u64;
        let chunk_start = |chunk: u64| (next + u128::from(chunk) * CHUNK).min(self.part.end);
        let claimed = AtomicU64::new(0);
        let halt = AtomicBool::new(false);
        let gathered = Mutex::new(Gathered {
            prefix: before,
            early: BTreeMap::new(),
            done: 0,
            saved: (Instant::now(), next),
            failure: None,
            saving: false,
        });
        let lock = || gathered.lock().expect("no worker panics holding it");
        // No thread of its own gathers the chunks: a worker that finishes one adds it, and
        // saves a checkpoint when one is due, so a busy machine is never woken for them.
        let gather = |chunk: u64, tally: Tally| {
            let Some((checkpoints, prefix, reached, occasion)) = (|| {
                let mut guard = lock();
                let g = &mut *guard;
                g.early.insert(chunk, tally);
                while let Some(tally) = g.early.remove(&g.done) {
                    g.prefix.merge(tally);
                    g.done += 1;
                }
                let checkpoints =
                    (controls.checkpoints.as_ref()).filter(|_| !g.saving && g.failure.is_none())?;
                let reached = chunk_start(g.done);
                let due = !checkpoints.every.is_zero()
                    && g.saved.0.elapsed() >= checkpoints.every
                    && reached > g.saved.1;
                let occasion = match ((checkpoints.asked)(), due) {
                    (true, _) => Occasion::Asked,
                    (false, true) => Occasion::Due,
                    (false, false) => return None,
                };
                g.saving = true;
                Some((checkpoints, g.prefix.clone(), reached, occasion))
            })() else {
                return;
            };
            // Saved outside the lock: a slow disk holds up the worker saving, while the others
            // go on playing and gathering chunks.
            // At most u64::MAX sequences: Plan::new and Plan::part refuse more.
            let saved = (checkpoints.save)(&prefix, reached as u64, "", occasion);
            let mut g = lock();
            g.saving = false;
            match saved {
                Ok(()) => g.saved = (Instant::now(), reached),
                Err(error) => {
                    g.failure = Some(error);
                    halt.store(true, Ordering::Relaxed);
                }
            }
        };
        workers.each(|| {
            let mut engine = Engine::for_rules(&self.rules);
            let mut cache = CycleCache::default();
            while !(controls.stop)() && !halt.load(Ordering::Relaxed) {
                let chunk = claimed.fetch_add(1, Ordering::Relaxed);
                if chunk >= chunks {
                    break;
                }
                let mut tally = Tally::new(players);
                let (first, end) = (chunk_start(chunk), chunk_start(chunk + 1));
                self.play_chunk(&mut engine, &mut cache, &mut tally, first, end - first);
                (controls.progress)((end - first) as u64);
                gather(chunk, tally);
            }
        });
        let g = gathered.into_inner().expect("no worker panicked");
        let next = chunk_start(g.done);
        match g.failure {
            Some(error) => Played::Failed { next, error },
            None if g.done == chunks => Played::Whole(g.prefix),
            None => Played::Stopped {
                tally: g.prefix,
                next,
            },
        }
    }

    /// Plays every deal of the plan's part on `workers`, calling `progress` with the
    /// number of sequences each finished chunk covered. Once `stop` says so, the chunks left
    /// are skipped, and the tally is `None`: figures over some of the deals are not the deck's.
    pub fn run(
        &self,
        workers: &Workers,
        progress: &(dyn Fn(u64) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Tally> {
        let controls = Controls {
            progress,
            stop,
            checkpoints: None,
        };
        let start = (self.part.start, Tally::new(self.rules.players as usize));
        match self.play(workers, start, &controls) {
            Played::Whole(tally) => Some(tally),
            Played::Stopped { .. } | Played::Failed { .. } => None,
        }
    }

    /// Plays `len` sequences from the `first`-th.
    fn play_chunk(
        &self,
        engine: &mut Engine,
        cache: &mut CycleCache,
        tally: &mut Tally,
        first: u128,
        len: u128,
    ) {
        let mut sequence = deals::unrank(&self.counts, first);
        let mut position = Vec::new();
        for i in 0..len {
            if self.set.keeps(&sequence) {
                let record = engine.play_sequence(&self.rules, &sequence);
                if record.outcome == Outcome::Cycle {
                    engine.position(&self.rules, &mut position);
                    tally.add_cycle(cache, &position, || engine.walk_cycle(&self.rules));
                } else {
                    tally.add(&record, &sequence);
                }
            }
            if i + 1 < len {
                deals::next_sequence(&mut sequence);
            }
        }
    }
}
