//! Games from a given deal rather than a seed, for `warsim enumerate`: a sequence of ranks cut
//! into consecutive hands, played to its end, and the cycle a looping game ended in, walked
//! round by round.

use std::ops::Range;

use super::card::Card;
use super::game::{PileGame, RoundEnd};
use super::random::GameRandom;
use super::record::GameRecord;
use super::rules::Rules;

/// Marks the end of a pile or heap in a [`PileGame::position`] (no card has rank 0).
const PILE_END: u8 = 0;

/// Where seat `seat`'s hand lies in a sequence of `cards` cut for `players`: ⌊cards/players⌋
/// cards each, the first cards mod players seats one more, in seat order.
pub fn hand(cards: usize, players: usize, seat: usize) -> Range<usize> {
    let (each, extra) = (cards / players, cards % players);
    let start = seat * each + seat.min(extra);
    start..start + each + usize::from(seat < extra)
}

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Deals `cards` (top first) in consecutive blocks, as French bataille's programs cut a
    /// sequence, with the hand sizes of `warsim run`'s deal: each seat ⌊n/P⌋ cards and the
    /// first n mod P seats one more (two players: the first ⌈n/2⌉ to seat 1, the rest to
    /// seat 2); then plays the game to its end. Every sequence equally likely then deals every
    /// hand as a uniform shuffle does, so the enumeration's figures are what runs estimate.
    pub(crate) fn play_sequence<R: GameRandom>(
        &mut self,
        rules: &Rules,
        cards: &[C],
        rng: &mut R,
    ) -> GameRecord {
        let players = rules.players as usize;
        assert!(
            cards.len() <= CAP && players <= cards.len(),
            "{} cards do not fit piles of {CAP}",
            cards.len()
        );
        for seat in 0..players {
            self.piles[seat].set(&cards[hand(cards.len(), players, seat)]);
            self.heaps[seat].clear();
        }
        self.trace = false;
        self.play_dealt(rules, rng, None)
    }

    /// The whole position of the first `players` seats: each seat's pile (top first) and
    /// heap (oldest first), each followed by a 0.
    pub(crate) fn position(&self, players: usize, into: &mut Vec<u8>) {
        into.clear();
        for (pile, heap) in self.piles[..players].iter().zip(&self.heaps) {
            into.extend(pile.iter().map(|c| c.rank()));
            into.push(PILE_END);
            into.extend(heap.iter().map(|c| c.rank()));
            into.push(PILE_END);
        }
    }

    /// After a game that ended as a cycle: the positions of its cycle, from the one it stopped
    /// at, one round apart (their number is the cycle's period). The game's state is left one
    /// lap later, at the same position.
    pub(crate) fn walk_cycle<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R) -> Vec<Vec<u8>> {
        let players = rules.players as usize;
        let mut start = Vec::new();
        self.position(players, &mut start);
        let mut positions = vec![start.clone()];
        let mut record = GameRecord::default();
        let mut now = Vec::new();
        loop {
            let end = self.round(rules, rng, &mut record);
            debug_assert!(matches!(end, RoundEnd::Plain | RoundEnd::Taken));
            self.drop_empty_seats();
            self.position(players, &mut now);
            if now == start {
                return positions;
            }
            // A cycle repeats within as many rounds as the cap allows: anything longer is a
            // position that was never on a cycle.
            assert!(
                positions.len() <= rules.max_rounds as usize,
                "walk_cycle called on a game that did not end in a cycle"
            );
            positions.push(now.clone());
        }
    }
}

/// A position with the two seats' piles and heaps exchanged (two-player positions only).
pub(crate) fn swap_seats(position: &[u8]) -> Vec<u8> {
    let first_seat_end = position
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == PILE_END)
        .nth(1)
        .map(|(i, _)| i)
        .expect("a position ends each pile and heap");
    let mut swapped = position[first_seat_end + 1..].to_vec();
    swapped.extend_from_slice(&position[..=first_seat_end]);
    swapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_seats_exchanges_the_piles_and_heaps_and_keeps_their_ends() {
        assert_eq!(
            swap_seats(&[3, 1, 0, 0, 2, 0, 0]),
            vec![2, 0, 0, 3, 1, 0, 0]
        );
        assert_eq!(swap_seats(&[0, 0, 2, 2, 0, 0]), vec![2, 2, 0, 0, 0, 0]);
        assert_eq!(
            swap_seats(&[1, 0, 4, 0, 2, 0, 3, 0]),
            vec![2, 0, 3, 0, 1, 0, 4, 0]
        );
    }
}
