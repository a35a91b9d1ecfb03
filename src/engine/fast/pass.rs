//! One pass of plain two-player rounds over the fast loop's linear piles (`fast.rs`), one round
//! at a time: the pass's state, the orders won cards go in, and classic's war of one step,
//! which a pass settles itself. `blocks.rs` plays the same pass sixteen rounds at a time; a
//! test checks that both leave the same piles.

use super::blocks::BLOCK_SLACK;
use crate::engine::card::Card;
use crate::engine::game::LINEAR;

/// The orders of a plain two-player round's cards under the winner's pile.
pub(in crate::engine) const HIGH_LOW: u8 = 0;
pub(in crate::engine) const LOW_HIGH: u8 = 1;
pub(in crate::engine) const SEATS_UP: u8 = 2;
pub(in crate::engine) const SEATS_DOWN: u8 = 3;
/// The natural pickup: a plain round as `HIGH_LOW`; the wars a pass settles are bataille's.
pub(in crate::engine) const NATURAL: u8 = 4;

/// A pass of plain rounds over the linear piles: seat 0's pile is `head..head + n0`, seat 1's
/// `head..head + total - n0`. The pass moves the head by at most `budget` cards; it stops early
/// at a tie it does not settle (`tied`, with `head` at the tied cards), when a pile runs out,
/// and may stop after as many rounds as the smaller pile held. With `settles_wars`, it settles
/// its order's wars of one tie itself, those whose won cards are the same whoever wins, written
/// under both piles as a plain round's are: classic's ([`classic_war`]; `HIGH_LOW` with one
/// card face down, table pickup) or French bataille's ([`bataille_war`]; `NATURAL`, none
/// down). A watching pass (the cycle watch's
/// `WATCH`) also stops after the first round that leaves seat 0 with `target` cards and both
/// top cards of the ranks `tops`, where the position may repeat the saved one (it may stop at
/// other rounds too). `rounds` and `wars` count what it played.
///
/// A watching block pass (`blocks.rs`) also makes the cycle watch's saves itself, instead of
/// stopping at them: `save_in` rounds after its start (u32::MAX: none), then `power` rounds
/// after each save, `power` doubling at each (Brent's). It saves a position by where it lies
/// in the buffers (nothing is copied: the cards before a pile's end stay put), then watches
/// for that one; `saves` counts them, and the last is at `saved_head`, with seat 0's
/// `saved_n0` cards, `saved_after` rounds after the pass's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine) struct Pass {
    pub head: usize,
    pub n0: usize,
    pub total: usize,
    pub budget: u32,
    pub settles_wars: bool,
    pub target: usize,
    pub tops: [u8; 2],
    pub tied: bool,
    pub rounds: u32,
    pub wars: u32,
    pub save_in: u32,
    pub power: u32,
    pub saves: u32,
    pub saved_head: usize,
    pub saved_n0: usize,
    pub saved_after: u32,
}

impl Pass {
    /// A pass from `head` with the piles' sizes, moving the head by at most `budget`.
    #[inline(always)]
    pub(in crate::engine) fn new(
        head: usize,
        n0: usize,
        total: usize,
        budget: u32,
        settles_wars: bool,
        (target, tops): (usize, [u8; 2]),
    ) -> Pass {
        Pass {
            head,
            n0,
            total,
            budget,
            settles_wars,
            target,
            tops,
            tied: false,
            rounds: 0,
            wars: 0,
            save_in: u32::MAX,
            power: 0,
            saves: 0,
            saved_head: 0,
            saved_n0: 0,
            saved_after: 0,
        }
    }

    /// True when the piles' top cards at `head` have the ranks of the watched position's.
    #[inline(always)]
    pub(in crate::engine) fn tops_at<C: Card>(
        &self,
        piles: &[[C; LINEAR]; 2],
        head: usize,
    ) -> bool {
        piles[0][head].rank() == self.tops[0] && piles[1][head].rank() == self.tops[1]
    }

    /// True when the piles the pass has reached may be the watched position: seat 0 holds the
    /// target's number of cards and both tops have the watched ranks. (Only the x86-64 block
    /// loop asks between rounds; the scalar pass checks as it goes.)
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(in crate::engine) fn watched_at<C: Card>(&self, piles: &[[C; LINEAR]; 2]) -> bool {
        self.n0 == self.target && self.tops_at(piles, self.head)
    }

