//! What `warsim run` writes: every preset with its deck and another size, outputs that parse
//! and agree, a per-game CSV independent of --threads, golden figures, a closed pipe,
//! war_card_game's batch seeds, a per-game file another run is writing, and an output named as
//! the state's lock file.

use common::{EndsWithTest, warsim};
use predicates::prelude::*;
use tempfile::TempDir;

use crate::common;

#[test]
fn every_preset_runs_with_its_deck_and_another_size() {
    let runs: &[&[&str]] = &[
        &["--rules", "classic"],
        &[
            "--rules",
            "classic",
            "--players",
            "3",
            "--suits",
            "6",
            "--ranks",
            "20",
            "--pickup",
            "shuffled",
            "--spoils",
            "heap",
        ],
        &["--rules", "war-card-game"],
        &["--rules", "war-card-game", "--suits", "2", "--ranks", "8"],
        &["--rules", "game-of-war"],
        &["--rules", "game-of-war", "--suits", "8", "--ranks", "13"],
        &["--rules", "war-simulator"],
        &[
            "--rules",
            "war-simulator",
            "--players",
            "4",
            "--suits",
            "5",
            "--ranks",
            "11",
        ],
        &["--rules", "cards-war"],
        &["--rules", "cards-war", "--suits", "3", "--ranks", "9"],
        &["--rules", "fixed-rounds"],
        &[
            "--rules",
            "fixed-rounds",
            "--players",
            "3",
            "--suits",
            "3",
            "--ranks",
            "10",
        ],
    ];
    for args in runs {
        let run = [&["run"], *args, &["--games", "2000", "--json", "-"]].concat();
        let json: serde_json::Value = serde_json::from_str(&common::stdout_of(&run)).unwrap();
        assert_eq!(json["games"], 2000, "{args:?}");
        assert_eq!(json["rules"], args[1], "{args:?}");
        let outcomes = ["win", "draw", "capped", "cycle"]
            .iter()
            .map(|k| json[k].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(outcomes, 2000, "{args:?}");
    }
    let out = warsim()
        .args(["run", "--pickup", "seats", "--games", "3000", "--json", "-"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["cycle"].as_u64().unwrap() > 1000,
        "seat-order pickup loops in most games"
    );
    warsim().args(["rules"]).assert().success().stdout(
        predicate::str::contains("fixed-rounds").and(predicate::str::contains("war-simulator")),
    );
    warsim()
        .args(["rules", "cards-war"])
        .assert()
        .success()
        .stdout(predicate::str::contains("smaller-hand"));
    warsim().args(["rules", "poker"]).assert().code(2);
}

#[test]
fn a_failed_output_leaves_no_file_behind() {
    let dir = TempDir::new().unwrap();
    let csv = dir.path().join("games.csv");
    warsim()
        .args(["run", "--games", "10", "--csv"])
        .arg(&csv)
        .args(["--json", "/no/such/folder/s.json"])
        .assert()
        .code(2);
    assert!(!csv.exists());
}

#[test]
fn outputs_are_written_and_parse() {
    let dir = TempDir::new().unwrap();
    let (csv, summary, json) = (
        dir.path().join("g.csv"),
        dir.path().join("s.csv"),
        dir.path().join("s.json"),
    );
    warsim()
        .args([
            "run",
            "--games",
            "3000",
            "--seed",
            "9",
            "--threads",
            "2",
            "--csv",
        ])
        .arg(&csv)
        .arg("--summary")
        .arg(&summary)
        .arg("--json")
        .arg(&json)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("games        3,000")
                .and(predicate::str::contains("seed         9")),
        );

    let mut games = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = games.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header[..7],
        [
            "game",
            "seed",
            "rounds",
            "winner",
            "outcome",
            "wars",
            "longest_war"
        ]
    );
    let mut rows = 0u64;
    for (i, row) in games.records().enumerate() {
        let row = row.unwrap();
        assert_eq!(row[0].parse::<u64>().unwrap(), i as u64);
        assert!(row[2].parse::<u32>().unwrap() >= 1);
        assert!(matches!(&row[4], "win" | "draw" | "capped" | "cycle"));
        assert_eq!(row[4] == *"win", matches!(&row[3], "1" | "2"));
        assert_eq!(row[4] == *"win", &row[7] == "cards");
        rows += 1;
    }
    assert_eq!(rows, 3000);

    let json = common::json(&json);
    assert_eq!(json["games"], 3000);
    assert_eq!(json["rules"], "classic");
    assert_eq!(json["seed"], 9);
    let wins = json["seat1_wins"].as_u64().unwrap() + json["seat2_wins"].as_u64().unwrap();
    assert_eq!(wins, json["win"].as_u64().unwrap());

    let mut summary = csv::Reader::from_path(&summary).unwrap();
    let keys: Vec<String> = summary
        .headers()
        .unwrap()
        .iter()
        .map(String::from)
        .collect();
    let values: Vec<csv::StringRecord> = summary.records().map(Result::unwrap).collect();
    assert_eq!(values.len(), 1);
    let json_keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), json_keys.len());
    for (key, value) in keys.iter().zip(values[0].iter()) {
        assert!(json.get(key).is_some(), "{key} missing from JSON");
        match &json[key] {
            // serde_json's default float parsing may be off by one ulp.
            serde_json::Value::Number(n) => {
                let (csv_value, json_value) = (value.parse::<f64>().unwrap(), n.as_f64().unwrap());
                assert!(
                    (csv_value - json_value).abs() <= 1e-12 * json_value.abs(),
                    "{key}"
                );
            }
            serde_json::Value::Bool(b) => assert_eq!(value, b.to_string(), "{key}"),
            serde_json::Value::Null => assert_eq!(value, "", "{key}"),
            other => assert_eq!(value, other.as_str().unwrap(), "{key}"),
        }
    }
}

