//! `warsim merge` of an enumeration's parts (`warsim enumerate --shard K/N --state PATH`): their
//! exact counts added into the whole enumeration's figures, the report and files `warsim
//! enumerate` writes, identical but for the time. An enumeration's figures are exact only over
//! every deal, so parts that leave sequences out, hold some twice or were stopped before their
//! end are refused, as are parts of other enumerations (rules, deals, warsim versions).

use std::path::Path;

use super::{fold_rest, mixed, refuse, unreadable};
use crate::enumerate::command::{EnumerationOutputs, write_outputs};
use crate::enumerate::report::sequence_span;
use crate::enumerate::saved::tally_of;
use crate::enumerate::{DealSet, Plan};
use crate::export::text::{group, shell_word};
use crate::run::{RunEnd, RunError};
use crate::state::{AnyState, EnumerationState};

use super::MergeOptions;

/// Merges the parts whose first state is `first` and writes the enumeration's figures.
pub(super) fn merge_enumeration(
    options: &MergeOptions,
    first: EnumerationState,
) -> Result<RunEnd, RunError> {
    let paths = &options.states[..];
    let unwanted = [
        ("--seats", &options.seats),
        ("--hdr", &options.hdr),
        ("--plot", &options.plot),
    ];
    if let Some((flag, _)) = unwanted.iter().find(|(_, target)| target.is_some()) {
        return Err(refuse(format!(
            "{flag}: these are an enumeration's states, whose merge writes --json, --summary \
             and --histogram, as `warsim enumerate` does"
        )));
    }
    let named = |file: usize| paths[file].display().to_string();
    let damaged = |file: usize, why: String| unreadable(&paths[file], why);
    let rules = first.rules.rules().map_err(|why| damaged(0, why))?;
    let set = DealSet::named(&first.deals)
        .ok_or_else(|| damaged(0, format!("names no deal set ({:?})", first.deals)))?;
    let plan = Plan::new(&rules, set, u128::MAX).map_err(|e| damaged(0, e.to_string()))?;
    if plan.sequences != u128::from(first.sequences) {
        return Err(damaged(
            0,
            "counts other sequences than its deck has".into(),
        ));
    }
    let players = rules.players as usize;
    unfinished(&paths[0], &first)?;
    let mut tally = tally_of(&first.tally, players).map_err(|why| damaged(0, why))?;
    let mut parts = vec![(first.first, first.end, 0)];
    let (mut seconds, mut threads) = (first.wall_seconds, first.threads);
    fold_rest(paths, |file, state| {
        let state = match state {
            AnyState::Enumeration(state) => state,
            other => return Err(mixed(paths, (0, "enumeration"), (file, other.kind()))),
        };
        if let Some(what) = differs(&state, &first) {
            return Err(refuse(format!(
                "{} and {} are not parts of one enumeration: their {what} differ",
                named(0),
                named(file)
            )));
        }
        unfinished(&paths[file], &state)?;
        tally.merge(tally_of(&state.tally, players).map_err(|why| damaged(file, why))?);
        parts.push((state.first, state.end, file));
        seconds += state.wall_seconds;
        threads = threads.max(state.threads);
        Ok(())
    })?;
    parts.sort_unstable();
    let mut next = 0;
    for &(start, end, file) in &parts {
        if start < next {
            let before = parts
                .iter()
                .find(|p| p.0 < next && p.1 > start)
                .map_or(0, |p| p.2);
            return Err(refuse(format!(
                "{} and {} both hold sequence {}: merge each part once",
                named(before),
                named(file),
                group(start)
            )));
        }
        if start > next {
            return Err(missing(next, start, first.sequences));
        }
        next = end;
    }
    if next < first.sequences {
        return Err(missing(next, first.sequences, first.sequences));
    }
    let outputs = EnumerationOutputs {
        json: &options.json,
        summary: &options.summary,
        histogram: &options.histogram,
        state: &None,
    };
    let failures = write_outputs(&outputs, &plan, &tally, (seconds, threads));
    match RunError::of_all(failures) {
        Some(error) => Err(error),
        None => Ok(RunEnd::Complete),
    }
}

/// What two parts disagree on, if anything: they must be parts of one enumeration.
fn differs(state: &EnumerationState, first: &EnumerationState) -> Option<&'static str> {
    if state.warsim_version != first.warsim_version {
        Some("warsim versions")
    } else if state.rules != first.rules {
        Some("rules")
    } else if (&state.deals, state.sequences) != (&first.deals, first.sequences) {
        Some("deals")
    } else {
        None
    }
}

/// Refuses a part stopped before its end (a checkpoint): its figures are not yet its part's.
fn unfinished(path: &Path, state: &EnumerationState) -> Result<(), RunError> {
    if state.whole() {
        return Ok(());
    }
    let held = sequence_span(state.first, state.next).unwrap_or_else(|| "no sequences".into());
    Err(refuse(format!(
        "{} holds an enumeration stopped before its end: {held} of its {} to {}; play it to its \
         end with `warsim resume {}`, then merge",
        path.display(),
        group(state.first),
        group(state.end - 1),
        shell_word(path.as_os_str())
    )))
}

/// Refuses parts that leave sequences `start` to `end − 1` of `sequences` unplayed.
fn missing(start: u64, end: u64, sequences: u64) -> RunError {
    let gap = sequence_span(start, end).expect("a gap holds a sequence");
    refuse(format!(
        "{gap} of the {} are in no state: an enumeration's figures are exact only over every \
         deal, so every part must be merged (--allow-partial does not apply)",
        group(sequences)
    ))
}
