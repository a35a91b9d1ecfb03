//! What one game produced: its outcome, what decided a win, its rounds and wars. Every family
//! reports a [`GameRecord`]; statistics and exporters read nothing else.

/// How a game ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Somebody won.
    #[default]
    Win,
    /// Nobody won and nobody can (a tied match; a war nobody can finish).
    Draw,
    /// The round cap stopped the game undecided.
    Capped,
    /// A position came back with nothing random left to change it: the game would never end.
    Cycle,
    /// Stopped after `--abandon-after` rounds in a row without a round winner, as
    /// WarSimulator's code gives up on a game it takes for unresolvable.
    Abandoned,
}

impl Outcome {
    /// Every outcome, in output order.
    pub const ALL: [Outcome; 5] = [
        Outcome::Win,
        Outcome::Draw,
        Outcome::Capped,
        Outcome::Cycle,
        Outcome::Abandoned,
    ];

    /// The word used in CSV and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Capped => "capped",
            Outcome::Cycle => "cycle",
            Outcome::Abandoned => "abandoned",
        }
    }
}

/// What decided a won game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinBy {
    /// The winner holds every card.
    Cards,
    /// The larger pile at the round cap (game-of-war).
    Cap,
    /// The sudden-death round after equal piles at the cap (game-of-war).
    SuddenDeath,
    /// A war a hand was too short to finish gave the larger hand the game: a tie at the
    /// smaller hand's last card (`--war-shortage smaller-hand`, cards-war's), or any war with
    /// `--war-shortage end-game`.
    ShortTie,
    /// More round wins in a fixed number of rounds (fixed-rounds).
    Score,
}

impl WinBy {
    /// Every way to win, in output order.
    pub const ALL: [WinBy; 5] = [
        WinBy::Cards,
        WinBy::Cap,
        WinBy::SuddenDeath,
        WinBy::ShortTie,
        WinBy::Score,
    ];

    /// The word used in CSV and summaries.
    pub fn name(self) -> &'static str {
        match self {
            WinBy::Cards => "cards",
            WinBy::Cap => "cap",
            WinBy::SuddenDeath => "sudden_death",
            WinBy::ShortTie => "short_tie",
            WinBy::Score => "score",
        }
    }
}

/// What one game produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Rounds played; a whole war chain is one round.
    pub rounds: u32,
    /// Winning seat, 0-based (printed 1-based), when there is one.
    pub winner: Option<u8>,
    /// How the game ended.
    pub outcome: Outcome,
    /// What decided a win.
    pub win_by: Option<WinBy>,
    /// Ties that started a war, counting each tie of a chain and every group's war
    /// (fixed-rounds: tied rounds). A u64: a loop the cap decides may tie several times a
    /// round for up to 2^32 − 2 rounds.
    pub wars: u64,
    /// Most ties chained within one round (deepest nesting in the groups family).
    pub longest_war: u32,
    /// Every card laid on the table, face up or face down, by all players (the unit of
    /// Norvig's "plays" and of the small-deck studies' "cards turned").
    pub cards_played: u64,
}

impl GameRecord {
    /// Counts `ties` more ties, the deepest chain among them `chain` long.
    #[inline(always)]
    pub(crate) fn add_wars(&mut self, ties: u32, chain: u32) {
        self.wars += u64::from(ties);
        self.longest_war = self.longest_war.max(chain);
    }
}
