//! The `warsim` binary as users drive it: help, bad input (exit 2, one line naming the flag),
//! outputs that parse, results independent of --threads, and a closed pipe.

use std::io::{BufRead, BufReader};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

fn warsim() -> Command {
    Command::cargo_bin("warsim").unwrap()
}

#[test]
fn help_lists_every_run_flag_with_its_default() {
    let out = warsim().args(["run", "--help"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for flag in [
        "--rules",
        "--players",
        "--suits",
        "--ranks",
        "--face-down",
        "--max-rounds",
        "--games",
        "--seed",
        "--threads",
        "--csv",
        "--summary",
        "--json",
        "--histogram",
        "--quiet",
    ] {
        assert!(text.contains(flag), "{flag} missing from help");
    }
    assert!(text.contains("[default: 1000000]") && text.contains("[default: classic"));
    warsim()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("run"));
    warsim().arg("--version").assert().success();
    let out = warsim().args(["play", "--help"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for flag in [
        "--rules",
        "--seed",
        "--output",
        "--one-line",
        "--quiet",
        "--verbose",
        "--range",
        "--batch-seed",
        "--game",
        "--matches",
        "--interactive",
        "--pickup",
    ] {
        assert!(text.contains(flag), "{flag} missing from play help");
    }
    assert!(
        !text.contains("--scripted-input"),
        "the test mode stays out of help"
    );
}

#[test]
fn bad_input_exits_2_with_one_error_line_naming_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--players", "1"],
            "--players 1 is out of range: use 2 to 32",
        ),
        (
            &["--players", "5", "--suits", "1", "--ranks", "4"],
            "--players 5 is more than the 4 cards",
        ),
        (
            &["--players", "-3"],
            "for '--players <N>': '-3' is not a whole number",
        ),
        (&["--seed", "x"], "--seed"),
        (&["--suits", "0"], "--suits 0 is out of range"),
        (&["--ranks", "0"], "--ranks 0 is out of range: use 1 to 255"),
        (&["--ranks", "256"], "--ranks 256 is out of range"),
        (&["--suits", "100"], "more than the 1024 supported"),
        (&["--games", "0"], "--games 0 is out of range"),
        (&["--games", "lots"], "--games"),
        (
            &["--threads", "0"],
            "--threads 0 is out of range: use 1 to 1024",
        ),
        (&["--max-rounds", "0"], "--max-rounds 0 is out of range"),
        (&["--face-down", "300"], "--face-down 300 is out of range"),
        (
            &["--rules", "poker"],
            "invalid value 'poker' for '--rules <NAME>'\n  [possible values: classic, war-card-game,",
        ),
        (
            &["--csv", "/no/such/folder/g.csv"],
            "--csv /no/such/folder/g.csv: folder '/no/such/folder' does not exist",
        ),
        (
            &["--csv", "-", "--json", "-"],
            "--csv and --json both write to standard output",
        ),
        (&["--bogus"], "unexpected argument '--bogus'"),
        (
            &["--gmaes", "5"],
            "tip: a similar argument exists: '--games'",
        ),
        (
            &["--pickup", "sideways"],
            "invalid value 'sideways' for '--pickup <ORDER>'\n  [possible values: table, winner-first",
        ),
        (
            &["--war-shortage", "cry"],
            "[possible values: lose, play-what-you-have, smaller-hand]",
        ),
        (
            &["--spoils", "pocket"],
            "[possible values: under-pile, heap]",
        ),
        (
            &["--at-cap", "coin"],
            "[possible values: capped, larger-pile]",
        ),
        (
            &["--rules", "fixed-rounds", "--face-down", "3"],
            "--face-down does not apply to --rules fixed-rounds",
        ),
        (
            &["--rules", "fixed-rounds", "--max-rounds", "9"],
            "--max-rounds does not apply to --rules fixed-rounds",
        ),
        (
            &["--rules", "war-simulator", "--pickup", "table"],
            "--pickup does not apply to --rules war-simulator",
        ),
        (
            &["--rules", "game-of-war", "--players", "3"],
            "--rules game-of-war (Game-of-War is a human-vs-computer game) is a two-player rule",
        ),
        (
            &["--rules", "cards-war", "--players", "4"],
            "--rules cards-war",
        ),
        (
            &["--players", "3", "--war-shortage", "smaller-hand"],
            "--war-shortage smaller-hand is a two-player rule",
        ),
    ];
    for (args, message) in cases {
        let out = warsim()
            .arg("run")
            .args(*args)
            .args(
                ["--games", "10"]
                    .iter()
                    .filter(|_| !args.contains(&"--games")),
            )
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        // One error line; clap's own errors add its tip, the usage and where help is.
        let error_lines = stderr.lines().filter(|l| l.starts_with("error:")).count();
        assert_eq!(error_lines, 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        if stderr.lines().count() > 1 {
            assert!(
                stderr.contains("try 'warsim run --help'"),
                "{args:?}: {stderr}"
            );
        }
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

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
        let out = warsim()
            .arg("run")
            .args(*args)
            .args(["--games", "2000", "--json", "-"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
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
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["run", "--games", "2000000", "--csv", "-", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("game,seed,rounds"));
    let out = child.wait_with_output().unwrap();
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
fn the_command_line_follows_clap_conventions() {
    // Help lists every named value and each preset's default.
    let out = warsim().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "[possible values: table, winner-first, loser-first, seats, reverse-seats, shuffled]",
        "[possible values: classic, war-card-game, game-of-war, war-simulator, cards-war, fixed-rounds]",
        "[default: the preset's: 1 (classic, war-card-game); 3 (game-of-war, war-simulator, cards-war)]",
        "[default: the preset's: 100000 (classic, war-card-game, war-simulator, cards-war); 5000 (game-of-war)]",
    ] {
        assert!(help.contains(expected), "{expected}");
    }
    assert!(
        !help.contains("--interactive"),
        "run's help says nothing of play"
    );
    // Names in any case.
    let upper = warsim().args(["rules", "GAME-OF-WAR"]).output().unwrap();
    assert!(upper.status.success());
    assert!(String::from_utf8_lossy(&upper.stdout).starts_with("game-of-war\n"));
    warsim()
        .args([
            "run",
            "--rules",
            "Cards-War",
            "--pickup",
            "TABLE",
            "--games",
            "5",
            "-q",
        ])
        .assert()
        .success();
    // What play would silently ignore is refused.
    let refused = |args: &[&str], expected: &str| {
        let out = warsim().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{args:?}: {err}"
        );
    };
    refused(
        &["play", "--seed", "1", "--batch-seed", "2", "--game", "3"],
        "'--seed <S>' cannot be used with",
    );
    refused(&["play", "--range", "0-3", "-v"], "cannot be used with");
    refused(&["play", "--range", "0-3", "-q"], "cannot be used with");
    refused(
        &["play", "--matches", "3"],
        "--matches does not apply to --rules classic",
    );
    refused(
        &["play", "--interactive", "--rules", "fixed-rounds"],
        "fixed-rounds has none: choose e.g. --rules game-of-war",
    );
    refused(&["play", "--batch-seed", "42"], "--game <I>");
}

#[test]
fn completions_and_man_page_are_printed() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = warsim().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        // Subcommands, flags and the named values a shell can offer.
        for word in ["run", "pickup", "loser-first", "war-card-game"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    let out = warsim().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH warsim 1") && page.contains("card game War"));
    for subcommand in ["run", "play", "rules", "completions", "man"] {
        assert!(
            page.contains(&format!("warsim\\-{subcommand}")),
            "{subcommand}"
        );
    }
}
