//! `warsim sweep`: every cell equals the `warsim run` of its settings (summary, seats,
//! histogram, per-game rows), whatever the thread count; lists and ranges from the command
//! line; the HdrHistogram log has one tagged interval per cell. Invalid combinations:
//! `sweep_combinations.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use predicates::prelude::*;
use tempfile::TempDir;

use crate::common;

use common::{base64_decode, warsim};

/// The rows of a CSV file as maps from column to value.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The figures that depend on the machine, not on the games.
const TIMING: [&str; 3] = ["threads", "wall_seconds", "games_per_second"];

fn lines_after_prefix(text: &str, columns: usize) -> Vec<String> {
    text.lines()
        .map(|line| line.splitn(columns + 1, ',').last().unwrap().to_string())
        .collect()
}

#[test]
fn every_cell_equals_the_run_of_its_settings() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name);
    let sweep_args = [
        "sweep",
        "--rules",
        "classic,cards-war",
        "--players",
        "2,3",
        "--ranks",
        "6..8..2",
        "--games",
        "1500",
        "--seed",
        "11",
        "-q",
        "--skip-invalid",
    ];
    warsim()
        .args(sweep_args)
        .args(["--threads", "2"])
        .arg("--csv")
        .arg(p("cells.csv"))
        .arg("--seats")
        .arg(p("seats.csv"))
        .arg("--histogram")
        .arg(p("hist.csv"))
        .arg("--games-csv")
        .arg(p("games.csv"))
        .assert()
        .success()
        // war-card-game is for two players only: its 3-player cells are skipped and listed.
        .stdout(predicate::str::contains(
            "skipped      rules=cards-war players=3 ranks=6",
        ));
    let cells = rows(&p("cells.csv"));
    assert_eq!(cells.len(), 6);
    let seats = rows(&p("seats.csv"));
    let histogram = std::fs::read_to_string(p("hist.csv")).unwrap();
    let games = std::fs::read_to_string(p("games.csv")).unwrap();
    for cell in &cells {
        let index = &cell["cell"];
        let (rules, players, ranks) = (&cell["rules"], &cell["players"], &cell["ranks"]);
        let run_dir = TempDir::new().unwrap();
        let r = |name: &str| run_dir.path().join(name);
        warsim()
            .args([
                "run",
                "--rules",
                rules,
                "--players",
                players,
                "--ranks",
                ranks,
            ])
            .args(["--games", "1500", "--seed", "11", "-q", "--threads", "1"])
            .arg("--summary")
            .arg(r("summary.csv"))
            .arg("--histogram")
            .arg(r("hist.csv"))
            .arg("--csv")
            .arg(r("games.csv"))
            .assert()
            .success();
        let run = &rows(&r("summary.csv"))[0];
        for (key, value) in run {
            if TIMING.contains(&key.as_str()) {
                continue;
            }
            match key.strip_prefix("seat") {
                Some(rest) => {
                    let (seat, figure) = rest.split_once('_').unwrap();
                    let row = seats
                        .iter()
                        .find(|s| &s["cell"] == index && s["seat"] == seat)
                        .unwrap_or_else(|| panic!("cell {index} seat {seat} missing"));
                    assert_eq!(&row[figure], value, "cell {index} {key}");
                }
                None => assert_eq!(&cell[key], value, "cell {index} {key}"),
            }
        }
        let seat_rows = seats.iter().filter(|s| &s["cell"] == index).count();
        assert_eq!(seat_rows.to_string(), *players);
        // The histogram and the per-game rows of the cell are the run's, led by its settings.
        let lead = format!("{index},{rules},{players},{ranks},");
        let pick = |text: &str| -> Vec<String> {
            let kept: String = text
                .lines()
                .filter(|l| l.starts_with(&lead))
                .map(|l| format!("{l}\n"))
                .collect();
            lines_after_prefix(&kept, 4)
        };
        let run_histogram = std::fs::read_to_string(r("hist.csv")).unwrap();
        assert_eq!(
            pick(&histogram),
            run_histogram.lines().skip(1).collect::<Vec<_>>()
        );
        let run_games = std::fs::read_to_string(r("games.csv")).unwrap();
        assert_eq!(pick(&games), run_games.lines().skip(1).collect::<Vec<_>>());
    }
    assert!(
        histogram.starts_with("cell,rules,players,ranks,rounds,games,share,cumulative,survival\n")
    );
    assert!(games.starts_with("cell,rules,players,ranks,game,seed,rounds,"));
    assert_eq!(games.lines().count(), 1 + 6 * 1500);

    // One thread gives the same tables but for the timing columns.
    warsim()
        .args(sweep_args)
        .args(["--threads", "1"])
        .arg("--csv")
        .arg(p("cells1.csv"))
        .arg("--games-csv")
        .arg(p("games1.csv"))
        .assert()
        .success();
    let strip = |mut rows: Vec<BTreeMap<String, String>>| {
        rows.iter_mut()
            .for_each(|r| TIMING.iter().for_each(|k| drop(r.remove(*k))));
        rows
    };
    assert_eq!(strip(rows(&p("cells1.csv"))), strip(cells));
    assert_eq!(std::fs::read(p("games1.csv")).unwrap(), games.as_bytes());
}