    /// Settles the tie at the head as its order's war (see [`Pass`]) when this pass settles
    /// wars and `left` rounds of its budget remain for the war's cards: moves the head past the
    /// war, takes its cards from `left` and counts it. False, with nothing changed, otherwise.
    #[inline(always)]
    pub(in crate::engine) fn settle_war<C: Card, const ORDER: u8>(
        &mut self,
        piles: &mut [[C; LINEAR]; 2],
        left: &mut usize,
    ) -> bool {
        let cards = if ORDER == NATURAL { 2 } else { 3 };
        if !self.settles_wars || *left < cards {
            return false;
        }
        let settled = match ORDER {
            NATURAL => bataille_war(piles, (self.head, self.n0, self.total)),
            _ => classic_war(piles, (self.head, self.n0, self.total)),
        };
        let Some(n0) = settled else {
            return false;
        };
        self.head += cards;
        *left -= cards;
        self.n0 = n0;
        self.rounds += 1;
        self.wars += 1;
        true
    }
}

/// Classic's war of one step (one card down, one up, table pickup), on the linear piles with the
/// tied cards at `head`, when both piles hold three cards and the face-up cards differ: the
/// won cards are the same whoever wins (the tied pair, then each pair highest first), so they
/// are written under both piles, as a plain round's are. Returns seat 0's new pile size, or
/// `None` (nothing written) when the war is not of that kind. 6 cards of room after both piles.
/// (Kept apart from [`bataille_war`]: one generic function for both cost classic 0.9% of its
/// instructions.)
#[inline(always)]
fn classic_war<C: Card>(
    piles: &mut [[C; LINEAR]; 2],
    (head, n0, total): (usize, usize, usize),
) -> Option<usize> {
    let [pile0, pile1] = piles;
    let (up0, up1) = (pile0[head + 2], pile1[head + 2]);
    if n0 < 3 || total - n0 < 3 || up0.rank() == up1.rank() {
        return None;
    }
    let [down_high, down_low] = high_first(pile0[head + 1], pile1[head + 1]);
    let [up_high, up_low] = high_first(up0, up1);
    let won = [
        pile0[head],
        pile1[head],
        down_high,
        down_low,
        up_high,
        up_low,
    ];
    let (end0, end1) = (head + n0, head + total - n0);
    pile0[end0..end0 + 6].copy_from_slice(&won);
    pile1[end1..end1 + 6].copy_from_slice(&won);
    Some(if up1.rank() > up0.rank() {
        n0 - 3
    } else {
        n0 + 3
    })
}

/// French bataille's war of one tie (every card face up, natural pickup), as [`classic_war`]:
/// the winner takes the deciding pair, higher first, then the tied pair (seat 0's first, as the
/// general path's stable sort leaves equal ranks). 4 cards of room after both piles.
#[inline(always)]
fn bataille_war<C: Card>(
    piles: &mut [[C; LINEAR]; 2],
    (head, n0, total): (usize, usize, usize),
) -> Option<usize> {
    let [pile0, pile1] = piles;
    let (up0, up1) = (pile0[head + 1], pile1[head + 1]);
    if n0 < 2 || total - n0 < 2 || up0.rank() == up1.rank() {
        return None;
    }
    let [high, low] = high_first(up0, up1);
    let won = [high, low, pile0[head], pile1[head]];
    let (end0, end1) = (head + n0, head + total - n0);
    pile0[end0..end0 + 4].copy_from_slice(&won);
    pile1[end1..end1 + 4].copy_from_slice(&won);
    Some(if up1.rank() > up0.rank() {
        n0 - 2
    } else {
        n0 + 2
    })
}

/// Two cards, the higher first (the first on equal ranks): how table pickup orders a war's
/// pair of cards of one step.
#[inline(always)]
pub(in crate::engine) fn high_first<C: Card>(x: C, y: C) -> [C; 2] {
    if y.rank() > x.rank() { [y, x] } else { [x, y] }
}

