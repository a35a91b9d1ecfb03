//! The round of the "groups" family (WarSimulator): every player shows a card; the highest
//! single card takes the shown cards, and every group of equal cards, even below the top, fights
//! its own war. Each fighter stakes `face_down` cards and shows a champion (fewer when short,
//! none → out of the war); tied champions fight a nested war among themselves. A war's stakes go
//! to its winner, the shown cards to the round's winner: the holder of the highest single card
//! or the winner of the highest group whose war was won. Cards nobody wins go back to their
//! owners' heaps.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{PileGame, Play, RoundEnd, SEATS, Step, one_rank, sort_plays};
use crate::engine::rules::{Champion, GroupOrder, Rules};
use std::ops::Range;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays one round of the groups family (two-player rounds outside single-game mode go
    /// through [`PileGame::groups_pair_rounds`], `fast/heaps.rs`).
    pub(in crate::engine) fn groups_round<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
    ) -> RoundEnd {
        let n = self.active_len;
        // Three or four players under the rules of the common war: a round of their own
        // (`small_groups.rs`), here for the games whose rounds do not run in its loop.
        if self.small_groups(rules) {
            match n {
                3 => return self.small_round::<3, R>(rules, rng),
                4 => return self.small_round::<4, R>(rules, rng),
                _ => {}
            }
        }
        self.start_round();
        // The log's length and the count of cards laid are set once, as `log_play` would leave
        // them: through `log_play` both were loaded and stored again for every card (the
        // compiler cannot tell them from the log's cards).
        for i in 0..n {
            let seat = self.active[i];
            let card = self.draw(usize::from(seat), rng);
            let card = card.expect("an active player holds a card");
            self.log[i] = Play { card, seat };
        }
        (self.log_len, self.laid) = (n, self.laid + n as u64);
        // Most rounds show no two equal ranks: the highest card takes them, without the sort
        // and the search for groups (single-game mode keeps the general settling, which also
        // marks the log for the observer).
        if !self.trace
            && let Some(winner) = self.distinct_winner(n)
        {
            self.give_logged(rules, winner, 0..n);
            self.idle_rounds = 0;
            return RoundEnd::Taken;
        }
        self.settle_groups(rules, rng, n)
    }

    /// The seat of the highest of the `n` logged cards when no two have the same rank.
    #[inline(always)]
    fn distinct_winner(&self, n: usize) -> Option<usize> {
        let mut seen = [0u64; 4];
        let (mut best, mut best_rank) = (0, 0);
        for (i, play) in self.log[..n].iter().enumerate() {
            let rank = play.card.rank();
            let (word, bit) = (usize::from(rank >> 6), 1u64 << (rank & 63));
            if seen[word] & bit != 0 {
                return None;
            }
            seen[word] |= bit;
            if i == 0 || rank > best_rank {
                (best, best_rank) = (play.seat, rank);
            }
        }
        Some(usize::from(best))
    }

    /// Settles a round whose `n` shown cards are logged.
    pub(super) fn settle_groups<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        n: usize,
    ) -> RoundEnd {
        self.close_segment(Step::Shown);
        let mut table = [Play::default(); SEATS];
        if rules.group_order == GroupOrder::AsShown {
            // The shown cards are also won in this order.
            group_as_shown(&mut self.log[..n]);
        }
        table[..n].copy_from_slice(&self.log[..n]);
        arrange(rules, &mut table[..n]);
        let winner = self.fight_groups(rules, rng, &table[..n], 1);
        self.round_winner = winner.map(|w| w as u8);
        self.award_shown(rules, winner, n)
    }

    /// Gives the round's `n` shown cards to `winner`, or back to their owners; then the round
    /// is stuck if nobody won and nobody ever can ([`PileGame::stalemate`]). Under
    /// `--abandon-after` a round without a winner counts towards abandoning the game instead,
    /// as WarSimulator's code does (which then gives up on stuck games in its own time).
    fn award_shown(&mut self, rules: &Rules, winner: Option<usize>, n: usize) -> RoundEnd {
        self.award_logged(rules, winner, 0..n);
        if rules.abandon_after > 0 {
            self.idle_rounds = match winner {
                Some(_) => 0,
                None => self.idle_rounds + 1,
            };
            if self.idle_rounds > rules.abandon_after {
                return RoundEnd::Abandoned;
            }
        } else if winner.is_none() && self.stalemate() {
            self.log_len = 0; // the cards are back with their owners, not on the table
            return RoundEnd::Stuck;
        }
        RoundEnd::Taken
    }

    /// Gives the logged cards in `range` to `winner`, or each back to its owner when nobody won.
    fn award_logged(&mut self, rules: &Rules, winner: Option<usize>, range: Range<usize>) {
        match winner {
            Some(seat) => self.give_logged(rules, seat, range),
            None => {
                for i in range {
                    let Play { card, seat } = self.log[i];
                    self.receive(rules, seat as usize, &[card]);
                }
            }
        }
    }

    /// Settles a sorted table: singles and groups, highest first. Every group fights its war;
    /// the first winner found (the highest) is returned.
    fn fight_groups<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        table: &[Play<C>],
        depth: u32,
    ) -> Option<usize> {
        fight_table(table, |seats| self.group_war(rules, rng, seats, depth))
    }

    /// One war among `fighters`: stakes, champions, nested wars; its cards go to its winner,
    /// or back to their owners when nobody wins.
    fn group_war<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        fighters: &[u8],
        depth: u32,
    ) -> Option<usize> {
        self.note_tie(depth);
        let start = self.log_len;
        let mut champions = [Play::default(); SEATS];
        let mut c = 0;
        let layout = rules.face_down as usize + 1;
        let champion_first = rules.champion == Champion::First;
        // The log's length kept here and stored once, as in `groups_round`.
        let mut end = start;
        for &seat in fighters {
            let count = self.holding(usize::from(seat)).min(layout);
            for k in 0..count {
                let card = self.draw(usize::from(seat), rng);
                let play = Play {
                    card: card.expect("counted cards are there"),
                    seat,
                };
                self.log[end] = play;
                end += 1;
                if k == if champion_first { 0 } else { count - 1 } {
                    champions[c] = play;
                    c += 1;
                }
            }
        }
        (self.log_len, self.laid) = (end, self.laid + (end - start) as u64);
        arrange(rules, &mut champions[..c]);
        let winner = self.fight_groups(rules, rng, &champions[..c], depth + 1);
        debug_assert!(
            self.log_len >= end,
            "nested wars come after this war's cards"
        );
        self.award_logged(rules, winner, start..end);
        if !self.trace {
            self.log_len = start;
        }
        winner
    }

    /// True, after a round without a winner, when the game can never change: such a round gave
    /// every card back to the player who played it (any war won at any level, or a single
    /// highest card, would have made its winner the round's), and when every player's cards
    /// are all of one rank the next round shows the same ranks in the same order (no shuffle or
    /// pickup order can change a sequence of equal ranks), so it gives every card back again,
    /// forever. 32 players holding one card each do this at round 1; players holding equal
    /// counts of one shared rank are the oldest case.
    fn stalemate(&self) -> bool {
        self.active[..self.active_len].iter().all(|&seat| {
            let seat = seat as usize;
            one_rank(self.piles[seat].iter().chain(self.heaps[seat].iter()))
        })
    }
}

