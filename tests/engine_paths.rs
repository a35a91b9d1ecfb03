//! The engine's alternative paths play the same games: war_card_game's seeds and its sixteen
//! streams at a time against one game at a time, and the fast loops (two players with block and
//! scalar passes, three or more players, the cycle watch inside them) against the general path.

use warsim::engine::rules::{AtCap, Pickup};
use warsim::engine::{Engine, GameRecord, Outcome, Preset, Rules};
use warsim::testing::PileGame;

use crate::common;

use common::paths::{ended, same_games_fast_and_general};

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
        Pickup::Natural,
        Pickup::Reversed,
        Pickup::Alternating,
    ] {
        for face_down in [0, 1, 3] {
            let mut r = Preset::Classic.rules();
            r.pickup = pickup;
            r.face_down = face_down;
            r.max_rounds = 3000;
            configs.push(r);
        }
    }
    // kbWar unshuffled: its shortage, with its pickup and another.
    for pickup in [Pickup::Reversed, Pickup::Table] {
        let mut r = Preset::Classic.rules();
        (r.pickup, r.shortage, r.face_down) = (pickup, Shortage::LoseWhenEmpty, 3);
        configs.push(r);
    }
    // French bataille (and the end-game shortage under other layouts).
    for face_down in [0, 1, 3] {
        let mut r = Preset::Classic.rules();
        (r.pickup, r.shortage, r.face_down) = (Pickup::Natural, Shortage::EndGame, face_down);
        configs.push(r);
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

#[test]
fn the_cycle_watch_in_the_fast_loops_finds_what_the_general_path_finds() {
    // Games past the watch's start (round 1,024): single-suit decks (no wars, many loops, of
    // short and long periods), decks of 104 to 1,024 cards (long games, wars of every depth),
    // and three to eight players, on both passes. Each set of games must hold loops (small
    // decks) or games won after the watch began (large ones), or it would test nothing.
    let classic = |players: u32, suits: u32, ranks: u32| {
        let mut r = Preset::Classic.rules();
        (r.players, r.suits, r.ranks) = (players, suits, ranks);
        r
    };
    let mut small = vec![classic(2, 1, 9), classic(2, 1, 15), classic(2, 1, 41)];
    small.extend([
        classic(2, 3, 13),
        classic(3, 1, 11),
        classic(4, 1, 13),
        classic(3, 2, 9),
    ]);
    let mut r = classic(3, 1, 10);
    r.pickup = Pickup::LoserFirst;
    small.push(r);
    let mut game = PileGame::<u8, 64>::boxed();
    let mut scalar = PileGame::<u8, 64>::boxed();
    scalar.use_scalar_pass();
    for r in &small {
        let games = same_games_fast_and_general(&mut game, r, 0..150);
        assert!(ended(&games, Outcome::Cycle, 0) > 0, "{r:?}: no loop");
        same_games_fast_and_general(&mut scalar, r, 0..150);
    }
    let mut large = vec![classic(2, 4, 26), classic(2, 4, 52), classic(4, 4, 64)];
    large.extend([classic(8, 4, 32), classic(2, 8, 32)]);
    let mut game = PileGame::<u8, 256>::boxed();
    let mut scalar = PileGame::<u8, 256>::boxed();
    scalar.use_scalar_pass();
    for r in &large {
        let games = same_games_fast_and_general(&mut game, r, 0..12);
        let late = ended(&games, Outcome::Win, 1024);
        assert!(late > 0, "{r:?}: no game went past the watch's start");
        same_games_fast_and_general(&mut scalar, r, 0..12);
    }
    let mut r = classic(2, 4, 255);
    r.max_rounds = 300_000;
    same_games_fast_and_general(&mut PileGame::<u8, 1024>::boxed(), &r, 0..3);
}

#[test]
fn loops_the_cap_decides_skip_their_laps_to_the_same_end() {
    use warsim::engine::WinBy;
    use warsim::engine::rules::Spoils;
    // Under `--at-cap larger-pile` a loop found by the cycle watch is played one lap more to
    // count it, and whole laps are skipped to the cap; single-game mode plays every round. Caps
    // just past the watch's start put the cap inside the counted lap, at its end and just after
    // it; the large ones skip many laps. Wars inside loops (3 × 13, seat pickup, 2 × 5 with no
    // face-down card), loops of a heap that becomes the pile as it lies (the general path) and
    // of 41 cards, on both passes.
    let looping = |suits: u32, ranks: u32, pickup: Pickup, spoils: Spoils| {
        let mut r = Preset::Classic.rules();
        (r.suits, r.ranks, r.pickup, r.spoils) = (suits, ranks, pickup, spoils);
        r.at_cap = AtCap::LargerPile;
        r
    };
    let configs = [
        looping(1, 9, Pickup::Table, Spoils::UnderPile),
        looping(1, 15, Pickup::Natural, Spoils::UnderPile),
        looping(1, 41, Pickup::Table, Spoils::UnderPile),
        looping(3, 13, Pickup::Table, Spoils::UnderPile),
        looping(4, 13, Pickup::Seats, Spoils::UnderPile),
        looping(4, 13, Pickup::Alternating, Spoils::HeapUnshuffled),
        // Wars of no face-down card in every lap of most loops.
        Rules {
            face_down: 0,
            ..looping(2, 5, Pickup::Table, Spoils::UnderPile)
        },
    ];
    let mut game = PileGame::<u8, 64>::boxed();
    let mut scalar = PileGame::<u8, 64>::boxed();
    scalar.use_scalar_pass();
    for mut r in configs {
        let mut decided_in_loops = 0;
        for max_rounds in (1_030..1_130).step_by(7).chain([4_999, 100_000, 1_000_003]) {
            r.max_rounds = max_rounds;
            let seeds = if max_rounds > 100_000 { 0..8 } else { 0..40 };
            let games = same_games_fast_and_general(&mut game, &r, seeds.clone());
            same_games_fast_and_general(&mut scalar, &r, seeds);
            // Past a few thousand rounds, a game the cap decides is one in a loop.
            let at_cap =
                |g: &&GameRecord| matches!(g.win_by, Some(WinBy::Cap | WinBy::SuddenDeath));
            if max_rounds > 4_000 {
                decided_in_loops += games.iter().filter(at_cap).count();
            }
        }
        assert!(
            decided_in_loops > 5,
            "{r:?}: {decided_in_loops} loops reached the cap"
        );
    }
}

#[test]
fn the_many_players_fast_path_plays_what_the_general_path_plays() {
    use warsim::engine::rules::Shortage;
    // Three and four players' plain rounds sixteen at a time (where the processor has SSSE3)
    // and one at a time.
    let mut game = PileGame::<u8, 64>::boxed();
    let mut scalar = PileGame::<u8, 64>::boxed();
    scalar.use_scalar_pass();
    for players in [3, 4, 5, 8, 13, 32] {
        for pickup in [
            Pickup::Table,
            Pickup::WinnerFirst,
            Pickup::LoserFirst,
            Pickup::Seats,
            Pickup::ReverseSeats,
            Pickup::Natural,
            Pickup::Reversed,
            Pickup::Alternating,
        ] {
            for (face_down, shortage) in [
                (1, Shortage::Lose),
                (0, Shortage::Lose),
                (3, Shortage::PlayWhatYouHave),
                (0, Shortage::EndGame),
                (3, Shortage::LoseWhenEmpty),
            ] {
                let mut r = Preset::Classic.rules();
                (r.players, r.pickup, r.face_down, r.shortage) =
                    (players, pickup, face_down, shortage);
                r.max_rounds = 5000;
                same_games_fast_and_general(&mut game, &r, 0..40);
                same_games_fast_and_general(&mut scalar, &r, 0..40);
            }
        }
    }
    // Games that loop with three or four players in: the runs of plain rounds stop where the
    // cycle watch may find the saved position.
    for players in [3, 4] {
        for pickup in [Pickup::Table, Pickup::Natural] {
            let mut r = Preset::Classic.rules();
            (r.players, r.pickup, r.face_down) = (players, pickup, 0);
            (r.suits, r.ranks) = (3, 8);
            let games = same_games_fast_and_general(&mut game, &r, 0..1500);
            let cycles = ended(&games, Outcome::Cycle, 0);
            assert!(
                cycles > 2,
                "{players} players, {pickup:?}: {cycles} games looped"
            );
        }
    }
    // The largest deck, on rings of 1,024 cards: runs of hundreds of plain rounds, whose pile
    // ends (16-bit lanes of one word in the run) grow far past the ring's size.
    let mut big = PileGame::<u8, 1024>::boxed();
    let mut big_scalar = PileGame::<u8, 1024>::boxed();
    big_scalar.use_scalar_pass();
    for players in [3, 4] {
        let mut r = Preset::Classic.rules();
        (r.players, r.ranks, r.max_rounds) = (players, 255, 100_000);
        let games = same_games_fast_and_general(&mut big, &r, 0..3);
        assert!(games.iter().all(|g| g.rounds > 2_000), "{players} players");
        same_games_fast_and_general(&mut big_scalar, &r, 0..3);
    }
}

#[test]
fn the_war_simulator_fast_path_plays_what_the_general_path_plays() {
    // Two players of the groups family: refills in the middle of passes and of wars, wars with
    // a player short or out, nested wars, rounds nobody wins (small decks, where games also
    // get stuck), the cap, and decks up to 1,020 cards.
    let war_simulator = |suits: u32, ranks: u32, face_down: u32, max_rounds: u32| {
        let mut r = Preset::WarSimulator.rules();
        (r.suits, r.ranks, r.face_down, r.max_rounds) = (suits, ranks, face_down, max_rounds);
        r
    };
    // Plain rounds sixteen at a time (where the processor has SSSE3) and one at a time.
    let mut game = PileGame::<u8, 64>::boxed();
    let mut scalar = PileGame::<u8, 64>::boxed();
    scalar.use_scalar_pass();
    let mut outcomes = std::collections::BTreeSet::new();
    for (suits, ranks) in [
        (4, 13),
        (2, 3),
        (4, 2),
        (3, 3),
        (1, 5),
        (8, 4),
        (2, 1),
        (6, 1),
    ] {
        for face_down in [0, 1, 3, 6] {
            for max_rounds in [37, 5000] {
                let r = war_simulator(suits, ranks, face_down, max_rounds);
                for record in same_games_fast_and_general(&mut game, &r, 0..60) {
                    outcomes.insert(format!("{:?}", record.outcome));
                }
                same_games_fast_and_general(&mut scalar, &r, 0..60);
            }
        }
    }
    // Every way a game ends went through the fast path.
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
    // Three or more players: rounds without equal ranks skip the search for groups, and so
    // does the one-pair war of three and four players (these games reach it with refills in
    // it, with players short of a layout or out of cards, and with champions that tie after
    // those refills and go on to the general settling). Three and four players play in a loop
    // of their own on linear halves, which stops at the cap; layouts of more than 16 cards
    // leave every war to the general settling.
    for players in [3, 4, 7, 32] {
        for (suits, ranks) in [(4, 13), (2, 5), (8, 8)] {
            for max_rounds in [37, 5000] {
                let mut r = war_simulator(suits, ranks, 3, max_rounds);
                r.players = players;
                same_games_fast_and_general(&mut game, &r, 0..40);
            }
        }
    }
    // Three and four players on small decks too, where wars nest, go unwon and get stuck.
    let mut outcomes = std::collections::BTreeSet::new();
    for players in [3, 4] {
        for (suits, ranks) in [(4, 13), (6, 1), (4, 2), (3, 3), (8, 4), (2, 7)] {
            for face_down in [0, 1, 3, 15, 16] {
                let mut r = war_simulator(suits, ranks, face_down, 5000);
                r.players = players;
                for record in same_games_fast_and_general(&mut game, &r, 0..40) {
                    outcomes.insert(format!("{:?}", record.outcome));
                }
            }
        }
    }
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    // The larger size classes: blocks with the halves 512 cards apart (256), one round at a
    // time with the halves 1,024 apart (1,024: no room for the blocks' stores). Three and
    // four players: linear halves (256), ring piles (1,024: no room for four regions).
    let mut game = PileGame::<u8, 256>::boxed();
    for players in [2, 3, 4] {
        let mut r = war_simulator(4, 64, 3, 100_000);
        r.players = players;
        same_games_fast_and_general(&mut game, &r, 0..4);
    }
    let mut game = PileGame::<u8, 1024>::boxed();
    for (suits, ranks) in [(4, 64), (4, 255)] {
        same_games_fast_and_general(&mut game, &war_simulator(suits, ranks, 3, 100_000), 0..4);
    }
    for players in [3, 4] {
        for (suits, ranks) in [(4, 13), (4, 64)] {
            let mut r = war_simulator(suits, ranks, 3, 5000);
            r.players = players;
            same_games_fast_and_general(&mut game, &r, 0..20);
        }
    }
}
