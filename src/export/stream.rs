//! The streamed per-game output: written without a buffer of its own, so that the caller knows
//! which bytes reached it and can end it on a whole row after any failure; locked while written
//! (one writer at a time); its name and rows made durable for the checkpoints that count them;
//! room kept in hand past its end for the files that end a run on a full disk (`in_hand`);
//! watched for its removal while written (`rm`), which would lose its rows unseen; removed
//! only when this run created it and wrote nothing useful.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::Target;
use super::files::folder_of;
use super::in_hand::InHand;
use super::replace::sync_folder;

/// The streamed output (the per-game CSV): standard output or a file, written without a
/// buffer of its own so the caller knows exactly which bytes reached it.
pub struct Stream {
    out: StreamOut,
    created: Option<PathBuf>,
    /// Whether a name led to its file when opened (a regular file's), so that losing its last
    /// name means it was removed while written.
    named: bool,
    /// Bytes written since its names were last counted.
    uncounted: u64,
}

/// Bytes written between two counts of a file's names ([`Stream::stop_reason`]): a removed
/// file is found within a few MiB of rows (a few hundredths of a second of a fast run), for
/// one `fstat` each time.
const NAMES_COUNTED_EVERY: u64 = 4 << 20;

enum StreamOut {
    /// Standard output, and whether it is a regular file (`> games.csv`).
    Stdout(io::Stdout, bool),
    File {
        file: File,
        regular: bool,
        /// Room allocated past its end (a regular file's, where its file system can).
        in_hand: Option<InHand>,
    },
}

impl Stream {
    /// Opens `target` (checked by [`check_outputs`](super::check_outputs)): a new file is
    /// created, an existing regular file emptied, a pipe or device opened as it is.
    pub fn create(target: &Target) -> io::Result<Stream> {
        let path = match target {
            Target::Stdout => {
                let regular = io::stdout()
                    .as_fd()
                    .try_clone_to_owned()
                    .and_then(|fd| File::from(fd).metadata())
                    .is_ok_and(|m| m.is_file());
                let stream = Stream {
                    out: StreamOut::Stdout(io::stdout(), regular),
                    created: None,
                    named: false,
                    uncounted: 0,
                };
                return Ok(stream.named_now());
            }
            Target::File(path) => path,
        };
        let (file, created) = match OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(file) => {
                // Its name made durable now, so that the rows a checkpoint counts in it (synced
                // with the file) are found after a power cut.
                if let Err(e) = lock(&file).and_then(|()| sync_folder(folder_of(path))) {
                    let _ = fs::remove_file(path);
                    return Err(e);
                }
                (file, Some(path.clone()))
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let file = OpenOptions::new().write(true).open(path)?;
                // Emptied only once locked: another warsim's rows are left alone.
                if file.metadata()?.is_file() {
                    lock(&file)?;
                    file.set_len(0)?;
                }
                (file, None)
            }
            Err(e) => return Err(e),
        };
        let regular = file.metadata()?.is_file();
        let stream = Stream {
            out: StreamOut::File {
                file,
                regular,
                in_hand: regular.then(|| InHand::new(0)),
            },
            created,
            named: false,
            uncounted: 0,
        };
        Ok(stream.named_now())
    }

    /// Opens a file a resumed run continues: cut back to its first `len` bytes (the rows its
    /// checkpoint counted), written on from there. The file must exist and hold them.
    pub fn resume(path: &Path, len: u64) -> io::Result<Stream> {
        let mut file = OpenOptions::new().write(true).open(path)?;
        lock(&file)?;
        let held = file.metadata()?.len();
        if held < len {
            return Err(io::Error::other(format!(
                "it holds {held} bytes, fewer than the {len} its checkpoint counted"
            )));
        }
        // Which also gives back any room a killed run held past its end.
        file.set_len(len)?;
        file.seek(io::SeekFrom::Start(len))?;
        let stream = Stream {
            out: StreamOut::File {
                file,
                regular: true,
                in_hand: Some(InHand::new(len)),
            },
            created: None,
            named: false,
            uncounted: 0,
        };
        Ok(stream.named_now())
    }

    /// Notes whether a name leads to its file now (a regular file's have one or more).
    fn named_now(mut self) -> Stream {
        self.named = self.names().is_some_and(|names| names > 0);
        self
    }

    /// How many names lead to a regular file (its link count); `None` for a pipe or a device,
    /// or where the system does not say.
    fn names(&self) -> Option<u64> {
        let metadata = match &self.out {
            StreamOut::File {
                file,
                regular: true,
                ..
            } => file.metadata(),
            StreamOut::Stdout(out, true) => out
                .as_fd()
                .try_clone_to_owned()
                .and_then(|fd| File::from(fd).metadata()),
            _ => return None,
        };
        metadata.ok().map(|m| m.nlink())
    }

    /// True when its file had a name when opened and has none now: it was removed while
    /// written, and every row written to it is lost once it is closed.
    pub fn removed(&self) -> bool {
        self.named && self.names() == Some(0)
    }

    /// Whether it is a regular file (named, or standard output sent to one), which no reader
    /// can stall: a write to it always finishes.
    pub fn is_regular_file(&self) -> bool {
        match self.out {
            StreamOut::Stdout(_, regular) | StreamOut::File { regular, .. } => regular,
        }
    }

    /// The file opened again (its descriptor duplicated, sharing its offset), for a named
    /// regular file: what a Parquet file's salvage writes through (`parquet_file`). `None` for
    /// standard output, which may be opened for appending, and for pipes and devices.
    pub fn reopened(&self) -> Option<File> {
        match &self.out {
            StreamOut::File {
                file,
                regular: true,
                ..
            } => file.try_clone().ok(),
            _ => None,
        }
    }

    /// Bytes free on a regular file's file system, with the room it holds past its end; `None`
    /// for a pipe or a device, which fill no disk, or where the system does not say.
    pub fn free_bytes(&self) -> Option<u64> {
        match &self.out {
            StreamOut::File {
                file,
                regular: true,
                in_hand,
            } => {
                let held = in_hand.as_ref().map_or(0, InHand::held);
                super::room::free_bytes(file.as_fd(), held).ok()
            }
            StreamOut::Stdout(out, true) => super::room::free_bytes(out.as_fd(), 0).ok(),
            _ => None,
        }
    }

    /// Cuts a regular file back to its first `len` bytes; false where that is impossible
    /// (standard output, a pipe).
    pub fn truncate(&mut self, len: u64) -> bool {
        match &mut self.out {
            StreamOut::File {
                file,
                regular: true,
                in_hand,
            } => {
                let cut = file.set_len(len).is_ok();
                if let (true, Some(in_hand)) = (cut, in_hand) {
                    in_hand.cut_to(len);
                }
                cut
            }
            _ => false,
        }
    }

    /// The least room the file keeps in hand past its end, below which the run stops; `None`
    /// for standard output, a pipe or a device, or where its file system cannot allocate ahead.
    pub fn in_hand(&self) -> Option<u64> {
        match &self.out {
            StreamOut::File {
                in_hand: Some(in_hand),
                ..
            } => Some(in_hand.least()),
            _ => None,
        }
    }

    /// The files written once the run stops need `bytes` (at least
    /// [`LEAST_IN_HAND`](super::in_hand::LEAST_IN_HAND)) kept in hand past this file's end,
    /// from the next write on: the Parquet file's row groups in flight, and its footer.
    pub fn need_in_hand(&mut self, bytes: u64) {
        if let StreamOut::File {
            in_hand: Some(in_hand),
            ..
        } = &mut self.out
        {
            in_hand.need(bytes);
        }
    }

    /// Why the run should stop now, if it should: its file was removed while written (found
    /// by counting its names every few MiB; [`Removed`]), or, the first time after the disk
    /// would not give the room this file keeps in hand, to end every file in the room still
    /// held ([`RoomShort`](super::in_hand::RoomShort)).
    pub fn stop_reason(&mut self) -> Option<io::Error> {
        if self.uncounted >= NAMES_COUNTED_EVERY {
            self.uncounted = 0;
            if self.removed() {
                return Some(Removed::error());
            }
        }
        match &mut self.out {
            StreamOut::File {
                in_hand: Some(in_hand),
                ..
            } => in_hand.short(),
            _ => None,
        }
    }

    /// Makes what was written durable (`fsync` of the data; on NFS, a commit to the server): a
    /// regular file's; standard output, pipes and devices keep nothing to sync.
    pub fn persist(&mut self) -> io::Result<()> {
        match &mut self.out {
            StreamOut::File {
                file,
                regular: true,
                ..
            } => file.sync_data(),
            _ => Ok(()),
        }
    }

    /// Removes the file if this run created it (when nothing useful was written to it).
    pub fn discard(mut self) {
        if let Some(path) = self.created.take()
            && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
        {
            let _ = fs::remove_file(path);
        }
    }
}

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

