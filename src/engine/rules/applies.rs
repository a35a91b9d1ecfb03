//! The settings a user may give on the command line, and which of them each rule family takes
//! (a setting a family cannot take is refused, never ignored).

use super::Family;

/// A setting that a rule family may or may not take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `--face-down`.
    FaceDown,
    /// `--war-shortage`.
    Shortage,
    /// `--pickup`.
    Pickup,
    /// `--spoils`.
    Spoils,
    /// `--reshuffle-every`.
    ReshuffleEvery,
    /// `--max-rounds`.
    MaxRounds,
    /// `--at-cap`.
    AtCap,
    /// `--shuffle`.
    Shuffle,
    /// `--champion`.
    Champion,
    /// `--abandon-after`.
    AbandonAfter,
    /// `--group-order`.
    GroupOrder,
}

impl Setting {
    /// The command-line flag of the setting.
    pub fn flag(self) -> &'static str {
        match self {
            Setting::FaceDown => "--face-down",
            Setting::Shortage => "--war-shortage",
            Setting::Pickup => "--pickup",
            Setting::Spoils => "--spoils",
            Setting::ReshuffleEvery => "--reshuffle-every",
            Setting::MaxRounds => "--max-rounds",
            Setting::AtCap => "--at-cap",
            Setting::Shuffle => "--shuffle",
            Setting::Champion => "--champion",
            Setting::AbandonAfter => "--abandon-after",
            Setting::GroupOrder => "--group-order",
        }
    }
}

impl Family {
    /// Whether games of this family have the setting; `None`, or why not.
    pub fn refuses(self, setting: Setting) -> Option<&'static str> {
        match (self, setting) {
            (Family::Table, Setting::Champion) => {
                Some("its face-up card is always the last card a player lays")
            }
            (Family::Table, Setting::AbandonAfter) => {
                Some("a round without a winner ends its game as a draw at once")
            }
            (Family::Table, Setting::GroupOrder) => Some("only its top tie goes to war"),
            (Family::Table, _) => None,
            (
                Family::Groups,
                Setting::FaceDown
                | Setting::MaxRounds
                | Setting::Shuffle
                | Setting::Champion
                | Setting::AbandonAfter
                | Setting::GroupOrder,
            ) => None,
            (Family::Groups, _) => Some(
                "its wars are fought by every tied group with what each player has, and won cards always go to a shuffled spoil heap",
            ),
            (Family::FixedRounds, _) => Some("it plays a fixed number of rounds with no wars"),
        }
    }
}
