//! The command line: clap definitions, turned into plain [`RunOptions`] before anything runs.
//! clap types stay in this module. Every bad input ends here with one `error:` line and exit
//! status 2; a failure while running exits 1; a closed pipe on stdout exits 0 quietly.

mod play;

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};

use crate::config::{ConfigError, RunOptions, parse_count, parse_setting};
use crate::engine::Rules;
use crate::engine::rules::{Named, Setting};
use crate::engine::{MAX_CARDS, MAX_PLAYERS, MAX_RANKS, Preset};
use crate::export::Target;
use crate::interrupt::Interrupt;
use crate::run::{RunEnd, RunError, run};

/// warsim: a deterministic, parallel Monte Carlo engine for the card game War.
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
    /// Play single games and print them: a seed, a range of seeds, one game of a batch,
    /// the fixed-rounds report, or a game against the computer.
    Play(Box<play::PlayArgs>),
    /// List the rule presets and their settings, or show one.
    Rules {
        /// A preset to show (all when omitted).
        name: Option<String>,
    },
}

const RUN_AFTER_HELP: &str = "\
Game i of a batch is played from its own seed, derived from --seed and i alone: results never
depend on --threads. Outputs given as '-' go to standard output (then the report goes to stderr).

Examples:
  warsim run                                   1,000,000 classic games on all cores
  warsim run --games 1e7 --seed 42 --csv games.csv --json summary.json
  warsim run --players 4 --suits 8 --ranks 13 --games 1e5";

/// The rule flags `run` and `play` share.
#[derive(Args, Debug)]
struct RuleArgs {
    /// Rule preset; the settings below override it (see 'warsim rules')
    /// [default: classic; game-of-war with play --interactive].
    #[arg(long, value_name = "NAME")]
    rules: Option<String>,
    /// Players at the table, 2 to 32 [default: the preset's, 2 for classic].
    #[arg(long, value_name = "N", value_parser = parse_setting)]
    players: Option<u32>,
    /// Suits in the deck [default: the preset's, 4]; suits × ranks at most 1024.
    #[arg(long, value_name = "S", value_parser = parse_setting)]
    suits: Option<u32>,
    /// Ranks per suit (cards per suit), 1 to 255 [default: the preset's, 13].
    #[arg(long, value_name = "R", value_parser = parse_setting)]
    ranks: Option<u32>,
    /// Cards each player puts face down in a war, 0 to 255 [default: the preset's, 1].
    #[arg(long, value_name = "N", value_parser = parse_setting)]
    face_down: Option<u32>,
    /// What a player short of cards in a war does: lose (drops out of the war),
    /// play-what-you-have, smaller-hand (two players) [default: the preset's].
    #[arg(long, value_name = "POLICY")]
    war_shortage: Option<String>,
    /// Order of won cards under the winner's pile: table, winner-first, loser-first, seats,
    /// reverse-seats, shuffled [default: the preset's].
    #[arg(long, value_name = "ORDER")]
    pickup: Option<String>,
    /// Where won cards go: under-pile, or heap (shuffled in when the pile runs out)
    /// [default: the preset's].
    #[arg(long, value_name = "WHERE")]
    spoils: Option<String>,
    /// Reshuffle every player's pile after every N rounds, 0 = never [default: the preset's].
    #[arg(long, value_name = "N", value_parser = parse_setting)]
    reshuffle_every: Option<u32>,
    /// Round cap: a game still going after this many rounds stops
    /// [default: the preset's, 100000; 5000 for game-of-war].
    #[arg(long, value_name = "M", value_parser = parse_setting)]
    max_rounds: Option<u32>,
    /// What the cap decides: capped (nobody), or larger-pile (two players; equal piles play
    /// one sudden-death round) [default: the preset's].
    #[arg(long, value_name = "RULE")]
    at_cap: Option<String>,
}

#[derive(Args, Debug)]
#[command(after_help = RUN_AFTER_HELP, allow_negative_numbers = true)]
struct RunArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Games to play: 1000000, 1_000_000 and 1e6 are all accepted.
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_count)]
    games: u64,
    /// Base seed, 0 to 18446744073709551615 (same forms as --games); the same seed and rules
    /// give the same results on any machine.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_count)]
    seed: u64,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Write one CSV row per game, in game order, to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    csv: Option<String>,
    /// Write the summary as a one-row CSV to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    summary: Option<String>,
    /// Write the summary as JSON to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    json: Option<String>,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(short, long)]
    quiet: bool,
}

