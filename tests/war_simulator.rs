//! WarSimulator's rules on hand-built deals: the even deal, spoil heaps, every tied group's war,
//! champions and nested wars, short fighters, and the games that can never change.

use crate::common;

use common::play;
use warsim::engine::{Outcome, Preset, Rules};
use warsim::testing as random;
use warsim::testing::PileGame;

// ---- war-simulator: spoil heaps, every tied group wars, champions, nested wars ----

fn simulator(players: u32) -> Rules {
    let mut r = Preset::WarSimulator.rules();
    r.players = players;
    r
}

#[test]
fn war_simulator_drops_the_lowest_cards_to_deal_evenly() {
    let mut r = simulator(3);
    r.max_rounds = 1;
    let mut game = PileGame::<u8, 64>::boxed();
    for seed in 0..20 {
        game.deal(&r, &mut random::game_rng(seed));
        let mut dealt: Vec<u8> = (0..3).flat_map(|s| game.pile(s)).collect();
        assert!((0..3).all(|s| game.pile(s).len() == 17));
        dealt.sort_unstable();
        assert_eq!(
            dealt.iter().filter(|&&c| c == 1).count(),
            3,
            "one of the four 1s is dropped"
        );
        assert_eq!(dealt.len(), 51);
    }
    let mut r = simulator(5);
    r.ranks = 10; // 40 cards: 40 mod 5 = 0, nothing dropped
    game.deal(&r, &mut random::game_rng(0));
    assert_eq!((0..5).map(|s| game.pile(s).len()).sum::<usize>(), 40);
    let mut r = simulator(7);
    r.max_rounds = 1;
    game.deal(&r, &mut random::game_rng(0));
    let dealt: Vec<u8> = (0..7).flat_map(|s| game.pile(s)).collect();
    // 52 mod 7 = 3: three of the four 1s go.
    assert_eq!(
        (dealt.len(), dealt.iter().filter(|&&c| c == 1).count()),
        (49, 1)
    );
}

#[test]
fn war_simulator_highest_single_card_takes_the_shown_cards_onto_its_heap() {
    let mut r = simulator(3);
    r.max_rounds = 1;
    let (_, piles, heaps) = play(&r, &[&[10, 2], &[5, 3], &[7, 4]]);
    assert_eq!(piles, vec![vec![2], vec![3], vec![4]]);
    assert_eq!(heaps, vec![vec![10, 5, 7], vec![], vec![]]);
}

#[test]
fn war_simulator_two_player_war_stakes_three_and_shows_a_champion() {
    let mut r = simulator(2);
    r.max_rounds = 1;
    let (rec, piles, heaps) = play(&r, &[&[6, 1, 2, 3, 9, 4], &[6, 5, 5, 5, 8, 7]]);
    assert_eq!(piles, vec![vec![4], vec![7]]);
    assert_eq!(heaps, vec![vec![1, 2, 3, 9, 5, 5, 5, 8, 6, 6], vec![]]);
    assert_eq!((rec.wars, rec.longest_war), (1, 1));
}

#[test]
fn war_simulator_a_tie_below_the_top_fights_its_own_war() {
    let mut r = simulator(3);
    r.max_rounds = 1;
    let (rec, _, heaps) = play(&r, &[&[10, 11], &[5, 1, 2, 3, 9, 12], &[5, 4, 4, 4, 8, 13]]);
    assert_eq!(
        heaps,
        vec![vec![10, 5, 5], vec![1, 2, 3, 9, 4, 4, 4, 8], vec![]]
    );
    assert_eq!(rec.wars, 1);
}

#[test]
fn war_simulator_four_players_nested_war_among_tied_champions() {
    let mut r = simulator(4);
    r.max_rounds = 1;
    let (rec, _, heaps) = play(
        &r,
        &[
            &[9, 1, 1, 1, 5, 13],
            &[9, 2, 2, 2, 7, 6, 6, 6, 11, 13],
            &[9, 3, 3, 3, 7, 8, 8, 8, 10, 13],
            &[4, 13],
        ],
    );
    // The nested war (seats 2 and 3 on 7s) goes to seat 2 (11 > 10), which also wins the war
    // of the 9s (7 is its highest champion group) and so the round.
    assert_eq!(
        heaps[1],
        vec![
            6, 6, 6, 11, 8, 8, 8, 10, 1, 1, 1, 5, 2, 2, 2, 7, 3, 3, 3, 7, 9, 9, 9, 4
        ]
    );
    assert!(heaps[0].is_empty() && heaps[2].is_empty() && heaps[3].is_empty());
    assert_eq!((rec.wars, rec.longest_war), (2, 2));
}

