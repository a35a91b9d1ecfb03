//! Shards: one of N equal parts of a batch, numbered from 0 as Slurm's array task ids and
//! Kubernetes' completion indexes are. Shard K plays games ⌊K·G/N⌋ to ⌊(K+1)·G/N⌋ − 1 of the
//! batch of G games, so the N shards play every game exactly once, in order.

use std::ops::Range;

/// One of `count` parts of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 0 to `count - 1`.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl Shard {
    /// The games of this part of a batch of `games`.
    pub fn range(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(games) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_batch_once_in_order() {
        for games in [0, 1, 7, 1000, 1_000_003, u64::MAX] {
            for count in 1..=7 {
                let mut next = 0;
                for index in 0..count {
                    let range = Shard { index, count }.range(games);
                    assert_eq!(range.start, next, "{games} games, shard {index}/{count}");
                    assert!(range.end >= range.start);
                    next = range.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!(
            Shard { index: 1, count: 4 }.range(1_000_000),
            250_000..500_000
        );
        assert_eq!(Shard { index: 2, count: 3 }.range(10), 6..10);
    }
}
