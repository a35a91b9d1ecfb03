//! Length statistics checked against the per-game CSV: exact moments and extremes of the
//! finished games, quantiles that rank capped and cycling games last, and every outcome's share
//! with its interval.

use tempfile::TempDir;

use crate::common;

use common::{base64_decode, warsim};

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
    let json = common::json(&json_path);
    // Every game's length, censored ones as never-ending (capped before cycles).
    let mut finished = Vec::new();
    let mut ranked = Vec::new();
    let (mut wars, mut cards, mut finished_wars) = (Vec::new(), Vec::new(), Vec::new());
    for row in csv::Reader::from_reader(&out.stdout[..]).records() {
        let row = row.unwrap();
        let rounds: u64 = row[2].parse().unwrap();
        wars.push(row[5].parse::<f64>().unwrap());
        match &row[4] {
            "win" | "draw" => {
                finished.push(rounds);
                ranked.push(rounds);
                cards.push(row[8].parse::<f64>().unwrap());
                finished_wars.push(row[5].parse::<f64>().unwrap());
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
    // The ties' spread over every game and over the finished ones, the cards' over the
    // finished ones, two-pass in f64.
    let finished_mean = finished_wars.iter().sum::<f64>() / finished_wars.len() as f64;
    assert!((json["wars_per_finished_game"].as_f64().unwrap() - finished_mean).abs() < 1e-9);
    let spreads = [
        ("wars_per_game", &wars),
        ("wars_per_finished_game", &finished_wars),
        ("cards_played", &cards),
    ];
    for (key, values) in spreads {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let close = |got: &serde_json::Value, expected: f64| {
            (got.as_f64().unwrap() - expected).abs() <= 1e-9 * expected
        };
        assert!(close(&json[format!("{key}_sd")], sd), "{key}: {sd}");
        assert!(close(&json[format!("{key}_se")], sd / n.sqrt()), "{key}");
    }
    assert!(wars.len() == 4000 && cards.len() == finished.len());
}

/// The 95% Wilson score interval of `k` in `n`, as the roots of the quadratic it is defined by,
/// (p̂ − p)² = z² p (1 − p) / n: another derivation than warsim's.
fn wilson_roots(k: u64, n: u64) -> (f64, f64) {
    let (z, p_hat, n) = (1.959_963_984_540_054_f64, k as f64 / n as f64, n as f64);
    let (a, b, c) = (1.0 + z * z / n, -(2.0 * p_hat + z * z / n), p_hat * p_hat);
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a))
}

#[test]
fn every_outcome_has_its_share_and_wilson_interval() {
    let dir = TempDir::new().unwrap();
    let json_path = dir.path().join("s.json");
    let out = warsim()
        .args([
            "run", "--games", "3000", "--seed", "4", "-q", "--pickup", "seats",
        ])
        .args(["--max-rounds", "2000", "--csv", "-", "--json"])
        .arg(&json_path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let json = common::json(&json_path);
    let report = String::from_utf8(out.stderr).unwrap();
    let intervals = report
        .lines()
        .find(|line| line.trim_start().starts_with("95% CIs  win"))
        .unwrap_or_else(|| panic!("{report}"));
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for row in csv::Reader::from_reader(&out.stdout[..]).records() {
        *counts.entry(row.unwrap()[4].to_string()).or_default() += 1;
    }
    let occurred = ["capped", "cycle", "win"];
    assert_eq!(counts.keys().collect::<Vec<_>>(), occurred, "{counts:?}");
    let mut shares = 0.0;
    for outcome in ["win", "draw", "capped", "cycle", "abandoned"] {
        let k = counts.get(outcome).copied().unwrap_or(0);
        let (low, high) = wilson_roots(k, 3000);
        let get = |key: &str| json[format!("{outcome}_{key}")].as_f64().unwrap();
        assert_eq!(get("share"), k as f64 / 3000.0, "{outcome}");
        assert!((get("ci95_low") - low).abs() < 1e-12, "{outcome}: {low}");
        assert!((get("ci95_high") - high).abs() < 1e-12, "{outcome}: {high}");
        shares += get("share");
        // The report gives the intervals of the outcomes that occurred.
        let text = format!("{outcome} {:.3} – {:.3}%", 100.0 * low, 100.0 * high);
        assert_eq!(intervals.contains(&text), k > 0, "{text} in {intervals}");
    }
    assert!((shares - 1.0).abs() < 1e-12);
}

#[test]
fn the_histogram_is_exact_against_the_per_game_csv() {
    let dir = TempDir::new().unwrap();
    let histogram = dir.path().join("h.csv");
    let out = warsim()
        .args([
            "run",
            "--games",
            "3000",
            "--seed",
            "11",
            "-q",
            "--pickup",
            "seats",
            "--max-rounds",
            "2000",
            "--csv",
            "-",
            "--histogram",
        ])
        .arg(&histogram)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut expected = std::collections::BTreeMap::<u64, u64>::new();
    let mut games = 0u64;
    for row in csv::Reader::from_reader(&out.stdout[..]).records() {
        let row = row.unwrap();
        games += 1;
        if matches!(&row[4], "win" | "draw") {
            *expected.entry(row[2].parse().unwrap()).or_insert(0) += 1;
        }
    }
    let mut reader = csv::Reader::from_path(&histogram).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec!["rounds", "games", "share", "cumulative", "survival"]
    );
    let mut ended = 0u64;
    let mut seen = std::collections::BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let (rounds, count): (u64, u64) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        ended += count;
        seen.insert(rounds, count);
        let share: f64 = row[2].parse().unwrap();
        let cumulative: f64 = row[3].parse().unwrap();
        let survival: f64 = row[4].parse().unwrap();
        assert!((share - count as f64 / games as f64).abs() < 1e-12);
        assert!((cumulative - ended as f64 / games as f64).abs() < 1e-12);
        assert!((survival - (games - ended) as f64 / games as f64).abs() < 1e-12);
    }
    assert_eq!(seen, expected, "one row per length, exact counts");
    assert!(games > ended, "censored games stay in the survival");
}

