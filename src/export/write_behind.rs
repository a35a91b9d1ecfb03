//! Write-behind for a per-game file: every [`STEP`] bytes written, the kernel is asked to start
//! writing the file's dirty pages to its disk (Linux's `sync_file_range` with
//! `SYNC_FILE_RANGE_WRITE`, which starts the writes and waits for none), as databases do for
//! their logs (RocksDB's `bytes_per_sync`, PostgreSQL's `wal_writer_flush_after`). A run makes
//! its per-game file durable (`fdatasync`) before its summaries count the rows; the kernel,
//! left alone, starts writing a file out only after some seconds or once much is dirty, so a
//! run of a few seconds found its whole file still in memory then and waited for the disk to
//! write all of it (0.1 s for 160 MB on this project's host, a tenth of the run). Now the disk
//! writes while the games play, and the end waits for the last few MiB. The same bytes reach
//! the disk, only sooner. A hint: where the file system ignores it (tmpfs) or refuses it, the
//! file is written as before.

use std::fs::File;
use std::os::fd::AsRawFd;

/// Bytes written between two requests: large enough that a request costs nothing beside the
/// writes, small enough that little is left for the end.
pub const STEP: u64 = 8 << 20;

/// How much was written since the last request to write the file out.
#[derive(Debug)]
pub struct WriteBehind {
    since: u64,
    on: bool,
}

impl WriteBehind {
    /// Nothing written yet.
    pub fn new() -> WriteBehind {
        WriteBehind { since: 0, on: true }
    }

    /// Notes `bytes` written to `file`, and asks for the file's dirty pages to be written out
    /// once [`STEP`] bytes have been since the last time. A refusal turns the requests off.
    pub fn wrote(&mut self, file: &File, bytes: u64) {
        self.since += bytes;
        if self.on && self.since >= STEP {
            self.since = 0;
            // Offset 0 and length 0: the whole file; pages already being written are skipped.
            // SAFETY: a plain system call on a descriptor the file owns.
            let asked = unsafe {
                libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE)
            };
            self.on = asked == 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The pages of `file` in memory that are dirty (written, not yet sent to the disk), by
    /// Linux's `cachestat` (6.5 and later); `None` without it.
    fn dirty_pages(file: &File) -> Option<u64> {
        #[repr(C)]
        struct Range {
            offset: u64,
            length: u64,
        }
        #[repr(C)]
        #[derive(Default)]
        struct Counts {
            cached: u64,
            dirty: u64,
            writeback: u64,
            evicted: u64,
            recently_evicted: u64,
        }
        let (whole, mut counts) = (
            Range {
                offset: 0,
                length: 0,
            },
            Counts::default(),
        );
        // 451 is `cachestat` on every architecture; the libc crate names it for only a few.
        // SAFETY: the kernel reads `whole` and writes `counts`, both laid out as it expects.
        let done = unsafe { libc::syscall(451, file.as_raw_fd(), &whole, &mut counts, 0) };
        (done == 0).then_some(counts.dirty)
    }

    /// Writes `3 × STEP` bytes to a new file, through a write-behind if `behind`; the file's
    /// dirty pages then.
    fn dirty_after_writing(dir: &std::path::Path, behind: bool) -> Option<u64> {
        let mut file = File::create(dir.join(format!("rows-{behind}.csv"))).unwrap();
        let mut write_behind = WriteBehind::new();
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..3 * STEP / chunk.len() as u64 {
            file.write_all(&chunk).unwrap();
            if behind {
                write_behind.wrote(&file, chunk.len() as u64);
            }
        }
        dirty_pages(&file)
    }

    #[test]
    fn a_file_on_a_disk_is_sent_to_it_as_it_grows() {
        let dir = tempfile::tempdir().unwrap();
        let pages = 3 * STEP / 4096;
        // Left alone, the kernel keeps such a file's pages dirty for seconds. Where it does not
        // (tmpfs keeps no dirty pages to write; a kernel without `cachestat`), nothing can be
        // told apart.
        match dirty_after_writing(dir.path(), false) {
            Some(dirty) if dirty >= pages / 2 => {}
            seen => {
                eprintln!("skipped: the file system or kernel shows no dirty pages ({seen:?})");
                return;
            }
        }
        let dirty = dirty_after_writing(dir.path(), true).unwrap();
        assert!(
            dirty < pages / 2,
            "{dirty} of {pages} pages not yet sent to the disk"
        );
    }
}
