//! State files (`warsim run --state PATH`): what a run played and every count of its statistics,
//! exactly, as versioned JSON, so that the states of a batch's shards merge into the figures of
//! the whole run (`warsim merge`); a sweep's state holds one such state per cell. See the
//! README's "State files" for the format.

use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, RuleChoice, preset_named};
use crate::engine::Rules;
use crate::engine::rules::{Named, Setting};
use crate::export::RunInfo;
use crate::stats::{Stats, StatsParts};

mod enumeration;
mod lock;
mod read;
mod sweep;

pub use enumeration::{CycleState, ENUMERATION_FORMAT, EnumerationState, LongestState, TallyState};
pub use lock::{StateLock, WhenHeld, check_apart_from_locks_of, check_outputs_beside_state};
pub use read::{AnyState, head_refusal};
pub use sweep::{GridCell, SWEEP_FORMAT, SkippedState, SweepState};

/// What the `format` key holds.
pub const FORMAT: &str = "warsim-state";
/// The format's version: a reader refuses any other.
pub const FORMAT_VERSION: u32 = 1;

/// Writes a state of any kind as pretty JSON, ending its last line.
fn write_pretty(out: &mut dyn io::Write, state: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, state).map_err(io::Error::from)?;
    writeln!(out)
}

/// The rules as their settings' names, enough to rebuild them exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSettings {
    /// The preset.
    pub rules: String,
    /// Players, suits and ranks.
    pub players: u32,
    /// Suits in the deck.
    pub suits: u32,
    /// Ranks per suit.
    pub ranks: u32,
    /// `--face-down`, `--war-shortage`, … as given to `run` (only the settings the preset's
    /// family takes).
    pub settings: Vec<(String, String)>,
}

/// One state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The warsim that wrote it.
    pub warsim_version: String,
    /// The rules of every game.
    pub rules: RuleSettings,
    /// Base seed.
    pub seed: u64,
    /// Games in the whole batch.
    pub batch_games: u64,
    /// The first game of the part this run was to play, and how many games that part holds.
    pub first_game: u64,
    /// Games of the part asked for.
    pub games_requested: u64,
    /// Games played: `first_game` to `first_game + games - 1`.
    pub games: u64,
    /// Wall time in seconds and worker threads (how the run went: not merged exactly).
    pub wall_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// Every count of the statistics.
    pub stats: StatsParts,
    /// What `warsim resume` needs to continue the run (a checkpoint of a run with `--state`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Resumable>,
}

/// How to continue a checkpointed run: its command line, the folder it ran in, and where its
/// per-game CSV stood.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resumable {
    /// The run's arguments after `warsim` (`run`, then its flags).
    pub command: Vec<String>,
    /// The folder it ran in: its paths are relative to it. A name that is not UTF-8 is
    /// written with U+FFFD in place of its bytes, and `cwd_base64` holds it exactly.
    pub cwd: String,
    /// The folder's name byte for byte in base64, where it is not UTF-8 (a state file is
    /// text): the folder `warsim resume` enters and `--continue` compares with its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd_base64: Option<String>,
    /// Bytes of the per-game CSV that hold the checkpoint's games (0 without a CSV).
    pub csv_bytes: u64,
    /// The CSV's last row at the checkpoint, newline included (empty without one): a resumed
    /// run checks that the file still ends so there.
    pub csv_tail: String,
}

impl Resumable {
    /// This process's folder as a checkpoint records it, `(cwd, cwd_base64)`: its name as
    /// text (empty if it cannot be read) and, where that text is not the name, its bytes.
    pub fn this_folder() -> (String, Option<String>) {
        use base64::Engine;
        use std::os::unix::ffi::OsStrExt;
        match std::env::current_dir() {
            Ok(dir) => {
                let exact = dir.to_str().is_none();
                let bytes = exact.then(|| BASE64.encode(dir.as_os_str().as_bytes()));
                (dir.display().to_string(), bytes)
            }
            Err(_) => (String::new(), None),
        }
    }

    /// Whether the checkpoint ran in this process's folder: the same name, byte for byte.
    pub fn ran_here(&self) -> bool {
        self.ran_in(Self::this_folder())
    }

    /// Whether the checkpoint ran in the folder recorded as `(cwd, cwd_base64)`. A state written
    /// before `cwd_base64` was kept holds only the text: it matches by the text, as then.
    fn ran_in(&self, (cwd, bytes): (String, Option<String>)) -> bool {
        cwd == self.cwd && (bytes == self.cwd_base64 || self.cwd_base64.is_none())
    }

