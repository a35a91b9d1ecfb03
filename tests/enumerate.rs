//! `warsim enumerate` against the published exhaustive enumerations of French bataille
//! (cristal-smac/bataille's records, bataille_cpp's results/), against exact facts (deal
//! counts, symmetry of the seats), and as a command: its outputs, and figures that do not
//! depend on --threads. (What it refuses, and what a stopped one leaves:
//! `enumerate_refusals.rs`.)

use crate::common;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;
use warsim::batch::Workers;
use warsim::engine::rules::{AtCap, Pickup, Shortage};
use warsim::engine::{Preset, Rules, WinBy};
use warsim::enumerate::{DealSet, Plan, Tally};

use common::BATAILLE;

fn bataille(suits: u32, ranks: u32) -> Rules {
    let mut r = Preset::Classic.rules();
    (r.pickup, r.shortage, r.face_down) = (Pickup::Natural, Shortage::EndGame, 0);
    (r.suits, r.ranks) = (suits, ranks);
    r
}

fn tally(rules: &Rules, set: DealSet) -> Tally {
    Plan::new(rules, set, 1 << 40)
        .unwrap()
        .run(&Workers::new(2).unwrap(), &|_| {}, &|| false)
        .unwrap()
}

#[test]
fn four_suits_of_two_ranks_never_loop_and_last_5_26_cards_a_player() {
    // records_C4_naturelle.py: 38 deals, no cycle, mean 5.26 cards laid by each player, the
    // longest game 8 cards each (4 tricks): 1 1 2 2 | 1 2 2 1.
    let t = tally(&bataille(4, 2), DealSet::Unordered);
    assert_eq!((t.deals, t.cycled, t.capped), (38, 0, 0));
    assert_eq!(
        (t.cards_sum(), t.finite() * 2),
        (400, 76),
        "400 / 76 = 5.263"
    );
    let most = t.longest_by_cards.clone().unwrap();
    assert_eq!((most.cards_played, most.rounds), (16, 4));
    assert_eq!(most.deal, [1, 1, 2, 2, 1, 2, 2, 1]);
}

#[test]
fn four_suits_of_three_ranks_have_one_cycle_of_period_19() {
    // records_C4_naturelle.py: 17,370 deals, 360 of them loop, all into one cycle of 19
    // tricks; the longest game is 37 tricks, 54 cards each; mean 13.43 cards each.
    let t = tally(&bataille(4, 3), DealSet::Unordered);
    assert_eq!((t.deals, t.cycled), (17_370, 360));
    assert_eq!(t.cycles_up_to_mirror(), 1);
    assert!(t.cycles.values().all(|c| c.period == 19));
    let longest = t.longest.clone().unwrap();
    assert_eq!((longest.rounds, longest.cards_played), (37, 108));
    assert_eq!(longest.deal, [2, 1, 3, 1, 3, 2, 2, 3, 3, 1, 1, 2]);
    assert_eq!((t.cards_sum(), t.finite() * 2), (456_892, 34_020), "13.43");
    // bataille_cpp counts the first half of the sequences in lexicographic order: 388 loop.
    assert_eq!(tally(&bataille(4, 3), DealSet::LexHalf).cycled, 388);
}

#[test]
fn loops_decided_at_the_cap_are_the_deals_that_cycle_without_it() {
    // Under --at-cap larger-pile each of the 720 looping deals is decided at the cap, by the
    // larger pile or by sudden death; every other deal ends as it did, by its cards.
    let looping = tally(&bataille(4, 3), DealSet::All);
    let mut rules = bataille(4, 3);
    (rules.at_cap, rules.max_rounds) = (AtCap::LargerPile, 1_001);
    let decided = tally(&rules, DealSet::All);
    let by = |t: &Tally, how: WinBy| t.win_by[how as usize];
    assert_eq!(
        (looping.cycled, decided.cycled, decided.draws),
        (720, 0, looping.draws)
    );
    let at_cap = by(&decided, WinBy::Cap) + by(&decided, WinBy::SuddenDeath);
    assert_eq!(at_cap, 720);
    for how in [WinBy::Cards, WinBy::ShortTie] {
        assert_eq!(by(&decided, how), by(&looping, how), "{how:?}");
    }
    assert_eq!(
        by(&looping, WinBy::Cap) + by(&looping, WinBy::SuddenDeath),
        0
    );
}

