//! The streamed per-game output: written without a buffer of its own (standard output too,
//! straight to its descriptor), so that the caller knows which bytes reached it and can end it
//! on a whole row after any failure; locked while written (one writer at a time); its name and
//! rows made durable for the checkpoints that count them, and sent on to the disk as they come
//! (`write_behind`) so that making them durable waits little; room kept in hand past its end for
//! the files that end a run on a full disk (`in_hand`); watched for its removal or a cut while
//! written (`rm`, `: > games.csv`), which would lose its rows unseen ([`Lost`]); removed only
//! when this run created it and wrote nothing useful. A resumed file is cut back to what its
//! state counts and written on; a resumed Parquet file's writer lists its row groups again by
//! writing them, which the stream passes over ([`Stream::passing_over`]).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use super::Target;
use super::fifo::open_to_write;
use super::files::folder_of;
use super::in_hand::InHand;
use super::lines::last_row_of;
use super::other_programs::{Lost, Watch, fd_path, lock, moved_to};
use super::replace::sync_folder;
use super::write_behind::WriteBehind;

/// The streamed output (the per-game CSV, or the Parquet file's bytes): standard output or a
/// file, written without a buffer of its own so the caller knows exactly which bytes reached it.
pub struct Stream {
    /// The file, or standard output's: a duplicate of its descriptor, written straight to it,
    /// as Rust's `Stdout` keeps a line buffer that would hide which bytes reached the file
    /// (and a disk that filled would leave a cut row after the games said to be whole).
    file: File,
    /// Whether it is a regular file (named, or standard output sent to one: `> games.csv`).
    regular: bool,
    /// Whether it is standard output.
    stdout: bool,
    /// Room allocated past its end (a regular file's, where its file system can).
    in_hand: Option<InHand>,
    /// A regular file's rows sent on to its disk as they come.
    behind: Option<WriteBehind>,
    created: Option<PathBuf>,
    /// The watch for another program removing it or cutting it short.
    watch: Watch,
    /// Bytes still to pass over: written again by a resumed Parquet file's writer, which lists
    /// the row groups the file holds by copying them through, they are in the file already.
    pass_over: u64,
}

