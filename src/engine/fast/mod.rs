//! The fast path of the table family: plain two-player rounds and most wars in a tight loop
//! over two linear copies of the piles. Everything else goes through `table.rs`'s general path,
//! and a test checks that both give the same games.
//!
//! Both players lay the same number of cards in every round of a two-player game, so one index
//! is the top of both piles: pile j is `linear[j][head..head + n_j]`. Won cards are written past
//! the winner's last card; a plain round writes its two cards past *both* piles' ends and keeps
//! only the winner's (the loser's copy lands in free space), so the round has no branch on who
//! won. When the head nears the end of the buffers, both piles move back to the start.

use crate::engine::record::GameRecord;
mod blocks;
mod heap_pass;
mod heaps;
mod many;
mod orders;
mod pass;
mod seat_blocks;
mod seat_wars;
mod seats;
mod watch;

use crate::engine::card::Card;
use crate::engine::game::{LINEAR, PileGame, RoundEnd};
use crate::engine::random::GameRandom;
use crate::engine::rules::{Pickup, Rules};
use blocks::BLOCK_SLACK;
use orders::{alternating_order, natural_order, reversed_order, table_order};
use pass::{HIGH_LOW, LOW_HIGH, NATURAL, Pass, SEATS_DOWN, SEATS_UP, scalar_pass};

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Plays plain two-player rounds and wars until a war with a player short, the end of the
    /// game or round `limit`; that war goes through the general [`PileGame::settle`]. Only for rules
    /// with nothing random in a round and the piles under-pile, up to the next reshuffle (the
    /// caller checks and sets `limit`). Returns how the last round ended (at the limit: a plain
    /// round).
    #[inline(always)]
    pub(in crate::engine) fn fast_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        // The cards laid are counted from the rounds and ties the loop played, out here: counting
        // them inside the loop's function cost 3 to 4% of classic's instructions (its layout).
        let layout = rules.face_down as usize + 1;
        let before = laid_by(layout, record.rounds, record.wars);
        let laid_before = self.laid;
        let end = match rules.pickup {
            Pickup::Table | Pickup::WinnerFirst => {
                self.fast_rounds_order::<HIGH_LOW, R>(rules, rng, record, limit)
            }
            Pickup::Natural => self.fast_rounds_order::<NATURAL, R>(rules, rng, record, limit),
            Pickup::LoserFirst => self.fast_rounds_order::<LOW_HIGH, R>(rules, rng, record, limit),
            Pickup::Seats | Pickup::Alternating => {
                self.fast_rounds_order::<SEATS_UP, R>(rules, rng, record, limit)
            }
            Pickup::ReverseSeats | Pickup::Shuffled | Pickup::Reversed => {
                self.fast_rounds_order::<SEATS_DOWN, R>(rules, rng, record, limit)
            }
        };
        let mut after = laid_by(layout, record.rounds, record.wars);
        if self.laid != laid_before {
            // The loop's last round was a war with a player short, laid and counted by the
            // general path: its two tied cards and its ties are not the loop's.
            let ties = if end == RoundEnd::Plain { 0 } else { self.ties };
            after -= laid_by(layout, 1, u64::from(ties));
        }
        self.laid = self.laid.wrapping_add(after.wrapping_sub(before));
        end
    }

    /// The loop with the block pass, compiled for the processor features it needs, when the
    /// cards are bytes and the processor has them; else with the scalar pass. Watching for
    /// cycles or not, as the game is at a round the cycle watch checks or not: the passes that
    /// watch cost more, and most games end before the watch begins.
    #[inline(always)]
    fn fast_rounds_order<const ORDER: u8, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        let target = self.watch_target();
        // Without a watched position, the loop stops where the cycle watch saves its first.
        let limit = match target {
            usize::MAX => limit.min(self.next_save()),
            _ => limit,
        };
        match self.blocks {
            Some(blocks) if C::bytes_mut(&mut self.linear).is_some() => blocks.with_features(
                #[inline(always)]
                || {
                    if target == usize::MAX {
                        self.fast_rounds_in::<ORDER, true, false, R>(
                            rules, rng, record, limit, target,
                        )
                    } else {
                        self.fast_rounds_in::<ORDER, true, true, R>(
                            rules, rng, record, limit, target,
                        )
                    }
                },
            ),
            _ if target == usize::MAX => {
                self.fast_rounds_in::<ORDER, false, false, R>(rules, rng, record, limit, target)
            }
            _ => self.fast_rounds_in::<ORDER, false, true, R>(rules, rng, record, limit, target),
        }
    }

    /// The loop: passes of plain rounds, wars on the linear piles, a war with a player short
    /// handed to the general path. The buffers never overflow: a game's cards fit one pile
    /// (checked by the deal and play_hands), piles fit the buffers (`PileGame::FITS`), and the
    /// head moves back to the start before head + total + BLOCK_SLACK reaches LINEAR; were it
    /// ever wrong, both passes assert their bound before touching memory. (A saturating budget
    /// cost 2.5% of war-card-game's instructions, and moving the first lines into a helper 3%:
    /// LLVM lays the loop out differently, so it stays one function.)
    #[inline(always)]
    fn fast_rounds_in<const ORDER: u8, const BLOCKS: bool, const WATCH: bool, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
        target: usize,
    ) -> RoundEnd {
        debug_assert!(rules.pickup != Pickup::Shuffled && self.active_len == 2 && !self.trace);
        let seats = [self.active[0] as usize, self.active[1] as usize];
        let mut n0 = self.piles[seats[0]].len();
        let total = n0 + self.piles[seats[1]].len();
        for (j, &seat) in seats.iter().enumerate() {
            self.piles[seat].copy_to(&mut self.linear[j]);
        }
        let mut head = 0;
        let layout = rules.face_down as usize + 1;
        // Wars of one tie whose won cards are the same whoever wins: the passes settle them.
        let settles_wars = match rules.pickup {
            Pickup::Table => layout == 2,
            Pickup::Natural => layout == 1,
            _ => false,
        };
        // The cycle watch (watching loops only): seat 0's pile size and both top ranks in the
        // saved position, and the round of the next save, which the loop makes itself.
        // (`target` is usize::MAX here unless watching, when `watched` reads it again: the
        // argument is redundant, but dropping it moved the loop's layout, +0.7% of classic's
        // instructions.)
        let (mut target, mut tops, mut next_save) = match WATCH {
            true => self.watched(),
            false => (target, [0; 2], u32::MAX),
        };
        let mut rounds = record.rounds;
        let end = loop {
            if head + total + BLOCK_SLACK >= LINEAR {
                head = self.move_to_start(head, [n0, total - n0]);
            }
            // Plain rounds this pass may play: each moves the head by one and writes at most
            // BLOCK_SLACK cards past head + total, inside the buffers (see the doc above).
            let room = (LINEAR - BLOCK_SLACK - total - head) as u32;
            let budget = (limit.min(next_save) - rounds).min(room);
            if budget == 0 {
                break RoundEnd::Plain;
            }
            debug_assert!(next_save > rounds, "the watch saved at this round already");
            let pass = Pass::new(head, n0, total, budget, settles_wars, (target, tops));
            let pass = match (BLOCKS, self.blocks, C::bytes_mut(&mut self.linear)) {
                (true, Some(blocks), Some(bytes)) => {
                    // A watching block pass plays past the watch's saves, making them itself.
                    let pass = match WATCH {
                        true => Pass {
                            budget: (limit - rounds).min(room),
                            save_in: next_save - rounds,
                            power: self.saved_power,
                            ..pass
                        },
                        false => pass,
                    };
                    blocks.play::<ORDER, WATCH>(bytes, pass)
                }
                _ => scalar_pass::<C, ORDER, WATCH>(&mut self.linear, pass),
            };
            if WATCH && pass.saves > 0 {
                (target, tops, next_save) = self.saved_in_pass(&pass, rounds, total);
            }
            rounds += pass.rounds;
            // The pass's wars are of one step each. (Added only when there are some: adding
            // every pass's to the u64 count moved the loop's registers, +3% of classic's
            // instructions and time; results/2026-11-27-wars-u64.)
            if pass.wars > 0 {
                record.add_wars(pass.wars, 1);
            }
            (head, n0) = (pass.head, pass.n0);
            let tied = pass.tied;
            if n0 == 0 || n0 == total {
                break RoundEnd::Taken;
            }
            // A watching pass stops after every round that may repeat the saved position (seat
            // 0's pile of the saved size and the saved top ranks); a scalar one at the next
            // save too, which the block pass makes itself.
            if WATCH && (n0 == target || rounds == next_save) {
                match self.watch_linear(head, n0, total, rounds) {
                    Some(watch) => (target, tops, next_save) = watch,
                    None => break RoundEnd::Cycle,
                }
            }
            if !tied {
                continue;
            }
            rounds += 1;
            let counts = [n0, total - n0];
            if head + total + 1 + layout > LINEAR {
                // The war's cards end up to 1 + layout past head + total.
                head = self.move_to_start(head, counts);
            }
            if let Some((winner, depth)) = self.war(rules, head, counts, layout) {
                record.add_wars(depth as u32, depth as u32);
                // The winner gains the loser's played cards.
                let played = 1 + depth * layout;
                n0 = if winner == 0 {
                    n0 + played
                } else {
                    n0 - played
                };
                head += played;
                if n0 == 0 || n0 == total {
                    break RoundEnd::Taken;
                }
                if WATCH && (n0 == target || rounds == next_save) {
                    match self.watch_linear(head, n0, total, rounds) {
                        Some(watch) => (target, tops, next_save) = watch,
                        None => break RoundEnd::Cycle,
                    }
                }
                continue;
            }
            // A war that finds a player short: the general path settles it, from
            // piles without the tied cards.
            let (a, b) = (self.linear[0][head], self.linear[1][head]);
            self.keep_saved(total);
            self.store_linear(seats, head + 1, [n0 - 1, total - n0 - 1]);
            record.rounds = rounds;
            let end = self.war_after_tie(rules, rng, (a, seats[0]), (b, seats[1]));
            self.count_wars(end, record);
            return end;
        };
        self.keep_saved(total);
        self.store_linear(seats, head, [n0, total - n0]);
        record.rounds = rounds;
        end
    }

    /// Hands the linear piles of [`PileGame::fast_rounds_in`] back to the seats' piles.
    #[inline(always)]
    fn store_linear(&mut self, seats: [usize; 2], head: usize, counts: [usize; 2]) {
        for j in 0..2 {
            self.piles[seats[j]].set(&self.linear[j][head..head + counts[j]]);
        }
    }

    /// Settles, on the linear piles, a war whose tied cards sit at `head`, when both players
    /// can lay the full layout at every step until the face-up cards differ (almost every
    /// war). Then every shortage rule agrees, and the won cards go under the winner's pile in
    /// the order the general path would give. `counts` are the piles' sizes with the tied
    /// cards. Returns the winner (0 or 1) and the number of ties, or `None` (nothing touched)
    /// for the general path. Out of line, so that the plain-round loop keeps its registers.
    #[inline(never)]
    fn war(
        &mut self,
        rules: &Rules,
        head: usize,
        counts: [usize; 2],
        layout: usize,
    ) -> Option<(usize, usize)> {
        let total = counts[0] + counts[1];
        let mut depth = 1;
        let (up, per_player) = loop {
            // Each player has played the tied card and `depth` layouts.
            let played = 1 + depth * layout;
            // The won cards end at most `played` past head + total.
            if counts[0] < played || counts[1] < played || head + total + played > LINEAR {
                return None;
            }
            let up = [
                self.linear[0][head + played - 1],
                self.linear[1][head + played - 1],
            ];
            if up[0].rank() != up[1].rank() {
                break (up, played);
            }
            depth += 1;
        };
        let winner = usize::from(up[1].rank() > up[0].rank());
        // Won cards go right after the winner's last card, past every card read here.
        let end = head + counts[winner];
        let [pile0, pile1] = &mut self.linear;
        let (winners, losers) = if winner == 0 {
            (pile0, &*pile1)
        } else {
            (pile1, &*pile0)
        };
        let (held, free) = winners.split_at_mut(end);
        let mut played = [
            &held[head..head + per_player],
            &losers[head..head + per_player],
        ];
        if winner == 1 {
            played.swap(0, 1); // by seat
        }
        let [cards0, cards1] = played;
        let mut n = 0;
        match rules.pickup {
            Pickup::Table => n = table_order(free, [cards0, cards1], depth, layout),
            Pickup::Natural => n = natural_order(free, [cards0, cards1], depth, layout),
            Pickup::Reversed => n = reversed_order(free, [cards0, cards1], depth, layout),
            Pickup::Alternating => n = alternating_order(free, [cards0, cards1], per_player),
            pickup => {
                let order = match pickup {
                    Pickup::WinnerFirst => [winner, 1 - winner],
                    Pickup::LoserFirst => [1 - winner, winner],
                    Pickup::Seats => [0, 1],
                    _ => [1, 0],
                };
                for seat in order {
                    let cards = if seat == 0 { cards0 } else { cards1 };
                    // Card by card: a call to memcpy costs more than these few cards.
                    for (slot, &card) in free[n..n + per_player].iter_mut().zip(cards) {
                        *slot = card;
                    }
                    n += per_player;
                }
            }
        }
        debug_assert_eq!(n, 2 * per_player);
        Some((winner, depth))
    }
}

/// Cards two players lay in `rounds` rounds with `ties` ties on the fast loop: two a round, and
/// `layout` more from each player at every tie (the loop plays no war with a player short).
#[inline(always)]
fn laid_by(layout: usize, rounds: u32, ties: u64) -> u64 {
    2 * u64::from(rounds) + 2 * layout as u64 * ties
}