/// Why a run stopped writing a per-game file: it was removed while written (`rm`), and the rows
/// in it are lost.
#[derive(Debug, thiserror::Error)]
#[error("it was removed while warsim wrote it, its rows with it")]
pub struct Removed;

impl Removed {
    /// The error, as an I/O error.
    pub fn error() -> io::Error {
        io::Error::new(io::ErrorKind::NotFound, Removed)
    }

    /// True when `error` is this one.
    pub fn is(error: &io::Error) -> bool {
        error.get_ref().is_some_and(|inner| inner.is::<Removed>())
    }
}

/// Locks a streamed output's file for as long as it is open (the OS's lock: a killed run lets
/// go of it), so that two warsims never write one per-game file at once (two tasks of an array
/// given one `--csv`, a command started twice): the second is refused before it writes.
fn lock(file: &File) -> io::Result<()> {
    match file.try_lock() {
        Err(fs::TryLockError::WouldBlock) => {
            Err(io::Error::new(io::ErrorKind::ResourceBusy, AnotherWriter))
        }
        // A file system without locks: written as without one.
        _ => Ok(()),
    }
}

impl Write for Stream {
    /// Writes as much of `bytes` as the output takes now.
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.out {
            StreamOut::Stdout(out, _) => {
                let written = out.write(bytes)?;
                self.uncounted += written as u64;
                Ok(written)
            }
            StreamOut::File { file, in_hand, .. } => {
                let written = file.write(bytes)?;
                self.uncounted += written as u64;
                if let Some(keeping) = in_hand
                    && !keeping.wrote(file, written as u64)
                {
                    *in_hand = None;
                }
                Ok(written)
            }
        }
    }

    /// Flushes what was written.
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            StreamOut::Stdout(out, _) => out.flush(),
            StreamOut::File { file, .. } => file.flush(),
        }
    }
}

/// The room held past the file's end is given back as it closes: for the files written after.
impl Drop for Stream {
    fn drop(&mut self) {
        if let StreamOut::File {
            file,
            in_hand: Some(in_hand),
            ..
        } = &mut self.out
        {
            in_hand.give_back(file);
        }
    }
}
