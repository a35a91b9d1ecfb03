//! `warsim play --interactive`, driven through its scripted-input mode
//! (`WARSIM_SCRIPTED_INPUT`): Enter flips, q quits, a finished game names its winner, counts
//! read in the singular, answers in any encoding are read, each at most a terminal's line, a
//! failed read is named as one, and it refuses a standard input that is not a terminal and
//! presets it cannot play.

use assert_cmd::Command;

/// warsim with its moves read from standard input, which is not a terminal here.
fn warsim() -> Command {
    let mut warsim = Command::cargo_bin("warsim").unwrap();
    warsim.env("WARSIM_SCRIPTED_INPUT", "1");
    warsim
}

#[test]
fn interactive_play_flips_on_enter_and_quits_on_q() {
    let out = warsim()
        .args(["play", "--interactive", "--seed", "12"])
        .write_stdin("\n\n\nq\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("game-of-war — you are Player 1"), "{text}");
    assert_eq!(text.matches("press Enter to flip").count(), 4);
    assert!(text.contains("  You: "), "{text}");
    assert!(
        text.contains("War! Face down: you 3, the computer 3"),
        "{text}"
    );
    assert!(
        text.contains("You quit after 3 rounds. Score so far: you "),
        "{text}"
    );
    // Played to the end, the game names its winner.
    let out = warsim()
        .args(["play", "--interactive", "--seed", "12"])
        .write_stdin("\n".repeat(6000))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("You win in round") || text.contains("The computer wins in round"),
        "{}",
        &text[text.len() - 300..]
    );
}

#[test]
fn interactive_play_counts_one_card_in_the_singular() {
    let out = warsim()
        .args(["play", "--interactive", "--seed", "1"])
        .args(["--suits", "1", "--ranks", "2"])
        .write_stdin("q\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("You hold 1 card, the computer 1.\n"),
        "{text}"
    );
    assert!(
        text.ends_with("You quit after 0 rounds. Score so far: you 1 card, the computer 1.\n"),
        "{text}"
    );
}

#[test]
fn interactive_play_refuses_a_non_terminal_and_bad_presets() {
    let out = warsim()
        .env_remove("WARSIM_SCRIPTED_INPUT")
        .args(["play", "--interactive"])
        .write_stdin("\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --interactive needs a terminal on standard input, and it is not one: run it in a terminal\n"
    );
    let out = warsim()
        .args(["play", "--interactive", "--rules", "fixed-rounds"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn answers_in_another_encoding_play_on_and_a_failed_read_says_it_was_the_input() {
    // Latin-1 bytes from a terminal set to another encoding: an answer like any other.
    let out = warsim()
        .args(["play", "--interactive", "--seed", "1"])
        .write_stdin(b"\xe9t\xe9\n\xff\nq\n".to_vec())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.ends_with("You quit after 2 rounds. Score so far: you 26 cards, the computer 26.\n"),
        "{text}"
    );
    // A folder cannot be read: the error names the input, on a line of its own.
    let folder = std::fs::File::open(env!("CARGO_MANIFEST_DIR")).unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("warsim"))
        .args(["play", "--interactive", "--seed", "1"])
        .env("WARSIM_SCRIPTED_INPUT", "1")
        .stdin(folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("to quit: \n")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: could not read your answer from standard input: "),
        "{stderr}"
    );
}

#[test]
fn an_answer_is_at_most_a_terminal_line_so_input_without_newlines_stays_small() {
    // Three megabytes without a newline (as /dev/zero gives without end): answers of 4,096
    // bytes each, every one a flip, not one answer held whole in memory.
    let out = warsim()
        .args(["play", "--interactive", "--seed", "1"])
        .write_stdin(vec![b'x'; 3 << 20])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("The computer wins in round 146.\n"),
        "{}",
        &text[text.len() - 300..]
    );
    assert_eq!(
        text.matches(&"x".repeat(4096)).count(),
        146,
        "one answer a round"
    );
}
