//! Length statistics checked against the per-game CSV: exact moments and extremes of the
//! finished games, and quantiles that rank capped and cycling games last.

use assert_cmd::Command;
use tempfile::TempDir;

fn warsim() -> Command {
    Command::cargo_bin("warsim").unwrap()
}

#[test]
fn length_statistics_are_exact_and_leave_censored_games_out() {
    let dir = TempDir::new().unwrap();
    let json_path = dir.path().join("s.json");
    let out = warsim()
        .args([
            "run",
            "--games",
            "4000",
            "--seed",
            "3",
            "-q",
            "--pickup",
            "seats",
            "--face-down",
            "3",
            "--war-shortage",
            "play-what-you-have",
            "--max-rounds",
            "3000",
            "--csv",
            "-",
            "--json",
        ])
        .arg(&json_path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();
    // Every game's length, censored ones as never-ending (capped before cycles).
    let mut finished = Vec::new();
    let mut ranked = Vec::new();
    for row in csv::Reader::from_reader(&out.stdout[..]).records() {
        let row = row.unwrap();
        let rounds: u64 = row[2].parse().unwrap();
        match &row[4] {
            "win" | "draw" => {
                finished.push(rounds);
                ranked.push(rounds);
            }
            "capped" => ranked.push(u64::MAX - 1),
            "cycle" => ranked.push(u64::MAX),
            other => panic!("{other}"),
        }
    }
    ranked.sort_unstable();
    let censored = ranked.len() - finished.len();
    assert!(
        censored > 1000 && json["capped"].as_u64().unwrap() > 0,
        "{censored}"
    );
    assert_eq!(json["finished"], finished.len() as u64);
    let mean = finished.iter().sum::<u64>() as f64 / finished.len() as f64;
    assert!((json["rounds_mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert_eq!(json["rounds_min"], *finished.iter().min().unwrap());
    assert_eq!(json["rounds_max"], *finished.iter().max().unwrap());
    assert!(json["rounds_max"].as_u64().unwrap() <= 3000);
    for (key, q) in [
        ("rounds_p50", 0.5),
        ("rounds_p90", 0.9),
        ("rounds_p99", 0.99),
    ] {
        let rank = (q * ranked.len() as f64).ceil() as usize;
        let expected = ranked[rank - 1];
        if expected >= u64::MAX - 1 {
            assert!(json[key].is_null(), "{key} falls among censored games");
        } else {
            assert_eq!(json[key], expected, "{key}");
        }
    }
    assert!(json["rounds_p50"].is_u64() && json["rounds_p99"].is_null());
}
