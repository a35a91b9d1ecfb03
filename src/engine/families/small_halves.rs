//! The groups family's rounds of three and four players (`small_groups.rs`) on linear halves,
//! as `fast/heaps.rs` plays two: each player's pile and spoil heap are the two halves of its
//! own region of the linear buffers, so a refill shuffles the heap where it lies and the halves
//! swap roles (the ring piles copy the heap out, shuffle it, and copy it in), and a round's
//! cards go to the winner's heap in one copy. A round with one pair settles its war here;
//! every other war (two groups or more, tied champions, no champion, layouts of more than
//! [`STAKE`] cards) is settled on the halves too, the general way (`halves_wars.rs`). A test
//! checks that both give the same games as the ring piles and the general settling.

use crate::engine::card::Card;
use crate::engine::game::{LINEAR, PileGame, RoundEnd};
use crate::engine::pile::Hand;
use crate::engine::random::GameRandom;
use crate::engine::record::GameRecord;
use crate::engine::rules::Rules;

use super::halves_wars::HalvesWars;
use super::small_groups::{Shown, beside_pair, shown_ranks};

/// The largest layout (face-down cards and the champion) of a war settled here: a stake moves
/// in one copy of this many cards, whose last ones land in free space past a heap's end.
const STAKE: usize = 16;

/// Free cards before a heap's first card in its half: room for the last cards of the pile when
/// a player in a war shuffles its heap in under them (fewer than a layout's cards).
const MARGIN: usize = STAKE;

/// How the rounds on the halves stopped.
enum Stop {
    /// At the round limit.
    Limit,
    /// A player is out.
    Out,
    /// Nobody won the last round, and nobody ever can.
    Stuck,
}

impl<C: Card, const CAP: usize> PileGame<C, CAP> {
    /// Cards in each half of a player's region: the margin, every card of the game, and room
    /// past the last card of a heap or a pile for a stake's copy (written past the one, read
    /// past the other).
    const SMALL_HALF: usize = MARGIN + CAP + STAKE;

    /// True when four players' regions fit the linear buffers (every size class but the
    /// largest, which plays on the ring piles).
    pub(super) const SMALL_HALVES: bool = 4 * 2 * Self::SMALL_HALF <= 2 * LINEAR;

    /// [`PileGame::small_group_rounds`] for `N` players on the halves (the class must pass
    /// [`PileGame::SMALL_HALVES`]). Out of line: inlined, it cost every game's loop a few
    /// instructions of prologue, classic's too.
    #[inline(never)]
    pub(super) fn small_halves_rounds<const N: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
    ) -> RoundEnd {
        debug_assert!(Self::SMALL_HALVES, "four regions fit the linear buffers");
        let seats: [usize; N] = std::array::from_fn(|i| usize::from(self.active[i]));
        let mut hands = [Hand::default(); N];
        let flat = self.linear.as_flattened_mut();
        for (i, &seat) in seats.iter().enumerate() {
            let top = 2 * i * Self::SMALL_HALF + MARGIN;
            // Each half is empty past its cards: the whole ring may move.
            let cards = [&self.piles[seat], &self.heaps[seat]];
            hands[i] = Hand::copied_in(cards, flat, top, top + Self::SMALL_HALF);
        }
        debug_assert!(
            hands.iter().all(|hand| hand.holding() > 0),
            "players are seated"
        );
        let stop = self.halves_loop::<N, R>(rules, rng, record, limit, &mut hands);
        let flat = self.linear.as_flattened();
        for (hand, &seat) in hands.iter().zip(&seats) {
            let cards = [&mut self.piles[seat], &mut self.heaps[seat]];
            hand.copy_out(flat, cards);
        }
        match stop {
            Stop::Limit => RoundEnd::Plain,
            Stop::Out => {
                self.idle_rounds = 0;
                RoundEnd::Taken
            }
            Stop::Stuck => RoundEnd::Stuck,
        }
    }

    /// The rounds of [`PileGame::small_halves_rounds`] on `hands`: each player draws in seat
    /// order (refilling an empty pile); no two equal ranks: the highest takes the cards;
    /// exactly one pair: its war is settled here when [`halves_pair_war`] can; any other
    /// round by [`HalvesWars`].
    #[inline(always)]
    fn halves_loop<const N: usize, R: GameRandom>(
        &mut self,
        rules: &Rules,
        rng: &mut R,
        record: &mut GameRecord,
        limit: u32,
        hands: &mut [Hand; N],
    ) -> Stop {
        let layout = rules.face_down as usize + 1;
        let mut rounds = record.rounds;
        let mut laid = 0u64;
        let stop = loop {
            if rounds == limit {
                break Stop::Limit;
            }
            rounds += 1;
            let flat = self.linear.as_flattened_mut();
            let mut cards = [C::default(); N];
            for i in 0..N {
                // Every player holds a card: checked after each round (and by the caller).
                if hands[i].top == hands[i].end {
                    refill_half::<C, R, CAP>(flat, i, &mut hands[i], rng);
                }
                cards[i] = flat[hands[i].top];
                hands[i].top += 1;
            }
            laid += N as u64;
            let ranks = cards.map(|card| card.rank());
            let shown = shown_ranks(ranks);
            // The winner of a round without a war or with the common war of one pair.
            let quick = if let Shown::Highest(best) = shown {
                Some(best)
            } else if let Shown::OnePair(pair) = shown
                && let Some((winner, staked)) =
                    halves_pair_war::<C, R, N, CAP>(flat, hands, layout, ranks, pair, rng)
            {
                record.add_wars(1, 1);
                laid += staked as u64;
                Some(winner)
            } else {
                None
            };
            if let Some(winner) = quick {
                let tail = hands[winner].heap + hands[winner].heap_len;
                flat[tail..tail + N].copy_from_slice(&cards);
                // Every hand's count by a constant index, not the winner's by a computed one:
                // the next round's loads of the hands waited on that store (four players
                // 0.95× with this).
                for (i, hand) in hands.iter_mut().enumerate() {
                    hand.heap_len += if i == winner { N } else { 0 };
                }
            } else {
                // Every other round: its wars and its shown cards settled the general way.
                let mut wars =
                    HalvesWars::<C, R, N, CAP>::new(flat, hands, rng, &mut self.log, layout);
                let winner = wars.settle(cards);
                record.add_wars(wars.ties, wars.chain);
                laid += wars.staked;
                if winner.is_none() && wars.stalemate() {
                    break Stop::Stuck;
                }
            }
            if hands.iter().any(|hand| hand.holding() == 0) {
                break Stop::Out;
            }
        };
        record.rounds = rounds;
        self.laid += laid;
        stop
    }
}

