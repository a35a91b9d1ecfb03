//! `warsim run` samples the games `warsim enumerate` counts exactly: for small decks, a run's
//! outcomes, wins by seat and by what decided them, mean length, ties per finished game and
//! whole length distribution agree with every deal weighed alike, within a few standard errors; and the intervals a run
//! reports (Wilson, the mean's, the median's and p90's) cover the exact figures as often as their
//! 95% says, over a thousand seeded batches.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;
use warsim::batch::Workers;
use warsim::engine::{Engine, Outcome, Preset, Rules, game_seed};
use warsim::enumerate::{DealSet, Plan, Tally};
use warsim::stats::{Quantile, Stats};

/// Games each run samples: a standard error of about 0.1 percentage point on a share.
const GAMES: u64 = 200_000;

/// Most standard errors a sampled figure may stand from the exact one. A rule set makes a few
/// hundred comparisons at most (two for each length); a sampler that deals as the enumeration
/// counts passes 5 in one of them about once in ten thousand rule sets. A seat given the
/// wrong hand size stands hundreds off.
const MOST_ERRORS: f64 = 5.0;

/// A length histogram (`warsim run`'s or `warsim enumerate`'s): for each length, its games (or
/// deals) and the share of them all that had ended within it.
type Lengths = BTreeMap<u64, (u64, f64)>;

