//! Rules as data: every setting a War system can differ in, the named presets, and the limits
//! the engine supports.
//!
//! The engine reads these settings; it never looks at a preset's name. A preset is only a
//! starting `Rules` value that command-line settings may override.

use std::fmt;

/// Most players in one game.
pub const MAX_PLAYERS: u32 = 32;
/// Most ranks (cards per suit): a rank is one byte.
pub const MAX_RANKS: u32 = 255;
/// Most cards in the deck (suits × ranks); piles are fixed arrays of this many cards at most.
pub const MAX_CARDS: u32 = 1024;
/// Most suits: with one rank, every card is a suit of its own.
pub const MAX_SUITS: u32 = MAX_CARDS;

/// The named rule sets `--rules` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Standard War: 1 down + 1 up, table-order pickup, out of cards in a war loses.
    Classic,
}

impl Preset {
    /// Every preset, in the order `warsim rules` lists them.
    pub const ALL: [Preset; 1] = [Preset::Classic];

    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
        }
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Classic => {
                "standard War: 1 down + 1 up per war, table-order pickup, out of cards in a war loses"
            }
        }
    }

    /// Finds a preset by its name.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The preset's rules with the default deck.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Classic => Rules {
                preset: self,
                players: 2,
                suits: 4,
                ranks: 13,
                face_down: 1,
                max_rounds: 100_000,
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that decides how one game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: Preset,
    /// Players at the table, 2..=32.
    pub players: u32,
    /// Suits in the deck.
    pub suits: u32,
    /// Ranks per suit (cards per suit); rank 1 is the lowest.
    pub ranks: u32,
    /// Cards each player puts face down in a war before the face-up card.
    pub face_down: u32,
    /// Rounds after which an unfinished game stops with outcome `capped`.
    pub max_rounds: u32,
}

/// A setting outside what the engine supports; the message names the flag and the range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("--players {0} is out of range: use 2 to {MAX_PLAYERS}")]
    Players(u32),
    #[error(
        "--suits {0} is out of range: use 1 to {MAX_SUITS} (suits × ranks at most {MAX_CARDS})"
    )]
    Suits(u32),
    #[error(
        "--ranks {0} is out of range: use 1 to {MAX_RANKS} (suits × ranks at most {MAX_CARDS})"
    )]
    Ranks(u32),
    #[error(
        "--suits {suits} × --ranks {ranks} = {cards} cards is more than the {MAX_CARDS} supported: use a smaller deck"
    )]
    DeckTooLarge { suits: u32, ranks: u32, cards: u32 },
    #[error(
        "--players {players} is more than the {cards} cards in the deck: use at most {cards} players or a larger deck"
    )]
    MorePlayersThanCards { players: u32, cards: u32 },
    #[error("--face-down {0} is out of range: use 0 to 255")]
    FaceDown(u32),
    #[error("--max-rounds 0 is out of range: use 1 to {}", u32::MAX)]
    MaxRounds,
}

impl Rules {
    /// Cards in the deck.
    pub fn cards(&self) -> u32 {
        self.suits * self.ranks
    }

    /// Checks every setting against what the engine supports.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(RulesError::Players(self.players));
        }
        if !(1..=MAX_SUITS).contains(&self.suits) {
            return Err(RulesError::Suits(self.suits));
        }
        if !(1..=MAX_RANKS).contains(&self.ranks) {
            return Err(RulesError::Ranks(self.ranks));
        }
        let cards = self.suits * self.ranks;
        if cards > MAX_CARDS {
            return Err(RulesError::DeckTooLarge {
                suits: self.suits,
                ranks: self.ranks,
                cards,
            });
        }
        if self.players > cards {
            return Err(RulesError::MorePlayersThanCards {
                players: self.players,
                cards,
            });
        }
        if self.face_down > 255 {
            return Err(RulesError::FaceDown(self.face_down));
        }
        if self.max_rounds == 0 {
            return Err(RulesError::MaxRounds);
        }
        Ok(())
    }

    /// One line naming the preset and every setting, for summaries.
    pub fn describe(&self) -> String {
        format!(
            "{} ({} players, {} suits × {} ranks = {} cards, {} face down per war, cap {} rounds)",
            self.preset,
            self.players,
            self.suits,
            self.ranks,
            self.cards(),
            self.face_down,
            self.max_rounds
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_defaults_are_valid() {
        let rules = Preset::Classic.rules();
        assert_eq!(rules.cards(), 52);
        assert_eq!(rules.validate(), Ok(()));
        assert_eq!(Preset::from_name("classic"), Some(Preset::Classic));
        assert_eq!(Preset::from_name("nope"), None);
    }

    #[test]
    fn limits_are_enforced() {
        let base = Preset::Classic.rules();
        let with = |f: fn(&mut Rules)| {
            let mut r = base.clone();
            f(&mut r);
            r.validate()
        };
        assert_eq!(with(|r| r.players = 1), Err(RulesError::Players(1)));
        assert_eq!(with(|r| r.suits = 0), Err(RulesError::Suits(0)));
        assert_eq!(with(|r| r.ranks = 256), Err(RulesError::Ranks(256)));
        assert!(matches!(
            with(|r| r.suits = 100),
            Err(RulesError::DeckTooLarge { cards: 1300, .. })
        ));
        assert!(matches!(
            with(|r| {
                r.suits = 1;
                r.ranks = 3;
                r.players = 4
            }),
            Err(RulesError::MorePlayersThanCards {
                players: 4,
                cards: 3
            })
        ));
        assert_eq!(with(|r| r.max_rounds = 0), Err(RulesError::MaxRounds));
        assert_eq!(
            with(|r| {
                r.suits = 4;
                r.ranks = 255;
                r.players = 32
            }),
            Ok(())
        );
    }
}
