//! Processes a test starts end with the test. A test that fails while it waits (an
//! [`until`](super::until) that runs out, an assertion) unwinds past the `Child` it holds, and
//! dropping a `Child` neither kills nor waits for it: a `warsim play --range 1-1000000000` left
//! so kept a core busy for minutes after its test had failed, and slowed every test after it.
//! Linux's parent-death signal ends the child when the thread that started it ends, which for
//! a test is when the test ends, passed or failed.
//!
//! The child also starts with the stopping signals at their defaults, whatever the test process
//! was started with: `cargo test &` in a script ignores SIGINT and SIGQUIT (as a shell starts
//! any background job without job control), warsim keeps a signal ignored at its start, and the
//! tests that stop it with SIGINT then waited a minute for a handler that never came and failed.

use std::process::Command;

/// A command whose process is killed (SIGKILL) when the thread that spawns it ends: on Linux,
/// by `PR_SET_PDEATHSIG`; elsewhere the command is left as it is. Its stopping signals start at
/// their defaults (a test that wants one ignored ignores it in the child, `trap ''`).
pub trait EndsWithTest {
    /// Binds the process this command spawns to the life of the spawning thread.
    fn ends_with_test(&mut self) -> &mut Self;
}

impl EndsWithTest for Command {
    #[cfg(target_os = "linux")]
    fn ends_with_test(&mut self) -> &mut Self {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec, and calls only prctl(2)
        // and signal(2), which are async-signal-safe; it allocates nothing.
        unsafe {
            self.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                for signal in [
                    libc::SIGINT,
                    libc::SIGQUIT,
                    libc::SIGTERM,
                    libc::SIGHUP,
                    libc::SIGXCPU,
                    libc::SIGUSR2,
                ] {
                    if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn ends_with_test(&mut self) -> &mut Self {
        self
    }
}
