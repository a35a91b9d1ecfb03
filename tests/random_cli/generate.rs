//! The command lines of `random_cli.rs`: a seeded generator of valid `run` lines, lines with
//! exactly one thing wrong, free mixtures of good and bad values, and `play` lines, each with
//! what the binary must do with it.

/// SplitMix64: a tiny seeded generator, so every failure replays from its line number.
pub struct Dice(pub u64);

impl Dice {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

pub const PRESETS: [&str; 6] = [
    "classic",
    "war-card-game",
    "game-of-war",
    "war-simulator",
    "cards-war",
    "fixed-rounds",
];

/// What the binary must do with a line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    Success,
    Refusal,
    /// Either, but a refusal still has exactly one error line.
    Either,
}

/// A command line as flag/value pairs, so one value can be replaced.
pub struct Line {
    pub words: Vec<(String, Option<String>)>,
}

impl Line {
    pub fn set(&mut self, flag: &str, value: Option<String>) {
        self.words.retain(|(f, _)| f != flag);
        self.words.push((flag.to_string(), value));
    }
    pub fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        for (flag, value) in &self.words {
            args.push(flag.clone());
            args.extend(value.clone());
        }
        args
    }
}

pub fn some(text: impl ToString) -> Option<String> {
    Some(text.to_string())
}

/// A `run` line that is valid by construction.
pub fn valid_run(dice: &mut Dice) -> Line {
    let preset = dice.pick(&PRESETS);
    let mut line = Line {
        words: vec![("run".into(), None), ("-q".into(), None)],
    };
    line.set("--rules", some(preset));
    line.set("--games", some(dice.range(1, 200)));
    let seed = match dice.below(3) {
        0 => dice.next().to_string(),
        1 => format!("{}e{}", dice.range(1, 9), dice.range(0, 18)),
        _ => dice.below(1000).to_string(),
    };
    line.set("--seed", some(seed));
    line.set("--threads", some(dice.range(1, 3)));
    let two_only = matches!(preset, "game-of-war" | "cards-war");
    let (suits, ranks) = (dice.range(1, 4), dice.range(1, 13));
    let players = if two_only {
        2
    } else {
        dice.range(2, 5).min(suits * ranks)
    };
    if players >= 2 && suits * ranks >= players {
        if dice.chance(60) {
            line.set("--suits", some(suits));
            line.set("--ranks", some(ranks));
        }
        if dice.chance(50) && !(preset != "fixed-rounds" && suits * ranks < 2) {
            line.set("--players", some(players));
        }
    }
    let players_now = |line: &Line| {
        line.words
            .iter()
            .find(|(f, _)| f == "--players")
            .and_then(|(_, v)| v.clone())
            .map_or(2, |v| v.parse::<u64>().unwrap())
    };
    if preset != "fixed-rounds" && dice.chance(50) {
        line.set("--face-down", some(dice.range(0, 3)));
    }
    if preset != "fixed-rounds" && dice.chance(40) {
        line.set("--max-rounds", some(dice.range(1, 3000)));
    }
    if matches!(
        preset,
        "classic" | "war-card-game" | "game-of-war" | "cards-war"
    ) {
        let two = players_now(&line) == 2;
        if dice.chance(40) {
            let shortages: &[&str] = if two {
                &["lose", "play-what-you-have", "smaller-hand"]
            } else {
                &["lose", "play-what-you-have"]
            };
            line.set("--war-shortage", some(dice.pick(shortages)));
        }
        if dice.chance(40) {
            let orders = [
                "table",
                "winner-first",
                "loser-first",
                "seats",
                "reverse-seats",
                "shuffled",
            ];
            line.set("--pickup", some(dice.pick(&orders)));
        }
        if dice.chance(30) {
            line.set("--spoils", some(dice.pick(&["under-pile", "heap"])));
        }
        if dice.chance(30) {
            line.set("--reshuffle-every", some(dice.range(0, 30)));
        }
        if dice.chance(30) {
            let caps: &[&str] = if two {
                &["capped", "larger-pile"]
            } else {
                &["capped"]
            };
            line.set("--at-cap", some(dice.pick(caps)));
        }
    }
    let mut stdout_used = false;
    for (flag, name) in [
        ("--csv", "games.csv"),
        ("--summary", "summary.csv"),
        ("--json", "s.json"),
    ] {
        if dice.chance(35) {
            let target = if !stdout_used && dice.chance(30) {
                stdout_used = true;
                "-".to_string()
            } else {
                name.to_string()
            };
            line.set(flag, some(target));
        }
    }
    line
}

