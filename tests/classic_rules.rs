//! The classic rules on hand-built deals: exact piles after plain rounds, wars, double wars,
//! shortages, three-player tables and the cap; card conservation on random deals; and a loop's
//! wars counted exactly to the highest cap.

use warsim::engine::rules::Pickup;
use warsim::engine::{GameRecord, Outcome, Preset, Rules};
use warsim::testing as random;
use warsim::testing::{CYCLE_CHECK_FROM, PileGame};

fn rules(players: u32, max_rounds: u32) -> Rules {
    let mut r = Preset::Classic.rules();
    r.players = players;
    r.max_rounds = max_rounds;
    r
}

/// Plays `hands` (top card first) and returns the record and every pile afterwards.
fn play(rules: &Rules, hands: &[&[u8]]) -> (GameRecord, Vec<Vec<u8>>) {
    let mut game = PileGame::<u8, 64>::boxed();
    let hands: Vec<Vec<u8>> = hands.iter().map(|h| h.to_vec()).collect();
    let record = game.play_hands(rules, &hands, &mut random::game_rng(0));
    let piles = (0..hands.len()).map(|s| game.pile(s)).collect();
    (record, piles)
}

#[test]
fn plain_round_winner_takes_high_card_then_low_card() {
    let (rec, piles) = play(&rules(2, 1), &[&[10, 3], &[5, 7]]);
    assert_eq!(piles, vec![vec![3, 10, 5], vec![7]]);
    assert_eq!((rec.rounds, rec.outcome, rec.wars), (1, Outcome::Capped, 0));

    let (_, piles) = play(&rules(2, 1), &[&[4, 3], &[9, 7]]);
    assert_eq!(piles, vec![vec![3], vec![7, 9, 4]]);
}

#[test]
fn war_pot_is_table_then_sorted_face_down_then_table() {
    let (rec, piles) = play(&rules(2, 1), &[&[5, 2, 9, 4], &[5, 3, 8, 6]]);
    assert_eq!(piles, vec![vec![4, 5, 5, 3, 2, 9, 8], vec![6]]);
    assert_eq!((rec.wars, rec.longest_war), (1, 1));
}

#[test]
fn double_war_chains_in_one_round() {
    let (rec, piles) = play(&rules(2, 1), &[&[5, 2, 9, 1, 12, 4], &[5, 3, 9, 7, 11, 6]]);
    assert_eq!(
        piles,
        vec![vec![4, 5, 5, 3, 2, 9, 9, 7, 1, 12, 11], vec![6]]
    );
    assert_eq!((rec.rounds, rec.wars, rec.longest_war), (1, 2, 2));
}

#[test]
fn running_out_of_face_up_card_loses_the_war_and_the_game() {
    let (rec, piles) = play(&rules(2, 100), &[&[5, 2], &[5, 3, 8, 6]]);
    assert_eq!(piles, vec![vec![], vec![6, 5, 5, 3, 2, 8]]);
    assert_eq!(rec.winner, Some(1));
    assert_eq!((rec.rounds, rec.outcome, rec.wars), (1, Outcome::Win, 1));
}

#[test]
fn running_out_of_face_down_card_loses_the_war() {
    let (rec, piles) = play(&rules(2, 100), &[&[5], &[5, 3, 8]]);
    assert_eq!(piles, vec![vec![], vec![5, 5, 3, 8]]);
    assert_eq!((rec.winner, rec.outcome), (Some(1), Outcome::Win));
}

#[test]
fn both_running_out_in_a_war_is_a_draw() {
    let mut game = PileGame::<u8, 64>::boxed();
    let rec = game.play_hands(
        &rules(2, 100),
        &[vec![7, 1], vec![7, 1]],
        &mut random::game_rng(0),
    );
    assert_eq!(
        (rec.rounds, rec.winner, rec.outcome),
        (1, None, Outcome::Draw)
    );
    assert_eq!(game.table(), vec![7, 7, 1, 1]);
}

#[test]
fn three_players_only_the_top_tie_goes_to_war() {
    let (rec, piles) = play(&rules(3, 1), &[&[9, 2, 4], &[9, 3, 6], &[4, 13]]);
    assert_eq!(piles, vec![vec![], vec![9, 9, 4, 3, 2, 6, 4], vec![13]]);
    assert_eq!(rec.wars, 1);
}

