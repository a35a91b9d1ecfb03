//! Going on with the Parquet file of a stopped run or sweep (`warsim resume`). Its footer is read
//! and checked against the state's games; its row groups stay where they are, listed again by the
//! writer that plays on, which copies them through (`append_column`, as for the groups encoded on
//! threads) into a stream that passes over the bytes the file holds already: they are not read, nor
//! copied on the disk, and the file stays one table. A short last row group (where the run stopped)
//! is read back instead (`last_group.rs`) and written again with the games that follow, so the row
//! groups are those of an uninterrupted run. Its tail is saved first (`tail.rs`), so a resume
//! killed outright loses nothing.

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;

use bytes::Bytes;
use parquet::basic::Type as PhysicalType;
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::{
    PageIndexPolicy, ParquetMetaData, ParquetMetaDataReader, RowGroupMetaData,
};
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::statistics::Statistics;
use parquet::schema::types::ColumnDescPtr;

use super::group::schema;
use super::tail::{SavedTail, remove_tail, save_tail, tail_path};
use super::{GameParquet, LeadKind, ROW_GROUP, into_io, last_group};
use crate::export::stream::Stream;
use crate::export::text::counted;

/// Reads the footer of the Parquet file at `path` and checks that it holds exactly the games
/// `games` (a run's range, or a sweep's count, [`Holding`]), in the columns and row groups
/// warsim writes. A tail a killed run saved is put back first (or removed, where the file
/// already holds the games: the run was killed after its state was written).
pub fn check_resumable(path: &Path, games: impl Into<Holding>) -> Result<HeldGroups, NotResumable> {
    let games = games.into();
    let not = |why| NotResumable {
        why,
        footer_put_back: false,
        tail_in_the_way: false,
    };
    let tail = tail_path(path);
    let saved = SavedTail::read(&tail).map_err(|e| NotResumable {
        why: format!("has a saved tail, {}: {e}", tail.display()),
        footer_put_back: false,
        tail_in_the_way: true,
    })?;
    let Some(saved) = saved else {
        return read_groups(path, &games).map_err(not);
    };
    if let Ok(held) = read_groups(path, &games) {
        remove_tail(&tail).map_err(not)?;
        return Ok(held);
    }
    saved.put_back(path).map_err(|e| {
        not(format!(
            "cannot get its footer back from {} (a resume was killed): {e}",
            tail.display()
        ))
    })?;
    // Readable again, whatever follows.
    let put_back = |why| NotResumable {
        why,
        footer_put_back: true,
        tail_in_the_way: false,
    };
    let mut held = read_groups(path, &games).map_err(put_back)?;
    remove_tail(&tail).map_err(put_back)?;
    held.put_back = true;
    Ok(held)
}

/// What a stopped run's or sweep's Parquet file must hold to be gone on with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holding {
    /// A run's games, by number.
    Games(Range<u64>),
    /// A sweep's rows, this many: its cells' games one after the other, each cell's numbered
    /// from its part's start again, led by the columns of its cells' settings.
    Rows(u64, Vec<(String, LeadKind)>),
}

impl From<Range<u64>> for Holding {
    fn from(games: Range<u64>) -> Holding {
        Holding::Games(games)
    }
}

impl Holding {
    /// The rows the file must hold.
    pub fn rows(&self) -> u64 {
        match self {
            Holding::Games(games) => games.end - games.start,
            Holding::Rows(rows, _) => *rows,
        }
    }

    /// The columns before the game's own: a sweep's cells' settings.
    fn leads(&self) -> &[(String, LeadKind)] {
        match self {
            Holding::Games(_) => &[],
            Holding::Rows(_, leads) => leads,
        }
    }
}

/// Why a Parquet file cannot be continued ([`check_resumable`]): `why` says it of the file
/// ("holds 1,000 games, and …"); `footer_put_back` tells that its footer, lost to a killed
/// resume, was put back all the same, so the file is readable again.
#[derive(Debug)]
pub struct NotResumable {
    /// What is wrong with the file, said of it.
    pub why: String,
    /// Whether its footer was put back before that was found.
    pub footer_put_back: bool,
    /// Whether what stands in the way is the file at its tail's name, which is not warsim's
    /// or cannot be read (moved away, the file can be continued).
    pub tail_in_the_way: bool,
}

/// The row groups of a stopped run's Parquet file, read from its footer.
pub struct HeldGroups {
    pub(super) metadata: ParquetMetaData,
    /// Where its row groups end (and its page indexes and footer begin).
    data_end: u64,
    /// What it holds.
    holding: Holding,
    /// Whether its footer was put back from the tail a killed resume saved.
    pub put_back: bool,
}

