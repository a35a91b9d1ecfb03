//! The `sweep` lines of `random_cli.rs`: lists and ranges of every rule axis, drawn from the
//! ends of each flag's values and of the integers that hold them (a u32's, a u64's), with steps
//! and malformed ranges among them, so that every count and bound of the grid is crossed. The
//! work stays small: one or two games a cell, short caps, a few values an axis (a range wide
//! enough to be many cells is one the grid refuses).

use super::generate::{Dice, Line, PRESETS, some};

/// Single values of a numeric axis: small ones, the ends of the flags' ranges (a player
/// count, ranks, cards) and past them, the ends of a u32 and a u64, and no number at all.
const NUMBERS: [&str; 22] = [
    "0",
    "1",
    "2",
    "3",
    "13",
    "32",
    "33",
    "255",
    "256",
    "1024",
    "1e3",
    "10_000",
    "4294967294",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "1.5",
    "x",
    "",
    " 7 ",
];

/// Ranges whose count or bounds sit at an edge, and ranges that are not ranges.
const EDGE_RANGES: [&str; 14] = [
    "0..4294967295",
    "1..4294967295",
    "0..4294967296",
    "4294967290..4294967295",
    "0..4294967295..1073741824",
    "0..18446744073709551615",
    "0..4294967295..4294967296",
    "0..99999",
    "0..100000",
    "5..2",
    "2..",
    "..",
    "2..3..0",
    "1..2..3..4",
];

/// The numeric axes. `--max-rounds` is drawn apart: a valid cap stays short.
const NUMERIC: [&str; 6] = [
    "--players",
    "--suits",
    "--ranks",
    "--face-down",
    "--reshuffle-every",
    "--abandon-after",
];

/// The named axes with their values, and one value none of them takes.
const NAMED: [(&str, &[&str]); 7] = [
    (
        "--war-shortage",
        &[
            "lose",
            "play-what-you-have",
            "smaller-hand",
            "end-game",
            "lose-when-empty",
        ],
    ),
    (
        "--pickup",
        &["table", "seats", "shuffled", "natural", "alternating"],
    ),
    ("--spoils", &["under-pile", "heap", "heap-unshuffled"]),
    ("--at-cap", &["capped", "larger-pile"]),
    ("--shuffle", &["fisher-yates", "sattolo", "swap-any"]),
    ("--champion", &["last", "first"]),
    ("--group-order", &["highest-first", "as-shown"]),
];

/// Where the ordinary values of a numeric axis start, and how many there are.
fn ordinary(flag: &str) -> (u64, u64) {
    match flag {
        "--players" => (2, 5),
        "--suits" => (1, 8),
        "--ranks" => (2, 12),
        "--face-down" => (0, 4),
        "--abandon-after" => (0, 6),
        _ => (0, 40),
    }
}

/// One item of a numeric list for `flag`: an ordinary value or short range of it, a range
/// with a wide step, a single value at an edge, or an edge range.
fn numeric_item(dice: &mut Dice, flag: &str) -> String {
    let (low, span) = ordinary(flag);
    let from = low + dice.below(span);
    match dice.below(10) {
        0 | 1 => dice.pick(&NUMBERS).to_string(),
        2 | 3 => dice.pick(&EDGE_RANGES).to_string(),
        4 => {
            let step = dice.range(1, 1 << 31);
            let to = from + step * dice.below(4) + dice.below(3);
            format!("{from}..{to}..{step}")
        }
        5..=7 => format!("{from}..{}", from + dice.below(3)),
        _ => from.to_string(),
    }
}

/// A comma list of one or two items.
fn list(dice: &mut Dice, item: impl Fn(&mut Dice) -> String) -> String {
    let items: Vec<String> = (0..dice.range(1, 2)).map(|_| item(dice)).collect();
    items.join(",")
}

/// A `sweep` line, valid or not: the binary may play it or refuse it, never panic.
pub fn sweep_line(dice: &mut Dice) -> Line {
    let mut line = Line {
        words: vec![("sweep".into(), None), ("-q".into(), None)],
    };
    line.set("--games", some(dice.range(1, 2)));
    line.set("--threads", some(dice.range(1, 2)));
    if dice.chance(50) {
        let presets = list(dice, |d| d.pick(&PRESETS).to_string());
        line.set("--rules", some(presets));
    }
    for _ in 0..dice.range(1, 3) {
        let flag = dice.pick(&NUMERIC);
        if flag == "--abandon-after" && dice.chance(70) {
            line.set("--rules", some("war-simulator"));
        }
        line.set(flag, some(list(dice, |d| numeric_item(d, flag))));
    }
    // Short caps, or now and then caps no game takes; never a long valid one.
    let cap = |d: &mut Dice| {
        let caps: &[&str] = if d.chance(10) {
            &["0", "4294967295", "1..4294967295"]
        } else {
            &["1", "2", "500", "1e3", "2..4", "10..1000..495"]
        };
        d.pick(caps).to_string()
    };
    line.set("--max-rounds", some(list(dice, cap)));
    if dice.chance(50) {
        let (flag, values) = NAMED[dice.below(NAMED.len() as u64) as usize];
        let value = |d: &mut Dice| {
            let bad = d.chance(10);
            if bad { "sideways" } else { d.pick(values) }.to_string()
        };
        line.set(flag, some(list(dice, value)));
    }
    if dice.chance(40) {
        line.set("--skip-invalid", None);
    }
    for (flag, name) in [
        ("--csv", "cells.csv"),
        ("--plot", "m.svg"),
        ("--seats", "s.csv"),
    ] {
        if dice.chance(15) {
            line.set(flag, some(name));
        }
    }
    line
}
