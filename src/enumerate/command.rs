//! `warsim enumerate` from checked options to its outputs: the plan and every output checked
//! before any deal is played, a progress bar, the report, and each file written atomically; or,
//! stopped by a signal, nothing at all.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::{DealSet, EnumerateError, Plan, Tally, report, saved};
use crate::batch::Shard;
use crate::config::{ConfigError, check_threads};
use crate::engine::Rules;
use crate::export::Target;
use crate::export::{OutputError, check_outputs};
use crate::run::{OutputWriter, RunError, write_each, write_report_with};
use crate::state::check_apart_from_lock;

/// What `warsim enumerate` was asked for.
#[derive(Clone, Debug)]
pub struct EnumerateOptions {
    /// The rules every deal is played under.
    pub rules: Rules,
    /// Which deals.
    pub set: DealSet,
    /// The most deals to play.
    pub max_deals: u128,
    /// Worker threads.
    pub threads: usize,
    /// The summary as JSON.
    pub json: Option<Target>,
    /// The summary as a one-row CSV.
    pub summary: Option<Target>,
    /// The distributions of lengths as CSV.
    pub histogram: Option<Target>,
    /// No progress bar.
    pub quiet: bool,
    /// The part of the deals to play, if not all of them.
    pub shard: Option<Shard>,
    /// The exact counts, as a state for `warsim merge` (a shard's only output but its line).
    pub state: Option<Target>,
}

/// Why `warsim enumerate` stopped before playing: bad input (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum EnumerateRefusal {
    /// The rules or the deck cannot be enumerated.
    #[error(transparent)]
    Plan(#[from] EnumerateError),
    /// An output cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The thread count is out of range.
    #[error(transparent)]
    Threads(#[from] ConfigError),
    /// A shard asked for the deck's figures.
    #[error("{0}")]
    Shard(String),
}

/// Checks the options: the plan, and every output before any is opened.
pub fn plan(options: &EnumerateOptions) -> Result<Plan, EnumerateRefusal> {
    check_threads(options.threads)?;
    let plan = match options.shard {
        Some(shard) => Plan::part(&options.rules, options.set, shard, options.max_deals)?,
        None => Plan::new(&options.rules, options.set, options.max_deals)?,
    };
    let figures = [
        ("--json", &options.json),
        ("--summary", &options.summary),
        ("--histogram", &options.histogram),
    ];
    if let (Some(shard), Some((flag, _))) = (options.shard, figures.iter().find(|f| f.1.is_some()))
    {
        return Err(EnumerateRefusal::Shard(format!(
            "{flag} with --shard {shard}: a part's figures are not the deck's; give {flag} to \
             `warsim merge` of the parts' --state files"
        )));
    }
    let outputs: Vec<(&'static str, &Target)> =
        [figures.as_slice(), &[("--state", &options.state)]]
            .concat()
            .into_iter()
            .filter_map(|(flag, target)| target.as_ref().map(|t| (flag, t)))
            .collect();
    check_outputs(&outputs)?;
    check_apart_from_lock(&outputs)?;
    Ok(plan)
}

/// How an enumeration ended.
#[derive(Debug)]
pub enum Enumerated {
    /// Every deal was played; the outputs that could not be written, if any.
    Done(Vec<RunError>),
    /// `stop` asked to stop first: nothing was written, since figures over part of the deals
    /// are not the deck's. The share of the deals that had been played.
    Stopped(f64),
}

/// Plays the plan and writes the report and the outputs, unless `stop` asks to stop first.
pub fn enumerate(
    options: &EnumerateOptions,
    plan: &Plan,
    stop: &(dyn Fn() -> bool + Sync),
) -> Enumerated {
    // The sequences this enumeration plays: its part's, or all of them.
    let sequences = (plan.part.end - plan.part.start) as u64;
    let bar = crate::progress::games_bar(sequences, options.quiet);
    let start = Instant::now();
    let played = AtomicU64::new(0);
    let tally = plan.run(
        options.threads,
        &|n| {
            played.fetch_add(n, Ordering::Relaxed);
            bar.inc(n);
        },
        stop,
    );
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let Some(tally) = tally else {
        return Enumerated::Stopped(played.into_inner() as f64 / sequences as f64);
    };
    let mut failures = Vec::new();
    if let Some(target) = &options.state {
        let state = saved::state_of(plan, &tally, seconds, options.threads);
        let write: OutputWriter = &|out| state.write(out);
        failures = write_each(&[("the state", &options.state, write)]);
        if options.shard.is_some() {
            let written = write_report_with(*target == Target::Stdout, &|out| {
                report::write_part(out, plan, &tally, target)
            });
            failures.extend(written.err());
            return Enumerated::Done(failures);
        }
    }
    let outputs = EnumerationOutputs {
        json: &options.json,
        summary: &options.summary,
        histogram: &options.histogram,
        state: &options.state,
    };
    failures.extend(write_outputs(
        &outputs,
        plan,
        &tally,
        (seconds, options.threads),
    ));
    Enumerated::Done(failures)
}

/// The files a whole enumeration's figures go to.
pub struct EnumerationOutputs<'a> {
    /// The summary JSON.
    pub json: &'a Option<Target>,
    /// The one-row summary CSV.
    pub summary: &'a Option<Target>,
    /// The distributions of lengths.
    pub histogram: &'a Option<Target>,
    /// The state written beside them, if any: the report leaves standard output to it.
    pub state: &'a Option<Target>,
}

/// Writes the figures of every deal of `plan`, tallied as `tally` in `seconds` on `threads`:
/// the files asked for, atomically, and the report; returns what could not be written.
pub fn write_outputs(
    outputs: &EnumerationOutputs,
    plan: &Plan,
    tally: &Tally,
    (seconds, threads): (f64, usize),
) -> Vec<RunError> {
    let summary = report::summary(plan, tally);
    let files: [(&'static str, &Option<Target>, OutputWriter); 3] = [
        ("the summary JSON", outputs.json, &|out| {
            report::write_json(out, &summary)
        }),
        ("the summary CSV", outputs.summary, &|out| {
            report::write_csv(out, &summary)
        }),
        ("the length histogram", outputs.histogram, &|out| {
            report::write_histogram(out, tally)
        }),
    ];
    let mut failures = write_each(&files);
    let stdout_taken = [
        outputs.json,
        outputs.summary,
        outputs.histogram,
        outputs.state,
    ]
    .iter()
    .any(|t| matches!(t, Some(Target::Stdout)));
    let written = write_report_with(stdout_taken, &|out| {
        report::write_report(out, plan, tally, seconds, threads)
    });
    failures.extend(written.err());
    failures
}
