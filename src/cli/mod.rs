//! The command line: clap definitions, turned into plain [`RunOptions`] before anything runs.
//! clap types stay in this module. Every bad input ends here with one `error:` line and exit
//! status 2; a failure while running exits 1; a closed pipe on stdout exits 0 quietly.

mod arenas;
mod continuing;
mod documents;
mod enumerate;
mod failure;
mod open_files;
mod play;
mod resume;
mod resumed_files;
mod rules;
mod sweep;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::batch::Shard;
use crate::config::{
    ConfigError, MAX_THREADS, RunOptions, parse_count, parse_seconds, parse_shard, parse_within,
};
use crate::engine::Preset;
use crate::export::Target;
use crate::interrupt::{CheckpointAnswer, answer_checkpoint_requests};
use crate::plot::SurvivalScale;
use crate::run::{RunEnd, RunError};
use failure::clap_failure;
pub(crate) use failure::report_error;

/// A deterministic, parallel Monte Carlo engine for the card game War.
#[derive(Parser, Debug)]
#[command(name = "warsim", version, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a batch of seeded games and summarise how long they last.
    Run(Box<RunArgs>),
    /// Play every combination of rule settings given as lists or ranges (e.g. --players 2..6
    /// --ranks 6..13), each cell exactly as `warsim run` plays it, and tabulate them.
    #[command(after_help = sweep::SWEEP_AFTER_HELP)]
    Sweep(Box<sweep::SweepArgs>),
    /// Play every distinct deal of a small deck (rules with nothing random after the deal)
    /// and report wins, draws, cycles and lengths exactly.
    #[command(after_help = enumerate::ENUMERATE_AFTER_HELP)]
    Enumerate(Box<enumerate::EnumerateArgs>),
    /// Combine the state files of a batch's shards (`warsim run --shard K/N --state PATH`) into
    /// the whole run's figures, exactly; or a sweep's (`warsim sweep … --state`) into its tables;
    /// or an enumeration's parts (`warsim enumerate … --state`) into its exact figures.
    Merge(Box<MergeArgs>),
    /// Continue a run, sweep or enumeration that stopped (a crash, a killed job, Ctrl-C) from
    /// the state file it checkpointed with `--state`: the finished outputs are those of an
    /// uninterrupted one.
    Resume(resume::ResumeArgs),
    /// Play single games and print them: a seed, a range of seeds, one game of a batch,
    /// the fixed-rounds report, or a game against the computer.
    Play(Box<play::PlayArgs>),
    /// Print a completion script for a shell (e.g. `warsim completions bash > ~/.local/share/bash-completion/completions/warsim`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff) on standard output: warsim's, or one command's with all its
    /// flags (e.g. `warsim man > warsim.1`, `warsim man run > warsim-run.1`).
    Man {
        /// The command whose page to print (warsim's own when omitted).
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(documents::MAN_PAGES))]
        command: Option<String>,
    },
    /// List the rule presets and their settings, or show one; with rule flags, the rules they
    /// make, as `run` would play them (e.g. `warsim rules war-simulator --players 4`).
    #[command(after_help = RULES_AFTER_HELP, allow_negative_numbers = true)]
    Rules {
        /// A preset to show, any case (all when omitted; classic when rule flags are given).
        #[arg(value_parser = rules::possible::<Preset>(), ignore_case = true,
            conflicts_with = "rules")]
        name: Option<String>,
        #[command(flatten)]
        settings: rules::RuleArgs,
    },
}

const RULES_AFTER_HELP: &str = "\
With rule flags, prints the one line `warsim run` reports as its rules, or the error it would
refuse them with (exit status 2): a check of a rule set before a long run or sweep.

Examples:
  warsim rules                                 every preset and its settings
  warsim rules cards-war
  warsim rules war-simulator --players 4 --face-down 2";

const RUN_AFTER_HELP: &str = "\
Game i of a batch is played from its own seed, derived from --seed and i alone: results never
depend on --threads. Outputs given as '-' go to standard output (then the report goes to stderr).

Examples:
  warsim run                                   1,000,000 classic games on all cores
  warsim run --games 1e7 --seed 42 --csv games.csv --json summary.json
  warsim run --players 4 --suits 8 --ranks 13 --games 1e5";

