//! The game loop of the shared-deck families (table and groups): a dealt game played round by
//! round to its end, on the fast loops where the rules allow (`fast/`, the groups family's
//! two-player passes) and on the general path otherwise, with the round cap, reshuffles, cycle
//! detection and the cards laid counted on the way. The state it works on is `game.rs`'s.

use super::game::{CYCLE_CHECK_FROM, Observer, PileGame, RoundEnd};
use super::random::GameRandom;

use super::card::Card;
use super::record::{GameRecord, Outcome, WinBy};
use super::rules::{AtCap, Champion, Family, Rules, Shuffle, Spoils};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    pub(super) fn play_dealt<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        observer: Option<&mut dyn Observer<C, CAP>>,
    ) -> GameRecord {
        self.laid = 0;
        self.unshuffled_heaps = rules.spoils == Spoils::HeapUnshuffled;
        self.idle_rounds = 0;
        self.loop_found = None;
        let record = self.play_rounds(rules, rng, observer);
        GameRecord {
            cards_played: self.laid,
            ..record
        }
    }

    /// The rounds of a dealt game, to its end.
    fn play_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        observer: Option<&mut dyn Observer<C, CAP>>,
    ) -> GameRecord {
        self.seat_players(rules);
        // Only a game with nothing random after the deal can loop for sure. Under `capped` a
        // loop ends the game as a cycle; under `larger-pile` the cap still decides it, so the
        // loop's laps are skipped to the cap (single-game mode shows every round, and notes
        // the loop).
        let watch_cycles = rules.deterministic_after_deal()
            && (rules.at_cap == AtCap::Capped || self.trace || self.skips_laps);
        (self.watching, self.saved_power) = (watch_cycles, 0);
        let record = GameRecord::default();
        self.rounds_from(rules, rng, observer, (record, WinBy::Cards, watch_cycles))
    }

    /// The rounds of a game from `record` on, to its end (`win_by`: what decides a win by
    /// cards so far). A loop the cap decides leaves through [`Self::after_loop`], which comes
    /// back here: a call to skip the loop inside this loop cost every rule set on the general
    /// path 2% of its instructions (the registers kept across it), watched or not. A cycle
    /// under `capped` ends the game in the loop itself, at both places that find one: moved
    /// into `after_loop`, that test cost the same rule sets 2.7%.
    #[inline(never)]
    fn rounds_from<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        mut observer: Option<&mut dyn Observer<C, CAP>>,
        (mut record, mut win_by, watch_cycles): (GameRecord, WinBy, bool),
    ) -> GameRecord {
        let fast = self.plays_fast(rules);
        // Two-player rounds of the groups family run in passes (heaps are shuffled in, so no
        // cycles to watch).
        // (WarSimulator's original quirks are the general path's alone: the order of a heap
        // matters to its shuffle, and the passes do not keep it.)
        let pair_groups = rules.family == Family::Groups
            && rules.reshuffle_every == 0
            && rules.shuffle == Shuffle::FisherYates
            && rules.champion == Champion::Last
            && rules.abandon_after == 0
            && !self.trace;
        // And its rounds of three and four players, under the rules of the common war.
        let small_groups = pair_groups && self.small_groups(rules);
        while self.active_len >= 2 {
            let end = if fast && record.rounds < rules.max_rounds {
                let limit = match rules.reshuffle_every {
                    0 => rules.max_rounds,
                    every => rules
                        .max_rounds
                        .min((record.rounds / every + 1).saturating_mul(every)),
                };
                if self.active_len == 2 {
                    self.fast_rounds(rules, rng, &mut record, limit)
                } else {
                    self.many_rounds(rules, rng, &mut record, limit)
                }
            } else if pair_groups && self.active_len == 2 && record.rounds < rules.max_rounds {
                self.groups_pair_rounds(rules, rng, &mut record, rules.max_rounds)
            } else if small_groups
                && matches!(self.active_len, 3 | 4)
                && record.rounds < rules.max_rounds
            {
                self.small_group_rounds(rules, rng, &mut record, rules.max_rounds)
            } else {
                match self.general_round(rules, rng, &mut record, &mut observer) {
                    Ok(end) => end,
                    Err(ended) => return ended,
                }
            };
            match end {
                RoundEnd::Plain => {}
                RoundEnd::Taken => self.drop_empty_seats(),
                RoundEnd::ShortTie => {
                    win_by = WinBy::ShortTie;
                    self.drop_empty_seats();
                }
                RoundEnd::Stuck => {
                    record.outcome = Outcome::Draw;
                    return record;
                }
                RoundEnd::Cycle if rules.at_cap == AtCap::Capped => {
                    record.outcome = Outcome::Cycle;
                    return record;
                }
                RoundEnd::Cycle => return self.after_loop(rules, rng, observer, (record, win_by)),
                RoundEnd::Ended => return self.end_at_shortage(record),
                RoundEnd::Abandoned => {
                    record.outcome = Outcome::Abandoned;
                    return record;
                }
            }
            if rules.reshuffle_every != 0 && record.rounds % rules.reshuffle_every == 0 {
                self.reshuffle(rng);
            }
            if watch_cycles
                && record.rounds >= CYCLE_CHECK_FROM
                && self.active_len >= 2
                && self.position_repeats(record.rounds)
            {
                if rules.at_cap == AtCap::Capped {
                    record.outcome = Outcome::Cycle;
                    return record;
                }
                return self.after_loop(rules, rng, observer, (record, win_by));
            }
        }
        self.finish(record, win_by)
    }

    /// Under `larger-pile`, after the cycle watch found a loop: its laps skipped
    /// ([`Self::skip_loop`]), the game goes on from there.
    #[cold]
    #[inline(never)]
    fn after_loop<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        observer: Option<&mut dyn Observer<C, CAP>>,
        (mut record, win_by): (GameRecord, WinBy),
    ) -> GameRecord {
        let fast = self.plays_fast(rules);
        self.skip_loop(rules, rng, &mut record, fast);
        // Unwatched from here: fewer rounds than a lap are left (or, in single-game mode, the
        // loop is known), so the same loop cannot be found again.
        self.rounds_from(rules, rng, observer, (record, win_by, false))
    }

    /// True when the game's rounds run in the fast loops (`fast/`): rounds without anything
    /// random, up to the cap, the next reshuffle or the cycle watch's next save (the loops check
    /// the watch's other rounds themselves).
    fn plays_fast(&self, rules: &Rules) -> bool {
        rules.deterministic_rounds() && rules.spoils == Spoils::UnderPile && !self.trace
    }

    /// Seats every player who holds cards, in seat order.
    fn seat_players(&mut self, rules: &Rules) {
        self.active_len = 0;
        self.log_len = 0;
        for seat in 0..rules.players as usize {
            if self.holding(seat) > 0 {
                self.active[self.active_len] = seat as u8;
                self.active_len += 1;
            }
        }
    }

    /// Plays the rounds up to `end` of a loop the cycle watch found (`endings.rs`'s `skip_loop`):
    /// on the fast loops where the game's rounds run there (`fast`), else one at a time. Out of
    /// line, so the game loop pays nothing for it. Nothing ends and nobody drops out in a loop.
    #[cold]
    #[inline(never)]
    pub(super) fn play_lap<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        (end, fast): (u32, bool),
    ) {
        while record.rounds < end {
            let played = match (fast, self.active_len) {
                (true, 2) => self.fast_rounds(rules, rng, record, end),
                (true, _) => self.many_rounds(rules, rng, record, end),
                (false, _) => {
                    record.rounds += 1;
                    self.round(rules, rng, record)
                }
            };
            debug_assert!(matches!(
                played,
                RoundEnd::Plain | RoundEnd::Taken | RoundEnd::ShortTie
            ));
            if played != RoundEnd::Plain {
                self.drop_empty_seats();
            }
        }
    }

    /// One round on the general path, shown to the observer if there is one; `Err` with the
    /// game's record when the cap (or the observer) ends the game first.
    #[inline(always)]
    fn general_round<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        observer: &mut Option<&mut dyn Observer<C, CAP>>,
    ) -> Result<RoundEnd, GameRecord> {
        if record.rounds == rules.max_rounds {
            return Err(match rules.at_cap {
                AtCap::Capped => {
                    record.outcome = Outcome::Capped;
                    *record
                }
                AtCap::LargerPile => self.decide_at_cap(rules, rng, *record),
            });
        }
        if let Some(observer) = observer.as_deref_mut()
            && !observer.before_round(record.rounds + 1, self)
        {
            record.outcome = Outcome::Capped;
            return Err(*record);
        }
        record.rounds += 1;
        let end = self.round(rules, rng, record);
        if let Some(observer) = observer.as_deref_mut() {
            let winner = self.round_winner.map(usize::from);
            observer.after_round(record.rounds, self, winner);
        }
        Ok(end)
    }

    /// The record of a game that ended with fewer than two players holding cards.
    fn finish(&self, mut record: GameRecord, win_by: WinBy) -> GameRecord {
        if self.active_len == 1 {
            record.winner = Some(self.active[0]);
            record.outcome = Outcome::Win;
            record.win_by = Some(win_by);
        } else {
            record.outcome = Outcome::Draw;
        }
        record
    }

    /// The record of a game a war ended (`--war-shortage end-game`): the player holding the
    /// most cards wins; a tie for the most is a draw.
    fn end_at_shortage(&self, mut record: GameRecord) -> GameRecord {
        let seats = &self.active[..self.active_len];
        let most = seats.iter().map(|&s| self.holding(s as usize)).max();
        let mut holders = seats
            .iter()
            .filter(|&&s| Some(self.holding(s as usize)) == most);
        match (holders.next(), holders.next()) {
            (Some(&seat), None) => {
                record.winner = Some(seat);
                record.outcome = Outcome::Win;
                record.win_by = Some(WinBy::ShortTie);
            }
            _ => record.outcome = Outcome::Draw,
        }
        record
    }

    /// Plays one round of the family and notes its ties in `record`.
    #[inline(always)]
    pub(super) fn round<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
    ) -> RoundEnd {
        // Every round of the general path starts its tie count here, so no early return of a
        // round can leave the last war's count behind.
        self.ties = 0;
        self.chain = 0;
        let end = match rules.family {
            Family::Groups => self.groups_round(rules, rng),
            _ => self.table_round(rules, rng),
        };
        self.count_wars(end, record);
        end
    }

    /// Adds the round's ties to `record` unless the round ended plain.
    #[inline(always)]
    pub(super) fn count_wars(&self, end: RoundEnd, record: &mut GameRecord) {
        if end != RoundEnd::Plain {
            record.add_wars(self.ties, self.chain);
        }
    }

    pub(super) fn drop_empty_seats(&mut self) {
        // Most rounds of three or more players on the general path leave everyone in: checked
        // first, without storing the seats again (rewriting them after every round made
        // four-player war-simulator 1.3% slower before its rounds had a loop of their own).
        // Two players get here when one is out.
        if self.active_len > 2 && self.all_hold(&self.active[..self.active_len]) {
            return;
        }
        let mut kept = 0;
        // Without a branch on who is out: it follows the game, not a pattern.
        for i in 0..self.active_len {
            let seat = self.active[i];
            self.active[kept] = seat;
            kept += usize::from(self.holding(seat as usize) > 0);
        }
        self.active_len = kept;
    }
}
