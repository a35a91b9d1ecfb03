//! `--shard K/N`: the N shards of a batch play its games exactly once, in order: their per-game
//! CSVs (the header once, `--no-header` after) concatenate to the whole run's byte for byte, and
//! their counts add up to the whole run's; bad shards are refused before any game.

use crate::common;

use common::{json, warsim};
use tempfile::TempDir;

#[test]
fn shards_concatenate_to_the_whole_run() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name);
    for rules in [
        &["--rules", "classic"][..],
        &["--rules", "war-card-game"],
        &["--rules", "war-simulator", "--players", "3"],
    ] {
        let run = |extra: &[&str], csv: &str, json: &str| {
            warsim()
                .args(["run", "--games", "1000", "--seed", "5", "-q"])
                .args(rules)
                .args(extra)
                .arg("--csv")
                .arg(p(csv))
                .arg("--json")
                .arg(p(json))
                .assert()
                .success();
        };
        run(&[], "whole.csv", "whole.json");
        let whole = std::fs::read(p("whole.csv")).unwrap();
        let whole_summary = json(&p("whole.json"));
        for count in 1..=7 {
            let mut joined = Vec::new();
            let (mut games, mut wins, mut seat1) = (0, 0, 0);
            for index in 0..count {
                let shard = format!("{index}/{count}");
                let mut extra = vec!["--shard", &shard];
                if index > 0 {
                    extra.push("--no-header");
                }
                // Each shard its own files: one shard's summary is not another's to replace.
                let name = format!("part-{index}-of-{count}");
                run(&extra, &format!("{name}.csv"), &format!("{name}.json"));
                joined.extend(std::fs::read(p(&format!("{name}.csv"))).unwrap());
                let part = json(&p(&format!("{name}.json")));
                assert_eq!(
                    (&part["shard"], &part["shards"]),
                    (&index.into(), &count.into())
                );
                assert_eq!(part["batch_games"], 1000);
                assert_eq!(part["first_game"], index * 1000 / count);
                games += part["games"].as_u64().unwrap();
                wins += part["win"].as_u64().unwrap();
                seat1 += part["seat1_wins"].as_u64().unwrap();
            }
            assert!(
                joined == whole,
                "{rules:?}: {count} shards' rows are the whole run's"
            );
            assert_eq!(games, 1000);
            assert_eq!(
                wins,
                whole_summary["win"].as_u64().unwrap(),
                "{rules:?} {count}"
            );
            assert_eq!(seat1, whole_summary["seat1_wins"].as_u64().unwrap());
        }
    }
}

#[test]
fn bad_shards_are_refused_and_empty_shards_are_fine() {
    for bad in ["3/3", "0/0", "-1/4", "1/4/2", "x/2"] {
        let out = warsim()
            .args(["run", "--games", "10", "--shard", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error:")).count(),
            1,
            "{err}"
        );
    }
    // Three games in seven shards: most shards are empty, and say so. No game has no share,
    // interval or mean (null in JSON), rather than a confident 0.
    let empty = warsim()
        .args(["run", "--games", "3", "--shard", "1/7", "--json", "-"])
        .output()
        .unwrap();
    assert!(empty.status.success());
    let report = String::from_utf8(empty.stderr).unwrap();
    assert!(report.contains("games        0 (shard 1/7 of a batch of 3: no games)\n"));
    assert!(report.contains("outcomes     win 0   draw 0   capped 0   cycle 0\n"));
    assert!(
        report.contains("figures      none: no game was played\n"),
        "{report}"
    );
    assert!(
        !report.contains("95% CI") && !report.contains("wars"),
        "{report}"
    );
    let json: serde_json::Value = serde_json::from_slice(&empty.stdout).unwrap();
    for key in [
        "seat1_win_share",
        "seat2_ci95_high",
        "cycle_share",
        "win_ci95_low",
        "wars_per_game",
        "rounds_mean",
    ] {
        assert!(json[key].is_null(), "{key}: {}", json[key]);
    }
    warsim()
        .args(["run", "--games", "3", "--shard", "2/7", "-q"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "games        1 (shard 2/7 of a batch of 3: game 0)\n",
        ));
    warsim()
        .args(["run", "--games", "3", "--no-header"])
        .assert()
        .code(2);
}

#[test]
fn a_shards_hdr_log_names_its_part_of_the_batch() {
    let dir = TempDir::new().unwrap();
    let log = dir.path().join("part.hlog");
    warsim()
        .args(["run", "--games", "100", "--shard", "1/3", "-q", "--hdr"])
        .arg(&log)
        .assert()
        .success();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains(";seed=0;shard=1;shards=3;batch_games=100;first_game=33;games_requested=33;games=33;complete=true;capped=0;"),
        "{text}"
    );
}