/// `warsim run` and `warsim enumerate` with the same rule flags, their JSON and length
/// histograms read back.
fn sample_and_count(dir: &Path, rules: &[&str]) -> ((Value, Lengths), (Value, Lengths)) {
    let (run_json, run_hist) = (dir.join("run.json"), dir.join("run.csv"));
    let (all_json, all_hist) = (dir.join("all.json"), dir.join("all.csv"));
    let games = GAMES.to_string();
    let run = ["run", "--quiet", "--seed", "11", "--games", &games];
    let outputs = |json, histogram| ["--json", path(json), "--histogram", path(histogram)];
    common::stdout_of(&[&run[..], rules, &outputs(&run_json, &run_hist)].concat());
    let all = ["enumerate", "--quiet"];
    common::stdout_of(&[&all[..], rules, &outputs(&all_json, &all_hist)].concat());
    let (run, all) = (common::json(&run_json), common::json(&all_json));
    ((run, lengths(&run_hist)), (all, lengths(&all_hist)))
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The rounds of a histogram CSV, read by its columns' names: a run's
/// `rounds,games,share,cumulative,survival`, or an enumeration's rows of `measure` rounds in
/// `measure,value,deals,share,cumulative,survival`.
fn lengths(csv: &Path) -> Lengths {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name| header.iter().position(|h| *h == name).unwrap();
    let enumerated = header[0] == "measure";
    let (rounds, count) = match enumerated {
        true => (column("value"), column("deals")),
        false => (column("rounds"), column("games")),
    };
    let cumulative = column("cumulative");
    let rows = lines.map(|line| line.split(',').collect::<Vec<_>>());
    rows.filter(|row| !enumerated || row[0] == "rounds")
        .map(|row| {
            let (count, share) = (
                row[count].parse().unwrap(),
                row[cumulative].parse().unwrap(),
            );
            (row[rounds].parse().unwrap(), (count, share))
        })
        .collect()
}

/// How many standard errors of a sample of `n` the share `k / n` stands from `p`.
fn errors_off(k: u64, n: u64, p: f64) -> f64 {
    let q = k as f64 / n as f64;
    if p == 0.0 || p == 1.0 {
        // A share the deals rule out or make certain: any other sample is infinitely far.
        return if q == p { 0.0 } else { f64::INFINITY };
    }
    (q - p) / (p * (1.0 - p) / n as f64).sqrt()
}

fn count(figures: &Value, key: &str) -> u64 {
    figures[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {figures}"))
}

#[test]
fn runs_estimate_the_figures_of_every_deal_weighed_alike() {
    let dir = TempDir::new().unwrap();
    let bataille = format!("--suits 4 --ranks 3 {}", common::BATAILLE.join(" "));
    // Its loops skipped to the cap and decided there by the larger pile or sudden death.
    let decided = format!("{bataille} --at-cap larger-pile --max-rounds 1001");
    let rule_sets = [
        "--suits 4 --ranks 3",
        &bataille,
        &decided,
        // Decks the players do not divide: the first seats get one card more.
        "--suits 1 --ranks 7 --pickup seats",
        "--players 3 --suits 2 --ranks 5",
        "--players 4 --suits 3 --ranks 3 --face-down 2",
        "--rules game-of-war --reshuffle-every 0 --suits 3 --ranks 3",
        "--rules cards-war --suits 2 --ranks 4",
        "--rules war-card-game --suits 3 --ranks 4",
    ];
    for rules in rule_sets {
        let flags: Vec<&str> = rules.split_whitespace().collect();
        let ((run, run_lengths), (all, all_lengths)) = sample_and_count(dir.path(), &flags);
        let (n, deals) = (count(&run, "games"), count(&all, "deals"));
        assert_eq!(n, GAMES);
        let mut checks = vec![];
        let players = run["players"].as_u64().unwrap();
        let seats = (1..=players).map(|s| format!("seat{s}_wins"));
        let decided = ["cards", "cap", "sudden_death", "short_tie", "score"];
        let decided = decided.map(|by| format!("win_by_{by}"));
        for key in ["win", "draw", "cycle", "capped"]
            .map(String::from)
            .into_iter()
            .chain(seats)
            .chain(decided)
        {
            let p = count(&all, &key) as f64 / deals as f64;
            checks.push((key.clone(), errors_off(count(&run, &key), n, p)));
        }
        for r in run_lengths.keys().chain(all_lengths.keys()) {
            let p = all_lengths.get(r).map_or(0, |l| l.0) as f64 / deals as f64;
            let k = run_lengths.get(r).map_or(0, |l| l.0);
            checks.push((format!("{r} rounds"), errors_off(k, n, p)));
        }
        // Both histograms share over every game or deal, looping ones included.
        for (r, &(_, exact)) in &all_lengths {
            let sampled = run_lengths.range(..=r).next_back().map_or(0.0, |l| l.1.1);
            let ended = (sampled * n as f64).round() as u64;
            checks.push((format!("share ended by {r}"), errors_off(ended, n, exact)));
        }
        let (mean, se) = (run["rounds_mean"].as_f64(), run["rounds_se"].as_f64());
        let exact = all["rounds_mean"].as_f64();
        checks.push((
            "mean".into(),
            (mean.unwrap() - exact.unwrap()) / se.unwrap(),
        ));
        // Ties per finished game, over the same games enumerate counts as finite.
        let (mean, se) = (
            run["wars_per_finished_game"].as_f64(),
            run["wars_per_finished_game_se"].as_f64(),
        );
        let (off, se) = (
            mean.unwrap() - all["wars_mean"].as_f64().unwrap(),
            se.unwrap(),
        );
        // One suit has no ties: then none, exactly.
        let errors = if se > 0.0 {
            off / se
        } else {
            off * f64::INFINITY
        };
        checks.push(("ties".into(), if off == 0.0 { 0.0 } else { errors }));
        // The spread: enumerate's exact sd against its own histogram's, then the run's sample
        // sd against it, whose standard error is √(μ4 − σ⁴) / (2σ√n) (the delta method).
        let finite: Vec<(f64, f64)> = all_lengths
            .iter()
            .map(|(&r, l)| (r as f64, l.0 as f64))
            .collect();
        let total: f64 = finite.iter().map(|l| l.1).sum();
        let centred = |power: i32| {
            let mean = all["rounds_mean"].as_f64().unwrap();
            finite
                .iter()
                .map(|&(r, k)| k * (r - mean).powi(power))
                .sum::<f64>()
                / total
        };
        let (sigma, fourth) = (centred(2).sqrt(), centred(4));
        let exact_sd = all["rounds_sd"].as_f64().unwrap();
        assert!(
            (exact_sd - sigma).abs() <= 1e-9 * sigma,
            "{rules}: sd {exact_sd} against {sigma}"
        );
        if sigma > 0.0 {
            let finished = count(&run, "finished") as f64;
            let se = (fourth - sigma.powi(4)).sqrt() / (2.0 * sigma * finished.sqrt());
            let sampled = run["rounds_sd"].as_f64().unwrap();
            checks.push(("sd".into(), (sampled - sigma) / se));
        }
        let worst = checks
            .iter()
            .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
            .unwrap();
        assert!(
            worst.1.abs() < MOST_ERRORS,
            "{rules}: the sampled {} stands {:.1} standard errors from the exact figure",
            worst.0,
            worst.1
        );
    }
}

// ---- the reported intervals cover the exact figures at their level ----

/// Batches, and games in each: small batches, where intervals are least accurate.
const BATCHES: u64 = 1_000;
const BATCH_GAMES: u64 = 200;

fn exact(rules: &Rules) -> Tally {
    Plan::new(rules, DealSet::All, 1 << 40)
        .unwrap()
        .run(&Workers::new(2).unwrap(), &|_| {}, &|| false)
        .unwrap()
}

/// The exact quantile `parts / 100,000` of `tally`'s deals' lengths (all finite): the
/// ⌈pN⌉-th shortest.
fn exact_quantile(tally: &Tally, parts: u64) -> u64 {
    let mut seen = 0;
    for (rounds, deals) in tally.rounds.iter().enumerate() {
        seen += deals;
        if 100_000 * seen >= parts * tally.deals {
            return rounds as u64;
        }
    }
    unreachable!("every deal is finite")
}

#[test]
fn reported_intervals_cover_the_exact_figures_as_often_as_they_say() {
    let mut rules = Preset::Classic.rules();
    (rules.suits, rules.ranks) = (4, 3);
    let tally = exact(&rules);
    assert_eq!((tally.cycled, tally.capped), (0, 0), "every deal is finite");
    let seat1 = tally.wins[0] as f64 / tally.deals as f64;
    let mean = tally.rounds_sum() as f64 / tally.deals as f64;
    let quantiles = [50_000, 90_000].map(|parts| (parts, exact_quantile(&tally, parts)));
    let mut engine = Engine::for_rules(&rules);
    let mut covered = [0u64; 4];
    for batch in 0..BATCHES {
        let mut stats = Stats::new(2, 1 << 10, rules.max_rounds);
        for game in batch * BATCH_GAMES..(batch + 1) * BATCH_GAMES {
            let record = engine.play(&rules, game_seed(2026, game));
            assert_ne!(record.outcome, Outcome::Cycle);
            stats.record(&record);
        }
        let (_, low, high) = stats.win_share(0).unwrap();
        covered[0] += u64::from(low <= seat1 && seat1 <= high);
        let lengths = stats.lengths();
        let (m, se) = (lengths.mean().unwrap(), lengths.se().unwrap());
        covered[1] += u64::from((m - mean).abs() <= 1.959964 * se);
        for (i, &(parts, exact)) in quantiles.iter().enumerate() {
            let (low, high) = lengths.quantile_ci95(parts as u32).unwrap();
            let inside = matches!((low, high), (Quantile::Rounds(low), Quantile::Rounds(high))
                if low <= exact && exact <= high);
            covered[2 + i] += u64::from(inside);
        }
    }
    // 1,000 batches: a true 95% covers 930 to 970 times (about 2.9 standard errors either
    // side). The quantiles' intervals are distribution-free, so over lengths with ties they
    // cover more than 95%, by a chance computed exactly below.
    let [wilson, mean_interval, quantile_intervals @ ..] = covered;
    assert!(
        (930..=970).contains(&wilson),
        "Wilson covered {wilson} of 1,000"
    );
    assert!(
        (930..=970).contains(&mean_interval),
        "mean ± 1.96 s.e. covered {mean_interval}"
    );
    for (&(parts, exact), covered) in quantiles.iter().zip(quantile_intervals) {
        let chance = quantile_coverage(&tally, parts, exact, BATCH_GAMES);
        let expected = chance * BATCHES as f64;
        let spread = 3.0 * (expected * (1.0 - chance)).sqrt();
        assert!(
            (covered as f64 - expected).abs() <= spread,
            "the interval of {parts} parts covered {covered}, expected {expected:.0} ± {spread:.0}"
        );
    }
}

/// The chance that the interval X(l) to X(u) of `n` games covers the quantile `exact` (of
/// `parts / 100,000`): it misses when fewer than l games are at most `exact` long, or u or
/// more are shorter (never both, as l < u), two binomial tails. l is the largest with
/// P(Bin(n, p) < l) ≤ 2.5%, u the smallest with P(Bin(n, p) ≥ u) ≤ 2.5%.
fn quantile_coverage(tally: &Tally, parts: u64, exact: u64, n: u64) -> f64 {
    let share = |games: u64| games as f64 / tally.deals as f64;
    let shorter = share(tally.rounds[..exact as usize].iter().sum());
    let at_most = shorter + share(tally.rounds[exact as usize]);
    let p = parts as f64 / 100_000.0;
    let l = (1..=n)
        .take_while(|&l| binomial_below(n, p, l) <= 0.025)
        .last()
        .unwrap();
    let u = (1..=n)
        .find(|&u| 1.0 - binomial_below(n, p, u) <= 0.025)
        .unwrap();
    1.0 - binomial_below(n, at_most, l) - (1.0 - binomial_below(n, shorter, u))
}

/// P(Bin(n, p) < k), summed term by term.
fn binomial_below(n: u64, p: f64, k: u64) -> f64 {
    let ln_choose =
        |k: u64| -> f64 { (0..k).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum() };
    (0..k.min(n + 1))
        .map(|i| (ln_choose(i) + i as f64 * p.ln() + (n - i) as f64 * (1.0 - p).ln()).exp())
        .sum()
}
