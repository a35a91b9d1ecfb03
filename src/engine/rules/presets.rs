//! The named rule sets: one per seed document, each a plain [`Rules`] value.
//! See docs/RULES.md for where every setting comes from.

use std::fmt;

use super::{
    AtCap, Champion, Deal, Family, Generator, GroupOrder, Named, Pickup, Rules, Shortage, Shuffle,
    Spoils, Uneven,
};

/// The presets `--rules` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Standard War.
    Classic,
    /// war_card_game 0.3.1, the Rust crate.
    WarCardGame,
    /// Game-of-War, the interactive game.
    GameOfWar,
    /// WarSimulator, the multi-player simulator.
    WarSimulator,
    /// WarSimulator as its code runs, quirks included.
    WarSimulatorOriginal,
    /// cards-war, the two-hand simulator.
    CardsWar,
    /// The fixed-rounds pseudocode.
    FixedRounds,
}

impl Preset {
    /// Every preset, in the order `warsim rules` lists them.
    pub const ALL: &'static [Preset] = &[
        Preset::Classic,
        Preset::WarCardGame,
        Preset::GameOfWar,
        Preset::WarSimulator,
        Preset::WarSimulatorOriginal,
        Preset::CardsWar,
        Preset::FixedRounds,
    ];

    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::WarCardGame => "war-card-game",
            Preset::GameOfWar => "game-of-war",
            Preset::WarSimulator => "war-simulator",
            Preset::WarSimulatorOriginal => "war-simulator-original",
            Preset::CardsWar => "cards-war",
            Preset::FixedRounds => "fixed-rounds",
        }
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Classic => {
                "standard War: 1 down + 1 up, table-order pickup, out of cards in a war loses"
            }
            Preset::WarCardGame => {
                "war_card_game 0.3.1: classic rules with that crate's deck order, ChaCha12 shuffle and deal from the end, seed for seed"
            }
            Preset::GameOfWar => {
                "Game-of-War: 3 down + 1 up, play what you have, seat 2's cards back first, reshuffle every 100 rounds, 5,000-round cap → larger pile, sudden death"
            }
            Preset::WarSimulator => {
                "WarSimulator: lowest cards dropped to deal evenly, spoil heaps, every tied group wars with 3 stakes + a champion, nested wars"
            }
            Preset::WarSimulatorOriginal => {
                "WarSimulator as its code runs: its Sattolo shuffle (no card left in place) for the deck and the heaps, the champion shown before the stakes, groups settled in the order shown, a game given up after 100 rounds without a winner, its deck built and dealt as the original's"
            }
            Preset::CardsWar => {
                "cards-war: 3 down + 1 up, smaller-hand shortage (a tie there ends the game), loser's cards then winner's go under"
            }
            Preset::FixedRounds => {
                "the fixed-rounds pseudocode: each player its own deck of 1..13 twice, 26 rounds compare card i with card i, no wars, more round wins takes the match"
            }
        }
    }

    /// Why the preset only takes two players, if it does.
    pub fn two_players_only(self) -> Option<&'static str> {
        match self {
            Preset::GameOfWar => Some("Game-of-War is a human-vs-computer game"),
            Preset::CardsWar => Some("cards-war deals and settles wars between two hands"),
            _ => None,
        }
    }

    /// The preset's rules with its default deck.
    pub fn rules(self) -> Rules {
        let classic = Rules {
            preset: self,
            family: Family::Table,
            players: 2,
            suits: 4,
            ranks: 13,
            uneven: Uneven::DealAll,
            deal: Deal::FromTop,
            generator: Generator::Xoshiro,
            shuffle: Shuffle::FisherYates,
            face_down: 1,
            champion: Champion::Last,
            group_order: GroupOrder::HighestFirst,
            shortage: Shortage::Lose,
            pickup: Pickup::Table,
            spoils: Spoils::UnderPile,
            reshuffle_every: 0,
            max_rounds: 100_000,
            abandon_after: 0,
            at_cap: AtCap::Capped,
        };
        let war_simulator = Rules {
            family: Family::Groups,
            uneven: Uneven::DropLowest,
            face_down: 3,
            shortage: Shortage::PlayWhatYouHave,
            pickup: Pickup::Shuffled,
            spoils: Spoils::Heap,
            ..classic.clone()
        };
        match self {
            Preset::Classic => classic,
            Preset::WarCardGame => Rules {
                deal: Deal::FromEnd,
                generator: Generator::WarCardGame,
                ..classic
            },
            Preset::GameOfWar => Rules {
                face_down: 3,
                shortage: Shortage::PlayWhatYouHave,
                pickup: Pickup::ReverseSeats,
                reshuffle_every: 100,
                max_rounds: 5000,
                at_cap: AtCap::LargerPile,
                ..classic
            },
            Preset::WarSimulator => war_simulator,
            Preset::WarSimulatorOriginal => Rules {
                uneven: Uneven::DropFirst,
                deal: Deal::LastSeatFirst,
                shuffle: Shuffle::Sattolo,
                champion: Champion::First,
                group_order: GroupOrder::AsShown,
                abandon_after: 100,
                ..war_simulator
            },
            Preset::CardsWar => Rules {
                face_down: 3,
                shortage: Shortage::SmallerHand,
                pickup: Pickup::LoserFirst,
                ..classic
            },
            Preset::FixedRounds => Rules {
                family: Family::FixedRounds,
                suits: 2,
                face_down: 0,
                max_rounds: 26,
                ..classic
            },
        }
    }
}

/// `--rules` names: found and listed like every other setting's.
impl Named for Preset {
    const ALL: &'static [Self] = Preset::ALL;
    fn name(self) -> &'static str {
        Preset::name(self)
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
