//! A Parquet file and its disk. Once its first row group is in, the bytes a game has taken are
//! set against the room left for the games to come ([`RoomWatch`]). And a Parquet file whose
//! write failed (a full disk, a quota) is cut back to its whole row groups and given a footer
//! that lists them, so that the games it holds stay readable: what cutting a CSV back to its
//! last whole row is for a file whose footer comes last. The writer's state after an error is
//! unknown (its buffer may hold part of a row group, and a failed footer has taken its list of
//! row groups), so the footer is written here, through a descriptor of the file kept for this,
//! from the row groups the writer had flushed that the file holds in full.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;

use parquet::file::metadata::{
    FileMetaData, ParquetMetaDataBuilder, ParquetMetaDataWriter, RowGroupMetaData,
};

use super::group::Layout;
use super::{GameParquet, into_io};
use crate::export::room::RoomWatch;

impl GameParquet {
    /// Asks, once the file holds its first row groups (65,536 games or more), whether the disk
    /// has room for the rest of the rows it is to hold, at the bytes a game has taken so far.
    pub fn watch_room(&mut self, watch: RoomWatch) {
        self.room = Some(watch);
    }

    /// Counts a row group of `rows` games appended, and makes the projection
    /// [`GameParquet::watch_room`] asked for once there are enough (a pipe or a device has no
    /// disk to fill).
    pub(super) fn appended(&mut self, rows: usize) {
        self.appended += rows as u64;
        if let Some(bytes) = self.writer.as_ref().map(|w| w.bytes_written() as u64) {
            self.largest_group = self.largest_group.max(bytes - self.appended_bytes);
            self.appended_bytes = bytes;
            let wanted = self.room_wanted();
            let writer = self.writer.as_mut().expect("asked above");
            writer.inner_mut().need_in_hand(wanted);
            let in_hand = writer.inner().in_hand();
            RoomWatch::check_once(
                &mut self.room,
                (self.appended, bytes),
                || writer.inner().free_bytes(),
                in_hand,
            );
        }
    }

    /// The room kept in hand past the file's end: for the row groups in flight, at the most
    /// bytes one has taken, and for the footer (about 1 KiB a group, and the summary).
    pub(super) fn room_wanted(&self) -> u64 {
        let groups = super::groups_in_flight(self.encoders);
        let footer = (1 << 20) + (groups + self.appended / self.group_rows as u64) * 1024;
        groups * self.largest_group + footer
    }

    /// The games the file holds after a write error, cut back to its whole row groups; `None`
    /// where it could not be saved (a pipe, standard output, or the saving failed too).
    pub fn salvaged(&self) -> Option<u64> {
        self.salvaged
    }

    /// Gives the writer up after `error`, saving the row groups the file holds whole (those
    /// the writer had flushed, or `groups` where its failed footer took them); returns `error`.
    pub(super) fn fail(
        &mut self,
        error: io::Error,
        groups: Option<Vec<RowGroupMetaData>>,
    ) -> io::Error {
        if self.failed.is_some() {
            return error;
        }
        self.failed = Some((error.kind(), error.to_string()));
        let writer = self.writer.take();
        let groups = groups.unwrap_or_else(|| {
            (writer.as_ref()).map_or_else(Vec::new, |w| w.flushed_row_groups().to_vec())
        });
        // Dropped, it would flush what its buffer holds after the footer written here.
        std::mem::forget(writer);
        if let Some(file) = &mut self.rescue {
            self.salvaged = salvage(file, &groups, &self.layout).ok();
            // A resumed file that would keep fewer games than it held (the short row group it
            // was writing again not yet whole) gets back what it held instead.
            if let Some(path) = self
                .saved_tail
                .take_if(|_| self.salvaged < Some(self.tail_holds))
                && super::tail::put_back_through(file, &path).is_ok()
            {
                self.salvaged = Some(self.tail_holds);
            }
        }
        // A second signal waiting for the footer waits no longer.
        self.closing = None;
        error
    }
}

/// The four bytes a Parquet file starts and ends with.
pub(super) const MAGIC: &[u8; 4] = b"PAR1";

/// Cuts `file` back to the first of `groups` that it holds whole, writes a footer listing
/// them, and syncs it; returns the games they hold.
pub(super) fn salvage(
    file: &mut File,
    groups: &[RowGroupMetaData],
    layout: &Layout,
) -> io::Result<u64> {
    let held = file.metadata()?.len();
    // Row groups follow one another after the magic; a group's end is its last column's.
    let mut end = MAGIC.len() as u64;
    let mut whole = 0;
    for group in groups {
        let group_end = (group.columns().iter())
            .map(|column| column.byte_range())
            .map(|(start, length)| start + length)
            .max()
            .unwrap_or(end);
        if group_end > held {
            break;
        }
        (end, whole) = (group_end, whole + 1);
    }
    let groups = groups[..whole].to_vec();
    let games: i64 = groups.iter().map(RowGroupMetaData::num_rows).sum();
    file.set_len(end)?;
    // The writer may have failed before its magic reached the file.
    file.write_all_at(MAGIC, 0)?;
    file.seek(SeekFrom::Start(end))?;
    let properties = &layout.properties;
    let footer = FileMetaData::new(
        properties.writer_version().as_num(),
        games,
        Some(properties.created_by().to_string()),
        None,
        layout.schema.clone(),
        None,
    );
    let metadata = ParquetMetaDataBuilder::new(footer)
        .set_row_groups(groups)
        .build();
    let mut out = BufWriter::new(&*file);
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .map_err(into_io)?;
    out.flush()?;
    drop(out);
    file.sync_data()?;
    Ok(games as u64)
}
