//! What other programs may do to a per-game file while warsim writes it. Another warsim given
//! the same file (two tasks of an array given one `--csv`) is kept out by a lock
//! ([`AnotherWriter`]). A program may remove it (`rm`) or cut it short (`: > games.csv`,
//! `truncate`): either way the file no longer holds the games a run would say it holds
//! ([`Lost`]). A cut-short file is written on at warsim's offset, so the bytes between where it
//! was cut and where warsim went on read as zeros: a hole in the file, which file systems that
//! keep holes report (`SEEK_HOLE`: ext4, XFS, btrfs and tmpfs tried; ZFS and NFS 4.2
//! untried). A [`Watch`] on each per-game file looks for both.

use std::cell::Cell;
use std::fs::{self, File};
use std::io::{self, Seek};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::text::group;

/// Why a streamed output could not be opened: another process holds its lock.
#[derive(Debug, thiserror::Error)]
#[error("another warsim is writing it")]
pub struct AnotherWriter;

impl AnotherWriter {
    /// True when `error` is this one (not merely a busy device).
    pub fn is(error: &io::Error) -> bool {
        error
            .get_ref()
            .is_some_and(|inner| inner.is::<AnotherWriter>())
    }
}

/// Locks a streamed output's file for as long as it is open (the OS's lock: a killed run lets
/// go of it), so that two warsims never write one per-game file at once (two tasks of an array
/// given one `--csv`, a command started twice): the second is refused before it writes.
pub(super) fn lock(file: &File) -> io::Result<()> {
    match file.try_lock() {
        Err(fs::TryLockError::WouldBlock) => {
            Err(io::Error::new(io::ErrorKind::ResourceBusy, AnotherWriter))
        }
        // A file system without locks: written as without one.
        _ => Ok(()),
    }
}

/// Why a per-game file no longer holds the rows written to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Lost {
    /// Removed while written: every row goes once it is closed.
    #[error("it was removed while warsim wrote it, its rows with it")]
    Removed,
    /// Cut short while written: the bytes from `from` up to `to` are zeros now, or gone.
    #[error(
        "it was cut short by another program while warsim wrote it: the rows in its bytes {} to \
         {} are lost",
        group(*.from),
        group(.to.saturating_sub(1))
    )]
    CutShort {
        /// The first byte lost.
        from: u64,
        /// The byte after the last one lost.
        to: u64,
    },
}

impl Lost {
    /// The error, as an I/O error.
    pub fn error(self) -> io::Error {
        io::Error::new(io::ErrorKind::NotFound, self)
    }

    /// True when `error` is one of these.
    pub fn is(error: &io::Error) -> bool {
        error.get_ref().is_some_and(|inner| inner.is::<Lost>())
    }
}

/// The watch kept on a per-game file for another program removing it or cutting it short.
pub(super) struct Watch {
    /// Whether a name led to its file when opened (a regular file's), so that losing its last
    /// name means it was removed while written.
    named: bool,
    /// Where the bytes begin that must all still be there: the file's start, or where this
    /// run's begin in standard output.
    whole_from: u64,
    /// Where its bytes were last found all there ([`Watch::lost`]).
    found_whole_to: Cell<u64>,
    /// Bytes written since its names were last counted.
    uncounted: u64,
}

/// Bytes written between two counts of a file's names ([`Watch::removed_lately`]): a removed
/// file is found within a few MiB of rows (a few hundredths of a second of a fast run), for
/// one `fstat` each time.
const NAMES_COUNTED_EVERY: u64 = 4 << 20;

impl Watch {
    /// The watch on `file` (a regular file when `regular`: pipes and devices are not watched),
    /// whose bytes from `whole_from` must stay.
    pub fn new(file: &File, regular: bool, whole_from: u64) -> Watch {
        // A file a user named as an NFS client names one it holds for removal is not watched.
        let named = regular && names(file).is_some_and(|n| n > 0) && !held_for_removal(file);
        Watch {
            named,
            whole_from,
            found_whole_to: Cell::new(0),
            uncounted: 0,
        }
    }

    /// Counts `bytes` more written.
    pub fn wrote(&mut self, bytes: u64) {
        self.uncounted += bytes;
    }

    /// [`Watch::removed`], asked once every few MiB written (else false).
    pub fn removed_lately(&mut self, file: &File) -> bool {
        if self.uncounted < NAMES_COUNTED_EVERY {
            return false;
        }
        self.uncounted = 0;
        self.removed(file)
    }

