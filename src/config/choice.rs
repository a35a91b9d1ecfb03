//! The rule settings a user chose, before they are applied to a preset: what `run` and `play`
//! read from their flags, and what a sweep builds for each of its cells. Applying a choice is
//! the one place that refuses a setting the preset's family cannot take.

use crate::engine::rules::{
    AtCap, Champion, GroupOrder, Named, Pickup, Setting, Shortage, Shuffle, Spoils,
};
use crate::engine::{Preset, Rules};

use super::ConfigError;

/// Every rule flag, each `None` when not given (the preset's value then stands).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleChoice {
    /// `--rules`.
    pub preset: Option<Preset>,
    /// `--players`.
    pub players: Option<u32>,
    /// `--suits`.
    pub suits: Option<u32>,
    /// `--ranks`.
    pub ranks: Option<u32>,
    /// `--face-down`.
    pub face_down: Option<u32>,
    /// `--war-shortage`.
    pub shortage: Option<Shortage>,
    /// `--pickup`.
    pub pickup: Option<Pickup>,
    /// `--spoils`.
    pub spoils: Option<Spoils>,
    /// `--reshuffle-every`.
    pub reshuffle_every: Option<u32>,
    /// `--max-rounds`.
    pub max_rounds: Option<u32>,
    /// `--at-cap`.
    pub at_cap: Option<AtCap>,
    /// `--shuffle`.
    pub shuffle: Option<Shuffle>,
    /// `--champion`.
    pub champion: Option<Champion>,
    /// `--abandon-after`.
    pub abandon_after: Option<u32>,
    /// `--group-order`.
    pub group_order: Option<GroupOrder>,
}

impl RuleChoice {
    /// Sets the rule flag `flag` (`--rules`, `--players`, … `--group-order`) from its text;
    /// false, with nothing set, for a flag that is not a rule's. A number that does not parse is
    /// left unset (a sweep's grid and a state's settings checked theirs, or rebuild them).
    pub fn set_flag(&mut self, flag: &str, value: &str) -> Result<bool, ConfigError> {
        let number = || value.parse::<u32>().ok();
        match flag {
            "--rules" => self.preset = Some(preset_named(value)?),
            "--players" => self.players = number(),
            "--suits" => self.suits = number(),
            "--ranks" => self.ranks = number(),
            "--face-down" => self.face_down = number(),
            "--war-shortage" => self.shortage = Some(named_value("--war-shortage", value)?),
            "--pickup" => self.pickup = Some(named_value("--pickup", value)?),
            "--spoils" => self.spoils = Some(named_value("--spoils", value)?),
            "--reshuffle-every" => self.reshuffle_every = number(),
            "--max-rounds" => self.max_rounds = number(),
            "--at-cap" => self.at_cap = Some(named_value("--at-cap", value)?),
            "--shuffle" => self.shuffle = Some(named_value("--shuffle", value)?),
            "--champion" => self.champion = Some(named_value("--champion", value)?),
            "--abandon-after" => self.abandon_after = number(),
            "--group-order" => self.group_order = Some(named_value("--group-order", value)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The preset's rules (`default` when none was chosen) with every chosen setting applied;
    /// refuses settings the preset's family cannot take and values out of range.
    pub fn rules(&self, default: Preset) -> Result<Rules, ConfigError> {
        let preset = self.preset.unwrap_or(default);
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
        refuse(Setting::Shortage, self.shortage.is_some())?;
        refuse(Setting::Pickup, self.pickup.is_some())?;
        refuse(Setting::Spoils, self.spoils.is_some())?;
        refuse(Setting::ReshuffleEvery, self.reshuffle_every.is_some())?;
        refuse(Setting::MaxRounds, self.max_rounds.is_some())?;
        refuse(Setting::AtCap, self.at_cap.is_some())?;
        refuse(Setting::Shuffle, self.shuffle.is_some())?;
        refuse(Setting::Champion, self.champion.is_some())?;
        refuse(Setting::AbandonAfter, self.abandon_after.is_some())?;
        refuse(Setting::GroupOrder, self.group_order.is_some())?;
        rules.players = self.players.unwrap_or(rules.players);
        rules.suits = self.suits.unwrap_or(rules.suits);
        rules.ranks = self.ranks.unwrap_or(rules.ranks);
        rules.face_down = self.face_down.unwrap_or(rules.face_down);
        rules.shortage = self.shortage.unwrap_or(rules.shortage);
        rules.pickup = self.pickup.unwrap_or(rules.pickup);
        rules.spoils = self.spoils.unwrap_or(rules.spoils);
        rules.reshuffle_every = self.reshuffle_every.unwrap_or(rules.reshuffle_every);
        rules.max_rounds = self.max_rounds.unwrap_or(rules.max_rounds);
        rules.at_cap = self.at_cap.unwrap_or(rules.at_cap);
        rules.shuffle = self.shuffle.unwrap_or(rules.shuffle);
        rules.champion = self.champion.unwrap_or(rules.champion);
        rules.abandon_after = self.abandon_after.unwrap_or(rules.abandon_after);
        rules.group_order = self.group_order.unwrap_or(rules.group_order);
        rules.validate()?;
        Ok(rules)
    }
}

/// The value of a named setting, if given; an unknown name is an error naming `flag`.
pub fn named<T: Named>(flag: &'static str, given: Option<&str>) -> Result<Option<T>, ConfigError> {
    given.map(|text| named_value(flag, text)).transpose()
}

/// A named setting's value (any case), or an error listing the values `flag` takes.
pub fn named_value<T: Named>(flag: &'static str, text: &str) -> Result<T, ConfigError> {
    T::from_name(text).ok_or_else(|| ConfigError::UnknownValue {
        flag,
        given: text.to_string(),
        allowed: T::names(),
    })
}

/// The preset called `name` (any case), or an error listing them.
pub fn preset_named(name: &str) -> Result<Preset, ConfigError> {
    Preset::from_name(name).ok_or_else(|| ConfigError::UnknownRules {
        given: name.to_string(),
        known: Preset::names(),
    })
}