#[test]
fn the_hdr_log_reads_back_with_hdrhistograms_own_reader() {
    use hdrhistogram::serialization::Deserializer;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};

    let dir = TempDir::new().unwrap();
    let log_path = dir.path().join("lengths.hlog");
    let out = warsim()
        .args([
            "run", "--games", "4000", "--seed", "5", "-q", "--pickup", "seats", "--csv", "-",
            "--hdr",
        ])
        .arg(&log_path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut finished = std::collections::BTreeMap::<u64, u64>::new();
    let mut censored = [0u64; 2];
    for row in csv::Reader::from_reader(&out.stdout[..]).records() {
        let row = row.unwrap();
        match &row[4] {
            "capped" => censored[0] += 1,
            "cycle" => censored[1] += 1,
            _ => *finished.entry(row[2].parse().unwrap()).or_insert(0) += 1,
        }
    }
    let log = std::fs::read(&log_path).unwrap();
    let intervals: Vec<_> = IntervalLogIterator::new(&log)
        .map(Result::unwrap)
        .filter_map(|entry| match entry {
            LogEntry::Interval(interval) => Some(interval),
            _ => None,
        })
        .collect();
    assert_eq!(intervals.len(), 1, "one interval per run");
    let tag = intervals[0].tag().unwrap().as_str().to_string();
    // Every setting that changes a game, as the summary names it, then which games.
    assert!(tag.starts_with("warsim_version="), "{tag}");
    for setting in [
        ";rules=classic;family=table;players=2;",
        ";pickup=seats;",
        ";champion=last;abandon_after=0;group_order=highest-first;deal=from-top;",
        ";generator=xoshiro256++;seed=5;batch_games=4000;first_game=0;",
    ] {
        assert!(tag.contains(setting), "{setting} in {tag}");
    }
    assert!(
        tag.ends_with(&format!(
            ";games=4000;complete=true;capped={};cycle={}",
            censored[0], censored[1]
        )),
        "{tag}"
    );
    let bytes = base64_decode(intervals[0].encoded_histogram());
    let histogram: hdrhistogram::Histogram<u64> =
        Deserializer::new().deserialize(&mut &bytes[..]).unwrap();
    assert_eq!(histogram.len(), finished.values().sum::<u64>());
    // Lengths below 2,048 are exact at 3 significant digits.
    for (&rounds, &count) in finished.range(..2048) {
        assert_eq!(histogram.count_at(rounds), count, "{rounds} rounds");
    }
}

#[test]
fn one_finished_game_has_a_mean_but_no_spread() {
    // Seed 0's first game ends in 128 rounds.
    let out = warsim()
        .args(["run", "--games", "1", "-q", "--json", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["rounds_mean"], 128.0);
    for key in ["rounds", "cards_played", "wars_per_game"] {
        let (sd, se) = (&json[format!("{key}_sd")], &json[format!("{key}_se")]);
        assert!(sd.is_null() && se.is_null(), "{key}");
    }
    let report = String::from_utf8(out.stderr).unwrap();
    assert!(
        report.contains("rounds       mean 128.00 (one game: no sd or s.e.)   min 128   max 128"),
        "{report}"
    );
    // Two games have both.
    let out = warsim()
        .args(["run", "--games", "2", "-q", "--json", "-"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["rounds", "cards_played", "wars_per_game"] {
        let (sd, se) = (&json[format!("{key}_sd")], &json[format!("{key}_se")]);
        assert!(
            sd.as_f64().unwrap() > 0.0 && se.as_f64().unwrap() > 0.0,
            "{key}"
        );
    }
}

#[test]
fn the_quantiles_note_names_the_unfinished_games_that_hold_the_tail() {
    let note = |args: &[&str]| {
        let out = warsim()
            .args(["run", "--games", "3000", "--seed", "4", "-q"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        let report = String::from_utf8(out.stdout).unwrap();
        let line = report
            .lines()
            .find(|l| l.contains("p75 "))
            .unwrap()
            .to_string();
        line.split_once("   (").map(|(_, note)| note.to_string())
    };
    assert_eq!(
        note(&["--pickup", "seats", "--max-rounds", "2000"]).as_deref(),
        Some("all games; capped and cycling games count as longest)")
    );
    // An abandoned game has no length either: it is named, and nothing that did not occur.
    let abandoned: Vec<&str> = "--rules war-simulator-original --players 4 --suits 2 --ranks 4"
        .split(' ')
        .collect();
    assert_eq!(
        note(&abandoned).as_deref(),
        Some("all games; abandoned games count as longest)")
    );
    assert_eq!(note(&["--ranks", "6", "--suits", "2"]), None);
}
