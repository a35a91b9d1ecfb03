use super::*;

#[test]
fn the_band_is_each_shares_wilson_interval() {
    // 100 games, all going at round 0, 50 at 10, none at 20: upper ends left to right,
    // lower ends back, 0 raised to the floor.
    let outline = band_outline(&[(0.0, 100), (10.0, 50), (20.0, 0)], 100, 0.001);
    let xs: Vec<f64> = outline.iter().map(|p| p.0).collect();
    assert_eq!(xs, [0.0, 10.0, 20.0, 20.0, 10.0, 0.0]);
    let (_, low_all, _) = wilson_95(100, 100).unwrap();
    let (_, low_half, high_half) = wilson_95(50, 100).unwrap();
    let (_, _, high_none) = wilson_95(0, 100).unwrap();
    let ys: Vec<f64> = outline.iter().map(|p| p.1).collect();
    assert_eq!(ys, [1.0, high_half, high_none, 0.001, low_half, low_all]);
    assert!((low_half - 0.4038).abs() < 1e-4 && (high_none - 0.037).abs() < 1e-3);
}

#[test]
fn the_curve_is_drawn_as_steps() {
    // Games of 2, 4 and 6 rounds: the count holds until the round a game ends, then drops.
    let samples = [(0.0, 6), (1.0, 6), (2.0, 3), (3.0, 3), (4.0, 1), (6.0, 0)];
    assert_eq!(
        steps(&samples),
        [
            (0.0, 6),
            (1.0, 6),
            (2.0, 6),
            (2.0, 3),
            (3.0, 3),
            (4.0, 3),
            (4.0, 1),
            (6.0, 1),
            (6.0, 0)
        ]
    );
    assert_eq!(steps(&[(0.0, 5)]), [(0.0, 5)]);
}

#[test]
fn log_axes_end_under_the_games_that_never_end() {
    assert_eq!(multiple_below(0.66), 0.6);
    assert_eq!(multiple_below(0.41), 0.4);
    assert_eq!(multiple_below(0.19), 0.1);
    assert_eq!(multiple_below(0.3), 0.3);
    assert!((multiple_below(0.0049) - 0.004).abs() < 1e-15);
    // Half an axis decade from 50% to 100%: labelled 50%, 60%, ... 100%.
    let (bold, light) = log_ticks(0.5);
    let labels: Vec<String> = bold.iter().map(|&t| percent(t)).collect();
    assert_eq!(labels, ["50%", "60%", "70%", "80%", "90%", "100%"]);
    assert!(light.is_empty());
    // From 20%: 1-2-3-5-7.
    let labels: Vec<String> = log_ticks(0.2).0.iter().map(|&t| percent(t)).collect();
    assert_eq!(labels, ["20%", "30%", "50%", "70%", "100%"]);
    // Three decades or more: the powers of ten, the rest light.
    let (bold, light) = log_ticks(0.5e-6);
    assert_eq!(bold.len(), 7);
    assert_eq!(percent(bold[0]), "0.0001%");
    assert_eq!(light.len(), 5 + 6 * 8);
}

#[test]
fn shares_print_as_percentages_with_the_digits_they_need() {
    assert_eq!(percent(1.0), "100%");
    assert_eq!(percent(0.1), "10%");
    assert_eq!(percent(0.001), "0.1%");
    assert_eq!(percent(0.00001), "0.001%");
}

#[test]
fn the_log_scales_labels_leave_room_for_the_axis_description() {
    // The description takes about 30 pixels, a 15-pixel label's character about 9, and the
    // tick and the gap 10: 10^6 games label 0.0001% (7 characters), which once overlapped.
    for k in 0..=12 {
        let floor = 0.5 / 10f64.powi(k);
        let label = percent(log_ticks(floor).0[0]);
        let chars = label.chars().count();
        assert!(
            super::super::y_label_area(chars) as usize >= 30 + 9 * chars + 10,
            "{label}"
        );
        if k == 6 {
            assert_eq!(label, "0.0001%");
        }
    }
}
