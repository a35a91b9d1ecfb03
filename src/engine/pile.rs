//! Fixed-capacity ring buffers of cards: the piles every player holds, and the hands that
//! index a player's pile and spoil heap once the groups family's fast paths have copied them
//! into linear buffers.
//!
//! A pile never allocates. Its capacity is a power of two chosen per deck-size class, so the
//! position of the n-th card is a mask away and the compiler drops the bounds checks.

use super::card::Card;

/// A player's pile: the top card is played first, won cards go to the bottom.
#[derive(Clone)]
pub struct Pile<C: Card, const CAP: usize> {
    cards: [C; CAP],
    head: usize,
    len: usize,
}

impl<C: Card, const CAP: usize> Default for Pile<C, CAP> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Card, const CAP: usize> Pile<C, CAP> {
    const MASK: usize = {
        assert!(
            CAP.is_power_of_two(),
            "pile capacity must be a power of two"
        );
        CAP - 1
    };

    /// An empty pile.
    pub fn new() -> Self {
        Pile {
            cards: [C::default(); CAP],
            head: 0,
            len: 0,
        }
    }

    /// Number of cards held.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the pile holds no card.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every card.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.head = 0;
        self.len = 0;
    }

    /// The top card, left on the pile. The caller guarantees the pile is not empty.
    #[inline(always)]
    pub(crate) fn top(&self) -> C {
        debug_assert!(self.len > 0, "top of an empty pile");
        self.cards[self.head & Self::MASK]
    }

    /// The card `depth` places below the top (0: the top), left on the pile. The caller
    /// guarantees the pile holds more than `depth` cards.
    #[inline(always)]
    pub(crate) fn peek(&self, depth: usize) -> C {
        debug_assert!(self.len > depth, "peek below the bottom of a pile");
        self.cards[(self.head + depth) & Self::MASK]
    }

    /// Takes the top card. The caller guarantees the pile is not empty.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> C {
        debug_assert!(self.len > 0, "pop from an empty pile");
        let card = self.cards[self.head & Self::MASK];
        self.head = (self.head + 1) & Self::MASK;
        self.len -= 1;
        card
    }

    /// Takes `count` cards off the top, unread. The caller guarantees the pile holds them.
    #[inline(always)]
    pub(crate) fn discard(&mut self, count: usize) {
        debug_assert!(self.len >= count, "discard below the bottom of a pile");
        self.head = (self.head + count) & Self::MASK;
        self.len -= count;
    }

    /// Puts a card at the bottom. The pile is never full: every way into a game (`deal`,
    /// `play`, `play_hands`) checks once that all its cards fit one pile, and only the crate
    /// pushes, so the hot loop pays no check here.
    #[inline(always)]
    pub(crate) fn push(&mut self, card: C) {
        debug_assert!(self.len < CAP, "push onto a full pile of {CAP} cards");
        self.cards[(self.head + self.len) & Self::MASK] = card;
        self.len += 1;
    }

    /// Puts cards at the bottom, first card of the slice first.
    #[inline]
    pub(crate) fn extend(&mut self, cards: &[C]) {
        // One push at a time, not `extend_from`: built on it, two-player games of 104 and 208
        // cards took 2.5–5% more instructions with no change to their loops' code (register
        // allocation: results/2026-11-25-groups-rounds).
        for &card in cards {
            self.push(card);
        }
    }

    /// Puts cards at the bottom in the iterator's order. The length is kept in a register and
    /// stored once: pushed one at a time, it was stored after every card, since the compiler
    /// cannot tell the card writes from it.
    #[inline(always)]
    pub(crate) fn extend_from(&mut self, cards: impl IntoIterator<Item = C>) {
        let mut len = self.len;
        for card in cards {
            debug_assert!(len < CAP, "push onto a full pile of {CAP} cards");
            self.cards[(self.head + len) & Self::MASK] = card;
            len += 1;
        }
        self.len = len;
    }

    /// The cards from top to bottom.
    pub fn iter(&self) -> impl Iterator<Item = C> + '_ {
        (0..self.len).map(move |i| self.cards[(self.head + i) & Self::MASK])
    }

    /// The ring's storage and where the top card sits in it, for a loop that reads and writes
    /// the ring with its own indices (then [`Pile::set_raw`]). Positions are taken modulo CAP.
    #[inline(always)]
    pub(crate) fn raw(&mut self) -> (&mut [C; CAP], usize, usize) {
        (&mut self.cards, self.head, self.len)
    }

    /// Sets the head and length after writing the ring directly.
    #[inline(always)]
    pub(crate) fn set_raw(&mut self, head: usize, len: usize) {
        assert!(len <= CAP, "a pile holds at most {CAP} cards");
        self.head = head & Self::MASK;
        self.len = len;
    }

    /// Replaces the content with `cards`, top first.
    #[inline]
    pub(crate) fn set(&mut self, cards: &[C]) {
        assert!(cards.len() <= CAP, "a pile holds at most {CAP} cards");
        self.cards[..cards.len()].copy_from_slice(cards);
        self.head = 0;
        self.len = cards.len();
    }

    /// True when a whole ring moves in fixed-size copies ([`Pile::copy_to_room`],
    /// [`Pile::set_from_room`]): byte cards in 64-card rings. libc's memcpy, called for the
    /// few cards of a pile (twice when it wraps), cost more in its call and its dispatch on the
    /// size than these moves: 3.7% of four-player war-simulator's time.
    const WHOLE_RING: bool = C::RANK_ONLY && CAP == 64;

    /// [`Pile::copy_to`] into `out`, which has room for `CAP` cards: for byte cards in 64-card
    /// rings, the whole ring moves, so `out` past the pile's cards takes other cards too.
    #[inline(always)]
    pub(crate) fn copy_to_room(&self, out: &mut [C]) {
        if Self::WHOLE_RING && out.len() >= CAP {
            let mut twice = [C::default(); 128];
            twice[..CAP].copy_from_slice(&self.cards);
            twice[CAP..2 * CAP].copy_from_slice(&self.cards);
            out[..CAP].copy_from_slice(&twice[self.head..self.head + CAP]);
        } else {
            self.copy_to(out);
        }
    }

    /// Replaces the content with `buffer[start..start + len]`, top first: for byte cards in
    /// 64-card rings, with `CAP` cards of `buffer` from `start`, in one fixed-size copy.
    #[inline(always)]
    pub(crate) fn set_from_room(&mut self, buffer: &[C], start: usize, len: usize) {
        if Self::WHOLE_RING && len <= CAP && start + CAP <= buffer.len() {
            self.cards.copy_from_slice(&buffer[start..start + CAP]);
            self.head = 0;
            self.len = len;
        } else {
            self.set(&buffer[start..start + len]);
        }
    }

    /// Copies the cards, top first, to the start of `out`.
    #[inline]
    pub fn copy_to(&self, out: &mut [C]) {
        let end = self.head + self.len;
        if end <= CAP {
            out[..self.len].copy_from_slice(&self.cards[self.head..end]);
        } else {
            let first = CAP - self.head;
            out[..first].copy_from_slice(&self.cards[self.head..]);
            out[first..self.len].copy_from_slice(&self.cards[..end - CAP]);
        }
    }
}

