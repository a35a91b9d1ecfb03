//! The rule settings taken from the wider literature, on hand-built deals with exact piles:
//! the natural pickup and the end-game shortage of French bataille (cristal-smac/bataille,
//! bataille_cpp), against games those programs publish; kbWar's reversed pickup and its
//! lose-when-empty shortage; rustwar's alternating pickup and its unshuffled heaps.

use crate::common;

use common::play;
use warsim::engine::rules::{AtCap, Pickup, Shortage, Spoils};
use warsim::engine::{Outcome, Preset, Rules, WinBy, play_game};

/// French bataille: no face-down cards, the pot turned over, a tie that cannot go on ends the
/// game; stopped after `max_rounds`.
fn bataille(max_rounds: u32) -> Rules {
    let mut r = Preset::Classic.rules();
    (r.pickup, r.shortage, r.face_down) = (Pickup::Natural, Shortage::EndGame, 0);
    r.max_rounds = max_rounds;
    r
}

#[test]
fn a_plain_round_gives_the_higher_card_then_the_lower() {
    let (rec, piles, _) = play(&bataille(1), &[&[10, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3, 10, 5], vec![7]]);
    assert_eq!((rec.rounds, rec.wars, rec.cards_played), (1, 0, 2));
    let (_, piles, _) = play(&bataille(1), &[&[4, 3], &[9, 7]]);
    assert_eq!(piles, vec![vec![3], vec![7, 9, 4]]);
}

#[test]
fn a_war_gives_the_deciding_pair_then_the_tied_pairs_newest_first() {
    let (rec, piles, _) = play(&bataille(1), &[&[5, 9, 4], &[5, 8, 6]]);
    assert_eq!(piles, vec![vec![4, 9, 8, 5, 5], vec![6]]);
    assert_eq!((rec.wars, rec.cards_played), (1, 4));
    // Two ties (5s, then 7s), then 3 against 9: seat 2 takes 9 3, the 7s, the 5s.
    let (rec, piles, _) = play(&bataille(1), &[&[5, 7, 3, 1], &[5, 7, 9, 2]]);
    assert_eq!(piles, vec![vec![1], vec![2, 9, 3, 7, 7, 5, 5]]);
    assert_eq!((rec.wars, rec.longest_war), (2, 2));
}

#[test]
fn face_down_cards_come_back_after_their_steps_face_up_cards() {
    // Natural pickup with one card face down: 9 8 (the face-up pair), 3 2 (face down, highest
    // first), 5 5 (the tied pair). Table pickup gives the same cards the other way round.
    let mut r = bataille(1);
    (r.face_down, r.shortage) = (1, Shortage::Lose);
    let deal: [&[u8]; 2] = [&[5, 2, 9, 4], &[5, 3, 8, 6]];
    let (_, piles, _) = play(&r, &deal);
    assert_eq!(piles, vec![vec![4, 9, 8, 3, 2, 5, 5], vec![6]]);
    r.pickup = Pickup::Table;
    let (_, piles, _) = play(&r, &deal);
    assert_eq!(piles, vec![vec![4, 5, 5, 3, 2, 9, 8], vec![6]]);
}

#[test]
fn a_tie_with_an_empty_hand_ends_the_game_and_sets_the_tied_cards_aside() {
    let (rec, piles, _) = play(&bataille(100), &[&[5], &[5, 3]]);
    assert_eq!(piles, vec![vec![], vec![3]]);
    assert_eq!(
        (rec.outcome, rec.winner, rec.win_by),
        (Outcome::Win, Some(1), Some(WinBy::ShortTie))
    );
    assert_eq!((rec.rounds, rec.wars, rec.cards_played), (1, 1, 2));
    // Both hands empty at the tie: nobody wins.
    let (rec, piles, _) = play(&bataille(100), &[&[6, 5], &[6, 5]]);
    assert_eq!(piles, vec![Vec::<u8>::new(), vec![]]);
    assert_eq!(
        (rec.outcome, rec.winner, rec.rounds),
        (Outcome::Draw, None, 1)
    );
    // The same deal under `lose`: seat 2 lays a last card and takes the pot (turned over).
    let mut lose = bataille(100);
    lose.shortage = Shortage::Lose;
    let (rec, piles, _) = play(&lose, &[&[5], &[5, 3]]);
    assert_eq!(piles, vec![vec![], vec![3, 5, 5]]);
    assert_eq!((rec.winner, rec.cards_played), (Some(1), 3));
}

