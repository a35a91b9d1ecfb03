//! Room for the files a batch keeps open. A run with every output holds up to nine open at once
//! (standard streams, its state and the state's lock, the per-game CSV and Parquet files, a
//! summary written beside its name, a file read back to check it). Under a lower limit on open
//! files (`ulimit -n`) a run started and then stopped at its first output with "Too many open
//! files", or took the limit for an unwritable folder. So a batch command raises the soft limit
//! as far as it needs, within the hard limit, and refuses a hard limit too low before any work.

/// Open files a batch command asks room for: the nine a run with every output holds, with room
/// to spare for what a later version opens.
const NEEDED: u64 = 16;

/// Raises the soft limit on open files to [`NEEDED`] when it is lower, within the hard limit;
/// the message of the error when the hard limit leaves less. A limit that cannot be read or set
/// is left to the outputs' own checks.
pub(super) fn make_room() -> Result<(), String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit, to a valid place.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 || limit.rlim_cur >= NEEDED
    {
        return Ok(());
    }
    let hard = limit.rlim_max;
    if hard >= NEEDED {
        limit.rlim_cur = NEEDED;
        // SAFETY: setrlimit reads one valid rlimit; a soft limit within the hard one is allowed.
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) };
        return Ok(());
    }
    Err(format!(
        "open files are limited to {hard} at once (`ulimit -Hn`), and warsim needs room for \
         {NEEDED} (a run with every output holds 9 open): raise the limit (`ulimit -n 1024`) in \
         the shell or job script that starts warsim"
    ))
}
