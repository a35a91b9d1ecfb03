//! The notes a sweep's median plot writes at the top of a column where a quantile it draws has
//! no length (it never ends, or falls past the cap), and the widest form that fits: words
//! ("p90 never"), a sign over the quantile's short name ("∞" over "p90"), or a sign alone.

use super::labels::text_width;
use super::{ABOVE_CAP_SIGN, NEVER_SIGN, censored_sign};
use crate::export::text::quantile_text;
use crate::stats::{Quantile, Stats};

/// The height of one line of the notes, and of the names under signs.
pub(super) const NOTE_ROW: u32 = 18;
pub(super) const NAME_ROW: u32 = 14;
/// Pixels between the notes of neighbouring columns.
const NOTE_GAP: f64 = 8.0;

/// A quantile drawn for a cell that falls among censored games: its name, where it falls, and
/// the sign that stands for it where the words do not fit (∞ never ends, ↑ past the cap).
#[derive(Clone, Copy)]
pub(super) struct Note {
    name: &'static str,
    value: Quantile,
    pub(super) sign: &'static str,
}

impl Note {
    /// The first of `drawn` (name, parts) that has no length in `stats`.
    pub(super) fn first(stats: &Stats, drawn: &[(&'static str, u32)]) -> Option<Note> {
        drawn.iter().find_map(|&(name, parts)| {
            let value = stats.lengths().quantile(parts)?;
            let sign = censored_sign(value)?;
            Some(Note { name, value, sign })
        })
    }

    /// In words: "median never", "p90 > 300".
    pub(super) fn text(self) -> String {
        format!("{} {}", self.name, quantile_text(self.value))
    }

    /// The name written under the sign: "p50" for the median, so that all three fit alike.
    pub(super) fn short_name(self) -> &'static str {
        match self.name {
            "median" => "p50",
            name => name,
        }
    }

    pub(super) fn is_median(self) -> bool {
        self.name == "median"
    }
}

/// How the notes of censored quantiles are written, the widest that fits every column.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(super) enum NoteForm {
    /// In words: "p90 never".
    Words,
    /// A sign over the quantile's short name: "∞" over "p90" (one line with its band).
    Named,
    /// A sign alone: the median's in the line's colour, the band's and p99's pale.
    Signs,
}

impl NoteForm {
    /// The widest form in which every note fits a column `column_px` wide; names only with
    /// the band (one line), where p90 and p99 are noted beside the median.
    pub(super) fn fitting(notes: &[Note], column_px: f64, band: bool) -> NoteForm {
        let fits = |text: &str| text_width(text) + NOTE_GAP <= column_px;
        if notes.iter().all(|n| fits(&n.text())) {
            NoteForm::Words
        } else if band && notes.iter().all(|n| fits(n.short_name())) {
            NoteForm::Named
        } else {
            NoteForm::Signs
        }
    }
}

/// What the signs mean, for the caption: those among `notes`, and where they are signs alone,
/// that the pale ones are the band's or p99's.
pub(super) fn signs_legend(notes: &[Note], form: NoteForm) -> String {
    let mut meanings = Vec::new();
    for (sign, meaning) in [(NEVER_SIGN, "never ends"), (ABOVE_CAP_SIGN, "past the cap")] {
        if notes.iter().any(|n| n.sign == sign) {
            meanings.push(format!("{sign}: {meaning}"));
        }
    }
    if form == NoteForm::Signs && notes.iter().any(|n| !n.is_median()) {
        meanings.push("pale: p90 or p99".to_string());
    }
    match meanings.is_empty() {
        true => String::new(),
        false => format!(" ({})", meanings.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_take_the_widest_form_that_fits_every_column() {
        let note = |name, value| Note {
            name,
            value,
            sign: censored_sign(value).unwrap(),
        };
        let notes = [
            note("median", Quantile::Never),
            note("p90", Quantile::AboveCap(300)),
        ];
        // "median never" is 12 characters, 96 pixels; "p50" 24: each with 8 pixels apart.
        assert_eq!(NoteForm::fitting(&notes, 104.0, true), NoteForm::Words);
        assert_eq!(NoteForm::fitting(&notes, 103.0, true), NoteForm::Named);
        assert_eq!(NoteForm::fitting(&notes, 32.0, true), NoteForm::Named);
        assert_eq!(NoteForm::fitting(&notes, 31.0, true), NoteForm::Signs);
        // Lines without the band note their medians only, as signs without names.
        assert_eq!(NoteForm::fitting(&notes[..1], 40.0, false), NoteForm::Signs);
        assert_eq!(
            signs_legend(&notes, NoteForm::Signs),
            " (∞: never ends; ↑: past the cap; pale: p90 or p99)"
        );
        assert_eq!(
            signs_legend(&notes, NoteForm::Named),
            " (∞: never ends; ↑: past the cap)"
        );
        assert_eq!(
            signs_legend(&notes[..1], NoteForm::Signs),
            " (∞: never ends)"
        );
    }
}
