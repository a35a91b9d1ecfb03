//! The `enumerate` lines of `random_cli.rs`: small decks and the edges of every deck flag, each
//! deal set, chance after the deal (refused), parts with their state files, and every output.
//! The work stays small: `--max-deals` lets through at most 20,000 deals, and caps are short.

use super::generate::{Dice, Line, PRESETS, some};

/// Deck and table sizes: small ones most of the time, now and then an edge or no number.
fn size(dice: &mut Dice, low: u64, high: u64) -> String {
    if dice.chance(85) {
        return dice.range(low, high).to_string();
    }
    let edges = [
        "0", "1", "32", "33", "255", "256", "1024", "1025", "-1", "x", "1e3",
    ];
    dice.pick(&edges).to_string()
}

/// An `enumerate` line, valid or not: the binary may play it or refuse it, never panic.
pub fn enumerate_line(dice: &mut Dice) -> Line {
    let mut line = Line {
        words: vec![("enumerate".into(), None), ("-q".into(), None)],
    };
    // The presets enumerate can play most of the time; now and then any.
    let playable = ["classic", "war-card-game", "cards-war"];
    let presets: &[&str] = if dice.chance(70) { &playable } else { &PRESETS };
    let preset = dice.pick(presets);
    line.set("--rules", some(preset));
    if preset == "game-of-war" && dice.chance(70) {
        line.set("--reshuffle-every", some(0));
    }
    line.set("--suits", some(size(dice, 1, 4)));
    line.set("--ranks", some(size(dice, 1, 6)));
    if dice.chance(40) {
        line.set("--players", some(size(dice, 2, 4)));
    }
    if dice.chance(40) {
        line.set("--face-down", some(size(dice, 0, 3)));
    }
    if dice.chance(30) {
        let policies = ["lose", "play-what-you-have", "smaller-hand", "end-game"];
        line.set("--war-shortage", some(dice.pick(&policies)));
    }
    if dice.chance(30) {
        let orders = [
            "table",
            "winner-first",
            "seats",
            "natural",
            "alternating",
            "shuffled",
        ];
        line.set("--pickup", some(dice.pick(&orders)));
    }
    if dice.chance(20) {
        line.set(
            "--spoils",
            some(dice.pick(&["under-pile", "heap-unshuffled", "heap"])),
        );
    }
    if dice.chance(50) {
        line.set(
            "--deals",
            some(dice.pick(&["all", "unordered", "lex-half"])),
        );
    }
    let limits: &[&str] = if dice.chance(85) {
        &["0", "1", "100", "20000", "2e4"]
    } else {
        &["-1", "1e30", "", "20001"]
    };
    line.set("--max-deals", some(dice.pick(limits)));
    let caps: &[&str] = if dice.chance(90) {
        &["1", "50", "1e3"]
    } else {
        &["0", "4294967295"]
    };
    line.set("--max-rounds", some(dice.pick(caps)));
    line.set("--threads", some(dice.range(1, 2)));
    if dice.chance(25) {
        let shard = dice.pick(&["0/2", "1/2", "2/3", "0/1", "3/3", "0/18446744073709551615"]);
        line.set("--shard", some(shard));
        if dice.chance(80) {
            line.set("--state", some("part.json"));
        }
    }
    for (flag, name) in [
        ("--json", "e.json"),
        ("--summary", "e.csv"),
        ("--histogram", "h.csv"),
    ] {
        if dice.chance(20) {
            line.set(flag, some(name));
        }
    }
    line
}
