//! The `warsim` command line as users drive it: bad input (exit 2, one error line naming the
//! flag), clap's conventions, completions and the man page (help: `help.rs`).

use crate::common;

use common::{stdout_of, warsim};

#[test]
fn bad_input_exits_2_with_one_error_line_naming_the_flag() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--players", "1"],
            "--players 1 is out of range: use 2 to 32",
        ),
        (
            &["--players", "5", "--suits", "1", "--ranks", "4"],
            "--players 5 is more than the 4 cards",
        ),
        (
            &["--players", "-3"],
            "for '--players <N>': '-3' is negative: use 2 to 32",
        ),
        (
            &["--seed", "-1"],
            "for '--seed <S>': '-1' is negative: give a whole number, 0 or more",
        ),
        (&["--seed", "x"], "--seed"),
        (&["--suits", "0"], "--suits 0 is out of range"),
        (&["--ranks", "0"], "--ranks 0 is out of range: use 1 to 255"),
        (&["--ranks", "256"], "--ranks 256 is out of range"),
        (&["--suits", "100"], "more than the 1024 supported"),
        (&["--games", "0"], "--games 0 is out of range"),
        (&["--games", "lots"], "--games"),
        (
            &["--threads", "0"],
            "--threads 0 is out of range: use 1 to 1024",
        ),
        (&["--max-rounds", "0"], "--max-rounds 0 is out of range"),
        (&["--face-down", "300"], "--face-down 300 is out of range"),
        (
            &["--rules", "poker"],
            "invalid value 'poker' for '--rules <NAME>'\n  [possible values: classic, war-card-game,",
        ),
        (
            &["--csv", "/no/such/folder/g.csv"],
            "--csv /no/such/folder/g.csv: folder '/no/such/folder' does not exist",
        ),
        (
            &["--csv", "-", "--json", "-"],
            "--csv and --json both write to standard output",
        ),
        (&["--bogus"], "unexpected argument '--bogus'"),
        (
            &["--gmaes", "5"],
            "tip: a similar argument exists: '--games'",
        ),
        (
            &["--pickup", "sideways"],
            "invalid value 'sideways' for '--pickup <ORDER>'\n  [possible values: table, winner-first",
        ),
        (
            &["--war-shortage", "cry"],
            "[possible values: lose, play-what-you-have, smaller-hand, end-game, lose-when-empty]",
        ),
        (
            &["--spoils", "pocket"],
            "[possible values: under-pile, heap, heap-unshuffled]",
        ),
        (
            &["--at-cap", "coin"],
            "[possible values: capped, larger-pile]",
        ),
        (
            &["--rules", "fixed-rounds", "--face-down", "3"],
            "--face-down does not apply to --rules fixed-rounds",
        ),
        (
            &["--rules", "fixed-rounds", "--max-rounds", "9"],
            "--max-rounds does not apply to --rules fixed-rounds",
        ),
        (
            &["--rules", "war-simulator", "--pickup", "table"],
            "--pickup does not apply to --rules war-simulator",
        ),
        (
            &["--rules", "game-of-war", "--players", "3"],
            "--rules game-of-war (Game-of-War is a human-vs-computer game) is a two-player rule",
        ),
        (
            &["--rules", "cards-war", "--players", "4"],
            "--rules cards-war",
        ),
        (
            &["--players", "3", "--war-shortage", "smaller-hand"],
            "--war-shortage smaller-hand is a two-player rule",
        ),
    ];
    for (args, message) in cases {
        let out = warsim()
            .arg("run")
            .args(*args)
            .args(
                ["--games", "10"]
                    .iter()
                    .filter(|_| !args.contains(&"--games")),
            )
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        // One error line; clap's own errors add its tip, the usage and where help is.
        let error_lines = stderr.lines().filter(|l| l.starts_with("error:")).count();
        assert_eq!(error_lines, 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        if stderr.lines().count() > 1 {
            assert!(
                stderr.contains("try 'warsim run --help'"),
                "{args:?}: {stderr}"
            );
        }
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_command_line_follows_clap_conventions() {
    // Help lists every named value and each preset's default.
    let out = warsim().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "[possible values: table, winner-first, loser-first, seats, reverse-seats, shuffled, natural, reversed, alternating]",
        "[possible values: classic, war-card-game, game-of-war, war-simulator, war-simulator-original, cards-war, fixed-rounds]",
        "[default: the preset's: 1 (classic, war-card-game); 3 (game-of-war, war-simulator, war-simulator-original, cards-war)]",
        "[default: the preset's: 100000 (classic, war-card-game, war-simulator, war-simulator-original, cards-war); 5000 (game-of-war)]",
    ] {
        assert!(help.contains(expected), "{expected}");
    }
    assert!(
        !help.contains("--interactive"),
        "run's help says nothing of play"
    );
    // Names in any case.
    let upper = warsim().args(["rules", "GAME-OF-WAR"]).output().unwrap();
    assert!(upper.status.success());
    assert!(String::from_utf8_lossy(&upper.stdout).starts_with("game-of-war\n"));
    warsim()
        .args([
            "run",
            "--rules",
            "Cards-War",
            "--pickup",
            "TABLE",
            "--games",
            "5",
            "-q",
        ])
        .assert()
        .success();
    // What play would silently ignore is refused.
    let refused = |args: &[&str], expected: &str| {
        let out = warsim().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{args:?}: {err}"
        );
    };
    refused(
        &["play", "--seed", "1", "--batch-seed", "2", "--game", "3"],
        "'--seed <S>' cannot be used with",
    );
    refused(&["play", "--range", "0-3", "-v"], "cannot be used with");
    refused(&["play", "--range", "0-3", "-q"], "cannot be used with");
    refused(
        &["play", "--matches", "3"],
        "--matches does not apply to --rules classic",
    );
    refused(
        &["play", "--interactive", "--rules", "fixed-rounds"],
        "fixed-rounds has none: choose e.g. --rules game-of-war",
    );
    refused(
        &["play", "--batch-seed", "42"],
        "--batch-seed needs --game I",
    );
    // A range or the fixed-rounds matches took --game without --batch-seed and ignored it;
    // interactive play ignored the output levels.
    refused(
        &["play", "--range", "0-3", "--game", "5"],
        "'--range <A-B>' cannot be used with '--game <I>'",
    );
    refused(
        &[
            "play",
            "--rules",
            "fixed-rounds",
            "--matches",
            "3",
            "--game",
            "2",
        ],
        "'--matches <N>' cannot be used with '--game <I>'",
    );
    // Flags that only shape another flag's output were ignored without it.
    refused(
        &["run", "--games", "5", "--checkpoint-every", "5s"],
        "--checkpoint-every needs --state PATH",
    );
    refused(
        &["sweep", "--games", "5", "--checkpoint-every", "0"],
        "--checkpoint-every needs --state PATH",
    );
    refused(
        &["run", "--games", "5", "--plot-scale", "linear"],
        "--plot-scale needs --plot PATH",
    );
    refused(
        &["merge", "x.state", "--plot-scale", "log"],
        "--plot-scale needs --plot PATH",
    );
    for level in [&["-v"][..], &["-q"], &["-1"], &["-o", "quiet"]] {
        let args = [&["play", "--interactive"][..], level].concat();
        refused(&args, "cannot be used with");
    }
}

