//! `warsim play --deal`: games from given hands, written as `warsim enumerate` prints its deals
//! and cycles; they replay to the enumeration's figures, and bad hands are refused before any
//! game is played.

use assert_cmd::Command;

use crate::common;

use common::{BATAILLE, stdout_of as stdout};

fn play_deal(rules: &[&str], deal: &str, level: &str) -> String {
    stdout(&[&["play", level, "--deal", deal][..], rules].concat())
}

#[test]
fn a_given_deal_is_played_as_written() {
    // One suit of three: seat 1 holds 3 over 1, seat 2 the 2; 3 beats 2 and seat 2 is out.
    let verbose = play_deal(&["--suits", "1", "--ranks", "3"], "3 1 | 2", "-v");
    let lines: Vec<&str> = verbose.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            "Starting game!",
            "Dealing the given hands (seed 0 for chance after the deal)",
            "Deck: 3/1  1/1  2/1",
            "",
            "Let's deal!",
            "Starting setup:",
            "P1: 3/1  1/1",
            "P2: 2/1",
            "",
            "Round 1",
            "P1: 3/1  1/1",
            "P2: 2/1",
            "P1 3/1  P2 2/1",
            "Round 1 winner is Player 1",
            "",
            "Game over!",
            "Player 1 won in round 1",
            "Player 2 lost in 1",
            "Longest war: 0",
            "Wars: 0",
            "P1: 1/1  3/1  2/1",
        ]
    );
}

#[test]
fn the_deals_and_cycles_enumerate_prints_replay_to_its_figures() {
    let bataille = [&["--suits", "4", "--ranks", "3"][..], &BATAILLE[..]].concat();
    let seats = ["--suits", "1", "--ranks", "7", "--pickup", "seats"];
    for rules in [&bataille[..], &seats[..]] {
        let figures: serde_json::Value = serde_json::from_str(&stdout(
            &[&["enumerate", "--json", "-"][..], rules].concat(),
        ))
        .unwrap();
        let deal = figures["longest_deal"].as_str().unwrap();
        let line = play_deal(rules, deal, "-1");
        let rounds = &figures["rounds_max"];
        assert!(
            line.ends_with(&format!("winning round: {rounds}\n")),
            "{deal}: {line}"
        );
        for cycle in figures["cycles"].as_array().unwrap() {
            let position = cycle["position"].as_str().unwrap();
            let line = play_deal(rules, position, "-1");
            assert!(line.contains("outcome: cycle"), "{position}: {line}");
        }
    }
    assert_eq!(
        play_deal(&seats, "1 3 5 6 | 7 2 4", "-1"),
        "Players: 2, seed: 0, winner: Player 2, winning round: 26\n",
        "the longest of enumerate's report"
    );
    // Commas separate ranks as spaces do (a list copied from a table or a notebook).
    for commas in ["1,3,5,6|7,2,4", "1, 3, 5, 6 | 7, 2, 4"] {
        assert_eq!(
            play_deal(&seats, commas, "-1"),
            "Players: 2, seed: 0, winner: Player 2, winning round: 26\n",
            "{commas}"
        );
    }
}

#[test]
fn the_seed_draws_only_what_comes_after_the_deal() {
    let shuffled = ["--suits", "2", "--ranks", "5", "--pickup", "shuffled"];
    let deal = "5 1 4 2 3 | 1 5 2 4 3";
    let lines: Vec<String> = (0..20)
        .map(|seed| {
            play_deal(
                &[&shuffled[..], &["--seed", &seed.to_string()]].concat(),
                deal,
                "-1",
            )
        })
        .collect();
    let games: std::collections::BTreeSet<_> = lines
        .iter()
        .map(|l| l.split_once(", ").unwrap().1.split_once(", ").unwrap().1)
        .collect();
    assert!(
        games.len() > 1,
        "every seed played the same game: {lines:?}"
    );
    let again = play_deal(&[&shuffled[..], &["--seed", "7"]].concat(), deal, "-1");
    assert_eq!(again, lines[7]);
}

#[test]
fn bad_deals_are_refused_with_exit_2_before_any_game() {
    let refused: &[(&[&str], &str, &str)] = &[
        (&[], "1 2 3", "--deal has 1 hand for 2 players (--players)"),
        (
            &[],
            "1 x | 2",
            "--deal 'x' is not a rank: write ranks top card first",
        ),
        (
            &[],
            "1 14 | 2",
            "--deal has rank 14, and the deck's ranks are 1 to 13 (--ranks)",
        ),
        (&[], "1 99999999999 | 2", "--deal has rank 99999999999, and"),
        (
            &["--suits", "1", "--ranks", "3"],
            "1 2 |",
            "--deal gives seat 2 no card: every seat starts with one at least",
        ),
        (
            &["--suits", "1", "--ranks", "3"],
            "1 2 | 2",
            "--deal holds 2 of rank 2, and the deck in play 1 (--suits 1 --ranks 3): give every \
             card once",
        ),
        (
            &[],
            "1 1 | 1 1",
            "--deal holds 4 cards, and the deck in play 52 (--suits 4 --ranks 13): deal every \
             card once, or give --suits and --ranks of the deck dealt",
        ),
        (
            &["--suits", "1", "--ranks", "3"],
            "1 | 2 | 3 |",
            "--deal gives seat 1 a heap",
        ),
        (
            &["--rules", "fixed-rounds"],
            "1 | 2",
            "--rules fixed-rounds deals each player a deck of its own",
        ),
        (
            &["--range", "0-3"],
            "1 | 2",
            "'--deal <HANDS>' cannot be used with",
        ),
        (
            &["--interactive"],
            "1 | 2",
            "'--deal <HANDS>' cannot be used with",
        ),
    ];
    for (args, deal, says) in refused {
        let out = Command::cargo_bin("warsim")
            .unwrap()
            .args(["play", "--deal", deal])
            .args(*args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {deal}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(says),
            "{args:?} {deal}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?} {deal}: nothing played");
    }
}
