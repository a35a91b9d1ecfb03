//! `warsim play --deal`: a game from given hands rather than a shuffled deck, written as
//! `warsim enumerate` prints its deals (`1 3 5 6 | 7 2 4`: ranks, 1 the lowest, top card
//! first, seat by seat; commas may separate them too) or its cycles' positions (each seat's
//! pile, then its empty heap), and checked against the rules' deck before anything is played.

use crate::engine::SuitedCard;
use crate::engine::rules::Rules;

/// How to write a deal, for the errors.
const FORM: &str = "ranks top card first, 1 the lowest, separated by spaces or commas, seats separated by '|', as warsim enumerate prints deals (e.g. '1 3 5 6 | 7 2 4')";

/// Each seat's hand, top card first, after checking that the hands are the shared deck in
/// play (fixed-rounds, a deck per player, is refused before): one hand a seat, no hand empty,
/// every card of the deck once. The k-th card of a rank met (seat by seat, top first) is the
/// deck's k-th card of that rank.
pub fn parse_deal(text: &str, rules: &Rules) -> Result<Vec<Vec<SuitedCard>>, String> {
    let mut hands = Vec::new();
    for hand in text.split('|') {
        // Commas too, as a list copied from a table or a notebook writes them (`1, 3, 5`).
        let ranks = (hand.split(|c: char| c == ',' || c.is_whitespace()))
            .filter(|word| !word.is_empty())
            .map(|word| match word.parse::<u64>() {
                Ok(rank @ 1..) if rank <= u64::from(rules.ranks) => Ok(rank as u8),
                Ok(rank) => Err(format!(
                    "--deal has rank {rank}, and the deck's ranks are 1 to {} (--ranks)",
                    rules.ranks
                )),
                Err(_) => Err(format!("--deal '{word}' is not a rank: write {FORM}")),
            });
        hands.push(ranks.collect::<Result<Vec<u8>, String>>()?);
    }
    let players = rules.players as usize;
    if hands.len() == 2 * players {
        // A cycle's position as warsim enumerate prints it: each seat's pile, then its heap.
        if let Some(seat) = hands.chunks(2).position(|pair| !pair[1].is_empty()) {
            return Err(format!(
                "--deal gives seat {} a heap: a deal is hands alone, so give each seat one",
                seat + 1
            ));
        }
        hands = hands.into_iter().step_by(2).collect();
    }
    if hands.len() != players {
        return Err(format!(
            "--deal has {} for {} players (--players): write {FORM}",
            crate::export::text::counted(hands.len() as u64, "hand"),
            rules.players
        ));
    }
    if let Some(seat) = hands.iter().position(Vec::is_empty) {
        return Err(format!(
            "--deal gives seat {} no card: every seat starts with one at least",
            seat + 1
        ));
    }
    let mut deck = vec![SuitedCard::default(); rules.cards_in_play() as usize];
    rules.fill_deck(&mut deck);
    let deck_flags = format!("--suits {} --ranks {}", rules.suits, rules.ranks);
    let dealt: usize = hands.iter().map(Vec::len).sum();
    if dealt != deck.len() {
        // Most likely hands of another deck (`1 1 | 1 1` with the default 4 × 13).
        return Err(format!(
            "--deal holds {dealt} cards, and the deck in play {} ({deck_flags}): deal every \
             card once, or give --suits and --ranks of the deck dealt",
            deck.len()
        ));
    }
    let mut left: Vec<Vec<SuitedCard>> = vec![Vec::new(); rules.ranks as usize + 1];
    for card in deck.iter().rev() {
        left[usize::from(card.rank)].push(*card);
    }
    for rank in 1..=rules.ranks as u8 {
        let dealt = hands.iter().flatten().filter(|&&r| r == rank).count();
        let in_deck = left[usize::from(rank)].len();
        if dealt != in_deck {
            return Err(format!(
                "--deal holds {dealt} of rank {rank}, and the deck in play {in_deck} \
                 ({deck_flags}): give every card once"
            ));
        }
    }
    let mut card_of = |rank: &u8| left[usize::from(*rank)].pop().expect("counted above");
    Ok(hands
        .iter()
        .map(|hand| hand.iter().map(&mut card_of).collect())
        .collect())
}
