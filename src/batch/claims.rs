//! Handing out games to workers: contiguous ranges claimed in increasing order, sized by how
//! long a game takes.
//!
//! Every range is claimed from one counter and every claimed range is played to the end, so
//! when a run stops early the games played are always the prefix 0..n. Ranges grow from one
//! game to what a worker plays in [`TARGET`], so a chunk ends well within a second whatever a
//! game costs, few games still spread over every thread, and the tail of a run stays balanced.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long one claimed range should take to play: long enough that claiming costs nothing,
/// short enough that a stop request and the progress bar are answered promptly.
pub const TARGET: Duration = Duration::from_millis(20);
/// The most games claimed at once.
pub const MAX_CHUNK: u64 = 4096;

/// The next game to hand out, up to the end of the batch.
pub struct Claims {
    next: AtomicU64,
    end: u64,
    threads: u64,
}

impl Claims {
    /// Hands out games `games.start..games.end` (a shard of a batch) to `threads` workers.
    pub fn range(games: Range<u64>, threads: usize) -> Claims {
        Claims {
            next: AtomicU64::new(games.start),
            end: games.end,
            threads: threads.max(1) as u64,
        }
    }

    /// The first game not yet handed out.
    pub fn next(&self) -> u64 {
        self.next.load(Ordering::Acquire)
    }

    /// Claims up to `want` games (at least one), fewer near the end so that every thread keeps
    /// work; `None` when every game is handed out. Never wraps, even next to `u64::MAX`.
    pub fn claim(&self, want: u64) -> Option<Range<u64>> {
        let mut start = self.next.load(Ordering::Acquire);
        loop {
            let left = self.end.checked_sub(start).filter(|&n| n > 0)?;
            // Guided scheduling: never more than half of a thread's fair share of what is left.
            let size = want.min(left.div_ceil(2 * self.threads)).clamp(1, left);
            let stop = start + size;
            match self
                .next
                .compare_exchange_weak(start, stop, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(start..stop),
                Err(now) => start = now,
            }
        }
    }
}

/// The size of a worker's next claim after it played `games` games in `took`: what fits in
/// [`TARGET`], at most twice the last claim (a run of short games must not make one slow
/// chunk), between 1 and [`MAX_CHUNK`].
pub fn next_size(games: u64, took: Duration) -> u64 {
    let per_game = took.as_nanos().max(1) / u128::from(games.max(1));
    let fits = (TARGET.as_nanos() / per_game.max(1)) as u64;
    fits.min(games.saturating_mul(2)).clamp(1, MAX_CHUNK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_contiguous_and_cover_the_batch_once() {
        let claims = Claims::range(0..10_000, 2);
        let mut expected = 0;
        while let Some(range) = claims.claim(700) {
            assert_eq!(range.start, expected);
            assert!(!range.is_empty() && range.end - range.start <= 700);
            expected = range.end;
        }
        assert_eq!(expected, 10_000);
        assert_eq!(claims.claim(1), None);
    }

    #[test]
    fn few_games_spread_over_every_thread() {
        // Four games on two threads: nobody may take them all.
        let claims = Claims::range(0..4, 2);
        assert_eq!(claims.claim(MAX_CHUNK), Some(0..1));
        let claims = Claims::range(0..40, 2);
        assert_eq!(claims.claim(MAX_CHUNK), Some(0..10));
    }

    #[test]
    fn claims_next_to_the_largest_count_never_wrap() {
        let claims = Claims::range(0..u64::MAX, 1);
        claims.next.store(u64::MAX - 3, Ordering::Release);
        assert_eq!(claims.claim(MAX_CHUNK), Some(u64::MAX - 3..u64::MAX - 1));
        assert_eq!(claims.claim(MAX_CHUNK), Some(u64::MAX - 1..u64::MAX));
        assert_eq!(claims.claim(MAX_CHUNK), None);
        assert_eq!(claims.next(), u64::MAX);
    }

    #[test]
    fn sizes_follow_the_cost_of_a_game() {
        // A game of a second: one at a time.
        assert_eq!(next_size(1, Duration::from_secs(1)), 1);
        // Fast games grow at most twofold per claim, up to the cap.
        assert_eq!(next_size(1, Duration::from_nanos(500)), 2);
        assert_eq!(next_size(4096, Duration::from_millis(2)), MAX_CHUNK);
        // 1 ms games: 20 per claim.
        assert_eq!(next_size(64, Duration::from_millis(64)), 20);
    }
}