#[test]
fn three_players_tie_below_the_top_is_no_war() {
    let (rec, piles) = play(&rules(3, 1), &[&[13, 1], &[5, 2], &[5, 3]]);
    assert_eq!(piles, vec![vec![1, 13, 5, 5], vec![2], vec![3]]);
    assert_eq!(rec.wars, 0);
}

#[test]
fn three_player_war_tie_breaks_by_seat_in_the_pot() {
    // Seats 2 and 3 tie on 8 above seat 1; their face-down cards tie too (both 4s).
    let (_, piles) = play(&rules(3, 1), &[&[2, 1], &[8, 4, 10], &[8, 4, 11]]);
    assert_eq!(piles, vec![vec![1], vec![], vec![8, 8, 2, 4, 4, 11, 10]]);
}

#[test]
fn when_every_fighter_runs_out_the_best_remaining_player_takes_the_pot() {
    let (rec, piles) = play(&rules(3, 100), &[&[9], &[9], &[4, 2]]);
    assert_eq!(piles, vec![vec![], vec![], vec![2, 9, 9, 4]]);
    assert_eq!((rec.winner, rec.outcome), (Some(2), Outcome::Win));
}

#[test]
fn more_face_down_cards_are_sorted_together() {
    let mut r = rules(2, 1);
    r.face_down = 3;
    let (_, piles) = play(&r, &[&[6, 1, 9, 2, 3, 7], &[6, 8, 2, 5, 4, 13]]);
    assert_eq!(piles, vec![vec![7], vec![13, 6, 6, 9, 8, 5, 2, 2, 1, 4, 3]]);
}

#[test]
fn the_cap_stops_a_game_with_outcome_capped() {
    let (rec, piles) = play(&rules(2, 3), &[&[2, 9, 4, 6], &[3, 8, 5, 7]]);
    assert_eq!(
        (rec.rounds, rec.winner, rec.outcome),
        (3, None, Outcome::Capped)
    );
    // Round 1: 2<3, round 2: 9>8, round 3: 4<5.
    assert_eq!(piles, vec![vec![6, 9, 8], vec![7, 3, 2, 5, 4]]);
}

#[test]
fn cards_are_conserved_in_random_configurations() {
    let mut game = PileGame::<u8, 256>::boxed();
    for case in 0..400u64 {
        let mut rng = random::game_rng(case);
        let mut r = Preset::Classic.rules();
        r.suits = 1 + random::bounded_u32(&mut rng, 8);
        r.ranks = 1 + random::bounded_u32(&mut rng, 20);
        r.players = 2 + random::bounded_u32(&mut rng, 5);
        if r.players > r.cards() {
            continue;
        }
        r.face_down = random::bounded_u32(&mut rng, 4);
        r.max_rounds = 1 + random::bounded_u32(&mut rng, 300);
        let rec = game.play(&r, &mut rng);
        let mut held: Vec<u8> = (0..r.players as usize).flat_map(|s| game.pile(s)).collect();
        if rec.outcome == Outcome::Draw {
            held.extend(game.table());
        }
        held.sort_unstable();
        let mut deck: Vec<u8> = (1..=r.ranks as u8)
            .flat_map(|rank| std::iter::repeat_n(rank, r.suits as usize))
            .collect();
        deck.sort_unstable();
        assert_eq!(held, deck, "case {case}: {r:?} {rec:?}");
        if let Some(w) = rec.winner {
            assert_eq!(
                game.pile(w as usize).len(),
                r.cards() as usize,
                "case {case}"
            );
        }
        assert!(rec.rounds <= r.max_rounds);
    }
}

