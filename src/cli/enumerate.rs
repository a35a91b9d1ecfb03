//! `warsim enumerate`'s flags, turned into [`EnumerateOptions`] (bad input exits 2 before any
//! deal is played), and the enumeration played, continued from its own checkpoint
//! (`--continue`) or resumed (`warsim resume`), with signals handled.

use clap::Args;

use super::continuing::{
    CheckpointArgs, another_job, batch_of, existing_state, lock_state, own_checkpoint,
};
use super::resume::{parse, refuse};
use super::rules::RuleArgs;
use super::{Command, command_line, parse_threads};
use crate::batch::Shard;
use crate::config::{ConfigError, parse_count, parse_shard};
use crate::engine::Preset;
use crate::enumerate::command::{EnumerateOptions, Enumerated, EnumerationResume, enumerate, plan};
use crate::enumerate::saved::tally_of;
use crate::enumerate::{DEFAULT_MAX_DEALS, DealSet, Plan};
use crate::export::Target;
use crate::export::text::{counted, group};
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, answer_checkpoint_requests, play_on};
use crate::state::{AnyState, EnumerationState, RuleSettings};

pub(super) const ENUMERATE_AFTER_HELP: &str = "\
Plays every distinct deal of the deck (the sequences of ranks, suits ignored; seat 1 gets the
first cards of a sequence, seat 2 the next, ..., the first seats one more when the players do
not divide the deck, as warsim run deals) under rules with nothing random after the deal and a
uniform shuffle (--shuffle fisher-yates), and reports exactly: wins by seat, draws, cycles
(distinct cycles and their periods), the distributions of rounds and cards laid, and the
longest finite game with its deal. The figures never depend on --threads, and are those warsim
run estimates with the same flags.

Examples:
  warsim enumerate --suits 4 --ranks 3 --face-down 0 --pickup natural --war-shortage end-game
  warsim enumerate --suits 4 --ranks 4 --face-down 0 --pickup natural --war-shortage end-game --deals unordered --json bataille-4x4.json
  warsim enumerate --suits 1 --ranks 9 --histogram lengths.csv
  for k in 0 1 2 3; do warsim enumerate --suits 4 --ranks 4 --shard $k/4 --state part-$k.json; done
  warsim merge part-*.json --json 4x4.json
  warsim enumerate --suits 2 --ranks 8 --shard 7/40 --state part-7.json --continue   (a retry goes on from its checkpoint)
  warsim resume part-7.json";

/// Which deals, as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Deals {
    /// Every sequence of ranks once (each ordered pair of hands).
    All,
    /// Each unordered pair of hands once (Delahaye & Mathieu, cristal-smac/bataille; two
    /// players, even deck).
    Unordered,
    /// The first half of the sequences in lexicographic order, all for an odd deck
    /// (bataille_cpp; two players).
    LexHalf,
}

#[derive(Args, Debug)]
pub(super) struct EnumerateArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Which deals to play.
    #[arg(long, value_enum, default_value_t = Deals::All)]
    deals: Deals,
    /// Refuse decks with more deals than this (the default takes roughly half an hour on two
    /// cores for a 16-card deck); with --shard, parts with more. With --deals unordered it
    /// bounds the sequences gone through, about twice the deals played.
    #[arg(long, value_name = "N", value_parser = parse_count, default_value_t = DEFAULT_MAX_DEALS)]
    max_deals: u64,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Write the figures as JSON to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    json: Option<String>,
    /// Write the figures as a one-row CSV to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    summary: Option<String>,
    /// Write the exact distributions of rounds and cards laid as CSV to PATH ('-' = stdout):
    /// measure,value,deals,share,cumulative,survival (shares of every deal, as warsim run's of
    /// every game).
    #[arg(long, value_name = "PATH")]
    histogram: Option<String>,
    /// Play part K of N of the deals (K from 0, as a scheduler's array index): sequences
    /// ⌊K·S/N⌋ to ⌊(K+1)·S/N⌋ − 1 of the S. Needs --state; `warsim merge` joins the parts.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, requires = "state")]
    shard: Option<Shard>,
    /// Write the exact counts as a state file to PATH ('-' = stdout): checkpoints of the deals
    /// played so far, for `warsim resume`, and at the end the whole part's, for `warsim merge`
    /// of the parts of an enumeration played apart (--shard).
    #[arg(long, value_name = "PATH")]
    state: Option<String>,
    #[command(flatten)]
    checkpoints: CheckpointArgs,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(short, long)]
    quiet: bool,
}

impl EnumerateArgs {
    /// The options asked for; bad input is refused (exit 2).
    pub(super) fn into_options(self) -> Result<EnumerateOptions, RunError> {
        let rules = self.rules.into_rules(Preset::Classic)?;
        let target = |text: &Option<String>| text.as_deref().map(Target::parse);
        Ok(EnumerateOptions {
            rules,
            set: match self.deals {
                Deals::All => DealSet::All,
                Deals::Unordered => DealSet::Unordered,
                Deals::LexHalf => DealSet::LexHalf,
            },
            max_deals: u128::from(self.max_deals),
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            json: target(&self.json),
            summary: target(&self.summary),
            histogram: target(&self.histogram),
            quiet: self.quiet,
            shard: self.shard,
            state: target(&self.state),
            checkpoint_every: self.checkpoints.checkpoint_every,
            continue_from_state: self.checkpoints.continue_from_state,
            command: command_line(),
            resume: None,
        })
    }
}