impl Stream {
    /// Opens `target` (checked by [`check_outputs`](super::check_outputs)): a new file is
    /// created, an existing regular file emptied, a pipe or device opened as it is; standard
    /// output is written where it stands.
    pub fn create(target: &Target) -> io::Result<Stream> {
        let path = match target {
            Target::Stdout => return Stream::stdout(),
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
                let file = open_to_write(path)?;
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
        Ok(Stream::of(file, regular, (0, 0), created))
    }

    /// Standard output, written straight to its descriptor from where it stands.
    fn stdout() -> io::Result<Stream> {
        io::stdout().flush()?;
        let file = File::from(io::stdout().as_fd().try_clone_to_owned()?);
        let metadata = file.metadata()?;
        let regular = metadata.is_file();
        // Room is kept in hand from where this run's bytes begin in a regular file: after what
        // it holds when appended to (`>>`), else where standard output stands.
        // SAFETY: a plain system call on a descriptor `file` keeps open for the whole call.
        let flags = unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&file), libc::F_GETFL) };
        let base = match (regular, flags != -1 && flags & libc::O_APPEND != 0) {
            (false, _) => 0,
            (true, true) => metadata.len(),
            (true, false) => (&file).stream_position()?,
        };
        let mut stream = Stream::of(file, regular, (base, base), None);
        stream.stdout = true;
        Ok(stream)
    }

    /// Opens a file a resumed run continues: cut back to its first `len` bytes (the rows its
    /// checkpoint counted), written on from there. The file must exist and hold them.
    pub fn resume(path: &Path, len: u64) -> io::Result<Stream> {
        Stream::resume_with(path, len, |_| Ok(()))
    }

    /// Opens a file a resumed run continues, as [`Stream::resume`] does, once locked calling
    /// `before_cut` with it (which may save what the cut will take).
    pub fn resume_with(
        path: &Path,
        len: u64,
        before_cut: impl FnOnce(&File) -> io::Result<()>,
    ) -> io::Result<Stream> {
        let file = OpenOptions::new().write(true).open(path)?;
        lock(&file)?;
        let held = file.metadata()?.len();
        if held < len {
            return Err(io::Error::other(format!(
                "it holds {held} bytes, fewer than the {len} its checkpoint counted"
            )));
        }
        before_cut(&file)?;
        Stream::cut_back_to(file, len)
    }

    /// Writes on `file`, a regular file this run holds locked, cut back to its first `len`
    /// bytes: a resumed file, or a Parquet file ended at a checkpoint, its footer saved away.
    pub fn cut_back_to(mut file: File, len: u64) -> io::Result<Stream> {
        // Which also gives back any room held past its end.
        file.set_len(len)?;
        file.seek(io::SeekFrom::Start(len))?;
        // Its earlier bytes must stay as much as its own.
        Ok(Stream::of(file, true, (len, 0), None))
    }

    /// The stream of `file`; room kept in hand past a regular file's end, from `base`, where
    /// this run's bytes begin, and its bytes from `whole_from` watched.
    fn of(
        file: File,
        regular: bool,
        (base, whole_from): (u64, u64),
        created: Option<PathBuf>,
    ) -> Stream {
        Stream {
            watch: Watch::new(&file, regular, whole_from),
            file,
            regular,
            stdout: false,
            in_hand: regular.then(|| InHand::new(base)),
            behind: regular.then(WriteBehind::new),
            created,
            pass_over: 0,
        }
    }

    /// The bytes still to pass over of those [`Stream::passing_over`] named.
    pub fn still_to_pass_over(&self) -> u64 {
        self.pass_over
    }

    /// Gives back the room kept in hand past the file's end, and keeps none from now on: the
    /// file is complete, and the files that end the run need the room.
    pub fn give_back_room(&mut self) {
        if let Some(mut in_hand) = self.in_hand.take() {
            in_hand.give_back(&self.file);
        }
    }

    /// Takes the room kept in hand past the file's end now, not at the next write: a resumed
    /// Parquet file's first may come only with its next row group, or its footer, which are
    /// what the room is kept for.
    pub fn keep_room_now(&mut self) {
        if let Some(keeping) = &mut self.in_hand
            && !keeping.wrote(&self.file, 0)
        {
            self.in_hand = None;
        }
    }

    /// Passes over the first `bytes` written from now on: a resumed Parquet file's writer
    /// writes its row groups again, which the file holds already where they would go.
    pub fn passing_over(mut self, bytes: u64) -> Stream {
        self.pass_over = bytes;
        self
    }

    /// Where its file, opened as `given`, stands now if another program moved it while written.
    pub fn moved_to(&self, given: &Path) -> Option<PathBuf> {
        (self.regular && !self.stdout)
            .then(|| moved_to(&self.file, given))
            .flatten()
    }

    /// True when its file had a name when opened and has none now (or, on NFS, only the name
    /// its client keeps a removed file under, `.nfs…`): it was removed while written, and
    /// every row written to it is lost once it is closed.
    pub fn removed(&self) -> bool {
        self.watch.removed(&self.file)
    }

    /// Whether another program took rows written to it: removed it, or cut it short (found by
    /// the zeros warsim's next rows left before them, a hole). Asked at each checkpoint and at
    /// the end, once its rows are synced: a file system may write out what it holds to say
    /// where its holes are.
    pub fn lost(&self) -> Option<Lost> {
        self.watch.lost(&self.file)
    }

    /// The last whole row of its first `bytes` bytes, newline included (empty for none), read
    /// from the file it writes (opened again through `/proc/self/fd`: it is written write-only)
    /// wherever it stands now: another program may have moved it, or put another file under its
    /// name, which a state must not take for it. Empty for standard output, a pipe or a device.
    pub fn last_row(&self, bytes: u64) -> io::Result<String> {
        if !self.regular || self.stdout {
            return Ok(String::new());
        }
        let file = File::open(fd_path(&self.file))?;
        last_row_of(&file, bytes)
    }

    /// Whether it is a regular file (named, or standard output sent to one), which no reader
    /// can stall: a write to it always finishes.
    pub fn is_regular_file(&self) -> bool {
        self.regular
    }

    /// The file opened again (its descriptor duplicated, sharing its offset), for a named
    /// regular file: what a Parquet file's salvage writes through (`parquet_file`). `None` for
    /// standard output, which may be opened for appending, and for pipes and devices.
    pub fn reopened(&self) -> Option<File> {
        (self.regular && !self.stdout)
            .then(|| self.file.try_clone().ok())
            .flatten()
    }

    /// Bytes free on a regular file's file system, with the room it holds past its end; `None`
    /// for a pipe or a device, which fill no disk, or where the system does not say.
    pub fn free_bytes(&self) -> Option<u64> {
        let held = self.in_hand.as_ref().map_or(0, InHand::held);
        self.regular
            .then(|| super::room::free_bytes(self.file.as_fd(), held).ok())
            .flatten()
    }

    /// Cuts the last `partial` bytes written (a row cut short by a failed write) off a regular
    /// file, and writes on from there; false where that is impossible (a pipe, a device). Cut
    /// from where the file's offset stands, not from where this run's bytes began: standard
    /// output may be appended to (`>>`), or shared with standard error (`2>&1`).
    pub fn cut_back(&mut self, partial: u64) -> bool {
        let end = match self.regular {
            true => (&self.file).stream_position(),
            false => return false,
        };
        let Ok(len) = end.map(|end| end.saturating_sub(partial)) else {
            return false;
        };
        let cut =
            self.file.set_len(len).is_ok() && (&self.file).seek(io::SeekFrom::Start(len)).is_ok();
        if let (true, Some(in_hand)) = (cut, &mut self.in_hand) {
            in_hand.cut_to(len);
        }
        cut
    }

    /// Writes `bytes` until all are written or a write fails; returns the bytes written and
    /// the failure, if one came (what `write_all` does, saying how far it got).
    pub fn write_until_failed(&mut self, bytes: &[u8]) -> (usize, Option<io::Error>) {
        let mut done = 0;
        while done < bytes.len() {
            match self.write(&bytes[done..]) {
                Ok(0) => return (done, Some(io::Error::from(io::ErrorKind::WriteZero))),
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return (done, Some(e)),
            }
        }
        (done, None)
    }

    /// The least room the file keeps in hand past its end, below which the run stops; `None`
    /// for a pipe or a device, or where its file system cannot allocate ahead.
    pub fn in_hand(&self) -> Option<u64> {
        self.in_hand.as_ref().map(InHand::least)
    }

    /// The files written once the run stops need `bytes` (at least
    /// [`LEAST_IN_HAND`](super::in_hand::LEAST_IN_HAND)) kept in hand past this file's end,
    /// from the next write on: the Parquet file's row groups in flight, and its footer.
    pub fn need_in_hand(&mut self, bytes: u64) {
        if let Some(in_hand) = &mut self.in_hand {
            in_hand.need(bytes);
        }
    }

    /// Why the run should stop now, if it should: its file was removed while written (found by
    /// counting its names every few MiB; [`Lost::Removed`]), or, the first time after the disk
    /// would not give the room this file keeps in hand, to end every file in the room still held
    /// ([`RoomShort`](super::in_hand::RoomShort)).
    pub fn stop_reason(&mut self) -> Option<io::Error> {
        if self.watch.removed_lately(&self.file) {
            return Some(Lost::Removed.error());
        }
        self.in_hand.as_mut().and_then(InHand::short)
    }

    /// Makes what was written durable (`fsync` of the data; on NFS, a commit to the server): a
    /// regular file's, standard output's too; pipes and devices keep nothing to sync.
    pub fn persist(&mut self) -> io::Result<()> {
        match self.regular {
            true => self.file.sync_data(),
            false => Ok(()),
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

impl Write for Stream {
    /// Writes as much of `bytes` as the output takes now.
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.pass_over > 0 {
            let passed = self.pass_over.min(bytes.len() as u64);
            self.pass_over -= passed;
            return Ok(passed as usize);
        }
        let written = self.file.write(bytes)?;
        self.watch.wrote(written as u64);
        if let Some(behind) = &mut self.behind {
            behind.wrote(&self.file, written as u64);
        }
        if let Some(keeping) = &mut self.in_hand
            && !keeping.wrote(&self.file, written as u64)
        {
            self.in_hand = None;
        }
        Ok(written)
    }

    /// Nothing is held back: every write went straight to the file.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The room held past the file's end is given back as it closes: for the files written after.
impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(in_hand) = &mut self.in_hand {
            in_hand.give_back(&self.file);
        }
    }
}

#[cfg(test)]
mod tests;
