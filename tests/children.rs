//! The tests' own guard, checked: a warsim a test starts ends when the test ends, even when the
//! test fails while the warsim still runs ([`common::children`]).

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{EndsWithTest, exits_within};

/// A thread that starts a game listing of a billion seeds and then fails, as a test that gave
/// up waiting does: the listing is killed as the thread ends, where it used to run on.
#[test]
fn a_warsim_started_by_a_failing_test_is_killed_when_the_test_ends() {
    let (sender, receiver) = std::sync::mpsc::channel();
    let failed = std::thread::spawn(move || {
        let child = Command::new(assert_cmd::cargo::cargo_bin("warsim"))
            .args(["play", "--range", "1-1000000000"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .ends_with_test()
            .spawn()
            .unwrap();
        sender.send(child).unwrap();
        // Unwinds as a failed assertion does, without printing a panic message into the log.
        std::panic::resume_unwind(Box::new("a test that fails with its warsim still running"));
    })
    .join();
    assert!(failed.is_err());
    let mut child = receiver.recv().unwrap();
    let status = exits_within(
        &mut child,
        Duration::from_secs(30),
        "the warsim of a failed test still ran 30 s after it",
    );
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
}