/// The row groups of the Parquet file at `path`, checked to hold `holding`.
pub(super) fn read_groups(path: &Path, holding: &Holding) -> Result<HeldGroups, String> {
    let file = File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    let metadata = ParquetMetaDataReader::new()
        .with_page_index_policy(PageIndexPolicy::Optional)
        .parse_and_finish(&file)
        .map_err(|e| format!("has no footer that can be read ({e})"))?;
    // Its summary may be missing: a footer written after a write error lists row groups alone.
    let ours = (metadata.file_metadata().created_by()).is_some_and(|by| by.starts_with("warsim "));
    if !ours {
        return Err("was not written by warsim (its footer says so)".to_string());
    }
    // Read back with typed readers, its columns must be those this run or sweep writes.
    let columns = |columns: &[ColumnDescPtr]| -> Vec<(String, PhysicalType)> {
        (columns.iter())
            .map(|c| (c.name().to_string(), c.physical_type()))
            .collect()
    };
    let wanted_columns = schema(holding.leads());
    if columns(metadata.file_metadata().schema_descr().columns())
        != columns(wanted_columns.columns())
    {
        let names: Vec<&str> = (wanted_columns.columns().iter())
            .map(|c| c.name())
            .collect();
        return Err(format!(
            "holds other columns than warsim writes for the state's games ({})",
            names.join(", ")
        ));
    }
    let held = metadata.file_metadata().num_rows() as u64;
    let wanted = holding.rows();
    if held != wanted {
        return Err(format!(
            "holds {}, and the state counts {}",
            counted(held, "game"),
            counted(wanted, "game")
        ));
    }
    // A sweep's cells number their games from their part's start each: its rows are counted.
    if let Holding::Games(games) = holding {
        let (first, last) = game_range(&metadata).ok_or("names no range of games")?;
        if wanted > 0 && (first, last + 1) != (games.start, games.end) {
            return Err(format!(
                "holds games {first} to {last}, and the state's are {} to {}",
                games.start,
                games.end - 1
            ));
        }
    }
    let mut data_end = super::salvage::MAGIC.len() as u64;
    for group in metadata.row_groups() {
        for column in group.columns() {
            let (start, length) = column.byte_range();
            if start != data_end {
                return Err("has row groups not laid out as warsim writes them".to_string());
            }
            data_end = start + length;
        }
    }
    Ok(HeldGroups {
        metadata,
        data_end,
        holding: holding.clone(),
        put_back: false,
    })
}

/// The first and last game its row groups hold, from the `game` column's statistics.
fn game_range(metadata: &ParquetMetaData) -> Option<(u64, u64)> {
    let column = (metadata.file_metadata().schema_descr().columns().iter())
        .position(|c| c.name() == "game")?;
    let mut range: Option<(u64, u64)> = None;
    for group in metadata.row_groups() {
        let Some(Statistics::Int64(s)) = group.column(column).statistics() else {
            return None;
        };
        let (min, max) = (*s.min_opt()? as u64, *s.max_opt()? as u64);
        range = Some(range.map_or((min, max), |(a, b)| (a.min(min), b.max(max))));
    }
    Some(range.unwrap_or((0, 0)))
}

