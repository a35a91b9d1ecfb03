//! Memory allocation under a limit on address space (`ulimit -v`; Grid Engine's `h_vmem` sets
//! one). glibc's malloc gives each thread that allocates an arena of its own (up to eight per
//! core), and each arena reserves 64 MiB of address space however little it holds. A few of them
//! filled such a limit, and a later large allocation (a Parquet row group's columns, the
//! write-behind's 8 MiB) failed, which ends a Rust program at once: a run writing Parquet with 2
//! threads aborted under limits of 120 to 180 MB, yet finished under 80 MB, where no arena
//! could be made. So under such a limit every thread allocates from the one arena: warsim's
//! threads allocate per range of games and per row group, never per game, so they hardly
//! contend for it.

/// Under a finite limit on address space, makes every thread allocate from glibc's main arena,
/// unless the user chose the number of arenas (`MALLOC_ARENA_MAX`, `GLIBC_TUNABLES`). Call it
/// before any thread starts. No limit, or another C library: nothing changes.
pub(super) fn one_arena_under_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit, to a valid place.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        let chosen = std::env::var_os("MALLOC_ARENA_MAX").is_some()
            || std::env::var("GLIBC_TUNABLES").is_ok_and(|t| t.contains("glibc.malloc.arena_max"));
        if read && limit.rlim_cur != libc::RLIM_INFINITY && !chosen {
            // SAFETY: mallopt sets one of malloc's parameters; no allocation is in progress on
            // another thread, as none has started.
            unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
        }
    }
}
