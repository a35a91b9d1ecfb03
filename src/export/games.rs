//! The per-game outputs of a run or a sweep together: the CSV and the Parquet file, fed the same
//! records in game order. A game counts as written once every one of them has it, and a write
//! error leaves both holding the same games: the CSV its whole rows, the Parquet file those
//! same games (or, when the Parquet file itself failed, the first of them: its whole row
//! groups, where it could be cut back to them).

use std::io;
use std::path::PathBuf;

use crate::batch::{BatchSpec, RecordSink, RowFormatter};
use crate::engine::GameRecord;

use super::{GameCsv, GameParquet, RoomShort, RoomWatch, Target};

/// The per-game CSV and Parquet file, either or both.
#[derive(Default)]
pub struct GameFiles {
    /// `--csv` (`run`) or `--games-csv` (`sweep`).
    pub csv: Option<GameCsv>,
    /// `--parquet`.
    pub parquet: Option<GameParquet>,
    /// Which of them stopped the batch, once one has: it failed, or its disk is nearly full.
    stopper: Option<Which>,
    /// Which of them failed, once one has.
    failed: Option<Which>,
}

/// One of the per-game outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The CSV.
    Csv,
    /// The Parquet file.
    Parquet,
}

impl GameFiles {
    /// The outputs given. A second signal waits for the Parquet file's footer only when the
    /// CSV beside it is a regular file too: the run must wind down to write it, and a pipe's
    /// reader could stall that for ever.
    pub fn new(csv: Option<GameCsv>, mut parquet: Option<GameParquet>) -> GameFiles {
        if let (Some(csv), Some(parquet)) = (&csv, &mut parquet)
            && !csv.is_regular_file()
        {
            parquet.let_exit_cut();
        }
        GameFiles {
            csv,
            parquet,
            stopper: None,
            failed: None,
        }
    }

    /// Asks whether the disk of `which` output, if it was asked for, has room for the rows it
    /// is to hold: the CSV's once it holds 65,536 rows, the Parquet file's once its first row
    /// group is in.
    pub fn watch_room(&mut self, which: Which, watch: RoomWatch) {
        match (which, &mut self.csv, &mut self.parquet) {
            (Which::Csv, Some(csv), _) => csv.watch_room(watch),
            (Which::Parquet, _, Some(parquet)) => parquet.watch_room(watch),
            _ => {}
        }
    }

    /// The games a Parquet file whose write failed still holds, cut back to its whole row
    /// groups with a footer that lists them; `None` where it could not be saved, or did not
    /// fail.
    pub fn parquet_salvaged(&self) -> Option<u64> {
        self.parquet.as_ref().and_then(GameParquet::salvaged)
    }

    /// Whether a Parquet file whose write failed holds every game it was given all the same
    /// ([`GameParquet::left_whole`]).
    pub fn parquet_left_whole(&self) -> bool {
        self.parquet.as_ref().is_some_and(GameParquet::left_whole)
    }

    /// True when neither output was asked for.
    pub fn is_empty(&self) -> bool {
        self.csv.is_none() && self.parquet.is_none()
    }

    /// The output that stopped the batch, if one did: its write failed, or its disk is nearly
    /// full ([`RoomShort`](super::RoomShort)).
    pub fn stopper(&self) -> Option<Which> {
        self.stopper
    }

    /// Starts another batch (a sweep's next cell), its rows led by `values`.
    pub fn start_batch(&mut self, values: &[String]) {
        if let Some(csv) = &mut self.csv {
            csv.start_batch(values);
        }
        if let Some(parquet) = &mut self.parquet {
            parquet.start_batch(values);
        }
    }

    /// Ends the Parquet file with its footer, `summary()` in its metadata (the CSV is complete
    /// as it goes), whatever else failed, unless writing the Parquet file itself failed. The
    /// summary is made only when there is a Parquet file to carry it.
    pub fn close(&mut self, summary: impl FnOnce() -> String) -> Result<(), (Which, io::Error)> {
        match &mut self.parquet {
            Some(parquet) if self.failed != Some(Which::Parquet) => {
                // The CSV's room, which the Parquet file's last row group and footer may need
                // (its own room is taken with its first row group: the CSV's watch may have
                // stopped the batch before).
                if let Some(csv) = &mut self.csv {
                    csv.give_back_room();
                }
                parquet.close(summary()).map_err(|e| (Which::Parquet, e))
            }
            _ => Ok(()),
        }
    }

    /// Removes the outputs this run created, if the batch could not start.
    pub fn discard_if_empty(self) {
        if let Some(csv) = self.csv {
            csv.discard_if_empty();
        }
        if let Some(parquet) = self.parquet {
            parquet.discard_if_empty();
        }
    }

    fn note<T>(&mut self, which: Which, result: io::Result<T>) -> io::Result<T> {
        if let Err(error) = &result
            && self.stopper.is_none()
        {
            self.stopper = Some(which);
            // A disk nearly full stops the batch with the file whole: it is closed as usual.
            if !RoomShort::is(error) {
                self.failed = Some(which);
            }
        }
        result
    }

    /// Where the per-game CSV, opened as `given`, ends, as a state records it to resume: its
    /// bytes written whole and their last row, read from the file warsim wrote, wherever it
    /// stands now (another program may have moved it, or put another file under its name), and
    /// where that is if it moved. Nothing without a CSV, or for one removed while written: its
    /// rows are gone, and a state counting games but no rows is refused by `warsim resume`.
    pub fn csv_end(&self, given: &Option<Target>) -> CsvEnd {
        match &self.csv {
            Some(csv) if !csv.removed() => CsvEnd {
                bytes: csv.position(),
                // A last row that cannot be read is left empty: `warsim resume` then refuses
                // the file as not holding the rows counted, rather than continue it unchecked.
                last_row: csv.last_row().unwrap_or_default(),
                moved_to: match given {
                    Some(Target::File(path)) => csv.moved_to(path),
                    _ => None,
                },
            },
            _ => CsvEnd::default(),
        }
    }
}

