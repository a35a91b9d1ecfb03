//! The orders in which a two-player war's cards go under the winner's pile on the fast loop's
//! linear piles, for the pickup orders other than one seat's cards after the other's in play
//! order (table, natural, reversed, alternating); each must give
//! exactly what the general path's `give_round` gives (`tests/engine_paths.rs`).

use super::pass::high_first;
use crate::engine::card::Card;
use crate::engine::game::sort_high_first;

/// Table pickup's order of a war's cards on the linear piles, written to `free`: the tied cards
/// (seat order), then each step's face-down cards highest first (stable: seat 0's first on
/// equal ranks, as the general path logs them) and its face-up cards highest first (seat order
/// on a tie). Returns the cards written.
#[inline(always)]
pub(super) fn table_order<C: Card>(
    free: &mut [C],
    [cards0, cards1]: [&[C]; 2],
    depth: usize,
    layout: usize,
) -> usize {
    free[..2].copy_from_slice(&[cards0[0], cards1[0]]);
    let mut n = 2;
    let down = layout - 1;
    for step in 0..depth {
        let from = 1 + step * layout;
        if down == 1 {
            // Classic's layout, without the general sort.
            free[n..n + 2].copy_from_slice(&high_first(cards0[from], cards1[from]));
        } else {
            for k in 0..down {
                free[n + k] = cards0[from + k];
                free[n + down + k] = cards1[from + k];
            }
            sort_high_first(&mut free[n..n + 2 * down], |c| c.rank());
        }
        n += 2 * down;
        let up = from + down;
        free[n..n + 2].copy_from_slice(&high_first(cards0[up], cards1[up]));
        n += 2;
    }
    n
}

/// The natural pickup's order of a war's cards on the linear piles, written to `free`: the pot
/// turned over, so the last step first (its face-up cards, then its face-down cards) back to
/// the tied cards, each group highest first (seat 0's first on equal ranks, as the general
/// path's stable sort of each segment). Returns the cards written. Out of line: inlined, it
/// made `war` twice as long for every pickup order (+5% of classic's instructions).
#[inline(never)]
pub(super) fn natural_order<C: Card>(
    free: &mut [C],
    [cards0, cards1]: [&[C]; 2],
    depth: usize,
    layout: usize,
) -> usize {
    let mut n = 0;
    if layout == 1 {
        // French bataille's war, every card face up: the pairs from the last back to the tied
        // one. Apart, because the general loop below cost 200 instructions a war here.
        for step in (0..=depth).rev() {
            free[n..n + 2].copy_from_slice(&high_first(cards0[step], cards1[step]));
            n += 2;
        }
        return n;
    }
    let down = layout - 1;
    for step in (0..depth).rev() {
        let from = 1 + step * layout;
        let up = from + down;
        free[n..n + 2].copy_from_slice(&high_first(cards0[up], cards1[up]));
        n += 2;
        for k in 0..down {
            free[n + k] = cards0[from + k];
            free[n + down + k] = cards1[from + k];
        }
        sort_high_first(&mut free[n..n + 2 * down], |c| c.rank());
        n += 2 * down;
    }
    free[n..n + 2].copy_from_slice(&high_first(cards0[0], cards1[0]));
    n + 2
}

/// The reversed pickup's order of a war's cards on the linear piles, written to `free`: the pot
/// as laid (the tied pair, then each step's face-down cards, seat 0's first, and its face-up
/// pair) turned over. Returns the cards written. Out of line, as [`natural_order`].
#[inline(never)]
pub(super) fn reversed_order<C: Card>(
    free: &mut [C],
    [cards0, cards1]: [&[C]; 2],
    depth: usize,
    layout: usize,
) -> usize {
    let mut n = 0;
    let down = layout - 1;
    for step in (0..depth).rev() {
        let from = 1 + step * layout;
        let up = from + down;
        free[n..n + 2].copy_from_slice(&[cards1[up], cards0[up]]);
        n += 2;
        for k in (0..down).rev() {
            free[n] = cards1[from + k];
            n += 1;
        }
        for k in (0..down).rev() {
            free[n] = cards0[from + k];
            n += 1;
        }
    }
    free[n..n + 2].copy_from_slice(&[cards1[0], cards0[0]]);
    n + 2
}

/// The alternating pickup's order of a war's cards on the linear piles, written to `free`: the
/// cards as laid one at a time in turn, seat 0's first (each player's `per_player` cards are
/// its tied card and its layouts, in play order). Returns the cards written. Out of line, as
/// [`natural_order`].
#[inline(never)]
pub(super) fn alternating_order<C: Card>(
    free: &mut [C],
    [cards0, cards1]: [&[C]; 2],
    per_player: usize,
) -> usize {
    for (k, (&a, &b)) in cards0[..per_player].iter().zip(cards1).enumerate() {
        free[2 * k] = a;
        free[2 * k + 1] = b;
    }
    2 * per_player
}