#[test]
fn per_game_csv_is_identical_for_one_and_two_threads() {
    let run = |threads: &str| {
        warsim()
            .args([
                "run",
                "--games",
                "20000",
                "--seed",
                "123",
                "--quiet",
                "--csv",
                "-",
                "--threads",
                threads,
            ])
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert!(one.status.success() && two.status.success());
    assert_eq!(String::from_utf8_lossy(&one.stdout).lines().count(), 20001);
    assert!(
        one.stdout == two.stdout,
        "CSV differs between --threads 1 and 2"
    );
    // With stdout taken by the CSV, the report goes to stderr.
    assert!(String::from_utf8_lossy(&one.stderr).contains("games        20,000"));
}

#[test]
fn golden_summary_for_a_fixed_seed() {
    // value_stability: these figures change only when the rules or the seeding change.
    let out = warsim()
        .args([
            "run",
            "--games",
            "5000",
            "--seed",
            "2026",
            "--threads",
            "2",
            "--json",
            "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (key, expected) in GOLDEN {
        assert_eq!(json[key].to_string(), *expected, "{key}");
    }
}

const GOLDEN: &[(&str, &str)] = &[
    ("games", "5000"),
    ("win", "5000"),
    ("seat1_wins", "2464"),
    ("seat2_wins", "2536"),
    ("rounds_mean", "246.6038"),
    ("rounds_min", "27"),
    ("rounds_p50", "198"),
    ("rounds_p90", "474"),
    ("rounds_p99", "890"),
    ("rounds_max", "1504"),
    ("wars_per_game", "19.1372"),
    ("longest_war", "6"),
];

#[test]
fn a_closed_pipe_ends_quietly() {
    let (first, out) =
        common::first_line_then_close(&["run", "--games", "2000000", "--csv", "-", "--quiet"]);
    assert!(first.starts_with("game,seed,rounds"));
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn war_card_game_batch_plays_the_crates_seeds() {
    let out = warsim()
        .args([
            "run",
            "--rules",
            "war-card-game",
            "--seed",
            "0",
            "--games",
            "11",
            "--csv",
            "-",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut reader = csv::Reader::from_reader(&out.stdout[..]);
    let rows: Vec<(u64, u32)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[1].parse().unwrap(), r[2].parse().unwrap())
        })
        .collect();
    let readme = [118, 176, 568, 654, 164, 126, 230, 116, 516, 380, 146];
    assert_eq!(rows, (0..11).zip(readme).collect::<Vec<_>>());
}

#[test]
fn a_per_game_file_another_warsim_is_writing_is_refused_and_left_alone() {
    use std::process::{Command as Process, Stdio};
    let dir = TempDir::new().unwrap();
    // A name without an extension, which --csv and --parquet may both be given.
    let csv = dir.path().join("games");
    let mut first = Process::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["run", "--games", "1e9", "--threads", "1", "-q", "--csv"])
        .arg(&csv)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .ends_with_test()
        .spawn()
        .unwrap();
    let size = || std::fs::metadata(&csv).map_or(0, |m| m.len());
    common::until("rows written", || size() >= 100_000);
    // Two tasks given one --csv, or one command started twice: the second writes nothing.
    for flag in ["--csv", "--parquet"] {
        let before = size();
        let out = warsim()
            .args(["run", "--games", "100", "-q", flag])
            .arg(&csv)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with(&format!("error: {flag} "))
                && err.contains("another warsim is writing it"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(size() >= before, "the other run's rows are left");
    }
    common::interrupt(first.id());
    assert_eq!(first.wait().unwrap().code(), Some(130));
    common::games_in_order(&csv);
}

/// An output named as the `--state`'s lock file (`STATE.lock`) was lost: a summary written
/// there went when the run removed its lock at the end (exit 0, no file), and a per-game file
/// found the run's own lock and blamed "another warsim". Both are refused; a file of that name
/// warsim did not create is left as it was.
#[test]
fn an_output_that_is_the_states_lock_file_is_refused() {
    let dir = TempDir::new().unwrap();
    let lock = dir.path().join("s.state.lock");
    for (command, flag, path) in [
        ("run", "--json", "s.state.lock"),
        ("run", "--csv", "./s.state.lock"),
        ("sweep", "--csv", "s.state.lock"),
    ] {
        warsim()
            .current_dir(dir.path())
            .args([command, "--games", "20", "--state", "s.state", flag, path])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "error: {flag} {path}: is the lock file of --state s.state, which the run holds \
                 and then removes: give the output another path\n"
            ));
        assert!(!lock.exists(), "the run's own lock file went");
    }
    std::fs::write(&lock, "mine").unwrap();
    warsim()
        .current_dir(dir.path())
        .args(["run", "--games", "20", "--state", "s.state", "--json"])
        .arg(&lock)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), "mine");
}
