//! The same stopping signal again a moment later is the same request ([`SAME_REQUEST_NS`]): the
//! last one counted, and the check the signal handler makes against it. Async-signal-safe.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{SAME_REQUEST_NS, STOPPING};

/// The last stopping signal counted: its time ([`monotonic_ns`]) shifted left by three bits,
/// its index in [`STOPPING`] in the low three; [`NONE_COUNTED`] before the first.
static LAST_COUNTED: AtomicU64 = AtomicU64::new(NONE_COUNTED);
const NONE_COUNTED: u64 = u64::MAX;

/// True when `number` is the signal last counted, again within [`SAME_REQUEST_NS`]: the same
/// request, not counted. Otherwise records it as the last counted. Two handlers at once (on two
/// threads) settle it by compare-and-swap: one records, the other sees it. Async-signal-safe.
pub(super) fn repeats_last(number: i32) -> bool {
    let index = STOPPING.iter().position(|&n| n == number).unwrap_or(0) as u64;
    let now = monotonic_ns();
    let mut last = LAST_COUNTED.load(Ordering::SeqCst);
    loop {
        if last != NONE_COUNTED
            && last & 7 == index
            && now.saturating_sub(last >> 3) < SAME_REQUEST_NS
        {
            return true;
        }
        let counted = (now << 3) | index;
        match LAST_COUNTED.compare_exchange(last, counted, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => return false,
            Err(seen) => last = seen,
        }
    }
}

/// Nanoseconds on the monotonic clock, through `clock_gettime(2)`, which is async-signal-safe
/// (`Instant` does not promise to be). Below 2^61 for 73 years of uptime.
fn monotonic_ns() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write; CLOCK_MONOTONIC is always there on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    (now.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(now.tv_nsec as u64)
        & (u64::MAX >> 3)
}
