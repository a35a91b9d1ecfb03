//! Values that random command lines once broke, each checked as a user meets it: refused with
//! one escaped `error:` line, or accepted in every documented form.

use crate::common;

use common::warsim;

#[test]
fn values_the_random_command_lines_broke() {
    let refused = |args: &[&str], expected: &str| {
        let out = warsim().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let error_lines = err.lines().filter(|l| l.starts_with("error:")).count();
        assert_eq!(error_lines, 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{args:?}: {err}"
        );
    };
    refused(
        &["play", "-o", "bogus", "-1"],
        "invalid value 'bogus' for '--output <LEVEL>'",
    );
    refused(
        &["play", "-o", "verbose", "-1"],
        "'--output <LEVEL>' cannot be used with '--one-line'",
    );
    refused(
        &["run", "--pickup", "capped\n"],
        "invalid value 'capped\\n' for '--pickup <ORDER>'",
    );
    // A list or a range to a command of one rule set: the sweep takes them. A number that is
    // not whole: what the flag takes, not a count's forms (`1,000,000` is three values in a
    // sweep's list); a count's forms for a count.
    let list = "this command takes one value";
    for (args, expected) in [
        (
            &["run", "--players", "2,3"][..],
            &*format!("'2,3' is a list: {list}, 2 to 32; `warsim sweep` takes lists and ranges"),
        ),
        (
            &["enumerate", "--ranks", "3..5"],
            &format!("'3..5' is a range: {list}, 1 to 255"),
        ),
        (
            &["play", "--face-down", "1.5"],
            "'1.5' is not a whole number: use 0 to 255",
        ),
        (
            &["sweep", "--max-rounds", "100,1x"],
            "invalid --max-rounds '100,1x': '1x' is not a whole number: use 1 to 4294967294",
        ),
        (
            &["run", "--threads", "2,4"],
            "'2,4' is not a whole number: a comma may only separate groups of three digits \
             (1,000,000); use one value, 1 to 1024",
        ),
        (
            &["run", "--seed", "x"],
            "'x' is not a whole number (write e.g. 1000000, 1_000_000, 1,000,000 or 1e6)",
        ),
    ] {
        refused(args, expected);
    }
    // A setting past a u32 gave the u32's bound ("at most 4294967295") as if --players took it.
    for (flag, accepted) in [
        ("--players", "use 2 to 32"),
        ("--ranks", "use 1 to 255 (suits × ranks at most 1024)"),
        ("--face-down", "use 0 to 255"),
        ("--max-rounds", "use 1 to 4294967294"),
        ("--reshuffle-every", "use 0 to 4294967295"),
    ] {
        for command in ["run", "play", "enumerate"] {
            refused(
                &[command, flag, "5e9"],
                &format!("'5e9' is out of range: {accepted}"),
            );
        }
        refused(
            &["sweep", flag, "1..1e20"],
            &format!("invalid {flag} '1..1e20': '1e20' is out of range: {accepted}"),
        );
    }
    refused(
        &["run", "--threads", "5e9"],
        "is out of range: use 1 to 1024",
    );
    refused(&["run", "--games", "1,5"], "--games");
    refused(&["run", "--seed", "1.5"], "--seed");
    for seconds in ["0", "-2", "NaN", "inf", "x"] {
        refused(
            &["run", "--seconds-per-round", seconds],
            "is not a positive number of seconds",
        );
    }
    // Durations past 2^64 s printed as a saturated, wrong figure; below a millisecond as 0 s.
    for command in ["run", "sweep"] {
        for seconds in ["1e300", "86401", "0.0009"] {
            refused(
                &[command, "--seconds-per-round", seconds],
                "is out of range: use 0.001 to 86400",
            );
        }
    }
    // Thousands separators and exponents work for every count, the seed included.
    let seed = |text: &str| {
        let out = warsim()
            .args([
                "run", "--games", "1,000", "-q", "--json", "-", "--seed", text,
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{text}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            json["seed"].as_u64().unwrap(),
            json["games"].as_u64().unwrap(),
            json["rounds_mean"].clone(),
        )
    };
    assert_eq!(seed("1e3"), seed("1000"));
    assert_eq!(seed("1e3").1, 1000);
    // Huge match counts stream: no allocation up front, no overflow.
    for matches in ["1e12", "18446744073709551615"] {
        let (first, out) = common::first_line_then_close(&[
            "play",
            "--rules",
            "fixed-rounds",
            "--matches",
            matches,
            "-1",
        ]);
        assert!(first.starts_with("Players: 2, seed: "), "{first}");
        assert!(out.status.success(), "{matches}: {:?}", out.status);
    }
    // 300 suits: every card has its own name.
    let out = warsim()
        .args(["play", "--suits", "300", "--ranks", "1", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let deck: Vec<&str> = text
        .lines()
        .nth(1)
        .unwrap()
        .trim_start_matches("Deck: ")
        .split_whitespace()
        .collect();
    let distinct: std::collections::HashSet<&&str> = deck.iter().collect();
    assert_eq!((deck.len(), distinct.len()), (300, 300));
    assert!(deck.contains(&"1/300"));
}

/// A path that is not UTF-8 (a Latin-1 file name) was refused by clap's own message, which
/// named no flag and ran to four lines: it is now one line naming the flag and the bytes.
#[test]
fn an_argument_not_in_utf8_is_refused_naming_its_flag() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let latin1 = OsStr::from_bytes(b"caf\xe9.csv");
    for (command, flag) in [
        ("run", "--csv"),
        ("sweep", "--games-csv"),
        ("merge", "--json"),
    ] {
        let out = warsim().args([command, flag]).arg(latin1).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let expected = format!(r#"error: {flag}: "caf\xE9.csv" is not UTF-8 text"#);
        assert!(err.starts_with(&expected), "{err}");
    }
}

#[test]
fn a_flag_without_the_one_it_needs_is_told_which_and_why_on_one_line() {
    for (args, expected) in [
        (
            &["run", "--games", "1", "--no-header"][..],
            "--no-header needs --csv PATH: it leaves the header row out of the per-game CSV",
        ),
        (
            &["run", "--plot-scale=linear"],
            "--plot-scale needs --plot PATH: it sets the survival curve's scale in the plot",
        ),
        (
            &["sweep", "--checkpoint-every", "5m"],
            "--checkpoint-every needs --state PATH: it says how often the state file is written",
        ),
        (
            &["play", "--batch-seed", "3"],
            "--batch-seed needs --game I: the index of the batch's game to replay (`warsim play \
             --batch-seed S --game I`)",
        ),
        (
            &["play", "--game=3"],
            "--game needs --batch-seed S: the seed of the batch the game is from (`warsim run \
             --seed S`)",
        ),
    ] {
        let out = warsim().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {expected}\n"),
            "{args:?}"
        );
    }
    // A flag that is simply required keeps clap's message, naming it.
    let out = warsim().args(["merge"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: the following required arguments"),
        "{err}"
    );
}
