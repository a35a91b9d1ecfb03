//! `warsim enumerate` from checked options to its outputs: the plan and every output checked
//! before any deal is played, a progress bar, the report, and each file written atomically; or,
//! stopped by a signal, nothing at all.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::{DealSet, EnumerateError, Plan, report};
use crate::config::{ConfigError, check_threads};
use crate::engine::Rules;
use crate::export::Target;
use crate::export::{OutputError, check_outputs};
use crate::run::{OutputWriter, RunError, write_each, write_report_with};

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
}

/// Checks the options: the plan, and every output before any is opened.
pub fn plan(options: &EnumerateOptions) -> Result<Plan, EnumerateRefusal> {
    check_threads(options.threads)?;
    let plan = Plan::new(&options.rules, options.set, options.max_deals)?;
    let outputs: Vec<(&'static str, &Target)> = [
        ("--json", &options.json),
        ("--summary", &options.summary),
        ("--histogram", &options.histogram),
    ]
    .into_iter()
    .filter_map(|(flag, target)| target.as_ref().map(|t| (flag, t)))
    .collect();
    check_outputs(&outputs)?;
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
    let bar = crate::progress::games_bar(plan.sequences as u64, options.quiet);
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
        return Enumerated::Stopped(played.into_inner() as f64 / plan.sequences as f64);
    };
    let summary = report::summary(plan, &tally);
    let outputs: [(&'static str, &Option<Target>, OutputWriter); 3] = [
        ("the summary JSON", &options.json, &|out| {
            report::write_json(out, &summary)
        }),
        ("the summary CSV", &options.summary, &|out| {
            report::write_csv(out, &summary)
        }),
        ("the length histogram", &options.histogram, &|out| {
            report::write_histogram(out, &tally)
        }),
    ];
    let mut failures = write_each(&outputs);
    let stdout_taken = [&options.json, &options.summary, &options.histogram]
        .iter()
        .any(|t| matches!(t, Some(Target::Stdout)));
    let written = write_report_with(stdout_taken, &|out| {
        report::write_report(out, plan, &tally, seconds, options.threads)
    });
    failures.extend(written.err());
    Enumerated::Done(failures)
}
