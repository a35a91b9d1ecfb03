//! Random rule sets on the engine's fast paths against its general path. `engine_paths.rs`
//! walks chosen grids of settings; this draws whole rule sets at random (every preset with a
//! fast path, that is all but fixed-rounds; decks in all three size classes; two to twelve
//! players; every setting a family takes, and the deal's), so that combinations no grid names
//! (a shortage rule with a pickup order, reshuffles with three players, a cap of 1,024 rounds,
//! an uneven deal dealt from the end...) are played both ways too. The draws are seeded, so a
//! failure names a rule set that replays.

use std::collections::BTreeSet;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use warsim::engine::rules::{Named, Setting};
use warsim::engine::{Preset, Rules};
use warsim::testing::PileGame;

use crate::common;

use common::paths::same_games_fast_and_general;

/// Draws one of `choices`.
fn one_of<T: Copy>(dice: &mut Xoshiro256PlusPlus, choices: &[T]) -> T {
    choices[(dice.next_u64() % choices.len() as u64) as usize]
}

/// Draws any value of a named setting.
fn any<T: Named>(dice: &mut Xoshiro256PlusPlus) -> T {
    one_of(dice, T::ALL)
}

/// Draws a number in `low..=high` (modulo bias is harmless here).
fn between(dice: &mut Xoshiro256PlusPlus, low: u32, high: u32) -> u32 {
    low + (dice.next_u64() % u64::from(high - low + 1)) as u32
}

/// A rule set drawn at random: a preset, a deck, players, and each setting its family takes
/// changed with some probability (the deal's settings too). `None` when the draw is not a
/// valid game.
fn random_rules(dice: &mut Xoshiro256PlusPlus) -> Option<Rules> {
    let with_fast_paths: Vec<Preset> = Preset::ALL
        .iter()
        .copied()
        .filter(|&preset| preset != Preset::FixedRounds)
        .collect();
    let mut r = one_of(dice, &with_fast_paths).rules();
    // Mostly decks of the 64-card class, where games are short and every rule shows.
    (r.suits, r.ranks) = match between(dice, 0, 9) {
        0..=5 => (between(dice, 1, 8), between(dice, 1, 13)),
        6..=7 => (between(dice, 1, 4), between(dice, 13, 64)),
        _ => (between(dice, 1, 4), between(dice, 30, 255)),
    };
    r.players = match between(dice, 0, 9) {
        0..=3 => 2,
        4..=5 => 3,
        6..=7 => 4,
        _ => between(dice, 2, 12),
    };
    // A third of the settings the family takes are changed, each to any of its values.
    let family = r.family;
    let takes = |setting: Option<Setting>, dice: &mut Xoshiro256PlusPlus| {
        setting.is_none_or(|s| family.refuses(s).is_none()) && between(dice, 0, 2) == 0
    };
    // In a fixed order, so that a seed draws the same rule sets.
    type Change = fn(&mut Rules, &mut Xoshiro256PlusPlus);
    let changes: [(Option<Setting>, Change); 13] = [
        (Some(Setting::FaceDown), |r, dice| {
            r.face_down = one_of(dice, &[0, 1, 2, 3, 6, 15, 16, 17, 40]);
        }),
        (Some(Setting::Shortage), |r, dice| r.shortage = any(dice)),
        (Some(Setting::Pickup), |r, dice| r.pickup = any(dice)),
        (Some(Setting::Spoils), |r, dice| r.spoils = any(dice)),
        (Some(Setting::ReshuffleEvery), |r, dice| {
            r.reshuffle_every = between(dice, 1, 60);
        }),
        (Some(Setting::MaxRounds), |r, dice| {
            r.max_rounds = one_of(dice, &[1, 2, 37, 1023, 1024, 1025, 3000, 20_000]);
        }),
        (Some(Setting::AtCap), |r, dice| r.at_cap = any(dice)),
        (Some(Setting::Shuffle), |r, dice| r.shuffle = any(dice)),
        (Some(Setting::Champion), |r, dice| r.champion = any(dice)),
        (Some(Setting::GroupOrder), |r, dice| {
            r.group_order = any(dice)
        }),
        (Some(Setting::AbandonAfter), |r, dice| {
            r.abandon_after = one_of(dice, &[0, 1, 2, 5, 100]);
        }),
        // The deal's settings, which every family takes.
        (None, |r, dice| r.uneven = any(dice)),
        (None, |r, dice| r.deal = any(dice)),
    ];
    for (setting, change) in changes {
        if takes(setting, dice) {
            change(&mut r, dice);
        }
    }
    (r.validate().is_ok() && r.cards_in_play() >= r.players).then_some(r)
}

#[test]
fn random_rule_sets_play_the_same_games_on_the_fast_and_general_paths() {
    let mut dice = Xoshiro256PlusPlus::seed_from_u64(16);
    let mut game64 = PileGame::<u8, 64>::boxed();
    let mut game256 = PileGame::<u8, 256>::boxed();
    let mut game1024 = PileGame::<u8, 1024>::boxed();
    let (mut rule_sets, mut outcomes, mut kinds) = (0, BTreeSet::new(), BTreeSet::new());
    while rule_sets < 1500 {
        let Some(r) = random_rules(&mut dice) else {
            continue;
        };
        rule_sets += 1;
        let seeds = 0..u64::from(between(&mut dice, 3, 8));
        let (records, class) = match r.cards() {
            0..=64 => (same_games_fast_and_general(&mut game64, &r, seeds), 64),
            65..=256 => (same_games_fast_and_general(&mut game256, &r, seeds), 256),
            _ => (same_games_fast_and_general(&mut game1024, &r, seeds), 1024),
        };
        kinds.insert((format!("{:?}", r.family), class, r.players.min(5)));
        outcomes.extend(records.iter().map(|record| format!("{:?}", record.outcome)));
    }
    // The draws reached every way a game ends, and both families in every size class with
    // two, three, four and five or more players.
    assert_eq!(outcomes.len(), 5, "{outcomes:?}");
    assert_eq!(kinds.len(), 2 * 3 * 4, "{kinds:?}");
}
