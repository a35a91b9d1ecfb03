//! The fast path of the groups family (WarSimulator) for two players: plain rounds, wars and
//! refills on linear buffers, exactly as the general round (`families/groups.rs`) plays them,
//! and a test checks that both give the same games.
//!
//! Player j's draw pile and spoil heap are the two halves of `linear[j]`, `[0, HALF)` and
//! `[HALF, 2·HALF)`: won cards are written at the heap's end, and a player whose pile runs out
//! shuffles the heap where it lies and the halves swap roles, so a refill copies nothing (the
//! general path copies the heap out, shuffles, and copies it in). A plain round writes its two
//! cards at the end of *both* heaps and keeps only the winner's (the loser's copy lands in free
//! space), so it has no branch on who won; the passes of plain rounds are in `heap_pass.rs`.

use super::heap_pass::{HEAP_BLOCK_SLACK, plain_pass};
use crate::engine::card::Card;
use crate::engine::game::{LINEAR, PileGame, RoundEnd, one_rank};
use crate::engine::pile::Hand;
use crate::engine::random::GameRandom;
use crate::engine::record::GameRecord;
use crate::engine::rules::Rules;

/// What a round's wars add to the record and the cards laid.
#[derive(Default)]
struct WarCount {
    ties: u32,
    chain: u32,
    laid: u64,
}

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Where a linear buffer's second half starts: past twice a pile's capacity where the
    /// buffer has room, so that the block pass's stores past a heap's end stay in its half.
    const HALF: usize = if 4 * CAP <= LINEAR { 2 * CAP } else { CAP };

    /// True when the halves leave the block pass its slack (every size class but the largest).
    const HEAP_BLOCKS: bool = Self::HALF >= CAP + HEAP_BLOCK_SLACK;

    /// Plays two-player rounds of the groups family until a player is out, the game is stuck or
    /// round `limit` is reached, exactly as [`PileGame::groups_round`] would (outside single-game
    /// mode, without reshuffles). Returns how the last round ended (at the limit: a plain round).
    pub(in crate::engine) fn groups_pair_rounds<R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(self.active_len == 2 && !self.trace);
        const { assert!(2 * Self::HALF <= LINEAR, "both halves fit a linear buffer") };
        let seats = [self.active[0] as usize, self.active[1] as usize];
        let mut hands = [Hand::default(); 2];
        for (j, &seat) in seats.iter().enumerate() {
            // Each half is empty past its cards: the whole ring may move.
            let cards = [&self.piles[seat], &self.heaps[seat]];
            hands[j] = Hand::copied_in(cards, &mut self.linear[j], 0, Self::HALF);
        }
        let end = match self.blocks {
            Some(blocks) if Self::HEAP_BLOCKS && C::bytes_mut(&mut self.linear).is_some() => blocks
                .with_features(
                    #[inline(always)]
                    || self.heap_rounds::<true, R>(rules, rng, record, limit, &mut hands),
                ),
            _ => self.heap_rounds::<false, R>(rules, rng, record, limit, &mut hands),
        };
        for (j, &seat) in seats.iter().enumerate() {
            let cards = [&mut self.piles[seat], &mut self.heaps[seat]];
            hands[j].copy_out(&self.linear[j], cards);
        }
        end
    }

    /// The loop of [`PileGame::groups_pair_rounds`] on the halves: refills in seat order, a
    /// pass of plain rounds (sixteen at a time with `BLOCKS`), a war after a tie; the rounds and
    /// cards laid counted once at the end.
    #[inline(always)]
    fn heap_rounds<const BLOCKS: bool, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
        hands: &mut [Hand; 2],
    ) -> RoundEnd {
        let mask = 2 * Self::HALF - 1;
        let layout = rules.face_down as usize + 1;
        let mut rounds = record.rounds;
        let mut laid = 0u64;
        let end = loop {
            if rounds == limit {
                break RoundEnd::Plain;
            }
            // The round's draws refill empty piles in seat order; active players hold cards.
            for (buffer, hand) in self.linear.iter_mut().zip(hands.iter_mut()) {
                if hand.top == hand.end {
                    refill::<C, R, CAP>(buffer, hand, rng);
                }
            }
            let pass = (hands[0].end - hands[0].top)
                .min(hands[1].end - hands[1].top)
                .min((limit - rounds) as usize);
            let (played, tied) = match (BLOCKS, self.blocks, C::bytes_mut(&mut self.linear)) {
                (true, Some(blocks), Some(bytes)) => blocks.heap_pass(bytes, hands, pass),
                _ => {
                    let [buffer0, buffer1] = &mut self.linear;
                    plain_pass(buffer0, buffer1, hands, pass)
                }
            };
            rounds += played as u32;
            laid += 2 * played as u64;
            if tied {
                let shown = [
                    self.linear[0][(hands[0].top - 1) & mask],
                    self.linear[1][(hands[1].top - 1) & mask],
                ];
                if self.quick_war(hands, layout, shown) {
                    record.add_wars(1, 1);
                    laid += 2 * layout as u64;
                } else if self.slow_war(rng, hands, layout, shown, record, &mut laid) {
                    break RoundEnd::Stuck;
                }
            }
            if hands[0].holding() == 0 || hands[1].holding() == 0 {
                break RoundEnd::Taken;
            }
        };
        record.rounds = rounds;
        self.laid += laid;
        end
    }

    /// Settles a war [`PileGame::quick_war`] does not: refills, players short, nested wars,
    /// wars nobody wins. True when the game is stuck.
    #[inline(never)]
    fn slow_war<R: GameRandom>(
        &mut self,
        rng: &mut R,
        hands: &mut [Hand; 2],
        layout: usize,
        shown: [C; 2],
        record: &mut GameRecord,
        laid: &mut u64,
    ) -> bool {
        let mut count = WarCount::default();
        let winner = self.heap_war(rng, hands, layout, 1, 0, &mut count);
        // To the winner, or each back to its owner.
        for (owner, card) in winner.map_or([0, 1], |w| [w, w]).into_iter().zip(shown) {
            self.onto_heap(hands, owner, card);
        }
        record.add_wars(count.ties, count.chain);
        *laid += count.laid;
        winner.is_none() && self.stuck_halves(hands)
    }

    /// Settles the common war, if this is one: both piles hold a whole layout (no refill) and
    /// the champions differ (no nested war). The winner's heap takes the first player's layout,
    /// the second's, then the two `shown` cards, as [`PileGame::heap_war`] would give them.
    #[inline(always)]
    fn quick_war(&mut self, hands: &mut [Hand; 2], layout: usize, shown: [C; 2]) -> bool {
        let mask = 2 * Self::HALF - 1;
        let (top0, top1) = (hands[0].top, hands[1].top);
        if hands[0].end - top0 < layout || hands[1].end - top1 < layout {
            return false;
        }
        let champion0 = self.linear[0][(top0 + layout - 1) & mask];
        let champion1 = self.linear[1][(top1 + layout - 1) & mask];
        if champion0.rank() == champion1.rank() {
            return false;
        }
        let winner = usize::from(champion1.rank() > champion0.rank());
        let mut tail = hands[winner].heap + hands[winner].heap_len;
        match C::bytes_mut(&mut self.linear) {
            // Byte cards: each layout in one 16-byte copy (not a loop of one card at a time:
            // 3% of two-player war-simulator's instructions). The copies' last bytes land past
            // the heap's end, inside its half's slack (`HEAP_BLOCKS`); the shown cards follow.
            Some(bytes) if Self::HEAP_BLOCKS && layout <= 16 => {
                for (j, hand) in hands.iter_mut().enumerate() {
                    let stake: [u8; 16] = bytes[j][hand.top..hand.top + 16].try_into().unwrap();
                    bytes[winner][tail..tail + 16].copy_from_slice(&stake);
                    (tail, hand.top) = (tail + layout, hand.top + layout);
                }
            }
            _ => {
                for (j, hand) in hands.iter_mut().enumerate() {
                    for k in 0..layout {
                        self.linear[winner][tail & mask] = self.linear[j][(hand.top + k) & mask];
                        tail += 1;
                    }
                    hand.top += layout;
                }
            }
        }
        for card in shown {
            self.linear[winner][tail & mask] = card;
            tail += 1;
        }
        hands[winner].heap_len = tail - hands[winner].heap;
        true
    }

    /// One war between the two players (depth `depth`), its cards laid on the table (`scratch`)
    /// from `table`: each stakes up to `layout` cards, the last its champion (fewer when short,
    /// none: out of the war); tied champions fight again. Its cards go to its winner's heap in
    /// the order laid, or back to their owners when nobody wins. Returns the winner.
    fn heap_war<R: GameRandom>(
        &mut self,
        rng: &mut R,
        hands: &mut [Hand; 2],
        layout: usize,
        depth: u32,
        table: usize,
        count: &mut WarCount,
    ) -> Option<usize> {
        count.ties += 1;
        count.chain = count.chain.max(depth);
        let mut laid = table;
        let mut ends = [table; 2];
        let mut champions = [None; 2];
        for (j, hand) in hands.iter_mut().enumerate() {
            let stake = hand.holding().min(layout);
            let mut drawn = 0;
            // The pile's cards, a refill, the rest: two copies at most.
            while drawn < stake {
                if hand.top == hand.end {
                    refill::<C, R, CAP>(&mut self.linear[j], hand, rng);
                }
                let take = (stake - drawn).min(hand.end - hand.top);
                copy_few(&mut self.scratch[laid..], &self.linear[j][hand.top..], take);
                (hand.top, laid, drawn) = (hand.top + take, laid + take, drawn + take);
            }
            ends[j] = laid;
            champions[j] = (stake > 0).then(|| self.scratch[laid - 1]);
        }
        count.laid += (laid - table) as u64;
        let winner = match champions {
            [Some(x), Some(y)] if x.rank() == y.rank() => {
                self.heap_war(rng, hands, layout, depth + 1, laid, count)
            }
            [Some(x), Some(y)] => Some(usize::from(y.rank() > x.rank())),
            [Some(_), None] => Some(0),
            [None, Some(_)] => Some(1),
            [None, None] => None,
        };
        // Seat 0's cards then seat 1's, to the winner or back to their owners.
        let owners = winner.map_or([0, 1], |w| [w, w]);
        let mut from = table;
        for (owner, end) in owners.into_iter().zip(ends) {
            let hand = &mut hands[owner];
            let tail = hand.heap + hand.heap_len;
            // Free space up to the end of the heap's half.
            let heap = &mut self.linear[owner][tail..hand.heap + Self::HALF];
            copy_few(heap, &self.scratch[from..], end - from);
            hand.heap_len += end - from;
            from = end;
        }
        winner
    }

    /// Puts a card at the end of player j's heap.
    #[inline(always)]
    fn onto_heap(&mut self, hands: &mut [Hand; 2], j: usize, card: C) {
        let hand = &mut hands[j];
        self.linear[j][(hand.heap + hand.heap_len) & (2 * Self::HALF - 1)] = card;
        hand.heap_len += 1;
    }

    /// [`PileGame::stalemate`] on the linear halves: every player's cards are of one rank.
    fn stuck_halves(&self, hands: &[Hand; 2]) -> bool {
        hands
            .iter()
            .zip(&self.linear)
            .all(|(hand, buffer)| one_rank(hand.cards(buffer)))
    }
}