pub const LONG: usize = 5000;

/// Values no flag of its kind accepts.
pub fn bad_values(flag: &str) -> Vec<String> {
    let long = "9".repeat(LONG);
    let mut values: Vec<String> = match flag {
        "--players" => vec![
            "0",
            "1",
            "33",
            "-1",
            "4294967296",
            "18446744073709551616",
            "2,3",
        ],
        "--games" => vec!["0", "-1", "18446744073709551616", "1,5", "1.5e0", "1e30"],
        "--threads" => vec!["0", "1025", "-1", "4294967296"],
        "--ranks" => vec!["0", "256", "-1"],
        "--suits" => vec!["0", "2000", "1e30"],
        "--face-down" => vec!["256", "-1", "4294967296"],
        "--max-rounds" => vec!["0", "4294967295", "4294967296"],
        "--seed" => vec!["-1", "18446744073709551616", "1.5", "1e30"],
        "--reshuffle-every" => vec!["-1", "4294967296"],
        "--pickup" => vec!["sideways", "ＴＡＢＬＥ", "table\n", "seats "],
        "--war-shortage" => vec!["cry", "lose\t"],
        "--spoils" => vec!["pocket"],
        "--at-cap" => vec!["never"],
        "--rules" => vec!["poker", "🃏", "classic\r"],
        // Past what a `Duration` holds, or no duration at all.
        "--checkpoint-every" => vec!["18446744073709551616", "99999999999999999999h", "-1s", "5x"],
        "--seconds-per-round" => vec!["0", "1e9", "-1", "inf"],
        "--shard" => vec!["2/2", "0/0", "1/18446744073709551616", "1", "-1/2"],
        _ => vec![],
    }
    .into_iter()
    .map(String::from)
    .collect();
    values.extend(["".to_string(), "NaN".to_string(), "２".to_string(), long]);
    values
}

pub const SETTINGS: [&str; 17] = [
    "--players",
    "--games",
    "--threads",
    "--ranks",
    "--suits",
    "--face-down",
    "--max-rounds",
    "--seed",
    "--reshuffle-every",
    "--pickup",
    "--war-shortage",
    "--spoils",
    "--at-cap",
    "--rules",
    "--checkpoint-every",
    "--seconds-per-round",
    "--shard",
];

/// A valid line with exactly one thing wrong.
pub fn invalid_run(dice: &mut Dice) -> Line {
    let mut line = valid_run(dice);
    match dice.below(8) {
        0 => {
            line.set(
                "--csv",
                some(dice.pick(&[".", "./", "/nonexistent/x.csv", "", "sub/"])),
            );
            // A user's file beside the bad output must survive the refusal.
            if dice.chance(50) {
                line.set("--summary", some("../outside/keep.csv"));
            }
        }
        1 => {
            line.set("--csv", some("same.csv"));
            line.set(
                dice.pick(&["--summary", "--json"]),
                some(dice.pick(&["same.csv", "./same.csv", "sub/../same.csv"])),
            );
        }
        2 => {
            line.set("--csv", some("-"));
            line.set(dice.pick(&["--summary", "--json"]), some("-"));
        }
        3 => line.set(dice.pick(&["--bogus", "--gmaes", "-x"]), None),
        _ => {
            let flag = dice.pick(&SETTINGS);
            let values = bad_values(flag);
            let value = values[dice.below(values.len() as u64) as usize].clone();
            line.set(flag, Some(value));
        }
    }
    line
}