#[test]
fn a_repeating_position_ends_as_a_cycle() {
    // Seat order pickup: [2,1] v [1,2] → after round 1 the piles are [1,2,1] v [2], and every
    // second round brings that position back.
    let mut r = rules(2, 100_000);
    r.pickup = Pickup::Seats;
    let (rec, piles) = play(&r, &[&[2, 1], &[1, 2]]);
    assert_eq!((rec.outcome, rec.winner), (Outcome::Cycle, None));
    assert!(
        (CYCLE_CHECK_FROM..CYCLE_CHECK_FROM + 4).contains(&rec.rounds),
        "{rec:?}"
    );
    assert_eq!(piles.concat().len(), 4);
    // Before the check starts, the cap decides.
    r.max_rounds = 500;
    assert_eq!(play(&r, &[&[2, 1], &[1, 2]]).0.outcome, Outcome::Capped);
    // A random pickup order can always break the loop: no cycle is claimed.
    r.max_rounds = 5000;
    r.pickup = Pickup::Shuffled;
    assert_ne!(play(&r, &[&[2, 1], &[1, 2]]).0.outcome, Outcome::Cycle);
}

#[test]
#[should_panic(expected = "128 cards in 2 hands do not fit piles of 64")]
fn hands_larger_than_a_pile_are_refused_instead_of_overwriting_cards() {
    let rules = warsim::engine::Preset::Classic.rules();
    let hand: Vec<u8> = (0..64).map(|i| (i % 13 + 1) as u8).collect();
    PileGame::<u8, 64>::boxed().play_hands(&rules, &[hand.clone(), hand], &mut random::game_rng(0));
}

#[test]
#[should_panic(expected = "1020 cards do not fit piles of 64")]
fn rules_larger_than_the_piles_are_refused() {
    let mut rules = warsim::engine::Preset::Classic.rules();
    (rules.suits, rules.ranks) = (4, 255);
    PileGame::<u8, 64>::boxed().play(&rules, &mut random::game_rng(0));
}

/// Every position of a game in a set: the round a position first came back, and the round it
/// was first seen (so the loop's length and the run-in before it are known).
struct EveryPosition {
    seen: std::collections::HashMap<Vec<Vec<u8>>, u32>,
    repeat: Option<(u32, u32)>,
}

impl warsim::testing::Observer<u8, 64> for EveryPosition {
    fn before_round(&mut self, _round: u32, _game: &PileGame<u8, 64>) -> bool {
        self.repeat.is_none()
    }
    fn after_round(&mut self, round: u32, game: &PileGame<u8, 64>, _winner: Option<usize>) {
        let position = vec![game.pile(0), game.pile(1)];
        if let Some(&first) = self.seen.get(&position) {
            self.repeat.get_or_insert((first, round));
        }
        self.seen.entry(position).or_insert(round);
    }
}

/// Every distinct arrangement of `cards`, in lexicographic order.
fn arrangements(cards: &mut [u8]) -> Vec<Vec<u8>> {
    cards.sort_unstable();
    let mut all = vec![cards.to_vec()];
    loop {
        // Next permutation.
        let Some(i) = (0..cards.len() - 1)
            .rev()
            .find(|&i| cards[i] < cards[i + 1])
        else {
            return all;
        };
        let j = (i + 1..cards.len())
            .rev()
            .find(|&j| cards[j] > cards[i])
            .unwrap();
        cards.swap(i, j);
        cards[i + 1..].reverse();
        all.push(cards.to_vec());
    }
}