#[test]
fn war_simulator_short_fighter_uses_what_it_has_and_one_with_none_drops_out() {
    let mut r = simulator(2);
    r.max_rounds = 1;
    let (_, _, heaps) = play(&r, &[&[6, 2, 9], &[6, 5, 5, 5, 8, 1]]);
    assert_eq!(heaps, vec![vec![2, 9, 5, 5, 5, 8, 6, 6], vec![]]);
    let (rec, _, heaps) = play(&simulator(2), &[&[6], &[6, 3]]);
    assert_eq!(heaps, vec![vec![], vec![3, 6, 6]]);
    assert_eq!((rec.winner, rec.outcome), (Some(1), Outcome::Win));
}

#[test]
fn war_simulator_empty_pile_takes_in_the_shuffled_heap() {
    let mut r = simulator(2);
    r.max_rounds = 2;
    // Round 1: 10 beats 5, seat 1's pile is then empty; round 2 it plays from its heap.
    let (rec, piles, heaps) = play(&r, &[&[10], &[5, 3, 4]]);
    assert_eq!(rec.rounds, 2);
    let mut all: Vec<u8> = piles.concat();
    all.extend(heaps.concat());
    all.sort_unstable();
    assert_eq!(all, vec![3, 4, 5, 10]);
    assert_eq!(piles[1], vec![4]);
}

#[test]
fn war_simulator_round_nobody_can_ever_win_is_a_draw() {
    let (rec, piles, heaps) = play(&simulator(2), &[&[6], &[6]]);
    assert_eq!(
        (rec.rounds, rec.outcome, rec.winner),
        (1, Outcome::Draw, None)
    );
    assert!(piles.iter().all(Vec::is_empty));
    assert_eq!(
        heaps,
        vec![vec![6], vec![6]],
        "the cards go back to their owners"
    );
}

#[test]
fn war_simulator_games_that_cannot_change_end_as_draws_at_once() {
    // 32 players hold one card each of ranks 7..A, four of each: every group ties, nobody can
    // stake, every card goes back to its owner, and the next round would be the same.
    let mut rules = Preset::WarSimulator.rules();
    rules.players = 32;
    for seed in 0..300 {
        let game = warsim::engine::play_game(&rules, seed);
        assert_eq!(
            (game.outcome, game.rounds, game.winner, game.wars),
            (warsim::engine::Outcome::Draw, 1, None, 8),
            "seed {seed}"
        );
    }
    // Two cards each: rounds move cards, and games are won.
    rules.players = 26;
    let wins = (0..300)
        .filter(|&seed| {
            warsim::engine::play_game(&rules, seed).outcome == warsim::engine::Outcome::Win
        })
        .count();
    assert!(wins > 250, "{wins}");
}