#[test]
fn a_player_short_of_the_layout_ends_the_game_for_the_larger_hand() {
    // One card face down: seat 1 holds one card after the tie, too few to lay two.
    let mut r = bataille(100);
    r.face_down = 1;
    let (rec, piles, _) = play(&r, &[&[5, 2], &[5, 3, 8, 6]]);
    assert_eq!(piles, vec![vec![2], vec![3, 8, 6]]);
    assert_eq!((rec.outcome, rec.winner), (Outcome::Win, Some(1)));
    // Equal hands when the war cannot be laid: a draw.
    let (rec, _, _) = play(&r, &[&[5, 2], &[5, 3]]);
    assert_eq!((rec.outcome, rec.winner), (Outcome::Draw, None));
    // Three players: the two tied at 9 go to war; seat 3 holds the most cards and wins.
    let mut three = bataille(100);
    (three.players, three.face_down) = (3, 1);
    let (rec, piles, _) = play(&three, &[&[9, 1], &[9, 2], &[4, 5, 6]]);
    assert_eq!(piles, vec![vec![1], vec![2], vec![5, 6]]);
    assert_eq!((rec.outcome, rec.winner), (Outcome::Win, Some(2)));
}

#[test]
fn the_published_bataille_records_replay_exactly() {
    // cristal-smac/bataille's records (records_C4_naturelle.py): 4 suits × 2 ranks, the longest
    // game, 4 tricks and 8 cards laid by each player, won by player 1...
    let (rec, _, _) = play(&bataille(100_000), &[&[1, 1, 2, 2], &[1, 2, 2, 1]]);
    assert_eq!((rec.rounds, rec.cards_played, rec.winner), (4, 16, Some(0)));
    // ... 4 × 3: 37 tricks, 54 cards each, player 1...
    let deal: [&[u8]; 2] = [&[2, 1, 3, 1, 3, 2], &[2, 3, 3, 1, 1, 2]];
    let (rec, _, _) = play(&bataille(100_000), &deal);
    assert_eq!(
        (rec.rounds, rec.cards_played, rec.winner),
        (37, 108, Some(0))
    );
    // ... 4 × 4: 142 tricks, 192 cards each, player 1...
    let deal: [&[u8]; 2] = [&[2, 1, 3, 3, 4, 2, 3, 4], &[4, 1, 3, 1, 4, 2, 2, 1]];
    let (rec, _, _) = play(&bataille(100_000), &deal);
    assert_eq!(
        (rec.rounds, rec.cards_played, rec.winner),
        (142, 384, Some(0))
    );
    // ... and their example of a game that loops forever.
    let deal: [&[u8]; 2] = [&[3, 2, 1, 1, 2, 1], &[2, 1, 3, 2, 3, 3]];
    let (rec, _, _) = play(&bataille(100_000), &deal);
    assert_eq!(rec.outcome, Outcome::Cycle);
    // bataille_cpp's longest single-suit game of 5 cards (results/c1v5.txt): 8 tricks.
    let mut single = bataille(100_000);
    (single.suits, single.ranks) = (1, 5);
    let (rec, _, _) = play(&single, &[&[1, 4], &[2, 3, 5]]);
    assert_eq!((rec.rounds, rec.winner), (8, Some(1)));
}

/// kbWar as published, won cards unshuffled: 3 face down, the pot turned over, a tied player with
/// no card loses the war; stopped after `max_rounds`.
fn kbwar(players: u32, max_rounds: u32) -> Rules {
    let mut r = Preset::Classic.rules();
    (r.pickup, r.shortage, r.face_down) = (Pickup::Reversed, Shortage::LoseWhenEmpty, 3);
    (r.players, r.max_rounds) = (players, max_rounds);
    r
}

#[test]
fn reversed_pickup_takes_the_pot_back_turned_over() {
    // A plain round: seat 2's card, then seat 1's, whoever wins (kbWar's Throw: DrawFromBottom
    // of the middle pile, laid card1, card2).
    let (_, piles, _) = play(&kbwar(2, 1), &[&[10, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3, 5, 10], vec![7]]);
    // A war, laid 5 5 | 1 2 3 | 4 6 7 | 9 8: taken back 8 9 7 6 4 3 2 1 5 5.
    let (rec, piles, _) = play(&kbwar(2, 1), &[&[5, 1, 2, 3, 9, 11], &[5, 4, 6, 7, 8, 12]]);
    assert_eq!(
        piles,
        vec![vec![11, 8, 9, 7, 6, 4, 3, 2, 1, 5, 5], vec![12]]
    );
    assert_eq!((rec.wars, rec.cards_played), (1, 10));
}

#[test]
fn lose_when_empty_lays_what_a_player_has_and_a_player_with_none_loses() {
    // Seat 1 holds two cards after the tie: one face down, its last face up (2 against 8).
    let (rec, piles, _) = play(&kbwar(2, 100), &[&[5, 1, 2], &[5, 4, 6, 7, 8, 12]]);
    assert_eq!(piles, vec![vec![], vec![12, 8, 2, 7, 6, 4, 1, 5, 5]]);
    assert_eq!((rec.winner, rec.rounds, rec.cards_played), (Some(1), 1, 8));
    // Seat 1 has nothing after the tie: seat 2 takes the pot at once, laying nothing more.
    let (rec, piles, _) = play(&kbwar(2, 100), &[&[5], &[5, 4, 6, 7, 8, 12]]);
    assert_eq!(piles, vec![vec![], vec![4, 6, 7, 8, 12, 5, 5]]);
    assert_eq!((rec.winner, rec.cards_played), (Some(1), 2));
    // Seat 2 has nothing: seat 1 takes it.
    let (rec, piles, _) = play(&kbwar(2, 100), &[&[5, 4, 6], &[5]]);
    assert_eq!(piles, vec![vec![4, 6, 5, 5], vec![]]);
    assert_eq!(rec.winner, Some(0));
}

