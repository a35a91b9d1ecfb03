//! `warsim merge`: the states of 1 to 7 shards merge into exactly the single run's figures
//! (every summary key but threads, wall time and games/s, and the histogram byte for byte) for
//! rule sets that between them make every outcome and every way of winning, in any order,
//! given on the command line or listed (`--states-from`); the report and plot are the single
//! run's; a state on standard output is one document. Refusals are in merge_refusals.rs.

use crate::common;

use std::path::PathBuf;

use common::{json, shard_states, warsim};
use tempfile::TempDir;
use warsim::engine::{Outcome, WinBy};

/// How the runs went: the only keys a merge cannot reproduce.
const RUN_TIME: [&str; 3] = ["threads", "wall_seconds", "games_per_second"];

#[test]
fn merged_shards_are_the_single_run() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name);
    // The counts some rule set below makes non-zero: each must go through the states.
    let mut counted = std::collections::BTreeSet::new();
    for rules in [
        &["--rules", "classic"][..],
        &["--rules", "war-card-game"],
        &["--rules", "war-simulator", "--players", "3"],
        &["--rules", "cards-war", "--suits", "3", "--ranks", "5"],
        &["--rules", "fixed-rounds"],
        &[
            "--rules",
            "classic",
            "--players",
            "4",
            "--max-rounds",
            "300",
        ],
        // Wins at the cap and by sudden death; abandoned games.
        &["--rules", "game-of-war", "--max-rounds", "100"],
        &[
            "--rules",
            "war-simulator-original",
            "--players",
            "4",
            "--ranks",
            "2",
            "--abandon-after",
            "2",
        ],
    ] {
        warsim()
            .args([
                "run",
                "--games",
                "3000",
                "--seed",
                "13",
                "-q",
                "--threads",
                "2",
            ])
            .args(rules)
            .arg("--json")
            .arg(p("whole.json"))
            .arg("--histogram")
            .arg(p("whole.csv"))
            .assert()
            .success();
        let whole = json(&p("whole.json"));
        for (key, value) in whole.as_object().unwrap() {
            if value.as_u64().is_some_and(|count| count > 0) {
                counted.insert(key.clone());
            }
        }
        for count in [1, 2, 3, 5, 7] {
            let states = shard_states(dir.path(), rules, "3000", count);
            let mut merge = warsim();
            merge.arg("merge");
            let list = |states: &[PathBuf]| {
                let lines: Vec<String> = states.iter().map(|s| s.display().to_string()).collect();
                lines.join("\n")
            };
            // The same states listed: in a file beside one given, or on standard input.
            match count {
                5 => {
                    std::fs::write(p("list.txt"), list(&states[1..])).unwrap();
                    merge
                        .arg(&states[0])
                        .arg("--states-from")
                        .arg(p("list.txt"))
                }
                7 => merge
                    .args(["--states-from", "-"])
                    .write_stdin(list(&states)),
                _ => merge.args(&states),
            };
            merge
                .arg("--json")
                .arg(p("merged.json"))
                .arg("--histogram")
                .arg(p("merged.csv"))
                .assert()
                .success();
            let merged = json(&p("merged.json"));
            for (key, value) in whole.as_object().unwrap() {
                if !RUN_TIME.contains(&key.as_str()) {
                    assert_eq!(&merged[key], value, "{rules:?}, {count} shards: {key}");
                }
            }
            assert_eq!(
                std::fs::read(p("merged.csv")).unwrap(),
                std::fs::read(p("whole.csv")).unwrap(),
                "{rules:?}, {count} shards: the histogram"
            );
        }
    }
    // Every outcome and every way of winning occurred under some rule set above, so a count
    // a state lost or a merge added wrongly would have shown there.
    let outcomes = Outcome::ALL
        .iter()
        .map(|outcome| outcome.name().to_string());
    let ways = WinBy::ALL.iter().map(|by| format!("win_by_{}", by.name()));
    for key in outcomes.chain(ways) {
        assert!(counted.contains(&key), "no rule set here makes any {key}");
    }
}