#[test]
fn war_simulator_on_a_two_by_two_deck_never_ends_after_round_two() {
    // 1 1 2 2 between two players: every game that ends does so by round 2; the others wander
    // for ever among positions no shuffle leads out of, and are capped at any cap (no position
    // repeats for certain, so no cycle can be reported). The README says so.
    let mut rules = simulator(2);
    (rules.suits, rules.ranks) = (2, 2);
    let mut capped = 0;
    for seed in 0..300 {
        rules.max_rounds = 3;
        let early = warsim::engine::play_game(&rules, seed);
        rules.max_rounds = 20_000;
        let late = warsim::engine::play_game(&rules, seed);
        match late.outcome {
            Outcome::Win => assert!(late.rounds <= 2 && early == late, "seed {seed}"),
            Outcome::Capped => {
                assert_eq!((early.outcome, late.rounds), (Outcome::Capped, 20_000));
                capped += 1;
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!((150..250).contains(&capped), "{capped} of 300 capped");
}

// ---- war-simulator-original: the quirks of WarSimulator's code ----

fn original(players: u32, max_rounds: u32) -> Rules {
    let mut r = Preset::WarSimulatorOriginal.rules();
    (r.players, r.max_rounds) = (players, max_rounds);
    r
}

#[test]
fn the_original_shows_each_champion_before_its_stakes() {
    // Champions 9 and 8 (the first cards laid after the tie): seat 1 takes its own four, seat
    // 2's four, then the shown 6s. The description's order (champion last) makes it 3 against 5.
    let deal: [&[u8]; 2] = [&[6, 9, 1, 2, 3, 4], &[6, 8, 5, 5, 5, 7]];
    let (_, piles, heaps) = play(&original(2, 1), &deal);
    assert_eq!(piles, vec![vec![4], vec![7]]);
    assert_eq!(heaps, vec![vec![9, 1, 2, 3, 8, 5, 5, 5, 6, 6], vec![]]);
    let mut last = original(2, 1);
    last.champion = warsim::engine::rules::Champion::Last;
    let (_, _, heaps) = play(&last, &deal);
    assert_eq!(heaps, vec![vec![], vec![9, 1, 2, 3, 8, 5, 5, 5, 6, 6]]);
}

#[test]
fn the_original_drops_the_first_suits_lowest_values() {
    let mut game = PileGame::<u8, 64>::boxed();
    let count = |dealt: &[u8], rank: u8| dealt.iter().filter(|&&c| c == rank).count();
    // 4 suits × 2 ranks among 3 players: 8 mod 3 = 2 cards go, the 1 and the 2 of the first
    // suit (the description's rule drops two 1s).
    for (players, ones, twos) in [(3, 3, 3), (5, 2, 3)] {
        let mut r = original(players, 1);
        r.ranks = 2;
        game.deal(&r, &mut random::game_rng(0));
        let dealt: Vec<u8> = (0..players as usize).flat_map(|s| game.pile(s)).collect();
        assert_eq!(
            (count(&dealt, 1), count(&dealt, 2)),
            (ones, twos),
            "{players}"
        );
        r.uneven = warsim::engine::rules::Uneven::DropLowest;
        game.deal(&r, &mut random::game_rng(0));
        let dealt: Vec<u8> = (0..players as usize).flat_map(|s| game.pile(s)).collect();
        assert_eq!(count(&dealt, 1), 4 - (8 % players as usize), "{players}");
    }
}

#[test]
fn the_originals_shuffle_gives_a_two_card_heap_back_in_its_order() {
    // Seat 1 wins 10 and 3 onto its heap; its pile empty, Sattolo's shuffle must swap the two
    // and the pile reads the list from its end: 10 on top again, whatever the seed.
    for seed in 0..20 {
        let mut game = PileGame::<u8, 64>::boxed();
        let rules = original(2, 2);
        let hands = vec![vec![10], vec![3, 4]];
        let mut rng = random::Shuffler::new(random::game_rng(seed), rules.shuffle);
        let rec = game.play_hands(&rules, &hands, &mut rng);
        assert_eq!(
            (game.pile(0), game.heap(0)),
            (vec![3], vec![10, 4]),
            "{seed}"
        );
        assert_eq!(rec.rounds, 2);
    }
}

#[test]
fn the_original_abandons_a_game_after_100_rounds_in_a_row_without_a_winner() {
    // Four players holding a 1 or a 2 each: both pairs war with nothing to lay, nobody wins,
    // the cards go back, forever. The original gives up in round 101; the description's
    // rules call it a draw at once.
    let deal: [&[u8]; 4] = [&[1], &[2], &[1], &[2]];
    let (rec, _, _) = play(&original(4, 1_000), &deal);
    assert_eq!(
        (rec.outcome, rec.rounds, rec.winner),
        (Outcome::Abandoned, 101, None)
    );
    let (rec, _, _) = play(&simulator(4), &deal);
    assert_eq!((rec.outcome, rec.rounds), (Outcome::Draw, 1));
    // The count is a setting: with 60, the game is given up in round 61.
    let mut r = original(4, 1_000);
    r.abandon_after = 60;
    let (rec, _, _) = play(&r, &deal);
    assert_eq!((rec.outcome, rec.rounds), (Outcome::Abandoned, 61));
}

#[test]
fn the_original_settles_groups_in_the_order_first_shown_and_the_highest_wins_the_round() {
    // Shown 3 9 3: the 3s fight first (champions 8 and 4: seat 1 takes the stakes), the 9
    // still takes the round, and the shown cards come back grouped as shown: 3 3 9.
    let deal: [&[u8]; 3] = [&[3, 8, 1, 1, 1], &[9], &[3, 4, 2, 2, 2]];
    let (_, _, heaps) = play(&original(3, 1), &deal);
    assert_eq!(
        heaps,
        vec![vec![8, 1, 1, 1, 4, 2, 2, 2], vec![3, 3, 9], vec![]]
    );
    let mut highest = original(3, 1);
    highest.group_order = warsim::engine::rules::GroupOrder::HighestFirst;
    let (_, _, heaps) = play(&highest, &deal);
    assert_eq!(heaps[1], vec![3, 9, 3]);
}

#[test]
fn the_originals_deal_starts_with_the_last_seat_and_builds_the_deck_suit_by_suit() {
    let mut game = PileGame::<u8, 64>::boxed();
    let mut top = original(3, 1);
    top.deal = warsim::engine::rules::Deal::FromTop;
    for seed in 0..5 {
        game.deal(&top, &mut random::game_rng(seed));
        let from_top: Vec<Vec<u8>> = (0..3).map(|s| game.pile(s)).collect();
        game.deal(&original(3, 1), &mut random::game_rng(seed));
        for seat in 0..3 {
            assert_eq!(game.pile(seat), from_top[2 - seat], "{seed} {seat}");
        }
    }
    // 4 suits × 2 ranks among 5 players: suit 1's 1 and 2 and suit 2's 1 dropped.
    let mut r = original(5, 1);
    r.ranks = 2;
    let mut deck = [0u8; 8];
    let n = r.fill_deck(&mut deck);
    assert_eq!(&deck[..n], &[2, 1, 2, 1, 2]);
}