#[test]
fn completions_and_man_page_are_printed() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = warsim().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        // Subcommands, flags and the named values a shell can offer.
        for word in ["run", "pickup", "loser-first", "war-card-game"] {
            assert!(script.contains(word), "{shell} lacks {word}");
        }
    }
    // Loaded in bash, the script offers a flag's values, and for a command's flags exactly
    // those its help lists (a hidden test flag was offered once).
    let dir = tempfile::TempDir::new().unwrap();
    let script = dir.path().join("warsim.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();
    let offers = |line: &str| {
        let words = line.split(' ').count() - 1;
        let probe = format!(
            "source '{}'; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; \
             read -ra COMP_WORDS <<< '{line}'; [[ '{line}' == *' ' ]] && COMP_WORDS+=(''); \
             COMP_CWORD={words}; _warsim warsim \"${{COMP_WORDS[-1]}}\" \"${{COMP_WORDS[-2]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &probe])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let pickups = offers("warsim run --pickup ");
    assert_eq!(pickups.lines().count(), 9, "{pickups}");
    assert!(pickups.lines().any(|p| p == "loser-first"), "{pickups}");
    let play_help = stdout_of(&["play", "--help"]);
    let flags = offers("warsim play --");
    assert!(flags.lines().any(|f| f == "--interactive"), "{flags}");
    for flag in flags.lines() {
        assert!(
            play_help.contains(flag),
            "{flag} offered, not in play --help"
        );
    }
    let out = warsim().arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH warsim 1") && page.contains("card game War"));
    for subcommand in ["run", "play", "rules", "completions", "man"] {
        assert!(
            page.contains(&format!("warsim\\-{subcommand}")),
            "{subcommand}"
        );
    }
    // Every command has a page of its own with all its flags: the commands `warsim --help` lists.
    let help = String::from_utf8(warsim().arg("--help").output().unwrap().stdout).unwrap();
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert_eq!(commands.len(), 9, "{help}");
    for command in commands {
        let out = warsim().args(["man", command]).output().unwrap();
        assert!(out.status.success(), "{command}");
        let page = String::from_utf8(out.stdout).unwrap();
        assert!(
            page.contains(&format!(".TH warsim-{command} 1  \"warsim "))
                && page.contains(&format!("\\fBwarsim {command}\\fR")),
            "{page}"
        );
    }
    let run = String::from_utf8(warsim().args(["man", "run"]).output().unwrap().stdout).unwrap();
    // Plain ASCII, so groff needs no preconv: `×` and `⌊` written as roff's escapes.
    assert!(run.is_ascii(), "{run}");
    assert!(run.contains("suits \\[u00D7] ranks") && run.contains("\\[u230A]K"));
    for flag in [
        "\\-\\-max\\-rounds",
        "\\-\\-seconds\\-per\\-round",
        "\\-\\-shard",
    ] {
        assert!(run.contains(flag), "{flag}");
    }
}

/// `warsim rules` given rule flags prints the rules line `warsim run` reports for them, or the
/// error `run` refuses them with, word for word.
#[test]
fn rules_with_rule_flags_say_what_run_would_play_or_refuse() {
    let first_line = |text: &[u8]| {
        String::from_utf8_lossy(text)
            .lines()
            .next()
            .map(String::from)
    };
    for (name, flags) in [
        (None, &["--players", "4"][..]),
        (
            Some("war-simulator"),
            &["--players", "4", "--face-down", "2"],
        ),
        (Some("cards-war"), &["--suits", "8", "--max-rounds", "1e4"]),
        (Some("fixed-rounds"), &["--ranks", "10", "--suits", "3"]),
        (Some("classic"), &["--champion", "first"]),
        (Some("cards-war"), &["--players", "3"]),
        (None, &["--suits", "9", "--ranks", "200"]),
        (None, &["--players", "-3"]),
    ] {
        let shown = warsim()
            .arg("rules")
            .args(name)
            .args(flags)
            .output()
            .unwrap();
        let run = warsim()
            .args(["run", "--games", "1", "-q"])
            .args(name.map(|name| ["--rules", name]).iter().flatten())
            .args(flags)
            .output()
            .unwrap();
        assert_eq!(shown.status.code(), run.status.code(), "{name:?} {flags:?}");
        if run.status.success() {
            let line = first_line(&run.stdout).unwrap();
            let rules = line.strip_prefix("rules        ").unwrap();
            assert_eq!(String::from_utf8_lossy(&shown.stdout), format!("{rules}\n"));
        } else {
            assert_eq!(shown.status.code(), Some(2));
            assert_eq!(
                first_line(&shown.stderr),
                first_line(&run.stderr),
                "{flags:?}"
            );
        }
    }
    // A name given twice, as NAME and as --rules, is refused.
    let twice = warsim()
        .args(["rules", "classic", "--rules", "cards-war"])
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
}
