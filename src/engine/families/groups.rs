//! The round of the "groups" family (WarSimulator): every player shows a card; the highest
//! single card takes the shown cards, and every group of equal cards, even below the top, fights
//! its own war. Each fighter stakes `face_down` cards and shows a champion (fewer when short,
//! none → out of the war); tied champions fight a nested war among themselves. A war's stakes go
//! to its winner, the shown cards to the round's winner: the holder of the highest single card
//! or the winner of the highest group whose war was won. Cards nobody wins go back to their
//! owners' heaps.

use crate::engine::random::GameRandom;

use crate::engine::card::Card;
use crate::engine::game::{PileGame, Play, RoundEnd, SEATS, Step, sort_plays};
use crate::engine::record::GameRecord;
use crate::engine::rules::Rules;
use std::ops::Range;

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays one round of the groups family (two-player rounds outside single-game mode go
    /// through [`PileGame::groups_pair_rounds`]).
    pub(in crate::engine) fn groups_round<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
    ) -> RoundEnd {
        self.start_round();
        let n = self.active_len;
        for i in 0..n {
            let seat = self.active[i] as usize;
            let card = self.draw(seat, rng).expect("an active player holds a card");
            self.log_play(card, seat);
        }
        self.settle_groups(rules, rng, n)
    }

    /// Plays two-player rounds until a tie, the end of the game or round `limit`, exactly as
    /// [`PileGame::groups_round`] would: each pass first refills empty piles in seat order (as
    /// the round's draws would), then plays as many rounds as the smaller pile holds, in which
    /// no pile runs out and nobody can be out. A tie goes to [`PileGame::pair_group_war`].
    /// Returns how the last round ended (at the limit: a plain round).
    pub(in crate::engine) fn groups_pair_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        // Two cards a round, counted out here from the rounds played (as the table family's
        // fast loop does); a tie's two cards are laid and counted again by its war.
        let (first, laid_before) = (record.rounds, self.laid);
        let end = self.pair_rounds_until(rules, rng, record, limit);
        let tied = u32::from(self.laid != laid_before);
        self.laid += 2 * u64::from(record.rounds - first - tied);
        end
    }

    fn pair_rounds_until<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(self.active_len == 2 && !self.trace);
        let seats = [self.active[0] as usize, self.active[1] as usize];
        loop {
            if record.rounds == limit {
                return RoundEnd::Plain;
            }
            for seat in seats {
                if self.piles[seat].is_empty() {
                    // Active players hold cards: the heap has some.
                    self.shuffle_under_pile(seat, true, rng);
                }
            }
            let pass = (self.piles[seats[0]].len())
                .min(self.piles[seats[1]].len())
                .min((limit - record.rounds) as usize);
            let (played, tie) = self.pair_pass(seats, pass);
            record.rounds += played as u32;
            if let Some((a, b)) = tie {
                // The general round's war (`settle_groups`) for two players, counted as
                // `round` counts it.
                self.start_round();
                self.log_play(a, seats[0]);
                self.log_play(b, seats[1]);
                let winner = self.pair_group_war(rules, rng, seats, 1);
                let end = self.award_shown(rules, winner, 2);
                self.count_wars(end, record);
                return end;
            }
            if self.holding(seats[0]) == 0 || self.holding(seats[1]) == 0 {
                return RoundEnd::Taken;
            }
        }
    }

    /// Plays up to `pass` plain rounds between the seats' piles (each holding at least `pass`
    /// cards), the cards going onto the winner's heap in seat order, with every index in a
    /// register. Stops after a tie, whose two cards it returns (taken from the piles). Returns
    /// the rounds played, the tied one included.
    #[inline(always)]
    fn pair_pass(&mut self, seats: [usize; 2], pass: usize) -> (usize, Option<(C, C)>) {
        let mask = CAP - 1;
        let [pile0, pile1] = self
            .piles
            .get_disjoint_mut(seats)
            .expect("two different seats");
        let [heap0, heap1] = self
            .heaps
            .get_disjoint_mut(seats)
            .expect("two different seats");
        let (ring0, head0, len0) = pile0.raw();
        let (ring1, head1, len1) = pile1.raw();
        let (heap_ring0, heap_head0, heap_len0) = heap0.raw();
        let (heap_ring1, heap_head1, heap_len1) = heap1.raw();
        debug_assert!(len0 >= pass && len1 >= pass);
        let (mut tail0, mut tail1) = (heap_head0 + heap_len0, heap_head1 + heap_len1);
        let mut tie = None;
        let mut played = 0;
        while played < pass {
            let a = ring0[(head0 + played) & mask];
            let b = ring1[(head1 + played) & mask];
            played += 1;
            if a.rank() == b.rank() {
                tie = Some((a, b));
                break;
            }
            let b_wins = b.rank() > a.rank();
            let (heap, tail) = if b_wins {
                (&mut *heap_ring1, &mut tail1)
            } else {
                (&mut *heap_ring0, &mut tail0)
            };
            heap[*tail & mask] = a;
            heap[(*tail + 1) & mask] = b;
            *tail += 2;
        }
        pile0.set_raw(head0 + played, len0 - played);
        pile1.set_raw(head1 + played, len1 - played);
        heap0.set_raw(heap_head0, tail0 - heap_head0);
        heap1.set_raw(heap_head1, tail1 - heap_head1);
        (played, tie)
    }

    /// [`PileGame::group_war`] between the two players of `seats` (seat order), outside
    /// single-game mode: each stakes up to `face_down` cards and shows a champion; tied
    /// champions fight again one level deeper.
    fn pair_group_war<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        seats: [usize; 2],
        depth: u32,
    ) -> Option<usize> {
        debug_assert!(!self.trace);
        self.note_tie(depth);
        let start = self.log_len;
        let layout = rules.face_down as usize + 1;
        let mut champions = [None; 2];
        for (champion, seat) in champions.iter_mut().zip(seats) {
            for _ in 0..self.holding(seat).min(layout) {
                let card = self.draw(seat, rng).expect("counted cards are there");
                self.log_play(card, seat);
                *champion = Some(card);
            }
        }
        let end = self.log_len;
        let winner = match champions {
            [Some(x), Some(y)] if x.rank() == y.rank() => {
                self.pair_group_war(rules, rng, seats, depth + 1)
            }
            [Some(x), Some(y)] => Some(seats[usize::from(y.rank() > x.rank())]),
            [Some(_), None] => Some(seats[0]),
            [None, Some(_)] => Some(seats[1]),
            [None, None] => None,
        };
        self.award_logged(rules, winner, start..end);
        self.log_len = start;
        winner
    }

    /// Settles a round whose `n` shown cards are logged.
    fn settle_groups<R: GameRandom>(&mut self, rules: &Rules, rng: &mut R, n: usize) -> RoundEnd {
        self.close_segment(Step::Shown);
        let mut table = [Play::default(); SEATS];
        table[..n].copy_from_slice(&self.log[..n]);
        sort_plays(&mut table[..n]);
        let winner = self.fight_groups(rules, rng, &table[..n], 1);
        self.round_winner = winner.map(|w| w as u8);
        self.award_shown(rules, winner, n)
    }

    /// Gives the round's `n` shown cards to `winner`, or back to their owners; then the round
    /// is stuck if nobody won and nobody ever can ([`PileGame::stalemate`]).
    fn award_shown(&mut self, rules: &Rules, winner: Option<usize>, n: usize) -> RoundEnd {
        self.award_logged(rules, winner, 0..n);
        if winner.is_none() && self.stalemate() {
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
        let mut winner = None;
        let mut i = 0;
        while i < table.len() {
            let rank = table[i].card.rank();
            let j = i + table[i..]
                .iter()
                .take_while(|p| p.card.rank() == rank)
                .count();
            let candidate = if j - i == 1 {
                Some(table[i].seat as usize)
            } else {
                let mut seats = [0u8; SEATS];
                for (seat, p) in seats.iter_mut().zip(&table[i..j]) {
                    *seat = p.seat;
                }
                self.group_war(rules, rng, &seats[..j - i], depth)
            };
            winner = winner.or(candidate);
            i = j;
        }
        winner
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
        for &seat in fighters {
            let seat = seat as usize;
            let count = self.holding(seat).min(layout);
            for k in 0..count {
                let card = self.draw(seat, rng).expect("counted cards are there");
                self.log_play(card, seat);
                if k + 1 == count {
                    champions[c] = Play {
                        card,
                        seat: seat as u8,
                    };
                    c += 1;
                }
            }
        }
        sort_plays(&mut champions[..c]);
        let end = self.log_len;
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
            let mut cards = self.piles[seat].iter().chain(self.heaps[seat].iter());
            let rank = cards.next().map(|c| c.rank());
            cards.all(|c| Some(c.rank()) == rank)
        })
    }
}
