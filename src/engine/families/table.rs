//! The round of the "table" family (classic, war-card-game, game-of-war, cards-war): every
//! player shows a card, the highest takes the round, and a tie at the top sends only the tied
//! players to war, as many times as the face-up cards tie again.
//!
//! A plain two-player round, by far the most common, is settled at once with no log. Wars and
//! larger tables log every card in play order, cut into segments (a table, a war's face-down
//! cards, the next table, ...) so that any pickup order can be built when the round is won.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{PileGame, Play, RoundEnd, SEATS, Step, sort_plays};
use crate::engine::rules::{Pickup, Rules, Shortage, Spoils};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays one round of the table family.
    #[inline(always)]
    pub(in crate::engine) fn table_round<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
    ) -> RoundEnd {
        if self.active_len == 2 && !self.trace {
            let (s0, s1) = (self.active[0] as usize, self.active[1] as usize);
            let a = self.draw(s0, rng).expect("an active player holds a card");
            let b = self.draw(s1, rng).expect("an active player holds a card");
            if a.rank() != b.rank() {
                let a_wins = a.rank() > b.rank();
                let winner = if a_wins { s0 } else { s1 };
                let (won, lost) = if a_wins { (a, b) } else { (b, a) };
                let mut pair = match rules.pickup {
                    Pickup::Table | Pickup::WinnerFirst | Pickup::Natural => [won, lost],
                    Pickup::LoserFirst => [lost, won],
                    Pickup::Seats | Pickup::Shuffled | Pickup::Alternating => [a, b],
                    Pickup::ReverseSeats | Pickup::Reversed => [b, a],
                };
                if rules.pickup == Pickup::Shuffled {
                    rng.shuffle(&mut pair);
                }
                self.receive(rules, winner, &pair);
                self.laid += 2;
                let loser = if a_wins { s1 } else { s0 };
                return if self.holding(loser) > 0 {
                    RoundEnd::Plain
                } else {
                    RoundEnd::Taken
                };
            }
            return self.war_after_tie(rules, rng, (a, s0), (b, s1));
        } else {
            self.start_round();
            for i in 0..self.active_len {
                let seat = self.active[i] as usize;
                let card = self.draw(seat, rng).expect("an active player holds a card");
                self.log_play(card, seat);
            }
        }
        self.close_segment(Step::Shown);
        self.settle(rules, rng)
    }

    /// Settles a two-player round whose shown cards tie.
    #[inline(never)]
    pub(in crate::engine) fn war_after_tie<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        first: (C, usize),
        second: (C, usize),
    ) -> RoundEnd {
        self.start_round();
        self.log_play(first.0, first.1);
        self.log_play(second.0, second.1);
        self.close_segment(Step::Shown);
        self.settle(rules, rng)
    }

    /// Settles a round whose first table is logged: wars while the top face-up ranks tie.
    #[inline(never)]
    fn settle<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R) -> RoundEnd {
        let mut table = [Play::default(); SEATS];
        let mut n = self.log_len;
        table[..n].copy_from_slice(&self.log[..n]);
        sort_plays(&mut table[..n]);
        let (first_table, first_n) = (table, n);
        let layout = rules.face_down as usize + 1;
        let mut depth = 0;
        loop {
            let top = table[0].card.rank();
            let tied = table[..n]
                .iter()
                .take_while(|p| p.card.rank() == top)
                .count();
            if tied < 2 {
                break;
            }
            depth += 1;
            self.note_tie(depth);
            let mut fighters = [Play::default(); SEATS];
            fighters[..tied].copy_from_slice(&table[..tied]);
            let fighters = &fighters[..tied];
            let mut short_layout = false;
            match rules.shortage {
                Shortage::Lose => n = self.lay_or_drop_out(rules, rng, fighters, &mut table),
                Shortage::PlayWhatYouHave => {
                    let counts = self.layable(fighters, layout);
                    if counts[..tied].iter().all(|&k| k == 0) {
                        // Both compare their tied cards again, forever: nobody can win.
                        return RoundEnd::Stuck;
                    }
                    self.lay(rng, fighters, &counts, &mut table);
                    n = tied;
                }
                Shortage::EndGame => {
                    let short = fighters
                        .iter()
                        .any(|f| self.holding(f.seat as usize) < layout);
                    if short {
                        // The cards in play stay out of every pile: set aside.
                        return RoundEnd::Ended;
                    }
                    self.lay(rng, fighters, &[layout; SEATS], &mut table);
                    n = tied;
                }
                Shortage::LoseWhenEmpty => {
                    let mut ready = fighters
                        .iter()
                        .filter(|f| self.holding(f.seat as usize) > 0);
                    match (ready.next(), ready.next()) {
                        (Some(_), Some(_)) => {
                            n = self.lay_what_you_have(rng, fighters, layout, &mut table)
                        }
                        (Some(only), None) => {
                            // The one tied player with cards takes the pot at once.
                            self.give_round(rules, rng, only.seat as usize);
                            return RoundEnd::Taken;
                        }
                        (None, _) => {
                            // kbWar checks seat 1's hand first: with every tied hand empty,
                            // the last tied seat takes the pot.
                            let last = fighters.last().expect("a war has fighters");
                            self.give_round(rules, rng, last.seat as usize);
                            return RoundEnd::Taken;
                        }
                    }
                }
                Shortage::SmallerHand => {
                    let smallest = fighters
                        .iter()
                        .map(|f| self.holding(f.seat as usize))
                        .min()
                        .unwrap_or(0);
                    if smallest == 0 {
                        return self.short_tie(rules, rng, fighters);
                    }
                    let k = smallest.min(layout);
                    short_layout = k < layout;
                    self.lay(rng, fighters, &[k; SEATS], &mut table);
                    n = tied;
                }
            }
            if n == 0 {
                // Nobody in the war could go on: the best card of the first table whose player
                // still holds cards takes the round; if nobody holds any, the game is stuck.
                let heir = first_table[..first_n]
                    .iter()
                    .find(|p| self.holding(p.seat as usize) > 0);
                return match heir {
                    Some(p) => {
                        self.give_round(rules, rng, p.seat as usize);
                        RoundEnd::Taken
                    }
                    None => RoundEnd::Stuck,
                };
            }
            sort_plays(&mut table[..n]);
            if short_layout && n >= 2 && table[0].card.rank() == table[1].card.rank() {
                self.note_tie(depth + 1);
                return self.short_tie(rules, rng, fighters);
            }
        }
        self.give_round(rules, rng, table[0].seat as usize);
        RoundEnd::Taken
    }

    /// Gives every logged card to `winner` in the order of `rules.pickup`.
    pub(super) fn give_round<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R, winner: usize) {
        let mut n = 0;
        match rules.pickup {
            Pickup::Table => {
                // The log is spent once the round is given, so each segment sorts in place.
                let mut start = 0;
                for s in 0..self.segments {
                    let end = self.segment_ends[s] as usize;
                    sort_plays(&mut self.log[start..end]);
                    start = end;
                }
                for p in &self.log[..self.log_len] {
                    self.scratch[n] = p.card;
                    n += 1;
                }
            }
            Pickup::Natural => {
                // The pot turned over: the last segment first, each highest first.
                for s in (0..self.segments).rev() {
                    let start = match s {
                        0 => 0,
                        _ => self.segment_ends[s - 1] as usize,
                    };
                    let end = self.segment_ends[s] as usize;
                    sort_plays(&mut self.log[start..end]);
                    for p in &self.log[start..end] {
                        self.scratch[n] = p.card;
                        n += 1;
                    }
                }
            }
            Pickup::Reversed => {
                // The pot as laid, turned over.
                for p in self.log[..self.log_len].iter().rev() {
                    self.scratch[n] = p.card;
                    n += 1;
                }
            }
            Pickup::Alternating => {
                // Laid one card at a time in turn: within each step, every seat's first card
                // (seat order), then every seat's second, ...
                let mut start = 0;
                for s in 0..self.segments {
                    let end = self.segment_ends[s] as usize;
                    let mut turn = 0;
                    while n < end {
                        let mut laid = [0u8; SEATS];
                        for p in &self.log[start..end] {
                            if laid[p.seat as usize] == turn {
                                self.scratch[n] = p.card;
                                n += 1;
                            }
                            laid[p.seat as usize] += 1;
                        }
                        turn += 1;
                    }
                    start = end;
                }
            }
            Pickup::WinnerFirst | Pickup::LoserFirst | Pickup::Seats | Pickup::ReverseSeats => {
                let mut order = [0u8; SEATS];
                let seats = self.active_len;
                order[..seats].copy_from_slice(&self.active[..seats]);
                match rules.pickup {
                    Pickup::ReverseSeats => order[..seats].reverse(),
                    Pickup::WinnerFirst => order[..seats].sort_by_key(|&s| s as usize != winner),
                    Pickup::LoserFirst => order[..seats].sort_by_key(|&s| s as usize == winner),
                    _ => {}
                }
                for &seat in &order[..seats] {
                    for p in &self.log[..self.log_len] {
                        if p.seat == seat {
                            self.scratch[n] = p.card;
                            n += 1;
                        }
                    }
                }
            }
            Pickup::Shuffled => {
                for p in &self.log[..self.log_len] {
                    self.scratch[n] = p.card;
                    n += 1;
                }
                rng.shuffle(&mut self.scratch[..n]);
            }
        }
        debug_assert_eq!(n, self.log_len);
        let won = &self.scratch[..n];
        match rules.spoils {
            Spoils::UnderPile => self.piles[winner].extend(won),
            Spoils::Heap | Spoils::HeapUnshuffled => self.heaps[winner].extend(won),
        }
        self.round_winner = Some(winner as u8);
    }
}
