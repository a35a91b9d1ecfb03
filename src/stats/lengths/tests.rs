//! The length statistics' tests: exact quantiles with censored games, the median's interval,
//! the spread of sums past the exact formula, lengths past the flat array, the array grown as
//! games come, and compacted lengths.

use super::*;

fn lengths(finished: &[u32], capped: u64, never: u64) -> Lengths {
    let mut l = Lengths::new(1000, 1000);
    finished.iter().for_each(|&r| l.finished(r));
    (0..capped).for_each(|_| l.capped());
    (0..never).for_each(|_| l.never());
    l
}

#[test]
fn quantiles_are_exact_nearest_ranks() {
    let l = lengths(&[2263, 17, 40, 40, 999], 0, 0);
    assert_eq!(l.quantile(50_000), Some(Quantile::Rounds(40)));
    assert_eq!(l.quantile(0), Some(Quantile::Rounds(17)));
    assert_eq!(l.quantile(20_000), Some(Quantile::Rounds(17)));
    assert_eq!(l.quantile(20_001), Some(Quantile::Rounds(40)));
    assert_eq!(l.quantile(100_000), Some(Quantile::Rounds(2263)));
    assert_eq!((l.min(), l.max()), (Some(17), Some(2263)));
    assert_eq!(Lengths::new(10, 10).quantile(50_000), None);
}

#[test]
fn the_median_interval_uses_the_binomial_order_statistics() {
    let rounds: Vec<u32> = (1..=100).collect();
    let l = lengths(&rounds, 0, 0);
    assert_eq!(
        l.median_ci95(),
        Some((Quantile::Rounds(40), Quantile::Rounds(61)))
    );
    let censored = lengths(&rounds[..60], 40, 0);
    assert_eq!(
        censored.median_ci95(),
        Some((Quantile::Rounds(40), Quantile::AboveCap(1000)))
    );
}

#[test]
fn censored_games_rank_last_and_have_no_length() {
    // 2 finished, 1 capped, 1 cycle.
    let l = lengths(&[10, 30], 1, 1);
    assert_eq!(l.mean(), Some(20.0));
    assert_eq!(l.max(), Some(30));
    assert_eq!(l.quantile(50_000), Some(Quantile::Rounds(30)));
    assert_eq!(l.quantile(75_000), Some(Quantile::AboveCap(1000)));
    assert_eq!(l.quantile(75_001), Some(Quantile::Never));
    assert_eq!(l.survival(9), 1.0);
    assert_eq!(l.survival(10), 0.75);
    assert_eq!(l.survival(1_000_000), 0.5);
    let none_finished = lengths(&[], 3, 0);
    assert_eq!((none_finished.mean(), none_finished.min()), (None, None));
    // One finished game has a mean but no spread: n − 1 = 0.
    let one_finished = lengths(&[10], 2, 0);
    assert_eq!(one_finished.mean(), Some(10.0));
    assert_eq!((one_finished.sd(), one_finished.se()), (None, None));
    assert_eq!(none_finished.quantile(1), Some(Quantile::AboveCap(1000)));
}

#[test]
fn spread_survives_sums_too_large_for_the_exact_formula() {
    let mut l = Lengths::new(100, 100);
    l.finished(10);
    l.finished(30);
    assert!((l.sd().unwrap() - 200f64.sqrt()).abs() < 1e-12);
    // The same two games as if each were played 2^60 times: n·Σx² overflows u128, and the
    // spread is the population's, 10.
    l.finished = 1 << 61;
    l.sum = 40u128 << 60;
    l.squares = 1000u128 << 60;
    assert!((l.sd().unwrap() - 10.0).abs() < 1e-9, "{:?}", l.sd());
    assert_eq!(l.mean(), Some(20.0));
}

#[test]
fn long_games_beyond_the_flat_array_count_exactly() {
    let mut l = Lengths::new(u32::MAX, u32::MAX);
    for r in [5, u32::MAX, DENSE as u32, 7] {
        l.finished(r);
    }
    let counts: Vec<_> = l.counts().collect();
    assert_eq!(
        counts,
        vec![(5, 1), (7, 1), (DENSE, 1), (u64::from(u32::MAX), 1)]
    );
    assert_eq!(l.quantile(100_000), Some(Quantile::Rounds(u32::MAX.into())));
    let mut merged = Lengths::new(u32::MAX, u32::MAX);
    merged.merge(&l);
    merged.merge(&l);
    assert_eq!(merged.quantile(50_000), Some(Quantile::Rounds(7)));
    assert_eq!(merged.finished_games(), 8);
}

