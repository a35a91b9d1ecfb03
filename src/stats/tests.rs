//! The statistics' tests: exact moments and counts, merging, Wilson intervals, and the
//! parts a state file keeps, damaged ones refused.

use super::*;

fn game(rounds: u32, winner: Option<u8>, outcome: Outcome, wars: u32) -> GameRecord {
    GameRecord {
        rounds,
        winner,
        outcome,
        win_by: winner.map(|_| WinBy::Cards),
        wars: wars.into(),
        longest_war: wars.min(2),
        cards_played: 2 * u64::from(rounds),
    }
}

#[test]
fn moments_and_counts_are_exact() {
    let mut s = Stats::new(2, 1000, 1000);
    s.record(&game(10, Some(0), Outcome::Win, 1));
    s.record(&game(20, Some(1), Outcome::Win, 3));
    s.record(&game(30, None, Outcome::Draw, 0));
    s.record(&game(1000, None, Outcome::Capped, 0));
    assert_eq!(s.games, 4);
    assert_eq!(s.outcomes, [2, 1, 1, 0, 0]);
    assert_eq!(s.wins_by_seat, vec![1, 1]);
    let l = s.lengths();
    assert_eq!(l.mean(), Some(20.0), "the capped game has no length");
    assert!((l.sd().unwrap() - 10.0).abs() < 1e-12);
    assert!((l.se().unwrap() - 10.0 / 3f64.sqrt()).abs() < 1e-12);
    assert!((s.wars_per_game().unwrap() - 1.0).abs() < 1e-12);
    // Ties 1, 3, 0, 0 over all four games: variance (1 + 9 − 4·1²)/3 = 2.
    assert_eq!((s.wars().sum, s.wars().squares), (4, Some(10)));
    assert!((s.wars().sd(s.games).unwrap() - 2f64.sqrt()).abs() < 1e-12);
    assert!((s.wars().se(s.games).unwrap() - 2f64.sqrt() / 2.0).abs() < 1e-12);
    // Cards 20, 40, 60 of the finished games only: sd 20, as the rounds' 10 doubled.
    assert_eq!(s.cards_played().sum, 120);
    assert!((s.cards_played().sd(3).unwrap() - 20.0).abs() < 1e-12);
    assert_eq!((l.min(), l.max()), (Some(10), Some(30)));
    assert_eq!(l.quantile(50_000), Some(Quantile::Rounds(20)));
    assert_eq!(l.quantile(90_000), Some(Quantile::AboveCap(1000)));
    assert_eq!(s.longest_war, 2);
}

#[test]
fn merging_equals_recording_everything_in_one() {
    let games: Vec<GameRecord> = (1..=100)
        .map(|i| {
            let outcome = if i % 17 == 0 {
                Outcome::Cycle
            } else {
                Outcome::Win
            };
            game(i * 7 % 300 + 1, Some((i % 2) as u8), outcome, i % 5)
        })
        .collect();
    let mut whole = Stats::new(2, 1000, 1000);
    games.iter().for_each(|g| whole.record(g));
    let mut left = Stats::new(2, 1000, 1000);
    let mut right = Stats::new(2, 1000, 1000);
    games[..37].iter().for_each(|g| left.record(g));
    games[37..].iter().for_each(|g| right.record(g));
    right += &left;
    assert_eq!(right.games, whole.games);
    assert_eq!(right.wins_by_seat, whole.wins_by_seat);
    assert_eq!(right.lengths(), whole.lengths());
    assert_eq!(right.wars_per_game(), whole.wars_per_game());
    assert_eq!(right.wars(), whole.wars());
    assert_eq!(right.cards_played(), whole.cards_played());
}

