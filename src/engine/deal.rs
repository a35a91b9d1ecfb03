//! The deal: the unshuffled deck of the rules (cached: building it card by card cost a tenth
//! of a short game), its shuffle, and the cards handed out one at a time; or hands given.

use super::card::Card;
use super::game::{PileGame, SEATS};
use super::random::GameRandom;
use super::rules::{Deal, Rules, Uneven};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Builds the deck (less the lowest cards when `rules.uneven` drops them), shuffles it with
    /// `rng` and deals it one card at a time from seat 1; the first card dealt is on top.
    pub fn deal<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R) {
        // One compare per game keeps every pile from overflowing (pushes are unchecked).
        assert!(
            rules.cards() as usize <= CAP && rules.players as usize <= SEATS,
            "{} cards do not fit piles of {CAP}: use Engine::for_rules",
            rules.cards()
        );
        let key = (
            rules.suits,
            rules.ranks,
            rules.cards_in_play(),
            rules.uneven,
        );
        if key != self.deck_key {
            rules.fill_deck(&mut self.deck);
            self.deck_key = key;
        }
        let n = key.2 as usize;
        let deck = &mut self.scratch[..n];
        deck.copy_from_slice(&self.deck[..n]);
        rng.shuffle(deck);
        let players = rules.players as usize;
        for seat in 0..players {
            self.piles[seat].clear();
            self.heaps[seat].clear();
        }
        // Card k (counted from the end for FromEnd) goes to seat k mod players. The piles are
        // empty, so each one is written straight into its ring, first card dealt on top.
        let len = deck.len();
        if players == 2 && len.is_multiple_of(2) {
            // The common deal, in pairs without per-card index arithmetic: a tenth of a game.
            let half = len / 2;
            let [first, second, ..] = &mut self.piles;
            let (ring0, _, _) = first.raw();
            let (ring1, _, _) = second.raw();
            let hands = ring0[..half].iter_mut().zip(&mut ring1[..half]);
            match rules.deal {
                Deal::FromTop => {
                    for ((card0, card1), pair) in hands.zip(deck.chunks_exact(2)) {
                        (*card0, *card1) = (pair[0], pair[1]);
                    }
                }
                Deal::FromEnd => {
                    for ((card0, card1), pair) in hands.zip(deck.rchunks_exact(2)) {
                        (*card0, *card1) = (pair[1], pair[0]);
                    }
                }
                Deal::LastSeatFirst => {
                    for ((card0, card1), pair) in hands.zip(deck.chunks_exact(2)) {
                        (*card0, *card1) = (pair[1], pair[0]);
                    }
                }
            }
            first.set_raw(0, half);
            second.set_raw(0, half);
            return;
        }
        // Any other table: card k (counted from the end for FromEnd, so the deck is turned
        // over first) to seat k mod players.
        if rules.deal == Deal::FromEnd {
            deck.reverse();
        }
        for seat in 0..players {
            let (ring, _, _) = self.piles[seat].raw();
            let first = match rules.deal {
                // Whole rounds of dealing only: uneven decks drop cards first.
                Deal::LastSeatFirst => players - 1 - seat,
                _ => seat,
            };
            let hand = deck.iter().skip(first).step_by(players);
            let n = hand.len();
            for (slot, &card) in ring.iter_mut().zip(hand) {
                *slot = card;
            }
            self.piles[seat].set_raw(0, n);
        }
        debug_assert!(rules.uneven == Uneven::DealAll || deck.len().is_multiple_of(players));
    }

    /// Deals given hands: `hands[s]` is seat s's pile, top first; heaps start empty. Panics
    /// when the hands hold more cards than one pile can (a winner would overflow it).
    pub fn set_hands(&mut self, hands: &[Vec<C>]) {
        let cards: usize = hands.iter().map(Vec::len).sum();
        assert!(
            cards <= CAP && hands.len() <= SEATS,
            "{cards} cards in {} hands do not fit piles of {CAP}",
            hands.len()
        );
        for seat in 0..SEATS {
            self.piles[seat].set(hands.get(seat).map_or(&[][..], |h| &h[..]));
            self.heaps[seat].clear();
        }
    }

    /// Plays from given hands (see [`PileGame::set_hands`]).
    #[cfg(any(test, feature = "testing"))]
    pub fn play_hands<R: GameRandom>(
        &mut self,
        rules: &Rules,
        hands: &[Vec<C>],
        rng: &mut R,
    ) -> super::GameRecord {
        self.set_hands(hands);
        self.trace = false;
        self.play_dealt(rules, rng, None)
    }
}
