//! `warsim enumerate`: every distinct deal of a small deck played to its end, for rules with
//! nothing random after the deal, so that wins, draws, cycles and the distribution of lengths
//! are exact rather than estimated.
//!
//! The deals are the sequences of ranks (suits ignored) in lexicographic order, cut into
//! consecutive hands (`deals.rs`). The order is split into chunks, each started by ranking its
//! first sequence, played on worker threads and tallied apart (`tally.rs`), the tallies
//! merged in order (`chunks.rs`) to the same figures whatever the thread count, and to a
//! checkpoint of the sequences played so far. A part of the order
//! (`--shard K/N`, [`Plan::part`]) is tallied alike and saved as a state (`saved.rs`), and
//! the parts' tallies merge, by `warsim merge`, to the whole enumeration's.

mod chunks;
pub mod command;
pub mod deals;
pub mod report;
pub mod saved;
pub mod tally;

use std::ops::Range;

use crate::batch::Shard;
use crate::engine::Rules;
use crate::engine::rules::{Family, Shuffle};
use crate::export::text::{counted, group};
pub use chunks::Played;
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
        "--suits {suits} --ranks {ranks}: {deals} with --deals {set}, more than --max-deals {max} allows; raise --max-deals, or {instead}"
    )]
    TooMany {
        /// The deck's suits.
        suits: u32,
        /// The deck's ranks.
        ranks: u32,
        /// How many deals that would be, written out ("1 deal to play", "about 3.2e20 deals to
        /// play"; with `--deals unordered`, the sequences gone through first).
        deals: String,
        /// The deal set.
        set: DealSet,
        /// The limit, written out.
        max: String,
        /// What else to do: a smaller deck, or more parts.
        instead: &'static str,
    },
    /// The deck has more deals than any `--max-deals` allows: no limit, and no number of parts,
    /// would let it be played.
    #[error(
        "--suits {suits} --ranks {ranks}: {deals} with --deals {set}, more than warsim can go through (at most {most} sequences, the largest --max-deals); use a smaller deck"
    )]
    Beyond {
        /// The deck's suits.
        suits: u32,
        /// The deck's ranks.
        ranks: u32,
        /// How many deals that would be, written out as for [`EnumerateError::TooMany`].
        deals: String,
        /// The deal set.
        set: DealSet,
        /// The most sequences there may be, written out.
        most: String,
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
    /// The sequences this enumeration plays: all of them, or a shard's part ([`Plan::part`]).
    pub part: Range<u128>,
}