/// The war of a round holding exactly one pair, `pair` (players, in seat order, of `ranks`):
/// each stakes a layout, or all it holds when short (none: out of the war), the last card its
/// champion. When the champions differ (or only one has one), the war's cards go onto its
/// winner's heap in the order laid, and this returns the round's winner (the highest of the
/// pair and the single cards) and the cards staked. `None` when the champions tie (a nested
/// war), nobody has one or the layout is too long, having drawn nothing but the refills a
/// short pile makes first, in the pair's order: [`HalvesWars`] then settles the round and
/// finds the piles its own draws would have made.
#[inline(always)]
fn halves_pair_war<C: Card, R: GameRandom, const N: usize, const CAP: usize>(
    flat: &mut [C],
    hands: &mut [Hand; N],
    layout: usize,
    ranks: [u8; N],
    pair: [usize; 2],
    rng: &mut R,
) -> Option<(usize, usize)> {
    let stakes = pair.map(|i| hands[i].holding().min(layout));
    if layout > STAKE || stakes == [0, 0] {
        return None;
    }
    for (i, stake) in pair.into_iter().zip(stakes) {
        if hands[i].end - hands[i].top < stake {
            refill_half::<C, R, CAP>(flat, i, &mut hands[i], rng);
        }
    }
    let champion = |k: usize| (stakes[k] > 0).then(|| flat[hands[pair[k]].top + stakes[k] - 1]);
    let war_winner = match [champion(0), champion(1)] {
        [Some(x), Some(y)] if x.rank() == y.rank() => return None,
        [Some(x), Some(y)] => pair[usize::from(y.rank() > x.rank())],
        [_, None] => pair[0],
        [None, Some(_)] => pair[1],
    };
    for (i, stake) in pair.into_iter().zip(stakes) {
        let (top, tail) = (
            hands[i].top,
            hands[war_winner].heap + hands[war_winner].heap_len,
        );
        // A copy of fixed size, not `copy_within` (a call to memmove for a few cards).
        let cards: [C; STAKE] = flat[top..top + STAKE].try_into().unwrap();
        flat[tail..tail + STAKE].copy_from_slice(&cards);
        hands[i].top += stake;
        hands[war_winner].heap_len += stake;
    }
    Some((beside_pair(ranks, pair, war_winner), stakes[0] + stakes[1]))
}

/// Player `i`'s heap shuffled where it lies (as the ring piles' refill shuffles the same cards
/// in the same order) under what is left of its pile, which moves into the heap's margin; the
/// emptied half becomes the heap.
#[inline(never)]
pub(super) fn refill_half<C: Card, R: GameRandom, const CAP: usize>(
    flat: &mut [C],
    i: usize,
    hand: &mut Hand,
    rng: &mut R,
) {
    let half = PileGame::<C, CAP>::SMALL_HALF;
    let (heap, heap_len, left) = (hand.heap, hand.heap_len, hand.end - hand.top);
    rng.shuffle(&mut flat[heap..heap + heap_len]);
    if left > 0 {
        flat.copy_within(hand.top..hand.end, heap - left);
    }
    // The heap's next place: the other half's start, past the margin.
    let region = 2 * i * half;
    *hand = Hand {
        top: heap - left,
        end: heap + heap_len,
        heap: 2 * region + half + 2 * MARGIN - heap,
        heap_len: 0,
    };
}