/// Checks the options: the plan, and every output (exit 2 if refused).
pub(super) fn checked_plan(options: &EnumerateOptions) -> Result<Plan, RunError> {
    plan(options).map_err(|refusal| RunError::Config(ConfigError::Enumerate(refusal.to_string())))
}

/// `warsim enumerate`: plays the enumeration, or with `--continue` goes on from the checkpoint
/// in its own state file when that is this same enumeration's (as `warsim resume` does).
pub(super) fn enumerate_or_continue(options: EnumerateOptions) -> Result<RunEnd, RunError> {
    let plan = checked_plan(&options)?;
    // One writer a state file, as for a run's: a second warsim given it is refused.
    let _lock = lock_state(&options.state, options.continue_from_state, "enumeration")?;
    let Some(path) = existing_state(&options.state, options.continue_from_state) else {
        return enumerate_with(&options, &plan);
    };
    let same = |saved: &EnumerateOptions| enumeration_of(saved) == enumeration_of(&options);
    let (name, checkpoint, resumable) =
        own_checkpoint(&path, "enumeration", |saved| match parse(saved) {
            Ok(Command::Enumerate(args)) => args.into_options().is_ok_and(|saved| same(&saved)),
            _ => false,
        })?;
    match checkpoint {
        AnyState::Enumeration(state) => continue_enumeration(&name, &state, &plan, options),
        other => Err(another_job(&name, &resumable, "enumeration", &other)),
    }
}

/// Checks that the enumeration's options, planned as `plan`, are its checkpoint's (rules,
/// deals, part), then plays on from the checkpoint's next sequence (when every one was played,
/// writes the outputs again from the state).
pub(super) fn continue_enumeration(
    name: &str,
    state: &EnumerationState,
    plan: &Plan,
    mut options: EnumerateOptions,
) -> Result<RunEnd, RunError> {
    let same = state.rules == RuleSettings::of(&plan.rules)
        && state.deals == plan.set.name()
        && u128::from(state.sequences) == plan.sequences
        && (u128::from(state.first)..u128::from(state.end)) == plan.part
        && options.state.is_some();
    if !same {
        return Err(refuse(format!(
            "{name}: its figures are not those of its own command line (the state was edited)"
        )));
    }
    let tally = tally_of(&state.tally, plan.rules.players as usize)
        .map_err(|why| refuse(format!("{name}: {why}")))?;
    let played = state.next - state.first;
    if state.whole() {
        say!(
            "{name}: the enumeration is complete ({}): writing its outputs again from the state",
            counted(played, "sequence")
        );
    } else {
        say!(
            "{name}: resuming after {} of {}: playing on from sequence {}",
            counted(played, "sequence"),
            group(state.end - state.first),
            group(state.next)
        );
    }
    options.resume = Some(EnumerationResume {
        next: u128::from(state.next),
        tally,
        seconds: state.wall_seconds,
    });
    enumerate_with(&options, plan)
}

/// Plays the plan with signals handled: SIGUSR1 asks for a checkpoint, an interrupt stops play
/// and keeps the state of the sequences played.
fn enumerate_with(options: &EnumerateOptions, plan: &Plan) -> Result<RunEnd, RunError> {
    let interrupt = Interrupt::install().ok();
    answer_checkpoint_requests(interrupt.as_ref(), &options.state, options.checkpoint_every);
    let stop = || interrupt.as_ref().is_some_and(Interrupt::requested);
    match enumerate(options, plan, &stop) {
        Enumerated::Done(failures) => {
            let failures = failures.into_iter().filter(|f| !f.is_broken_pipe());
            match RunError::of_all(failures.collect()) {
                Some(error) => Err(error),
                None => Ok(RunEnd::Complete),
            }
        }
        Enumerated::Stopped(share, kept) => {
            let interrupt = interrupt.expect("only a signal stops an enumeration");
            let kept = match kept {
                Some(kept) => format!(
                    "no figures were written; {kept}{}",
                    play_on(&options.state, &None)
                ),
                None => "no file was written (with --state PATH an enumeration keeps the \
                         counts of the deals played, to resume)"
                    .to_string(),
            };
            say!(
                "interrupted ({}) with {:.1}% of the deals played: an enumeration's figures are \
                 exact only over every deal, so no report and {kept}",
                interrupt.signal_name(),
                100.0 * share,
            );
            Ok(RunEnd::Interrupted(interrupt.exit_status().unwrap_or(130)))
        }
        Enumerated::Failed(error) => Err(error),
    }
}

batch_of!(
    /// What decides an enumeration's figures and files (see `batch_of`).
    enumeration_of(EnumerateOptions)
);