/// Any flags with any values, good or bad.
pub fn mixture(dice: &mut Dice) -> Line {
    let mut line = valid_run(dice);
    for _ in 0..dice.range(1, 4) {
        let flag = dice.pick(&SETTINGS);
        let value = if dice.chance(50) {
            let values = bad_values(flag);
            values[dice.below(values.len() as u64) as usize].clone()
        } else {
            // A value valid for some preset somewhere, maybe not this one.
            match flag {
                "--pickup" => "shuffled".into(),
                "--war-shortage" => "smaller-hand".into(),
                "--spoils" => "heap".into(),
                "--at-cap" => "larger-pile".into(),
                "--rules" => dice.pick(&PRESETS).into(),
                "--games" | "--threads" => dice.range(1, 3).to_string(),
                "--players" => dice.range(2, 32).to_string(),
                "--suits" => dice.range(1, 64).to_string(),
                "--ranks" => dice.range(1, 255).to_string(),
                "--max-rounds" => dice.range(1, 2000).to_string(),
                _ => dice.range(0, 40).to_string(),
            }
        };
        line.set(flag, Some(value));
    }
    // Keep the work small whatever else was drawn.
    line.set("--games", some(dice.range(1, 3)));
    line.set("--max-rounds", some(dice.range(1, 2000)));
    line
}

/// A `play` line, valid or with one thing wrong.
pub fn play_line(dice: &mut Dice) -> (Line, Expect) {
    let preset = dice.pick(&PRESETS);
    let mut line = Line {
        words: vec![("play".into(), None)],
    };
    line.set("--rules", some(preset));
    // --range is always one line a game; --matches sets the length of a fixed-rounds report.
    match dice.below(3) {
        0 => {
            line.set(dice.pick(&["-1", "-q", "--one-line"]), None);
            line.set("--seed", some(dice.next()));
            if preset == "fixed-rounds" && dice.chance(50) {
                line.set("--matches", some(dice.range(1, 5)));
            }
        }
        1 => {
            if dice.chance(50) {
                line.set(dice.pick(&["-1", "--one-line"]), None);
            }
            let first = dice.below(1 << 40);
            line.set(
                "--range",
                some(format!("{first}-{}", first + dice.below(8))),
            );
        }
        _ => {
            line.set(dice.pick(&["-1", "-q", "--one-line"]), None);
            line.set("--batch-seed", some(dice.below(100)));
            line.set("--game", some(dice.below(1_000_000)));
        }
    }
    if dice.chance(50) {
        return (line, Expect::Success);
    }
    match dice.below(7) {
        0 => line.set("--range", some(dice.pick(&["5-2", "x", "1-", "-3", ""]))),
        // Never the whole deck: a rank or a hand too many or too few, or not a rank at all.
        5 => {
            let words = [
                "1",
                "13",
                "0",
                "x",
                "|",
                "",
                "-1",
                "99999999999",
                "1e3",
                "||",
            ];
            let deal: Vec<&str> = (0..dice.below(12)).map(|_| dice.pick(&words)).collect();
            line.set("--deal", some(deal.join(" ")))
        }
        1 => line.set("--matches", some(dice.pick(&["0", "-1", "1e30", ""]))),
        2 => line.set("-o", some(dice.pick(&["bogus", "", "verbose"]))),
        3 => line.set("--interactive", None),
        4 => line.set(
            "--seed",
            some(dice.pick(&["-1", "NaN", "18446744073709551616"])),
        ),
        _ => {
            line.words
                .retain(|(f, _)| f != "--batch-seed" && f != "--range");
            line.set("--game", some(3));
        }
    }
    // -o with -1 conflicts; --interactive needs a terminal or two players: all refused.
    (line, Expect::Refusal)
}