/// Copies `len` cards from the start of `from` to the start of `to`, in one copy of 16 cards when
/// there are no more and both slices are that long (it may write past `len`, in space the
/// caller gives as free): `copy_from_slice` called libc's memcpy for the few cards of a war's
/// stake, 2.7% of two-player war-simulator's instructions.
#[inline(always)]
fn copy_few<C: Card>(to: &mut [C], from: &[C], len: usize) {
    const BLOCK: usize = 16;
    if len <= BLOCK && to.len() >= BLOCK && from.len() >= BLOCK {
        let block: [C; BLOCK] = from[..BLOCK].try_into().unwrap();
        to[..BLOCK].copy_from_slice(&block);
    } else {
        to[..len].copy_from_slice(&from[..len]);
    }
}

/// An empty pile takes the heap: shuffled where it lies (the general path shuffles the same
/// cards in the same order), and the emptied half becomes the heap.
#[inline(never)]
fn refill<C: Card, R: GameRandom, const CAP: usize>(
    buffer: &mut [C; LINEAR],
    hand: &mut Hand,
    rng: &mut R,
) {
    let (base, len) = (hand.heap, hand.heap_len);
    rng.shuffle(&mut buffer[base..base + len]);
    *hand = Hand {
        top: base,
        end: base + len,
        heap: PileGame::<C, CAP>::HALF - base,
        heap_len: 0,
    };
}
