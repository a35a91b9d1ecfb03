//! Every distinct deal of a deck whose suits are ignored: the sequences of ranks in which each
//! rank appears once per suit (multiset permutations), in lexicographic order, counted,
//! ranked and stepped through without ever producing one twice; and the deal sets of the
//! published enumerations.
//!
//! Written here rather than taken from a crate: the enumeration needs to start at any rank of
//! the order (so that threads split the work exactly) and to step in place without allocating,
//! which the permutation crates we know do not offer for multisets.

use std::fmt;

/// Which deals an enumeration plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealSet {
    /// Every sequence of ranks once (each ordered pair of hands once).
    All,
    /// Each unordered pair of hands once: the sequences whose first half is at most its second
    /// in lexicographic order (cristal-smac/bataille's `generer_toutes_distributions`; two
    /// players, an even deck).
    Unordered,
    /// The first half of the sequences in lexicographic order, all of them for an odd deck
    /// (legrosbuffle/bataille_cpp's `explore exhaustive`; two players).
    LexHalf,
}

impl DealSet {
    /// Every set, in the order help lists them.
    pub const ALL: [DealSet; 3] = [DealSet::All, DealSet::Unordered, DealSet::LexHalf];

    /// The set's name on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            DealSet::All => "all",
            DealSet::Unordered => "unordered",
            DealSet::LexHalf => "lex-half",
        }
    }

    /// The set of this name ([`DealSet::name`]).
    pub fn named(name: &str) -> Option<DealSet> {
        DealSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// How many leading sequences of the lexicographic order the set draws from (the
    /// `Unordered` set then keeps those that pass [`DealSet::keeps`]).
    pub fn sequences(self, all: u128, cards: usize) -> u128 {
        match self {
            DealSet::LexHalf if cards.is_multiple_of(2) => all / 2,
            _ => all,
        }
    }

    /// How many deals the set plays of the `sequences` it goes through, sequences of `counts[r]`
    /// cards of each rank r: each unordered pair of hands once is half of them, and half of
    /// those whose two hands are alike (every count even) more.
    pub fn played(self, counts: &[u32], sequences: u128) -> u128 {
        if self != DealSet::Unordered {
            return sequences;
        }
        let halves: Option<Vec<u32>> = (counts.iter())
            .map(|&c| c.is_multiple_of(2).then_some(c / 2))
            .collect();
        let alike = halves.and_then(|h| multinomial(&h)).unwrap_or(0);
        (sequences + alike) / 2
    }

    /// Whether the set plays this sequence (one of its [`DealSet::sequences`]).
    #[inline]
    pub fn keeps(self, sequence: &[u8]) -> bool {
        match self {
            DealSet::Unordered => {
                let (first, second) = sequence.split_at(sequence.len() / 2);
                first <= second
            }
            _ => true,
        }
    }
}

impl fmt::Display for DealSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The number of distinct sequences of `counts[r]` cards of each rank r: the multinomial
/// (Σc)! / Π(c!), or `None` beyond `u128`.
pub fn multinomial(counts: &[u32]) -> Option<u128> {
    // Built up one card at a time: C(n, k) stays exact at every step.
    let mut total: u128 = 1;
    let mut n: u128 = 0;
    for &count in counts {
        for k in 1..=u128::from(count) {
            n += 1;
            total = total.checked_mul(n)? / k;
        }
    }
    Some(total)
}

/// The sequence at `index` (0-based) in the lexicographic order of the distinct sequences with
/// `counts[r]` cards of rank r + 1. `index` must be below [`multinomial`]`(counts)`.
pub fn unrank(counts: &[u32], mut index: u128) -> Vec<u8> {
    let mut left = counts.to_vec();
    let cards: u32 = counts.iter().sum();
    let mut total = multinomial(counts).expect("a deck small enough to rank");
    assert!(index < total, "index {index} past the {total} sequences");
    let mut sequence = Vec::with_capacity(cards as usize);
    for remaining in (1..=u128::from(cards)).rev() {
        for (rank, count) in left.iter_mut().enumerate() {
            if *count == 0 {
                continue;
            }
            // The sequences that put this rank next: total · count / remaining, exactly.
            let starting_here = total * u128::from(*count) / remaining;
            if index < starting_here {
                sequence.push(rank as u8 + 1);
                *count -= 1;
                total = starting_here;
                break;
            }
            index -= starting_here;
        }
    }
    sequence
}

/// Steps `sequence` to the next one in lexicographic order, equal ranks never swapped (so each
/// distinct sequence comes once); false, leaving it unchanged, after the last.
#[inline]
pub fn next_sequence(sequence: &mut [u8]) -> bool {
    let Some(pivot) = sequence.windows(2).rposition(|w| w[0] < w[1]) else {
        return false;
    };
    let successor = sequence
        .iter()
        .rposition(|&c| c > sequence[pivot])
        .expect("the pivot has a larger card after it");
    sequence.swap(pivot, successor);
    sequence[pivot + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn the_multinomial_counts_the_published_decks() {
        // cristal-smac/bataille's table of deals (calcul_distribs_completes.py).
        assert_eq!(multinomial(&[4, 4]), Some(70));
        assert_eq!(multinomial(&[4, 4, 4]), Some(34_650));
        assert_eq!(multinomial(&[4; 4]), Some(63_063_000));
        assert_eq!(multinomial(&[3; 4]), Some(369_600));
        assert_eq!(multinomial(&[1; 9]), Some(362_880));
        assert_eq!(multinomial(&[4; 13]), None, "52 cards: about 9.2e49 deals");
    }

    #[test]
    fn stepping_visits_every_distinct_sequence_once_in_order() {
        let counts = [2, 3, 1];
        let mut sequence = unrank(&counts, 0);
        assert_eq!(sequence, vec![1, 1, 2, 2, 2, 3]);
        let mut seen = vec![sequence.clone()];
        while next_sequence(&mut sequence) {
            seen.push(sequence.clone());
        }
        assert_eq!(seen.len(), 60);
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
        assert_eq!(seen.iter().collect::<BTreeSet<_>>().len(), 60);
        for (index, expected) in seen.iter().enumerate() {
            assert_eq!(unrank(&counts, index as u128), *expected, "index {index}");
        }
        assert_eq!(*seen.last().unwrap(), vec![3, 2, 2, 2, 1, 1]);
    }

    #[test]
    fn the_published_deal_sets_have_their_published_sizes() {
        // 4 suits × 3 ranks: 17,370 unordered pairs of hands (records_C4_naturelle.py).
        let mut sequence = unrank(&[4, 4, 4], 0);
        let mut unordered = 0;
        loop {
            unordered += u64::from(DealSet::Unordered.keeps(&sequence));
            if !next_sequence(&mut sequence) {
                break;
            }
        }
        assert_eq!(unordered, 17_370);
        assert_eq!(DealSet::LexHalf.sequences(34_650, 12), 17_325);
        assert_eq!(DealSet::LexHalf.sequences(120, 5), 120);
    }
}