/// Plays a pass one round at a time (see [`Pass`]); `blocks.rs` has the same pass sixteen rounds
/// at a time. Bounds as for [`crate::engine::cpu::Blocks::play`].
#[inline(always)]
pub(in crate::engine) fn scalar_pass<C: Card, const ORDER: u8, const WATCH: bool>(
    piles: &mut [[C; LINEAR]; 2],
    mut pass: Pass,
) -> Pass {
    // The bound every unchecked index below rests on: one compare per pass, in every build.
    assert!(
        pass.head + pass.budget as usize + pass.total + BLOCK_SLACK <= LINEAR
            && pass.n0 <= pass.total,
        "a pass needs room for its budget past both piles"
    );
    let (mut head, mut n0, total) = (pass.head, pass.n0, pass.total);
    // A plain round moves one card between the piles, so nobody can run out within the
    // smaller pile's size: those rounds need no check for the end of the game.
    let plain = pass.budget.min(n0.min(total - n0) as u32);
    let mut played = 0;
    while played < plain {
        debug_assert!(n0 > 0 && n0 < total);
        let [pile0, pile1] = &mut *piles;
        // SAFETY: this round is one of `plain <= budget` rounds, each moving the head by one, so
        // head < pass.head + budget; with 0 < n0 < total (a plain round moves one card) the
        // reads at head are below head + total <= LINEAR - BLOCK_SLACK by the assert above.
        let (a, b) = unsafe { (*pile0.get_unchecked(head), *pile1.get_unchecked(head)) };
        if a.rank() == b.rank() {
            // A settled war ends the pass: the piles' sizes changed by three.
            (pass.head, pass.n0) = (head, n0);
            if pass.settle_war::<C, ORDER>(piles, &mut ((pass.budget - played) as usize)) {
                (head, n0) = (pass.head, pass.n0);
            } else {
                pass.tied = true;
            }
            break;
        }
        // Branch-free: the order is a select on loop-invariant ORDER, and both piles get the
        // cards.
        let b_wins = b.rank() > a.rank();
        let (high, low) = if b_wins { (b, a) } else { (a, b) };
        let (first, second) = match ORDER {
            HIGH_LOW | NATURAL => (high, low),
            LOW_HIGH => (low, high),
            SEATS_UP => (a, b),
            _ => (b, a),
        };
        let (end0, end1) = (head + n0, head + total - n0);
        // SAFETY: end0 and end1 are at most head + total, and head + total + 2 <=
        // pass.head + budget + total + BLOCK_SLACK <= LINEAR (the assert above), so both
        // two-card slots are inside the buffers.
        unsafe {
            let slot0 = pile0.get_unchecked_mut(end0..end0 + 2);
            C::write_pair(&mut *slot0.as_mut_ptr().cast(), first, second);
            let slot1 = pile1.get_unchecked_mut(end1..end1 + 2);
            C::write_pair(&mut *slot1.as_mut_ptr().cast(), first, second);
        }
        n0 = n0 + 1 - 2 * usize::from(b_wins);
        head += 1;
        played += 1;
        if WATCH && n0 == pass.target && pass.tops_at(piles, head) {
            break;
        }
    }
    pass.rounds += played;
    pass.head = head;
    pass.n0 = n0;
    pass
}

/// Tests' reference: one round of the pass (the war of one tie, which moves the head by up to
/// three), within its budget.
#[cfg(test)]
pub(in crate::engine) fn one_step<const ORDER: u8>(
    piles: &mut [[u8; LINEAR]; 2],
    pass: Pass,
) -> Pass {
    let tie = piles[0][pass.head] == piles[1][pass.head];
    let budget = if tie {
        pass.budget.min(3)
    } else {
        pass.budget.min(1)
    };
    scalar_pass::<u8, ORDER, false>(piles, Pass { budget, ..pass })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "a pass needs room for its budget past both piles")]
    fn a_pass_without_room_is_refused_in_every_build() {
        let mut piles = [[0u8; LINEAR]; 2];
        let pass = Pass::new(0, 1024, 2048, 100, false, (0, [0; 2]));
        scalar_pass::<u8, HIGH_LOW, false>(&mut piles, pass);
    }
}
