//! `warsim sweep`'s combinations a preset cannot take, and values it cannot read: refused before
//! any game or file, naming one of them, or with `--skip-invalid` skipped and listed, the
//! report naming the first few of a long list and the JSON every one.

use predicates::prelude::*;
use tempfile::TempDir;

use crate::common;

use common::{json, warsim};

#[test]
fn invalid_combinations_are_refused_before_any_game_or_skipped() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("cells.csv");
    warsim()
        .args(["sweep", "--rules", "classic,war-simulator", "--pickup", "table,shuffled"])
        .arg("--csv")
        .arg(&out)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: 2 of 4 combinations cannot be played, e.g. rules=war-simulator pickup=table: --pickup does not apply",
        ))
        .stderr(predicate::str::contains("--skip-invalid"));
    assert!(
        !out.exists(),
        "no output is created before the sweep is refused"
    );
    warsim()
        .args(["sweep", "--suits", "100", "--ranks", "13,26"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "error: none of the 2 combinations can be played",
        ));
    warsim()
        .args(["sweep", "--suits", "100", "--ranks", "13"])
        .assert()
        .code(2)
        .stderr(
            "error: the only combination cannot be played, suits=100 ranks=13: --suits 100 × \
             --ranks 13 = 1300 cards is more than the 1024 supported: use a smaller deck\n",
        );
    warsim()
        .args(["sweep", "--players", "2,3", "--games", "1e19"])
        .assert()
        .code(2)
        .stderr(
            "error: --games 10,000,000,000,000,000,000 over 2 cells is more than \
             18,446,744,073,709,551,615 games: play fewer\n",
        );
    for (flag, value, needle) in [
        ("--ranks", "9..6", "FROM ≤ TO"),
        ("--players", "2..x", "invalid --players '2..x'"),
        ("--max-rounds", "10,000", "not thousands"),
        (
            "--pickup",
            "sideways",
            "invalid value 'sideways' for '--pickup'",
        ),
        ("--games", "2,3", "give one value"),
    ] {
        warsim()
            .args(["sweep", flag, value])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(needle)))
            .stderr(predicate::function(|e: &str| {
                e.lines().filter(|l| l.starts_with("error:")).count() == 1
            }));
    }
}

#[test]
fn a_long_list_of_skipped_combinations_is_counted_past_the_first_few() {
    let dir = TempDir::new().unwrap();
    let sweep_json = dir.path().join("sweep.json");
    // Of 2 × 32 combinations, the 46 of more than 1,024 cards are skipped (suits 7 from ranks
    // 147, suits 8 from ranks 129), in grid order.
    let out = warsim()
        .args([
            "sweep", "--suits", "7,8", "--ranks", "129..160", "--games", "1", "-q",
        ])
        .args(["--skip-invalid", "--threads", "2", "--json"])
        .arg(&sweep_json)
        .assert()
        .success();
    let report = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let skipped: Vec<&str> = report
        .lines()
        .filter(|line| line.starts_with("skipped "))
        .collect();
    assert_eq!(skipped.len(), 11, "{report}");
    assert_eq!(
        skipped[0],
        "skipped      suits=7 ranks=147: --suits 7 × --ranks 147 = 1029 cards is more than the \
         1024 supported: use a smaller deck"
    );
    assert!(
        skipped[9].starts_with("skipped      suits=7 ranks=156: "),
        "{report}"
    );
    assert_eq!(
        skipped[10],
        "skipped      36 more combinations (--json lists every one with its reason)"
    );
    assert_eq!(json(&sweep_json)["skipped"].as_array().unwrap().len(), 46);
    assert_eq!(json(&sweep_json)["cells"].as_array().unwrap().len(), 18);
    // Twenty or fewer are listed whole.
    let out = warsim()
        .args([
            "sweep", "--suits", "8", "--ranks", "120..148", "--games", "1", "-q",
        ])
        .args(["--skip-invalid", "--threads", "2"])
        .assert()
        .success();
    let report = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let skipped = report.lines().filter(|line| line.starts_with("skipped "));
    assert_eq!(skipped.count(), 20, "{report}");
    assert!(!report.contains("more combinations"), "{report}");
}