/// Where a per-game CSV ends ([`GameFiles::csv_end`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsvEnd {
    /// Bytes written whole: 0 for none, or for a file removed while written.
    pub bytes: u64,
    /// The last row among them, newline included.
    pub last_row: String,
    /// Where the file stands now, if another program moved it while written.
    pub moved_to: Option<PathBuf>,
}

impl CsvEnd {
    /// The CSV's name, `given`, if another program moved the file away from it while written.
    pub fn moved_from<'a>(&self, given: &'a Option<Target>) -> Option<&'a Target> {
        given.as_ref().filter(|_| self.moved_to.is_some())
    }
}

impl RecordSink for GameFiles {
    fn write_games(
        &mut self,
        spec: &BatchSpec,
        first: u64,
        records: &[GameRecord],
        rows: Option<&[u8]>,
    ) -> io::Result<()> {
        // Either file's disk nearly full, or either file removed, stops both before the range:
        // neither holds a game the other has not.
        let csv_stop = self.csv.as_mut().and_then(GameCsv::stop_reason);
        if let Some(stop) = csv_stop {
            return self.note(Which::Csv, Err(stop));
        }
        let parquet_stop = self.parquet.as_mut().and_then(GameParquet::stop_reason);
        if let Some(stop) = parquet_stop {
            return self.note(Which::Parquet, Err(stop));
        }
        if let Some(csv) = &mut self.csv {
            let before = csv.committed();
            let mut written = csv.write_games(spec, first, records, rows);
            // With a Parquet file beside it, the CSV writes out every range it is given, so
            // the Parquet file never holds a game the CSV has not written (one more write a
            // range, of a range's many rows).
            if written.is_ok() && self.parquet.is_some() {
                written = csv.finish();
            }
            if written.is_err()
                && let Some(parquet) = &mut self.parquet
            {
                // The rows the CSV kept whole of this range go to the Parquet file too.
                let kept = (csv.committed() - before) as usize;
                let kept = &records[..kept.min(records.len())];
                let _ = parquet.write_games(spec, first, kept, None);
            }
            self.note(Which::Csv, written)?;
        }
        if let Some(parquet) = &mut self.parquet {
            let written = parquet.write_games(spec, first, records, None);
            self.note(Which::Parquet, written)?;
        }
        Ok(())
    }

    /// The CSV's: the Parquet file takes the records.
    fn row_formatter(&self) -> Option<RowFormatter> {
        self.csv.as_ref().and_then(RecordSink::row_formatter)
    }

    fn committed(&self) -> u64 {
        let csv = self.csv.as_ref().map(RecordSink::committed);
        let parquet = self.parquet.as_ref().map(RecordSink::committed);
        match (csv, self.failed) {
            // A Parquet file that failed kept its whole row groups: the CSV's rows are the games.
            (Some(csv), Some(Which::Parquet)) => csv,
            _ => csv.into_iter().chain(parquet).min().unwrap_or(0),
        }
    }

    fn position(&self) -> u64 {
        self.csv.as_ref().map_or(0, RecordSink::position)
    }

    fn last_row(&self) -> io::Result<String> {
        self.csv
            .as_ref()
            .map_or(Ok(String::new()), RecordSink::last_row)
    }

    /// The CSV's rows (a state counts them to resume; the Parquet file is synced as it is
    /// ended, [`RecordSink::seal`]). Either file removed or cut short while written
    /// ([`Lost`](super::Lost)) fails it: a checkpoint or the run's end must not count rows that
    /// are gone. Looked for once the CSV is synced.
    fn persist(&mut self) -> io::Result<()> {
        if let Some(csv) = &mut self.csv {
            let persisted = csv.persist();
            self.note(Which::Csv, persisted)?;
        }
        if let Some(lost) = self.csv.as_ref().and_then(GameCsv::lost) {
            return self.note(Which::Csv, Err(lost.error()));
        }
        if let Some(lost) = self.parquet.as_ref().and_then(GameParquet::lost) {
            return self.note(Which::Parquet, Err(lost.error()));
        }
        Ok(())
    }

    /// The Parquet file's footer written and synced (the CSV is readable as it goes).
    fn seal(&mut self, footer: String) -> io::Result<()> {
        match &mut self.parquet {
            Some(parquet) => {
                let sealed = parquet.seal(footer);
                self.note(Which::Parquet, sealed)
            }
            None => Ok(()),
        }
    }

    fn go_on(&mut self) -> io::Result<()> {
        match &mut self.parquet {
            Some(parquet) => {
                let going = parquet.go_on();
                self.note(Which::Parquet, going)
            }
            None => Ok(()),
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        if let Some(csv) = &mut self.csv {
            let finished = csv.finish();
            self.note(Which::Csv, finished)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Lost, Stream, Target};
    use super::*;

    #[test]
    fn a_file_removed_after_its_last_rows_fails_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let stream = Stream::create(&Target::File(path.clone())).unwrap();
        let mut files = GameFiles::new(Some(GameCsv::new(stream)), None);
        files.persist().unwrap();
        std::fs::remove_file(&path).unwrap();
        let error = files.persist().unwrap_err();
        assert!(Lost::is(&error), "{error}");
        assert_eq!(files.stopper(), Some(Which::Csv));
    }
}
