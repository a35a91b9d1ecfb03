//! The two-player presets' card movements on hand-built deals: Game-of-War's and cards-war's
//! plain rounds, wars, nested wars, each shortage case, reshuffles, caps and endings.

use crate::common;

use common::{play, stopped_after};
use warsim::engine::{Outcome, Preset, WinBy};

// ---- game-of-war: 3 down + 1 up, play what you have, seat 2's cards back first ----

#[test]
fn game_of_war_plain_round_returns_seat_2s_card_first() {
    let (_, piles, _) = play(&stopped_after(Preset::GameOfWar, 1), &[&[10, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3, 5, 10], vec![7]]);
}

#[test]
fn game_of_war_war_lays_four_cards_and_returns_seat_2s_pile_first() {
    let r = stopped_after(Preset::GameOfWar, 1);
    let (rec, piles, _) = play(&r, &[&[6, 1, 2, 3, 8, 4], &[6, 5, 5, 5, 9, 7]]);
    assert_eq!(piles, vec![vec![4], vec![7, 6, 5, 5, 5, 9, 6, 1, 2, 3, 8]]);
    assert_eq!((rec.wars, rec.longest_war), (1, 1));
}

#[test]
fn game_of_war_nested_war() {
    let r = stopped_after(Preset::GameOfWar, 1);
    let (rec, piles, _) = play(
        &r,
        &[
            &[6, 1, 2, 3, 9, 1, 1, 1, 12, 4],
            &[6, 5, 5, 5, 9, 2, 2, 2, 11, 7],
        ],
    );
    assert_eq!(
        piles,
        vec![
            vec![4, 6, 5, 5, 5, 9, 2, 2, 2, 11, 6, 1, 2, 3, 9, 1, 1, 1, 12],
            vec![7]
        ]
    );
    assert_eq!((rec.wars, rec.longest_war), (2, 2));
}

#[test]
fn game_of_war_short_player_lays_what_it_has() {
    let r = stopped_after(Preset::GameOfWar, 1);
    let (_, piles, _) = play(&r, &[&[6, 2, 9], &[6, 5, 5, 5, 8, 7]]);
    assert_eq!(piles, vec![vec![6, 5, 5, 5, 8, 6, 2, 9], vec![7]]);
}

#[test]
fn game_of_war_player_without_cards_compares_its_tied_card_again() {
    let (rec, piles, _) = play(&Preset::GameOfWar.rules(), &[&[6], &[6, 5, 5, 5, 8, 7]]);
    assert_eq!(piles, vec![vec![], vec![7, 6, 5, 5, 5, 8, 6]]);
    assert_eq!(
        (rec.winner, rec.outcome, rec.win_by),
        (Some(1), Outcome::Win, Some(WinBy::Cards))
    );
    // ... and wins when that card is higher: running short does not lose the game.
    let (rec, piles, _) = play(&Preset::GameOfWar.rules(), &[&[9], &[9, 2]]);
    assert_eq!(piles, vec![vec![9, 2, 9], vec![]]);
    assert_eq!(rec.winner, Some(0));
}

#[test]
fn game_of_war_both_out_on_equal_cards_is_a_draw() {
    let (rec, _, _) = play(&Preset::GameOfWar.rules(), &[&[6], &[6]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.outcome),
        (1, None, Outcome::Draw)
    );
}

#[test]
fn game_of_war_reshuffles_both_piles_after_round_100_not_before() {
    let hands: [&[u8]; 2] = [
        &[13, 1, 12, 2, 11, 3, 10, 4, 9, 5],
        &[1, 13, 2, 12, 3, 11, 4, 10, 5, 9],
    ];
    let mut no_reshuffle = stopped_after(Preset::GameOfWar, 99);
    no_reshuffle.reshuffle_every = 0;
    let (rec, at_99, _) = play(&no_reshuffle, &hands);
    assert_eq!(
        rec.outcome,
        Outcome::Capped,
        "the deal must last 100 rounds"
    );
    assert_eq!(play(&stopped_after(Preset::GameOfWar, 99), &hands).1, at_99);
    no_reshuffle.max_rounds = 100;
    let (_, plain_100, _) = play(&no_reshuffle, &hands);
    let (_, shuffled_100, _) = play(&stopped_after(Preset::GameOfWar, 100), &hands);
    assert_ne!(shuffled_100, plain_100);
    for (mut a, mut b) in shuffled_100.into_iter().zip(plain_100) {
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "a reshuffle keeps each player's cards");
    }
}

