//! `warsim play`: war_card_game's output levels and seeds, replay of batch games and the
//! fixed-rounds report (interactive play is in play_interactive.rs, games that never end in
//! play_loops.rs).

use crate::common;

use common::warsim;

use common::stdout_of as stdout;

// The deck lines war_card_game prints for `war_card_game --seed 10`, character for character. The crate
// labels its hands at random per process; warsim's Player 1 receives the deck's last card, so
// the document's "P2:" hand is warsim's P1.
const UNSHUFFLED: &str = "Deck: 🃒  🃂  🂲  🂢  🃓  🃃  🂳  🂣  🃔  🃄  🂴  🂤  🃕  🃅  🂵  🂥  🃖  🃆  🂶  🂦  🃗  🃇  🂷  🂧  🃘  🃈  🂸  🂨  🃙  🃉  🂹  🂩  🃚  🃊  🂺  🂪  🃛  🃋  🂻  🂫  🃝  🃍  🂽  🂭  🃞  🃎  🂾  🂮  🃑  🃁  🂱  🂡";
const SHUFFLED: &str = "Deck: 🃎  🃖  🂺  🃘  🂥  🂭  🃙  🃁  🂱  🂲  🃝  🂸  🃑  🃂  🃓  🂶  🂾  🂤  🂡  🂵  🂫  🂮  🃅  🃊  🂽  🂣  🂦  🃉  🃚  🃋  🃞  🂻  🃔  🃒  🃕  🂷  🂢  🂩  🂨  🃈  🃍  🂴  🂧  🃇  🂪  🃃  🃛  🃆  🂹  🃄  🂳  🃗";
const HAND_OF_LAST_CARD: &str =
    "🃗  🃄  🃆  🃃  🃇  🂴  🃈  🂩  🂷  🃒  🂻  🃋  🃉  🂣  🃊  🂮  🂵  🂤  🂶  🃂  🂸  🂲  🃁  🂭  🃘  🃖";
const OTHER_HAND: &str =
    "🂳  🂹  🃛  🂪  🂧  🃍  🂨  🂢  🃕  🃔  🃞  🃚  🂦  🂽  🃅  🂫  🂡  🂾  🃓  🃑  🃝  🂱  🃙  🂥  🂺  🃎";

fn trimmed(text: &str) -> Vec<&str> {
    text.lines().map(str::trim_end).collect()
}

#[test]
fn one_line_level_matches_war_card_game() {
    assert_eq!(
        stdout(&["play", "--rules", "war-card-game", "--seed", "10", "-1"]),
        "Players: 2, seed: 10, winner: Player 2, winning round: 146\n"
    );
    assert_eq!(
        stdout(&[
            "play",
            "--rules",
            "war-card-game",
            "--seed",
            "10",
            "-o",
            "one-line"
        ]),
        stdout(&[
            "play",
            "--rules",
            "war-card-game",
            "--seed",
            "10",
            "--one-line"
        ])
    );
}

#[test]
fn normal_level_prints_the_seed_documents_decks_and_hands() {
    let text = stdout(&["play", "--rules", "war-card-game", "--seed", "10"]);
    let lines = trimmed(&text);
    assert_eq!(
        lines,
        vec![
            "Starting game!",
            UNSHUFFLED,
            "Shuffling deck with seed 10",
            SHUFFLED,
            "",
            "Let's deal!",
            "Starting setup:",
            &format!("P1: {HAND_OF_LAST_CARD}"),
            &format!("P2: {OTHER_HAND}"),
            "",
            "Game over!",
            "Player 2 won in round 146",
            "Player 1 lost in 146",
            "Longest war: 2",
            "Wars: 10",
        ]
    );
}

#[test]
fn quiet_level_is_seed_deck_and_result() {
    let text = stdout(&["play", "--rules", "war-card-game", "--seed", "10", "-q"]);
    assert_eq!(
        trimmed(&text),
        vec![
            "Shuffling deck with seed 10",
            SHUFFLED,
            "",
            "Player 2 won in round 146",
            "Player 1 lost in 146"
        ]
    );
}