#[test]
fn merge_draws_and_reports_as_the_single_run_with_the_same_flags() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name);
    let display = ["--plot-scale", "linear", "--seconds-per-round", "2"];
    let whole = warsim()
        .args(["run", "--games", "3000", "--seed", "13", "-q", "--plot"])
        .arg(p("whole.svg"))
        .args(display)
        .output()
        .unwrap();
    let states = shard_states(dir.path(), &[], "3000", 3);
    let merged = warsim()
        .arg("merge")
        .args(&states)
        .arg("--plot")
        .arg(p("merged.svg"))
        .args(display)
        .output()
        .unwrap();
    assert!(whole.status.success() && merged.status.success());
    let svg = std::fs::read_to_string(p("merged.svg")).unwrap();
    assert!(svg.contains("share still going") && !svg.contains("(log scale)"));
    assert_eq!(svg, std::fs::read_to_string(p("whole.svg")).unwrap());
    let duration = |out: &[u8]| {
        let text = String::from_utf8_lossy(out);
        let line = text.lines().find(|l| l.starts_with("duration"));
        line.expect("a duration line").to_string()
    };
    assert_eq!(duration(&merged.stdout), duration(&whole.stdout));
}

#[test]
fn a_state_on_standard_output_is_one_document_however_often_it_checkpoints() {
    let dir = TempDir::new().unwrap();
    // Checkpoints every 10 ms go nowhere: '-' takes the final state alone, so a shell's
    // redirect makes a state file that merges.
    let out = warsim()
        .args([
            "run", "--games", "2e6", "--shard", "0/2", "-q", "--state", "-",
        ])
        .args(["--checkpoint-every", "10ms"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(dir.path().join("first.json"), &out.stdout).unwrap();
    warsim()
        .current_dir(dir.path())
        .args([
            "run",
            "--games",
            "2e6",
            "--shard",
            "1/2",
            "-q",
            "--state",
            "second.json",
        ])
        .assert()
        .success();
    warsim()
        .current_dir(dir.path())
        .args(["merge", "first.json", "second.json", "--json", "whole.json"])
        .assert()
        .success();
    assert_eq!(json(&dir.path().join("whole.json"))["games"], 2_000_000);
    // A sweep's state too.
    let out = warsim()
        .args([
            "sweep", "--suits", "4,8", "--games", "2e5", "-q", "--state", "-",
        ])
        .args(["--checkpoint-every", "10ms"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one document");
    assert_eq!(state["format"], "warsim-sweep-state");
}

#[test]
fn states_written_before_the_squares_were_kept_merge_without_a_spread() {
    let dir = TempDir::new().unwrap();
    let states = shard_states(dir.path(), &[], "3000", 2);
    let merge = |states: &[PathBuf]| {
        let out = warsim()
            .arg("merge")
            .args(states)
            .args(["--json", "-"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let report = String::from_utf8(out.stderr).unwrap();
        (
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(),
            report,
        )
    };
    let (whole, report) = merge(&states);
    let spreads = [
        "cards_played_se",
        "cards_played_sd",
        "wars_per_game_se",
        "wars_per_game_sd",
        "wars_per_finished_game_se",
        "wars_per_finished_game_sd",
    ];
    assert!(spreads.iter().all(|key| whole[key].as_f64().unwrap() > 0.0));
    assert!(report.contains(" (s.e.)   sd ") && report.contains("   per game   longest chain"));
    // One state as an earlier warsim wrote it: no sums of squares.
    let mut old = json(&states[1]);
    let stats = old["stats"].as_object_mut().unwrap();
    assert!(stats.remove("wars_squares").is_some());
    assert!(stats.remove("finished_cards_squares").is_some());
    assert!(stats.remove("unfinished_wars").is_some());
    assert!(stats.remove("unfinished_wars_squares").is_some());
    std::fs::write(&states[1], old.to_string()).unwrap();
    let (merged, report) = merge(&states);
    for key in spreads {
        assert!(merged[key].is_null(), "{key}: {}", merged[key]);
    }
    // Every classic game finished: the old state's finished games' ties are all its ties.
    assert_eq!(whole["win"], whole["games"]);
    for key in [
        "cards_played_mean",
        "wars_per_game",
        "rounds_se",
        "wars_per_finished_game",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    let wars = report.lines().find(|l| l.starts_with("wars")).unwrap();
    let mean = whole["wars_per_game"].as_f64().unwrap();
    assert_eq!(
        wars,
        format!(
            "wars         mean {mean:.3}   per game   longest chain {}",
            whole["longest_war"]
        )
    );
}
