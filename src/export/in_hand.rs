//! Room kept in hand on a per-game file's disk. A run that filled its disk would leave no room
//! for what it must still write after its last row: the Parquet file's last row groups and
//! footer, the summaries, the histograms, the plots, the state. So each per-game file warsim
//! opens by name keeps part of its disk allocated past its end, renewed as the file grows
//! (Linux's `fallocate` with `FALLOC_FL_KEEP_SIZE`: the file's length, and so what its readers
//! see, is unchanged): [`IN_HAND`] where the disk has it, else only twice what those files
//! need, so that a run which fits a nearly full disk still plays to its end. When the disk will
//! not give even that, the run is told ([`InHand::short`]) and stops there, its files end whole
//! in the room still held, and what is left of it is given back ([`InHand::give_back`], the
//! file cut to its own length) for the files written after.
//! Where the file system cannot allocate ahead (some network file systems), nothing is kept
//! and a full disk is met as a write error, as before.

use std::fs::File;
use std::io;

/// Bytes a per-game file keeps in hand past its end where its disk has them (more for a
/// Parquet file whose row groups need more): renewed when less than half is left, so that on
/// a disk with room to spare the renewal is rare.
pub const IN_HAND: u64 = 16 << 20;

/// What a file's last rows and the files written once a run stops need, unless the file's
/// writer says more (the Parquet file, for its row groups in flight): a CSV's buffer and last
/// range of rows (at most 4,096 games) and a run's summaries, histograms, plots and state are
/// a few hundred kB. A file keeps twice this in hand on a disk that will not give [`IN_HAND`],
/// renewed at half, and the run stops when the disk will not give even that.
pub const LEAST_IN_HAND: u64 = 2 << 20;

/// The room a file keeps past its end, and whether its disk still gives it.
#[derive(Debug)]
pub struct InHand {
    /// Bytes the files written once the run stops need ([`LEAST_IN_HAND`] or more).
    need: u64,
    /// Where this process writes next: the file's end.
    end: u64,
    /// The room is allocated up to here.
    held_to: u64,
    /// Whether the disk still gives the room.
    state: Room,
}

/// Whether a file's disk gives the room it keeps in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Room {
    /// [`IN_HAND`] (or twice the need, if more).
    Ample,
    /// Only twice the need: the disk refused more.
    Tight,
    /// Refused even that, not yet said by [`InHand::short`].
    Refused,
    /// Refused and said.
    Said,
}

/// Why a run stopped with its files whole: the disk of a per-game file had less free than the
/// least room warsim keeps in hand.
#[derive(Debug, thiserror::Error)]
#[error(
    "its disk is nearly full (less than {} MiB free, the room warsim keeps in hand to end \
     every file whole)",
    .bytes.div_ceil(1 << 20)
)]
pub struct RoomShort {
    /// The room the disk refused.
    pub bytes: u64,
}

impl RoomShort {
    /// True when `error` is this one: the files ended whole, none failed.
    pub fn is(error: &io::Error) -> bool {
        error.get_ref().is_some_and(|inner| inner.is::<RoomShort>())
    }
}

impl InHand {
    /// Room to keep past a file's `end` (where this process starts writing it).
    pub fn new(end: u64) -> InHand {
        InHand {
            need: LEAST_IN_HAND,
            end,
            held_to: end,
            state: Room::Ample,
        }
    }

    /// The room below which the run stops: twice what the files written after it need.
    pub fn least(&self) -> u64 {
        2 * self.need
    }

    /// The room to keep now.
    fn bytes(&self) -> u64 {
        match self.state {
            Room::Ample => IN_HAND.max(self.least()),
            _ => self.least(),
        }
    }

    /// The bytes allocated past the end, which the file system counts as used.
    pub fn held(&self) -> u64 {
        self.held_to.saturating_sub(self.end)
    }

    /// The files written once the run stops need `bytes` (at least [`LEAST_IN_HAND`]), from
    /// the next write on.
    pub fn need(&mut self, bytes: u64) {
        self.need = bytes.max(LEAST_IN_HAND);
    }

