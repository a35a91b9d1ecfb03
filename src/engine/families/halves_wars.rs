//! The general settling of a round of three or four players on the linear halves
//! (`small_halves.rs`): groups of equal cards, each fighting its war, nested wars among tied
//! champions, players short of a layout or out of the war, wars nobody wins. It follows
//! `groups.rs`'s `settle_groups` under the rules of the common war (highest group first, the
//! champion laid last, spoils on heaps) step for step, with the same draws, so that rounds the
//! quick paths do not take stay on the halves; a test checks that both give the same games.

use crate::engine::card::Card;
use crate::engine::game::{Play, one_rank, sort_plays};
use crate::engine::pile::Hand;
use crate::engine::random::GameRandom;

use super::groups::fight_table;
use super::small_halves::refill_half;

/// One round's wars on the halves: where the players' cards are, the cards laid in wars so far
/// (with the player who laid each), and what the round adds to the record.
pub(super) struct HalvesWars<'a, C: Card, R, const N: usize, const CAP: usize> {
    flat: &'a mut [C],
    hands: &'a mut [Hand; N],
    rng: &'a mut R,
    /// The wars' cards, in the order laid, by player (`seat` is the player's index here).
    laid_cards: &'a mut [Play<C>],
    layout: usize,
    /// Cards in `laid_cards` (a war's are given away when it is settled).
    len: usize,
    /// Wars fought and the deepest nesting, for the record.
    pub(super) ties: u32,
    pub(super) chain: u32,
    /// Cards laid in wars this round.
    pub(super) staked: u64,
}

impl<'a, C: Card, R: GameRandom, const N: usize, const CAP: usize> HalvesWars<'a, C, R, N, CAP> {
    /// A round's wars on the players' `hands` in `flat`, laying their cards in `laid_cards`
    /// (room for every card of the game).
    pub(super) fn new(
        flat: &'a mut [C],
        hands: &'a mut [Hand; N],
        rng: &'a mut R,
        laid_cards: &'a mut [Play<C>],
        layout: usize,
    ) -> Self {
        HalvesWars {
            flat,
            hands,
            rng,
            laid_cards,
            layout,
            len: 0,
            ties: 0,
            chain: 0,
            staked: 0,
        }
    }

    /// Settles the round's shown cards (by player, in seat order): every group fights its war,
    /// and the shown cards go to the round's winner, returned, or back to their owners.
    pub(super) fn settle(&mut self, shown: [C; N]) -> Option<usize> {
        let mut table: [Play<C>; N] = std::array::from_fn(|i| Play {
            card: shown[i],
            seat: i as u8,
        });
        sort_plays(&mut table);
        let winner = self.fight(&table, 1);
        for (i, card) in shown.into_iter().enumerate() {
            self.give(winner.unwrap_or(i), card);
        }
        winner
    }

    /// Settles a table sorted highest first: singles and groups; every group fights its war.
    /// The holder of the highest single, or the winner of the highest group that has one.
    fn fight(&mut self, table: &[Play<C>], depth: u32) -> Option<usize> {
        fight_table(table, |fighters| self.war(fighters, depth))
    }

    /// One war among `fighters`: each stakes a layout, or all it holds (none: out of the war),
    /// the last card its champion; tied champions fight again among themselves. Its cards go to
    /// its winner in the order laid, after any nested war's, or back to their owners.
    fn war(&mut self, fighters: &[u8], depth: u32) -> Option<usize> {
        self.ties += 1;
        self.chain = self.chain.max(depth);
        let start = self.len;
        let mut champions = [Play::default(); N];
        let mut count = 0;
        for &fighter in fighters {
            let player = usize::from(fighter);
            let stake = self.hands[player].holding().min(self.layout);
            for _ in 0..stake {
                let hand = &mut self.hands[player];
                if hand.top == hand.end {
                    refill_half::<C, R, CAP>(self.flat, player, hand, self.rng);
                }
                let card = self.flat[hand.top];
                hand.top += 1;
                self.laid_cards[self.len] = Play {
                    card,
                    seat: fighter,
                };
                self.len += 1;
            }
            if stake > 0 {
                champions[count] = self.laid_cards[self.len - 1];
                count += 1;
            }
        }
        let end = self.len;
        self.staked += (end - start) as u64;
        sort_plays(&mut champions[..count]);
        let winner = self.fight(&champions[..count], depth + 1);
        for i in start..end {
            let Play { card, seat } = self.laid_cards[i];
            self.give(winner.unwrap_or(usize::from(seat)), card);
        }
        self.len = start;
        winner
    }

    /// Puts a card at the end of player `player`'s heap.
    fn give(&mut self, player: usize, card: C) {
        let hand = &mut self.hands[player];
        self.flat[hand.heap + hand.heap_len] = card;
        hand.heap_len += 1;
    }

    /// True, after a round nobody won, when every player's cards are of one rank: the game can
    /// never change (`groups.rs`'s `stalemate`).
    pub(super) fn stalemate(&self) -> bool {
        self.hands
            .iter()
            .all(|hand| one_rank(hand.cards(self.flat)))
    }
}
