//! warsim: a deterministic, parallel Monte Carlo engine for the card game War.
//!
//! The library holds everything: the rules engine ([`engine`]), the batch runner ([`batch`]),
//! statistics ([`stats`]), exporters ([`export`]) and figures ([`plot`]); the commands built on
//! them: a run ([`run`]), a sweep ([`sweep`]), exact enumeration of small decks
//! ([`enumerate`]), merging shards ([`merge`]) from their checkpoints ([`state`]), single games
//! ([`play`]); and the command line ([`cli`]). The binary only calls [`cli::main`].

#![deny(missing_docs)]

// Signals, file identities (device and inode) and non-UTF-8 paths are read the Unix way: say so
// plainly, beside the unresolved imports that alone would say little.
#[cfg(not(unix))]
compile_error!(
    "warsim needs a Unix system such as Linux (on Windows, WSL): it uses Unix signals, file \
     identities and paths"
);

/// Writes a line to standard error as `eprintln!` does, but never panics where it cannot: a
/// run whose standard error goes to a full disk (`2> log` there, or `> f 2>&1` beside its
/// rows) still ends with the exit status it calls for, the one word left to it. Always one
/// line: control characters (a newline in a path the user gave) are written as escapes, so a
/// warning, a note or an error never spills onto a second line a script would read alone. And
/// written in one write, its newline with it: a script reading the log as warsim writes it never
/// finds a line without its end.
macro_rules! say {
    ($($words:tt)*) => {{
        let text = format!($($words)*);
        let _ = $crate::export::text::write_line(&mut std::io::stderr(), &text);
    }};
}

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