#[test]
fn damaged_parts_are_refused() {
    let mut s = Stats::new(2, 1000, 1000);
    s.record(&game(10, Some(0), Outcome::Win, 0));
    s.record(&game(12, Some(1), Outcome::Win, 0));
    s.record(&game(1000, None, Outcome::Capped, 0));
    assert!(Stats::from_parts(&s.parts(), 1000, 1000).is_ok());
    let damaged = |edit: fn(&mut StatsParts)| {
        let mut parts = s.parts();
        edit(&mut parts);
        Stats::from_parts(&parts, 1000, 1000).unwrap_err()
    };
    // More wins decided by cards than wins.
    assert!(damaged(|p| p.win_by[0] += 1).contains("do not add up"));
    // A finished game longer than the cap.
    assert!(
        damaged(|p| p.rounds[1] = 1001).ends_with("longer than its rules allow (1,000 rounds)")
    );
    // Counts of 2^63 that would wrap round to the games' count.
    let wrapped = damaged(|p| {
        p.outcomes[0] += 1 << 63;
        p.outcomes[1] += 1 << 63;
        p.wins_by_seat[0] += 1 << 63;
        p.wins_by_seat[1] += 1 << 63;
    });
    assert!(wrapped.contains("do not add up"), "{wrapped}");
    assert!(damaged(|p| p.rounds_games = vec![u64::MAX, 3]).contains("overflow"));
    // Ties for three games of u64 ties each and cards for two finished games of u64 cards each
    // load; one more, and sums of such counts could pass a u128.
    let with = |wars_sum: u128, finished_cards: u128| {
        let mut parts = s.parts();
        (parts.wars_sum, parts.finished_cards) = (wars_sum, finished_cards);
        (parts.wars_squares, parts.finished_cards_squares) = (None, None);
        Stats::from_parts(&parts, 1000, 1000)
    };
    let (ties, cards) = (3 * u128::from(u64::MAX), 2 * u128::from(u64::MAX));
    assert!(with(ties, cards).is_ok());
    for (wars_sum, finished_cards) in [(ties + 1, cards), (ties, cards + 1)] {
        let refused = with(wars_sum, finished_cards).unwrap_err();
        assert!(refused.contains("more ties or cards"), "{refused}");
    }
    // Squares that no games' counts can have: below the sum, or (3 games of 6 ties in all,
    // at least 12 squared) a spread below nil.
    let squares = damaged(|p| p.finished_cards_squares = Some(43));
    assert!(squares.contains("squared ties or cards"), "{squares}");
    let squares = damaged(|p| (p.wars_sum, p.wars_squares) = (6, Some(11)));
    assert!(squares.contains("squared ties or cards"), "{squares}");
}

#[test]
fn parts_without_squares_load_with_no_spread() {
    let mut s = Stats::new(2, 1000, 1000);
    s.record(&game(10, Some(0), Outcome::Win, 2));
    s.record(&game(14, Some(1), Outcome::Win, 4));
    let parts = s.parts();
    let loaded = Stats::from_parts(&parts, 1000, 1000).unwrap();
    assert_eq!(
        (loaded.wars(), loaded.cards_played()),
        (s.wars(), s.cards_played())
    );
    assert_eq!(loaded.wars().sd(2), Some(2f64.sqrt()));
    // A state written before the squares were kept: the same means, no spread, and none for
    // the games merged with it.
    let json = serde_json::to_value(&parts).unwrap();
    let mut old = json.as_object().unwrap().clone();
    old.remove("wars_squares");
    old.remove("finished_cards_squares");
    let old: StatsParts = serde_json::from_value(old.into()).unwrap();
    let mut loaded = Stats::from_parts(&old, 1000, 1000).unwrap();
    assert_eq!(loaded.wars_per_game(), s.wars_per_game());
    assert_eq!(
        (loaded.wars().sd(2), loaded.cards_played().se(2)),
        (None, None)
    );
    loaded += &s;
    assert_eq!((loaded.wars().sum, loaded.wars().squares), (12, None));
}

