//! `warsim --help` and each command's: every flag listed with its default and values, and the
//! rule flags' defaults, each preset's, the same in `run`, `play` and `sweep`.

use assert_cmd::Command;
use predicates::prelude::*;

fn warsim() -> Command {
    Command::cargo_bin("warsim").unwrap()
}

#[test]
fn help_lists_every_run_flag_with_its_default() {
    let out = warsim().args(["run", "--help"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for flag in [
        "--rules",
        "--players",
        "--suits",
        "--ranks",
        "--face-down",
        "--max-rounds",
        "--games",
        "--seed",
        "--threads",
        "--csv",
        "--summary",
        "--json",
        "--histogram",
        "--quiet",
    ] {
        assert!(text.contains(flag), "{flag} missing from help");
    }
    assert!(text.contains("[default: 1000000]") && text.contains("[default: classic"));
    warsim()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("run"));
    warsim().arg("--version").assert().success();
    let out = warsim().args(["play", "--help"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for flag in [
        "--rules",
        "--seed",
        "--output",
        "--one-line",
        "--quiet",
        "--verbose",
        "--range",
        "--batch-seed",
        "--game",
        "--matches",
        "--interactive",
        "--pickup",
    ] {
        assert!(text.contains(flag), "{flag} missing from play help");
    }
}

/// The `[default: …]` of `flag` in a command's help.
fn default_in_help(help: &str, flag: &str) -> Option<String> {
    let at = help.find(&format!(" {flag} <"))?;
    let rest = &help[at..];
    let end = rest[1..].find("\n      --").map_or(rest.len(), |e| e + 1);
    let block = &rest[..end];
    let start = block.find("[default: ")?;
    let close = block[start..].find(']')?;
    Some(block[start..start + close + 1].to_string())
}

#[test]
fn sweep_help_gives_each_rule_flag_the_presets_defaults_as_run_help_does() {
    let help = |command: &str| {
        let out = warsim().args([command, "--help"]).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let (run, sweep) = (help("run"), help("sweep"));
    let flags = [
        "--players",
        "--suits",
        "--ranks",
        "--face-down",
        "--war-shortage",
        "--pickup",
        "--spoils",
        "--reshuffle-every",
        "--max-rounds",
        "--at-cap",
        "--shuffle",
        "--champion",
        "--abandon-after",
        "--group-order",
    ];
    for flag in flags {
        let shown = default_in_help(&run, flag).unwrap_or_else(|| panic!("{flag}: {run}"));
        assert!(
            shown.starts_with("[default: the preset's: "),
            "{flag}: {shown}"
        );
        assert_eq!(default_in_help(&sweep, flag), Some(shown), "{flag}");
    }
    assert_eq!(
        default_in_help(&run, "--max-rounds").as_deref(),
        Some(
            "[default: the preset's: 100000 (classic, war-card-game, war-simulator, \
             war-simulator-original, cards-war); 5000 (game-of-war)]"
        )
    );
}
