//! What each file warsim replaces whole (a summary, histogram, plot or state) was when the
//! outputs were checked, before the batch, so that one another program wrote meanwhile is
//! left as it is. Two tasks of an array given one `--json`, or a run started twice, each write
//! that one name once their games are played, and the last to end would replace the others'
//! summaries. The first to end keeps the name; each later one writes its file beside it under a
//! free numbered name (`summary.2.json`), says where, and fails.
//!
//! The record is the process's own (the outputs are checked in one place and written in
//! others, layers apart); a file warsim never checked is replaced as before.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a path held: nothing, or a regular file, told apart from any other by its inode and
/// from itself rewritten by its length and time of change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// No file.
    Nothing,
    /// A regular file (a link's target).
    File {
        device: u64,
        inode: u64,
        len: u64,
        modified: (i64, i64),
    },
}

impl Found {
    /// What `path` holds now; `None` for a pipe, a device or a folder (written in place, or
    /// refused), or where the system does not say.
    pub(super) fn at(path: &Path) -> Option<Found> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_file() => Some(Found::File {
                device: meta.dev(),
                inode: meta.ino(),
                len: meta.len(),
                modified: (meta.mtime(), meta.mtime_nsec()),
            }),
            Ok(_) => None,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Found::Nothing),
            Err(_) => None,
        }
    }
}

/// Each replaced output's path, as given, and what it held when noted.
static NOTED: Mutex<Vec<(PathBuf, Found)>> = Mutex::new(Vec::new());

/// Notes what `path` holds now: when its outputs are checked, and after warsim replaced it (a
/// state, written at every checkpoint, is then its own).
pub(super) fn note(path: &Path) {
    let Some(found) = Found::at(path) else { return };
    let mut noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
    match noted.iter_mut().find(|(p, _)| p == path) {
        Some((_, was)) => *was = found,
        None => noted.push((path.to_path_buf(), found)),
    }
}

/// What `path` held when last noted; `None` if it never was.
pub(super) fn noted(path: &Path) -> Option<Found> {
    let noted = NOTED.lock().unwrap_or_else(|e| e.into_inner());
    noted
        .iter()
        .find(|(p, _)| p == path)
        .map(|&(_, found)| found)
}

/// The names tried, in order, for a file kept beside `path`: `summary.json` gives
/// `summary.2.json`, `summary.3.json`, … (`summary.2` without an extension), so that the
/// format stays in the name.
pub(super) fn numbered(path: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    (2..=MOST_NUMBERED).map(move |n| {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        let name = match path.extension() {
            Some(extension) => format!("{stem}.{n}.{}", extension.to_string_lossy()),
            None => format!("{stem}.{n}"),
        };
        path.with_file_name(name)
    })
}

/// The highest number tried for a file kept beside another's.
const MOST_NUMBERED: u32 = 999;

/// Why an output was not replaced: another program wrote its file after the outputs were
/// checked. What warsim wrote went beside it (`beside`), unless every numbered name was taken.
#[derive(Debug, thiserror::Error)]
#[error(
    "another program wrote it while warsim ran, so it is left as it was; {}",
    match .beside {
        Some(beside) => format!("this run's is in {} instead", beside.display()),
        None => format!("no name beside it was free (.2 to .{MOST_NUMBERED}): this run's was not kept"),
    }
)]
pub struct WrittenMeanwhile {
    /// Where warsim's file went instead.
    pub beside: Option<PathBuf>,
}

impl WrittenMeanwhile {
    /// The error, as an I/O error.
    pub fn error(self) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::AlreadyExists, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_keep_the_extension_last() {
        let names: Vec<_> = numbered(Path::new("out/summary.json")).take(2).collect();
        assert_eq!(
            names,
            [
                PathBuf::from("out/summary.2.json"),
                PathBuf::from("out/summary.3.json")
            ]
        );
        let bare = numbered(Path::new("summary")).next();
        assert_eq!(bare, Some(PathBuf::from("summary.2")));
        assert_eq!(numbered(Path::new("s.csv")).count(), 998);
    }

    #[test]
    fn a_file_rewritten_in_place_is_not_what_was_noted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.json");
        assert_eq!(noted(&path), None);
        note(&path);
        assert_eq!(noted(&path), Some(Found::Nothing));
        fs::write(&path, "theirs").unwrap();
        note(&path);
        let first = noted(&path);
        assert!(matches!(first, Some(Found::File { len: 6, .. })));
        // Same inode, same length, written again: its time of change tells it apart.
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(&path, "THEIRS").unwrap();
        assert_ne!(Found::at(&path), first);
    }
}
