//! The rule flags `run`, `play` and `rules` share, turned into engine [`Rules`], and
//! `warsim rules`.
//! Help texts and possible values come from the engine's own presets and names, so the
//! command line never keeps a second list that could drift.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use clap::builder::PossibleValuesParser;

use super::report_error;
use crate::config::{ConfigError, RuleChoice, named, preset_named, setting_parser};
use crate::engine::rules::{
    AtCap, Champion, GroupOrder, Named, Pickup, Setting, Shortage, Shuffle, Spoils,
};
use crate::engine::{MAX_CARDS, MAX_PLAYERS, MAX_RANKS, Preset, Rules};

/// The values a named setting takes, for clap to check, list in help and complete.
pub(super) fn possible<T: Named>() -> PossibleValuesParser {
    PossibleValuesParser::new(T::ALL.iter().map(|value| value.name()))
}

/// Each preset's default of a setting, grouped: `1 (classic, war-card-game), 3 (game-of-war)`.
/// Presets whose family refuses the setting are left out.
fn preset_defaults(setting: Option<Setting>, value: impl Fn(&Rules) -> String) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for &preset in Preset::ALL {
        let rules = preset.rules();
        if setting.is_some_and(|s| rules.family.refuses(s).is_some()) {
            continue;
        }
        let shown = value(&rules);
        match groups.iter_mut().find(|(v, _)| *v == shown) {
            Some((_, presets)) => presets.push(preset.name()),
            None => groups.push((shown, vec![preset.name()])),
        }
    }
    let parts: Vec<String> = groups
        .into_iter()
        .map(|(value, presets)| format!("{value} ({})", presets.join(", ")))
        .collect();
    format!("[default: the preset's: {}]", parts.join("; "))
}

/// The presets' defaults of the rule flag `flag` (`--players`), as its help ends, for `run`,
/// `play` and `sweep` alike.
pub(super) fn defaults_of(flag: &str) -> String {
    match flag {
        "--players" => preset_defaults(None, |r| r.players.to_string()),
        "--suits" => preset_defaults(None, |r| r.suits.to_string()),
        "--ranks" => preset_defaults(None, |r| r.ranks.to_string()),
        "--face-down" => preset_defaults(Some(Setting::FaceDown), |r| r.face_down.to_string()),
        "--war-shortage" => preset_defaults(Some(Setting::Shortage), |r| r.shortage.to_string()),
        "--pickup" => preset_defaults(Some(Setting::Pickup), |r| r.pickup.to_string()),
        "--spoils" => preset_defaults(Some(Setting::Spoils), |r| r.spoils.to_string()),
        "--reshuffle-every" => preset_defaults(Some(Setting::ReshuffleEvery), |r| {
            r.reshuffle_every.to_string()
        }),
        "--max-rounds" => preset_defaults(Some(Setting::MaxRounds), |r| r.max_rounds.to_string()),
        "--at-cap" => preset_defaults(Some(Setting::AtCap), |r| r.at_cap.to_string()),
        "--shuffle" => preset_defaults(Some(Setting::Shuffle), |r| r.shuffle.to_string()),
        "--champion" => preset_defaults(Some(Setting::Champion), |r| r.champion.to_string()),
        "--abandon-after" => {
            preset_defaults(Some(Setting::AbandonAfter), |r| r.abandon_after.to_string())
        }
        "--group-order" => {
            preset_defaults(Some(Setting::GroupOrder), |r| r.group_order.to_string())
        }
        _ => unreachable!("{flag} is no rule flag"),
    }
}

fn help(text: &str, flag: &str) -> String {
    format!("{text} {}", defaults_of(flag))
}

