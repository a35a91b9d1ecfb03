//! The check that a resumed run's or sweep's per-game CSV still holds exactly the rows its
//! checkpoint counted, before anything is changed: a file missing, shorter, cut short and
//! written on, or edited is refused with what is wrong with it and how to go on, never
//! continued into a file lacking games.

use super::resume::refuse;
use crate::export::text::{counted, group};
use crate::export::{Target, lost_bytes};
use crate::run::RunError;
use crate::state::{Resumable, csv_tail};

/// Refuses a per-game CSV that no longer holds exactly the checkpoint's rows: missing, shorter,
/// cut short and written on (zeros where rows were), or edited; or that held none of them when
/// the state was written (removed while written: a state counting `games` games counts rows).
pub(super) fn check_csv(
    name: &str,
    csv: &Option<Target>,
    resumable: &Resumable,
    games: u64,
) -> Result<(), RunError> {
    let Some(Target::File(csv)) = csv else {
        return Ok(());
    };
    let (bytes, held) = (resumable.csv_bytes, counted(games, "game"));
    let lost = std::fs::File::open(csv)
        .ok()
        .and_then(|f| lost_bytes(&f, 0, bytes));
    let lost = lost.map(|(from, to)| {
        let bytes = format!("{} to {}", group(from), group(to - 1));
        format!("lost the rows in its bytes {bytes} (cut short by another program while written)")
    });
    let again = "; its games can only be played again";
    let (why, how) = match std::fs::metadata(csv).map(|m| m.len()) {
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
        Ok(len) if len < bytes => (
            format!(
                "holds {} bytes, fewer than the {} of the checkpoint's {held}",
                group(len),
                group(bytes)
            ),
            "",
        ),
        Ok(_) if lost.is_some() => (lost.unwrap_or_default(), again),
        Ok(_) if csv_tail(csv, bytes).ok().as_deref() == Some(resumable.csv_tail.as_str()) => {
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