    /// True when `file` had a name when opened and has none now: it was removed while
    /// written, and every row written to it is lost once it is closed. On NFS a file removed
    /// while open keeps a name, one the client gives it in its folder (`.nfs…`) until it is
    /// closed, and is found by that name (Linux's `/proc/self/fd`).
    pub fn removed(&self, file: &File) -> bool {
        self.named
            && match names(file) {
                Some(0) => true,
                Some(_) => held_for_removal(file),
                None => false,
            }
    }

    /// Whether another program took rows written to `file`: removed it ([`Watch::removed`]),
    /// or cut it short (`: > games.csv`), found by the zeros warsim's next rows left before
    /// them (a hole: [`lost_bytes`]).
    pub fn lost(&self, file: &File) -> Option<Lost> {
        if !self.named {
            return None;
        }
        if self.removed(file) {
            return Some(Lost::Removed);
        }
        let end = (&*file).stream_position().ok()?;
        // Only the bytes written since it was last found whole are looked through, from a block
        // before them: a cut below that left a hole reaching into them, or a file shorter than
        // them, so a long file's blocks are not gone through again at every checkpoint. What
        // was lost is then looked for from the start.
        let since = self.found_whole_to.get().saturating_sub(BLOCK_MOST as u64);
        if lost_bytes(file, since.max(self.whole_from).min(end), end).is_none() {
            self.found_whole_to.set(end);
            return None;
        }
        let (from, to) = lost_bytes(file, self.whole_from, end)?;
        Some(Lost::CutShort { from, to })
    }
}

/// Where `file`, opened as `given`, stands now when another program moved it (`mv`) while
/// warsim wrote it: `given` leads to no file, or to another one, while `file` still has a
/// name, read from Linux's `/proc/self/fd`. `None` when `given` still leads to it, when it has
/// no name left (removed: [`Watch::removed`]), or where the system does not say.
pub(super) fn moved_to(file: &File, given: &Path) -> Option<PathBuf> {
    let ours = file.metadata().ok()?;
    let there = fs::metadata(given);
    if there.is_ok_and(|m| (m.dev(), m.ino()) == (ours.dev(), ours.ino())) || ours.nlink() == 0 {
        return None;
    }
    fs::read_link(fd_path(file)).ok()
}

