//! Ending the Parquet file with its footer: at the end ([`GameParquet::close`]), and at each
//! checkpoint of a run's or sweep's named file ([`GameParquet::seal`]), before the state that
//! counts its games is written, so that one killed outright (SIGKILL, a lost node) leaves a
//! file that holds every game its last checkpoint counts, which `warsim resume` goes on with.
//!
//! A sealed file is then written on ([`GameParquet::go_on`]) as a resumed one is (`resume.rs`):
//! what follows its full row groups (the short group the checkpoint ended, the page indexes and
//! the footer) is saved beside it (`tail.rs`), the file cut back to its full row groups, which
//! a new writer lists again, and the games of the short group, still gathered, are written with
//! those that follow, so the row groups are those of an uninterrupted run. Each step leaves
//! what a resume needs, whenever the run is killed: the footer written, the file holds the
//! checkpoint's games and the tail the last checkpoint's (put back if the state is not written
//! yet); the state written, the last tail goes; the new tail saved, the file is cut.

use std::fs;
use std::io;

use parquet::file::metadata::KeyValue;

use super::resume::{Holding, read_groups};
use super::salvage::MAGIC;
use super::tail::{put_back_through, save_tail, tail_path};
use super::{GameParquet, PARQUET_SUMMARY_KEY, group, into_io, row_group};
use crate::export::other_programs::fd_path;
use crate::export::stream::Stream;

impl GameParquet {
    /// Writes the last row group and the footer, and syncs the file: it is complete, readable
    /// and on the disk. The footer's key-value metadata holds `summary` under the key
    /// [`PARQUET_SUMMARY_KEY`], so the file says which rules, seed and games made it. A file
    /// sealed at a checkpoint whose state could not be written stays as sealed: it holds
    /// every game, the batch having stopped there.
    pub fn close(&mut self, summary: String) -> io::Result<()> {
        if self.sealed.is_none() {
            if !self.rows.game.is_empty() {
                self.write_group().map_err(|e| self.fail(e, None))?;
            }
            self.write_footer(summary)?;
        }
        (self.writer, self.rescue) = (None, None); // The file and its lock let go of at once.
        // A second signal ends the process as the guard drops, before the closing message:
        // what the file kept is said here.
        if self.closing.is_some() && crate::interrupt::exit_asked() {
            let games = crate::export::text::counted(self.taken, "game");
            say!("warsim: the Parquet file is closed with its footer: it holds {games}");
        }
        self.closing = None;
        Ok(())
    }

    /// Ends the file at a checkpoint: the games gathered as a short last row group, then the
    /// footer, with `summary` (the run's or sweep's so far), synced. Only a named regular file
    /// is (one on standard output, a pipe or a device cannot be read back and gone on with).
    pub fn seal(&mut self, summary: String) -> io::Result<()> {
        if self.name.is_none() || self.rescue.is_none() || self.failed.is_some() {
            return Ok(());
        }
        // The groups being encoded are appended first: the cut comes after them.
        let short = (|| {
            while !self.encoding.is_empty() {
                self.append_oldest()?;
            }
            self.writer()?;
            let cut = self.appended_bytes.max(MAGIC.len() as u64);
            if !self.rows.game.is_empty() {
                // Encoded here and kept: they are written again with the games that follow.
                let writer = self.writer.as_mut().expect("made above");
                let (leads, rows, batches) = (&self.layout.leads, &self.rows, &self.batches);
                row_group(writer, |group| group::encode(group, leads, rows, batches))?;
            }
            Ok(cut)
        })();
        let cut = short.map_err(|e| self.fail(e, None))?;
        self.write_footer(summary)?;
        // Its stream with it, which gives back the room held past its end.
        self.writer = None;
        self.sealed = Some(cut);
        Ok(())
    }

    /// Writes on after the checkpoint that sealed the file ([`GameParquet::seal`]) was
    /// written (module doc). A failure leaves the file as sealed, holding every game taken.
    pub fn go_on(&mut self) -> io::Result<()> {
        let Some(cut) = self.sealed.take() else {
            return Ok(());
        };
        self.write_on_from(cut)
            .map_err(|error| self.failed_going_on(error))
    }

