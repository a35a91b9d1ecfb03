//! warsim: a deterministic, parallel Monte Carlo engine for the card game War.
//!
//! The library holds everything: the rules engine ([`engine`]), the batch runner
//! ([`batch`]), exact enumeration of small decks ([`enumerate`]), statistics ([`stats`]), exporters ([`export`]) and the command line
//! ([`cli`]). The binary only calls [`cli::main`].

#![deny(missing_docs)]

pub mod batch;
pub mod cli;
pub mod config;
pub mod engine;
pub mod enumerate;
pub mod export;
pub mod interrupt;
pub mod merge;
pub mod play;
pub mod plot;
pub mod progress;
pub mod run;
pub mod state;
pub mod stats;
pub mod sweep;
#[cfg(feature = "testing")]
pub mod testing;