    /// Notes `written` bytes appended to `file`, and renews the room past them when less than
    /// half of it is left: [`IN_HAND`] where the disk gives it, else only twice the need. A
    /// disk that will not give even that makes the file [`InHand::short`]; one that cannot
    /// allocate ahead at all returns false: nothing can be kept in hand.
    pub fn wrote(&mut self, file: &File, written: u64) -> bool {
        self.wrote_on(written, |offset, bytes| allocate(file, offset, bytes))
    }

    /// [`InHand::wrote`], the room allocated by `allocate(offset, bytes)`.
    fn wrote_on(
        &mut self,
        written: u64,
        mut allocate: impl FnMut(u64, u64) -> io::Result<()>,
    ) -> bool {
        self.end += written;
        while matches!(self.state, Room::Ample | Room::Tight)
            && self.end + self.bytes() / 2 > self.held_to
        {
            match allocate(self.end, self.bytes()) {
                Ok(()) => self.held_to = self.end + self.bytes(),
                Err(e) if matches!(e.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)) => {
                    self.state = match self.state {
                        Room::Ample if IN_HAND > self.least() => Room::Tight,
                        _ => Room::Refused,
                    };
                }
                // Not supported here (or refused for some other reason): a full disk will be
                // met as a write error instead.
                Err(_) => return false,
            }
        }
        true
    }

    /// The file was cut back to `len` bytes, the room past it given back with them.
    pub fn cut_to(&mut self, len: u64) {
        (self.end, self.held_to) = (len, len);
    }

    /// The first time after the disk would not give the least room: why the run should stop
    /// now.
    pub fn short(&mut self) -> Option<io::Error> {
        if self.state != Room::Refused {
            return None;
        }
        self.state = Room::Said;
        let short = RoomShort {
            bytes: self.least(),
        };
        Some(io::Error::new(io::ErrorKind::StorageFull, short))
    }

    /// Gives back the room held past `file`'s end: the file is cut to its own length, which
    /// frees the blocks allocated past it (on ext4, XFS, btrfs and tmpfs alike; punching a hole
    /// past the end frees nothing on ext4).
    pub fn give_back(&mut self, file: &File) {
        if self.held_to > self.end
            && let Ok(meta) = file.metadata()
            && file.set_len(meta.len()).is_ok()
        {
            self.held_to = self.end;
        }
    }
}