#[derive(Args, Debug)]
#[command(after_help = RUN_AFTER_HELP, allow_negative_numbers = true)]
struct RunArgs {
    #[command(flatten)]
    rules: rules::RuleArgs,
    /// Games to play: 1000000, 1_000_000 and 1e6 are all accepted.
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_count)]
    games: u64,
    /// Base seed, 0 to 18446744073709551615 (same forms as --games); the same seed and rules
    /// give the same results on any machine.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_count)]
    seed: u64,
    /// Play only part K of N of the batch (K from 0, as Slurm's array task ids): games
    /// ⌊K·G/N⌋ to ⌊(K+1)·G/N⌋ − 1, the same games, rows and figures as in the whole run.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Write the per-game CSV without its header row (to append a shard's rows to another's).
    #[arg(long, requires = "csv")]
    no_header: bool,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Write one CSV row per game, in game order, to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    csv: Option<String>,
    /// Write one row per game, in game order, as Apache Parquet to PATH ('-' = stdout): typed,
    /// compressed columns, streamed in row groups.
    #[arg(long, value_name = "PATH")]
    parquet: Option<String>,
    #[command(flatten)]
    results: ResultArgs,
    /// Write the run's exact, mergeable statistics as a state file (versioned JSON) to PATH,
    /// for `warsim merge` ('-' = stdout). A run holds PATH.lock while it writes the file: another
    /// warsim given it is refused.
    #[arg(long, value_name = "PATH")]
    state: Option<String>,
    #[command(flatten)]
    checkpoints: continuing::CheckpointArgs,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(short, long)]
    quiet: bool,
}

impl RunArgs {
    fn into_options(self) -> Result<RunOptions, ConfigError> {
        let rules = self.rules.into_rules(Preset::Classic)?;
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let options = RunOptions {
            rules,
            games: self.games,
            shard: self.shard,
            no_header: self.no_header,
            seed: self.seed,
            threads,
            csv: self.csv.as_deref().map(Target::parse),
            parquet: self.parquet.as_deref().map(Target::parse),
            summary: self.results.summary.as_deref().map(Target::parse),
            json: self.results.json.as_deref().map(Target::parse),
            histogram: self.results.histogram.as_deref().map(Target::parse),
            hdr: self.results.hdr.as_deref().map(Target::parse),
            plot: self.results.plot.as_deref().map(Target::parse),
            state: self.state.as_deref().map(Target::parse),
            checkpoint_every: self.checkpoints.checkpoint_every,
            command: command_line(),
            continue_from_state: self.checkpoints.continue_from_state,
            resume: None,
            survival_scale: self.results.plot_scale.unwrap_or(PlotScale::Log).into(),
            quiet: self.quiet,
            seconds_per_round: self.results.seconds_per_round,
        };
        options.validate()?;
        Ok(options)
    }
}

#[derive(Args, Debug)]
struct MergeArgs {
    /// State files of one batch's shards, in any order: `warsim run --state`'s, or `warsim
    /// sweep --state`'s (then the outputs are the sweep's: --summary its table of cells, …), or
    /// `warsim enumerate --state`'s (the enumeration's: --json, --summary, --histogram).
    #[arg(value_name = "STATE", required_unless_present = "states_from")]
    states: Vec<std::path::PathBuf>,
    /// Also merge the state files LIST names, one path a line, relative to this folder ('-' =
    /// standard input): for more shards than a command line holds (`find out -name
    /// 'state-*.json' | warsim merge --states-from -`).
    #[arg(long, value_name = "LIST")]
    states_from: Option<std::path::PathBuf>,
    /// Merge even if some of the batch's games are in no state: the report says which, and the
    /// summary is marked incomplete.
    #[arg(long)]
    allow_partial: bool,
    /// Sweep states only: write the table of seats to PATH ('-' = stdout), as `sweep --seats`.
    #[arg(long, value_name = "PATH")]
    seats: Option<String>,
    #[command(flatten)]
    results: ResultArgs,
    /// No progress bar while the states are read (it is also hidden when stderr is not a
    /// terminal).
    #[arg(short, long)]
    quiet: bool,
}

/// The figures `run` and `merge` both write.
#[derive(Args, Debug)]
struct ResultArgs {
    /// Write the summary as a one-row CSV to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    summary: Option<String>,
    /// Write the summary as JSON to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    json: Option<String>,
    /// Write the length distribution, exact per round, as CSV to PATH ('-' = stdout):
    /// rounds,games,share,cumulative,survival.
    #[arg(long, value_name = "PATH")]
    histogram: Option<String>,
    /// Write the length histogram as an HdrHistogram interval log (.hlog, base64 V2-deflate,
    /// tagged with the settings) to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    hdr: Option<String>,
    /// Draw the length histogram and the survival curve, quantiles marked, as SVG to PATH
    /// ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    plot: Option<String>,
    /// The survival curve's vertical scale in --plot (a run's; a sweep's plot has none)
    /// [default: log].
    // An Option, not a default, so that a sweep's merge can tell it was given and refuse it.
    #[arg(long, value_name = "SCALE", value_enum, requires = "plot")]
    plot_scale: Option<PlotScale>,
    /// Seconds a round takes at a real table, 0.001 to 86400 (war_card_game reckons about 2):
    /// the report adds the game lengths as durations.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    seconds_per_round: Option<f64>,
}

