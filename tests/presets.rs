//! Every preset's card movements on hand-built deals: plain rounds, wars, nested wars, each
//! shortage case, caps and endings; and known statistical facts.

use warsim::engine::rules::{AtCap, Family, Pickup};
use warsim::engine::{Engine, GameRecord, Outcome, Preset, Rules, WinBy, game_seed};
use warsim::testing as random;
use warsim::testing::{FixedRoundsGame, PileGame};

/// `preset`'s rules stopped after `rounds` rounds with outcome `capped`.
fn stopped_after(preset: Preset, rounds: u32) -> Rules {
    let mut r = preset.rules();
    r.max_rounds = rounds;
    r.at_cap = AtCap::Capped;
    r
}

fn play(rules: &Rules, hands: &[&[u8]]) -> (GameRecord, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let mut game = PileGame::<u8, 64>::boxed();
    let hands: Vec<Vec<u8>> = hands.iter().map(|h| h.to_vec()).collect();
    let record = game.play_hands(rules, &hands, &mut random::game_rng(1));
    let piles = (0..hands.len()).map(|s| game.pile(s)).collect();
    let heaps = (0..hands.len()).map(|s| game.heap(s)).collect();
    (record, piles, heaps)
}

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

// ---- fixed-rounds: one deck each, 26 rounds, no wars ----

fn fixed_match(decks: &[Vec<u8>]) -> GameRecord {
    FixedRoundsGame::boxed().play_decks(&Preset::FixedRounds.rules(), decks)
}

#[test]
fn fixed_rounds_scores_rounds_and_ties() {
    let ascending: Vec<u8> = (1..=13).chain(1..=13).collect();
    let descending: Vec<u8> = (1..=13).rev().chain((1..=13).rev()).collect();
    let rec = fixed_match(&[ascending.clone(), descending]);
    // Rounds 7 and 20 tie (7 v 7); each side wins 12: a tied match.
    assert_eq!(
        (rec.rounds, rec.wars, rec.outcome, rec.winner),
        (26, 2, Outcome::Draw, None)
    );
    let shifted: Vec<u8> = (2..=13).chain([1]).chain(2..=13).chain([1]).collect();
    let rec = fixed_match(&[ascending, shifted]);
    assert_eq!(
        (rec.wars, rec.outcome, rec.winner, rec.win_by),
        (0, Outcome::Win, Some(1), Some(WinBy::Score))
    );
}

#[test]
fn fixed_rounds_tie_chance_is_one_in_thirteen_and_seats_are_symmetric() {
    let rules = Preset::FixedRounds.rules();
    let mut engine = Engine::for_rules(&rules);
    let n = 40_000u64;
    let (mut sum, mut sq, mut wins) = (0f64, 0f64, [0u64; 2]);
    for game in 0..n {
        let rec = engine.play(&rules, game_seed(99, game));
        sum += f64::from(rec.wars);
        sq += f64::from(rec.wars * rec.wars);
        if let Some(seat) = rec.winner {
            wins[seat as usize] += 1;
        }
    }
    let mean = sum / n as f64;
    let se = ((sq / n as f64 - mean * mean) / n as f64).sqrt();
    let expected = 26.0 / 13.0;
    assert!(
        (mean - expected).abs() < 4.0 * se,
        "tied rounds per match {mean} ± {se}"
    );
    let diff = wins[0].abs_diff(wins[1]) as f64;
    assert!(diff < 4.0 * ((wins[0] + wins[1]) as f64).sqrt(), "{wins:?}");
}

#[test]
fn classic_seats_win_equally_often() {
    let rules = Preset::Classic.rules();
    let mut engine = Engine::for_rules(&rules);
    let mut wins = [0u64; 2];
    for game in 0..20_000 {
        if let Some(seat) = engine.play(&rules, game_seed(5, game)).winner {
            wins[seat as usize] += 1;
        }
    }
    let diff = wins[0].abs_diff(wins[1]) as f64;
    assert!(diff < 4.0 * ((wins[0] + wins[1]) as f64).sqrt(), "{wins:?}");
}