    fn write_on_from(&mut self, cut: u64) -> io::Result<()> {
        let (Some(name), Some(file)) = (self.name.clone(), &self.rescue) else {
            return Err(io::Error::other("a sealed file has a name"));
        };
        // Read back through the descriptor written, wherever the file stands now.
        let written = fd_path(file);
        // A sweep's cells number their games each from their part's start: its rows count.
        let games = match self.layout.leads.is_empty() {
            true => Holding::Games(self.next_game - self.taken..self.next_game),
            false => Holding::Rows(self.taken, self.layout.leads.clone()),
        };
        let held = read_groups(&written, &games).map_err(|why| {
            io::Error::other(format!(
                "its footer, just written, cannot be read back: it {why}"
            ))
        })?;
        let tail = tail_path(&name);
        // The state counts the sealed file: the tail of the file before goes.
        if self.saved_tail.take().is_some() {
            fs::remove_file(&tail).or_else(|e| match e.kind() {
                io::ErrorKind::NotFound => Ok(()),
                _ => Err(e),
            })?;
        }
        save_tail(file, cut, &tail).map_err(|e| {
            let why = format!("its tail could not be saved as {}: {e}", tail.display());
            io::Error::new(e.kind(), why)
        })?;
        (self.saved_tail, self.tail_holds) = (Some(name), self.taken);
        let mut stream = Stream::cut_back_to(file.try_clone()?, cut)?;
        stream.need_in_hand(self.room_wanted());
        self.out = Some(stream.passing_over(cut));
        let groups = held.metadata.row_groups();
        let full = match self.rows.game.is_empty() {
            true => groups,
            false => &groups[..groups.len() - 1],
        };
        let offsets = held.metadata.offset_index().map(Vec::as_slice);
        let (listed, _) = self.list_again((full, offsets), cut)?;
        match listed == self.appended {
            true => Ok(()),
            false => Err(io::Error::other(format!(
                "its full row groups were listed holding {listed} games, not {}",
                self.appended
            ))),
        }
    }

    /// Gives the writer up after `error` while going on from a checkpoint, the file put back
    /// as sealed if it was cut: it holds every game taken, with the checkpoint's footer.
    fn failed_going_on(&mut self, error: io::Error) -> io::Error {
        self.failed = Some((error.kind(), error.to_string()));
        // Dropped, it would flush what its buffer holds after the footer put back.
        std::mem::forget(self.writer.take());
        self.out = None;
        let whole = match (self.saved_tail.take(), &self.rescue) {
            (Some(name), Some(file)) => put_back_through(file, &name).is_ok(),
            // The tail was not saved: the file was not cut.
            _ => true,
        };
        self.salvaged = whole.then_some(self.taken);
        self.left_whole = whole;
        self.closing = None;
        error
    }

    /// Whether the file holds every game it was given, ended with its footer, though its
    /// writing failed: on after a checkpoint ([`GameParquet::go_on`]).
    pub fn left_whole(&self) -> bool {
        self.left_whole
    }

    /// Writes the footer after the row groups written, `summary` in its metadata, and syncs
    /// the file; a failure saves what it can (`salvage.rs`).
    fn write_footer(&mut self, summary: String) -> io::Result<()> {
        while !self.encoding.is_empty() {
            self.append_oldest().map_err(|e| self.fail(e, None))?;
        }
        if let Err(error) = self.writer() {
            return Err(self.fail(error, None));
        }
        let writer = self.writer.as_mut().expect("made above");
        // Its footer takes them from the writer before writing: kept here in case it fails.
        let groups = writer.flushed_row_groups().to_vec();
        writer.append_key_value_metadata(KeyValue::new(PARQUET_SUMMARY_KEY.to_string(), summary));
        // `finish` (the footer, then a flush through to the file) keeps a write error's own
        // kind; `into_inner` would turn it into text ("fail to get inner writer: …").
        // On the disk before the summaries that describe its rows (`finish` flushed it).
        let finished =
            (writer.finish().map_err(into_io)).and_then(|_| writer.inner_mut().persist());
        finished.map_err(|error| self.fail(error, Some(groups)))
    }
}
