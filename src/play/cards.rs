//! How cards print in single games: Unicode playing cards (🂡 … 🃞) for the 4 × 13 deck, as
//! war_card_game prints them, and `rank/suit` (both numbers, rank 1 the lowest) for any deck
//! the Unicode set cannot show.

use crate::engine::{Rules, SuitedCard};

/// The face-down card.
pub const BACK: char = '\u{1F0A0}';

/// Unicode blocks of the suits in war_card_game's order: clubs, diamonds, hearts, spades.
const SUIT_BASE: [u32; 4] = [0x1F0D0, 0x1F0C0, 0x1F0B0, 0x1F0A0];
/// Offsets of ranks 2, 3, …, 10, J, Q, K, A (the knight, 0xC, is skipped).
const RANK_OFFSET: [u32; 13] = [2, 3, 4, 5, 6, 7, 8, 9, 0xA, 0xB, 0xD, 0xE, 1];

/// Names the cards of one deck.
#[derive(Clone, Copy, Debug)]
pub struct CardNames {
    unicode: bool,
}

impl CardNames {
    /// Unicode for the standard 4 × 13 deck, numbers otherwise.
    pub fn for_rules(rules: &Rules) -> CardNames {
        CardNames {
            unicode: rules.suits == 4 && rules.ranks == 13,
        }
    }

    /// The card's name: one character, or `rank/suit` with the suit counted from 1.
    pub fn name(self, card: SuitedCard) -> String {
        if self.unicode {
            let code = SUIT_BASE[card.suit as usize] + RANK_OFFSET[card.rank as usize - 1];
            char::from_u32(code).map_or_else(|| "?".to_string(), String::from)
        } else {
            format!("{}/{}", card.rank, card.suit + 1)
        }
    }

    /// Cards as war_card_game lists them: each name followed by two spaces.
    pub fn list(self, cards: &[SuitedCard]) -> String {
        cards
            .iter()
            .map(|&c| format!("{}  ", self.name(c)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_matches_war_card_games_deck_order() {
        let names = CardNames { unicode: true };
        let first: String = (0..4)
            .map(|suit| names.name(SuitedCard { rank: 1, suit }))
            .collect();
        assert_eq!(first, "🃒🃂🂲🂢");
        let court: String = (10..=13)
            .map(|rank| names.name(SuitedCard { rank, suit: 3 }))
            .collect();
        assert_eq!(court, "🂫🂭🂮🂡");
        assert_eq!(
            CardNames { unicode: false }.name(SuitedCard { rank: 12, suit: 5 }),
            "12/6"
        );
    }
}
