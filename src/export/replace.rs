//! Replacing a file whole: a summary, plot or state is written to a temporary file beside its
//! target, synced, and renamed over it, then its folder synced, so that a reader never sees
//! half a file and the old one survives a failure or a power cut; never over a file another
//! warsim is writing, nor one another program wrote since the outputs were checked (`as_found`).

use std::fs::{self, File, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use tempfile::NamedTempFile;

use super::Target;
use super::as_found::{self, Found, WrittenMeanwhile};
use super::fifo::open_to_write;
use super::files::{folder_of, replaceable};
use super::other_programs::AnotherWriter;
use super::stream::Stream;

/// True when another process holds the lock on `file`: another warsim writing it, a per-game
/// file or a state's lock file (`other_programs.rs`, `state::StateLock`). Replacing it would take its
/// name from under that warsim, which goes on writing rows no name leads to. If not, `file`
/// holds a shared lock until it is closed, which keeps any warsim from starting to write it.
/// `file` is open for reading: NFS makes a shared flock a read lock, which needs it.
pub fn held_by_another(file: &File) -> bool {
    matches!(file.try_lock_shared(), Err(fs::TryLockError::WouldBlock))
}

/// Writes a whole file at once: to standard output (whole or not at all where it is a file),
/// straight into a pipe or device, or for a file path into a temporary file beside it that then
/// replaces it, so that a reader never sees half a file and the old file survives a failure;
/// both are synced to the disk, the file before the rename and its folder after it. A symbolic
/// link stays a link: its target is replaced. A file another program wrote since the outputs
/// were checked is kept, and this one goes beside it, numbered ([`WrittenMeanwhile`]).
pub fn write_atomically(
    target: &Target,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let path = match target {
        Target::Stdout => return write_whole_to_stdout(write),
        Target::File(path) => path,
    };
    if !replaceable(path) {
        let mut out = BufWriter::new(open_to_write(path)?);
        write(&mut out)?;
        return out.flush();
    }
    let real = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.clone(),
        Err(e) => return Err(e),
    };
    // A new file gets the usual rw-r--r--; a replaced one keeps its permissions.
    let permissions = fs::metadata(&real)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| Permissions::from_mode(0o644));
    // Declared first, so dropped last: a second signal waits until the temporary file has
    // replaced the file or been removed.
    let _held = crate::interrupt::hold_exit();
    // Another warsim may have begun writing the file since the outputs were checked; if not,
    // the file keeps the lock `held_by_another` takes until it is replaced, so none begins to.
    let _replaced = match File::open(&real) {
        Ok(file) if held_by_another(&file) => {
            return Err(io::Error::new(io::ErrorKind::ResourceBusy, AnotherWriter));
        }
        replaced => replaced.ok(),
    };
    let noted = as_found::noted(path);
    let replace = || {
        let temporary = tempfile::Builder::new()
            .prefix(".warsim-")
            .suffix(".tmp")
            .permissions(permissions)
            .tempfile_in(folder_of(&real))?;
        let mut out = BufWriter::new(temporary);
        write(&mut out)?;
        let temporary = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        temporary.as_file().sync_all()?;
        slow_down_for_tests();
        let Some(noted) = noted else {
            return temporary.persist(&real).map(drop).map_err(|e| e.error);
        };
        // A file another program wrote since the outputs were checked is left as it is. One
        // that is as noted may still be replaced in the instant between this look and the
        // rename; a new one never is (the rename then refuses to replace anything).
        match Found::at(&real) {
            Some(Found::Nothing) => match temporary.persist_noclobber(&real) {
                Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
                    Err(keep_beside(e.file, beside_of(path, &real)))
                }
                persisted => persisted.map(drop).map_err(|e| e.error),
            },
            now if now == Some(noted) => temporary.persist(&real).map(drop).map_err(|e| e.error),
            _ => Err(keep_beside(temporary, beside_of(path, &real))),
        }
    };
    replace().map_err(without_temporary_name)?;
    sync_folder(folder_of(&real))?;
    as_found::note(path);
    Ok(())
}

/// Keeps `temporary` under the first free numbered name beside `path` (`summary.2.json`);
/// the error says where, or that no name was free.
fn keep_beside(mut temporary: NamedTempFile, path: &Path) -> io::Error {
    for name in as_found::numbered(path) {
        match temporary.persist_noclobber(&name) {
            Ok(_) => {
                let _ = sync_folder(folder_of(&name));
                return WrittenMeanwhile { beside: Some(name) }.error();
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => temporary = e.file,
            Err(e) => return e.error,
        }
    }
    WrittenMeanwhile { beside: None }.error()
}

/// The path a kept file is numbered from: the one given, in the folder the user named, unless
/// it is a symbolic link, whose target's folder (`real`) may be on another file system.
fn beside_of<'a>(path: &'a Path, real: &'a Path) -> &'a Path {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => real,
        _ => path,
    }
}

/// Writes a document to standard output whole or not at all, where that can be told: sent to a
/// file that fills (`--json - > summary.json` on a full disk), the file is cut back to where
/// the document began rather than left holding part of it, and synced once it is written. A
/// pipe keeps what it was sent.
fn write_whole_to_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut document = Vec::new();
    write(&mut document)?;
    let mut out = Stream::create(&Target::Stdout)?;
    if let (sent, Some(failure)) = out.write_until_failed(&document) {
        out.cut_back(sent as u64);
        return Err(failure);
    }
    out.persist()
}

/// The system's error alone: tempfile adds ` at path …`, the name of a temporary file, which is
/// not the one the user named and never held anything (its error type, which keeps the
/// system's apart, is private).
pub(super) fn without_temporary_name(error: io::Error) -> io::Error {
    let text = error.to_string();
    match text.split_once(" at path ") {
        Some((system, _)) => io::Error::new(error.kind(), system.to_string()),
        None => error,
    }
}

/// The signal tests' way to catch a file half replaced: `WARSIM_TEST_SLOW_REPLACE=MS` waits
/// that long with the temporary file written. Only in the build the tests drive.
fn slow_down_for_tests() {
    #[cfg(feature = "testing")]
    if let Some(ms) = std::env::var("WARSIM_TEST_SLOW_REPLACE")
        .ok()
        .and_then(|ms| ms.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Makes the names in `folder` durable: a renamed or new file survives a power cut only once
/// its folder is synced too (`fsync` of the folder), and a checkpoint is worth only as much as
/// the names it counts on. Where that cannot be done, the names are left to the file system, as
/// most programs leave them, rather than failing a write that succeeded: a folder that may be
/// written but not read (`-wx`) cannot be opened, and some file systems cannot sync a folder
/// (EINVAL, ENOSYS).
pub(super) fn sync_folder(folder: &Path) -> io::Result<()> {
    let unsyncable = |e: &io::Error| {
        use io::ErrorKind::{InvalidInput, PermissionDenied, Unsupported};
        matches!(e.kind(), InvalidInput | PermissionDenied | Unsupported)
    };
    match File::open(folder).and_then(|folder| folder.sync_all()) {
        Err(e) if unsyncable(&e) => Ok(()),
        synced => synced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_a_links_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&Target::File(link.clone()), |w| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let failed = write_atomically(&Target::File(real.clone()), |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(
            fs::read(&real).unwrap(),
            b"new",
            "a failed write keeps the old file"
        );
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file is left behind");
    }
}
