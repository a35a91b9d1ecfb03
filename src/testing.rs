//! The engine's internals, for warsim's own integration tests and benches only (the `testing`
//! feature, which they turn on): the game state with hands dealt by hand, single-game
//! observation, the fixed-rounds game, the random streams with their reference shuffles, and
//! the per-game CSV's row formatter (`benches/rows.rs`).
//! Not part of the library's API: anything here may change in any release.

pub use crate::engine::card::{Card, SuitedCard};
pub use crate::engine::families::fixed::FixedRoundsGame;
pub use crate::engine::game::{CYCLE_CHECK_FROM, Observer, PileGame, Play, Step};
pub use crate::engine::random::{
    AnyRng, GameRandom, GameRng, Shuffler, WarCardGameRng, batched_shuffle, bounded_u32, game_rng,
    shuffle_one_by_one,
};
pub use crate::export::csv::format_rows;