#[test]
fn every_deal_counts_each_pair_of_hands_both_ways() {
    // All 34,650 sequences: each unordered pair of distinct hands twice, seats swapped, so
    // seat 1's wins are seat 2's wins of the swapped deals: the totals are symmetric.
    let all = tally(&bataille(4, 3), DealSet::All);
    assert_eq!(all.deals, 34_650);
    assert_eq!(all.wins[0], all.wins[1]);
    assert_eq!(
        all.cycled, 720,
        "360 unordered, none of them a pair of equal hands"
    );
    assert_eq!(all.cycles.len(), 2, "the cycle and its mirror image");
    let sum: u64 = all.wins.iter().sum::<u64>() + all.draws + all.cycled + all.capped;
    assert_eq!(sum, all.deals);
}

#[test]
fn the_unordered_deals_counted_before_play_are_those_played() {
    // Half of the sequences, and half of those whose two hands are alike (every count even):
    // 4 × 3 has 90 such, 2 × 4 has 24, 3 × 4 and 1 × 8 none.
    for (suits, ranks) in [(4, 3), (2, 4), (3, 4), (1, 8), (2, 1)] {
        let rules = bataille(suits, ranks);
        let plan = Plan::new(&rules, DealSet::Unordered, 1 << 40).unwrap();
        let counts = vec![suits; ranks as usize];
        let counted = DealSet::Unordered.played(&counts, plan.sequences);
        let played = tally(&rules, DealSet::Unordered).deals;
        assert_eq!(u128::from(played), counted, "{suits} × {ranks}");
        assert_eq!(DealSet::All.played(&counts, plan.sequences), plan.sequences);
    }
}

#[test]
fn single_suit_decks_loop_as_bataille_cpp_counts() {
    // bataille_cpp's results/c1v5.txt ... c1v9.txt: 30 of 120, 0 of 360, 2,304 of 5,040,
    // 0 of 20,160 (halved: even decks), 218,680 of 362,880 deals loop.
    for (ranks, deals, cycled) in [
        (5, 120, 30),
        (6, 360, 0),
        (7, 5_040, 2_304),
        (8, 20_160, 0),
        (9, 362_880, 218_680),
    ] {
        let t = tally(&bataille(1, ranks), DealSet::LexHalf);
        assert_eq!((t.deals, t.cycled), (deals, cycled), "1 suit × {ranks}");
    }
}

#[test]
fn the_command_writes_the_same_figures_whatever_the_thread_count() {
    let dir = TempDir::new().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let json = dir.path().join(format!("t{threads}.json"));
        let histogram = dir.path().join(format!("t{threads}.csv"));
        Command::cargo_bin("warsim")
            .unwrap()
            .args([
                "enumerate",
                "--suits",
                "3",
                "--ranks",
                "3",
                "--threads",
                threads,
            ])
            .args(BATAILLE)
            .arg("--json")
            .arg(&json)
            .arg("--histogram")
            .arg(&histogram)
            .assert()
            .success();
        let figures: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        outputs.push((figures, std::fs::read_to_string(&histogram).unwrap()));
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let (figures, histogram) = &outputs[0];
    for key in [
        "deals",
        "win",
        "draw",
        "cycle",
        "seat1_wins",
        "seat2_wins",
        "rounds_mean",
    ] {
        assert!(figures.get(key).is_some(), "--json lacks {key}");
    }
    assert_eq!(figures["deals"], 1_680, "9!/(3!)^3");
    let rows: u64 = histogram
        .lines()
        .filter(|l| l.starts_with("rounds,"))
        .map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(Some(rows), figures["finite"].as_u64());
    // Shares of every deal, as a run's of every game: the 629 looping deals never end.
    let last = histogram
        .lines()
        .rfind(|l| l.starts_with("rounds,"))
        .unwrap();
    assert_eq!(figures["cycle"], 629);
    assert!(last.ends_with(",0.625595238,0.374404762"), "{last}");
}