#[test]
fn verbose_level_shows_every_round_like_the_seed_document() {
    let text = stdout(&["play", "--rules", "war-card-game", "--seed", "10", "-v"]);
    let lines = trimmed(&text);
    let round1 = lines.iter().position(|l| *l == "Round 1").unwrap();
    assert_eq!(
        lines[round1..round1 + 6],
        [
            "Round 1",
            &format!("P1: {HAND_OF_LAST_CARD}"),
            &format!("P2: {OTHER_HAND}"),
            "P1 🃗  P2 🂳",
            "Round 1 winner is Player 1",
            "",
        ]
    );
    let last = lines.iter().position(|l| *l == "Round 146").unwrap();
    assert_eq!(lines[last + 1], "P1: 🃂");
    assert_eq!(
        lines[last + 3..last + 5],
        ["P2 🃖  P1 🃂", "Round 146 winner is Player 2"]
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("Round ") && l.contains("winner"))
            .count(),
        146
    );
    // A war shows the face-down cards, then the face-up table.
    let war = lines
        .iter()
        .position(|l| l.contains('\u{1F0A0}'))
        .expect("seed 10 has wars");
    assert!(
        lines[war].starts_with("P1 \u{1F0A0}  P2 \u{1F0A0}")
            || lines[war].starts_with("P2 \u{1F0A0}")
    );
}

