//! `warsim play --range` and long fixed-rounds listings stopped by a signal: the output ends on
//! a whole line, the exit status is the signal's, and a line on standard error says where the
//! listing stopped, with the range still to play.

use crate::common;

use common::EndsWithTest;
use std::io::Read;
use std::process::{Command, Stdio};

fn warsim() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("warsim"))
}

/// Starts `warsim ARGS`, sends signal `name` once 4 KB of its output came, and returns its
/// whole output, what it said and its exit status.
fn interrupted_listing(args: &[&str], name: &str) -> (String, String, Option<i32>) {
    let mut child = warsim()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .ends_with_test()
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut output = vec![0u8; 4096];
    stdout.read_exact(&mut output).unwrap();
    common::send(&format!("-{name}"), child.id());
    stdout.read_to_end(&mut output).unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    (String::from_utf8(output).unwrap(), stderr, status.code())
}

#[test]
fn play_range_ends_on_a_whole_line_when_interrupted() {
    let (listing, stderr, status) = interrupted_listing(&["play", "--range", "0-1e15"], "INT");
    assert_eq!(status, Some(130));
    assert!(listing.ends_with('\n'));
    // It says where it stopped, and the range still to play: the seed of its last line.
    let last: u64 = listing.lines().last().unwrap()["Players: 2, seed: ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        stderr,
        format!(
            "interrupted (SIGINT, Ctrl-C): the output ends on a whole line, after seed {last}; \
             the rest is --range {}-1000000000000000\n",
            last + 1
        )
    );
    // A listing of fixed-rounds matches says which match it stopped after.
    let matches = ["play", "--rules", "fixed-rounds", "--matches", "1e9", "-1"];
    let (listing, stderr, status) = interrupted_listing(&matches, "TERM");
    assert_eq!(status, Some(143));
    assert!(listing.ends_with('\n'));
    assert_eq!(
        stderr,
        format!(
            "interrupted (SIGTERM): the output ends on a whole line, after match {} of \
             1,000,000,000\n",
            warsim::export::text::group(listing.lines().count() as u64)
        )
    );
}