#[test]
fn the_summary_names_the_rules_as_runs_do_in_plain_ascii() {
    // Setting by setting, as `warsim run --summary` writes them, so the two join in a notebook;
    // no ×, no →: a spreadsheet that takes the file for another code page reads it right.
    let dir = TempDir::new().unwrap();
    let summary = |command: &[&str], name: &str| {
        let path = dir.path().join(name);
        Command::cargo_bin("warsim")
            .unwrap()
            .args(command)
            .args(["--suits", "2", "--ranks", "3", "-q", "--summary"])
            .arg(&path)
            .args(BATAILLE)
            .assert()
            .success();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.is_ascii(), "{text}");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        header
            .iter()
            .zip(row.iter())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };
    let enumerated = summary(&["enumerate"], "enumerate.csv");
    let run = summary(&["run", "--games", "10"], "run.csv");
    let generator = run.iter().position(|(key, _)| key == "generator").unwrap();
    assert_eq!(enumerated[..=generator], run[..=generator]);
    assert_eq!(enumerated[generator + 1].0, "deal_set");
}

#[test]
fn hands_are_cut_to_the_sizes_runs_deal_the_first_seats_one_card_more() {
    // The deal shown with the longest game: one suit of 7 cut 4 | 3, 10 cards for three
    // players 4 | 3 | 3 (the cut gave the extra cards to the last seats).
    let figures = common::stdout_of(&["enumerate", "--suits", "1", "--ranks", "7"]);
    let cut = figures.lines().find(|l| l.starts_with("longest")).unwrap();
    let (first, second) = cut.rsplit_once(": ").unwrap().1.split_once(" | ").unwrap();
    assert_eq!(
        (first.split(' ').count(), second.split(' ').count()),
        (4, 3),
        "{cut}"
    );
    let figures = common::stdout_of(&[
        "enumerate",
        "--players",
        "3",
        "--suits",
        "2",
        "--ranks",
        "5",
    ]);
    let cut = figures.lines().find(|l| l.starts_with("longest")).unwrap();
    let hands: Vec<usize> = cut
        .rsplit_once(": ")
        .unwrap()
        .1
        .split(" | ")
        .map(|hand| hand.split(' ').count())
        .collect();
    assert_eq!(hands, [4, 3, 3], "{cut}");
    // 67 cards among three players: to 4 places, as the means are.
    assert!(figures.contains("most cards   67 laid (22.3333 per player), 28 rounds"));
}

#[test]
fn the_report_counts_one_in_the_singular_and_gives_capped_deals_their_share() {
    // Two cards of one rank: one deal, one round, a draw.
    let report = warsim_enumerate(&["--suits", "2", "--ranks", "1"]);
    assert!(report.contains("max 1   (1 finite game)\n"), "{report}");
    assert!(
        report.contains("longest      1 round, 2 cards laid: 1 | 1\n"),
        "{report}"
    );
    assert!(
        report.contains("(1 per player), 1 round: 1 | 1\n"),
        "{report}"
    );
    // Capped deals have their share like every other outcome: 2,156 of 34,650.
    let capped = warsim_enumerate(&["--suits", "4", "--ranks", "3", "--max-rounds", "20"]);
    assert!(capped.contains("   capped 2,156 (6.2222%)\n"), "{capped}");
}

/// The report of `warsim enumerate ARGS` under French bataille's rules.
fn warsim_enumerate(args: &[&str]) -> String {
    let command = Command::cargo_bin("warsim")
        .unwrap()
        .arg("enumerate")
        .args(args)
        .args(BATAILLE)
        .output();
    String::from_utf8(command.unwrap().stdout).unwrap()
}