/// A batch's lengths start with a short flat array (a sweep's short cells zeroed and merged
/// 128 KB a worker each) and grow it as longer games come, up to [`DENSE`]; lengths a compacted
/// map held below the array's new end move into it, so the counts stay shortest first.
#[test]
fn the_flat_array_starts_short_and_grows_with_the_games() {
    let mut l = Lengths::new(100_000, 100_000);
    assert_eq!(l.dense.len(), 1 << 10);
    for r in [5, 3_000, 20_000, 1_500, 3_000] {
        l.finished(r);
    }
    assert_eq!((l.dense.len(), l.sparse.len()), (3_001, 1));
    l.finished(3_001);
    assert_eq!(l.dense.len(), 6_002, "at least doubled");
    let counts: Vec<_> = l.counts().collect();
    assert_eq!(
        counts,
        [(5, 1), (1_500, 1), (3_000, 2), (3_001, 1), (20_000, 1)]
    );
    // Held as a map only, as a state file's few lengths are read.
    let mut read = Lengths::laid_out_for(&[10, 5_000], 100_000);
    read.finished_many(10, 2);
    read.finished_many(5_000, 1);
    assert_eq!((read.dense.len(), read.sparse.len()), (0, 2));
    read.finished(7);
    assert_eq!((read.dense.len(), read.sparse.len()), (8, 2));
    read.finished(6_000);
    assert_eq!((read.dense.len(), read.sparse.len()), (6_001, 0));
    let counts: Vec<_> = read.counts().collect();
    assert_eq!(counts, [(7, 1), (10, 2), (5_000, 1), (6_000, 1)]);
    assert_eq!(read.finished_games(), 5);
}

/// The counts, quantiles and survival shares (in billionths) of some lengths.
type Figures = (Vec<(u64, u64)>, Vec<Option<Quantile>>, Vec<u64>);

/// Every figure a summary reads from lengths, to compare two ways of holding the same games.
fn figures(l: &Lengths) -> Figures {
    let quantiles = [0, 1, 20_000, 50_000, 99_000, 100_000].map(|q| l.quantile(q));
    let survival = [0, 6, 40, DENSE, DENSE + 9].map(|r| (l.survival(r) * 1e9) as u64);
    (l.counts().collect(), quantiles.to_vec(), survival.to_vec())
}

#[test]
fn compacted_lengths_give_the_same_figures_and_merge_either_way() {
    // Few lengths (the array is given up for the map), many (it is cut after the longest), and
    // one of each past the array.
    let few = [7, 40, 40, DENSE as u32 + 9];
    let many: Vec<u32> = (1..=300).chain([DENSE as u32 + 9]).collect();
    for finished in [&few[..], &many[..]] {
        let mut full = Lengths::new(u32::MAX, u32::MAX);
        finished.iter().for_each(|&r| full.finished(r));
        full.capped();
        let mut compact = full.clone();
        compact.compact();
        let kept = compact.dense.capacity();
        assert!(kept <= 301, "{kept} counts kept");
        assert_eq!(compact, full);
        assert_eq!(figures(&compact), figures(&full));
        // Merged into, and merged, each way: what playing both halves into one gives.
        let mut whole = full.clone();
        whole.merge(&full);
        for (mut into, from) in [
            (compact.clone(), &full),
            (full.clone(), &compact),
            (compact.clone(), &compact),
        ] {
            into.merge(from);
            assert_eq!(figures(&into), figures(&whole));
            into.finished(6);
            let mut more = whole.clone();
            more.finished(6);
            assert_eq!(figures(&into), figures(&more));
        }
    }
    // Equal sums, squares, fewest and most rounds: only the counts tell these apart.
    assert_ne!(
        lengths(&[1, 1, 4, 4, 9], 0, 0),
        lengths(&[1, 2, 2, 5, 9], 0, 0)
    );
    let mut none = Lengths::new(1000, 1000);
    none.compact();
    assert_eq!((none.dense.len(), none.quantile(50_000)), (0, None));
}

#[test]
fn lengths_laid_out_for_their_list_are_held_as_compacted_ones() {
    // Few lengths (the map only), many (the array up to the longest), one past the array, none.
    let few = [7, 40, DENSE + 9];
    let many: Vec<u64> = (1..=300).chain([DENSE + 9]).collect();
    for listed in [&few[..], &many[..], &[DENSE + 1], &[]] {
        let mut compacted = Lengths::new(u32::MAX, u32::MAX);
        let mut laid_out = Lengths::laid_out_for(listed, u32::MAX);
        for lengths in [&mut compacted, &mut laid_out] {
            listed.iter().for_each(|&r| lengths.finished_many(r, 2));
        }
        compacted.compact();
        let layout = |l: &Lengths| (l.dense.len(), l.sparse.len());
        assert_eq!(
            layout(&laid_out),
            layout(&compacted),
            "{} lengths",
            listed.len()
        );
        assert_eq!(laid_out, compacted);
    }
}