#[test]
fn cycles_are_found_exactly_when_a_position_comes_back() {
    // Deals of a 10-card deck (ranks 1..5 twice; every seventh of all 113,400), wars of one
    // face-up card: the engine (fast loop, Brent's check from round 1,024) against a brute force
    // that keeps every position in a set.
    let deals = arrangements(&mut [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    assert_eq!(deals.len(), 113_400);
    for pickup in [Pickup::Seats, Pickup::Table, Pickup::LoserFirst] {
        let mut r = rules(2, 100_000);
        r.pickup = pickup;
        r.face_down = 0; // small decks loop only without face-down cards
        let (mut cycles, mut longest_loop, mut longest_run_in) = (0, 0, 0);
        for deal in deals.iter().step_by(7) {
            let hands = vec![deal[..5].to_vec(), deal[5..].to_vec()];
            let mut game = PileGame::<u8, 64>::boxed();
            let record = game.play_hands(&r, &hands, &mut random::game_rng(0));
            let mut brute = EveryPosition {
                seen: Default::default(),
                repeat: None,
            };
            game.set_hands(&hands);
            let observed = game.play_observed(&r, &mut random::game_rng(0), &mut brute);
            match brute.repeat {
                Some((first, again)) => {
                    assert_eq!(record.outcome, Outcome::Cycle, "{pickup:?} {deal:?}");
                    assert!(record.rounds >= again.max(CYCLE_CHECK_FROM), "{deal:?}");
                    cycles += 1;
                    longest_loop = longest_loop.max(again - first);
                    longest_run_in = longest_run_in.max(first);
                }
                None => {
                    assert_ne!(record.outcome, Outcome::Cycle, "{pickup:?} {deal:?}");
                    assert_eq!(record, observed, "{pickup:?} {deal:?}");
                }
            }
        }
        // The deals cover long loops and long run-ins, not just the two-position kind.
        if pickup == Pickup::Seats {
            assert!(
                cycles > 300 && longest_loop > 10 && longest_run_in > 10,
                "{cycles} {longest_loop} {longest_run_in}"
            );
        }
        eprintln!(
            "{pickup:?}: {cycles} cycles, loops up to {longest_loop} rounds, run-ins up to {longest_run_in}"
        );
    }
}

#[test]
fn cards_played_counts_every_card_laid_face_up_or_down() {
    // A plain round: two cards.
    assert_eq!(play(&rules(2, 1), &[&[10, 3], &[5, 7]]).0.cards_played, 2);
    // A double war in one round: the tie (2), then 1 down and 1 up each, twice (4 + 4).
    let (rec, _) = play(&rules(2, 1), &[&[5, 2, 9, 1, 12, 4], &[5, 3, 9, 7, 11, 6]]);
    assert_eq!((rec.rounds, rec.cards_played), (1, 10));
    // Three players: three shown, then the two tied players' war (2 down, 2 up).
    let (rec, _) = play(&rules(3, 1), &[&[9, 2, 4], &[9, 3, 6], &[4, 13]]);
    assert_eq!(rec.cards_played, 7);
    // Whole games on the fast loop: two plain rounds; a war that ends the game.
    let (rec, _) = play(&rules(2, 1000), &[&[3, 9], &[2, 8]]);
    assert_eq!(
        (rec.rounds, rec.outcome, rec.cards_played),
        (2, Outcome::Win, 4)
    );
    let (rec, _) = play(&rules(2, 1000), &[&[5, 9, 2], &[5, 3, 4]]);
    assert_eq!((rec.rounds, rec.winner, rec.cards_played), (1, Some(1), 6));
    // Fixed rounds: every player lays one card a round.
    let fixed = Preset::FixedRounds.rules();
    for seed in 0..20 {
        let rec = warsim::engine::play_game(&fixed, seed);
        assert_eq!(rec.cards_played, u64::from(fixed.players * rec.rounds));
    }
}

#[test]
fn a_loop_of_many_ties_a_round_counts_its_wars_exactly_to_the_highest_cap() {
    use warsim::engine::Engine;
    use warsim::engine::rules::{AtCap, Shortage};
    // Two ranks of 12 suits, loser first: game 621 of seed 0 loops every 2 rounds from round
    // 1,025 on, with 18 ties a lap. To the highest cap that is some 3.9 × 10^10 wars, past a
    // u32: the count must be the rounds before the cap's last lap plus whole laps, exactly.
    let mut r = Preset::Classic.rules();
    (r.suits, r.ranks, r.pickup) = (12, 2, Pickup::LoserFirst);
    (r.shortage, r.at_cap) = (Shortage::PlayWhatYouHave, AtCap::LargerPile);
    let seed = r.game_seed(0, 621);
    let mut engine = Engine::for_rules(&r);
    let mut at_cap = |cap: u32| {
        r.max_rounds = cap;
        let game = engine.play(&r, seed);
        assert_eq!(game.rounds, cap);
        (u128::from(game.wars), u128::from(game.cards_played))
    };
    let (wars, cards) = at_cap(2_000);
    let (lap_wars, lap_cards) = (at_cap(2_002).0 - wars, at_cap(2_002).1 - cards);
    assert_eq!(lap_wars, 18, "the loop's ties a lap");
    let highest = u32::MAX - 1;
    let laps = u128::from(highest - 2_000) / 2;
    assert_eq!(
        at_cap(highest),
        (wars + laps * lap_wars, cards + laps * lap_cards)
    );
}
