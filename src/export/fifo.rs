//! Opening an output that already exists, to write it, where it may be a named pipe (`mkfifo`)
//! that no program reads yet. open(2) would wait in the kernel until one does, and a stopping
//! signal could not end that wait: its handler is installed with `SA_RESTART`, so the open goes
//! on after the handler has raised the flag that nothing polls meanwhile (Ctrl-C, or GNU
//! `timeout`'s SIGTERM, did nothing; only a second signal ended the process). So a pipe is
//! opened without blocking, tried again until a reader comes, and given up on a stop.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

/// How often a pipe without a reader is tried again.
const RETRY: Duration = Duration::from_millis(20);
/// How long the wait lasts before warsim says what it waits for: a reader started with warsim
/// (`cat pipe &`) comes sooner.
const SAY_AFTER: Duration = Duration::from_secs(1);

/// Why a named pipe was not opened: a stopping signal came while no program read it. The
/// process then exits with the signal's status, as after any stop.
#[derive(Debug, thiserror::Error)]
#[error("stopped by a signal while waiting for a program to open this named pipe to read it")]
pub struct StoppedWaiting {
    /// The exit status the signal asks for (128 + its number).
    pub status: u8,
}

impl StoppedWaiting {
    /// The exit status when `error` is this one.
    pub fn status_of(error: &io::Error) -> Option<u8> {
        let inner = error.get_ref()?.downcast_ref::<StoppedWaiting>()?;
        Some(inner.status)
    }
}

/// Opens the existing `path` to write, as `OpenOptions::new().write(true).open(path)` does, but
/// a named pipe without a reader is waited for in steps: warsim says after a second that it
/// waits, and a stopping signal ends the wait with an error saying so.
pub fn open_to_write(path: &Path) -> io::Result<File> {
    let is_pipe = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
    if !is_pipe {
        return OpenOptions::new().write(true).open(path);
    }
    let began = Instant::now();
    let mut said = false;
    loop {
        // Without a reader, a pipe opened to write without blocking fails with ENXIO.
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => return blocking(file),
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {}
            Err(e) => return Err(e),
        }
        if let Some(status) = crate::interrupt::stop_status() {
            return Err(io::Error::other(StoppedWaiting { status }));
        }
        if !said && began.elapsed() >= SAY_AFTER {
            said = true;
            say!(
                "warsim: waiting for a program to read the named pipe {} (e.g. `cat {}`)",
                path.display(),
                path.display()
            );
        }
        std::thread::sleep(RETRY);
    }
}

/// `file`, opened without blocking, made to block again: its writes wait for the reader.
fn blocking(file: File) -> io::Result<File> {
    let fd = file.as_raw_fd();
    // SAFETY: plain system calls on a descriptor `file` keeps open for both calls.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags == -1 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn mkfifo(path: &Path) {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid C string; mkfifo(3) only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn a_pipe_is_opened_once_a_reader_comes_and_then_blocks_as_usual() {
        let dir = tempfile::TempDir::new().unwrap();
        let pipe = dir.path().join("pipe");
        mkfifo(&pipe);
        let reader_path = pipe.clone();
        let reader = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            let mut text = String::new();
            File::open(reader_path)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        });
        let mut file = open_to_write(&pipe).unwrap();
        // SAFETY: F_GETFL on a descriptor `file` keeps open.
        let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_NONBLOCK, 0);
        file.write_all(b"whole\n").unwrap();
        drop(file);
        assert_eq!(reader.join().unwrap(), "whole\n");
    }

    #[test]
    fn other_files_open_as_they_are() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("plain");
        std::fs::write(&path, "kept").unwrap();
        let mut file = open_to_write(&path).unwrap();
        file.write_all(b"K").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "Kept");
        assert!(open_to_write(&dir.path().join("absent")).is_err());
    }
}
