//! Rules as data: every setting a War system can differ in, the named presets, and the limits
//! the engine supports.
//!
//! The engine reads these settings; it never looks at a preset's name. A preset is only a
//! starting `Rules` value that command-line settings may override.

mod applies;
mod describe;
mod presets;
mod settings;

pub use applies::Setting;
pub use describe::{counted, group};
pub use presets::Preset;
pub use settings::{
    AtCap, Champion, Deal, Family, Generator, GroupOrder, Named, Pickup, Shortage, Shuffle, Spoils,
    Uneven,
};

/// Most players in one game.
pub const MAX_PLAYERS: u32 = 32;
/// Most ranks (cards per suit): a rank is one byte.
pub const MAX_RANKS: u32 = 255;
/// Most cards in the deck (suits × ranks); piles are fixed arrays of this many cards at most.
pub const MAX_CARDS: u32 = 1024;
/// Most suits: with one rank, every card is a suit of its own.
pub const MAX_SUITS: u32 = MAX_CARDS;
/// Largest round cap: one below the counter's limit, so the sudden-death round after a cap of
/// `larger-pile` can still be counted.
pub const MAX_ROUNDS: u32 = u32::MAX - 1;

/// The values the numeric rule flag `flag` (`--players`, `--suits`, …) takes, as its errors say
/// them: `2 to 32`. The others (`--reshuffle-every`, `--abandon-after`) take any u32.
pub fn accepted_range(flag: &str) -> String {
    match flag {
        "--players" => format!("2 to {MAX_PLAYERS}"),
        "--suits" => format!("1 to {MAX_SUITS} (suits × ranks at most {MAX_CARDS})"),
        "--ranks" => format!("1 to {MAX_RANKS} (suits × ranks at most {MAX_CARDS})"),
        "--face-down" => "0 to 255".to_string(),
        "--max-rounds" => format!("1 to {MAX_ROUNDS}"),
        _ => format!("0 to {}", u32::MAX),
    }
}

/// Everything that decides how one game is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these rules started from.
    pub preset: Preset,
    /// Which engine loop plays the game.
    pub family: Family,
    /// Players at the table, 2..=32.
    pub players: u32,
    /// Suits in the deck (fixed-rounds: copies of each value in a player's deck).
    pub suits: u32,
    /// Ranks per suit, rank 1 the lowest (fixed-rounds: values per deck).
    pub ranks: u32,
    /// What happens to cards that do not split evenly.
    pub uneven: Uneven,
    /// How the deck is dealt.
    pub deal: Deal,
    /// The random generator and seed derivation.
    pub generator: Generator,
    /// How every shuffle orders the cards.
    pub shuffle: Shuffle,
    /// Cards each player puts face down in a war before the face-up card.
    pub face_down: u32,
    /// When a groups-family fighter shows its champion.
    pub champion: Champion,
    /// The order in which the groups family settles a table's groups.
    pub group_order: GroupOrder,
    /// What a player short of cards in a war does.
    pub shortage: Shortage,
    /// Order of the won cards under the winner's pile.
    pub pickup: Pickup,
    /// Where won cards go.
    pub spoils: Spoils,
    /// Every player's pile is reshuffled after every this many rounds (0 = never).
    pub reshuffle_every: u32,
    /// Rounds after which an unfinished game stops.
    pub max_rounds: u32,
    /// Rounds in a row without a round winner after which a game is abandoned (0 = never;
    /// WarSimulator's code: 100).
    pub abandon_after: u32,
    /// What the round cap decides.
    pub at_cap: AtCap,
}

/// A setting outside what the engine supports; the message names the flag and the range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Players out of range.
    #[error("--players {0} is out of range: use {range}", range = accepted_range("--players"))]
    Players(u32),
    /// Suits out of range.
    #[error("--suits {0} is out of range: use {range}", range = accepted_range("--suits"))]
    Suits(u32),
    /// Ranks out of range.
    #[error("--ranks {0} is out of range: use {range}", range = accepted_range("--ranks"))]
    Ranks(u32),
    /// More cards than the engine holds.
    #[error(
        "--suits {suits} × --ranks {ranks} = {cards} cards is more than the {MAX_CARDS} supported: use a smaller deck"
    )]
    DeckTooLarge {
        /// Suits given.
        suits: u32,
        /// Ranks given.
        ranks: u32,
        /// Their product.
        cards: u32,
    },
    /// Fewer cards than players.
    #[error("{}", more_players_than_cards(*players, *cards))]
    MorePlayersThanCards {
        /// Players given.
        players: u32,
        /// Cards in the deck.
        cards: u32,
    },
    /// Face-down cards out of range.
    #[error("--face-down {0} is out of range: use {range}", range = accepted_range("--face-down"))]
    FaceDown(u32),
    /// Round cap out of range.
    #[error("--max-rounds {0} is out of range: use {range}", range = accepted_range("--max-rounds"))]
    MaxRounds(u32),
    /// A two-player rule with more players.
    #[error("{what} is a two-player rule: use --players 2 (given {players})")]
    TwoPlayersOnly {
        /// The rule or preset.
        what: String,
        /// Players given.
        players: u32,
    },
}

impl Rules {
    /// Cards in the deck (fixed-rounds: in each player's deck).
    pub fn cards(&self) -> u32 {
        self.suits * self.ranks
    }

    /// Cards actually dealt: the deck less any dropped to split it evenly.
    pub fn cards_in_play(&self) -> u32 {
        match (self.family, self.uneven) {
            (Family::FixedRounds, _) => self.cards() * self.players,
            (_, Uneven::DropLowest | Uneven::DropFirst) => {
                self.cards() - self.cards() % self.players
            }
            (_, Uneven::DealAll) => self.cards(),
        }
    }