#[test]
fn game_of_war_cap_goes_to_the_larger_pile() {
    let mut r = Preset::GameOfWar.rules();
    r.max_rounds = 1;
    let (rec, _, _) = play(&r, &[&[10, 3, 4], &[5, 7]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.outcome, rec.win_by),
        (1, Some(0), Outcome::Win, Some(WinBy::Cap))
    );
}

#[test]
fn game_of_war_equal_piles_at_the_cap_play_sudden_death() {
    let mut r = Preset::GameOfWar.rules();
    r.max_rounds = 1;
    // After round 1: 3 cards each. Sudden death 2 v 7: seat 2 ends with more.
    let (rec, piles, _) = play(&r, &[&[10, 2], &[5, 7, 4, 9]]);
    assert_eq!(piles, vec![vec![5, 10], vec![4, 9, 7, 2]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.win_by),
        (2, Some(1), Some(WinBy::SuddenDeath))
    );
    // Sudden death 8 v 7: seat 1 ends with strictly more.
    let (rec, _, _) = play(&r, &[&[10, 8], &[5, 7, 4, 9]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.win_by),
        (2, Some(0), Some(WinBy::SuddenDeath))
    );
}

// ---- cards-war: 3 down + 1 up, smaller-hand shortage, loser's cards first ----

#[test]
fn cards_war_plain_round_puts_the_losers_card_first() {
    let (_, piles, _) = play(&stopped_after(Preset::CardsWar, 1), &[&[10, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3, 5, 10], vec![7]]);
    let (_, piles, _) = play(&stopped_after(Preset::CardsWar, 1), &[&[4, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3], vec![7, 4, 5]]);
}

#[test]
fn cards_war_war_gives_the_losers_cards_then_the_winners() {
    let r = stopped_after(Preset::CardsWar, 1);
    let (rec, piles, _) = play(&r, &[&[6, 1, 2, 3, 8, 4], &[6, 5, 5, 5, 9, 7]]);
    assert_eq!(piles, vec![vec![4], vec![7, 6, 1, 2, 3, 8, 6, 5, 5, 5, 9]]);
    assert_eq!(rec.wars, 1);
}

#[test]
fn cards_war_nested_war() {
    // Seat 2 wins the second war, so loser-first differs from game-of-war's seat order.
    let r = stopped_after(Preset::CardsWar, 1);
    let (rec, piles, _) = play(
        &r,
        &[
            &[6, 1, 2, 3, 9, 1, 1, 1, 11, 4],
            &[6, 5, 5, 5, 9, 2, 2, 2, 12, 7],
        ],
    );
    assert_eq!(
        piles,
        vec![
            vec![4],
            vec![7, 6, 1, 2, 3, 9, 1, 1, 1, 11, 6, 5, 5, 5, 9, 2, 2, 2, 12]
        ]
    );
    assert_eq!(rec.longest_war, 2);
}

#[test]
fn cards_war_short_hand_sets_the_layout_for_both() {
    let r = stopped_after(Preset::CardsWar, 1);
    let (_, piles, _) = play(&r, &[&[6, 2, 9], &[6, 5, 5, 5, 8, 7]]);
    assert_eq!(piles, vec![vec![6, 5, 5, 6, 2, 9], vec![5, 8, 7]]);
}

#[test]
fn cards_war_tie_at_the_short_layout_ends_the_game_for_the_larger_hand() {
    let (rec, piles, _) = play(&Preset::CardsWar.rules(), &[&[6, 2, 9], &[6, 5, 9, 7, 1]]);
    assert_eq!(piles, vec![vec![], vec![7, 1, 6, 2, 9, 6, 5, 9]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.win_by),
        (1, Some(1), Some(WinBy::ShortTie))
    );
    assert_eq!(rec.wars, 2);
}

#[test]
fn cards_war_tie_on_a_last_card_ends_the_game() {
    let (rec, piles, _) = play(&Preset::CardsWar.rules(), &[&[6], &[6, 3]]);
    assert_eq!(piles, vec![vec![], vec![3, 6, 6]]);
    assert_eq!((rec.winner, rec.win_by), (Some(1), Some(WinBy::ShortTie)));
    // Equal hands: seat 1 takes them.
    let (rec, piles, _) = play(&Preset::CardsWar.rules(), &[&[6], &[6]]);
    assert_eq!(piles, vec![vec![6, 6], vec![]]);
    assert_eq!((rec.winner, rec.win_by), (Some(0), Some(WinBy::ShortTie)));
}
