//! `warsim enumerate`: every distinct deal of a small deck played to its end, for rules with
//! nothing random after the deal, so that wins, draws, cycles and the distribution of lengths
//! are exact rather than estimated.
//!
//! The deals are the sequences of ranks (suits ignored) in lexicographic order, cut into
//! consecutive hands (`deals.rs`). The order is split into chunks, each started by ranking its
//! first sequence, played on a rayon pool; each worker tallies its own games (`tally.rs`) and
//! the tallies merge to the same figures whatever the thread count.

pub mod command;
pub mod deals;
pub mod report;
pub mod tally;

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::engine::rules::{Family, Shuffle};
use crate::engine::{Engine, Outcome, Rules};
pub use deals::DealSet;
pub use tally::Tally;

/// The most deals an enumeration plays unless told otherwise: roughly half an hour on two
/// cores for a 16-card deck.
pub const DEFAULT_MAX_DEALS: u64 = 10_000_000_000;

/// Deals a chunk plays at most: small enough for a smooth progress bar and an even split.
const CHUNK: u128 = 1 << 16;

/// Why an enumeration cannot run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EnumerateError {
    /// Something random happens after the deal: games are not functions of their deals.
    #[error(
        "{what} draws at random after the deal: warsim enumerate needs rules where the deal decides the game (use warsim run to sample them)"
    )]
    Random {
        /// The setting responsible.
        what: String,
    },
    /// The deal is not a uniform shuffle cut into hands: the deals are not equally likely,
    /// or not deals of one shared deck, so weighing each deal once would not give the game's
    /// figures.
    #[error("{what}: warsim enumerate weighs every deal of one shared deck alike{fix}")]
    Deal {
        /// The setting responsible, with what its deal does.
        what: String,
        /// What to do instead, starting with its separator.
        fix: &'static str,
    },
    /// The deck has more deals than allowed.
    #[error(
        "--suits {suits} --ranks {ranks}: {deals} to play with --deals {set}, more than --max-deals {max} allows; raise --max-deals, or use a smaller deck"
    )]
    TooMany {
        /// The deck's suits.
        suits: u32,
        /// The deck's ranks.
        ranks: u32,
        /// How many deals that would be, written out with the noun ("1 deal", "about 3.2e20 deals").
        deals: String,
        /// The deal set.
        set: DealSet,
        /// The limit, written out.
        max: String,
    },
    /// The deal set needs two players (or an even deck).
    #[error("--deals {set} {needs}")]
    DealSet {
        /// The deal set.
        set: DealSet,
        /// What it needs.
        needs: &'static str,
    },
}

/// An enumeration's plan: the rules, the deals, and their number.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The rules every deal is played under.
    pub rules: Rules,
    /// Which deals.
    pub set: DealSet,
    /// Cards of each rank (the suits), rank 1 first.
    pub counts: Vec<u32>,
    /// How many leading sequences of the lexicographic order are drawn from.
    pub sequences: u128,
}

impl Plan {
    /// Checks that `rules` can be enumerated with `set` within `max_deals` deals.
    pub fn new(rules: &Rules, set: DealSet, max_deals: u128) -> Result<Plan, EnumerateError> {
        if rules.family == Family::FixedRounds {
            return Err(EnumerateError::Deal {
                what: "--rules fixed-rounds deals each player a deck of its own".to_string(),
                fix: " (use warsim run to sample them)",
            });
        }
        let random = if rules.family != Family::Table {
            Some(format!(
                "--rules {} (its {} family)",
                rules.preset, rules.family
            ))
        } else if !rules.deterministic_after_deal() {
            Some(match (rules.reshuffle_every, rules.spoils, rules.pickup) {
                (every @ 1.., _, _) => format!("--reshuffle-every {every}"),
                (_, crate::engine::rules::Spoils::Heap, _) => "--spoils heap".to_string(),
                (_, _, pickup) => format!("--pickup {pickup}"),
            })
        } else {
            None
        };
        if let Some(what) = random {
            return Err(EnumerateError::Random { what });
        }
        if let Some(refusal) = unequal_deals(rules) {
            return Err(refusal);
        }
        let cards = (rules.suits * rules.ranks) as usize;
        match set {
            DealSet::Unordered if rules.players != 2 || cards % 2 == 1 => {
                return Err(EnumerateError::DealSet {
                    set,
                    needs: "needs two players and an even deck (two hands of one size)",
                });
            }
            DealSet::LexHalf if rules.players != 2 => {
                return Err(EnumerateError::DealSet {
                    set,
                    needs: "needs two players",
                });
            }
            _ => {}
        }
        let counts = vec![rules.suits; rules.ranks as usize];
        let all = deals::multinomial(&counts);
        let sequences = all.map(|all| set.sequences(all, cards));
        match sequences {
            Some(n) if n <= max_deals => Ok(Plan {
                rules: rules.clone(),
                set,
                counts,
                sequences: n,
            }),
            _ => Err(EnumerateError::TooMany {
                suits: rules.suits,
                ranks: rules.ranks,
                deals: match sequences {
                    Some(n) => crate::export::text::counted(n as u64, "deal"),
                    None => format!("about {:.2e} deals", approximate_multinomial(&counts)),
                },
                set,
                max: crate::export::text::group(max_deals.min(u128::from(u64::MAX)) as u64),
            }),
        }
    }

