//! The golden test: the per-game CSV of every preset (and of 3- and 4-player war-simulator),
//! 5,000 games from seed 7, hashed. Any change to any game changes a hash, so refactors prove
//! here that they changed no game. The hashes were taken from the revision before the engine
//! was laid out in folders (f86963f), whose CSVs were byte-identical to this one's.
//! value_stability: update a hash only for a deliberate, documented change of the rules.

use assert_cmd::Command;

/// FNV-1a, 64 bits: enough to tell two CSVs apart, no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

const GOLDEN: [(&str, &[&str], u64); 8] = [
    ("classic", &[], 0x8fb7_aeb3_0b28_95c4),
    ("war-card-game", &[], 0xb745_06b6_4939_a12a),
    ("game-of-war", &[], 0x5884_f188_dcbe_b598),
    ("war-simulator", &[], 0x25c3_41b4_b2c9_3287),
    ("war-simulator", &["--players", "3"], 0xbcb9_1057_673a_afeb),
    ("war-simulator", &["--players", "4"], 0x1bf6_5148_602b_3a90),
    ("cards-war", &[], 0x670d_cac0_b334_2ec6),
    ("fixed-rounds", &[], 0x6de8_8553_bd5c_a6e1),
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
