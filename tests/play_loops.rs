//! `warsim play` of games that never end: a cycle ends the game under the cap rule `capped`,
//! and under `larger-pile` the game plays on to the cap and names the loop it fell into.

use crate::common;

use common::stdout_of as stdout;

#[test]
fn a_game_without_winner_names_its_outcome() {
    // Seat-order pickup loops in most games: find one in a batch and replay it.
    let csv_text = stdout(&[
        "run", "--pickup", "seats", "--seed", "1", "--games", "20", "--csv", "-", "-q",
    ]);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let row = reader
        .records()
        .map(Result::unwrap)
        .find(|r| &r[4] == "cycle")
        .expect("a cycle in 20 games");
    let line = stdout(&["play", "--pickup", "seats", "--seed", &row[1], "-1"]);
    assert_eq!(
        line,
        format!(
            "Players: 2, seed: {}, outcome: cycle, round: {}\n",
            &row[1], &row[2]
        )
    );
}

#[test]
fn a_loop_the_cap_decides_is_named_with_its_rounds() {
    // Under larger-pile the game plays on to the cap; the loop is named after the result, and
    // the piles shown before the round after each named round are the same. Under `capped` the
    // same game ends where the loop was found.
    let game = ["play", "--suits", "1", "--ranks", "13", "--seed", "1"];
    let larger_pile = [
        &game[..],
        &["--at-cap", "larger-pile", "--max-rounds", "5000"],
    ]
    .concat();
    let text = stdout(&larger_pile);
    assert!(
        text.contains("Player 1 won in round 5000 (decided by cap)\n"),
        "{text}"
    );
    let loop_line = "Loop: the position after round 1151 came back after round 1221; the game repeated those 70 rounds until the cap\n";
    assert!(text.ends_with(loop_line), "{text}");
    let capped = stdout(&[&game[..], &["-1"]].concat());
    assert!(
        capped.ends_with("outcome: cycle, round: 1221\n"),
        "{capped}"
    );
    let verbose = stdout(&[&larger_pile[..], &["--verbose"]].concat());
    let piles_before = |round: u32| -> Vec<&str> {
        let header = format!("Round {round}");
        let mut lines = verbose.lines().skip_while(|line| *line != header).skip(1);
        vec![lines.next().unwrap(), lines.next().unwrap()]
    };
    assert_eq!(piles_before(1152), piles_before(1222));
    for shorter in [1, 2, 5, 7, 10, 14, 35] {
        assert_ne!(
            piles_before(1152),
            piles_before(1152 + shorter),
            "a loop of {shorter}"
        );
    }
    // Games that do not loop, and games of other rules, name no loop.
    let classic = stdout(&["play", "--seed", "3", "--at-cap", "larger-pile"]);
    assert!(!classic.contains("Loop:"), "{classic}");
}

#[test]
fn a_cycle_is_found_where_a_batch_finds_it_and_named_with_its_period() {
    // French bataille on 4 × 3 loops in 2% of its deals, in a cycle of 19 rounds that moves
    // the suits round (they come back after 228): play's cards have suits, and its watch
    // must compare ranks, as a batch's rank-only cards do, to stop where the batch stops.
    let rules = ["--suits", "4", "--ranks", "3"];
    let rules = [&rules[..], &common::BATAILLE[..]].concat();
    let batch = [
        &["run", "--seed", "5", "--games", "2000", "--csv", "-", "-q"][..],
        &rules,
    ]
    .concat();
    let csv_text = stdout(&batch);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let cycles: Vec<_> = reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[4] == "cycle")
        .collect();
    assert!(cycles.len() >= 20, "{} cycles in 2,000 games", cycles.len());
    for row in &cycles {
        let replay = [
            &["play", "--batch-seed", "5", "--game", &row[0], "-q"][..],
            &rules,
        ]
        .concat();
        let text = stdout(&replay);
        let rounds: u32 = row[2].parse().unwrap();
        let (ended, named) = (
            format!("No winner: cycle after round {rounds}\n"),
            format!(
                "came back after round {rounds}; the game would repeat those 19 rounds forever\n"
            ),
        );
        assert!(
            text.contains(&ended) && text.ends_with(&named),
            "game {}: {text}",
            &row[0]
        );
    }
}