    /// The folder the checkpoint ran in, exactly; an error naming the key if its bytes are not
    /// base64.
    pub fn folder(&self) -> Result<PathBuf, String> {
        use base64::Engine;
        use std::os::unix::ffi::OsStringExt;
        match &self.cwd_base64 {
            None => Ok(PathBuf::from(&self.cwd)),
            Some(text) => BASE64
                .decode(text)
                .map(|bytes| PathBuf::from(std::ffi::OsString::from_vec(bytes)))
                .map_err(|e| format!("its resume.cwd_base64 is not base64 ({e})")),
        }
    }

    /// The folder as messages name it: as recorded, or quoted with its bytes that are not
    /// UTF-8 escaped (`"/data/caf\xE9"`).
    pub fn folder_text(&self) -> String {
        match (&self.cwd_base64, self.folder()) {
            (Some(_), Ok(folder)) => format!("{:?}", folder.as_os_str()),
            _ => self.cwd.clone(),
        }
    }
}

/// Standard base64 with padding, as `cwd_base64` holds a folder's bytes.
const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The settings of the rules, by flag, that the preset's family takes.
fn settings_of(rules: &Rules) -> Vec<(String, String)> {
    let all: [(Setting, String); 11] = [
        (Setting::FaceDown, rules.face_down.to_string()),
        (Setting::Shortage, rules.shortage.name().to_string()),
        (Setting::Pickup, rules.pickup.name().to_string()),
        (Setting::Spoils, rules.spoils.name().to_string()),
        (Setting::ReshuffleEvery, rules.reshuffle_every.to_string()),
        (Setting::MaxRounds, rules.max_rounds.to_string()),
        (Setting::AtCap, rules.at_cap.name().to_string()),
        (Setting::Shuffle, rules.shuffle.name().to_string()),
        (Setting::Champion, rules.champion.name().to_string()),
        (Setting::AbandonAfter, rules.abandon_after.to_string()),
        (Setting::GroupOrder, rules.group_order.name().to_string()),
    ];
    all.into_iter()
        .filter(|(setting, _)| rules.family.refuses(*setting).is_none())
        .map(|(setting, value)| (setting.flag().to_string(), value))
        .collect()
}

impl State {
    /// The state of a run.
    pub fn of_run(info: &RunInfo, stats: &Stats) -> State {
        let r = &info.rules;
        State {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            warsim_version: env!("CARGO_PKG_VERSION").to_string(),
            rules: RuleSettings::of(r),
            seed: info.seed,
            batch_games: info.shard.map_or(info.games_requested, |(_, games)| games),
            first_game: info.first_game,
            games_requested: info.games_requested,
            games: stats.games,
            wall_seconds: info.elapsed.as_secs_f64(),
            threads: info.threads,
            stats: stats.parts(),
            resume: None,
        }
    }

    /// Writes the state as JSON.
    pub fn write(&self, out: &mut dyn io::Write) -> io::Result<()> {
        write_pretty(out, self)
    }

    /// Reads and checks a state's JSON text (its format already checked).
    fn from_json(text: &[u8]) -> Result<State, String> {
        let state: State = serde_json::from_slice(text).map_err(|e| format!("is damaged: {e}"))?;
        match state.damage() {
            Some(damage) => Err(format!("is damaged: {damage}")),
            None => Ok(state),
        }
    }

    /// What is wrong with the state's numbers, if anything: the games played must lie within
    /// the part asked for, that part within the batch (an edited `first_game` must not wrap
    /// round or reach past the batch's end), the statistics count the games played, and the
    /// wall time is a number of seconds.
    fn damage(&self) -> Option<&'static str> {
        let part_end = self.first_game.checked_add(self.games_requested);
        if self.games > self.games_requested
            || part_end.is_none_or(|end| end > self.batch_games)
            || self.stats.games != self.games
        {
            Some("its game counts disagree")
        } else if !(self.wall_seconds.is_finite() && self.wall_seconds >= 0.0) {
            Some("its wall time is not a number of seconds")
        } else {
            None
        }
    }

    /// The rules the state records, rebuilt as `run` builds them from its flags.
    pub fn rules(&self) -> Result<Rules, String> {
        self.rules.rules()
    }

    /// The statistics the state records.
    pub fn stats(&self, rules: &Rules) -> Result<Stats, String> {
        // Counts of wins for other seats than the rules' would be added up as if they were.
        let seats = self.stats.wins_by_seat.len();
        if seats != rules.players as usize {
            return Err(format!(
                "is damaged: it counts wins for {seats} seats, and its rules seat {}",
                rules.players
            ));
        }
        Stats::from_parts(&self.stats, rules.most_rounds(), rules.max_rounds)
            .map_err(|e| format!("is damaged: {e}"))
    }
}