#[test]
fn lose_when_empty_gives_the_pot_to_the_last_tied_seat_when_every_tied_hand_is_empty() {
    // kbWar checks player 1's hand first: both empty, player 2 wins.
    let (rec, piles, _) = play(&kbwar(2, 100), &[&[5], &[5]]);
    assert_eq!(piles, vec![vec![], vec![5, 5]]);
    assert_eq!((rec.outcome, rec.winner), (Outcome::Win, Some(1)));
    // Three players, seats 1 and 2 tied at 9 with nothing left: seat 2 takes 3 9 9.
    let (_, piles, _) = play(&kbwar(3, 1), &[&[9], &[9], &[3, 4]]);
    assert_eq!(piles, vec![vec![], vec![3, 9, 9], vec![4]]);
}

/// rustwar: 3 face down, cards laid one at a time in turn, won cards onto a heap; `spoils`
/// heap-unshuffled for its unshuffled mode.
fn rustwar(spoils: Spoils, max_rounds: u32) -> Rules {
    let mut r = Preset::Classic.rules();
    (r.pickup, r.face_down, r.spoils) = (Pickup::Alternating, 3, spoils);
    r.max_rounds = max_rounds;
    r
}

#[test]
fn alternating_pickup_gives_the_cards_as_laid_one_at_a_time_in_turn() {
    // Laid 5 5 | 1 4, 2 6, 3 7 (one face-down card each in turn) | 9 8: seat 1 wins all ten.
    let deal: [&[u8]; 2] = [&[5, 1, 2, 3, 9, 11], &[5, 4, 6, 7, 8, 12]];
    let (rec, piles, _) = play(&rustwar(Spoils::UnderPile, 1), &deal);
    assert_eq!(
        piles,
        vec![vec![11, 5, 5, 1, 4, 2, 6, 3, 7, 9, 8], vec![12]]
    );
    assert_eq!((rec.wars, rec.cards_played), (1, 10));
    // A plain round: seat 1's card, then seat 2's, whoever wins.
    let (_, piles, _) = play(&rustwar(Spoils::UnderPile, 1), &[&[3, 1], &[10, 2]]);
    assert_eq!(piles, vec![vec![1], vec![2, 3, 10]]);
    // Three players, seats 2 and 3 at war: each step seat by seat, face-down cards in turn.
    let mut three = rustwar(Spoils::UnderPile, 1);
    (three.players, three.face_down) = (3, 2);
    let (_, piles, _) = play(&three, &[&[2, 13], &[7, 1, 3, 9, 13], &[7, 4, 5, 6, 13]]);
    assert_eq!(
        piles,
        vec![vec![13], vec![13, 2, 7, 7, 1, 4, 3, 5, 9, 6], vec![13]]
    );
}

#[test]
fn an_unshuffled_heap_becomes_the_pile_with_the_last_card_won_on_top() {
    // Seat 1 wins 10 3 and 9 2 onto its heap; its pile empty, the heap turned over gives 2 9 3
    // 10 (rustwar pops the end of its won pile). Seat 2 wins 2 8, then refills with 8 on top.
    let (_, piles, heaps) = play(
        &rustwar(Spoils::HeapUnshuffled, 5),
        &[&[10, 9], &[3, 2, 8, 7]],
    );
    assert_eq!(piles, vec![vec![10], vec![2]]);
    assert_eq!(heaps, vec![vec![9, 7], vec![3, 8]]);
}

#[test]
fn unshuffled_heaps_loop_only_when_piles_and_heaps_repeat() {
    // Every game the cycle watch calls a loop still runs at 30,000 rounds with the watch off
    // (a cap deciding by the larger pile), and every other game ends the same way: the watch
    // compares heaps as well as piles.
    let watched = rustwar(Spoils::HeapUnshuffled, 30_000);
    let mut unwatched = watched.clone();
    unwatched.at_cap = AtCap::LargerPile;
    let mut cycles = 0;
    for seed in 0..400 {
        let seen = play_game(&watched, seed);
        let played = play_game(&unwatched, seed);
        if seen.outcome == Outcome::Cycle {
            cycles += 1;
            assert!(played.rounds >= 30_000, "seed {seed}: {played:?}");
        } else {
            assert_eq!(seen, played, "seed {seed}");
        }
    }
    assert!(cycles > 10, "{cycles} cycles");
}
