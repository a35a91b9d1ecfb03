//! `--parquet`: read back with the parquet crate's own reader, every row equals the per-game
//! CSV's (run and sweep), the columns are typed (seed an unsigned 64-bit integer, winner
//! nullable), row groups split long runs, and an interrupted run still ends with a readable file
//! holding exactly the games the summary counts. The footer carries that summary.

use std::fs::File;
use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use tempfile::TempDir;

use crate::common;

use common::warsim;

use common::parquet::{footer_summary, rows_as_csv, without_timings};

fn csv_rows(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().skip(1).map(String::from).collect()
}

#[test]
fn every_row_equals_the_csv_and_the_columns_are_typed() {
    let dir = TempDir::new().unwrap();
    let (csv, parquet) = (dir.path().join("g.csv"), dir.path().join("g.parquet"));
    let json = dir.path().join("s.json");
    for rules in [
        &["--rules", "classic"][..],
        &["--rules", "war-simulator", "--players", "3"],
        &["--rules", "fixed-rounds"],
        &["--rules", "cards-war", "--ranks", "3", "--suits", "3"],
    ] {
        warsim()
            .args(["run", "--games", "3000", "--seed", "9", "-q"])
            .args(rules)
            .arg("--csv")
            .arg(&csv)
            .arg("--parquet")
            .arg(&parquet)
            .arg("--json")
            .arg(&json)
            .assert()
            .success();
        let (rows, groups) = rows_as_csv(&parquet);
        assert_eq!(rows, csv_rows(&csv), "{rules:?}");
        assert_eq!(groups, 1);
        // The file says what made it: the summary --json wrote.
        let summary = without_timings(common::json(&json));
        assert_eq!(footer_summary(&parquet), summary, "{rules:?}");
    }
    let reader = SerializedFileReader::new(File::open(&parquet).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr();
    let columns: Vec<String> = schema
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let header = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(columns.join(","), header.lines().next().unwrap());
    let seed = schema.column(1);
    assert_eq!(seed.physical_type(), parquet::basic::Type::INT64);
    assert_eq!(
        seed.logical_type_ref(),
        Some(&parquet::basic::LogicalType::Integer {
            bit_width: 64,
            is_signed: false
        })
    );
    assert!(schema.column(3).self_type().is_optional(), "winner");
}

#[test]
fn a_sweep_leads_every_row_with_its_cell_and_long_runs_split_into_row_groups() {
    let dir = TempDir::new().unwrap();
    let (csv, parquet) = (dir.path().join("g.csv"), dir.path().join("g.parquet"));
    warsim()
        .args([
            "sweep",
            "--rules",
            "classic,war-card-game",
            "--ranks",
            "4..6",
        ])
        .args(["--games", "1000", "-q", "--games-csv"])
        .arg(&csv)
        .arg("--parquet")
        .arg(&parquet)
        .arg("--json")
        .arg(dir.path().join("sweep.json"))
        .assert()
        .success();
    let sweep = without_timings(common::json(&dir.path().join("sweep.json")));
    assert_eq!(footer_summary(&parquet), sweep);
    assert_eq!(sweep["cells"].as_array().unwrap().len(), 6);
    let (rows, _) = rows_as_csv(&parquet);
    assert_eq!(rows.len(), 6000);
    assert_eq!(rows, csv_rows(&csv));
    assert!(
        rows[5999].starts_with("5,war-card-game,6,999,"),
        "{}",
        rows[5999]
    );

    // More games than a row group holds: two groups, the same rows.
    let games = warsim::export::ROW_GROUP + 1000;
    warsim()
        .args([
            "run",
            "--games",
            &games.to_string(),
            "--ranks",
            "3",
            "-q",
            "--csv",
        ])
        .arg(&csv)
        .arg("--parquet")
        .arg(&parquet)
        .assert()
        .success();
    let (rows, groups) = rows_as_csv(&parquet);
    assert_eq!(groups, 2);
    assert_eq!(rows, csv_rows(&csv));
}

#[test]
fn an_interrupted_run_ends_the_file_with_the_games_the_summary_counts() {
    let dir = TempDir::new().unwrap();
    let parquet = dir.path().join("g.parquet");
    let json = dir.path().join("s.json");
    // The first row group is written once 2^18 games are played.
    let (p, j) = (parquet.to_str().unwrap(), json.to_str().unwrap());
    let args = [
        "run",
        "--games",
        "8e9",
        "-q",
        "--threads",
        "2",
        "--parquet",
        p,
        "--json",
        j,
    ];
    let out = common::interrupt_once_written(&args, &parquet, 100_000);
    assert_eq!(out.status.code(), Some(130));
    let summary = common::json(&json);
    let (rows, _) = rows_as_csv(&parquet);
    assert_eq!(summary["games"], rows.len() as u64);
    assert_eq!(footer_summary(&parquet), without_timings(summary.clone()));
    assert_eq!(summary["complete"], false);
    assert!(rows.len() as u64 > 1000);
    assert!(
        rows.last()
            .unwrap()
            .starts_with(&format!("{},", rows.len() - 1))
    );
}

#[test]
fn shards_parquet_files_hold_the_whole_runs_rows_between_them() {
    let dir = TempDir::new().unwrap();
    let file = |name: &str| dir.path().join(name);
    let run = |extra: &[&str], name: &str| {
        warsim()
            .args(["run", "--games", "5000", "--seed", "3", "-q", "--parquet"])
            .arg(file(name))
            .args(extra)
            .assert()
            .success();
    };
    run(&[], "whole.parquet");
    let mut joined = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        // Each shard its own file: one shard's rows are not another's to replace.
        let name = format!("part-{k}.parquet");
        run(&["--shard", &shard], &name);
        joined.extend(rows_as_csv(&file(&name)).0);
    }
    assert_eq!(joined, rows_as_csv(&file("whole.parquet")).0);
}

