//! Room on the disk for a per-game file. Once the file holds some rows, the bytes a row has
//! taken so far, times the rows still to come, are set against the space its file system has
//! free; where they will not fit, the run is told once, in its first seconds. A run that fills
//! the disk still stops on a whole row with every finished game kept, but only hours later, and
//! with the disk full for every other program too.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

/// Rows written before the projection is made: enough for a steady size of a row.
const ROOM_SAMPLE: u64 = 1 << 16;

/// Rows that will not fit: what they need and what the disk has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shortfall {
    /// Bytes the rows still to come need, at the size of a row so far.
    pub need: u64,
    /// Bytes free on the file's file system (for this user).
    pub free: u64,
    /// The mean size of a row so far.
    pub bytes_per_row: f64,
    /// Rows still to come.
    pub rows_left: u64,
    /// The room the file keeps in hand past its end, to end every file whole when the disk is
    /// nearly full (`in_hand`); `None` where its file system cannot allocate ahead.
    pub in_hand: Option<u64>,
}

/// Told the [`Shortfall`] when a file's rows will not fit; at most once.
pub type RoomWarning = Box<dyn FnOnce(Shortfall) + Send>;

/// The rows a file is to hold, and what to do if they will not fit.
pub struct RoomWatch {
    rows: u64,
    warn: RoomWarning,
}

impl RoomWatch {
    /// Watches a file that is to hold `rows` rows when the batch is done (a resumed run's
    /// among them).
    pub fn new(rows: u64, warn: RoomWarning) -> RoomWatch {
        RoomWatch { rows, warn }
    }

    /// Makes the projection `watch` waits for, once the file holds 65,536 rows or more
    /// (`ROOM_SAMPLE`; `written`, in `bytes` bytes): compares the rows to come with `free()`,
    /// the room its disk has left (`None`: a pipe or a device, which fill no disk), and warns
    /// if they will not fit, saying the room the file keeps `in_hand`. The watch is taken, so
    /// that the file system is asked once.
    pub fn check_once(
        watch: &mut Option<RoomWatch>,
        (written, bytes): (u64, u64),
        free: impl FnOnce() -> Option<u64>,
        in_hand: Option<u64>,
    ) {
        if written < ROOM_SAMPLE {
            return;
        }
        let Some(RoomWatch { rows, warn }) = watch.take() else {
            return;
        };
        if let Some(shortfall) = free().and_then(|free| shortfall(rows, written, bytes, free)) {
            warn(Shortfall {
                in_hand,
                ..shortfall
            });
        }
    }
}

/// What `rows` rows need beyond the `written` ones (`bytes` so far) when that is more than
/// `free`; `None` when they fit, or nothing is known yet.
pub fn shortfall(rows: u64, written: u64, bytes: u64, free: u64) -> Option<Shortfall> {
    if written == 0 || written >= rows {
        return None;
    }
    let bytes_per_row = bytes as f64 / written as f64;
    let rows_left = rows - written;
    let need = (bytes_per_row * rows_left as f64).ceil() as u64;
    (need > free).then_some(Shortfall {
        need,
        free,
        bytes_per_row,
        rows_left,
        in_hand: None,
    })
}

/// Bytes free for this user on the file system of the file open as `file`, with the `held`
/// bytes the file keeps in hand past its end (which the file system counts as used).
pub fn free_bytes(file: BorrowedFd<'_>, held: u64) -> io::Result<u64> {
    // The tests' way to play a disk nearly full: `WARSIM_TEST_FREE_BYTES=N`, held room and all.
    #[cfg(feature = "testing")]
    if let Some(free) = std::env::var("WARSIM_TEST_FREE_BYTES")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        return Ok(free);
    }
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `fstatvfs` fills `stats` when it returns 0, and the descriptor is `file`'s, open
    // for the whole call.
    let stats = unsafe {
        if libc::fstatvfs(file.as_raw_fd(), stats.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        stats.assume_init()
    };
    let free = (stats.f_bavail as u64).saturating_mul(stats.f_frsize as u64);
    Ok(free.saturating_add(held))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_to_come_at_the_size_of_a_row_so_far_against_the_room_left() {
        // 100 rows of 5,000 bytes: 50 a row; 900 to come need 45,000.
        let short = shortfall(1_000, 100, 5_000, 44_999).unwrap();
        assert_eq!((short.need, short.rows_left), (45_000, 900));
        assert_eq!(short.bytes_per_row, 50.0);
        assert_eq!(shortfall(1_000, 100, 5_000, 45_000), None);
        // Nothing to go on, or nothing to come.
        assert_eq!(shortfall(1_000, 0, 0, 0), None);
        assert_eq!(shortfall(1_000, 1_000, 50_000, 0), None);
    }

    #[test]
    fn a_real_file_system_has_some_room() {
        let file = tempfile::tempfile().unwrap();
        let free = free_bytes(std::os::fd::AsFd::as_fd(&file), 0).unwrap();
        assert!(free > 0);
    }
}