impl RuleArgs {
    /// The preset's rules with every given setting applied; refuses settings the preset's
    /// family cannot take.
    fn into_rules(self, default: Preset) -> Result<Rules, ConfigError> {
        let preset = match &self.rules {
            None => default,
            Some(name) => Preset::from_name(name).ok_or_else(|| ConfigError::UnknownRules {
                given: name.clone(),
                known: Preset::names(),
            })?,
        };
        let mut rules = preset.rules();
        let refuse = |setting: Setting, given: bool| match rules.family.refuses(setting) {
            Some(reason) if given => Err(ConfigError::NotApplicable {
                flag: setting.flag(),
                preset: preset.name().to_string(),
                reason,
            }),
            _ => Ok(()),
        };
        refuse(Setting::FaceDown, self.face_down.is_some())?;
        refuse(Setting::Shortage, self.war_shortage.is_some())?;
        refuse(Setting::Pickup, self.pickup.is_some())?;
        refuse(Setting::Spoils, self.spoils.is_some())?;
        refuse(Setting::ReshuffleEvery, self.reshuffle_every.is_some())?;
        refuse(Setting::MaxRounds, self.max_rounds.is_some())?;
        refuse(Setting::AtCap, self.at_cap.is_some())?;
        rules.players = self.players.unwrap_or(rules.players);
        rules.suits = self.suits.unwrap_or(rules.suits);
        rules.ranks = self.ranks.unwrap_or(rules.ranks);
        rules.face_down = self.face_down.unwrap_or(rules.face_down);
        rules.shortage =
            named("--war-shortage", self.war_shortage.as_deref())?.unwrap_or(rules.shortage);
        rules.pickup = named("--pickup", self.pickup.as_deref())?.unwrap_or(rules.pickup);
        rules.spoils = named("--spoils", self.spoils.as_deref())?.unwrap_or(rules.spoils);
        rules.reshuffle_every = self.reshuffle_every.unwrap_or(rules.reshuffle_every);
        rules.max_rounds = self.max_rounds.unwrap_or(rules.max_rounds);
        rules.at_cap = named("--at-cap", self.at_cap.as_deref())?.unwrap_or(rules.at_cap);
        rules.validate()?;
        Ok(rules)
    }
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
            seed: self.seed,
            threads,
            csv: self.csv.as_deref().map(Target::parse),
            summary: self.summary.as_deref().map(Target::parse),
            json: self.json.as_deref().map(Target::parse),
            quiet: self.quiet,
        };
        options.validate()?;
        Ok(options)
    }
}

/// The value of a named setting, if given.
fn named<T: Named>(flag: &'static str, given: Option<&str>) -> Result<Option<T>, ConfigError> {
    given
        .map(|text| {
            T::from_name(text).ok_or_else(|| ConfigError::UnknownValue {
                flag,
                given: text.to_string(),
                allowed: T::names(),
            })
        })
        .transpose()
}

fn parse_threads(text: &str) -> Result<usize, String> {
    parse_setting(text).map(|n| n as usize)
}

/// `warsim rules [NAME]`: bad names exit 2, a closed pipe 0, a failed write 1.
fn show_rules_command(name: Option<&str>) -> ExitCode {
    let presets: Vec<Preset> = match name {
        None => Preset::ALL.to_vec(),
        Some(name) => match Preset::from_name(name) {
            Some(preset) => vec![preset],
            None => {
                let error = ConfigError::UnknownRules {
                    given: name.to_string(),
                    known: Preset::names(),
                };
                report_error(&error);
                return ExitCode::from(2);
            }
        },
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write_rules(&presets, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // The buffer holds what could not be written: drop it rather than retry on exit.
            std::mem::forget(out);
            report_error(&format!(
                "could not write the rules to standard output: {e}"
            ));
            ExitCode::FAILURE
        }
    }
}

fn write_rules(presets: &[Preset], out: &mut dyn Write) -> std::io::Result<()> {
    for &preset in presets {
        let r = preset.rules();
        writeln!(out, "{}\n  {}", preset.name(), preset.description())?;
        writeln!(out, "  {}", r.describe())?;
        if let Some(why) = preset.two_players_only() {
            writeln!(out, "  two players only: {why}")?;
        }
        let refused: Vec<&str> = [
            Setting::FaceDown,
            Setting::Shortage,
            Setting::Pickup,
            Setting::Spoils,
            Setting::ReshuffleEvery,
            Setting::MaxRounds,
            Setting::AtCap,
        ]
        .into_iter()
        .filter(|s| r.family.refuses(*s).is_some())
        .map(Setting::flag)
        .collect();
        if !refused.is_empty() {
            writeln!(out, "  does not take: {}", refused.join(" "))?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "Limits: 2 to {MAX_PLAYERS} players, 1 to {MAX_RANKS} ranks, at most {MAX_CARDS} cards (suits × ranks)."
    )
}

/// Entry point of the `warsim` binary.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return clap_failure(error),
    };
    let result = match cli.command {
        Command::Rules { name } => return show_rules_command(name.as_deref()),
        Command::Run(args) => args.into_options().map_err(RunError::from).and_then(|o| {
            let interrupt = Interrupt::install().ok();
            run(&o, interrupt.as_ref())
        }),
        Command::Play(args) => return play::play_command(*args),
    };
    match result {
        Ok(RunEnd::Complete) => ExitCode::SUCCESS,
        Ok(RunEnd::Interrupted(status)) => ExitCode::from(status),
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            report_error(&error);
            match error {
                RunError::Config(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

/// Prints `error: MESSAGE` as exactly one line: control characters a user typed into a value
/// (a newline, a tab) are shown escaped, so a message can never spill onto a second line.
pub(crate) fn report_error(message: &dyn std::fmt::Display) {
    let text: String = message
        .to_string()
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    eprintln!("error: {text}");
}

/// Help and version print as clap renders them; errors print as one line, exit 2.
fn clap_failure(error: clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(error.exit_code() as u8)
        }
        _ => {
            let text = error.to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("error: invalid arguments");
            let message = first.trim_end();
            report_error(&format!(
                "{} (see 'warsim --help')",
                message.strip_prefix("error: ").unwrap_or(message)
            ));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
