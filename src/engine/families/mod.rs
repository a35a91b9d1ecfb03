//! The game loops of the rule families beyond the shared round loop (`game_loop.rs`): the table
//! family's round (`table.rs`: classic War and its variants, with its wars' layouts under each
//! shortage rule in `layouts.rs`), the groups family's
//! (`groups.rs`: WarSimulator, where every tied group wars; its rounds of three and four
//! players in `small_groups.rs`), and the fixed-rounds family's own
//! game (`fixed.rs`: each player its own deck, no wars); and how a shared-deck game ends
//! besides one player holding every card (`endings.rs`: caps, sudden death, cycles, reshuffles).

mod endings;
pub mod fixed;
mod groups;
mod halves_wars;
mod layouts;
mod small_groups;
mod small_halves;
mod table;
