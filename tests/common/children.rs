//! Processes a test starts end with the test. A test that fails while it waits (an
//! [`until`](super::until) that runs out, an assertion) unwinds past the `Child` it holds, and
//! dropping a `Child` neither kills nor waits for it: a `warsim play --range 1-1000000000` left
//! so kept a core busy for minutes after its test had failed, and slowed every test after it.
//! Linux's parent-death signal ends the child when the thread that started it ends, which for
//! a test is when the test ends, passed or failed.

use std::process::Command;

/// A command whose process is killed (SIGKILL) when the thread that spawns it ends: on Linux,
/// by `PR_SET_PDEATHSIG`; elsewhere the command is left as it is.
pub trait EndsWithTest {
    /// Binds the process this command spawns to the life of the spawning thread.
    fn ends_with_test(&mut self) -> &mut Self;
}

impl EndsWithTest for Command {
    #[cfg(target_os = "linux")]
    fn ends_with_test(&mut self) -> &mut Self {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec, and calls only prctl(2),
        // which is async-signal-safe; it allocates nothing.
        unsafe {
            self.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
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