#[test]
fn a_seed_range_prints_the_crates_readme_lines() {
    let text = stdout(&["play", "--rules", "war-card-game", "--range", "0-10"]);
    let rounds: Vec<u32> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            assert!(
                l.starts_with(&format!("Players: 2, seed: {i}, winner: Player ")),
                "{l}"
            );
            l.rsplit(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(
        rounds,
        [118, 176, 568, 654, 164, 126, 230, 116, 516, 380, 146]
    );
    let out = warsim().args(["play", "--range", "9-3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--range"));
}

/// (rounds, winner, wars, longest war) of game `game` as `warsim play` reports it.
fn replayed(rules: &str, batch_seed: &str, game: u64) -> (String, String, String, String) {
    let text = stdout(&[
        "play",
        "--rules",
        rules,
        "--batch-seed",
        batch_seed,
        "--game",
        &game.to_string(),
    ]);
    let line = |prefix: &str| {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or("")
            .to_string()
    };
    let won = line("Player ");
    let (winner, rounds) = if won.contains(" won in round ") {
        let w = won["Player ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        // "Player 2 won in round 144", maybe followed by " (decided by short_tie)".
        let after = won.split(" won in round ").nth(1).unwrap();
        (w, after.split(' ').next().unwrap().to_string())
    } else {
        let r = line("No winner").rsplit(' ').next().unwrap().to_string();
        (String::new(), r)
    };
    let value = |prefix: &str| line(prefix)[prefix.len()..].to_string();
    (rounds, winner, value("Wars: "), value("Longest war: "))
}

#[test]
fn replay_reproduces_rows_of_a_batch_csv() {
    for rules in ["classic", "war-simulator", "cards-war"] {
        let csv_text = stdout(&[
            "run", "--rules", rules, "--seed", "42", "--games", "9000", "--csv", "-", "-q",
        ]);
        let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        for game in [0u64, 1, 4097, 8999] {
            let row = &rows[game as usize];
            let expected = (
                row[2].to_string(),
                row[3].to_string(),
                row[5].to_string(),
                row[6].to_string(),
            );
            assert_eq!(replayed(rules, "42", game), expected, "{rules} game {game}");
        }
    }
}

#[test]
fn the_csv_seed_replays_its_game_with_play_seed() {
    let csv_text = stdout(&["run", "--seed", "7", "--games", "5", "--csv", "-", "-q"]);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let row = reader.records().nth(3).unwrap().unwrap();
    let line = stdout(&["play", "--seed", &row[1], "-1"]);
    assert_eq!(
        line,
        format!(
            "Players: 2, seed: {}, winner: Player {}, winning round: {}\n",
            &row[1], &row[3], &row[2]
        )
    );
}

#[test]
fn decks_the_unicode_set_cannot_show_print_rank_and_suit() {
    let text = stdout(&["play", "--suits", "2", "--ranks", "3", "-q"]);
    let deck = text.lines().nth(1).unwrap();
    let mut cards: Vec<&str> = deck
        .trim_start_matches("Deck: ")
        .split_whitespace()
        .collect();
    cards.sort_unstable();
    assert_eq!(cards, ["1/1", "1/2", "2/1", "2/2", "3/1", "3/2"]);
}

#[test]
fn fixed_rounds_report_has_the_seed_documents_layout() {
    let text = stdout(&["play", "--rules", "fixed-rounds", "--seed", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    let headers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == "Round\tPlayer 1 Card\tPlayer 2 Card\tWinner\tP1 Score\tP2 Score")
        .collect();
    assert_eq!(headers.len(), 10, "ten matches");
    for &h in &headers {
        assert_eq!(
            lines[h - 1],
            format!(
                "Match {}",
                headers.iter().position(|&x| x == h).unwrap() + 1
            )
        );
        let mut scores = (0, 0);
        for round in 1..=26 {
            let cells: Vec<&str> = lines[h + round].split('\t').collect();
            assert_eq!(cells[0], round.to_string());
            let (a, b): (u32, u32) = (cells[1].parse().unwrap(), cells[2].parse().unwrap());
            let expected = if a > b {
                "P1"
            } else if b > a {
                "P2"
            } else {
                "Tie"
            };
            assert_eq!(cells[3], expected);
            scores.0 += u32::from(a > b);
            scores.1 += u32::from(b > a);
            assert_eq!(
                (cells[4], cells[5]),
                (scores.0.to_string().as_str(), scores.1.to_string().as_str())
            );
        }
        assert!(
            lines[h + 27].starts_with("Final Game Result: "),
            "{}",
            lines[h + 27]
        );
    }
    let stats = lines.iter().position(|l| *l == "Final Statistics").unwrap();
    assert_eq!(
        lines[stats + 1],
        "Game\tWinner\tPlayer 1 Wins\tPlayer 2 Wins\tTies"
    );
    assert_eq!(lines[stats + 2..stats + 12].len(), 10);
    // The totals agree with the batch of the same ten matches.
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "run",
        "--rules",
        "fixed-rounds",
        "--seed",
        "3",
        "--games",
        "10",
        "--json",
        "-",
    ]))
    .unwrap();
    let total = |label: &str| {
        lines.iter().find(|l| l.starts_with(label)).unwrap()[label.len()..].to_string()
    };
    assert_eq!(
        total("- Player 1 total wins: "),
        json["seat1_wins"].to_string()
    );
    assert_eq!(
        total("- Player 2 total wins: "),
        json["seat2_wins"].to_string()
    );
    assert_eq!(total("- Tied matches: "), json["draw"].to_string());
    let tied_rounds = (json["wars_per_game"].as_f64().unwrap() * 10.0).round() as u64;
    assert_eq!(total("- Tied rounds: "), tied_rounds.to_string());
    let combined = tied_rounds + json["draw"].as_u64().unwrap();
    assert_eq!(
        total("- Total ties (tied rounds + tied matches, the seed report's single counter): "),
        combined.to_string()
    );
    let p1 = json["seat1_wins"].as_u64().unwrap() as f64 * 10.0;
    assert_eq!(total("- Player 1 win percentage: "), format!("{p1:.1}%"));
    // --matches changes the count; quiet keeps only the statistics.
    let two = stdout(&[
        "play",
        "--rules",
        "fixed-rounds",
        "--seed",
        "3",
        "--matches",
        "2",
        "-q",
    ]);
    assert!(!two.contains("Match 1") && two.contains("Final Statistics"));
    assert_eq!(
        two.lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .count(),
        2
    );
}
