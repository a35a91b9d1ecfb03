//! `warsim sweep`'s flags: every rule flag of `run` taking a comma list or a range, the counts
//! and outputs of `run`, and the sweep's own tables; turned into plain [`SweepOptions`].

use clap::Args;

use super::parse_threads;
use super::rules::defaults_of;
use crate::batch::Shard;
use crate::config::{ConfigError, parse_count, parse_seconds, parse_shard};
use crate::engine::rules::{AtCap, Champion, GroupOrder, Named, Pickup, Shortage, Shuffle, Spoils};
use crate::engine::{MAX_CARDS, MAX_PLAYERS, MAX_RANKS, Preset};
use crate::export::Target;
use crate::sweep::{Grid, SweepOptions};

pub(super) const SWEEP_AFTER_HELP: &str = "\
Every rule flag takes one value, a comma list (2,3,4) or an inclusive range (6..13, or 2..32..2
with a step); the sweep plays every combination, the last flag varying fastest. Each cell is
played exactly as 'warsim run' with its settings and the same --games and --seed, so its figures
equal that run's. Flags not given keep the preset's values.

Examples:
  warsim sweep --players 2..6 --ranks 6..13 --games 1e5 --csv cells.csv --seats seats.csv
  warsim sweep --pickup table,shuffled --face-down 0..3 --histogram lengths.csv
  warsim sweep --suits 1..8 --ranks 2..13 --games 1e4 --skip-invalid --plot medians.svg
  warsim sweep --rules classic,war-card-game,cards-war --games 1e6 --json sweep.json";

fn values_help(what: &str, values: String, flag: &str) -> String {
    format!("{what}: a comma list of {values} {}", defaults_of(flag))
}

/// The rule flags, each a list or range of values (checked when the grid is built).
#[derive(Args, Debug)]
pub(super) struct SweepRuleArgs {
    #[arg(long, value_name = "NAMES",
        help = format!("Rule presets: a comma list of {} [default: classic]", Preset::names()))]
    rules: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Players at the table: a list or range within 2 to {MAX_PLAYERS} (e.g. 2..6) {}", defaults_of("--players")))]
    players: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Suits in the deck: a list or range (e.g. 1..8); suits × ranks at most {MAX_CARDS} {}", defaults_of("--suits")))]
    suits: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Ranks per suit: a list or range within 1 to {MAX_RANKS} (e.g. 6..13) {}", defaults_of("--ranks")))]
    ranks: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Cards put face down in a war: a list or range within 0 to 255 {}", defaults_of("--face-down")))]
    face_down: Option<String>,
    #[arg(long, value_name = "POLICIES", help = values_help("War shortage policies", Shortage::names(), "--war-shortage"))]
    war_shortage: Option<String>,
    #[arg(long, value_name = "ORDERS", help = values_help("Pickup orders", Pickup::names(), "--pickup"))]
    pickup: Option<String>,
    #[arg(long, value_name = "WHERE", help = values_help("Where won cards go", Spoils::names(), "--spoils"))]
    spoils: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Reshuffle periods in rounds (0 = never): a list or range {}", defaults_of("--reshuffle-every")))]
    reshuffle_every: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Round caps: a list or range within 1 to 4294967294; use 1e4 or 10_000, not 10,000 (commas separate values) {}", defaults_of("--max-rounds")))]
    max_rounds: Option<String>,
    #[arg(long, value_name = "RULES", help = values_help("What the cap decides", AtCap::names(), "--at-cap"))]
    at_cap: Option<String>,
    #[arg(long, value_name = "METHODS", help = values_help("Shuffle methods", Shuffle::names(), "--shuffle"))]
    shuffle: Option<String>,
    #[arg(long, value_name = "WHENS", help = values_help("When a war-simulator fighter shows its champion", Champion::names(), "--champion"))]
    champion: Option<String>,
    #[arg(long, value_name = "ORDERS", help = values_help("The order war-simulator settles a round's groups in", GroupOrder::names(), "--group-order"))]
    group_order: Option<String>,
    #[arg(long, value_name = "LIST",
        help = format!("Rounds in a row without a winner after which a war-simulator game is abandoned (0 = never): a list or range {}", defaults_of("--abandon-after")))]
    abandon_after: Option<String>,
}

impl SweepRuleArgs {
    fn given(self) -> Vec<(&'static str, String)> {
        [
            ("--rules", self.rules),
            ("--players", self.players),
            ("--suits", self.suits),
            ("--ranks", self.ranks),
            ("--face-down", self.face_down),
            ("--war-shortage", self.war_shortage),
            ("--pickup", self.pickup),
            ("--spoils", self.spoils),
            ("--reshuffle-every", self.reshuffle_every),
            ("--max-rounds", self.max_rounds),
            ("--at-cap", self.at_cap),
            ("--shuffle", self.shuffle),
            ("--champion", self.champion),
            ("--group-order", self.group_order),
            ("--abandon-after", self.abandon_after),
        ]
        .into_iter()
        .filter_map(|(flag, text)| text.map(|t| (flag, t)))
        .collect()
    }
}

