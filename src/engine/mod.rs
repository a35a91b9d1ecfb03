//! The rules engine: plays one seeded game under a [`Rules`] value and reports a [`GameRecord`].
//!
//! [`Engine`] owns the reusable game state of one worker, sized by deck class so a 52-card game
//! works in 64-byte piles while a 1024-card game still fits; it is an enum, not a trait object,
//! so the hot loop is monomorphized per class.

pub mod card;
pub mod pile;
pub mod random;
pub mod rules;
pub mod standard;

pub use card::{Card, SuitedCard};
pub use rules::{MAX_CARDS, MAX_PLAYERS, MAX_RANKS, Preset, Rules, RulesError};

use standard::StandardGame;

/// How a game ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player holds every card.
    #[default]
    Win,
    /// The game cannot go on and nobody won (every player ran out in the same war).
    Draw,
    /// The round cap stopped the game.
    Capped,
}

impl Outcome {
    /// Every outcome, in output order.
    pub const ALL: [Outcome; 3] = [Outcome::Win, Outcome::Draw, Outcome::Capped];

    /// The word used in CSV and summaries.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Capped => "capped",
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
    /// Ties that started a war, counting each tie of a chain.
    pub wars: u32,
    /// Most ties chained within one round.
    pub longest_war: u32,
}

impl GameRecord {
    #[inline(always)]
    fn note_war(&mut self, ties: u32) {
        self.wars += ties;
        self.longest_war = self.longest_war.max(ties);
    }
}

/// One worker's game state, sized for the deck.
pub enum Engine {
    /// Up to 64 cards.
    Cards64(Box<StandardGame<u8, 64>>),
    /// Up to 256 cards.
    Cards256(Box<StandardGame<u8, 256>>),
    /// Up to 1024 cards.
    Cards1024(Box<StandardGame<u8, 1024>>),
}

impl Engine {
    /// Game state big enough for `rules` (which must be valid).
    pub fn for_rules(rules: &Rules) -> Engine {
        match rules.cards() {
            0..=64 => Engine::Cards64(StandardGame::boxed()),
            65..=256 => Engine::Cards256(StandardGame::boxed()),
            _ => Engine::Cards1024(StandardGame::boxed()),
        }
    }

    /// Plays the game with this seed.
    #[inline]
    pub fn play(&mut self, rules: &Rules, seed: u64) -> GameRecord {
        let mut rng = random::game_rng(seed);
        match self {
            Engine::Cards64(game) => game.play(rules, &mut rng),
            Engine::Cards256(game) => game.play(rules, &mut rng),
            Engine::Cards1024(game) => game.play(rules, &mut rng),
        }
    }
}

/// Plays one game on its own (allocates its state; batch runs reuse an [`Engine`]).
pub fn play_game(rules: &Rules, seed: u64) -> GameRecord {
    Engine::for_rules(rules).play(rules, seed)
}