impl Plan {
    /// How many sequences the plan's part holds.
    pub fn part_len(&self) -> u128 {
        self.part.end - self.part.start
    }

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
                part: 0..n,
            }),
            _ => {
                let deals = match sequences {
                    Some(n) => work(set, n, "", Some(set.played(&counts, n))),
                    None => approximate_work(set, &counts),
                };
                let (suits, ranks) = (rules.suits, rules.ranks);
                // `part` asks for this most; naming it as the user's limit, with "raise
                // --max-deals", would send them to a flag that cannot help.
                let most = u128::from(u64::MAX);
                Err(match sequences {
                    Some(n) if n <= most => EnumerateError::TooMany {
                        suits,
                        ranks,
                        deals,
                        set,
                        max: group(max_deals),
                        instead: "use a smaller deck",
                    },
                    _ => EnumerateError::Beyond {
                        suits,
                        ranks,
                        deals,
                        set,
                        most: group(most),
                    },
                })
            }
        }
    }

    /// The plan of part K of N of the deals of `rules` ([`Shard`]): sequences ⌊K·S/N⌋ to
    /// ⌊(K+1)·S/N⌋ − 1 of the S, as a run's shard takes its games, so the N parts play every
    /// sequence once. `max_deals` bounds the part, not the deck: a deck too large for one
    /// machine is what parts are for.
    pub fn part(
        rules: &Rules,
        set: DealSet,
        shard: Shard,
        max_deals: u128,
    ) -> Result<Plan, EnumerateError> {
        // A deck of at most u64::MAX sequences: the batch's shards' arithmetic holds.
        let mut plan = Plan::new(rules, set, u128::from(u64::MAX))?;
        let part = shard.range(plan.sequences as u64);
        let length = part.end - part.start;
        if u128::from(length) > max_deals {
            return Err(EnumerateError::TooMany {
                suits: rules.suits,
                ranks: rules.ranks,
                deals: work(set, length.into(), &format!(" in part {shard}"), None),
                set,
                max: group(max_deals),
                instead: "play more parts, each smaller",
            });
        }
        plan.part = u128::from(part.start)..u128::from(part.end);
        Ok(plan)
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

/// The work of `sequences` sequences (`within` a part, " in part 0/10"), for a refusal:
/// "63,063,000 deals to play"; with `--deals unordered`, which plays about half of the sequences
/// it goes through, "305,540,235,000 sequences to go through (152,770,174,200 deals to play)",
/// the deals when known (`played`).
fn work(set: DealSet, sequences: u128, within: &str, played: Option<u128>) -> String {
    if set != DealSet::Unordered {
        return format!("{}{within} to play", counted(sequences, "deal"));
    }
    let deals = played.map_or(String::new(), |n| {
        format!(" ({} to play)", counted(n, "deal"))
    });
    format!(
        "{}{within} to go through{deals}",
        counted(sequences, "sequence")
    )
}

/// [`work`] for a deck too large to count exactly: "about 9.20e49 deals to play".
fn approximate_work(set: DealSet, counts: &[u32]) -> String {
    let even = counts.iter().sum::<u32>().is_multiple_of(2);
    let deals = |halved| approximate_multinomial(counts, halved);
    match set {
        DealSet::All => format!("about {} deals to play", deals(false)),
        DealSet::LexHalf => format!("about {} deals to play", deals(even)),
        DealSet::Unordered => format!(
            "about {} sequences to go through (about {} deals to play)",
            deals(false),
            deals(true)
        ),
    }
}

/// The multinomial of `counts`, halved if `halved`, written to three figures ("9.20e49"), for
/// decks too large to count exactly. Worked out in logarithms: a deck of 256 cards or more
/// has more deals than a float holds (255! is about 3.35e504), and was written "inf".
fn approximate_multinomial(counts: &[u32], halved: bool) -> String {
    let ln_factorial = |n: u32| (1..=n).map(|k| f64::from(k).ln()).sum::<f64>();
    let cards: u32 = counts.iter().sum();
    let ln = ln_factorial(cards)
        - counts.iter().map(|&c| ln_factorial(c)).sum::<f64>()
        - if halved { 2f64.ln() } else { 0.0 };
    let log10 = ln / std::f64::consts::LN_10;
    let mut exponent = log10.floor();
    let mut mantissa = 10f64.powf(log10 - exponent);
    // 9.996 would be written 10.00.
    if mantissa >= 9.995 {
        (exponent, mantissa) = (exponent + 1.0, mantissa / 10.0);
    }
    format!("{mantissa:.2}e{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_too_large_to_count_are_written_approximately_past_any_float() {
        // 52! / 24^13 and 255!, as any table of factorials has them.
        assert_eq!(approximate_multinomial(&[4; 13], false), "9.20e49");
        assert_eq!(approximate_multinomial(&[1; 255], false), "3.35e504");
        assert_eq!(approximate_multinomial(&[1; 255], true), "1.68e504");
        // 4 × 255 cards: 1020! / 24^255 = 10^(2,627.695… − 351.954…).
        assert_eq!(approximate_multinomial(&[4; 255], false), "5.51e2275");
        assert_eq!(
            approximate_work(DealSet::Unordered, &[1; 40]),
            "about 8.16e47 sequences to go through (about 4.08e47 deals to play)"
        );
        assert_eq!(
            approximate_work(DealSet::LexHalf, &[1; 41]),
            "about 3.35e49 deals to play"
        );
    }
}