/// The rule flags `run`, `play` and `rules` share. Every default is the preset's; help lists each
/// preset's, generated from the presets themselves.
#[derive(Args, Debug)]
pub(super) struct RuleArgs {
    #[arg(long, value_name = "NAME", value_parser = possible::<Preset>(), ignore_case = true,
        help = "Rule preset; the settings below override it (see 'warsim rules NAME') [default: classic]")]
    rules: Option<String>,
    #[arg(long, value_name = "N", value_parser = setting_parser("--players"),
        help = help(&format!("Players at the table, 2 to {MAX_PLAYERS}"), "--players"))]
    players: Option<u32>,
    #[arg(long, value_name = "S", value_parser = setting_parser("--suits"),
        help = help(&format!("Suits in the deck (fixed-rounds: copies of each value); suits × ranks at most {MAX_CARDS}"), "--suits"))]
    suits: Option<u32>,
    #[arg(long, value_name = "R", value_parser = setting_parser("--ranks"),
        help = help(&format!("Ranks per suit, 1 to {MAX_RANKS} (fixed-rounds: values per deck)"), "--ranks"))]
    ranks: Option<u32>,
    #[arg(long, value_name = "N", value_parser = setting_parser("--face-down"),
        help = help("Cards each player puts face down in a war, 0 to 255", "--face-down"))]
    face_down: Option<u32>,
    #[arg(long, value_name = "POLICY", value_parser = possible::<Shortage>(), ignore_case = true,
        help = help("What a player short of cards in a war does: lose (drops out of the war), play-what-you-have, smaller-hand (two players), end-game (the game ends; the larger hand wins), lose-when-empty (kbWar)", "--war-shortage"))]
    war_shortage: Option<String>,
    #[arg(long, value_name = "ORDER", value_parser = possible::<Pickup>(), ignore_case = true,
        help = help("Order of won cards under the winner's pile (natural: the pot turned over, each step highest first; reversed: the pot as laid, turned over; alternating: as laid one card at a time in turn)", "--pickup"))]
    pickup: Option<String>,
    #[arg(long, value_name = "WHERE", value_parser = possible::<Spoils>(), ignore_case = true,
        help = help("Where won cards go: under the pile, or onto a heap that becomes the pile when it runs out, shuffled (heap) or as it lies (heap-unshuffled)", "--spoils"))]
    spoils: Option<String>,
    #[arg(long, value_name = "N", value_parser = setting_parser("--reshuffle-every"),
        help = help("Reshuffle every player's pile after every N rounds, 0 = never", "--reshuffle-every"))]
    reshuffle_every: Option<u32>,
    #[arg(long, value_name = "M", value_parser = setting_parser("--max-rounds"),
        help = help("Round cap, 1 to 4294967294: a game still going after this many rounds stops", "--max-rounds"))]
    max_rounds: Option<u32>,
    #[arg(long, value_name = "RULE", value_parser = possible::<AtCap>(), ignore_case = true,
        help = help("What the cap decides: capped (nobody), or larger-pile (two players; equal piles play one sudden-death round)", "--at-cap"))]
    at_cap: Option<String>,
    #[arg(long, value_name = "METHOD", value_parser = possible::<Shuffle>(), ignore_case = true,
        help = help("How every shuffle orders the cards (deck, heaps, reshuffles): fisher-yates (uniform), sattolo (WarSimulator's: no card stays in place), swap-any (Game-of-War's reshuffle: each card swapped with any)", "--shuffle"))]
    shuffle: Option<String>,
    #[arg(long, value_name = "WHEN", value_parser = possible::<Champion>(), ignore_case = true,
        help = help("When a war-simulator fighter shows its champion: last (after its stakes, the description) or first (before them, the original's code)", "--champion"))]
    champion: Option<String>,
    #[arg(long, value_name = "N", value_parser = setting_parser("--abandon-after"),
        help = help("Abandon a war-simulator game after N rounds in a row without a round winner, outcome abandoned (WarSimulator's code: 100), 0 = never", "--abandon-after"))]
    abandon_after: Option<u32>,
    #[arg(long, value_name = "ORDER", value_parser = possible::<GroupOrder>(), ignore_case = true,
        help = help("The order in which war-simulator settles a round's groups of equal cards and collects them: highest-first, or as-shown (the ranks in the order first shown, the original's code)", "--group-order"))]
    group_order: Option<String>,
}

impl RuleArgs {
    /// The settings given, names resolved.
    pub(super) fn choice(self) -> Result<RuleChoice, ConfigError> {
        Ok(RuleChoice {
            preset: self.rules.as_deref().map(preset_named).transpose()?,
            players: self.players,
            suits: self.suits,
            ranks: self.ranks,
            face_down: self.face_down,
            shortage: named("--war-shortage", self.war_shortage.as_deref())?,
            pickup: named("--pickup", self.pickup.as_deref())?,
            spoils: named("--spoils", self.spoils.as_deref())?,
            reshuffle_every: self.reshuffle_every,
            max_rounds: self.max_rounds,
            at_cap: named("--at-cap", self.at_cap.as_deref())?,
            shuffle: named("--shuffle", self.shuffle.as_deref())?,
            champion: named("--champion", self.champion.as_deref())?,
            abandon_after: self.abandon_after,
            group_order: named("--group-order", self.group_order.as_deref())?,
        })
    }

    /// The preset's rules with every given setting applied; refuses settings the preset's
    /// family cannot take.
    pub(super) fn into_rules(self, default: Preset) -> Result<Rules, ConfigError> {
        self.choice()?.rules(default)
    }
}

/// `warsim rules [NAME] [RULE FLAGS]`: bad names and rule sets exit 2, a closed pipe 0, a
/// failed write 1. With rule flags, the one line `run` reports for those rules.
pub(super) fn show_rules_command(name: Option<&str>, settings: RuleArgs) -> ExitCode {
    let preset = match name.map(preset_named).transpose() {
        Ok(preset) => preset,
        Err(e) => {
            report_error(&e);
            return ExitCode::from(2);
        }
    };
    let chosen = settings.choice().and_then(|mut choice| {
        if choice == RuleChoice::default() {
            return Ok(None);
        }
        choice.preset = choice.preset.or(preset);
        choice.rules(Preset::Classic).map(Some)
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match chosen {
        Ok(Some(rules)) => writeln!(out, "{}", rules.describe()),
        Ok(None) => write_rules(&preset.map_or(Preset::ALL.to_vec(), |p| vec![p]), &mut out),
        Err(e) => {
            report_error(&e);
            return ExitCode::from(2);
        }
    };
    match written.and_then(|()| out.flush()) {
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
            Setting::Shuffle,
            Setting::Champion,
            Setting::AbandonAfter,
            Setting::GroupOrder,
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
