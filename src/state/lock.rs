//! One writer per state file. A run, sweep or resume with `--state PATH` holds an exclusive lock
//! on `PATH.lock` while it runs, so two warsims never write one state file and its per-game CSV
//! at once: a scheduler that starts a retry before the stopped attempt has ended, or the same
//! command started twice. The lock is the operating system's (`flock`, through
//! `std::fs::File::try_lock`): a process that dies, even by SIGKILL, lets go of it, so a lock
//! file left behind blocks nobody.
//!
//! The lock file is removed when the run ends if warsim created it (it says so inside; never a
//! file warsim did not create), also one a killed run left behind. Removing a lock file races
//! with a process that opened it just before: that one may then lock a file no longer in the
//! folder while a third creates a new one. So a process that gets the lock checks that the path
//! still names the file it locked, and tries again if not.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::export::{OutputError, Target, check_outputs, folder_of, held_by_another, replaceable};

/// What warsim writes in a lock file it creates, to know it as its own later.
const OURS: &str =
    "warsim: the lock of a state file while a run writes it; no use once no warsim runs\n";

/// A held lock on a state file, let go (and its file removed, if warsim created it) on drop.
#[derive(Debug)]
pub struct StateLock {
    /// The open lock file, its path, and whether warsim created it; `None` where the folder or
    /// file system allows no lock file (the run's own output checks then say what is wrong, as
    /// without a lock).
    held: Option<(File, PathBuf, bool)>,
}

/// What to do when another warsim holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenHeld {
    /// Fail at once (a new run or a resume would otherwise write over the other's files).
    Refuse,
    /// Wait until it is let go (`--continue`: a scheduler's retry whose stopped attempt is still
    /// writing its last checkpoint), calling `waiting` once first.
    Wait,
}

/// The lock file of the state file `state`: `PATH.lock`, in the state's folder named through
/// its canonical path, so that two names of one folder give one lock.
fn lock_path(state: &Path) -> PathBuf {
    let mut name = state.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    in_real_folder(state, &name)
}

/// `name` in the folder of `path`, the folder named through its canonical path (as given where
/// it has none), so that two names of one folder give one path.
fn in_real_folder(path: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let folder = folder_of(path);
    std::fs::canonicalize(folder)
        .unwrap_or_else(|_| folder.to_path_buf())
        .join(name)
}

impl StateLock {
    /// Takes the lock of the state file `state`. With [`WhenHeld::Refuse`] a lock another
    /// process holds is an error naming the lock file; with [`WhenHeld::Wait`] this waits for
    /// it, calling `waiting` once before it does.
    pub fn acquire(
        state: &Path,
        when_held: WhenHeld,
        waiting: impl FnOnce(),
    ) -> Result<StateLock, String> {
        // A state written into a pipe or a device (`--state /dev/stdout`) has no file to guard.
        if !replaceable(state) {
            return Ok(StateLock { held: None });
        }
        let path = lock_path(state);
        // Opened for writing, a FIFO would wait for a reader for ever, and a device read for
        // warsim's text might never end.
        if let Ok(found) = std::fs::metadata(&path)
            && !found.is_file()
        {
            return Err(format!(
                "its lock file {} is not a regular file: remove it",
                path.display()
            ));
        }
        let mut waiting = Some(waiting);
        loop {
            let Ok(file) = open(&path) else {
                return Ok(StateLock { held: None });
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) if when_held == WhenHeld::Wait => {
                    if let Some(say) = waiting.take() {
                        say();
                    }
                    if file.lock().is_err() {
                        return Ok(StateLock { held: None });
                    }
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(format!(
                        "another warsim is writing this state file (it holds {}): wait for it to end",
                        path.display()
                    ));
                }
                // A file system without locks: run as without one.
                Err(TryLockError::Error(_)) => return Ok(StateLock { held: None }),
            }
            if still_named(&file, &path) {
                let ours = says_ours(&path);
                return Ok(StateLock {
                    held: Some((file, path, ours)),
                });
            }
            // Its holder removed it as we waited: lock the file the path names now.
        }
    }
}

