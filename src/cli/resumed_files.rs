//! The check that a resumed run's or sweep's per-game CSV still holds exactly the rows its
//! checkpoint counted, before anything is changed: a file missing, shorter, cut short and
//! written on, or edited is refused with what is wrong with it and how to go on, never
//! continued into a file lacking games; and the same of a Parquet file, which must hold
//! exactly the checkpoint's games.

use std::os::unix::fs::OpenOptionsExt;

use super::resume::refuse;
use crate::export::text::{counted, group};
use crate::export::{Holding, NotResumable, Target, check_resumable, last_row_of, lost_bytes};
use crate::run::RunError;
use crate::state::Resumable;

/// Refuses a per-game CSV that no longer holds exactly the checkpoint's rows: missing, shorter,
/// cut short and written on (zeros where rows were), or edited; or that held none of them when
/// the state was written (removed while written: a state counting `games` games counts rows);
/// or that the command does not write, though the state counts its rows.
pub(super) fn check_csv(
    name: &str,
    csv: &Option<Target>,
    resumable: &Resumable,
    games: u64,
) -> Result<(), RunError> {
    let (bytes, held) = (resumable.csv_bytes, counted(games, "game"));
    let Some(Target::File(csv)) = csv else {
        // Only a file's rows are counted (a stream's cannot be read back): a count with none
        // is a state edited since, refused here rather than after "resuming after" is said.
        return match bytes {
            0 => Ok(()),
            _ => Err(refuse(format!(
                "{name}: the state counts {} bytes of per-game CSV rows, but its command \
                 writes no per-game CSV file (edited since): nothing was changed",
                group(bytes)
            ))),
        };
    };
    // Opened once: its length, holes and last row are all the one file's, not whatever the name
    // leads to at each look. Without blocking: a named pipe put there has no writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(csv);
    // Its length, if it is a regular file: only one can be cut back to the checkpoint's rows.
    let length = |f: &std::fs::File| f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    let regular = file.as_ref().ok().filter(|f| length(f).is_some());
    let lost = regular.and_then(|f| lost_bytes(f, 0, bytes));
    let lost = lost.map(|(from, to)| {
        let bytes = format!("{} to {}", group(from), group(to - 1));
        format!("lost the rows in its bytes {bytes} (cut short by another program while written)")
    });
    let last_row = |file: &std::fs::File| last_row_of(file, bytes).ok();
    let again = "; its games can only be played again";
    let (why, how) = match file.as_ref().map(|f| (f, length(f))) {
        _ if bytes == 0 && games > 0 => (
            format!(
                "held none of the state's {held} when the state was written (it was removed \
                 while written)"
            ),
            again,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (
            format!(
                "is missing (the checkpoint's {held} were its first {} bytes)",
                group(bytes)
            ),
            "; put it back to resume",
        ),
        Ok((_, None)) => (
            "is not a regular file (a folder, a pipe or a device now has its name)".to_string(),
            "; put the file back to resume",
        ),
        Ok((_, Some(len))) if len < bytes => (
            format!(
                "holds {} bytes, fewer than the {} of the checkpoint's {held}",
                group(len),
                group(bytes)
            ),
            "",
        ),
        Ok(_) if lost.is_some() => (lost.unwrap_or_default(), again),
        Ok((file, _)) if last_row(file).as_deref() == Some(resumable.csv_tail.as_str()) => {
            return Ok(());
        }
        Ok(_) => (
            format!("does not hold the checkpoint's {held} as written (edited since)"),
            "",
        ),
        Err(e) => (format!("cannot be read ({e})"), ""),
    };
    Err(refuse(format!(
        "{name}: the per-game CSV {} {why}: nothing was changed{how}",
        csv.display()
    )))
}

/// Refuses to resume a run or sweep whose Parquet file no longer holds exactly the state's
/// `games` (cut back to its whole row groups after its own write error, removed, replaced), or
/// goes to standard output, which cannot be read back; a saved tail a killed run left is put
/// back first.
pub(super) fn check_parquet(
    name: &str,
    what: &str,
    parquet: &Option<Target>,
    games: Holding,
) -> Result<(), RunError> {
    let again = format!("nothing was changed; play the {what} again from its start");
    let path = match parquet {
        None => return Ok(()),
        Some(Target::File(path)) => path,
        Some(Target::Stdout) => {
            return Err(refuse(format!(
                "{name}: the {what} writes --parquet to standard output, which cannot be read \
                 back and continued: {again}"
            )));
        }
    };
    match check_resumable(path, games) {
        Ok(held) => {
            if held.put_back {
                say!(
                    "{name}: the Parquet file {} had lost its footer (the {what} writing it was \
                     killed): it is back as the state counts it",
                    path.display()
                );
            }
            Ok(())
        }
        Err(NotResumable {
            why,
            tail_in_the_way: true,
            ..
        }) => Err(refuse(format!(
            "{name}: the Parquet file {} {why}: nothing was changed; move it away, then resume \
             again",
            path.display()
        ))),
        Err(NotResumable {
            why,
            footer_put_back,
            ..
        }) => {
            // The footer a killed run took is back all the same: the file is readable.
            let changed = match footer_put_back {
                true => {
                    format!("its footer, lost when the {what} writing it was killed, was put back")
                }
                false => "nothing was changed".to_string(),
            };
            Err(refuse(format!(
                "{name}: the Parquet file {} {why}: {changed}; play the {what} again from its \
                 start",
                path.display()
            )))
        }
    }
}
