//! Enumeration state files (`warsim enumerate --state PATH`, with or without `--shard K/N`):
//! the exact counts over the sequences of a part of a deck's deals played so far, so that an
//! enumeration stopped or checkpointed goes on from there (`warsim resume`), and the parts,
//! played on many machines, merge into the whole enumeration's figures (`warsim merge`). Plain
//! data: `enumerate` turns its tally into this and back.

use std::io;

use serde::{Deserialize, Serialize};

use super::{FORMAT_VERSION, Resumable, RuleSettings, write_pretty};

/// What the `format` key of an enumeration's state holds.
pub const ENUMERATION_FORMAT: &str = "warsim-enumeration-state";

/// One enumeration state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnumerationState {
    /// Always [`ENUMERATION_FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// The warsim that wrote it.
    pub warsim_version: String,
    /// The rules every deal is played under.
    pub rules: RuleSettings,
    /// Which deals (`--deals`: `all`, `unordered`, `lex-half`).
    pub deals: String,
    /// The sequences of ranks the whole enumeration draws from.
    pub sequences: u64,
    /// This part's sequences: `first` to `end − 1`.
    pub first: u64,
    /// One past this part's last sequence.
    pub end: u64,
    /// The first sequence not yet played: the tally counts sequences `first` to `next − 1`, and
    /// the part is whole when `next` is `end`.
    pub next: u64,
    /// How the part went: its wall time and threads.
    pub wall_seconds: f64,
    /// Worker threads.
    pub threads: usize,
    /// The exact counts over the part's deals played.
    pub tally: TallyState,
    /// How to continue it: its command line and folder (none for a merge's).
    pub resume: Option<Resumable>,
}

/// An enumeration's exact counts, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyState {
    /// Deals played.
    pub deals: u64,
    /// Games won, by seat.
    pub wins: Vec<u64>,
    /// Games nobody won.
    pub draws: u64,
    /// Games stopped by the round cap.
    pub capped: u64,
    /// Games that loop forever.
    pub cycled: u64,
    /// Won games by what decided them, in the summary's `win_by_*` order.
    pub win_by: Vec<u64>,
    /// Finite games by their rounds, cards laid and ties: `[value, games]`, ascending.
    pub rounds: Vec<(u64, u64)>,
    /// See `rounds`.
    pub cards: Vec<(u64, u64)>,
    /// See `rounds`.
    pub wars: Vec<(u64, u64)>,
    /// The finite game of the most rounds, the first such deal.
    pub longest: Option<LongestState>,
    /// The finite game of the most cards laid, the first such deal.
    pub longest_by_cards: Option<LongestState>,
    /// Every distinct cycle, by its least position.
    pub cycles: Vec<CycleState>,
}

/// A longest game: its length and its deal (a sequence of ranks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongestState {
    /// Its rounds.
    pub rounds: u32,
    /// Cards laid by every player.
    pub cards_played: u64,
    /// The deal.
    pub deal: Vec<u8>,
}

/// A distinct cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleState {
    /// Its least position.
    pub position: Vec<u8>,
    /// Rounds to go round it once.
    pub period: u32,
    /// Deals that end in it.
    pub deals: u64,
    /// Its least position with the two seats exchanged (two players).
    pub mirror: Option<Vec<u8>>,
}

impl EnumerationState {
    /// Whether every sequence of its part was played.
    pub fn whole(&self) -> bool {
        self.next == self.end
    }

    /// Writes the state as JSON.
    pub fn write(&self, out: &mut dyn io::Write) -> io::Result<()> {
        write_pretty(out, self)
    }

    /// Reads a state from its JSON text, refusing one whose part is no part of its sequences.
    pub(super) fn from_json(text: &[u8]) -> Result<EnumerationState, String> {
        let state: EnumerationState =
            serde_json::from_slice(text).map_err(|e| format!("is damaged: {e}"))?;
        if state.format != ENUMERATION_FORMAT || state.format_version != FORMAT_VERSION {
            return Err(format!(
                "is not a warsim enumeration state of format version {FORMAT_VERSION}"
            ));
        }
        if state.first > state.end || state.end > state.sequences {
            return Err(format!(
                "is damaged: sequences {} to {} are no part of its {}",
                state.first, state.end, state.sequences
            ));
        }
        if !(state.first..=state.end).contains(&state.next) {
            return Err(format!(
                "is damaged: its next sequence, {}, is not in its part, {} to {}",
                state.next, state.first, state.end
            ));
        }
        Ok(state)
    }
}
