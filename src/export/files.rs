//! Output files that never destroy data: every output is checked before any is opened (a
//! summary's replacing is `replace.rs`'s, the streamed per-game file `stream.rs`'s).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use super::Target;
use super::other_programs::AnotherWriter;
use super::replace::{held_by_another, without_temporary_name};

/// An output that cannot be written, found before anything was opened.
#[derive(Debug, thiserror::Error)]
#[error("{flag} {path}: {reason}")]
pub struct OutputError {
    /// The flag that named the output.
    pub flag: &'static str,
    /// The path as given.
    pub path: String,
    /// What is wrong and how to fix it.
    pub reason: String,
}

/// What an existing or future output file is, to tell two names of one file apart.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    /// Standard output.
    Stdout,
    /// An existing file or pipe: its device and inode.
    Inode(u64, u64),
    /// A file to be created: its folder's real path and its name.
    New(PathBuf),
    /// A character device such as /dev/null: may be named more than once.
    Device,
}

/// Checks every output before any is opened: its name does not promise another format
/// (`names.rs`), its folder exists and can be written, it is not a folder, it is not where
/// standard output or error already goes, and no two outputs are the same file (however they
/// are spelled). The outputs of the flags in `streamed` are written in place (the per-game
/// files); every other one replaces its file whole, so its folder must take a new file even
/// when the file exists. Nothing is created or changed.
pub fn check_outputs(
    outputs: &[(&'static str, &Target)],
    streamed: &[&str],
) -> Result<(), OutputError> {
    let mut seen: Vec<(&'static str, Identity)> = Vec::new();
    let streams = [
        (
            stream_identity(io::stdout().as_fd()),
            "standard output",
            "the report is written there too",
        ),
        (
            stream_identity(io::stderr().as_fd()),
            "standard error",
            "warsim's messages are written there too",
        ),
    ];
    for &(flag, target) in outputs {
        super::names::check_name(flag, target)?;
        let replaced = !streamed.contains(&flag);
        let identity = identify(flag, target, replaced)?;
        if let (true, Target::File(path)) = (replaced, target) {
            super::as_found::note(path);
        }
        // `/dev/stdout`, or the file standard output is sent to, opened a second time: what
        // warsim writes through the stream would overwrite the file's rows (a file) or cut
        // through them (a pipe).
        if let Some((_, stream, what)) =
            streams.iter().find(|(s, ..)| s.as_ref() == Some(&identity))
        {
            return Err(OutputError {
                flag,
                path: target.to_string(),
                reason: format!(
                    "is where {stream} goes, and {what}: give another path, or '-' for \
                     standard output (the report then goes to standard error)"
                ),
            });
        }
        if identity != Identity::Device
            && let Some((first, _)) = seen.iter().find(|(_, other)| *other == identity)
        {
            return Err(OutputError {
                flag,
                path: target.to_string(),
                reason: match identity {
                    Identity::Stdout => {
                        format!(
                            "{first} writes to standard output ('-') too: give one of them a file"
                        )
                    }
                    _ => format!("is the file {first} writes too: give each output its own path"),
                },
            });
        }
        seen.push((flag, identity));
    }
    Ok(())
}

/// Whether `file` is append-only (Linux's `chattr +a`): it can be written at its end, but not
/// emptied, cut back or replaced by a new file (a rename over it is refused). False where that
/// cannot be told.
#[cfg(target_os = "linux")]
fn append_only(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    /// `FS_APPEND_FL` of Linux's `<linux/fs.h>`, which the `libc` crate does not carry.
    const APPEND_ONLY: libc::c_int = 0x20;
    let mut flags: libc::c_int = 0;
    // SAFETY: FS_IOC_GETFLAGS writes one int to `flags`, which outlives the call.
    let done = unsafe { libc::ioctl(file.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags) };
    done == 0 && flags & APPEND_ONLY != 0
}

/// Elsewhere no file is taken for append-only: one is refused when it is replaced.
#[cfg(not(target_os = "linux"))]
fn append_only(_: &File) -> bool {
    false
}

/// Checks that no output is one of a command's inputs (`merge`'s states, or the list that
/// names them), each given with what it is: writing the output would replace the input, a
/// shard's state perhaps hours of play. Inputs are compared by device and inode, however they
/// are spelled; one that cannot be read is left for the reading to refuse.
pub fn check_apart_from_inputs<'a>(
    outputs: &[(&'static str, &Target)],
    inputs: impl IntoIterator<Item = (&'a Path, &'a str)>,
) -> Result<(), OutputError> {
    let existing = |path: &Path| {
        fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| (m.dev(), m.ino()))
    };
    let written: Vec<_> = outputs
        .iter()
        .filter_map(|&(flag, target)| match target {
            Target::File(path) => existing(path).map(|id| (flag, target, id)),
            Target::Stdout => None,
        })
        .collect();
    if written.is_empty() {
        return Ok(());
    }
    for (input, what) in inputs {
        let Some(id) = existing(input) else { continue };
        if let Some(&(flag, target, _)) = written.iter().find(|(.., out)| *out == id) {
            return Err(OutputError {
                flag,
                path: target.to_string(),
                reason: format!(
                    "is {}, {what}: writing there would replace it; give the output another path",
                    input.display()
                ),
            });
        }
    }
    Ok(())
}

/// The file or pipe a standard stream writes to, when it is one (not a terminal or another
/// device, which several writers may share).
fn stream_identity(stream: BorrowedFd<'_>) -> Option<Identity> {
    let meta = File::from(stream.try_clone_to_owned().ok()?)
        .metadata()
        .ok()?;
    let kind = meta.file_type();
    (kind.is_file() || kind.is_fifo()).then(|| Identity::Inode(meta.dev(), meta.ino()))
}

/// What `target` is, once checked to be an output `flag` can write; `replaced` when it is
/// written whole beside its file and renamed over it (`write_atomically`).
fn identify(flag: &'static str, target: &Target, replaced: bool) -> Result<Identity, OutputError> {
    let path = match target {
        Target::Stdout => return Ok(Identity::Stdout),
        Target::File(path) => path,
    };
    let failure = |reason: String| OutputError {
        flag,
        path: path.display().to_string(),
        reason,
    };
    if path.as_os_str().is_empty() {
        return Err(failure("is empty: give a file name".to_string()));
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(failure("is a folder: give a file name".to_string())),
        Ok(meta) if meta.file_type().is_char_device() => Ok(Identity::Device),
        Ok(meta) if meta.file_type().is_fifo() => Ok(Identity::Inode(meta.dev(), meta.ino())),
        Ok(meta) if meta.is_file() => {
            OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(|e| failure(format!("cannot be written ({e}): choose a writable path")))?;
            // Opened to read for the lock: NFS makes a shared flock a read lock, which a file
            // opened only to write cannot take.
            let opened = File::open(path);
            if opened.as_ref().is_ok_and(held_by_another) {
                return Err(failure(format!(
                    "{AnotherWriter}: wait for it to end, or give this output its own file"
                )));
            }
            // The new file is written beside the old one (a link's target) first: a folder that
            // takes none failed only then, after the whole batch.
            // Opened for appending above, it would be refused only when emptied (or cut back
            // to a checkpoint's rows), or after the whole batch when replaced.
            if opened.as_ref().is_ok_and(append_only) {
                return Err(failure(
                    "is append-only (chattr +a), and warsim replaces, empties or cuts back what \
                     it writes: remove the flag (chattr -a) or choose another path"
                        .to_string(),
                ));
            }
            if replaced {
                let real = fs::canonicalize(path).map_err(|e| failure(e.to_string()))?;
                takes_a_new_file(folder_of(&real)).map_err(|e| {
                    failure(format!(
                        "folder '{}' cannot be written ({e}), and the file is replaced by a \
                         new one written there: choose another path",
                        folder_of(&real).display()
                    ))
                })?;
            }
            Ok(Identity::Inode(meta.dev(), meta.ino()))
        }
        Ok(_) => Err(failure(
            "is not a regular file, a pipe or a character device: choose a file".to_string(),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if fs::symlink_metadata(path).is_ok() {
                return Err(failure(
                    "is a symbolic link to nothing: remove the link or choose another path"
                        .to_string(),
                ));
            }
            // `sub/` or `sub/.` names a folder even before it exists: taken for a file `sub`, it
            // passed here and failed only when written, after the whole batch.
            if names_a_folder(path) {
                return Err(failure(
                    "names a folder, not a file: give a file name".to_string(),
                ));
            }
            let folder = folder_of(path);
            if !folder.is_dir() {
                return Err(failure(format!(
                    "folder '{}' does not exist: create it or choose another path",
                    folder.display()
                )));
            }
            takes_a_new_file(folder).map_err(|e| {
                failure(format!(
                    "folder '{}' cannot be written ({e}): choose another path",
                    folder.display(),
                ))
            })?;
            let real = fs::canonicalize(folder).map_err(|e| failure(e.to_string()))?;
            let name = path
                .file_name()
                .ok_or_else(|| failure("is a folder: give a file name".to_string()))?;
            Ok(Identity::New(real.join(name)))
        }
        Err(e) => Err(failure(format!(
            "cannot be used ({e}): choose another path"
        ))),
    }
}

/// Checks that a file can be created in `folder`: creating (and at once removing) one of our
/// own is the only sure test (permissions, ACLs, a read-only or immutable folder, quotas).
fn takes_a_new_file(folder: &Path) -> io::Result<()> {
    let _held = crate::interrupt::hold_exit();
    tempfile::Builder::new()
        .prefix(".warsim-check-")
        .tempfile_in(folder)
        .map(drop)
        .map_err(without_temporary_name)
}

/// True for a path that can only name a folder, whatever exists: it ends in `/`, `/.` or `..`.
/// `Path` forgets a trailing `/` or `.` (`sub/.` has the file name `sub`), so the bytes decide.
fn names_a_folder(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    bytes.ends_with(b"/") || bytes.ends_with(b"/.") || path.file_name().is_none()
}

/// True for a path warsim writes by replacing the file: a regular file, or nothing yet. A pipe
/// or a device is written into as it is: it has no file to replace, lock or checkpoint.
pub fn replaceable(path: &Path) -> bool {
    fs::metadata(path).map_or(true, |m| m.is_file())
}

/// The folder a file path lies in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_two_names_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("x");
        let dotted = dir.path().join(".").join("x");
        let outputs = |a: &Path, b: &Path| {
            let (a, b) = (Target::File(a.into()), Target::File(b.into()));
            check_outputs(&[("--csv", &a), ("--json", &b)], &[]).map_err(|e| e.to_string())
        };
        let error = outputs(&plain, &dotted).unwrap_err();
        assert!(error.contains("is the file --csv writes too"), "{error}");
        fs::write(&plain, "data").unwrap();
        assert!(
            outputs(&plain, &dotted).is_err(),
            "existing file, two names"
        );
        assert!(outputs(&plain, &dir.path().join("y")).is_ok());
        let null = Path::new("/dev/null");
        assert!(outputs(null, null).is_ok(), "a device may be named twice");
        assert_eq!(fs::read(&plain).unwrap(), b"data", "checks change nothing");
    }

    #[test]
    fn an_append_only_output_is_refused_before_the_batch() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("output");
        fs::write(&path, "{}").unwrap();
        let chattr = |flag| {
            std::process::Command::new("chattr")
                .arg(flag)
                .arg(&path)
                .status()
        };
        // Setting the flag needs root (CI runs as root) and a file system that keeps it.
        if !chattr("+a").is_ok_and(|done| done.success()) {
            eprintln!("skipped: chattr +a needs root and a file system that keeps the flag");
            return;
        }
        let target = Target::File(path.clone());
        let replaced = check_outputs(&[("--json", &target)], &[]).map_err(|e| e.to_string());
        let streamed = check_outputs(&[("--csv", &target)], &["--csv"]).map_err(|e| e.to_string());
        chattr("-a").unwrap();
        let said = "is append-only (chattr +a), and warsim replaces, empties or cuts back";
        let (replaced, streamed) = (replaced.unwrap_err(), streamed.unwrap_err());
        assert!(replaced.contains(said), "{replaced}");
        assert!(streamed.contains(said), "{streamed}");
        assert!(
            check_outputs(&[("--json", &target)], &[]).is_ok(),
            "the flag taken off"
        );
    }

    #[test]
    fn a_path_naming_a_folder_that_does_not_exist_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["sub/", "sub//", "sub/.", "sub/..", "a/sub/"] {
            let target = Target::File(dir.path().join(name));
            let error = check_outputs(&[("--summary", &target)], &[]).unwrap_err();
            assert!(
                error.reason.starts_with("names a folder"),
                "{name}: {error}"
            );
        }
        for name in ["sub", "sub.csv", ".hidden", "x..", "x.", "..x"] {
            let target = Target::File(dir.path().join(name));
            assert!(
                check_outputs(&[("--summary", &target)], &[]).is_ok(),
                "{name}"
            );
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing made");
    }
}