impl GameParquet {
    /// Goes on with the Parquet file at `path` of a stopped run or sweep, holding `held`'s row
    /// groups (and a sweep's leading columns, checked against the file): saves its tail, cuts
    /// it back to its full row groups and lists them again in the writer, the games of a short
    /// last one gathered again (module doc), so that the games written from now on follow them.
    pub fn resumed(path: &Path, held: HeldGroups) -> io::Result<GameParquet> {
        let HeldGroups {
            metadata,
            data_end,
            holding,
            ..
        } = held;
        let leads: Vec<(&str, LeadKind)> = (holding.leads().iter())
            .map(|(name, kind)| (name.as_str(), *kind))
            .collect();
        let groups = metadata.row_groups();
        // A short last row group is read back and written again with the games that follow,
        // as an uninterrupted run would have written it: the file is cut where it began.
        let short = (groups.last()).filter(|group| (group.num_rows() as usize) < ROW_GROUP);
        let (kept, cut, gathered) = match short {
            Some(group) => {
                let rows = group.num_rows() as usize;
                let at = groups.len() - 1;
                let file = File::open(path)?;
                let gathered = last_group::read_back(file, at, (rows, ROW_GROUP), leads.len());
                let start = group.column(0).byte_range().0;
                (&groups[..at], start, Some(gathered.map_err(into_io)?))
            }
            None => (groups, data_end, None),
        };
        let tail = tail_path(path);
        let stream = Stream::resume_with(path, cut, |file| save_tail(file, cut, &tail))?;
        let mut parquet = GameParquet::new(stream.passing_over(cut), &leads).named(path);
        parquet.saved_tail = Some(path.to_path_buf());
        // A footer written after a write error lists no offset index: none for the new groups.
        let indexed = metadata.offset_index().is_some_and(|indexes| {
            indexes.len() == groups.len()
                && (indexes.iter().zip(groups)).all(|(i, group)| i.len() == group.num_columns())
        });
        if !indexed && !groups.is_empty() {
            parquet.layout.properties = super::group::properties(false);
        }
        let offsets = metadata.offset_index().map(Vec::as_slice);
        match parquet.list_again((kept, offsets), cut) {
            Ok((games, largest)) => {
                (parquet.appended, parquet.appended_bytes) = (games, cut);
                parquet.largest_group = largest;
                let read_back = gathered
                    .as_ref()
                    .map_or(0, |(rows, _)| rows.game.len() as u64);
                (parquet.taken, parquet.batch_base) = (games + read_back, games + read_back);
                // A sweep's writer checks its rows alone (`footer.rs`): no game number needed.
                let end = match holding {
                    Holding::Games(games) => games.end,
                    Holding::Rows(..) => 0,
                };
                (parquet.tail_holds, parquet.next_game) = (parquet.taken, end);
                if let Some((rows, batches)) = gathered {
                    (parquet.rows, parquet.batches) = (rows, batches);
                }
                Ok(parquet)
            }
            Err(error) => {
                // The file gets its footer back at once (no game was written to it).
                parquet.discard_if_empty();
                Err(error)
            }
        }
    }

    /// Lists the row groups `groups` (with their offset indexes, if any) in the writer, passed
    /// over: the file holds them up to `cut` ([`HeldAlready`]); returns their games and the
    /// bytes of the largest.
    pub(super) fn list_again(
        &mut self,
        (groups, offsets): (&[RowGroupMetaData], Option<&[Vec<OffsetIndexMetaData>]>),
        cut: u64,
    ) -> io::Result<(u64, u64)> {
        let source = HeldAlready(cut);
        let writer = self.writer()?;
        let (mut games, mut largest) = (0, 0);
        for (at, group) in groups.iter().enumerate() {
            let offsets = offsets.and_then(|o| o.get(at));
            let mut out = writer.next_row_group().map_err(into_io)?;
            for (column_at, column) in group.columns().iter().enumerate() {
                let close = ColumnCloseResult {
                    bytes_written: column.compressed_size() as u64,
                    rows_written: group.num_rows() as u64,
                    metadata: column.clone(),
                    bloom_filter: None,
                    column_index: None,
                    offset_index: offsets.and_then(|o| o.get(column_at)).cloned(),
                };
                out.append_column(&source, close).map_err(into_io)?;
            }
            out.close().map_err(into_io)?;
            games += group.num_rows() as u64;
            largest = largest.max(group.compressed_size() as u64);
        }
        // Every byte listed passed over, none written: the file is as it was up to the cut.
        writer.flush()?;
        let listed = writer.bytes_written() as u64;
        if listed != cut || writer.inner().still_to_pass_over() != 0 {
            return Err(io::Error::other(format!(
                "its row groups were listed to end at byte {listed}, not at {cut}"
            )));
        }
        writer.inner_mut().keep_room_now();
        Ok((games, largest))
    }
}

/// The bytes of the row groups a file holds already, as the source its writer lists them again
/// from: the stream passes over them unwritten ([`Stream::passing_over`]), so they are not read
/// (a resume or a checkpoint would otherwise read the whole file, gigabytes, for nothing).
struct HeldAlready(u64);

impl Length for HeldAlready {
    fn len(&self) -> u64 {
        self.0
    }
}

impl ChunkReader for HeldAlready {
    type T = Unread;

    fn get_read(&self, _: u64) -> parquet::errors::Result<Unread> {
        Ok(Unread)
    }

    fn get_bytes(&self, _: u64, length: usize) -> parquet::errors::Result<Bytes> {
        Ok(Bytes::from(vec![0; length]))
    }
}

/// Reads as many bytes as asked, leaving the buffer as it is: bytes passed over.
struct Unread;

impl Read for Unread {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        Ok(buffer.len())
    }
}