// ---- every preset: cards are conserved in random configurations ----

#[test]
fn every_preset_conserves_cards() {
    let mut game = PileGame::<u8, 256>::boxed();
    for &preset in Preset::ALL {
        if preset.rules().family == Family::FixedRounds {
            continue;
        }
        for case in 0..150u64 {
            let mut rng = random::game_rng(case);
            let mut r = preset.rules();
            r.suits = 1 + random::bounded_u32(&mut rng, 6);
            r.ranks = 1 + random::bounded_u32(&mut rng, 20);
            if preset.two_players_only().is_none() {
                r.players = 2 + random::bounded_u32(&mut rng, 4);
            }
            r.max_rounds = 1 + random::bounded_u32(&mut rng, 400);
            if r.validate().is_err() {
                continue;
            }
            let rec = game.play(&r, &mut rng);
            let mut held: Vec<u8> = (0..r.players as usize).flat_map(|s| game.pile(s)).collect();
            held.extend((0..r.players as usize).flat_map(|s| game.heap(s)));
            if rec.outcome == Outcome::Draw {
                held.extend(game.table());
            }
            assert_eq!(
                held.len() as u32,
                r.cards_in_play(),
                "{preset} case {case}: {r:?} {rec:?}"
            );
            if let (Some(w), WinBy::Cards) = (rec.winner, rec.win_by.unwrap_or(WinBy::Cap)) {
                let w = w as usize;
                assert_eq!(
                    game.pile(w).len() + game.heap(w).len(),
                    held.len(),
                    "{preset} case {case}"
                );
            }
            assert!(rec.rounds <= r.most_rounds());
        }
    }
}

// ---- war-card-game: war_card_game 0.3.1 seed for seed ----

#[test]
fn war_card_game_reproduces_the_crates_readme_seeds() {
    let rules = Preset::WarCardGame.rules();
    let mut engine = Engine::for_rules(&rules);
    let readme = [118, 176, 568, 654, 164, 126, 230, 116, 516, 380, 146];
    for (i, &rounds) in readme.iter().enumerate() {
        let seed = rules.game_seed(0, i as u64);
        assert_eq!(
            seed, i as u64,
            "batch seeds are the crate's seeds S, S+1, ..."
        );
        assert_eq!(engine.play(&rules, seed).rounds, rounds, "seed {seed}");
    }
    assert_eq!(engine.play(&rules, 53822).rounds, 18);
    assert_eq!(engine.play(&rules, 6958).rounds, 2133);
    // Player 1 is the hand that receives the shuffled deck's last card.
    assert_eq!(engine.play(&rules, 10).winner, Some(1));
}

#[test]
fn games_played_in_runs_are_the_games_played_one_at_a_time() {
    // A run plays war_card_game streams sixteen at a time (on AVX-512 machines): the same games
    // as one at a time, from a start and an end off the sixteens, with and without randomness
    // after the deal (shuffled pickup draws words past those made ahead). (warsim's own
    // generator plays a run one game at a time: nothing to compare there.)
    let mut shuffled_pickup = Preset::WarCardGame.rules();
    shuffled_pickup.pickup = Pickup::Shuffled;
    for rules in [Preset::WarCardGame.rules(), shuffled_pickup] {
        let mut engine = Engine::for_rules(&rules);
        let mut records = Vec::new();
        engine.play_games(&rules, 77, 3..1_206, |record| records.push(record));
        assert_eq!(records.len(), 1_203);
        let mut alone = Engine::for_rules(&rules);
        for (game, record) in (3..).zip(&records) {
            let expected = alone.play(&rules, rules.game_seed(77, game));
            assert_eq!(*record, expected, "{:?}, game {game}", rules.pickup);
        }
    }
    let rules = Preset::WarCardGame.rules();
    let mut rounds = Vec::new();
    Engine::for_rules(&rules).play_games(&rules, 0, 0..11, |record| rounds.push(record.rounds));
    assert_eq!(
        rounds,
        [118, 176, 568, 654, 164, 126, 230, 116, 516, 380, 146]
    );
}