#[derive(Args, Debug)]
pub(super) struct SweepArgs {
    #[command(flatten)]
    rules: SweepRuleArgs,
    /// Skip the combinations a preset cannot take (listed in the report) instead of refusing
    /// the sweep.
    #[arg(long)]
    skip_invalid: bool,
    /// Games per cell: 1000000, 1_000_000 and 1e6 are all accepted.
    #[arg(long, value_name = "N", default_value = "100000", value_parser = parse_count)]
    games: u64,
    /// Base seed of every cell, 0 to 18446744073709551615 (same forms as --games).
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_count)]
    seed: u64,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Play only part K of N of every cell's games (K from 0, as Slurm's array task ids): games
    /// ⌊K·G/N⌋ to ⌊(K+1)·G/N⌋ − 1 of each; `warsim merge` joins the shards' --state files.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Write every cell's exact, mergeable statistics as a sweep state file (versioned JSON) to
    /// PATH, for `warsim merge` ('-' = stdout). A sweep holds PATH.lock while it writes the
    /// file: another warsim given it is refused.
    #[arg(long, value_name = "PATH")]
    state: Option<String>,
    #[command(flatten)]
    checkpoints: super::continuing::CheckpointArgs,
    /// Write the table of cells to PATH ('-' = stdout): one row per cell, the swept settings,
    /// then every summary key of 'warsim run --summary' but the per-seat ones.
    #[arg(long, visible_alias = "summary", value_name = "PATH")]
    csv: Option<String>,
    /// Write the table of seats to PATH ('-' = stdout): one row per cell and seat
    /// (cell, the swept settings, seat, wins, win_share, ci95_low, ci95_high).
    #[arg(long, value_name = "PATH")]
    seats: Option<String>,
    /// Write every cell's summary, and the skipped combinations, as JSON to PATH ('-' = stdout).
    #[arg(long, value_name = "PATH")]
    json: Option<String>,
    /// Write every cell's length distribution, exact per round, as one CSV to PATH ('-' =
    /// stdout): cell, the swept settings, rounds, games, share, cumulative, survival.
    #[arg(long, value_name = "PATH")]
    histogram: Option<String>,
    /// Write every cell's length histogram as an HdrHistogram interval log to PATH ('-' =
    /// stdout): one interval per cell, tagged with its settings.
    #[arg(long, value_name = "PATH")]
    hdr: Option<String>,
    /// Write one row per game of every cell to PATH ('-' = stdout): cell, the swept settings,
    /// then the columns of 'warsim run --csv'.
    #[arg(long, value_name = "PATH")]
    games_csv: Option<String>,
    /// Write the rows of --games-csv as Apache Parquet to PATH ('-' = stdout): typed,
    /// compressed columns, the swept settings first.
    #[arg(long, value_name = "PATH")]
    parquet: Option<String>,
    /// Draw the medians as SVG to PATH ('-' = stdout): over one swept setting the median with
    /// the p10–p90 band, over two a heatmap, over more one line per combination (at most 8);
    /// named values (rules, pickup orders, …) as points apart, not joined by lines.
    #[arg(long, value_name = "PATH")]
    plot: Option<String>,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(short, long)]
    quiet: bool,
    /// Seconds a round takes at a real table, 0.001 to 86400: the report adds each cell's median
    /// as a duration.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    seconds_per_round: Option<f64>,
}

impl SweepArgs {
    pub(super) fn into_options(self) -> Result<SweepOptions, ConfigError> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let target = |text: Option<String>| text.as_deref().map(Target::parse);
        let options = SweepOptions {
            grid: Grid::parse(&self.rules.given())?,
            skip_invalid: self.skip_invalid,
            games: self.games,
            seed: self.seed,
            shard: self.shard,
            threads,
            csv: target(self.csv),
            seats: target(self.seats),
            json: target(self.json),
            histogram: target(self.histogram),
            hdr: target(self.hdr),
            games_csv: target(self.games_csv),
            parquet: target(self.parquet),
            plot: target(self.plot),
            state: target(self.state),
            checkpoint_every: self.checkpoints.checkpoint_every,
            continue_from_state: self.checkpoints.continue_from_state,
            command: super::command_line(),
            resume: None,
            quiet: self.quiet,
            seconds_per_round: self.seconds_per_round,
        };
        options.validate()?;
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::super::{Cli, Command};
    use super::SWEEP_AFTER_HELP;

    #[test]
    fn every_help_example_is_a_valid_sweep() {
        let examples: Vec<&str> = SWEEP_AFTER_HELP
            .lines()
            .filter_map(|line| line.trim().strip_prefix("warsim "))
            .collect();
        assert_eq!(examples.len(), 4);
        for example in examples {
            let args = std::iter::once("warsim").chain(example.split_whitespace());
            let cli = Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{example}: {e}"));
            let Command::Sweep(sweep) = cli.command else {
                panic!("{example}: not a sweep");
            };
            if let Err(error) = sweep.into_options() {
                panic!("{example}: {error}");
            }
        }
    }
}
