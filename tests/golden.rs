//! The golden test: the per-game CSV of every preset (and of 3- and 4-player war-simulator),
//! 5,000 games from seed 7, hashed. Any change to any game changes a hash, so refactors prove
//! here that they changed no game. The hashes were taken from the revision before the engine
//! was laid out in folders (f86963f), whose CSVs were byte-identical to this one's, and
//! retaken when the `cards_played` column was added (its first eight columns still hash to
//! f86963f's values).
//! value_stability: update a hash only for a deliberate, documented change of the rules.

use assert_cmd::Command;

/// FNV-1a, 64 bits: enough to tell two CSVs apart, no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

const GOLDEN: [(&str, &[&str], u64); 8] = [
    ("classic", &[], 0x5dab_dc3a_f3cd_b101),
    ("war-card-game", &[], 0xb239_81da_1ea8_f946),
    ("game-of-war", &[], 0x3ca0_65a9_c314_1504),
    ("war-simulator", &[], 0x7170_ab41_b957_3f61),
    ("war-simulator", &["--players", "3"], 0x2ad5_b9c6_a6c0_2ad4),
    ("war-simulator", &["--players", "4"], 0x5078_f94e_1068_0d28),
    ("cards-war", &[], 0xcd4b_8265_bd06_bdcb),
    ("fixed-rounds", &[], 0x2b15_39fd_43ce_49a0),
];

#[test]
fn every_presets_games_are_the_golden_ones() {
    for (preset, extra, expected) in GOLDEN {
        let out = Command::cargo_bin("warsim")
            .unwrap()
            .args([
                "run", "--rules", preset, "--games", "5000", "--seed", "7", "-q", "--csv", "-",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{preset}");
        assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 5001);
        assert_eq!(
            fnv1a(&out.stdout),
            expected,
            "{preset} {extra:?}: a game changed"
        );
    }
}
