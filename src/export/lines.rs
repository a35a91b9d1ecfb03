//! Text written a line at a time to standard output, as `warsim play`'s listings are: buffered,
//! but sent straight to the file (a [`Stream`]) so that it is known which lines reached it.
//! After a write error (a full disk) the output is cut back to its last whole line where it can
//! be (a regular file), and [`WholeLines::lines`] says how many it holds, so that a listing can
//! say where it ends and what is still to play, as it does when interrupted. The per-game CSV
//! writes its rows out the same way ([`write_lines`]), and a state keeps its last row
//! ([`last_row_of`]).

use std::fs::File;
use std::io::{self, Write};

use super::{Stream, Target};

/// Bytes gathered before they are written out, on the last whole line among them.
const BUFFER: usize = 64 << 10;

/// Standard output, written on whole lines.
pub struct WholeLines {
    out: Stream,
    buffer: Vec<u8>,
    /// Lines that reached the output whole.
    lines: u64,
    /// False once a write error left a partial line that could not be cut off (a pipe).
    ends_whole: bool,
    /// The kind of the error a write failed with, once one has: nothing more is written.
    failed: Option<io::ErrorKind>,
}

impl WholeLines {
    /// Standard output, from where it stands.
    pub fn stdout() -> io::Result<WholeLines> {
        Ok(WholeLines {
            out: Stream::create(&Target::Stdout)?,
            buffer: Vec::with_capacity(BUFFER),
            lines: 0,
            ends_whole: true,
            failed: None,
        })
    }

    /// The lines that reached the output whole (all of them when nothing failed).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Whether the output ends on a whole line: false only when a write error left part of a
    /// line in an output that cannot be cut back (a pipe, a device).
    pub fn ends_whole(&self) -> bool {
        self.ends_whole
    }

    /// Writes out the buffer's first `upto` bytes, counting the lines that reach the output.
    fn write_out(&mut self, upto: usize) -> io::Result<()> {
        if let Some(kind) = self.failed {
            return Err(io::Error::new(kind, "an earlier write failed"));
        }
        let (kept, failure) = write_lines(&mut self.out, &self.buffer[..upto]);
        self.lines += newlines(&self.buffer[..kept]);
        self.buffer.drain(..kept);
        match failure {
            None => Ok(()),
            Some((error, ends_whole)) => {
                self.ends_whole = ends_whole;
                self.failed = Some(error.kind());
                self.buffer.clear();
                Err(error)
            }
        }
    }
}

/// Writes `bytes`, lines of text, out to `out`; after a failure, cuts off the part of a line
/// written, where it can (a regular file). Returns the bytes written whole (all of them
/// without a failure; else up to the last whole line written), and the failure with whether
/// the output ends on a whole line (false where a cut line could not be cut off).
pub(super) fn write_lines(out: &mut Stream, bytes: &[u8]) -> (usize, Option<(io::Error, bool)>) {
    let (done, failure) = out.write_until_failed(bytes);
    let Some(failure) = failure else {
        return (done, None);
    };
    let whole = bytes[..done]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let partial = (done - whole) as u64;
    let ends_whole = partial == 0 || out.cut_back(partial);
    (whole, Some((failure, ends_whole)))
}

/// The lines ended in `bytes`.
pub(super) fn newlines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

impl Write for WholeLines {
    /// Takes all of `bytes`, writing out the whole lines gathered once there are enough.
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= BUFFER
            && let Some(last) = self.buffer.iter().rposition(|&b| b == b'\n')
        {
            self.write_out(last + 1)?;
        }
        Ok(bytes.len())
    }

    /// Writes out everything gathered, a line not yet ended too (a question awaiting its
    /// answer).
    fn flush(&mut self) -> io::Result<()> {
        self.write_out(self.buffer.len())
    }
}

/// The last row of `file`'s first `bytes` bytes, newline included (empty when `bytes` is 0):
/// what a state keeps of a per-game CSV to know it again.
pub fn last_row_of(file: &File, bytes: u64) -> io::Result<String> {
    use std::os::unix::fs::FileExt;
    if bytes == 0 {
        return Ok(String::new());
    }
    let start = bytes.saturating_sub(4096);
    let mut tail = vec![0; (bytes - start) as usize];
    file.read_exact_at(&mut tail, start)?;
    let body = &tail[..tail.len() - 1];
    let from = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Ok(String::from_utf8_lossy(&tail[from..]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_row_is_the_one_before_the_bytes_end() {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(b"game,seed\n0,7\n1,9\n2,4").unwrap();
        assert_eq!(last_row_of(&file, 0).unwrap(), "");
        assert_eq!(last_row_of(&file, 10).unwrap(), "game,seed\n");
        assert_eq!(last_row_of(&file, 14).unwrap(), "0,7\n");
        assert_eq!(last_row_of(&file, 18).unwrap(), "1,9\n");
        assert!(last_row_of(&file, 30).is_err(), "past its end");
    }
}
