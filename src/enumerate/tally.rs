//! What an enumeration counts, exactly: outcomes by seat, the distributions of lengths, the
//! longest finite game with its deal, and every distinct cycle with its period. Each worker
//! keeps its own tally; tallies merge in any order to the same result (sums, and ties broken
//! by the deal's order), so nothing depends on the thread count.

use std::collections::{BTreeMap, HashMap};

use crate::engine::given::swap_seats;
use crate::engine::{GameRecord, Outcome, WinBy};
use crate::stats::sample_sd;

/// A longest finite game, by rounds or by cards laid: the first deal in lexicographic order
/// among the longest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Longest {
    /// Its rounds (tricks).
    pub rounds: u32,
    /// Cards laid by every player, face up and face down.
    pub cards_played: u64,
    /// The deal, a sequence of ranks cut into consecutive hands.
    pub deal: Vec<u8>,
}

/// One distinct cycle (a set of positions a game goes round forever).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Rounds to go round it once.
    pub period: u32,
    /// Deals that end in it.
    pub deals: u64,
    /// Its least position with the two seats exchanged, when two play: the same for a cycle
    /// and its mirror image.
    pub mirror: Option<Vec<u8>>,
}

/// Exact counts over the deals played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Deals played.
    pub deals: u64,
    /// Games won, by seat.
    pub wins: Vec<u64>,
    /// Games nobody won.
    pub draws: u64,
    /// Games stopped by the round cap before they ended or looped.
    pub capped: u64,
    /// Games that loop forever.
    pub cycled: u64,
    /// Won games by what decided them, in [`WinBy::ALL`]'s order.
    pub win_by: [u64; WinBy::ALL.len()],
    /// Finite games (won or drawn) by their rounds: `rounds[r]` games of r rounds.
    pub rounds: Vec<u64>,
    /// Finite games by the cards every player laid.
    pub cards: Vec<u64>,
    /// Finite games by their ties.
    pub wars: Vec<u64>,
    /// The finite game of the most rounds.
    pub longest: Option<Longest>,
    /// The finite game of the most cards laid (French bataille's measure of length).
    pub longest_by_cards: Option<Longest>,
    /// The distinct cycles, by their least position.
    pub cycles: BTreeMap<Vec<u8>, Cycle>,
}

/// The cycles a worker has walked: every position of each, to its least one, and each cycle
/// with no deals counted, so that a looping game is matched to its cycle without walking it
/// again, whichever chunk's tally it goes to.
#[derive(Debug, Default)]
pub struct CycleCache {
    least_of: HashMap<Vec<u8>, Vec<u8>>,
    found: HashMap<Vec<u8>, Cycle>,
}

impl Tally {
    /// An empty tally for `players` seats.
    pub fn new(players: usize) -> Tally {
        Tally {
            wins: vec![0; players],
            ..Tally::default()
        }
    }

    /// Counts a finite or capped game of the deal `deal`.
    pub fn add(&mut self, record: &GameRecord, deal: &[u8]) {
        self.deals += 1;
        if let Some(by) = record.win_by {
            self.win_by[by as usize] += 1;
        }
        match record.outcome {
            Outcome::Win => self.wins[usize::from(record.winner.expect("a winner"))] += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Capped => {
                self.capped += 1;
                return;
            }
            Outcome::Cycle => unreachable!("cycles are counted by add_cycle"),
            Outcome::Abandoned => unreachable!("only the groups family abandons games"),
        }
        bump(&mut self.rounds, record.rounds as usize);
        bump(&mut self.cards, record.cards_played as usize);
        bump(&mut self.wars, record.wars as usize);
        let game = || Longest {
            rounds: record.rounds,
            cards_played: record.cards_played,
            deal: deal.to_vec(),
        };
        let key = (u64::from(record.rounds), deal);
        if longer(key, self.longest.as_ref(), |l| u64::from(l.rounds)) {
            self.longest = Some(game());
        }
        let key = (record.cards_played, deal);
        if longer(key, self.longest_by_cards.as_ref(), |l| l.cards_played) {
            self.longest_by_cards = Some(game());
        }
    }

    /// Counts a game that loops forever, now at `position`; `walk` gives its cycle's positions
    /// when the cycle is new to this worker's `cache`.
    pub fn add_cycle(
        &mut self,
        cache: &mut CycleCache,
        position: &[u8],
        walk: impl FnOnce() -> Vec<Vec<u8>>,
    ) {
        self.deals += 1;
        self.cycled += 1;
        let least = match cache.least_of.get(position) {
            Some(least) => least.clone(),
            None => {
                let positions = walk();
                let least = positions
                    .iter()
                    .min()
                    .expect("a cycle has a position")
                    .clone();
                let mirror = (self.wins.len() == 2)
                    .then(|| positions.iter().map(|p| swap_seats(p)).min())
                    .flatten();
                for p in positions.iter() {
                    cache.least_of.insert(p.clone(), least.clone());
                }
                let cycle = Cycle {
                    period: positions.len() as u32,
                    deals: 0,
                    mirror,
                };
                cache.found.insert(least.clone(), cycle);
                least
            }
        };
        // Most looping games end in a cycle this tally has counted already: one lookup.
        match self.cycles.get_mut(&least) {
            Some(cycle) => cycle.deals += 1,
            None => {
                let cycle = &cache.found[&least];
                self.cycles.insert(
                    least,
                    Cycle {
                        deals: 1,
                        ..cycle.clone()
                    },
                );
            }
        }
    }