    /// Plays every deal of the plan on `threads` threads, calling `progress` with the number of
    /// sequences each finished chunk covered. Once `stop` says so, the chunks left are skipped,
    /// and the tally is `None`: figures over some of the deals are not the deck's.
    pub fn run(
        &self,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Tally> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool of a valid size");
        let chunks = self.sequences.div_ceil(CHUNK) as u64;
        let skipped = AtomicBool::new(false);
        let tally = pool.install(|| {
            (0..chunks)
                .into_par_iter()
                .fold(
                    || {
                        (
                            Engine::for_rules(&self.rules),
                            Tally::new(self.rules.players as usize),
                        )
                    },
                    |(mut engine, mut tally), chunk| {
                        if stop() {
                            skipped.store(true, Ordering::Relaxed);
                            return (engine, tally);
                        }
                        let first = u128::from(chunk) * CHUNK;
                        let len = (self.sequences - first).min(CHUNK);
                        self.play_chunk(&mut engine, &mut tally, first, len);
                        progress(len as u64);
                        (engine, tally)
                    },
                )
                .map(|(_, tally)| tally)
                .reduce(
                    || Tally::new(self.rules.players as usize),
                    |mut a, b| {
                        a.merge(b);
                        a
                    },
                )
        });
        (!skipped.into_inner()).then_some(tally)
    }

    /// Plays `len` sequences from the `first`-th.
    fn play_chunk(&self, engine: &mut Engine, tally: &mut Tally, first: u128, len: u128) {
        let mut sequence = deals::unrank(&self.counts, first);
        let mut position = Vec::new();
        for i in 0..len {
            if self.set.keeps(&sequence) {
                let record = engine.play_sequence(&self.rules, &sequence);
                if record.outcome == Outcome::Cycle {
                    engine.position(&self.rules, &mut position);
                    tally.add_cycle(&position, || engine.walk_cycle(&self.rules));
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

/// Why the deals of `rules` are not all equally likely, or not cut into hands as
/// `warsim run` deals them; none when they are.
fn unequal_deals(rules: &Rules) -> Option<EnumerateError> {
    if rules.shuffle != Shuffle::FisherYates {
        // Sattolo's shuffle never leaves a card in place, and Game-of-War's swaps make some
        // orders likelier: on 4 suits × 3 ranks, sampled games under either are 6.18 to 6.27
        // rounds long on average, against 6.15 for every deal weighed alike.
        return Some(EnumerateError::Deal {
            what: format!(
                "--shuffle {} deals some sequences of ranks more often than others",
                rules.shuffle
            ),
            fix: ", as --shuffle fisher-yates deals them (use warsim run to sample the other shuffles)",
        });
    }
    if rules.cards_in_play() != rules.cards() {
        return Some(EnumerateError::Deal {
            what: format!(
                "--rules {} drops cards to deal the deck evenly ({})",
                rules.preset, rules.uneven
            ),
            fix: " (use warsim run to sample them, or a deck the players divide)",
        });
    }
    None
}

/// The multinomial of `counts` in floating point, for decks too large to count exactly.
fn approximate_multinomial(counts: &[u32]) -> f64 {
    let ln_factorial = |n: u32| (1..=n).map(|k| f64::from(k).ln()).sum::<f64>();
    let cards: u32 = counts.iter().sum();
    (ln_factorial(cards) - counts.iter().map(|&c| ln_factorial(c)).sum::<f64>()).exp()
}