impl MergeArgs {
    fn into_options(self) -> crate::merge::MergeOptions {
        let target = |text: Option<String>| text.as_deref().map(Target::parse);
        crate::merge::MergeOptions {
            states: self.states,
            states_from: self.states_from,
            allow_partial: self.allow_partial,
            summary: target(self.results.summary),
            seats: target(self.seats),
            json: target(self.results.json),
            histogram: target(self.results.histogram),
            hdr: target(self.results.hdr),
            plot: target(self.results.plot),
            survival_scale: self.results.plot_scale.map(SurvivalScale::from),
            seconds_per_round: self.results.seconds_per_round,
            quiet: self.quiet,
        }
    }
}

/// The survival curve's scale, as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PlotScale {
    /// Logarithmic: the tail of rare long games stays visible.
    Log,
    /// Linear, from 0 to 1.
    Linear,
}

impl From<PlotScale> for SurvivalScale {
    fn from(scale: PlotScale) -> Self {
        match scale {
            PlotScale::Log => SurvivalScale::Log,
            PlotScale::Linear => SurvivalScale::Linear,
        }
    }
}

/// This process's arguments after `warsim`, as a checkpoint records them. Read without
/// `std::env::args`, which panics on an argument that is not UTF-8: `warsim resume` takes any
/// path (and then records the resumed run's own line), while clap refuses such arguments to
/// `run` and `sweep` before this is read.
pub(crate) fn command_line() -> Vec<String> {
    std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect()
}

fn parse_threads(text: &str) -> Result<usize, String> {
    // Past a u32 here; inside one, the run's check refuses more than MAX_THREADS alike.
    parse_within(text, u32::MAX.into(), &format!("1 to {MAX_THREADS}")).map(|n| n as usize)
}

/// Entry point of the `warsim` binary.
pub fn main() -> ExitCode {
    arenas::one_arena_under_address_limit();
    crate::interrupt::fail_writes_past_file_size_limit();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_failure(error),
    };
    // Single games and the documents write one stream each; a batch opens its files later.
    let batch = !matches!(
        cli.command,
        Command::Rules { .. }
            | Command::Completions { .. }
            | Command::Man { .. }
            | Command::Play(_)
    );
    if batch && let Err(message) = open_files::make_room() {
        report_error(&message);
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Rules { name, settings } => {
            return rules::show_rules_command(name.as_deref(), settings);
        }
        Command::Completions { shell } => return documents::print_completions(shell),
        Command::Man { command } => return documents::print_man_page(command.as_deref()),
        Command::Run(args) => args
            .into_options()
            .map_err(RunError::from)
            .and_then(continuing::run_or_continue),
        Command::Sweep(args) => args
            .into_options()
            .map_err(RunError::from)
            .and_then(continuing::sweep_or_continue),
        Command::Merge(args) => {
            answer_checkpoint_requests(CheckpointAnswer::NotKept);
            crate::merge::merge(&args.into_options())
        }
        Command::Resume(args) => resume::resume(&args),
        Command::Play(args) => {
            answer_checkpoint_requests(CheckpointAnswer::NotKept);
            return play::play_command(*args);
        }
        Command::Enumerate(args) => args
            .into_options()
            .and_then(enumerate::enumerate_or_continue),
    };
    match result {
        Ok(RunEnd::Complete) => ExitCode::SUCCESS,
        Ok(RunEnd::Interrupted(status)) => ExitCode::from(status),
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            for message in error.messages() {
                report_error(&message);
            }
            match (error.stopped_by(), error) {
                (Some(status), _) => ExitCode::from(status),
                (None, RunError::Config(_)) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    /// clap_complete's generators offer hidden arguments in every shell's completions (a test
    /// hook was offered so), so warsim has none: a test mode is an environment variable.
    #[test]
    fn no_argument_is_hidden_from_help_but_offered_by_completions() {
        use clap::CommandFactory;
        fn hidden(command: &clap::Command, path: &str, found: &mut Vec<String>) {
            for arg in command.get_arguments().filter(|a| a.is_hide_set()) {
                found.push(format!("{path} {}", arg.get_id()));
            }
            for sub in command.get_subcommands() {
                hidden(sub, &format!("{path} {}", sub.get_name()), found);
            }
        }
        let mut found = Vec::new();
        hidden(&Cli::command(), "warsim", &mut found);
        assert_eq!(found, Vec::<String>::new());
    }
}