    /// Adds another worker's counts.
    pub fn merge(&mut self, other: Tally) {
        self.deals += other.deals;
        for (mine, theirs) in self.wins.iter_mut().zip(&other.wins) {
            *mine += theirs;
        }
        self.draws += other.draws;
        self.capped += other.capped;
        self.cycled += other.cycled;
        for (mine, theirs) in self.win_by.iter_mut().zip(other.win_by) {
            *mine += theirs;
        }
        add_counts(&mut self.rounds, &other.rounds);
        add_counts(&mut self.cards, &other.cards);
        add_counts(&mut self.wars, &other.wars);
        if let Some(theirs) = other.longest {
            let key = (u64::from(theirs.rounds), &theirs.deal[..]);
            if longer(key, self.longest.as_ref(), |l| u64::from(l.rounds)) {
                self.longest = Some(theirs);
            }
        }
        if let Some(theirs) = other.longest_by_cards {
            let key = (theirs.cards_played, &theirs.deal[..]);
            if longer(key, self.longest_by_cards.as_ref(), |l| l.cards_played) {
                self.longest_by_cards = Some(theirs);
            }
        }
        for (least, cycle) in other.cycles {
            self.cycles
                .entry(least)
                .and_modify(|mine| mine.deals += cycle.deals)
                .or_insert(cycle);
        }
    }

    /// Finite games: won or drawn.
    pub fn finite(&self) -> u64 {
        self.rounds.iter().sum()
    }

    /// The sum of the finite games' rounds, exactly.
    pub fn rounds_sum(&self) -> u128 {
        weighted_sum(&self.rounds)
    }

    /// The sum of the cards laid in the finite games, exactly.
    pub fn cards_sum(&self) -> u128 {
        weighted_sum(&self.cards)
    }

    /// The sum of the finite games' ties, exactly.
    pub fn wars_sum(&self) -> u128 {
        weighted_sum(&self.wars)
    }

    /// The standard deviation of the finite games' ties, as [`Tally::rounds_sd`].
    pub fn wars_sd(&self) -> Option<f64> {
        population_sd(&self.wars)
    }

    /// The standard deviation of the finite games' rounds over every finite deal (the whole
    /// population: divided by N, not N − 1); none of no finite game.
    pub fn rounds_sd(&self) -> Option<f64> {
        population_sd(&self.rounds)
    }

    /// The standard deviation of the cards laid in the finite games, as [`Tally::rounds_sd`].
    pub fn cards_sd(&self) -> Option<f64> {
        population_sd(&self.cards)
    }

    /// Distinct cycles when a cycle and its mirror image (the seats exchanged) count as one.
    pub fn cycles_up_to_mirror(&self) -> usize {
        let mut classes: Vec<&Vec<u8>> = self
            .cycles
            .iter()
            .map(|(least, c)| c.mirror.as_ref().map_or(least, |m| m.min(least)))
            .collect();
        classes.sort();
        classes.dedup();
        classes.len()
    }
}

/// True when a game of `length` and `deal` beats `best` (longer, or as long with a deal earlier
/// in lexicographic order): the same winner whatever order games and tallies come in.
fn longer(
    (length, deal): (u64, &[u8]),
    best: Option<&Longest>,
    length_of: impl Fn(&Longest) -> u64,
) -> bool {
    best.is_none_or(|b| {
        (length, std::cmp::Reverse(deal)) > (length_of(b), std::cmp::Reverse(&b.deal[..]))
    })
}

fn bump(counts: &mut Vec<u64>, at: usize) {
    if counts.len() <= at {
        counts.resize(at + 1, 0);
    }
    counts[at] += 1;
}

fn add_counts(mine: &mut Vec<u64>, theirs: &[u64]) {
    if mine.len() < theirs.len() {
        mine.resize(theirs.len(), 0);
    }
    for (m, t) in mine.iter_mut().zip(theirs) {
        *m += t;
    }
}

/// The population standard deviation of the values whose counts `counts` holds (by value): the
/// sample one's exact sums, rescaled by √((N − 1)/N).
fn population_sd(counts: &[u64]) -> Option<f64> {
    let n: u64 = counts.iter().sum();
    let squares = counts
        .iter()
        .enumerate()
        .map(|(value, &k)| (value as u128).pow(2) * u128::from(k))
        .sum();
    match n {
        0 => None,
        1 => Some(0.0),
        _ => sample_sd(n, weighted_sum(counts), squares)
            .map(|sd| sd * ((n - 1) as f64 / n as f64).sqrt()),
    }
}

fn weighted_sum(counts: &[u64]) -> u128 {
    counts
        .iter()
        .enumerate()
        .map(|(value, &n)| value as u128 * u128::from(n))
        .sum()
}