/// Allocates `bytes` of `file` from `offset` without changing its length.
#[cfg(target_os = "linux")]
fn allocate(file: &File, offset: u64, bytes: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // The tests' disks: `WARSIM_TEST_DISK_BYTES=N` refuses room past byte N of the file, and
    // `=unsupported` allocates nothing ahead, as some network file systems.
    #[cfg(feature = "testing")]
    if let Ok(disk) = std::env::var("WARSIM_TEST_DISK_BYTES") {
        return match disk.parse::<u64>() {
            Ok(size) if offset + bytes > size => Err(io::Error::from_raw_os_error(libc::ENOSPC)),
            Ok(_) => Ok(()),
            Err(_) => Err(io::Error::from_raw_os_error(libc::EOPNOTSUPP)),
        };
    }
    let (Ok(offset), Ok(bytes)) = (i64::try_from(offset), i64::try_from(bytes)) else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    loop {
        // SAFETY: a plain system call on a descriptor `file` keeps open for the whole call.
        let done =
            unsafe { libc::fallocate(file.as_raw_fd(), libc::FALLOC_FL_KEEP_SIZE, offset, bytes) };
        if done == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Elsewhere nothing is allocated ahead.
#[cfg(not(target_os = "linux"))]
fn allocate(_: &File, _: u64, _: u64) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;

    /// Bytes of `file` on its disk.
    fn on_disk(file: &File) -> u64 {
        file.metadata().unwrap().blocks() * 512
    }

    #[test]
    fn room_is_held_past_the_end_renewed_at_half_and_given_back() {
        let mut file = tempfile::tempfile_in(std::env::temp_dir()).unwrap();
        let mut room = InHand::new(0);
        let write = |file: &mut File, room: &mut InHand, bytes: usize| {
            file.write_all(&vec![b'x'; bytes]).unwrap();
            room.wrote(file, bytes as u64)
        };
        if !write(&mut file, &mut room, 4096) {
            return; // A file system that cannot allocate ahead: nothing to check here.
        }
        assert_eq!(file.metadata().unwrap().len(), 4096);
        assert!(on_disk(&file) >= 4096 + IN_HAND, "{}", on_disk(&file));
        assert_eq!(room.held(), IN_HAND);
        // Not renewed while more than half is left; renewed after.
        assert!(write(&mut file, &mut room, (IN_HAND / 2) as usize));
        assert_eq!(room.held(), IN_HAND / 2);
        assert!(write(&mut file, &mut room, 1));
        assert_eq!(room.held(), IN_HAND);
        // A larger need, kept from the next renewal.
        room.need(3 * IN_HAND);
        assert!(write(&mut file, &mut room, 1));
        assert_eq!(room.held(), 6 * IN_HAND);
        assert!(room.short().is_none());
        let len = file.metadata().unwrap().len();
        room.give_back(&file);
        assert_eq!(room.held(), 0);
        assert_eq!(file.metadata().unwrap().len(), len);
        assert!(on_disk(&file) < len + (64 << 10), "{}", on_disk(&file));
    }

    /// A disk of `size` bytes for [`InHand::wrote_on`]: room past it refused.
    fn disk(size: u64) -> impl FnMut(u64, u64) -> io::Result<()> {
        move |offset, bytes| match offset + bytes > size {
            true => Err(io::Error::from_raw_os_error(libc::ENOSPC)),
            false => Ok(()),
        }
    }

    #[test]
    fn a_disk_short_of_the_ample_room_keeps_the_least_then_stops_once() {
        let mut room = InHand::new(0);
        let size = 5 * LEAST_IN_HAND;
        // 16 MiB refused from the start: twice the need (4 MiB) held instead.
        assert!(room.wrote_on(1000, disk(size)));
        assert_eq!(room.held(), 2 * LEAST_IN_HAND);
        assert!(room.short().is_none());
        // Renewed at half, up to the end of the disk.
        assert!(room.wrote_on(size - 2 * LEAST_IN_HAND - 1000, disk(size)));
        assert_eq!(
            (room.held(), room.short().is_none()),
            (2 * LEAST_IN_HAND, true)
        );
        assert!(room.wrote_on(LEAST_IN_HAND + 1, disk(size)));
        let short = room.short().unwrap();
        assert!(RoomShort::is(&short));
        assert_eq!(short.kind(), io::ErrorKind::StorageFull);
        assert!(
            short.to_string().contains("less than 4 MiB free"),
            "{short}"
        );
        // Said once; what is still held stays for the files written after.
        assert!(room.short().is_none());
        assert_eq!(room.held(), LEAST_IN_HAND - 1);
        assert!(room.wrote_on(1 << 30, disk(size)));
        assert_eq!(room.held(), 0);
        assert!(!RoomShort::is(&io::Error::other("another")));
    }

    #[test]
    fn a_larger_need_is_the_least_room_and_said_rounded_up() {
        let mut room = InHand::new(0);
        room.need(IN_HAND + (1 << 19));
        assert_eq!(room.least(), 2 * IN_HAND + (1 << 20));
        assert!(room.wrote_on(1, disk(room.least())));
        let short = room.short().unwrap();
        assert!(
            short.to_string().contains("less than 33 MiB free"),
            "{short}"
        );
    }

    #[test]
    fn a_cut_gives_the_room_back_with_the_bytes() {
        let mut room = InHand::new(100);
        room.held_to = 100 + IN_HAND;
        room.cut_to(40);
        assert_eq!((room.end, room.held()), (40, 0));
    }
}
