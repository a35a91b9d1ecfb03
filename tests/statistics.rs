//! Known facts over many games: fixed-rounds' tie chance and symmetric seats, classic's
//! symmetric seats, and the conservation of cards in random configurations of every preset.

use warsim::engine::rules::Family;
use warsim::engine::{Engine, GameRecord, Outcome, Preset, WinBy, game_seed};
use warsim::testing as random;
use warsim::testing::{FixedRoundsGame, PileGame};

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
        sum += rec.wars as f64;
        sq += (rec.wars * rec.wars) as f64;
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