/// One player's cards in the linear buffers of the groups family's fast paths (`fast/heaps.rs`,
/// `families/small_halves.rs`): the pile is `[top, end)`, the heap `[heap, heap + heap_len)`;
/// the two lie in different halves.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) struct Hand {
    pub(super) top: usize,
    pub(super) end: usize,
    pub(super) heap: usize,
    pub(super) heap_len: usize,
}

impl Hand {
    /// Cards held, pile and heap.
    pub(super) fn holding(&self) -> usize {
        self.end - self.top + self.heap_len
    }

    /// The cards held, pile then heap, in `buffer`, the linear buffer the hand indexes.
    pub(super) fn cards<'a, C: Card>(&self, buffer: &'a [C]) -> impl Iterator<Item = C> + 'a {
        let pile = &buffer[self.top..self.end];
        pile.iter()
            .chain(&buffer[self.heap..self.heap + self.heap_len])
            .copied()
    }

    /// Copies a player's `pile` to `buffer` at `top` and its `heap` at `heap`, each place with
    /// room for a whole ring (the copy may move one), and returns the hand that indexes them.
    #[inline(always)]
    pub(super) fn copied_in<C: Card, const CAP: usize>(
        [pile, heap_cards]: [&Pile<C, CAP>; 2],
        buffer: &mut [C],
        top: usize,
        heap: usize,
    ) -> Hand {
        pile.copy_to_room(&mut buffer[top..top + CAP]);
        heap_cards.copy_to_room(&mut buffer[heap..heap + CAP]);
        Hand {
            top,
            end: top + pile.len(),
            heap,
            heap_len: heap_cards.len(),
        }
    }

    /// Hands the cards back from `buffer`: the hand's pile to `pile`, its heap to `heap`.
    #[inline(always)]
    pub(super) fn copy_out<C: Card, const CAP: usize>(
        &self,
        buffer: &[C],
        [pile, heap]: [&mut Pile<C, CAP>; 2],
    ) {
        pile.set_from_room(buffer, self.top, self.end - self.top);
        heap.set_from_room(buffer, self.heap, self.heap_len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_order_survives_wrapping() {
        let mut pile: Pile<u8, 4> = Pile::new();
        pile.extend(&[1, 2, 3]);
        assert_eq!(pile.pop(), 1);
        assert_eq!(pile.pop(), 2);
        pile.extend(&[4, 5, 6]);
        assert_eq!(pile.len(), 4);
        assert_eq!(pile.iter().collect::<Vec<_>>(), vec![3, 4, 5, 6]);
        let mut out = [0; 4];
        pile.copy_to(&mut out);
        assert_eq!(out, [3, 4, 5, 6]);
        let mut copy: Pile<u8, 4> = Pile::new();
        copy.set(&out[1..]);
        assert_eq!(copy.iter().collect::<Vec<_>>(), vec![4, 5, 6]);
        assert_eq!(pile.pop(), 3);
        pile.clear();
        assert!(pile.is_empty());
    }

    #[test]
    fn whole_ring_copies_move_the_same_cards() {
        // Byte cards in a 64-card ring (the fixed-size copies) and a 256-card one (memcpy),
        // wrapped at every head, with room and without.
        fn check<const CAP: usize>() {
            for head in 0..CAP {
                for len in [0, 1, 13, CAP - 1, CAP] {
                    let mut pile: Pile<u8, CAP> = Pile::new();
                    pile.extend_from((0..head).map(|_| 0));
                    for _ in 0..head {
                        pile.pop();
                    }
                    pile.extend_from((0..len).map(|card| (card % 250) as u8 + 1));
                    let cards: Vec<u8> = pile.iter().collect();
                    let mut room = vec![0xEE; 3 * CAP];
                    pile.copy_to_room(&mut room[7..7 + CAP]);
                    assert_eq!(room[7..7 + len], cards[..], "head {head}, {len} cards");
                    assert!(room[..7].iter().chain(&room[7 + CAP..]).all(|&c| c == 0xEE));
                    let mut back: Pile<u8, CAP> = Pile::new();
                    back.set_from_room(&room, 7, len);
                    assert_eq!(back.iter().collect::<Vec<_>>(), cards);
                    // Without room past the cards: the cards alone are read.
                    back.set_from_room(&room[..7 + len], 7, len);
                    assert_eq!(back.iter().collect::<Vec<_>>(), cards);
                }
            }
        }
        check::<64>();
        check::<256>();
    }

    #[test]
    fn extend_from_wraps_as_pushes_do() {
        let mut pile: Pile<u8, 4> = Pile::new();
        pile.extend_from([1, 2, 3]);
        assert_eq!((pile.pop(), pile.pop()), (1, 2));
        pile.extend_from(vec![4, 5, 6]);
        assert_eq!(pile.iter().collect::<Vec<_>>(), vec![3, 4, 5, 6]);
        assert_eq!(pile.len(), 4);
    }
}