#[test]
fn finished_games_ties_leave_out_the_unfinished_ones() {
    let mut s = Stats::new(2, 1000, 1000);
    s.record(&game(10, Some(0), Outcome::Win, 2));
    s.record(&game(14, Some(1), Outcome::Win, 4));
    s.record(&game(1000, None, Outcome::Capped, 90));
    s.record(&game(40, None, Outcome::Cycle, 30));
    // Ties 2 and 4 of the finished games: mean 3, sd √2; all four games' mean is 31.5.
    assert_eq!(s.wars_per_game(), Some(31.5));
    assert_eq!(s.finished_wars().unwrap().mean(2), Some(3.0));
    let finished = s.finished_wars().unwrap();
    assert_eq!((finished.sum, finished.squares), (6, Some(20)));
    assert_eq!(finished.sd(2), Some(2f64.sqrt()));
    // Kept in the parts, and merged.
    let loaded = Stats::from_parts(&s.parts(), 1000, 1000).unwrap();
    assert_eq!(loaded.finished_wars(), s.finished_wars());
    let mut twice = loaded.clone();
    twice += &s;
    assert_eq!(twice.finished_wars().map(|f| f.sum), Some(12));
    // A state written before they were kept: unknown where some game did not finish...
    let mut old = s.parts();
    (old.unfinished_wars, old.unfinished_wars_squares) = (None, None);
    let loaded = Stats::from_parts(&old, 1000, 1000).unwrap();
    assert_eq!(loaded.finished_wars(), None);
    twice += &loaded;
    assert_eq!(twice.finished_wars(), None);
    // ...and all the games' ties where every game did.
    let mut all_ended = Stats::new(2, 1000, 1000);
    all_ended.record(&game(10, Some(0), Outcome::Win, 2));
    let mut old = all_ended.parts();
    (old.unfinished_wars, old.unfinished_wars_squares) = (None, None);
    let loaded = Stats::from_parts(&old, 1000, 1000).unwrap();
    assert_eq!(loaded.finished_wars(), Some(*all_ended.wars()));
    // More unfinished ties than all games' (126, squared 9,020), or finished games' left with
    // squares no two games' 6 ties can have (over 36): refused.
    for (sum, squares) in [(127, Some(9000)), (120, Some(9021)), (120, Some(8900))] {
        let mut damaged = s.parts();
        (damaged.unfinished_wars, damaged.unfinished_wars_squares) = (Some(sum), squares);
        let refused = Stats::from_parts(&damaged, 1000, 1000).unwrap_err();
        assert!(
            refused.contains("unfinished games' ties"),
            "{sum} {squares:?}: {refused}"
        );
    }
}

#[test]
fn abandoned_games_have_no_length_and_older_parts_still_load() {
    let mut s = Stats::new(2, 1000, 1000);
    s.record(&game(10, Some(0), Outcome::Win, 0));
    s.record(&game(101, None, Outcome::Abandoned, 0));
    assert_eq!(s.outcomes, [1, 0, 0, 0, 1]);
    assert_eq!(s.lengths().mean(), Some(10.0));
    assert_eq!(s.lengths().never_games(), 1);
    let parts = s.parts();
    assert_eq!(
        Stats::from_parts(&parts, 1000, 1000)
            .unwrap()
            .count(Outcome::Abandoned),
        1
    );
    // Parts written before `abandoned` existed: four outcomes, none abandoned.
    let mut old = Stats::new(2, 1000, 1000);
    old.record(&game(10, Some(0), Outcome::Win, 0));
    old.record(&game(5, None, Outcome::Cycle, 0));
    let mut parts = old.parts();
    parts.outcomes.pop();
    let loaded = Stats::from_parts(&parts, 1000, 1000).unwrap();
    assert_eq!(
        (
            loaded.count(Outcome::Cycle),
            loaded.count(Outcome::Abandoned)
        ),
        (1, 0)
    );
}

#[test]
fn wilson_interval_matches_known_values() {
    // 50 of 100: 0.5 with interval [0.4038, 0.5962].
    let (p, lo, hi) = wilson_95(50, 100).unwrap();
    assert_eq!(p, 0.5);
    assert!(
        (lo - 0.403_8).abs() < 1e-4 && (hi - 0.596_2).abs() < 1e-4,
        "{lo} {hi}"
    );
    let (_, lo, hi) = wilson_95(0, 10).unwrap();
    assert_eq!(lo, 0.0);
    assert!((hi - 0.277_5).abs() < 1e-4, "{hi}");
    // The ends are exact at every size (rounding once left 3.5e-18 at 0 of 100), and the
    // interval of k failures mirrors that of k successes.
    for n in 1..=1_000 {
        assert_eq!(wilson_95(0, n).unwrap().1, 0.0, "0 of {n}");
        assert_eq!(wilson_95(n, n).unwrap().2, 1.0, "{n} of {n}");
        let (_, lo, hi) = wilson_95(n / 3, n).unwrap();
        let (_, mirror_lo, mirror_hi) = wilson_95(n - n / 3, n).unwrap();
        assert!((lo - (1.0 - mirror_hi)).abs() < 1e-12 && (hi - (1.0 - mirror_lo)).abs() < 1e-12);
    }
    // No trials: no share and no interval, rather than a confident [0, 0].
    assert_eq!(wilson_95(0, 0), None);
}
