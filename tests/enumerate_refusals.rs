//! What `warsim enumerate` refuses before it plays (rules with chance after the deal, deals
//! not all alike, decks with too many deals, bad thread counts: one `error:` line, exit 2,
//! nothing played), and what an enumeration stopped by a signal without a state file leaves:
//! nothing but its older files.

use crate::common;

use assert_cmd::Command;
use common::EndsWithTest;
use tempfile::TempDir;
use warsim::engine::Preset;
use warsim::engine::rules::Uneven;
use warsim::enumerate::{DealSet, Plan};

#[test]
fn rules_with_chance_after_the_deal_huge_decks_and_bad_thread_counts_are_refused_with_exit_2() {
    let refused: &[(&[&str], &str)] = &[
        (
            &["--suits", "2", "--ranks", "3", "--pickup", "shuffled"],
            "--pickup shuffled",
        ),
        (
            &["--suits", "2", "--ranks", "3", "--spoils", "heap"],
            "--spoils heap",
        ),
        (
            &["--rules", "war-simulator", "--suits", "2", "--ranks", "3"],
            "war-simulator",
        ),
        (
            &["--rules", "game-of-war", "--suits", "2", "--ranks", "3"],
            "--reshuffle-every 100",
        ),
        // Deals not all equally likely, or not of one shared deck: weighing every deal alike
        // would not give the game's figures.
        (
            &["--suits", "2", "--ranks", "3", "--shuffle", "sattolo"],
            "--shuffle sattolo deals some sequences of ranks more often than others",
        ),
        (
            &["--suits", "2", "--ranks", "3", "--shuffle", "swap-any"],
            "--shuffle swap-any",
        ),
        (
            &["--rules", "fixed-rounds", "--suits", "1", "--ranks", "3"],
            "--rules fixed-rounds deals each player a deck of its own",
        ),
        (&[], "deals to play"),
        // Past any float (255! is about 3.35e504: it was written "inf"), and past any
        // --max-deals: no "raise --max-deals".
        (
            &["--suits", "4", "--ranks", "255"],
            ": about 5.51e2275 deals to play with --deals all, more than warsim can go through \
             (at most 18,446,744,073,709,551,615 sequences, the largest --max-deals); use a \
             smaller deck",
        ),
        (
            &[
                "--suits", "1", "--ranks", "255", "--shard", "0/1000", "--state", "-",
            ],
            ": about 3.35e504 deals to play with --deals all, more than warsim can go through",
        ),
        // Past 2^64 sequences, written out exactly (it wrapped around to 11,135,… once).
        (
            &["--suits", "4", "--ranks", "7"],
            ": 66,475,579,247,327,250,000 deals to play with --deals all",
        ),
        // --deals unordered goes through every sequence and plays about half of them.
        (
            &[
                "--suits",
                "4",
                "--ranks",
                "3",
                "--deals",
                "unordered",
                "--max-deals",
                "100",
            ],
            ": 34,650 sequences to go through (17,370 deals to play) with --deals unordered, more \
             than --max-deals 100 allows",
        ),
        (
            &["--suits", "4", "--ranks", "4", "--max-deals", "1000"],
            "63,063,000 deals",
        ),
        (
            &[
                "--suits",
                "2",
                "--ranks",
                "1",
                "--deals",
                "unordered",
                "--max-deals",
                "0",
            ],
            "1 deal to play",
        ),
        (
            &["--suits", "3", "--ranks", "3", "--deals", "unordered"],
            "--deals unordered",
        ),
        (
            &["--players", "3", "--deals", "lex-half"],
            "--deals lex-half needs two players",
        ),
        // --continue continues a state file's checkpoint: without one it has nothing to do.
        (
            &["--suits", "2", "--ranks", "3", "--continue"],
            "--continue needs --state PATH: the state file whose checkpoint it continues from",
        ),
        (
            &["--suits", "2", "--ranks", "3", "--state", "-", "--continue"],
            "--continue needs --state to name a file, not '-'",
        ),
        // As for run and sweep: rayon reads 0 as "all cores", and a million threads fail.
        (
            &["--suits", "2", "--ranks", "3", "--threads", "0"],
            "--threads 0 is out of range: use 1 to 1024",
        ),
        (
            &["--suits", "2", "--ranks", "3", "--threads", "1e6"],
            "--threads 1000000 is out of range",
        ),
    ];
    for (args, names) in refused {
        let out = Command::cargo_bin("warsim")
            .unwrap()
            .arg("enumerate")
            .args(*args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(names),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: nothing played");
    }
}

#[test]
fn dropped_cards_are_refused_and_a_deck_that_divides_drops_none() {
    let mut rules = Preset::Classic.rules();
    (rules.suits, rules.ranks, rules.uneven) = (1, 5, Uneven::DropLowest);
    let refusal = Plan::new(&rules, DealSet::All, 1 << 20).unwrap_err();
    assert!(
        refusal
            .to_string()
            .starts_with("--rules classic drops cards to deal the deck evenly"),
        "{refusal}"
    );
    rules.ranks = 6;
    assert!(Plan::new(&rules, DealSet::All, 1 << 20).is_ok());
}

#[test]
fn an_interrupted_enumeration_writes_nothing_and_says_why() {
    use std::process::{Command as Process, Stdio};
    let dir = TempDir::new().unwrap();
    let json = dir.path().join("deck.json");
    std::fs::write(&json, "an older file").unwrap();
    // 63 million deals: far from done when the signal comes.
    let child = Process::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["enumerate", "--suits", "4", "--ranks", "4", "--json"])
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    common::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.starts_with("interrupted (SIGINT, Ctrl-C) with ")
            && stderr.ends_with(
                "% of the deals played: an enumeration's figures are exact only over every deal, \
                 so no report and no file was written (with --state PATH an enumeration keeps \
                 the counts of the deals played, to resume)\n"
            ),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no report of part of the deals");
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "an older file");
}