/// Settles a table whose equal cards lie together (sorted, or grouped as shown): a single card
/// is a candidate for its seat, a group's candidate is the winner of its war (`war`, given the
/// group's seats in table order, fights it). Returns the highest candidate (the first found
/// when highest first). Shared by the ring piles and the linear halves (`halves_wars.rs`).
pub(super) fn fight_table<C: Card>(
    table: &[Play<C>],
    mut war: impl FnMut(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let (mut winner, mut best) = (None, 0);
    for group in table.chunk_by(|a, b| a.card.rank() == b.card.rank()) {
        let rank = group[0].card.rank();
        let candidate = match group {
            [single] => Some(usize::from(single.seat)),
            _ => {
                let mut seats = [0u8; SEATS];
                for (seat, play) in seats.iter_mut().zip(group) {
                    *seat = play.seat;
                }
                war(&seats[..group.len()])
            }
        };
        if candidate.is_some() && (winner.is_none() || rank > best) {
            (winner, best) = (candidate, rank);
        }
    }
    winner
}

/// Puts a table (or a war's champions) in the order its groups are settled.
fn arrange<C: Card>(rules: &Rules, plays: &mut [Play<C>]) {
    match rules.group_order {
        GroupOrder::HighestFirst => sort_plays(plays),
        GroupOrder::AsShown => group_as_shown(plays),
    }
}

/// Each rank's cards moved up behind the first card of that rank, order otherwise kept:
/// the ranks in the order first shown (WarSimulator's `Dictionary`).
fn group_as_shown<C: Card>(plays: &mut [Play<C>]) {
    let mut start = 0;
    while start < plays.len() {
        let rank = plays[start].card.rank();
        let mut end = start + 1;
        for j in start + 1..plays.len() {
            if plays[j].card.rank() == rank {
                plays[end..=j].rotate_right(1);
                end += 1;
            }
        }
        start = end;
    }
}