impl RuleSettings {
    /// The settings of `rules`.
    pub fn of(r: &Rules) -> RuleSettings {
        RuleSettings {
            rules: r.preset.name().to_string(),
            players: r.players,
            suits: r.suits,
            ranks: r.ranks,
            settings: settings_of(r),
        }
    }

    /// The rules, rebuilt as `run` builds them from its flags.
    pub fn rules(&self) -> Result<Rules, String> {
        let r = self;
        let rebuilt = (|| -> Result<Rules, ConfigError> {
            let mut choice = RuleChoice {
                preset: Some(preset_named(&r.rules)?),
                players: Some(r.players),
                suits: Some(r.suits),
                ranks: Some(r.ranks),
                ..RuleChoice::default()
            };
            // A flag that is not a rule's is left out here, and refused below: the rules
            // rebuilt do not record it.
            for (flag, value) in &r.settings {
                choice.set_flag(flag, value)?;
            }
            choice.rules(crate::engine::Preset::Classic)
        })();
        let rules = rebuilt.map_err(|e| format!("records rules warsim cannot play: {e}"))?;
        if settings_of(&rules) != r.settings {
            return Err("records rules warsim cannot rebuild exactly".to_string());
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    #[test]
    fn recorded_rules_rebuild_exactly_and_edited_ones_are_refused() {
        let mut r = Preset::Classic.rules();
        (r.players, r.face_down) = (3, 2);
        let recorded = RuleSettings::of(&r);
        assert_eq!(recorded.rules(), Ok(r));
        let edit = |flag: &str, value: &str| {
            let mut edited = recorded.clone();
            edited.settings.push((flag.to_string(), value.to_string()));
            edited.rules()
        };
        // An unknown value, a setting out of place, a flag that is no rule's.
        assert!(
            edit("--pickup", "bogus")
                .unwrap_err()
                .contains("cannot play")
        );
        assert!(
            edit("--players", "4")
                .unwrap_err()
                .contains("cannot rebuild exactly")
        );
        assert!(
            edit("--seed", "4")
                .unwrap_err()
                .contains("cannot rebuild exactly")
        );
    }

    #[test]
    fn a_folder_not_named_in_utf8_is_kept_byte_for_byte() {
        let resumable = |cwd: &str, bytes: Option<&str>| Resumable {
            command: Vec::new(),
            cwd: cwd.to_string(),
            cwd_base64: bytes.map(str::to_string),
            csv_bytes: 0,
            csv_tail: String::new(),
        };
        // "/caf\xE9" in base64; its text form alone could be "/caf\xE8" too.
        let latin = resumable("/caf\u{FFFD}", Some("L2NhZuk="));
        assert_eq!(
            latin.folder().unwrap().as_os_str().as_encoded_bytes(),
            b"/caf\xE9"
        );
        assert_eq!(latin.folder_text(), r#""/caf\xE9""#);
        let utf8 = resumable("/café", None);
        assert_eq!(utf8.folder().unwrap(), PathBuf::from("/café"));
        assert_eq!(utf8.folder_text(), "/café");
        // The twin folder's bytes differ; a state from before the bytes were kept matches by
        // its text, as it did then.
        let here = |bytes: &str| ("/caf\u{FFFD}".to_string(), Some(bytes.to_string()));
        assert!(latin.ran_in(here("L2NhZuk=")));
        assert!(!latin.ran_in(here("L2NhZug=")));
        assert!(resumable("/caf\u{FFFD}", None).ran_in(here("L2NhZug=")));
        assert!(utf8.ran_in(("/café".to_string(), None)));
        assert!(!utf8.ran_in(("/cafe".to_string(), None)));
        let edited = resumable("/caf\u{FFFD}", Some("not base64!"));
        assert!(
            edited
                .folder()
                .unwrap_err()
                .contains("cwd_base64 is not base64")
        );
        assert_eq!(edited.folder_text(), "/caf\u{FFFD}");
    }
}
