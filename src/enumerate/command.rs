//! `warsim enumerate` from checked options to its outputs: the plan and every output checked
//! before any deal is played, a progress bar, checkpoints of the sequences played so far (with
//! `--state`), the report, and each file written atomically; or, stopped by a signal, no
//! figures, and the state of the sequences played, for `warsim resume`.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::report::sequence_span;
use super::{DealSet, EnumerateError, Plan, Played, Tally, report, saved};
use crate::batch::{Controls, Occasion, Shard, Workers};
use crate::config::{ConfigError, check_checkpoints, check_threads};
use crate::engine::Rules;
use crate::export::text::group;
use crate::export::{OutputError, Target, write_atomically};
use crate::run::{
    OutputWriter, RunError, checkpoints_of, resumable_at, say_checkpoint_written, write_each,
    write_report_with,
};
use crate::state::check_outputs_beside_state;

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
    /// The exact counts, as a state for `warsim merge` (a shard's only output but its line)
    /// and `warsim resume`.
    pub state: Option<Target>,
    /// How often to write the state while playing (zero: only at the end).
    pub checkpoint_every: Duration,
    /// Continue the checkpoint in its own state file, if there is one (`--continue`).
    pub continue_from_state: bool,
    /// The command line, after `warsim`, recorded in the state for `warsim resume`.
    pub command: Vec<String>,
    /// The checkpoint this enumeration goes on from, if any.
    pub resume: Option<EnumerationResume>,
}

/// Where a resumed enumeration goes on from: a checkpoint's counts.
#[derive(Clone, Debug)]
pub struct EnumerationResume {
    /// The first sequence not played.
    pub next: u128,
    /// The counts over the sequences before it, from the part's first.
    pub tally: Tally,
    /// The wall time spent on them.
    pub seconds: f64,
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
    /// A setting out of range: the thread count, `--continue` without a state file.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A shard asked for the deck's figures.
    #[error("{0}")]
    Shard(String),
}

/// Checks the options: the plan, and every output before any is opened.
pub fn plan(options: &EnumerateOptions) -> Result<Plan, EnumerateRefusal> {
    check_threads(options.threads)?;
    // No Parquet file here: the CSV to write instead is never named.
    let checkpoints = (options.checkpoint_every, options.continue_from_state);
    check_checkpoints(options.state.as_ref(), (false, None), checkpoints, "")?;
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
    check_outputs_beside_state(&outputs, &[])?;
    // `--continue` refuses another enumeration's state itself, saying whose it is.
    if !options.continue_from_state {
        saved::check_other_part(&plan, &options.state)?;
    }
    Ok(plan)
}

/// How an enumeration ended.
#[derive(Debug)]
pub enum Enumerated {
    /// Every deal was played; the outputs that could not be written, if any.
    Done(Vec<RunError>),
    /// `stop` asked to stop first: no figures were written, since figures over part of the
    /// deals are not the deck's. The share of the deals whose counts were kept, and, with a
    /// state file, where they were kept.
    Stopped(f64, Option<String>),
    /// The workers could not start (nothing was played), or the state could not be written, at
    /// a checkpoint or once stopped, so play stopped: the error, saying what was kept.
    Failed(RunError),
}

/// Plays the plan (from its checkpoint, if resumed) and writes the report and the outputs,
/// unless `stop` asks to stop first; with a state file, saves a checkpoint every
/// `--checkpoint-every` and when asked (SIGUSR1), and once stopped.
pub fn enumerate(
    options: &EnumerateOptions,
    plan: &Plan,
    stop: &(dyn Fn() -> bool + Sync),
) -> Enumerated {
    // Started before anything is shown, or refused before any deal is played.
    let workers = match Workers::new(options.threads) {
        Ok(workers) => workers,
        Err(error) => return Enumerated::Failed(error.into()),
    };
    let players = plan.rules.players as usize;
    let (next, before, seconds_before) = match &options.resume {
        Some(resume) => (resume.next, resume.tally.clone(), resume.seconds),
        None => (plan.part.start, Tally::new(players), 0.0),
    };
    let bar = crate::progress::games_bar((plan.part.end - next) as u64, options.quiet);
    let start = Instant::now();
    let seconds = || seconds_before + start.elapsed().as_secs_f64();
    // The first sequence not in the state file: the resumed checkpoint's, then each written.
    let saved_to = AtomicU64::new(options.resume.as_ref().map_or(u64::MAX, |r| r.next as u64));
    // The state of the sequences before `next`, which `warsim resume` continues from this
    // command line and folder, recorded once.
    let resume = Some(resumable_at(&options.command, &None, (0, "")));
    let state_at = |tally: &Tally, next: u128, seconds: f64| {
        let threads = options.threads;
        saved::state_of(plan, tally, next, (seconds, threads), resume.clone())
    };
    let write_state = |tally: &Tally, next: u128| -> io::Result<()> {
        let Some(target) = &options.state else {
            return Ok(());
        };
        let state = state_at(tally, next, seconds());
        write_atomically(target, |out| state.write(out))?;
        saved_to.store(next as u64, Ordering::Relaxed);
        Ok(())
    };
    let save = |tally: &Tally, next: u64, _: &str, occasion: Occasion| -> io::Result<()> {
        write_state(tally, u128::from(next))?;
        if let (Occasion::Asked, Some(target)) = (occasion, &options.state) {
            say_checkpoint_written(&bar, target, &held(plan, u128::from(next)));
        }
        Ok(())
    };
    let controls = Controls {
        progress: &|n| bar.inc(n),
        stop,
        checkpoints: checkpoints_of(&options.state, options.checkpoint_every, &save),
    };
    let played = plan.play(&workers, (next, before), &controls);
    bar.finish_and_clear();
    // Play stopped at `next` as the state could not be written: the error, with what was kept.
    let unwritten = |error: io::Error, next: u128| {
        let target = options.state.as_ref().expect("only a state is saved");
        let kept = match saved_to.load(Ordering::Relaxed) {
            u64::MAX => "; nothing was kept".to_string(),
            held_to => format!(
                "; play stopped at sequence {}, and {target} holds its last checkpoint, {}",
                group(next as u64),
                held(plan, u128::from(held_to))
            ),
        };
        Enumerated::Failed(RunError::Write {
            what: "the state",
            target: target.to_string(),
            source: error,
            kept,
        })
    };
    let (tally, next) = match played {
        Played::Whole(tally) => (tally, plan.part.end),
        Played::Stopped { tally, next } => {
            if let Err(error) = write_state(&tally, next) {
                return unwritten(error, next);
            }
            let share = (next - plan.part.start) as f64 / plan.part_len() as f64;
            let kept = (options.state.as_ref())
                .map(|target| format!("{target} holds {}", held(plan, next)));
            return Enumerated::Stopped(share, kept);
        }
        Played::Failed { next, error } => return unwritten(error, next),
    };
    let seconds = seconds();
    let mut failures = Vec::new();
    if let Some(target) = &options.state {
        let state = state_at(&tally, next, seconds);
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

/// The sequences a state of `plan` stopped at `next` holds: "sequences 0 to 6,373,372 of
/// 63,063,000", or of a part "sequences 100 to 199 of its 100 to 999".
fn held(plan: &Plan, next: u128) -> String {
    let (start, end) = (plan.part.start as u64, plan.part.end as u64);
    let played = sequence_span(start, next as u64).unwrap_or_else(|| "no sequences".into());
    if (start, u128::from(end)) == (0, plan.sequences) {
        format!("{played} of {}", group(end))
    } else {
        format!("{played} of its {} to {}", group(start), group(end - 1))
    }
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