    /// The shared deck in play before shuffling: rank-major (every suit of rank 1, then rank
    /// 2, ...), as war_card_game and cards-war build theirs, less the lowest cards dropped to
    /// deal evenly.
    /// Written into `out` (at least [`Rules::cards_in_play`] long); returns how many cards.
    /// A plain loop: it runs once per game.
    pub fn fill_deck<C: crate::engine::card::Card>(&self, out: &mut [C]) -> usize {
        let mut skip = self.cards() - self.cards_in_play();
        let mut n = 0;
        if self.uneven == Uneven::DropFirst {
            // WarSimulator's deck: suit by suit, its first cards dropped.
            for suit in 0..self.suits {
                for rank in 1..=self.ranks {
                    if skip > 0 {
                        skip -= 1;
                    } else {
                        out[n] = C::new(rank as u8, suit as u16);
                        n += 1;
                    }
                }
            }
            return n;
        }
        for rank in 1..=self.ranks {
            for suit in 0..self.suits {
                if skip > 0 {
                    skip -= 1;
                } else {
                    out[n] = C::new(rank as u8, suit as u16);
                    n += 1;
                }
            }
        }
        n
    }

    /// The most rounds a game can last: the cap, one more for a sudden death, or the fixed count.
    pub fn most_rounds(&self) -> u32 {
        match (self.family, self.at_cap) {
            (Family::FixedRounds, _) => self.cards(),
            (_, AtCap::LargerPile) => self.max_rounds.saturating_add(1),
            (_, AtCap::Capped) => self.max_rounds,
        }
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
        if self.family != Family::FixedRounds && self.players > cards {
            return Err(RulesError::MorePlayersThanCards {
                players: self.players,
                cards,
            });
        }
        if self.face_down > 255 {
            return Err(RulesError::FaceDown(self.face_down));
        }
        if !(1..=MAX_ROUNDS).contains(&self.max_rounds) {
            return Err(RulesError::MaxRounds(self.max_rounds));
        }
        if let Some(two) = self.preset.two_players_only()
            && self.players != 2
        {
            return Err(RulesError::TwoPlayersOnly {
                what: format!("--rules {} ({two})", self.preset),
                players: self.players,
            });
        }
        let two_only = match (self.shortage, self.at_cap) {
            (Shortage::SmallerHand, _) => Some("--war-shortage smaller-hand"),
            (_, AtCap::LargerPile) => Some("--at-cap larger-pile"),
            _ => None,
        };
        if self.family == Family::Table
            && self.players != 2
            && let Some(what) = two_only
        {
            return Err(RulesError::TwoPlayersOnly {
                what: what.to_string(),
                players: self.players,
            });
        }
        Ok(())
    }

    /// True when nothing random happens after the deal, so a repeated position repeats forever.
    pub fn deterministic_after_deal(&self) -> bool {
        self.deterministic_rounds() && self.reshuffle_every == 0
    }

    /// True when a round draws nothing random (reshuffles between rounds aside).
    pub fn deterministic_rounds(&self) -> bool {
        self.family == Family::Table
            && self.spoils != Spoils::Heap
            && self.pickup != Pickup::Shuffled
    }
}

/// The error for a deck smaller than the table: with a one-card deck no player count works, so
/// it does not suggest "at most 1 player".
fn more_players_than_cards(players: u32, cards: u32) -> String {
    let deck = counted(cards, "card");
    if cards < 2 {
        format!(
            "--players {players} needs at least {players} cards and the deck has {deck}: use a larger deck"
        )
    } else {
        format!(
            "--players {players} is more than the {deck} in the deck: use at most {cards} players or a larger deck"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_with_its_defaults() {
        for preset in Preset::ALL {
            assert_eq!(preset.rules().validate(), Ok(()), "{preset}");
            assert_eq!(Preset::from_name(preset.name()), Some(*preset));
        }
        assert_eq!(Preset::from_name("nope"), None);
        assert_eq!(Pickup::from_name("loser-first"), Some(Pickup::LoserFirst));
        assert!(Shortage::names().contains("smaller-hand"));
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
        let one_card = with(|r| {
            r.suits = 1;
            r.ranks = 1
        });
        assert_eq!(
            one_card.unwrap_err().to_string(),
            "--players 2 needs at least 2 cards and the deck has 1 card: use a larger deck"
        );
        let three = with(|r| {
            r.suits = 1;
            r.ranks = 1;
            r.players = 3
        });
        assert_eq!(
            three.unwrap_err().to_string(),
            "--players 3 needs at least 3 cards and the deck has 1 card: use a larger deck"
        );
        assert_eq!(
            with(|r| {
                r.suits = 1;
                r.ranks = 2;
                r.players = 3
            })
            .unwrap_err()
            .to_string(),
            "--players 3 is more than the 2 cards in the deck: use at most 2 players or a larger deck"
        );
        assert_eq!(with(|r| r.max_rounds = 0), Err(RulesError::MaxRounds(0)));
        assert_eq!(
            with(|r| r.max_rounds = u32::MAX),
            Err(RulesError::MaxRounds(u32::MAX))
        );
        assert_eq!(with(|r| r.max_rounds = MAX_ROUNDS), Ok(()));
        assert!(matches!(
            with(|r| {
                r.players = 3;
                r.shortage = Shortage::SmallerHand
            }),
            Err(RulesError::TwoPlayersOnly { .. })
        ));
        let mut gow = Preset::GameOfWar.rules();
        gow.players = 3;
        assert!(matches!(
            gow.validate(),
            Err(RulesError::TwoPlayersOnly { .. })
        ));
    }
}