/// Where Linux names the file `file` is open on, wherever it stands now (`/proc/self/fd/N`):
/// opened, a descriptor of its own (its own offset, and readable though `file` is write-only);
/// read as a link, its path.
pub(crate) fn fd_path(file: &File) -> PathBuf {
    PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

/// How many names lead to `file` (its link count); `None` where the system does not say.
fn names(file: &File) -> Option<u64> {
    file.metadata().ok().map(|m| m.nlink())
}

/// The first run of bytes of `file` from `start` up to `end` that no longer holds what was
/// written there, as `(from, to)`: zeros where the file was cut short and written on after,
/// or the bytes past its end (cut short, not written on since). The file system finds the hole
/// whole blocks at a time; the zero bytes on either side of it within a block are counted too,
/// so the bytes are exact for a CSV, whose rows hold no zero byte. Only a cut within the block
/// warsim went on in leaves no hole, and is not told. `None` when every byte is there, or where
/// the system does not say: a file system that keeps no holes writes real zeros, and is not
/// told from a file whole.
pub fn lost_bytes(file: &File, start: u64, end: u64) -> Option<(u64, u64)> {
    if start >= end {
        return None;
    }
    // A file of its own: `file`'s offset is where it is written from, and may be shared
    // (standard output with standard error, `2>&1`), so it is never moved. `/proc/self/fd`
    // opens the file `file` is, wherever it stands now, with an offset of its own.
    let file = File::open(fd_path(file)).ok()?;
    let file = &file;
    match seek(file, start, libc::SEEK_HOLE) {
        Ok(hole) if hole >= end => None,
        Ok(hole) => {
            // Written on after the hole, or not: the bytes lost end where data comes again.
            let data = seek(file, hole, libc::SEEK_DATA).unwrap_or(end).min(end);
            Some(zeros_around(file, (hole, data), (start, end)))
        }
        // `start` is past the file's end: it was cut below it.
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => Some((file.metadata().ok()?.len(), end)),
        Err(_) => None,
    }
}

/// Whether `file`'s only name is the one an NFS client gives a file removed while open (`.nfs`
/// and hex digits), which it removes when the file is closed (read from `/proc/self/fd`).
fn held_for_removal(file: &File) -> bool {
    let Ok(path) = fs::read_link(fd_path(file)) else {
        return false;
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.strip_prefix(".nfs")
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The hole `(hole, data)` widened by the zero bytes beside it, within a block before it (no
/// further back than `start`) and after it (no further than `end`).
fn zeros_around(file: &File, (hole, data): (u64, u64), (start, end): (u64, u64)) -> (u64, u64) {
    use std::os::unix::fs::FileExt;
    let mut block = vec![0; BLOCK_MOST];
    let before = hole.saturating_sub(BLOCK_MOST as u64).max(start);
    let from = match file.read_exact_at(&mut block[..(hole - before) as usize], before) {
        Ok(()) => {
            let zeros = block[..(hole - before) as usize]
                .iter()
                .rev()
                .take_while(|&&b| b == 0);
            hole - zeros.count() as u64
        }
        Err(_) => hole,
    };
    let after = (end - data).min(BLOCK_MOST as u64) as usize;
    let to = match file.read_exact_at(&mut block[..after], data) {
        Ok(()) => data + block[..after].iter().take_while(|&&b| b == 0).count() as u64,
        Err(_) => data,
    };
    (from, to)
}

/// The largest block a file system finds holes in (64 KiB: most use 4 KiB).
const BLOCK_MOST: usize = 64 << 10;

/// `lseek` with `whence` (`SEEK_HOLE` or `SEEK_DATA`), which Rust's `Seek` does not offer.
fn seek(file: &File, offset: u64, whence: i32) -> io::Result<u64> {
    let offset = i64::try_from(offset).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: a plain system call on a descriptor `file` keeps open for the whole call.
    match unsafe { libc::lseek(file.as_raw_fd(), offset, whence) } {
        -1 => Err(io::Error::last_os_error()),
        found => Ok(found as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, Write};

    fn written(bytes: usize) -> (tempfile::NamedTempFile, File) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&vec![b'x'; bytes]).unwrap();
        let other = file.reopen().unwrap();
        (file, other)
    }

    #[test]
    fn a_whole_file_has_lost_nothing() {
        let (mut file, _) = written(1 << 20);
        assert_eq!(lost_bytes(file.as_file(), 0, 1 << 20), None);
        assert_eq!(file.stream_position().unwrap(), 1 << 20, "offset kept");
    }

    #[test]
    fn a_file_emptied_and_written_on_has_lost_its_bytes_up_to_where_it_went_on() {
        let (mut file, other) = written(1 << 20);
        other.set_len(0).unwrap();
        file.write_all(&vec![b'y'; 1 << 20]).unwrap();
        let lost = lost_bytes(file.as_file(), 0, 2 << 20);
        assert_eq!(lost, Some((0, 1 << 20)));
        assert_eq!(file.stream_position().unwrap(), 2 << 20, "offset kept");
        // From where this run's bytes began.
        assert_eq!(lost_bytes(file.as_file(), 1 << 20, 2 << 20), None);
    }

    #[test]
    fn the_zeros_of_a_cut_within_a_block_are_counted_to_the_byte() {
        let (mut file, other) = written((1 << 20) + 1000);
        other.set_len((1 << 16) + 10).unwrap();
        file.write_all(b"yyy").unwrap();
        let end = (1 << 20) + 1003;
        assert_eq!(
            lost_bytes(file.as_file(), 0, end),
            Some(((1 << 16) + 10, end - 3))
        );
    }

    #[test]
    fn a_file_cut_and_not_written_on_has_lost_what_is_past_its_end() {
        let (file, other) = written(1 << 20);
        other.set_len(1 << 16).unwrap();
        assert_eq!(
            lost_bytes(file.as_file(), 0, 1 << 20),
            Some((1 << 16, 1 << 20))
        );
        assert_eq!(
            lost_bytes(file.as_file(), 1 << 17, 1 << 20),
            Some((1 << 16, 1 << 20))
        );
    }

    #[test]
    fn the_message_names_the_bytes_lost() {
        let lost = Lost::CutShort {
            from: 0,
            to: 4_194_304,
        };
        assert_eq!(
            lost.to_string(),
            "it was cut short by another program while warsim wrote it: the rows in its bytes 0 \
             to 4,194,303 are lost"
        );
        assert!(Lost::is(&lost.error()));
        assert!(!Lost::is(&io::Error::other("other")));
    }
}