#[test]
fn the_hdr_log_has_one_interval_per_cell_tagged_with_its_settings() {
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    let dir = TempDir::new().unwrap();
    let log = dir.path().join("cells.hlog");
    warsim()
        .args([
            "sweep",
            "--players",
            "2..4",
            "--games",
            "800",
            "-q",
            "--hdr",
        ])
        .arg(&log)
        .assert()
        .success();
    let text = std::fs::read(&log).unwrap();
    let mut deserializer = hdrhistogram::serialization::Deserializer::new();
    let mut seen = Vec::new();
    for entry in IntervalLogIterator::new(&text) {
        if let LogEntry::Interval(interval) = entry.unwrap() {
            let tag = interval.tag().unwrap().as_str().to_string();
            let bytes = base64_decode(interval.encoded_histogram());
            let histogram: hdrhistogram::Histogram<u64> =
                deserializer.deserialize(&mut &bytes[..]).unwrap();
            seen.push((tag, histogram.len()));
        }
    }
    assert_eq!(seen.len(), 3);
    for (players, (tag, count)) in (2..=4).zip(&seen) {
        assert!(tag.contains(&format!(";players={players};")), "{tag}");
        let censored: u64 = ["capped=", "cycle="]
            .iter()
            .map(|k| {
                tag.split(';')
                    .find_map(|p| p.strip_prefix(k))
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(count + censored, 800, "{tag}");
    }
}

#[test]
fn an_interrupted_sweep_keeps_every_cell_begun_and_says_so() {
    let dir = TempDir::new().unwrap();
    let games = dir.path().join("games.csv");
    let json = dir.path().join("sweep.json");
    let (g, j) = (games.to_str().unwrap(), json.to_str().unwrap());
    let args = [
        "sweep",
        "--players",
        "2,3",
        "--games",
        "1e12",
        "-q",
        "--threads",
        "2",
        "--games-csv",
        g,
        "--json",
        j,
    ];
    let out = common::interrupt_once_written(&args, &games, 200_000);
    assert_eq!(out.status.code(), Some(130));
    let said = String::from_utf8_lossy(&out.stderr);
    let err = common::disk::past_room_warnings(&said);
    assert!(
        err.starts_with("interrupted in cell 0 of cells 0 to 1 (SIGINT"),
        "{err}"
    );
    let kept = format!(
        " games played; the per-game CSV ({g}) holds them; the tables hold every cell begun, \
         the last marked complete: false\n"
    );
    assert!(err.ends_with(&kept), "{err}");
    let csv = std::fs::read(&games).unwrap();
    assert_eq!(csv.last(), Some(&b'\n'), "the CSV ends on a whole row");
    let rows = csv.iter().filter(|&&b| b == b'\n').count() - 1;
    let json = common::json(&dir.path().join("sweep.json"));
    assert_eq!(json["complete"], false);
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 1, "the second cell never began");
    assert_eq!(cells[0]["games"], rows as u64);
    assert_eq!(cells[0]["complete"], false);
}

#[test]
fn abandoned_games_get_a_column_where_some_were_abandoned() {
    // Four players holding one card each of two ranks: every game is given up (round 101 or
    // 11); with nothing abandoned the column is left out.
    let args = [
        "sweep",
        "--rules",
        "war-simulator-original",
        "--players",
        "4",
        "--suits",
        "2",
        "--ranks",
        "2",
        "--games",
        "10",
        "-q",
    ];
    let out = warsim()
        .args(args)
        .args(["--abandon-after", "100,10"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().nth(1).unwrap();
    assert!(header.trim_end().ends_with("cycle  abandoned"), "{text}");
    assert_eq!(text.matches("100.00%").count(), 2, "{text}");
    let out = warsim()
        .args(["sweep", "--players", "2,3", "--games", "10", "-q"])
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains("abandoned"));
}

#[test]
fn the_report_counts_one_cell_and_one_game_in_the_singular() {
    let first_line = |games: &str, ranks: &str| {
        let out = warsim()
            .args(["sweep", "--games", games, "--ranks", ranks, "-q"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().next().unwrap().to_string()
    };
    assert!(first_line("1", "13").starts_with("sweep        1 cell × 1 game   seed 0"));
    assert!(first_line("1e3", "2,13").starts_with("sweep        2 cells × 1,000 games   seed 0"));
}

#[test]
fn a_median_time_above_the_cap_reads_as_the_median_does() {
    // Nearly every game passes 50 rounds: the median is "> 50", its time "> 1 min 40 s".
    let out = warsim()
        .args(["sweep", "--games", "100", "--max-rounds", "50", "-q"])
        .args(["--seconds-per-round", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text.lines().nth(2).unwrap();
    assert!(
        row.contains("> 50") && row.ends_with("> 1 min 40 s"),
        "{text}"
    );
}