#[test]
fn a_full_disk_leaves_the_csv_and_the_parquet_file_the_same_games() {
    let dir = TempDir::new().unwrap();
    // The CSV fills the disk first.
    let args = "run --games 1e6 -q --csv games.csv --parquet games.parquet --json summary.json";
    let out = common::with_full_disk_at(512, dir.path(), args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let csv = std::fs::read_to_string(dir.path().join("games.csv")).unwrap();
    let csv_rows: Vec<&str> = csv.lines().skip(1).collect();
    let (parquet_rows, _) = rows_as_csv(&dir.path().join("games.parquet"));
    assert_eq!(
        parquet_rows.len(),
        csv_rows.len(),
        "both files hold the same games"
    );
    assert!(parquet_rows == csv_rows, "both files hold the same games");
    let summary = common::json(&dir.path().join("summary.json"));
    assert_eq!(summary["games"].as_u64(), Some(csv_rows.len() as u64));
    let said = format!("stopped after {} games", group(csv_rows.len()));
    assert!(err.contains(&said), "{said}: {err}");

    // A Parquet file that failed itself has no footer, and the message says so.
    let out = warsim()
        .args(["run", "--games", "1000", "-q", "--parquet", "/dev/full"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the Parquet file (/dev/full) cannot be read"),
        "{err}"
    );

    // So does one whose end failed after the CSV had (a full disk fails both): the Parquet
    // file's error gets its own line.
    let out = warsim()
        .args(["run", "--games", "1000", "-q", "--csv", "/dev/full"])
        .args(["--parquet", "/dev/full"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("error: could not write the per-game CSV"),
        "{err}"
    );
    assert!(
        lines[0].contains("the Parquet file (/dev/full) cannot be read"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("error: could not write the Parquet file"),
        "{err}"
    );
    // The disk's own error, as the CSV's reads, not the Parquet writer's text of it.
    assert!(
        lines[1].ends_with("to /dev/full: No space left on device (os error 28)"),
        "{err}"
    );
}

/// 12345 → "12,345", as the messages print counts.
fn group(n: usize) -> String {
    warsim::export::text::group(n as u64)
}

/// A Parquet file holds at most 2^15 row groups of 262,144 games: more is refused before any
/// game is played, and a shard's file is held to its own part, not the whole batch's (a shard
/// of a batch too big for one file was refused though its file would hold half of it).
#[test]
fn the_parquet_limit_counts_the_games_of_this_file() {
    let dir = TempDir::new().unwrap();
    let parquet = dir.path().join("games.parquet");
    let refused = |args: &[&str]| {
        let out = warsim()
            .args(args)
            .arg("--parquet")
            .arg(&parquet)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(!parquet.exists(), "{args:?}: nothing written");
        String::from_utf8(out.stderr).unwrap()
    };
    let too_many = "error: --parquet holds at most 8,589,934,592 games (2^15 row groups of \
                    262,144), not 10,000,000,000: write --csv, or split the run into shards \
                    (--shard K/N), each with its own Parquet file\n";
    assert_eq!(refused(&["run", "--games", "1e10"]), too_many);
    assert_eq!(
        refused(&["sweep", "--players", "2,3", "--games", "5e9"]),
        too_many
    );
    // Half of it passes that check, and the next one speaks: two outputs on standard output
    // (run), a combination that cannot be played (sweep).
    let run = [
        "run", "--games", "1e10", "--shard", "0/2", "--csv", "-", "--json", "-",
    ];
    assert!(refused(&run).contains("both write to standard output"));
    let sweep = [
        "sweep",
        "--players",
        "2,3",
        "--war-shortage",
        "smaller-hand",
    ];
    let said = refused(&[&sweep[..], &["--games", "1e10", "--shard", "1/2"]].concat());
    assert!(
        said.contains("1 of 2 combinations cannot be played"),
        "{said}"
    );
}
