//! The tail of a Parquet file written on (after a resume, or a checkpoint that ended it with a
//! footer): what follows its full row groups (a short last row group, the page indexes, the
//! footer), which the cut that makes room for the new row groups takes. It is saved first
//! beside the file, in one of warsim's own (`NAME.warsim-tail`), synced, until a state counts
//! the games written on and the file ends with a footer again ([`forget_saved_tail`]). A run
//! killed before then (SIGKILL, a power cut) leaves a file without a footer: the next `warsim
//! resume` puts the tail back ([`check_resumable`](super::check_resumable)), and the file is
//! as its state counts it, so the games it held are never lost.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use parquet::file::metadata::ParquetMetaDataReader;

use crate::export::files::folder_of;
use crate::export::other_programs::{fd_path, lock};
use crate::export::replace::sync_folder;

/// What the saved tail file starts with: the tail is warsim's, and of this layout. Then the
/// offset it was cut from and how many bytes before it are kept to check (little-endian u64s),
/// those bytes, and the tail itself to the end.
const TAIL_MAGIC: &[u8] = b"warsim parquet tail 2\n";

/// Bytes before the cut kept with the tail (the end of the last row group): the file it is put
/// back on must hold them there, or it is not the file the tail was cut from.
const CHECKED: u64 = 4096;

/// A tail saved beside a Parquet file, as read back.
pub(super) struct SavedTail {
    cut: u64,
    checked: Vec<u8>,
    tail: Vec<u8>,
}

impl SavedTail {
    /// Reads the tail saved at `path`: `None` if there is none, an error if it is not warsim's.
    pub(super) fn read(path: &Path) -> io::Result<Option<SavedTail>> {
        let saved = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let number = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        let body = (saved.strip_prefix(TAIL_MAGIC)).filter(|b| b.len() >= 16);
        let parsed = body.and_then(|body| {
            let (cut, checked) = (number(&body[..8]), number(&body[8..16]));
            let rest = &body[16..];
            (checked <= rest.len() as u64 && checked <= cut).then(|| {
                let (checked, tail) = rest.split_at(checked as usize);
                SavedTail {
                    cut,
                    checked: checked.to_vec(),
                    tail: tail.to_vec(),
                }
            })
        });
        parsed
            .map(Some)
            .ok_or_else(|| io::Error::other("it is not a tail warsim saved"))
    }

    /// Puts the tail back in the file at `path` (locked, so never under a warsim that writes
    /// it), once it is found to hold the bytes kept before the cut, and syncs it.
    pub(super) fn put_back(&self, path: &Path) -> io::Result<()> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        lock(&file)?;
        let from = self.cut - self.checked.len() as u64;
        let mut held = vec![0; self.checked.len()];
        if file.read_exact_at(&mut held, from).is_err() || held != self.checked {
            return Err(io::Error::other(
                "the file does not hold the row groups it was cut from",
            ));
        }
        file.write_all_at(&self.tail, self.cut)?;
        file.set_len(self.cut + self.tail.len() as u64)?;
        file.sync_all()
    }
}

/// Puts back the tail saved beside the Parquet file at `path` through `file`, a descriptor of
/// it this process holds (and its lock with it), and removes the tail: a resumed run that wrote
/// no game, or whose write failed before the file held again every game it held, leaves it as
/// it found it.
pub(super) fn put_back_through(file: &File, path: &Path) -> io::Result<()> {
    let tail = tail_path(path);
    let saved = SavedTail::read(&tail)?.ok_or_else(|| io::Error::other("no saved tail"))?;
    file.write_all_at(&saved.tail, saved.cut)?;
    file.set_len(saved.cut + saved.tail.len() as u64)?;
    file.sync_all()?;
    fs::remove_file(tail)
}

pub(super) fn remove_tail(tail: &Path) -> Result<(), String> {
    fs::remove_file(tail)
        .map_err(|e| format!("keeps {}, which cannot be removed: {e}", tail.display()))
}

/// Removes the tail saved beside the Parquet file at `path`, which a run writing the file
/// afresh has emptied: the tail no longer belongs to it.
pub fn discard_saved_tail(path: &Path) {
    let tail = tail_path(path);
    if SavedTail::read(&tail).is_ok_and(|saved| saved.is_some()) {
        let _ = fs::remove_file(&tail);
    }
}

/// Where the tail of `path` is kept while the file is written on: `NAME.warsim-tail`.
pub fn tail_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(".warsim-tail");
    PathBuf::from(name)
}

/// Saves what follows the row groups of `file` (from `cut` on), with the bytes just before it,
/// in `tail`, synced with its name.
pub(super) fn save_tail(file: &File, cut: u64, tail: &Path) -> io::Result<()> {
    let checked = cut.min(CHECKED);
    let mut bytes = Vec::new();
    let mut reader = File::open(fd_path(file))?;
    io::Seek::seek(&mut reader, io::SeekFrom::Start(cut - checked))?;
    reader.read_to_end(&mut bytes)?;
    let mut out = OpenOptions::new().write(true).create_new(true).open(tail)?;
    let written = (|| {
        out.write_all(TAIL_MAGIC)?;
        out.write_all(&cut.to_le_bytes())?;
        out.write_all(&checked.to_le_bytes())?;
        out.write_all(&bytes)?;
        out.sync_all()?;
        sync_folder(folder_of(tail))
    })();
    if written.is_err() {
        let _ = fs::remove_file(tail);
    }
    written
}

/// Removes the tail saved beside the Parquet file at `path` once the file ends with a footer
/// again (the run that wrote it on closed it, and wrote the state that counts its games).
pub fn forget_saved_tail(path: &Path) {
    let tail = tail_path(path);
    let has_footer = || {
        File::open(path)
            .is_ok_and(|file| (ParquetMetaDataReader::new().parse_and_finish(&file)).is_ok())
    };
    if SavedTail::read(&tail).is_ok_and(|saved| saved.is_some()) && has_footer() {
        let _ = fs::remove_file(&tail);
    }
}
