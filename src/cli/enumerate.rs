//! `warsim enumerate`'s flags, turned into [`EnumerateOptions`]; bad input exits 2 before any
//! deal is played.

use std::process::ExitCode;

use clap::Args;

use super::continuing::lock_state;
use super::parse_threads;
use super::report_error;
use super::rules::RuleArgs;
use crate::batch::Shard;
use crate::config::{parse_count, parse_shard};
use crate::engine::Preset;
use crate::enumerate::command::{EnumerateOptions, Enumerated, enumerate, plan};
use crate::enumerate::{DEFAULT_MAX_DEALS, DealSet};
use crate::export::Target;
use crate::interrupt::{CheckpointAnswer, Interrupt, answer_checkpoint_requests};

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
  warsim merge part-*.json --json 4x4.json";

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
    /// cores for a 16-card deck); with --shard, parts with more.
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
    /// Write the exact counts as a state file to PATH ('-' = stdout), for `warsim merge` of the
    /// parts of an enumeration played apart (--shard).
    #[arg(long, value_name = "PATH")]
    state: Option<String>,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(short, long)]
    quiet: bool,
}

/// Runs `warsim enumerate`: exit 2 on bad input, 1 when an output failed.
pub(super) fn enumerate_command(args: EnumerateArgs) -> ExitCode {
    let rules = match args.rules.into_rules(Preset::Classic) {
        Ok(rules) => rules,
        Err(error) => {
            report_error(&error);
            return ExitCode::from(2);
        }
    };
    let target = |text: &Option<String>| text.as_deref().map(Target::parse);
    let options = EnumerateOptions {
        rules,
        set: match args.deals {
            Deals::All => DealSet::All,
            Deals::Unordered => DealSet::Unordered,
            Deals::LexHalf => DealSet::LexHalf,
        },
        max_deals: u128::from(args.max_deals),
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        json: target(&args.json),
        summary: target(&args.summary),
        histogram: target(&args.histogram),
        quiet: args.quiet,
        shard: args.shard,
        state: target(&args.state),
    };
    let plan = match plan(&options) {
        Ok(plan) => plan,
        Err(refusal) => {
            report_error(&refusal);
            return ExitCode::from(2);
        }
    };
    // One writer a state file, as for a run's: a second warsim given it is refused.
    let _lock = match lock_state(&options.state, false, "part") {
        Ok(lock) => lock,
        Err(refusal) => {
            report_error(&refusal);
            return ExitCode::from(2);
        }
    };
    let interrupt = Interrupt::install().ok();
    answer_checkpoint_requests(CheckpointAnswer::Enumeration);
    let stop = || interrupt.as_ref().is_some_and(Interrupt::requested);
    let failures = match enumerate(&options, &plan, &stop) {
        Enumerated::Done(failures) => failures,
        Enumerated::Stopped(share) => {
            let interrupt = interrupt.expect("only a signal stops an enumeration");
            eprintln!(
                "interrupted ({}) with {:.1}% of the deals played: an enumeration's figures are exact only over every deal, so no report and no file was written",
                interrupt.signal_name(),
                100.0 * share
            );
            return ExitCode::from(interrupt.exit_status().unwrap_or(130));
        }
    };
    let mut status = ExitCode::SUCCESS;
    for failure in failures {
        if failure.is_broken_pipe() {
            continue;
        }
        report_error(&failure);
        status = ExitCode::FAILURE;
    }
    status
}