impl Drop for StateLock {
    fn drop(&mut self) {
        if let Some((file, path, ours)) = self.held.take() {
            // Removed while still locked: one that opened it meanwhile finds it gone once it
            // gets the lock, and tries again (`still_named`).
            if ours {
                let _ = std::fs::remove_file(&path);
            }
            drop(file);
        }
    }
}

/// Checks a run's, sweep's or enumeration's outputs before any is opened: none is the lock
/// file of its `--state` or the state of another warsim running now, then every check of
/// [`check_outputs`]. In that order: this warsim may hold its state's lock already (`--continue`
/// takes it first), which `check_outputs` would take for another writer's. `streamed` names the
/// flags of the per-game files, written in place.
pub fn check_outputs_beside_state(
    outputs: &[(&'static str, &Target)],
    streamed: &[&str],
) -> Result<(), OutputError> {
    check_apart_from_lock(outputs)?;
    check_not_a_state_in_use(outputs)?;
    check_outputs(outputs, streamed)
}

/// Refuses an output that is the lock file of the `--state` among `outputs` (`STATE.lock`,
/// however spelled): the run holds that file and removes it when it ends, so a summary written
/// there was lost, and a per-game file found it locked by the run itself.
fn check_apart_from_lock(outputs: &[(&'static str, &Target)]) -> Result<(), OutputError> {
    let state = outputs.iter().find_map(|&(flag, target)| match target {
        Target::File(path) if flag == "--state" && replaceable(path) => Some(path),
        _ => None,
    });
    let Some(state) = state else { return Ok(()) };
    let held = format!(
        "--state {}, which the run holds and then removes",
        state.display()
    );
    check_lock_free(outputs, state, &held)
}

/// Refuses an output that is the lock file of one of `states` (a merge's inputs): a run still
/// writing that state holds the file and removes it when it ends, output and all (merging a
/// checkpoint of a run still going is allowed).
pub fn check_apart_from_locks_of(
    outputs: &[(&'static str, &Target)],
    states: &[PathBuf],
) -> Result<(), OutputError> {
    check_not_a_state_in_use(outputs)?;
    states.iter().try_for_each(|state| {
        let held = format!(
            "{}, a state being merged, which a run writing that state holds and then removes",
            state.display()
        );
        check_lock_free(outputs, state, &held)
    })
}

/// Refuses an output (other than the command's own `--state`, whose lock it takes) that is the
/// state file of another warsim running now (its lock file held): each checkpoint of that run
/// would replace the output, and the output its checkpoint.
fn check_not_a_state_in_use(outputs: &[(&'static str, &Target)]) -> Result<(), OutputError> {
    for &(flag, target) in outputs {
        let Target::File(path) = target else { continue };
        if flag == "--state" || !replaceable(path) {
            continue;
        }
        let lock = lock_path(path);
        if File::open(&lock).is_ok_and(|file| held_by_another(&file)) {
            return Err(OutputError {
                flag,
                path: target.to_string(),
                reason: format!(
                    "is the state file another warsim is writing (it holds {}): wait for it to \
                     end, or give this output its own file",
                    lock.display()
                ),
            });
        }
    }
    Ok(())
}

/// Refuses an output that is `state`'s lock file, by name or by identity; `held` names the
/// state and who holds its lock.
fn check_lock_free(
    outputs: &[(&'static str, &Target)],
    state: &Path,
    held: &str,
) -> Result<(), OutputError> {
    let lock = lock_path(state);
    let identity = |path: &Path| std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
    let lock_identity = identity(&lock);
    for &(flag, target) in outputs {
        let Target::File(path) = target else { continue };
        let same = path
            .file_name()
            .is_some_and(|name| in_real_folder(path, name) == lock)
            || identity(path).is_some_and(|id| lock_identity == Some(id));
        if same {
            return Err(OutputError {
                flag,
                path: target.to_string(),
                reason: format!("is the lock file of {held}: give the output another path"),
            });
        }
    }
    Ok(())
}

/// Opens the lock file, creating it (with [`OURS`] inside) if missing.
fn open(path: &Path) -> io::Result<File> {
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(mut file) => match file.write_all(OURS.as_bytes()) {
            Ok(()) => Ok(file),
            Err(e) => {
                let _ = std::fs::remove_file(path);
                Err(e)
            }
        },
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            OpenOptions::new().write(true).open(path)
        }
        Err(e) => Err(e),
    }
}

/// Whether the lock file at `path` says it is warsim's ([`OURS`], nothing more), read no
/// further than that: a file of that name warsim did not create may be huge, or endless (a
/// link to a device).
fn says_ours(path: &Path) -> bool {
    let mut head = Vec::with_capacity(OURS.len() + 1);
    File::open(path)
        .and_then(|file| file.take(OURS.len() as u64 + 1).read_to_end(&mut head))
        .is_ok_and(|_| head == OURS.as_bytes())
}

/// Whether `path` still names the open `file` (not removed or replaced since it was opened).
fn still_named(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes the lock of `state`, which nothing should hold. Another test of this process may
    /// start a program just as the lock before was let go: the program's copy of the open lock
    /// file holds the lock until the program starts (a fork's copy of every descriptor, which
    /// the program's start closes). So a lock found held is tried again, for up to ten seconds.
    fn take(state: &Path) -> StateLock {
        let started = std::time::Instant::now();
        loop {
            match StateLock::acquire(state, WhenHeld::Refuse, || {}) {
                Ok(lock) => return lock,
                Err(held) if started.elapsed().as_secs() >= 10 => panic!("{held}"),
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
            }
        }
    }

    #[test]
    fn a_held_lock_refuses_a_second_and_is_removed_by_its_creator_only() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("run.state");
        let first = take(&state);
        let lock = dir.path().join("run.state.lock");
        assert!(lock.exists());
        let second = StateLock::acquire(&state, WhenHeld::Refuse, || {});
        assert!(second.unwrap_err().contains("another warsim"));
        drop(first);
        assert!(
            !lock.exists(),
            "the run that created the lock file removes it"
        );

        // One a killed run left behind is warsim's too.
        std::fs::write(&lock, OURS).unwrap();
        drop(take(&state));
        assert!(!lock.exists(), "a lock file a killed run left is removed");

        // A state written to a device has no lock (and makes no file beside it).
        assert!(
            StateLock::acquire(dir.path(), WhenHeld::Refuse, || {})
                .unwrap()
                .held
                .is_none()
        );

        // A file of that name that warsim did not create is locked but left alone.
        std::fs::write(&lock, "mine").unwrap();
        drop(take(&state));
        assert_eq!(std::fs::read_to_string(&lock).unwrap(), "mine");

        // Nor is a longer one that begins as warsim's.
        std::fs::write(&lock, format!("{OURS}mine")).unwrap();
        drop(take(&state));
        assert!(lock.exists());
    }

    /// A lock path that is not a regular file is refused, and left alone: opened, a FIFO waited
    /// for a reader for ever, and a link to `/dev/zero` was read until the memory ran out.
    #[test]
    fn a_lock_path_that_is_not_a_regular_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("run.state");
        let lock = dir.path().join("run.state.lock");
        std::os::unix::fs::symlink("/dev/zero", &lock).unwrap();
        let refusal = StateLock::acquire(&state, WhenHeld::Refuse, || {}).unwrap_err();
        assert!(
            refusal.ends_with("is not a regular file: remove it"),
            "{refusal}"
        );
        assert!(lock.is_symlink());
    }

    #[test]
    fn a_waiting_lock_is_taken_once_its_holder_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("run.state");
        let first = take(&state);
        let (said_in, said) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            StateLock::acquire(&state, WhenHeld::Wait, move || said_in.send(()).unwrap())
        });
        said.recv().unwrap();
        drop(first);
        let second = waiter.join().unwrap().unwrap();
        // The first removed its file as the second waited on it: the second locked the new one.
        assert!(second.held.is_some());
        assert!(dir.path().join("run.state.lock").exists());
    }
}
