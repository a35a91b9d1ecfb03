//! An enumeration's part as a state file and back: its plan's identity (rules, deals, the
//! sequences it plays and has played) and its exact tally, for `warsim resume` to go on from
//! and `warsim merge` to join the parts of one enumeration played apart (`--shard K/N`). A
//! state read back is checked for the sums every tally keeps (a file edited by hand is refused,
//! not merged into wrong figures).

use std::collections::BTreeMap;

use super::report::sequence_span;
use super::{Plan, Tally, tally::Cycle, tally::Longest};
use crate::engine::WinBy;
use crate::export::{OutputError, Target};
use crate::run::another_parts;
use crate::state::{
    AnyState, CycleState, ENUMERATION_FORMAT, EnumerationState, FORMAT_VERSION, LongestState,
    Resumable, RuleSettings, TallyState,
};

/// The state of `plan`'s part played up to sequence `next`, tallied as `tally` in `seconds` on
/// `threads` threads, and how to continue it (`resume`).
pub fn state_of(
    plan: &Plan,
    tally: &Tally,
    next: u128,
    (seconds, threads): (f64, usize),
    resume: Option<Resumable>,
) -> EnumerationState {
    EnumerationState {
        format: ENUMERATION_FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        warsim_version: env!("CARGO_PKG_VERSION").to_string(),
        rules: RuleSettings::of(&plan.rules),
        deals: plan.set.name().to_string(),
        // At most u64::MAX: Plan::new and Plan::part refuse more.
        sequences: plan.sequences as u64,
        first: plan.part.start as u64,
        end: plan.part.end as u64,
        next: next as u64,
        wall_seconds: seconds,
        threads,
        tally: tally_state(tally),
        resume,
    }
}

/// Refuses a `--state` whose file is the state of another part of this same enumeration (the
/// same rules, deals and deck) holding sequences this one does not play, which replacing it
/// would lose: parts of an array given one name, run one after another, kept only the last
/// one's. A state of this part's own sequences, or of another enumeration, is replaced.
pub fn check_other_part(plan: &Plan, state: &Option<Target>) -> Result<(), OutputError> {
    let Some(Target::File(path)) = state else {
        return Ok(());
    };
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let Ok(AnyState::Enumeration(held)) = AnyState::read(path) else {
        return Ok(());
    };
    let same = held.rules == RuleSettings::of(&plan.rules)
        && held.deals == plan.set.name()
        && u128::from(held.sequences) == plan.sequences;
    let (first, next) = (u128::from(held.first), u128::from(held.next));
    let played = plan.part.start <= first && next <= plan.part.end;
    let Some(span) = sequence_span(held.first, held.next).filter(|_| same && !played) else {
        return Ok(());
    };
    let part = plan.part.start as u64..plan.part.end as u64;
    let held = format!("the state of {span} of this same enumeration (same rules, deals and deck)");
    let plays = sequence_span(part.start, part.end).unwrap_or_else(|| "no sequences".into());
    let plays = format!("this one plays {plays}");
    Err(another_parts(
        "--state",
        path,
        (held, plays),
        ("sequences", "part"),
    ))
}

fn tally_state(t: &Tally) -> TallyState {
    let sparse = |counts: &[u64]| {
        let kept = counts.iter().enumerate().filter(|&(_, &n)| n > 0);
        kept.map(|(value, &n)| (value as u64, n)).collect()
    };
    let longest = |l: &Longest| LongestState {
        rounds: l.rounds,
        cards_played: l.cards_played,
        deal: l.deal.clone(),
    };
    TallyState {
        deals: t.deals,
        wins: t.wins.clone(),
        draws: t.draws,
        capped: t.capped,
        cycled: t.cycled,
        win_by: t.win_by.to_vec(),
        rounds: sparse(&t.rounds),
        cards: sparse(&t.cards),
        wars: sparse(&t.wars),
        longest: t.longest.as_ref().map(longest),
        longest_by_cards: t.longest_by_cards.as_ref().map(longest),
        cycles: (t.cycles.iter())
            .map(|(position, c)| CycleState {
                position: position.clone(),
                period: c.period,
                deals: c.deals,
                mirror: c.mirror.clone(),
            })
            .collect(),
    }
}

/// The tally a state holds, for `players` seats; refused (why) where its sums do not hold.
pub fn tally_of(s: &TallyState, players: usize) -> Result<Tally, String> {
    let damaged = |why: &str| Err(format!("is damaged: its tally {why}"));
    if s.wins.len() != players || s.win_by.len() != WinBy::ALL.len() {
        return damaged("counts other seats or other ways to win than its rules have");
    }
    let dense = |pairs: &[(u64, u64)]| -> Option<Vec<u64>> {
        let ascending = pairs.windows(2).all(|w| w[0].0 < w[1].0);
        let last = pairs.last().map_or(0, |&(value, _)| value);
        // A length beyond any game's is an edit, not a count to allocate for.
        if !ascending || last > 1 << 32 {
            return None;
        }
        let mut counts = vec![0; pairs.last().map_or(0, |&(value, _)| value as usize + 1)];
        for &(value, n) in pairs {
            counts[value as usize] = n;
        }
        Some(counts)
    };
    let (Some(rounds), Some(cards), Some(wars)) =
        (dense(&s.rounds), dense(&s.cards), dense(&s.wars))
    else {
        return damaged("lists lengths out of order, or longer than any game");
    };
    // Added in u128: counts edited to overflow a u64 are refused, not wrapped.
    let sum = |counts: &mut dyn Iterator<Item = u64>| counts.map(u128::from).sum::<u128>();
    let wins = sum(&mut s.wins.iter().copied());
    let finite = wins + u128::from(s.draws);
    let lengths = [&rounds, &cards, &wars].map(|counts| sum(&mut counts.iter().copied()));
    let cycles_deals = sum(&mut s.cycles.iter().map(|c| c.deals));
    if u128::from(s.deals) != finite + u128::from(s.capped) + u128::from(s.cycled)
        || lengths != [finite; 3]
        || sum(&mut s.win_by.iter().copied()) != wins
        || cycles_deals != u128::from(s.cycled)
    {
        return damaged("does not add up");
    }
    let longest = |l: &LongestState| Longest {
        rounds: l.rounds,
        cards_played: l.cards_played,
        deal: l.deal.clone(),
    };
    let cycles: BTreeMap<Vec<u8>, Cycle> = (s.cycles.iter())
        .map(|c| {
            let cycle = Cycle {
                period: c.period,
                deals: c.deals,
                mirror: c.mirror.clone(),
            };
            (c.position.clone(), cycle)
        })
        .collect();
    Ok(Tally {
        deals: s.deals,
        wins: s.wins.clone(),
        draws: s.draws,
        capped: s.capped,
        cycled: s.cycled,
        win_by: s.win_by.clone().try_into().expect("its length was checked"),
        rounds,
        cards,
        wars,
        longest: s.longest.as_ref().map(longest),
        longest_by_cards: s.longest_by_cards.as_ref().map(longest),
        cycles,
    })
}