// ---- the fast plain-round loop against the general path ----

struct Silent;

impl<const CAP: usize> warsim::testing::Observer<u8, CAP> for Silent {
    fn before_round(&mut self, _: u32, _: &PileGame<u8, CAP>) -> bool {
        true
    }
    fn after_round(&mut self, _: u32, _: &PileGame<u8, CAP>, _: Option<usize>) {}
}

#[test]
fn the_fast_loop_plays_exactly_what_the_general_path_plays() {
    use warsim::engine::rules::{Pickup, Shortage};
    // Single-game mode (an observer) turns the fast paths off: it is the reference.
    let mut configs = Vec::new();
    for preset in [
        Preset::Classic,
        Preset::WarCardGame,
        Preset::CardsWar,
        Preset::GameOfWar,
    ] {
        configs.push(preset.rules());
    }
    for pickup in [
        Pickup::WinnerFirst,
        Pickup::LoserFirst,
        Pickup::Seats,
        Pickup::ReverseSeats,
    ] {
        for face_down in [0, 1, 3] {
            let mut r = Preset::Classic.rules();
            r.pickup = pickup;
            r.face_down = face_down;
            r.max_rounds = 3000;
            configs.push(r);
        }
    }
    let mut r = Preset::Classic.rules();
    r.shortage = Shortage::PlayWhatYouHave;
    r.face_down = 2;
    r.players = 3;
    configs.push(r);
    for players in [2, 3] {
        let mut r = Preset::WarSimulator.rules();
        r.players = players;
        configs.push(r);
    }
    // Reshuffles cut the fast loop into stretches.
    let mut r = Preset::Classic.rules();
    r.reshuffle_every = 7;
    configs.push(r);
    // No cycle watch (the cap decides): the fast loop runs thousands of rounds and moves its
    // piles back to the start of its buffers.
    let mut r = Preset::Classic.rules();
    r.at_cap = AtCap::LargerPile;
    r.max_rounds = 6000;
    configs.push(r);
    // Both fast loops: sixteen rounds at a time (where the processor has SSSE3) and one at a time.
    let mut game = PileGame::<u8, 64>::boxed();
    let mut scalar = PileGame::<u8, 64>::boxed();
    scalar.use_scalar_pass();
    for r in &configs {
        same_games_fast_and_general(&mut game, r, 0..200);
        same_games_fast_and_general(&mut scalar, r, 0..200);
    }
    // A 1,000-card deck with 31-card layouts: games of thousands of rounds and a hundred wars,
    // some of them started just before the piles move back to the start.
    let mut r = Preset::Classic.rules();
    r.suits = 40;
    r.ranks = 25;
    r.face_down = 30;
    r.at_cap = AtCap::LargerPile;
    r.max_rounds = 20_000;
    same_games_fast_and_general(&mut PileGame::<u8, 1024>::boxed(), &r, 0..20);
}

fn same_games_fast_and_general<const CAP: usize>(
    game: &mut PileGame<u8, CAP>,
    r: &Rules,
    seeds: std::ops::Range<u64>,
) {
    for seed in seeds {
        let fast = game.play(r, &mut random::game_rng(seed));
        let fast_piles: Vec<(Vec<u8>, Vec<u8>)> = (0..r.players as usize)
            .map(|s| (game.pile(s), game.heap(s)))
            .collect();
        let mut rng = random::game_rng(seed);
        game.deal(r, &mut rng);
        let general = game.play_observed(r, &mut rng, &mut Silent);
        let general_piles: Vec<(Vec<u8>, Vec<u8>)> = (0..r.players as usize)
            .map(|s| (game.pile(s), game.heap(s)))
            .collect();
        assert_eq!(fast, general, "{r:?} seed {seed}");
        assert_eq!(fast_piles, general_piles, "{r:?} seed {seed}");
    }
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
